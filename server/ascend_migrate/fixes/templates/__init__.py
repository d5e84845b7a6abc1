"""Code the fixes write into a program whole (a Cell or an optimizer MindSpore lacks), kept as real modules that tests
import and run.

The engine never imports these modules (they import mindspore, which the analysis never needs): it reads their text.
Two shapes: a class read by name from its module (`class_source`: Keras' attention Cell), or everything after the
marker line `WRITTEN_FROM` (`written_text`: the L-BFGS optimizer, whose module first imports what it needs to run on
its own; the program's own imports provide the rest).
"""

from __future__ import annotations

import ast
import functools
from importlib import resources

WRITTEN_FROM = "# --- written into the program from here ---"


def _template_text(module: str) -> str:
    return resources.files(__name__).joinpath(f"{module}.py").read_text(encoding="utf-8")


@functools.cache
def class_source(module: str, name: str) -> str:
    """The source text of class `name` in template module `module` (this package's `module`.py)."""
    text = _template_text(module)
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            segment = ast.get_source_segment(text, node)
            if segment is not None:
                return segment
    raise LookupError(f"template module {module}.py has no class {name}")


@functools.cache
def written_text(name: str) -> str:
    """The text a fix inserts for template `name` (`lbfgs` → lbfgs.py): everything after the marker line, with
    "\\n" line breaks and one at the end."""
    _, marker, after = _template_text(name).partition(WRITTEN_FROM + "\n")
    if not marker:
        raise ValueError(f"template {name}.py has no marker line {WRITTEN_FROM!r}")
    return after.strip("\n") + "\n"
