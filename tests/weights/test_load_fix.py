"""The MindSpore route's torch.load fix loads the checkpoint `weights convert` writes, never the .pth itself."""

from pathlib import Path

import pytest

from ascend_migrate.cli import main
from ascend_migrate.fixes.families.load_checkpoint import converted_path
from ascend_migrate.weights.convert import default_output


def _fixed(tmp_path: Path, source: str) -> str:
    program = tmp_path / "train.py"
    program.write_text(source, encoding="utf-8")
    assert main(["fix", "--unsafe", "--target", "mindspore", "--write", str(program)]) in (0, 1)
    return program.read_text(encoding="utf-8")


def test_a_literal_weights_path_becomes_the_converted_checkpoint(tmp_path):
    fixed = _fixed(tmp_path, 'import torch\nstate = torch.load("runs/model.pth", map_location="cpu", weights_only=True)\n'
                             "net.load_state_dict(torch.load('w.safetensors'))\n")
    assert fixed == ('import mindspore\nstate = mindspore.load_checkpoint("runs/model.ckpt")\n'
                     "net.load_state_dict(mindspore.load_checkpoint('w.ckpt'))\n")


@pytest.mark.parametrize("call", ["torch.load(path)", 'torch.load(f"{root}/model.pth")', 'torch.load("notes.txt")'])
def test_a_path_convert_did_not_name_gets_no_fix(tmp_path, call):
    source = f"import torch\nstate = {call}\n"
    assert _fixed(tmp_path, source) == source


@pytest.mark.parametrize("name", ["model.pth", "a/b.pt", "pytorch_model.bin", "x.safetensors", "dir.v2/model.PTH"])
def test_the_fix_and_convert_name_the_same_file(name):
    assert converted_path(name) == str(default_output(Path(name)))
