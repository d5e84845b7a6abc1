"""`torch.repeat_interleave(repeats)`, torch's one-tensor overload, on the MindSpore route: no fix, and why.

torch.repeat_interleave(torch.tensor([1, 2, 3])) gives [0, 1, 1, 2, 2, 2] (each index repeated); mindspore 2.10.0's
mint.repeat_interleave refuses a lone tensor (TypeError: "Failed calling repeat_interleave with
repeat_interleave(Tensor)") and ops.repeat_interleave(input, repeats, axis=None) needs repeats, so the rename of that
form cannot run. The (input, repeats, dim) form keeps the rename (the entries' parameter rows adapt dim).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _one_tensor_overload(context, entry, node, call, span, root):
    """NotFixed for `repeat_interleave(repeats)` alone, else NotImplemented (the entry's own fix)."""
    if call is None or len(call.args) != 1 or call.keywords or type(call.args[0]) is ast.Starred:
        return NotImplemented
    return NotFixed("torch's one-tensor form repeat_interleave(repeats) has no MindSpore counterpart (mindspore 2.10.0's "
                    "mint.repeat_interleave raises TypeError for it; ops.repeat_interleave needs repeats): repeat the "
                    "indices 0..len(repeats)-1 explicitly")


BUILDERS = {(ROUTE_MINDSPORE, "torch.repeat_interleave"): _one_tensor_overload}
