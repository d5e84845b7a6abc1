"""Code shapes rather than names: keyword arguments MindSpore has no counterpart for (`out=`, `device=`, …),
boolean-mask indexing (`x[x > 0]`, a data-dependent shape on NPU) and indexing by an integer index tensor.

Each shape is a matcher registered under the pattern name its `match: pattern` entries give as `condition`."""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.api import CALL, SUBSCRIPT, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.symbols import TENSOR
from ascend_migrate.fixes.families.call_arguments import CallArguments

GENERAL_KEYWORD = "general-keyword"
BOOLEAN_MASK_INDEX = "boolean-mask-index"
BOOLEAN_MASK_ASSIGNMENT = "boolean-mask-assignment"
INTEGER_TENSOR_INDEX = "integer-tensor-index"
INTEGER_TENSOR_INDEX_ASSIGNMENT = "integer-tensor-index-assignment"
_TORCH_ROOTS = ("torch.", "torchvision.", "torchaudio.")
# Parameter changes after which the target still takes the keyword for the same purpose (a `meaning` row, such as
# mindspore.tensor's device= that accepts only 'CPU', still asks the user to act).
_SAME_ROLE = ("same", "renamed", "default", "position")
# Functions and tensor methods whose result is always an integer (int64) index tensor.
_INTEGER_INDEX_FUNCTIONS = frozenset({"torch.argsort", "torch.randperm", "torch.argmax", "torch.argmin",
                                      "torch.multinomial", "torch.randint", "torch.arange"})
_INTEGER_INDEX_METHODS = frozenset({"argsort", "argmax", "argmin", "multinomial"})


def _general_keyword(context: RuleContext, call: ast.Call) -> None:
    if not call.keywords:
        return
    qualified = context.qualified_name(call.func)
    if qualified is not None and qualified.startswith(_TORCH_ROOTS):
        _general_keywords(context, call, qualified, context.view.patterns[GENERAL_KEYWORD])


def _general_keywords(context, call: ast.Call, qualified: str, entries) -> None:
    by_keyword = {entry.api: entry for entry in entries}
    factory = context.factory
    kept: frozenset[str] | None = None
    for keyword in call.keywords:
        if keyword.arg is None:  # `**options`: no keyword name to look up
            continue
        entry = by_keyword.get(keyword.arg)
        if entry is None:
            continue
        if kept is None:
            kept = _kept_by_target(context, qualified)
        if keyword.arg in kept:
            continue  # the callee's own entry knows this keyword on its target: "no such argument" is not true here
        span = factory.span(keyword)
        fix = None
        if entry.fix != "none":
            fix = Fix(
                title=f"Remove `{keyword.arg}=` (MindSpore has no such argument)",
                safe=entry.fix == "safe",
                rewrite=CallArguments(factory.span(call), drop_keywords=(keyword.arg,)),
            )
        context.add(factory.finding(entry, span, "exact", api=f"{qualified}({keyword.arg}=...)", fix=fix))


def _kept_by_target(context: RuleContext, qualified: str) -> frozenset[str]:
    """The keywords the callee's own entries map to a parameter of their target (`nn.Parameter(requires_grad=)`:
    mindspore.Parameter takes requires_grad too). The general table lists keywords no MindSpore API has in general;
    an entry written for this API says better what its target takes."""
    entries, _ = context.view.name_entries(qualified)
    return frozenset(parameter.source for entry in entries or () for parameter in entry.parameters
                     if parameter.source and parameter.target and parameter.change in _SAME_ROLE)


def _is_mask(node: ast.expr) -> bool:
    if type(node) is ast.Compare:
        return True
    if type(node) is ast.UnaryOp and type(node.op) is ast.Invert:
        return _is_mask(node.operand)
    if type(node) is ast.BinOp and type(node.op) in (ast.BitAnd, ast.BitOr):
        return _is_mask(node.left) or _is_mask(node.right)
    # An UPPER_CASE name (`features[INPUT_MASK]`) is a constant key, not a mask tensor.
    if type(node) is ast.Name:
        return "mask" in node.id.lower() and not node.id.isupper()
    if type(node) is ast.Attribute:
        return "mask" in node.attr.lower() and not node.attr.isupper()
    return False


