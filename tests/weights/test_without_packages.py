"""Without torch and mindspore (the README's test environment), the weights commands say what to install, and the
CLI never imports them to start."""

import importlib.util
import subprocess
import sys

import pytest

from ascend_migrate.cli import main

needs_no_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed here")


@needs_no_torch
def test_convert_says_which_extra_to_install(tmp_path, capsys):
    source = tmp_path / "model.pth"
    source.write_bytes(b"not read: the packages are checked first")
    assert main(["weights", "convert", str(source), "--model", f"{tmp_path}/net.py:Net"]) == 2
    error = capsys.readouterr().err
    assert "pip install 'ascend-migrate[weights]'" in error and not (tmp_path / "model.ckpt").exists()


@needs_no_torch
def test_compare_says_which_extra_to_install(capsys):
    assert main(["compare", "--torch", "a.py:A", "--mindspore", "b.py:B", "--input", "2,3"]) == 2
    assert "install it with: pip install 'ascend-migrate[weights]'" in capsys.readouterr().err


def test_usage_errors_come_before_any_package(tmp_path, capsys):
    assert main(["weights", "convert", str(tmp_path / "model.pth")]) == 2
    assert "PyTorch weights need --model FILE:CLASS" in capsys.readouterr().err
    assert main(["weights", "convert", str(tmp_path / "model.pth"), "--model", "net.py:Net", "-o", "out.pt"]) == 2
    assert "a MindSpore checkpoint is written to a .ckpt file" in capsys.readouterr().err
    assert main(["weights", "convert", str(tmp_path / "model.keras"), "--target-model", "net.py:Net", "--map", "m.yaml"]) == 2
    assert "--map renames PyTorch parameters" in capsys.readouterr().err
    assert main(["compare", "a.npy"]) == 2
    assert "either --torch FILE:CLASS and --mindspore FILE:CLASS, or two files" in capsys.readouterr().err


def test_the_cli_starts_without_importing_torch_or_mindspore():
    code = "import sys, ascend_migrate.cli as c; c.build_parser(); print(sorted(m for m in ('torch', 'mindspore', 'numpy') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("source", "reference", "message"),
    [
        (None, "net.py", "expected FILE:CLASS, e.g. models/net.py:Net"),
        (None, "{dir}/missing.py:Net", "missing.py: no such file"),
        ("raise RuntimeError('no GPU here')\n", "{file}:Net", "importing it failed: RuntimeError: no GPU here"),
        ("x = 1\n", "{file}:Net", "defines no 'Net'"),
        ("class Net:\n    def __init__(self, width):\n        pass\n", "{file}:Net", "the class must build with no arguments"),
    ],
)
def test_a_model_that_cannot_be_built_says_why(tmp_path, source, reference, message):
    from ascend_migrate.weights.errors import WeightsError
    from ascend_migrate.weights.models import build_model

    file = tmp_path / "net.py"
    if source is not None:
        file.write_text(source, encoding="utf-8")
    with pytest.raises(WeightsError) as raised:
        build_model(reference.format(dir=tmp_path, file=file))
    assert message in str(raised.value)
