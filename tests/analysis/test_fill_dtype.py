"""torch.full's ops/nn-era fix passes torch's dtype for a literal fill (analysis/rules/fill_dtype.py); what it leaves."""

from __future__ import annotations

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable


def _fixed(source: str, version: str = "2.4") -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(source, lambda text: analyze(text, "model.py", settings), unsafe=True).text


def test_a_float_fill_gets_float32_and_an_int_fill_nothing():
    fixed = _fixed("import torch\n\nmask = torch.full((2, 3), -0.5)\ncount = torch.full((2,), 7)\n")
    assert "mindspore.ops.full((2, 3), -0.5, dtype=mindspore.float32)" in fixed
    assert "mindspore.ops.full((2,), 7)\n" in fixed


def test_a_fill_in_a_variable_or_a_given_dtype_is_left_as_written():
    fixed = _fixed("import torch\n\nscale = 0.5\na = torch.full((2,), scale)\nb = torch.full((2,), 1.5, dtype=torch.float16)\n")
    assert "mindspore.ops.full((2,), scale)\n" in fixed
    assert "mindspore.ops.full((2,), 1.5, dtype=mindspore.float16)" in fixed and fixed.count("dtype=") == 1


def test_a_file_that_sets_the_default_dtype_keeps_the_plain_rename():
    source = "import torch\n\ntorch.set_default_dtype(torch.float64)\nmask = torch.full((2, 3), 0.5)\n"
    assert "mindspore.ops.full((2, 3), 0.5)\n" in _fixed(source)


def test_the_mint_era_rename_is_unchanged():
    assert "mint.full((2, 3), 0.5)\n" in _fixed("import torch\n\nmask = torch.full((2, 3), 0.5)\n", "2.10")
