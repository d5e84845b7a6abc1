"""A torch import nothing in the module uses, MindSpore route (MS231): a MindSpore program must not need torch.

After the fix has replaced every torch call, an import the program never used (pytorch/examples' siamese network
imports `torch.nn.functional as F` and calls nothing of it) is the one torch line left, and on a machine with only
MindSpore it fails at the import. Whether a name is used is a fact of the whole module, so the walk only offers
candidates (each top-level import of torch, torchvision, torchaudio or torchtext, per name it binds, with its
finding and fix); ModuleAnalysis.findings keeps those whose name no chunk's walk looked up and that the text names
nowhere else (strings and comments count: an annotation written as a string, `__all__`; when unsure, say less).
Both the full and the incremental analysis end there, so an edit anywhere is reflected at the import line.
Not offered: imports inside functions, blocks or `try` (conditional imports), `from torch import *`, `__init__.py`
files (their imports are the package's exports), and a module that parsed only in part.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence

from ascend_migrate.analysis.findings import Finding, Fix
from ascend_migrate.analysis.rules.api import IMPORT, Example, Matcher, Rule, RuleContext
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

PATTERN = "unused-torch-import"
_TORCH_FAMILY = frozenset(("torch", "torchvision", "torchaudio", "torchtext"))

# (bound name, first line, last line of the import statement, finding): one candidate per name an import binds.
Candidate = tuple[str, int, int, Finding]


def on_import(context: RuleContext, node: ast.Import | ast.ImportFrom) -> None:
    entries = context.view.patterns.get(PATTERN, ())
    if node.col_offset != 0 or context.factory.path.endswith("__init__.py"):
        return  # only a statement of the module's top level (col 0 in its chunk): not one in a block or a function
    if isinstance(node, ast.Import):
        modules = [(alias, alias.name, alias.asname or alias.name.split(".", 1)[0]) for alias in node.names]
    else:
        if node.level or not node.module:
            return
        modules = [(alias, f"{node.module}.{alias.name}", alias.asname or alias.name) for alias in node.names]
    factory = context.factory
    first = node.lineno + factory.line_offset
    last = (node.end_lineno or node.lineno) + factory.line_offset
    for alias, module, bound in modules:
        if module.split(".", 1)[0] not in _TORCH_FAMILY or bound == "*":
            continue
        fix = Fix(title=f"Remove the unused import of `{module}`", safe=False, remove_imports=(bound,))
        for entry in entries:
            finding = factory.finding(entry, factory.span(alias), "exact", api=module, fix=fix,
                                      message=f"`{bound}` ({module}) is imported and never used: a MindSpore program "
                                              "must not need torch installed, so the import goes")
            if finding is not None:
                context.unused_candidates.append((bound, first, last, finding))


def unused(candidates: Sequence[Candidate], referenced: Iterable[frozenset], lines: Sequence[str]) -> list[Finding]:
    """The candidates' findings whose name no chunk's walk looked up (`referenced`, one set per chunk) and that no
    line outside their own import statement names (a full-line comment aside)."""
    looked_up: set[str] = set().union(*referenced)
    kept = []
    for name, first, last, finding in candidates:
        if name in looked_up:
            continue
        word = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
        named = any(word.search(line) and not line.lstrip().startswith("#")
                    for number, line in enumerate(lines, 1) if not first <= number <= last)
        if not named:
            kept.append(finding)
    return kept


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("mindspore", """
        import mindspore
        import torch.nn.functional as F  # expect: MS231
        from torch.utils.data import Dataset, DataLoader  # expect: MS231


        class Pairs(Dataset):
            def __len__(self):
                return 4
        """, codes=("MS231",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import torch
        import torch.nn as nn
        from torch import Tensor
        from torchvision import transforms
        try:
            import torch_npu
        except ImportError:
            torch_npu = None


        def scale(x: "Tensor", factor=torch.float32):
            return transforms.functional.rotate(x, 90) * nn.init.calculate_gain("relu")
        """, codes=("MS231",)),
)

RULE = Rule(
    name="unused_torch_imports",
    matchers={PATTERN: Matcher(IMPORT, on_import)},  # installed only where the route's view has the entry
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
    routes=frozenset({ROUTE_MINDSPORE}),
)
