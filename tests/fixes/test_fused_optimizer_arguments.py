"""torch.optim.* → torch_npu's fused optimizer (NPU301, npu route), text for text: the call's arguments fitted to the
fused constructor of torch_npu 2.14 (analysis/rules/fused_optimizers.py). `fused=`/`foreach=` are dropped, a
switched-off `maximize=False` too; a switch that is on, unpacked arguments or more positions than the fused
constructor takes keep the finding without a fix, saying why. tests/runtime/test_fused_optimizer_run.py runs a
fixed program under `ascend-migrate run`; tests/runtime/test_surface.py checks the parameter lists against the wheel."""

from __future__ import annotations

import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

PROGRAM = textwrap.dedent("""
    import torch
    import torch_npu


    def build(model, learning_rate):
        return torch.optim.{optimizer}({arguments})
""")


def _affinity(optimizer: str, arguments: str):
    source = PROGRAM.format(optimizer=optimizer, arguments=arguments)
    found = [finding for finding in analyze(source, "train.py", Settings(target="npu")) if finding.code == "NPU301"]
    assert len(found) == 1
    return source, found[0]


def _fixed(source: str) -> str:
    return fix_until_stable(source, lambda text: analyze(text, "train.py", Settings(target="npu")), unsafe=True).text


@pytest.mark.parametrize(("optimizer", "arguments", "written"), [
    ("AdamW", "model.parameters(), lr=learning_rate, fused=torch.cuda.is_available()",
     "torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=learning_rate)"),
    ("Adam", "model.parameters(), learning_rate, (0.9, 0.95), foreach=True, maximize=False",
     "torch_npu.optim.NpuFusedAdam(model.parameters(), learning_rate, (0.9, 0.95))"),
    ("SGD", "model.parameters(), lr=learning_rate, momentum=0.9, nesterov=True",
     "torch_npu.optim.NpuFusedSGD(model.parameters(), lr=learning_rate, momentum=0.9, nesterov=True)"),
    ("RMSprop", "model.parameters(), learning_rate, 0.99, 1e-8, 0, 0.9, True",
     "torch_npu.optim.NpuFusedRMSprop(model.parameters(), learning_rate, 0.99, 1e-8, 0, 0.9, True)"),
])
def test_the_rename_keeps_only_what_the_fused_optimizer_takes(optimizer, arguments, written):
    source, finding = _affinity(optimizer, arguments)
    assert finding.fix is not None
    assert f"    return {written}\n" in _fixed(source)


@pytest.mark.parametrize(("optimizer", "arguments", "says"), [
    ("AdamW", "model.parameters(), lr=learning_rate, maximize=True", "has no maximize"),
    ("Adam", "model.parameters(), lr=learning_rate, capturable=torch.cuda.is_available()", "has no capturable"),
    ("Adadelta", "model.parameters(), 1.0, 0.9, 1e-6, 0, True", "passes 6 arguments by position"),
    ("SGD", "model.parameters(), **options", "unpacked"),
])
def test_a_form_the_fused_optimizer_lacks_stays_advice_saying_why(optimizer, arguments, says):
    source, finding = _affinity(optimizer, arguments)
    assert finding.fix is None and says in finding.message and "Not rewritten automatically" in finding.message
    assert f"torch.optim.{optimizer}(" in _fixed(source)
