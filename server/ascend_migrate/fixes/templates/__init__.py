"""Code the fixes write into a program whole (a Cell MindSpore lacks), kept as real modules that tests import and run.

The engine never imports these modules (they import mindspore, which it does not need): it reads a class's source
text from the module file and writes it into the fixed program.
"""

from __future__ import annotations

import ast
import functools
from importlib import resources


@functools.cache
def class_source(module: str, name: str) -> str:
    """The source text of class `name` in template module `module` (this package's `module`.py)."""
    text = resources.files(__name__).joinpath(f"{module}.py").read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            segment = ast.get_source_segment(text, node)
            if segment is not None:
                return segment
    raise LookupError(f"template module {module}.py has no class {name}")
