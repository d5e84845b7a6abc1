"""Code shapes rather than names: keyword arguments MindSpore has no counterpart for (`out=`, `device=`, …),
boolean-mask indexing (`x[x > 0]`, a data-dependent shape on NPU), and fusable code patterns."""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.symbols import TENSOR

GENERAL_KEYWORD = "general-keyword"
BOOLEAN_MASK_INDEX = "boolean-mask-index"
BOOLEAN_MASK_ASSIGNMENT = "boolean-mask-assignment"
_TORCH_ROOTS = ("torch.", "torchvision.", "torchaudio.")


def on_call(walker, call: ast.Call) -> None:
    context = walker.context
    general = context.view.patterns.get(GENERAL_KEYWORD)
    if general and call.keywords:
        qualified = walker.qualified_name(call.func)
        if qualified is not None and qualified.startswith(_TORCH_ROOTS):
            _general_keywords(context, call, qualified, general)


def _general_keywords(context, call: ast.Call, qualified: str, entries) -> None:
    by_keyword = {entry.api: entry for entry in entries}
    factory = context.factory
    for keyword in call.keywords:
        entry = by_keyword.get(keyword.arg)
        if entry is None:
            continue
        span = factory.span(keyword)
        fix = None
        if entry.fix != "none":
            fix = Fix(
                title=f"Remove `{keyword.arg}=` (MindSpore has no such argument)",
                safe=entry.fix == "safe",
                rewrite="call-arguments",
                arguments=(("call", factory.span(call)), ("rename_keywords", ()), ("drop_keywords", (keyword.arg,))),
            )
        context.add(factory.finding(entry, span, "exact", api=f"{qualified}({keyword.arg}=...)", fix=fix))


def _is_mask(node: ast.expr) -> bool:
    node_type = type(node)
    if node_type is ast.Compare:
        return True
    if node_type is ast.UnaryOp and type(node.op) is ast.Invert:
        return _is_mask(node.operand)
    if node_type is ast.BinOp and type(node.op) in (ast.BitAnd, ast.BitOr):
        return _is_mask(node.left) or _is_mask(node.right)
    # An UPPER_CASE name (`features[INPUT_MASK]`) is a constant key, not a mask tensor.
    if node_type is ast.Name:
        return "mask" in node.id.lower() and not node.id.isupper()
    if node_type is ast.Attribute:
        return "mask" in node.attr.lower() and not node.attr.isupper()
    return False


def on_subscript(walker, node: ast.Subscript) -> None:
    condition = BOOLEAN_MASK_ASSIGNMENT if type(node.ctx) is ast.Store else BOOLEAN_MASK_INDEX
    entries = walker.context.view.patterns.get(condition)
    if not entries or not _is_mask(node.slice):
        return
    value_type = walker.infer(node.value)
    if value_type is not None and value_type != TENSOR:
        return
    if value_type is None and not walker.context.factory.settings.untyped_receivers:
        return  # no evidence of a torch tensor: a NumPy array or a dict looks the same
    confidence = "inferred" if value_type == TENSOR else "heuristic"
    factory = walker.context.factory
    span = factory.span(node)
    for entry in entries:
        api = "tensor[mask]=value" if condition == BOOLEAN_MASK_ASSIGNMENT else "tensor[mask]"
        walker.context.add(factory.finding(entry, span, confidence, api=api))
