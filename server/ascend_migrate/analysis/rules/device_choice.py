"""The device chosen once (MindSpore route): `device = torch.device("cuda" if cond else "cpu")` becomes
`device = "Ascend" if cond else "CPU"` followed by `mindspore.set_device(device)`, the original's fallback
kept; `device = torch.accelerator.current_accelerator()` becomes `device = "Ascend"` the same way. The fix rides on the `torch.device` finding (MS205) the names rule made; a device that is not a literal
(or a choice between literals) keeps its finding without a fix.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.structure_fixes import mindspore_device
from ascend_migrate.fixes.families.early_device import EarlyDevice
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if context.route != ROUTE_MINDSPORE or len(targets) != 1 or type(targets[0]) is not ast.Name or type(value) is not ast.Call:
        return
    api = context.qualified_name(value.func)
    if api == "torch.accelerator.current_accelerator" and not value.args and not value.keywords:
        device: str | None = '"Ascend"'  # the accelerator of this route (torch.accelerator.is_available → Ascend's)
    elif api == "torch.device" and len(value.args) == 1 and not value.keywords:
        device = mindspore_device(value.args[0])
    else:
        return
    if device is None:
        return
    factory = context.factory
    callee = factory.span(value.func)
    index = next((position for position, finding in enumerate(context.findings)
                  if finding.api == api and (finding.line, finding.column, finding.end_line, finding.end_column) == callee), None)
    if index is None:
        return
    finding = context.findings[index]
    line, column, end_line, end_column = factory.span(value)
    indentation = " " * (factory.span(targets[0])[1] - 1)
    name = targets[0].id
    title = f"Choose the device once: `{name} = {device}` and `mindspore.set_device({name})`"
    if indentation == "" and _reads_only_imports(context, value):
        # a module-level choice goes above any earlier statement that may run a kernel (fixes/families/early_device.py)
        statement = (factory.span(targets[0])[0], 1, end_line, end_column)
        fix = Fix(title=f"{title}, before the first statement after the imports (set_device must precede every kernel)",
                  safe=False, rewrite=EarlyDevice(statement, device, name), add_imports=("import mindspore",))
    else:
        fix = Fix(title=title, safe=False,
                  edits=(TextEdit(line, column, end_line, end_column, f"{device}\n{indentation}mindspore.set_device({name})"),),
                  add_imports=("import mindspore",))
    context.findings[index] = dataclasses.replace(finding, fix=fix)


def _reads_only_imports(context: RuleContext, value: ast.expr) -> bool:
    """Every name the device expression reads is an import (`torch` of torch.cuda.is_available()): moved up, it
    still finds them bound."""
    return all(context.lookup(node.id) is not None and context.lookup(node.id)[0] == "import"
               for node in ast.walk(value) if type(node) is ast.Name)


_FLAGS = (
    Example("mindspore", """
        import torch

        device = torch.device("cpu")  # expect: MS205
        if torch.accelerator.is_available():  # expect: MS205
            device = torch.accelerator.current_accelerator()  # expect: MS205
        """, codes=("MS205",)),
)

RULE = Rule(name="device_choice", routes=frozenset({ROUTE_MINDSPORE}), hooks={ASSIGNMENT: on_assignment}, flags=_FLAGS)
