"""Whether an entry with `when` conditions concerns this call: the restricted argument or value is there.

A restriction row (NPU204) says what a call must avoid on Ascend (`memory_format=torch.channels_last`,
`sorted=False`, `backend="cudagraphs"`). Most calls never touch it, so such a row is reported only where one of
its `when` conditions holds at the call. (Rows whose restriction no call shows, such as dtype lists or "may fall
back to the CPU", say `reported: false` in mappings/.)
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from ascend_migrate.kb.schema import CallCondition, Entry

RESTRICTION_CODE = "NPU204"  # its rows say "supported with restriction"
NUMBER_TYPES = ("builtins.int", "builtins.float")  # what the walker infers for `n: int`

TypeOf = Callable[[ast.expr], "str | None"]  # the walker's inference: an expression's type when it is known


def applies_at(entry: Entry, call: ast.Call | None, type_of: TypeOf | None = None) -> bool:
    """False when the entry has `when` conditions and this use of its API meets none of them."""
    # A dtype is seen only at run time (`ascend-migrate run` checks those conditions): the text alone neither meets
    # nor clears one, so an entry whose conditions are all dtypes applies at every use, as one without conditions.
    conditions = [condition for condition in entry.when if not condition.dtypes]
    if not conditions:
        return True
    if call is None:
        return False  # a reference without a call (`f = torch.sum`) passes no argument
    return any(_holds(condition, call, type_of) for condition in conditions)


def _holds(condition: CallCondition, call: ast.Call, type_of: TypeOf | None) -> bool:
    argument = _argument(condition, call)
    if argument is None:
        return condition.missing and not _may_hide_arguments(call)
    if argument is _UNKNOWN or not condition.present:
        return False
    if condition.unless_number and (_is_number(argument) or (type_of is not None and _typed_number(argument, type_of))):
        return False
    value = written_value(argument)
    if condition.values:
        # Only the restricted value written at the call (`backend="cudagraphs"`, `fused=True`) meets it: a
        # variable passed through (`backend=backend`) is the caller's choice, reported where it is written.
        return not isinstance(argument, ast.Name) and value in condition.values
    if condition.other_than:
        if isinstance(argument, ast.Name) and value is not None:  # `dtype`, `compute_dtype`: a variable named like an allowed value
            return not any(value == allowed or value.endswith("_" + allowed) for allowed in condition.other_than)
        return value is None or value not in condition.other_than
    return True


_UNKNOWN = ast.Constant(value=None)  # a *starred argument where the position is: passed or not, nobody knows


def _argument(condition: CallCondition, call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == condition.argument:
            return keyword.value
    if condition.position is not None:
        for index, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                return _UNKNOWN
            if index == condition.position:
                return argument
    return None


def _is_number(node: ast.expr) -> bool:
    """A Python number, never a tensor: a number literal, `int(...)`/`float(...)`/`len(...)`, a size read from a
    tensor (`x.shape[1]`, `x.size(0)`, `x.numel()`, `x.dim()`), or arithmetic of these."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in ("int", "float", "len") and len(node.args) == 1
        return isinstance(func, ast.Attribute) and func.attr in ("size", "numel", "dim") and len(node.args) <= 1
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
    if isinstance(node, ast.BinOp):
        return _is_number(node.left) and _is_number(node.right)
    return False


def _typed_number(node: ast.expr, type_of: TypeOf) -> bool:
    """A variable the code says is a Python number (`n_steps: int`, a parameter defaulting to a number, `self.heads`
    assigned from one in `__init__`), or arithmetic of such names and numbers."""
    if isinstance(node, (ast.Name, ast.Attribute)):
        return type_of(node) in NUMBER_TYPES
    if isinstance(node, ast.BinOp):
        return all(_is_number(side) or _typed_number(side, type_of) for side in (node.left, node.right))
    return False


def _may_hide_arguments(call: ast.Call) -> bool:
    """`f(*arguments)` or `f(**options)`: the argument may be passed there."""
    return any(keyword.arg is None for keyword in call.keywords) or any(isinstance(argument, ast.Starred) for argument in call.args)


def written_value(node: ast.expr) -> str | None:
    """A literal's value as the knowledge base writes it, a dotted name's last part or a variable's name, or None."""
    if isinstance(node, ast.Constant):
        return str(node.value) if not isinstance(node.value, str) else node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return "-" + str(node.operand.value)  # a number in practice; str() of anything else matches no table value
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id  # a variable named like an allowed value (`dtype`) is taken to hold one
    return None
