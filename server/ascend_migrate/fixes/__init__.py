"""The fixes room: turning a finding's `Fix` into minimal text edits, and fixing whole files.

`edits_for(fix, source)` gives the edits of one fix (for the editor's quick fix), `fix_all(source,
findings, unsafe)` applies a file's fixes together, `fix_until_stable(...)` fixes and analyses again until
nothing changes (for `ascend-migrate fix` and the editor's "fix all"), and `apply_edits(source, edits)`
applies edits to a text. docs/fixes.md documents the `Fix` shapes.

The names below are loaded on first use: the engine imports `fixes.families` (the values it builds) on
every analysis, and loading this package must not load libcst or the modules that use the engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "Change": "apply",
    "FixResult": "apply",
    "SkippedFix": "apply",
    "edits_for": "apply",
    "fix_all": "apply",
    "FixError": "errors",
    "OverlappingEditsError": "text",
    "apply_edits": "text",
    "StableFix": "until_stable",
    "fix_until_stable": "until_stable",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
