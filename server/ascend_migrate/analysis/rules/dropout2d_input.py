"""A call of torch's `nn.Dropout2d` layer on the MindSpore route: its input given as (N, C, -1, 1) (MS216).

torch 2.13's Dropout2d zeroes whole (sample, channel) slices of 2-D to 5-D input (feature_dropout over the first
two dimensions: a 2-D (N, C) input element by element, a 3-D (N, C, L) one along L); MindSpore's Dropout2d, in both
eras, takes (N, C, H, W) only and nn.Dropout2d raises ValueError on rank 2 and 3 (mindspore 2.10.0). The rank of
the input is not known where the layer is called, so every call gets the form that is right for all of them:
`layer(x.reshape(x.shape[:2] + (-1, 1))).reshape(x.shape)` keeps each (sample, channel) slice together, so the
same slices are zeroed with the same probability and the same 1 / (1 - p) scale (tests/execution checks it
against torch in distribution). The input is repeated in the rewrite, so it is fixed only when it is a plain
name; any other input keeps the finding without a fix. The function form `F.dropout2d(x, p, training)` is the same
(ops.dropout2d refuses rank 2 and 3 as well): `dropout2d(x.reshape(x.shape[:2] + (-1, 1)), p, training).reshape(x.shape)`,
written as two insertions so that the rename of the callee lands in the same pass.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, Example, Matcher, Rule, RuleContext

PATTERN = "dropout2d-input"
FUNCTION_PATTERN = "dropout2d-function-input"
# torch's layer, and MindSpore's as a fix wrote it: a call the fix left (an input that is not a name) must still be
# reported by a re-scan, when the layer is already MindSpore's.
_LAYERS = frozenset(("torch.nn.Dropout2d", "torch.nn.modules.dropout.Dropout2d", "mindspore.nn.Dropout2d",
                     "mindspore.mint.nn.Dropout2d"))


def on_call(context: RuleContext, node: ast.Call) -> None:
    func = node.func
    # A layer is called by its name or as an attribute of a name (`self.dropout(x)`): only those are resolved.
    if type(func) is not ast.Name and not (type(func) is ast.Attribute and type(func.value) is ast.Name):
        return
    layer_type = context.infer(func)
    if layer_type not in _LAYERS or _already_four_dimensional(node):
        return
    entries = context.view.patterns.get(PATTERN, ())
    factory = context.factory
    span = factory.span(node)
    for entry in entries:
        context.add(factory.finding(entry, span, "inferred", api=entry.api, fix=_fix(context, entry, node)))


# torch's function, and MindSpore's as the rename wrote it (both eras), for the same reason as _LAYERS.
_FUNCTIONS = frozenset(("torch.nn.functional.dropout2d", "mindspore.ops.dropout2d", "mindspore.mint.nn.functional.dropout2d"))


def on_function_call(context: RuleContext, node: ast.Call) -> None:
    if context.qualified_name(node.func) not in _FUNCTIONS or not node.args or _already_four_dimensional(node, any_arguments=True):
        return
    factory = context.factory
    span = factory.span(node)
    for entry in context.view.patterns.get(FUNCTION_PATTERN, ()):
        context.add(factory.finding(entry, span, "exact", api=entry.api, fix=_function_fix(context, entry, node)))


def _function_fix(context: RuleContext, entry, node: ast.Call) -> Fix | None:
    first = node.args[0]
    if entry.fix == "none" or type(first) is not ast.Name or any(type(argument) is ast.Starred for argument in node.args):
        return None
    factory = context.factory
    _, _, first_line, first_end = factory.span(first)
    _, _, end_line, end_column = factory.span(node)
    name = first.id
    return Fix(title=f"Give dropout2d its input as (N, C, -1, 1): `{name}.reshape({name}.shape[:2] + (-1, 1))`, reshaped back",
               safe=False, edits=(TextEdit(first_line, first_end, first_line, first_end, f".reshape({name}.shape[:2] + (-1, 1))"),
                                  TextEdit(end_line, end_column, end_line, end_column, f".reshape({name}.shape)")))


def _already_four_dimensional(node: ast.Call, any_arguments: bool = False) -> bool:
    """`layer(x.reshape(x.shape[:2] + (-1, 1)))` (or a function's first argument so, `any_arguments`): the form the fix
    writes."""
    if not node.args or (len(node.args) != 1 and not any_arguments) or type(node.args[0]) is not ast.Call:
        return False
    inner = node.args[0]
    return (type(inner.func) is ast.Attribute and inner.func.attr == "reshape" and len(inner.args) == 1
            and ast.unparse(inner.args[0]).endswith(".shape[:2] + (-1, 1)"))


def _fix(context: RuleContext, entry, node: ast.Call) -> Fix | None:
    if entry.fix == "none" or node.keywords or len(node.args) != 1 or type(node.args[0]) is not ast.Name:
        return None
    factory = context.factory
    line, column, end_line, end_column = factory.span(node)
    if line != end_line:
        return None
    name = node.args[0].id
    layer = factory.lines.text(line)[column - 1:column - 1 + (node.func.end_col_offset or 0) - node.func.col_offset]
    new = f"{layer}({name}.reshape({name}.shape[:2] + (-1, 1))).reshape({name}.shape)"
    return Fix(title=f"Give the layer its input as (N, C, -1, 1): `{new}`", safe=False,
               edits=(TextEdit(line, column, end_line, end_column, new),))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("mindspore", """
        from torch import nn


        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.dropout = nn.Dropout2d(0.25)
                self.fc = nn.Linear(64, 10)

            def forward(self, features):
                features = self.dropout(features)  # expect: MS216
                return self.fc(features)
        """, codes=("MS216",)),
    Example("mindspore", """
        import torch.nn.functional as F


        def regularise(features, training):
            return F.dropout2d(features, 0.2, training)  # expect: MS216
        """, codes=("MS216",), mindspore_version="2.4"),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        from torch import nn


        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.dropout = nn.Dropout(0.25)  # element-wise dropout takes any rank
                self.fc = nn.Linear(64, 10)

            def forward(self, features):
                return self.fc(self.dropout(features))
        """, codes=("MS216",)),
    Example("mindspore", """
        import torch.nn.functional as F


        def regularise(features, training):
            return F.dropout(features, 0.2, training)  # element-wise dropout takes any rank
        """, codes=("MS216",), mindspore_version="2.4"),
)

RULE = Rule(name="dropout2d_input",
            matchers={PATTERN: Matcher(CALL, on_call),
                      FUNCTION_PATTERN: Matcher(CALL, on_function_call, called=frozenset({"dropout2d"}))},
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
