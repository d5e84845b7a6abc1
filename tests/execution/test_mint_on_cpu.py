"""What mint_on_cpu.py emulates has no CPU kernel in this interpreter's mindspore (the day one gains its kernel this
fails, and the emulation goes), and the deterministic emulations compute what mindspore computes. Needs mindspore 2.10
(CI stage 38-execution); skips cleanly without it. One fresh interpreter runs every call, so a missing kernel's error
cannot leave state behind in the test process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mindspore")

from tests.execution import mint_on_cpu  # noqa: E402 (needs mindspore; importing it patches nothing)

# `python -c PROBE DIRECTORY NAME` calls the original of mint_on_cpu.EMULATED's NAME on CPU with a small argument and
# prints its kernel and what happened; `... DIRECTORY equivalence` prints the deterministic emulations beside what
# mindspore's CPU kernels compute. One interpreter per original: in one interpreter, mint.arange called after
# mint.randperm failed reported "The kernel RandpermExt unregistered." (mindspore 2.10).
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import mindspore
from mindspore import mint, ops
import mint_on_cpu

mindspore.set_device("CPU")
SAMPLES = {"randn": lambda f: f(2, 3), "rand": lambda f: f(2, 3), "randint": lambda f: f(0, 5, (3,)), "randperm": lambda f: f(4),
           "arange": lambda f: f(4), "clone": lambda f: f(ops.arange(4))}
if sys.argv[2] != "equivalence":
    owner, name, _, kernel = next(entry for entry in mint_on_cpu.EMULATED if entry[1] == sys.argv[2])
    try:
        SAMPLES[name](getattr(owner, name)).asnumpy()
        print(json.dumps([kernel, "ran"]))
    except RuntimeError as error:
        print(json.dumps([kernel, str(error).splitlines()[0]]))
else:
    ARANGES = [(5,), (1, 6), (0, 10, 3), (5, 0, -2), (0, 1, 0.25), (0.5, 3), (2, 9, 2.5)]
    aranges = []
    for arguments in ARANGES:
        mine, theirs = mint_on_cpu.arange(*arguments), ops.arange(*arguments)
        aranges.append([list(arguments), str(mine.dtype), str(theirs.dtype), mine.asnumpy().tolist(), theirs.asnumpy().tolist()])
    weights = mindspore.Tensor([1.0, -2.0, 3.5])
    gradient = mindspore.grad(lambda tensor: (mint_on_cpu.clone(tensor) * tensor).sum())(weights)
    copied = mint_on_cpu.clone(weights)
    clone = {"values": copied.asnumpy().tolist(), "dtype": str(copied.dtype), "gradient": gradient.asnumpy().tolist(),
             "distinct": copied is not weights}
    print(json.dumps({"aranges": aranges, "clone": clone}))
"""


def probe(what: str):
    run = subprocess.run([sys.executable, "-c", PROBE, str(Path(__file__).parent), what], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def probed() -> dict:
    return probe("equivalence")


@pytest.mark.parametrize("name", [name for _, name, _, _ in mint_on_cpu.EMULATED])
def test_the_emulated_op_has_no_cpu_kernel(name: str) -> None:
    kernel, outcome = probe(name)
    assert outcome != "ran", f"mindspore's CPU build runs {name} now: drop it from mint_on_cpu.EMULATED"
    assert re.search(rf"The kernel {kernel} unregistered|Create kernelmod for op {kernel} failed", outcome), f"{name}: {outcome}"


def test_arange_on_the_host_is_mindspores(probed) -> None:
    """ops.arange has a CPU kernel and follows the dtype rule mint.arange documents (int64 for integers, else float32)."""
    for arguments, dtype, expected_dtype, values, expected_values in probed["aranges"]:
        assert (dtype, values) == (expected_dtype, expected_values), f"arange{tuple(arguments)}"
    assert {dtype for _, dtype, _, _, _ in probed["aranges"]} == {"Int64", "Float32"}


def test_clone_keeps_values_and_gradients(probed) -> None:
    clone = probed["clone"]
    assert clone["values"] == [1.0, -2.0, 3.5] and clone["dtype"] == "Float32" and clone["distinct"]
    assert clone["gradient"] == [2.0, -4.0, 7.0]  # d/dt sum(clone(t) * t) = 2t: the gradient flows through the copy
