"""`torch.cuda.device_count()` on the MindSpore route (MS205): `mindspore.device_context.ascend.device_count()` raises
RuntimeError ("Device Ascend not exist.") where no Ascend device is, where torch's returns 0 (mindspore 2.10.0 on
the CPU; its source checks is_available() first). Code that counts devices to choose a path (`if n > 1:`, a print)
then stops on a machine without Ascend, so the call becomes the count guarded by is_available(), 0 otherwise.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import replaced_call
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_ASCEND = "mindspore.device_context.ascend"
GUARDED_COUNT = f"({_ASCEND}.device_count() if {_ASCEND}.is_available() else 0)"


def _guarded_count(context, entry, node, call: ast.Call | None, span, root) -> Fix | None:
    if call is None or call.args or call.keywords or entry.target != f"{_ASCEND}.device_count":
        return NotImplemented  # a reference that is not a plain call (`counter = torch.cuda.device_count`): the rename
    return replaced_call(context, call, GUARDED_COUNT, f"Replace with `{GUARDED_COUNT}` (mindspore's count raises where no Ascend device is)", root)


BUILDERS = {(ROUTE_MINDSPORE, "torch.cuda.device_count"): _guarded_count}
