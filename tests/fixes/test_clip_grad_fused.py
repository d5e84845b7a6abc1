"""The `clip-grad-fused` family: clip_grad_norm_ becomes the fused optimizer's clip_grad_norm_fused_."""

import pytest
from fix_builders import rewrite

from ascend_migrate.fixes import FixError, apply_edits, edits_for


def test_clip_grad_norm_becomes_the_fused_form():
    source = "torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)\n"
    finding = rewrite(source, source[:-1], "clip-grad-fused", {"optimizer": "optimizer"}, safe=False)
    assert apply_edits(source, edits_for(finding.fix, source)) == "optimizer.clip_grad_norm_fused_(1.0)\n"


def test_a_positional_norm_type_is_kept():
    source = "clip_grad_norm_(params, 5.0, 2.0, error_if_nonfinite=True)\n"
    finding = rewrite(source, source[:-1], "clip-grad-fused", {"optimizer": "opt"}, safe=False)
    assert apply_edits(source, edits_for(finding.fix, source)) == "opt.clip_grad_norm_fused_(5.0, 2.0)\n"


def test_without_a_max_norm_there_is_nothing_to_do():
    source = "clip_grad_norm_(*arguments)\n"
    finding = rewrite(source, source[:-1], "clip-grad-fused", {"optimizer": "opt"}, safe=False)
    assert edits_for(finding.fix, source) == []


def test_the_optimizer_name_is_required():
    source = "clip_grad_norm_(params, 1.0)\n"
    with pytest.raises(ValueError, match="missing 1 required positional argument: 'optimizer'"):
        rewrite(source, source[:-1], "clip-grad-fused", {}, safe=False)
    finding = rewrite(source, source[:-1], "clip-grad-fused", {"optimizer": "self.optimizer"}, safe=False)
    with pytest.raises(FixError, match="optimizer's variable name"):
        edits_for(finding.fix, source)


# --- when the rule writes it (rules/fused_optimizers.py); executed: tests/execution/npu/test_clip_grad_fused.py ---
import textwrap  # noqa: E402

from ascend_migrate.analysis.engine import analyze  # noqa: E402
from ascend_migrate.config import Settings  # noqa: E402
from ascend_migrate.fixes import fix_until_stable  # noqa: E402

NPU = Settings(target="npu")
LOOP = """
    import torch
    import torch_npu
    from torch import nn

    model = nn.Linear(4, 2)
    {optimizer}
    for x in [torch.randn(3, 4)]:
        loss = model(x).sum()
        loss.backward()
        {clip}
        optimizer.step()
"""


def _clip_finding(optimizer: str, clip: str = "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)"):
    source = textwrap.dedent(LOOP.format(optimizer=optimizer, clip=clip))
    return next(finding for finding in analyze(source, "train.py", NPU) if finding.api == "torch.nn.utils.clip_grad_norm_")


def test_a_fused_optimizer_gets_its_clipping_method():
    finding = _clip_finding("optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=1e-3)")
    assert finding.fix is not None and "optimizer.clip_grad_norm_fused_" in finding.fix.title


def test_fused_true_becomes_the_fused_optimizer_and_then_its_clipping():
    source = textwrap.dedent(LOOP.format(optimizer="optimizer = torch.optim.AdamW(model.parameters(), fused=True)",
                                         clip="torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=2.0)"))
    text = fix_until_stable(source, lambda text: analyze(text, "train.py", NPU), unsafe=True).text
    assert "optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters())" in text
    assert "    optimizer.clip_grad_norm_fused_(1.0, 2.0)\n" in text


@pytest.mark.parametrize(("optimizer", "clip", "reason"), [
    ("optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, maximize=True)", None,
     "`optimizer` is a torch.optim.SGD, and clip_grad_norm_fused_ is a method of torch_npu.optim.NpuFused* optimizers only"),
    ("optimizer = make_optimizer(model)", None, "no optimizer of known type is in scope"),
    ("optimizer = torch_npu.optim.NpuFusedSGD(model.parameters(), lr=0.1); other = torch.optim.SGD(model.parameters(), lr=0.1)",
     None, "`optimizer`, `other` are optimizers here"),
    ("optimizer = torch_npu.optim.NpuFusedSGD(model.parameters(), lr=0.1)",
     "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)", "takes only max_norm and norm_type"),
    ("optimizer = torch_npu.optim.NpuFusedSGD(model.parameters(), lr=0.1)",
     "torch.nn.utils.clip_grad_norm_(model.weight, 1.0)", "this call clips `model.weight`"),
])
def test_where_the_fused_method_would_clip_something_else_the_finding_says_why(optimizer, clip, reason):
    finding = _clip_finding(optimizer, *(() if clip is None else (clip,)))
    assert finding.fix is None and reason in finding.message
