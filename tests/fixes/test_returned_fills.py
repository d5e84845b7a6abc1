"""x.cauchy_(...) / x.log_normal_(...) on the MindSpore route (analysis/rules/inplace_fill.py): a statement becomes
`x = x.cauchy(...)` (MindSpore's method returns the draws and leaves x as it was), generator= dropped; a call whose
value is used keeps its finding without a fix. tests/execution/test_returned_fills.py runs the fixed form."""

from __future__ import annotations

import pytest
from tests.fixes.test_mindspore_loader_and_dropout import MINT, OPS_NN, codes, fixed

SOURCE = """
    import torch

    weights = torch.ones(8)
    weights.cauchy_(0.0, 2.0)
    weights.log_normal_(mean=1.0, std=0.5, generator=torch.Generator())
    drawn = weights.cauchy_()
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_statement_assigns_the_draws_and_a_used_value_is_left_reported(version):
    text = fixed(SOURCE, version)
    assert "weights = weights.cauchy(0.0, 2.0)\n" in text, text
    assert "weights = weights.log_normal(mean=1.0, std=0.5)\n" in text, text
    assert "drawn = weights.cauchy_()" in text, text  # torch returns the filled receiver: no one-line rewrite
    assert (7, "MS102") in codes(text, version)  # and the re-scan still says why
