"""The npu route proven by execution: each corpus program (tests/execution/corpus/npu_*) is copied, fixed with
`ascend-migrate fix --write --unsafe --target npu` and run under `ascend-migrate run` (torch_npu emulated on CPU).

Needs torch (CPU); CI stage 35 runs it. A fix family that breaks one of these programs fails here.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")  # nanoGPT reads its tokens with numpy.memmap; GAT parses Cora with numpy

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CUDA_LEFT = {"NPU101", "NPU102", "NPU105"}  # a torch.cuda call, a CUDA device, a .cuda() method seen at run time


@dataclass(frozen=True)
class Program:
    folder: str
    script: str
    arguments: tuple[str, ...]
    steps: int | None = 3
    outcome: str = "steps"
    status: int = 0  # `run`'s exit status: 0 clean, 1 a required finding confirmed at run time


PROGRAMS = {
    "npu_imagenet": Program("npu_imagenet", "main.py", ("--dummy", "-b", "16", "--epochs", "1", "-j", "0", "--gpu", "0")),
    "npu_nanogpt": Program("npu_nanogpt", "train.py", (
        "--dataset=tiny", "--compile=False", "--n_layer=2", "--n_head=2", "--n_embd=32", "--block_size=16",
        "--batch_size=4", "--gradient_accumulation_steps=1", "--max_iters=5", "--eval_interval=1000", "--eval_iters=2",
        "--log_interval=1")),
    "npu_ddp_example": Program("npu_ddp_example", "example.py", ("--local_world_size=1",), steps=None, outcome="completed"),
    "npu_ddp_tutorial": Program("npu_ddp_tutorial", "multigpu.py", ("2", "1", "--batch_size", "512"), steps=None,
                                outcome="completed"),
    "npu_gat": Program("npu_gat", "main.py", ("--epochs", "5", "--hidden-dim", "8", "--num-heads", "2"), status=1),
    # Session 9: a new user's GPU programs (torchrun + DDP + fp16 AMP with snapshots; AMP with CUDA memory statistics and
    # synchronised timing; torch.compile with CUDA-event timing, TorchScript and FX), each run to its end.
    "npu_mingpt_ddp": Program("npu_mingpt_ddp", "main.py", (), steps=None, outcome="completed"),
    "npu_amp_recipe": Program("npu_amp_recipe", "amp_recipe.py", (), steps=None, outcome="completed"),
    "npu_compile_tutorial": Program("npu_compile_tutorial", "compile_tutorial.py", (), steps=None, outcome="completed"),
    # The MindSpore route's programs (tests/execution/test_mindspore_route.py; their folders are used read-only), on
    # the npu route too: the same arguments, a few optimizer steps, or to their end where they take fewer.
    "guide_resnet": Program("guide_resnet", "train.py", ()),
    "mnist": Program("mnist", "main.py", ("--epochs", "1", "--batch-size", "32", "--test-batch-size", "32", "--save-model")),
    "mnist_rnn": Program("mnist_rnn", "main.py", ("--epochs", "1", "--batch-size", "32", "--test-batch-size", "32",
                                                  "--save-model")),
    "vae": Program("vae", "main.py", ("--epochs", "1", "--batch-size", "64")),
    "regression": Program("regression", "main.py", (), steps=None, outcome="completed"),  # a manual SGD step: no optimizer
    "super_resolution": Program("super_resolution", "main.py", ("--upscale_factor", "2"), steps=None, outcome="completed"),
    "word_language_model": Program("word_language_model", "train.py", ()),
    "dcgan": Program("dcgan", "main.py", ("--niter", "1", "--batchSize", "4", "--nz", "8", "--ngf", "8", "--ndf", "8",
                                          "--workers", "0", "--outf", "out")),
    "time_sequence_prediction": Program("time_sequence_prediction", "train.py", (), steps=None, outcome="completed"),
    # Sessions 8 and 9: the user-shaped programs of the MindSpore route (pytorch/tutorials, pytorch/examples), 3 steps each.
    "amp_cifar": Program("amp_cifar", "train.py", ()),  # torch.cuda.amp autocast and GradScaler -> torch.npu.amp
    "finetune": Program("finetune", "train.py", ()),  # "cuda:0" -> "npu:0", parameter groups in NpuFusedSGD
    "text_classifier": Program("text_classifier", "train.py", ()),  # a DataLoader with a collate_fn over a list
    "gcn": Program("gcn", "main.py", ("--epochs", "20", "--val-every", "10", "--include-bias")),  # torch.accelerator
    "reinforce": Program("reinforce", "reinforce.py", ("--episodes", "3", "--log-interval", "1")),
    "siamese_network": Program("siamese_network", "main.py", ("--epochs", "1", "--batch-size", "8", "--test-batch-size", "8",
                                                              "--log-interval", "4", "--save-model")),
}


def _ascend_migrate(*arguments: str, cwd: Path, environment: dict | None = None, timeout: float = 420):
    return subprocess.run([sys.executable, "-m", "ascend_migrate", *arguments], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(environment or {})})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _write_data(folder: str, directory: Path) -> dict:
    """The small data each program reads (what its own download or prepare step would leave), and its environment."""
    generator = random.Random(0)
    if folder == "npu_nanogpt":
        data = directory / "data" / "tiny"
        data.mkdir(parents=True)
        for split in ("train", "val"):
            numpy.array([generator.randrange(65) for _ in range(4096)], dtype=numpy.uint16).tofile(data / f"{split}.bin")
        (data / "meta.pkl").write_bytes(pickle.dumps({"vocab_size": 65}))
    if folder == "npu_gat":  # Cora's two files: "id features... label" and "cited citing"
        cora = directory / "cora"
        cora.mkdir()
        nodes = [1000 + index for index in range(1700)]
        labels = ("Theory", "Neural_Networks", "Rule_Learning")
        (cora / "cora.content").write_text("".join(
            "\t".join([str(node), *(str(generator.randint(0, 1)) for _ in range(16)), generator.choice(labels)]) + "\n"
            for node in nodes), encoding="utf-8")
        (cora / "cora.cites").write_text("".join(
            f"{generator.choice(nodes)}\t{generator.choice(nodes)}\n" for _ in range(4000)), encoding="utf-8")
    if folder == "npu_mingpt_ddp":  # the character corpus (the example reads tinyshakespeare) and torchrun's variables
        data = directory / "data"
        data.mkdir()
        (data / "input.txt").write_text("".join(generator.choice("abcdefghijkl \n") for _ in range(320)), encoding="utf-8")
        return {"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(_free_port())}
    if folder == "npu_ddp_example":  # one process, as torchrun would start it
        return {"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(_free_port())}
    return {}


def fixed_copy(folder: str, directory: Path) -> Path:
    """The corpus folder copied and fixed as a user would: `fix --write --unsafe --target npu`."""
    copy = directory / folder
    shutil.copytree(CORPUS / folder, copy)
    fixed = _ascend_migrate("fix", "--write", "--unsafe", "--target", "npu", ".", cwd=copy)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "applied" in fixed.stderr and "not fixed" not in fixed.stderr, fixed.stderr
    return copy


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_fixed_program_runs_under_the_emulation(name, tmp_path):
    program = PROGRAMS[name]
    copy = fixed_copy(program.folder, tmp_path)
    environment = _write_data(program.folder, copy)
    assert "import torch_npu" in (copy / program.script).read_text(encoding="utf-8")
    steps = ("--steps", str(program.steps)) if program.steps else ()
    run = _ascend_migrate("run", *steps, "--format", "json", "--", "python", program.script, *program.arguments,
                          cwd=copy, environment=environment)
    report = json.loads(run.stdout or "{}")
    assert report.get("program", {}).get("outcome") == program.outcome, run.stderr[-3000:]
    assert run.returncode == program.status, (run.returncode, report.get("findings"), run.stderr[-3000:])
    left = [(finding["path"], finding["line"], finding["code"]) for finding in report["findings"] if finding["code"] in CUDA_LEFT]
    assert left == [], f"CUDA left after the fix, seen at run time: {left}"
    if program.steps:
        assert report["program"]["steps"] == program.steps


def test_a_sparse_tensor_is_reported_where_the_fixed_gat_makes_it(tmp_path):
    copy = fixed_copy("npu_gat", tmp_path)
    _write_data("npu_gat", copy)
    run = _ascend_migrate("run", "--steps", "1", "--format", "json", "--", "python", "main.py", "--epochs", "1",
                          "--hidden-dim", "8", "--num-heads", "2", cwd=copy)
    source = (copy / "main.py").read_text(encoding="utf-8").splitlines()
    unsupported = [(finding["line"], finding["api"]) for finding in json.loads(run.stdout)["findings"] if finding["code"] == "NPU201"]
    assert unsupported and all("to_sparse" in source[line - 1] for line, _ in unsupported), unsupported
    assert {api for _, api in unsupported} == {"torch.Tensor.to_sparse"}


def test_imagenet_without_a_device_index_stops_at_data_parallel_which_the_scan_reports(tmp_path):
    copy = fixed_copy("npu_imagenet", tmp_path)
    lines = [number for number, text in enumerate((copy / "main.py").read_text(encoding="utf-8").splitlines(), start=1)
             if "torch.nn.DataParallel(" in text]
    assert len(lines) == 2  # the fix leaves DataParallel where it was: no DistributedDataParallel without a process group
    scan = json.loads(_ascend_migrate("scan", "--target", "npu", "--format", "json", "main.py", cwd=copy).stdout)
    reported = {finding["line"]: finding for finding in scan["findings"] if finding["api"] == "torch.nn.DataParallel"}
    assert sorted(reported) == lines
    assert all("ascend-migrate migrate --distributed" in finding["suggestion"] and not finding["fixable"]
               for finding in reported.values())
    run = _ascend_migrate("run", "--steps", "3", "--format", "json", "--", "python", "main.py", "--dummy", "-b", "16",
                          "--epochs", "1", "-j", "0", cwd=copy)
    assert run.returncode == 3  # the program's own failure: Ascend refuses DataParallel
    [finding] = json.loads(run.stdout)["findings"]
    assert (finding["line"], finding["code"]) == (lines[1], "NPU201")
