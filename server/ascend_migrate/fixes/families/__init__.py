"""The fix families: one module each, holding a frozen `Rewrite` value and its edits (docs/fixes.md).

Every module of this package is loaded here, so a family is known (to `rewrite_from_json`, and so to a
diagnostic's `data`) as soon as its module exists: adding a family is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil

from ascend_migrate.fixes.families.base import FAMILIES, Rewrite, Span, rewrite_from_json

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["FAMILIES", "Rewrite", "Span", "rewrite_from_json"]
