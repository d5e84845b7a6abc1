"""`migrate --auto` (transfer_to_npu at each entry point, only what it cannot do fixed) and `migrate --distributed`
(the text of the multi-card conversion and its launcher; tests/projects/test_distributed_run.py runs it)."""

import ast
import json
import os
from pathlib import Path

from ascend_migrate.cli import main

SINGLE_CARD = Path(__file__).resolve().parents[1] / "fixtures" / "projects" / "single_card"
IMPORTS = ("import torch_npu\n", "from torch_npu.contrib import transfer_to_npu\n")

ENTRY = '''"""Training entry point."""
import torch
import torch.distributed as dist

from helpers import setup


def main():
    dist.init_process_group(backend="nccl")
    if dist.get_backend() == "nccl":
        print("nccl")
    model = torch.nn.Linear(2, 2).cuda()
    torch.cuda.synchronize()
    generator = torch.cuda.default_generators[0]
    return model, generator


if __name__ == "__main__":
    main()
'''
HELPERS = '''import torch


def setup():
    return torch.device("cuda")
'''


def _project(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(ENTRY, encoding="utf-8")
    (project / "helpers.py").write_text(HELPERS, encoding="utf-8")
    return project


def test_auto_inserts_the_imports_once_at_each_entry_point_and_leaves_remapped_names(tmp_path, capsys):
    project = _project(tmp_path)
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--auto"]) == 0
    train = (output / "train.py").read_text(encoding="utf-8")
    assert train.startswith('"""Training entry point."""\n' + "".join(IMPORTS))  # after the docstring, once
    assert 'init_process_group(backend="nccl")' in train  # transfer_to_npu rewrites this backend at run time
    assert 'dist.get_backend() == "hccl"' in train  # but not the user's comparison: fixed here
    assert ".cuda()" in train and "torch.cuda.synchronize()" in train  # remapped at run time
    assert "torch.cuda.default_generators" not in train  # not remapped by transfer_to_npu: renamed
    helpers = (output / "helpers.py").read_text(encoding="utf-8")
    assert helpers == HELPERS  # not an entry point (train.py imports it); its 'cuda' is remapped at run time
    summary = json.loads((output / "transplant_result_file" / "summary.json").read_text(encoding="utf-8"))
    assert summary["extra"]["entry_points"] == ["train.py"]
    assert summary["extra"]["left_to_transfer_to_npu"] >= 3
    # migrating the migrated copy again adds nothing: the imports are there once
    again = tmp_path / "again"
    assert main(["migrate", str(output), "-o", str(again), "--auto", "--extend-exclude", "transplant_result_file"]) == 0
    assert (again / "train.py").read_text(encoding="utf-8") == train


def test_auto_with_main_takes_only_that_file(tmp_path):
    project = _project(tmp_path)
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--auto", "--main", str(project / "helpers.py")]) == 0
    assert (output / "helpers.py").read_text(encoding="utf-8").startswith("".join(IMPORTS))
    assert "transfer_to_npu" not in (output / "train.py").read_text(encoding="utf-8")


def test_distributed_converts_the_main_file_and_writes_the_launcher(tmp_path, capsys):
    output = tmp_path / "out"
    code = main(["migrate", str(SINGLE_CARD), "-o", str(output), "--distributed", "--main", str(SINGLE_CARD / "train.py"), "--model", "model"])
    assert code == 0, capsys.readouterr().err
    text = (output / "train.py").read_text(encoding="utf-8")
    ast.parse(text)
    assert 'torch.distributed.init_process_group(backend="hccl", rank=RANK_ID, world_size=RANK_SIZE)' in text
    assert 'torch.npu.set_device(DEVICE_ID)' in text and 'DEVICE_ID = int(os.environ.get("LOCAL_RANK", "0"))' in text
    assert ("    train_loader_dataset = TensorDataset(features, labels)\n"
            "    train_loader = DataLoader(train_loader_dataset, batch_size=8, shuffle=False, "
            "sampler=torch.utils.data.distributed.DistributedSampler(train_loader_dataset, shuffle=True))") in text
    lines = text.splitlines()
    set_epoch = lines.index("        train_loader.sampler.set_epoch(epoch)")
    assert lines[set_epoch - 1].strip() == "for epoch in range(args.epochs):"
    wrap = lines.index("    model = torch.nn.parallel.DistributedDataParallel(model)")
    assert lines[wrap - 1].strip() == "model = model.to(device)"
    assert any(line.strip().startswith("if RANK_ID == 0: print(") for line in lines)
    assert "    if RANK_ID == 0: torch.save(model.state_dict(), args.checkpoint)" in lines
    launcher = output / "run_distributed_npu.sh"
    assert os.access(launcher, os.X_OK) and "torchrun --standalone --nnodes=1 --nproc_per_node=\"$cards\"" in launcher.read_text()
    changes = (output / "transplant_result_file" / "change_list.csv").read_text(encoding="utf-8")
    assert "add statement of sampler.set_epoch" in changes and "wrap model in DistributedDataParallel" in changes


def test_distributed_replaces_data_parallel_and_refuses_an_unknown_model(tmp_path, capsys):
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.py").write_text(
        "import torch\n\nnet = torch.nn.Linear(2, 2)\nif torch.cuda.device_count() > 1:\n    net = torch.nn.DataParallel(net)\n",
        encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--distributed", "--main", str(project / "main.py"), "--model", "net", "--unsafe"]) == 0
    text = (output / "main.py").read_text(encoding="utf-8")
    assert "DataParallel(net)" not in text.replace("DistributedDataParallel(net)", "")
    assert text.count("DistributedDataParallel(net)") == 1
    ast.parse(text)
    other = tmp_path / "other"
    assert main(["migrate", str(project), "-o", str(other), "--distributed", "--main", str(project / "main.py"), "--model", "model"]) == 1
    assert "--model model: no assignment to model in the main file" in capsys.readouterr().err


def test_distributed_wraps_after_the_model_is_moved_and_refuses_a_multi_card_script(tmp_path, capsys):
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.py").write_text("import torch\n\nmodel = torch.nn.Linear(2, 2)\nmodel.cuda()\nprint(model)\n", encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--distributed", "--main", str(project / "main.py"), "--model", "model"]) == 0
    lines = (output / "main.py").read_text(encoding="utf-8").splitlines()
    assert lines[lines.index("model = torch.nn.parallel.DistributedDataParallel(model)") - 1] == "model.npu()"
    (project / "main.py").write_text("import torch.distributed as dist\n\ndist.init_process_group('nccl')\nmodel = 1\n", encoding="utf-8")
    again = tmp_path / "again"
    assert main(["migrate", str(project), "-o", str(again), "--distributed", "--main", str(project / "main.py"), "--model", "model"]) == 1
    assert "multi-card already (init_process_group at line 3); not converted" in capsys.readouterr().err
    assert "RANK_ID" not in (again / "main.py").read_text(encoding="utf-8")
