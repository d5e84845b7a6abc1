"""cuDNN switches set by assignment on the MindSpore route: `cudnn.benchmark = True` removed, `cudnn.deterministic = v`
→ `mindspore.set_deterministic(v)`.

`torch.backends.cudnn.benchmark` (MS103) asks cuDNN to time its convolution algorithms and keep the fastest: MindSpore
has no such switch (it chooses kernels itself; mindspore 2.10 has no counterpart, pytorch_mindspore_curated.yaml), so
the statement has nothing to do and goes, and with it the import once nothing else uses it (dcgan, issue 17).
`torch.backends.cudnn.deterministic` (MS102) is a different statement: it asks for deterministic kernels, and
MindSpore's switch for that is the function `mindspore.set_deterministic(v)` (2.10, global, off by default), so the
assignment becomes its call. The table's plain rename would have written `mindspore.set_deterministic = True`, which
rebinds the function and sets nothing: the rename is withheld (`BUILDERS`), and a read of either switch keeps its
finding without a fix. Both fixes ride on the finding the names rule made at the assignment's target.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.statement_removal import alone_on_its_lines, removal
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

BENCHMARK = "torch.backends.cudnn.benchmark"
DETERMINISTIC = "torch.backends.cudnn.deterministic"


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if context.route != ROUTE_MINDSPORE or len(targets) != 1 or type(targets[0]) is not ast.Attribute:
        return
    target = targets[0]
    api = context.qualified_name(target)
    if api not in (BENCHMARK, DETERMINISTIC):
        return
    factory = context.factory
    target_span = factory.span(target)
    index = next((position for position, finding in enumerate(context.findings)
                  if finding.api == api and (finding.line, finding.column, finding.end_line, finding.end_column) == target_span), None)
    if index is None:
        return  # suppressed or not selected: nothing to fix
    line, column = target_span[0], target_span[1]
    _, _, end_line, end_column = factory.span(value)
    lines = factory.lines
    if not alone_on_its_lines(lines, line, column, end_line, end_column):
        return  # `a = 1; cudnn.benchmark = True`: not alone on its lines, left to the user
    remove = imports_left_unused(context, target)
    if api == BENCHMARK:
        fix = Fix(title="Remove the statement: MindSpore has no cuDNN autotuning switch (it chooses kernels itself)",
                  safe=False, edits=(removal(lines, line, column, end_line, end_column),), remove_imports=remove)
    else:
        call = f"mindspore.set_deterministic({ast.unparse(value)})"  # the value as written, up to spacing and quotes
        fix = Fix(title=f"Replace with `{call}` (MindSpore's global determinism switch)", safe=False,
                  edits=(TextEdit(line, column, end_line, end_column, call),), add_imports=("import mindspore",),
                  remove_imports=remove)
    context.findings[index] = dataclasses.replace(context.findings[index], fix=fix)


def imports_left_unused(context: RuleContext, reference: ast.expr) -> tuple[str, ...]:
    """The name a reference is rooted in (`cudnn` of `import torch.backends.cudnn as cudnn`), and `torch` when the
    module imports it: each import goes once nothing else uses its name (a MindSpore program imports no torch).
    state_dict_load uses it too."""
    root: ast.expr = reference
    while type(root) is ast.Attribute:
        root = root.value
    names: tuple[str, ...] = (root.id,) if type(root) is ast.Name else ()
    if "torch" not in names and context.lookup("torch") == ("import", "torch"):
        names += ("torch",)
    return names


def _no_rename(context, entry, node, call, span, root) -> Fix | None:
    """The table's rename of `cudnn.deterministic` to the function `mindspore.set_deterministic` is never written:
    an assignment gets its call from `on_assignment`, a read has no counterpart (the finding stays)."""
    return None


BUILDERS = {(ROUTE_MINDSPORE, DETERMINISTIC): _no_rename}

_FLAGS = (
    Example("mindspore", """
        import torch
        import torch.backends.cudnn as cudnn

        cudnn.benchmark = True  # expect: MS103
        torch.backends.cudnn.deterministic = True  # expect: MS102
        """, codes=("MS102", "MS103")),
)

RULE = Rule(name="cudnn_switches", routes=frozenset({ROUTE_MINDSPORE}), hooks={ASSIGNMENT: on_assignment}, flags=_FLAGS)
