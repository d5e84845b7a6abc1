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
