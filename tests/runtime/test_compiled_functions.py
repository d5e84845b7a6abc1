"""torch.compile under the emulated torch_npu: TorchDynamo asks the accelerator for its current stream at the start of
every trace, which the emulated NPU answers with the host's stream (the torch.compile tutorial, session 9, failed
there with "PyTorch is not linked with support for npu devices" before any of its own code ran on the NPU)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

PROGRAM = """\
import torch
import torch_npu

def scaled(x):
    return torch.sin(x) * 2

compiled = torch.compile(scaled, backend="eager")
x = torch.randn(4, 4).npu()
assert torch.equal(compiled(x), scaled(x))
stream = torch.accelerator.current_stream()
print("stream on", stream.device.type, "same", torch.accelerator.current_stream() is stream)
"""


def test_a_function_compiled_by_dynamo_runs_on_the_emulated_npu(run_program, tmp_path):
    (tmp_path / "compiled.py").write_text(PROGRAM, encoding="utf-8")
    run = run_program("--format", "json", "--", "python", "compiled.py")
    assert (run.status, run.report["program"]["outcome"]) == (0, "completed"), run.stderr[-3000:]
    assert "stream on cpu same True" in run.stderr  # the program's stdout goes to stderr beside the JSON report
    assert run.report["findings"] == []
