"""torch.meshgrid's indexing and torch.repeat_interleave's forms on the MindSpore route, per era (precision9's messages)."""

from textwrap import dedent

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings

SOURCE = dedent("""
    import torch

    a = torch.zeros(3)
    b = torch.zeros(4)
    x, y = torch.meshgrid(a, b)
    u, v = torch.meshgrid(a, b, indexing="ij")
    wide = torch.repeat_interleave(a, 2, dim=0)
    indices = torch.repeat_interleave(torch.tensor([1, 2]))
""")


def _findings(version):
    return {finding.line: finding for finding in analyze(SOURCE, "grid.py", Settings(target="mindspore", mindspore_version=version))
            if finding.api in ("torch.meshgrid", "torch.repeat_interleave")}


def test_mint_meshgrid_indexes_as_torch_and_the_one_tensor_overload_is_not_renamed():
    found = _findings("2.10")
    assert (found[6].code, found[7].code) == ("MS101", "MS101")  # mint.meshgrid's indexing=None is torch's 'ij'
    assert "indexes as torch's default 'ij'" in found[6].message
    assert "The overload is torch.repeat_interleave(repeats)" in found[8].message
    assert found[8].fix is not None
    assert found[9].fix is None and "one-tensor form repeat_interleave(repeats) has no MindSpore counterpart" in found[9].message


def test_ops_meshgrid_gets_torchs_indexing_and_repeat_interleave_its_axis():
    found = _findings("2.4")
    assert found[6].code == "MS102" and "defaults to 'xy' where torch's is 'ij'" in found[6].message
    assert found[6].fix is not None and found[6].fix.rewrite.default_keywords == (("indexing", "'ij'"),)
    assert found[7].fix is not None and found[7].fix.rewrite is None  # indexing passed: the plain rename
    assert found[8].fix.rewrite.rename_keywords == (("dim", "axis"),)
    assert found[9].fix is None