def _mask_indexing(context: RuleContext, node: ast.Subscript) -> None:
    """x[x > 0], x[mask] = 0: one matcher for the read and the write."""
    if _is_mask(node.slice):
        if type(node.ctx) is ast.Store:
            _report_index(context, node, BOOLEAN_MASK_ASSIGNMENT, "tensor[mask]=value")
        else:
            _report_index(context, node, BOOLEAN_MASK_INDEX, "tensor[mask]")


def _integer_indexing(context: RuleContext, node: ast.Subscript) -> None:
    """x[torch.randperm(n)], x[scores.argsort()] = 0: an index that is an int64 tensor by construction."""
    index = node.slice
    if type(index) is not ast.Call:
        return
    func = index.func
    if not (context.qualified_name(func) in _INTEGER_INDEX_FUNCTIONS
            or (type(func) is ast.Attribute and func.attr in _INTEGER_INDEX_METHODS and context.infer(func.value) == TENSOR)):
        return
    if type(node.ctx) is ast.Store:
        _report_index(context, node, INTEGER_TENSOR_INDEX_ASSIGNMENT, "tensor[index]=value")
    else:
        _report_index(context, node, INTEGER_TENSOR_INDEX, "tensor[index]")


def _report_index(context: RuleContext, node: ast.Subscript, condition: str, api: str) -> None:
    entries = context.view.patterns.get(condition)
    if not entries:
        return
    value_type = context.infer(node.value)
    if value_type is not None and value_type != TENSOR:
        return
    if value_type is None and not context.factory.settings.untyped_receivers:
        return  # no evidence of a torch tensor: a NumPy array or a dict looks the same
    confidence = "inferred" if value_type == TENSOR else "heuristic"
    factory = context.factory
    span = factory.span(node)
    for entry in entries:
        context.add(factory.finding(entry, span, confidence, api=api))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import torch
        import torch_npu


        def filter_boxes(boxes: torch.Tensor, scores: torch.Tensor, threshold: float):
            keep = boxes[scores > threshold]  # expect: NPU402
            boxes[scores < 0.01] = 0  # expect: NPU402
            order = boxes[scores.argsort(descending=True)]  # expect: NPU401
            shuffled = boxes[torch.randperm(boxes.shape[0])]  # expect: NPU401
            return keep, order, shuffled
        """, codes=("NPU401", "NPU402")),
    Example("mindspore", """
        import torch


        def accumulate(a, b, result):
            torch.add(a, b, out=result)  # expect: MS104
            return torch.zeros(3, device="cpu", requires_grad=True)  # expect: MS104, MS104
        """, codes=("MS104",)),
)
_LEAVES_ALONE = (
    Example("npu", """
        import torch
        import torch_npu


        def pick(batch: torch.Tensor, names: list, index: int):
            first = batch[0]
            window = batch[:, index:index + 4]
            label = names[index]
            lookup = {"a": 1}["a"]
            return first, window, label, lookup
        """, codes=("NPU401", "NPU402")),
)


RULE = Rule(
    name="patterns",
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
    matchers={
        GENERAL_KEYWORD: Matcher(CALL, _general_keyword),
        BOOLEAN_MASK_INDEX: Matcher(SUBSCRIPT, _mask_indexing),
        BOOLEAN_MASK_ASSIGNMENT: Matcher(SUBSCRIPT, _mask_indexing),
        INTEGER_TENSOR_INDEX: Matcher(SUBSCRIPT, _integer_indexing),
        INTEGER_TENSOR_INDEX_ASSIGNMENT: Matcher(SUBSCRIPT, _integer_indexing),
    },
)
