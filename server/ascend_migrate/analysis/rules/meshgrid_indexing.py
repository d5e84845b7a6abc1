"""`torch.meshgrid(a, b)` on the MindSpore route's ops/nn era: torch's default indexing='ij' written out.

mindspore 2.10.0's ops.meshgrid(*inputs, indexing='xy') defaults to 'xy', where torch 2.13.0's meshgrid indexes as 'ij'
when indexing is omitted: with inputs of 3 and 4 elements the plain rename gave (4, 3) grids where torch gives (3, 4)
(run on the CPU). mint.meshgrid (indexing=None) indexes as torch does, so the mint era keeps the plain rename.
tests/execution/test_meshgrid_repeat_interleave.py runs what this fix writes beside torch.
"""

from __future__ import annotations

from ascend_migrate.analysis.rules.call_rewrite import renamed_with_default
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_OPS_MESHGRID = "mindspore.ops.meshgrid"
_TORCH_INDEXING = "'ij'"  # torch.meshgrid's indexing when omitted (torch 2.13.0; it warns that it will say so)


def _with_torch_indexing(context, entry, node, call, span, root):
    """A Fix, None (no fix), or NotImplemented (the plain rename: indexing passed, or the mint target)."""
    if call is None or entry.target != _OPS_MESHGRID:
        return NotImplemented
    if any(keyword.arg in ("indexing", None) for keyword in call.keywords):
        return NotImplemented  # indexing passed (or may be, through **kwargs): the plain rename keeps it
    return renamed_with_default(context, entry, span, root, call, "indexing", _TORCH_INDEXING,
                                "ops.meshgrid's default is 'xy'")

BUILDERS = {(ROUTE_MINDSPORE, "torch.meshgrid"): _with_torch_indexing}
