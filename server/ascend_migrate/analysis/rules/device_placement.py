"""A statement that only places values on the device goes whole (MindSpore route): `x, y = x.to(device), y.to(device)`
and `model = model.to(device)` are removed rather than left as `x, y = x, y` (issue 17).

The methods rule drops each `.to(device)` / `.cuda()` / `.cpu()` call on its own (structure_fixes._drop_device_call:
the call becomes its receiver). When every element of the assignment's value is such a call and each one's receiver
is the very target it is assigned to, the statement has nothing left to do: each of those findings gets the same fix,
the statement deleted (`pass` where it is the only statement of its block). Any other shape keeps the per-call fixes:
`inputs, labels = data[0].to(d), data[1].to(d)` → `inputs, labels = data[0], data[1]`; `a, b = b.to(d), a.to(d)` → the
swap it is.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.analysis.rules.statement_removal import alone_on_its_lines, removal
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_SAME_TARGET = (ast.Name, ast.Attribute)  # `x`, `self.model`; not a subscript, whose assignment may run code


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if context.route != ROUTE_MINDSPORE or len(targets) != 1:
        return
    target = targets[0]
    if type(target) in (ast.Tuple, ast.List):
        if type(value) not in (ast.Tuple, ast.List) or len(value.elts) != len(target.elts):  # type: ignore[attr-defined]
            return
        pairs = list(zip(target.elts, value.elts, strict=True))  # type: ignore[attr-defined]
    else:
        pairs = [(target, value)]
    indices = []
    for name, element in pairs:
        if type(name) not in _SAME_TARGET or type(element) is not ast.Call or type(element.func) is not ast.Attribute:
            return
        index = _placement_finding(context, element)
        if index is None or source_text(context, element.func.value) != source_text(context, name):
            return  # not placement, or `inputs = data[0].to(d)`: the value changes, only the call goes
        indices.append(index)
    line, column = context.factory.span(target)[:2]
    end_line, end_column = context.factory.span(value)[2:]
    lines = context.factory.lines
    if not alone_on_its_lines(lines, line, column, end_line, end_column):
        return  # `a = 1; x = x.to(d)`: the per-call fix leaves `x = x`, harmless, and `a = 1` stays
    fix = Fix(title="Remove the statement: it only placed values on the device (MindSpore runs on the device set once "
                    "with mindspore.set_device)",
              safe=False, edits=(removal(lines, line, column, end_line, end_column),))
    for index in indices:
        context.findings[index] = dataclasses.replace(context.findings[index], fix=fix)


def _placement_finding(context: RuleContext, call: ast.Call) -> int | None:
    """The index of the finding whose fix turns `call` into its receiver (the methods rule's dropped `.to(...)`)."""
    dropped = (TextEdit(*context.factory.span(call), source_text(context, call.func.value)),)  # type: ignore[attr-defined]
    return next((index for index, finding in enumerate(context.findings)
                 if finding.fix is not None and finding.fix.edits == dropped and finding.fix.rewrite is None), None)


_FLAGS = (
    Example("mindspore", """
        import torch


        def train(loader, device):
            model = torch.nn.Linear(3, 1)
            model = model.to(device)  # expect: MS205
            for x, y in loader:
                x, y = x.to(device), y.to(device)  # expect: MS205, MS205
        """, codes=("MS205",)),
)

RULE = Rule(name="device_placement", routes=frozenset({ROUTE_MINDSPORE}), hooks={ASSIGNMENT: on_assignment}, flags=_FLAGS)
