"""The multi-card conversion runs: the converted single-card script trains in two processes on CPU (gloo, with the
npu names emulated by `ascend-migrate run`), and the launcher starts one process per card with torchrun.

Needs torch (stage 35's venv, .ci/stages/35-runtime.sh); skips without it.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from ascend_migrate.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SINGLE_CARD = ROOT / "tests" / "fixtures" / "projects" / "single_card"
TIMEOUT = 300


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(**values: str) -> dict[str, str]:
    environment = dict(os.environ)
    # this checkout's ascend_migrate, whatever the venv has installed
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT / "server"), environment.get("PYTHONPATH"))))
    environment.update(values)
    return environment


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    output = tmp_path_factory.mktemp("distributed") / "out"
    code = main(["migrate", str(SINGLE_CARD), "-o", str(output), "--distributed",
                 "--main", str(SINGLE_CARD / "train.py"), "--model", "model"])
    assert code == 0
    return output


def test_the_converted_script_trains_in_two_processes(converted, tmp_path):
    port = str(_free_port())
    checkpoint = tmp_path / "checkpoint.pt"
    processes = []
    for rank in (0, 1):  # what torchrun sets for each worker; `run` installs the npu emulation in each
        environment = _environment(MASTER_ADDR="127.0.0.1", MASTER_PORT=port, WORLD_SIZE="2", RANK=str(rank), LOCAL_RANK=str(rank))
        command = [sys.executable, "-m", "ascend_migrate", "run", "--", "python", "train.py", "--epochs", "2",
                   "--checkpoint", str(checkpoint)]
        processes.append(subprocess.Popen(command, cwd=converted, env=environment, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True))
    outputs = []
    for process in processes:
        output, _ = process.communicate(timeout=TIMEOUT)
        outputs.append(output)
        assert process.returncode == 0, output
    # rank 0 logs, and each process saw half of the 8 batches: the DistributedSampler shards the data
    assert "epoch 0 loss" in outputs[0] and "epoch 1 loss" in outputs[0] and "batches 4" in outputs[0]
    assert "epoch 0 loss" not in outputs[1]
    assert "the program completed" in outputs[1]
    import torch

    state = torch.load(checkpoint)  # saved once, by rank 0, from the DDP-wrapped model
    assert sorted(state) == ["module.layers.0.bias", "module.layers.0.weight", "module.layers.2.bias", "module.layers.2.weight"]


def test_the_launcher_starts_one_process_per_card_with_torchrun(converted, tmp_path):
    torchrun = Path(sys.executable).parent / "torchrun"
    if not torchrun.exists():
        pytest.skip("torchrun is not beside this interpreter")
    probe = converted / "probe.py"
    # each process writes its own file: two processes printing to one pipe may interleave their lines
    probe.write_text("import os, pathlib, sys\n"
                     "pathlib.Path(sys.argv[1], 'rank' + os.environ['RANK']).write_text("
                     "os.environ['RANK'] + ' of ' + os.environ['WORLD_SIZE'] + ' local ' + os.environ['LOCAL_RANK'])\n",
                     encoding="utf-8")
    environment = _environment(PATH=os.pathsep.join((str(torchrun.parent), os.environ.get("PATH", ""))))
    result = subprocess.run([str(converted / "run_distributed_npu.sh"), "2", "python", "probe.py", str(tmp_path)], cwd=converted,
                            env=environment, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    written = {path.name: path.read_text() for path in tmp_path.glob("rank*")}
    assert written == {"rank0": "0 of 2 local 0", "rank1": "1 of 2 local 1"}
    usage = subprocess.run([str(converted / "run_distributed_npu.sh")], capture_output=True, text=True, timeout=TIMEOUT)
    assert usage.returncode == 2 and "usage:" in usage.stderr


def test_the_automatic_migration_of_the_single_card_script_runs(tmp_path):
    output = tmp_path / "auto"
    assert main(["migrate", str(SINGLE_CARD), "-o", str(output), "--auto"]) == 0
    text = (output / "train.py").read_text(encoding="utf-8")
    assert "from torch_npu.contrib import transfer_to_npu" in text and 'torch.device("cuda"' in text  # left to transfer_to_npu
    result = subprocess.run([sys.executable, "-m", "ascend_migrate", "run", "--", "python", "train.py", "--checkpoint",
                             str(tmp_path / "checkpoint.pt")], cwd=output, env=_environment(), capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "epoch 0 loss" in result.stdout + result.stderr and "batches 8" in result.stdout + result.stderr
