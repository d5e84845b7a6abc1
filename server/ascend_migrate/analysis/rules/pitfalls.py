"""The Ascend guide's pitfalls that survive the renames: device capability unpacked, properties' major/minor read.

`get_device_capability()` returns None on Ascend and its device properties have no major/minor, so code that
unpacks, indexes or orders the capability, or reads `.major`, breaks after `torch.cuda` became `torch.npu`. Reported
at that spot (mappings/npu_pitfalls.yaml: no fix, what the check should decide on Ascend is the author's choice),
on the call itself or on a name assigned from it earlier in the same top-level statement (function).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.api import ASSIGNMENT, ATTRIBUTE, COMPARE, SUBSCRIPT, Example, Matcher, Rule, RuleContext

CAPABILITY = "device-capability-unpacked"
PROPERTIES = "device-properties-version"
_CALLS = {
    CAPABILITY: frozenset(f"{module}.get_device_capability" for module in ("torch.cuda", "torch.npu", "torch_npu.npu")),
    PROPERTIES: frozenset(f"{module}.get_device_properties" for module in ("torch.cuda", "torch.npu", "torch_npu.npu")),
}
_VERSION_FIELDS = frozenset(("major", "minor"))
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _kind(context: RuleContext, value: ast.expr) -> str | None:
    """CAPABILITY or PROPERTIES when `value` is such a call, or a name assigned from one in this statement."""
    if type(value) is ast.Call:
        qualified = context.qualified_name(value.func)
        return next((kind for kind, calls in _CALLS.items() if qualified in calls), None)
    if type(value) is ast.Name:
        return _assigned(context).get(value.id)
    if type(value) is ast.IfExp:  # `get_device_capability() if torch.npu.is_available() else (0, 0)`: true on an NPU
        return _kind(context, value.body) or _kind(context, value.orelse)
    return None


def _call_in(context: RuleContext, value: ast.expr) -> ast.expr:
    """Where to report a capability value: the branch of a conditional expression that makes it, else the value."""
    while type(value) is ast.IfExp:
        value = value.body if _kind(context, value.body) is not None else value.orelse
    return value


def _assigned(context: RuleContext) -> dict[str, str]:
    """Names assigned from a capability or properties call in the statement being walked (a chunk's findings list is
    new for each chunk, so the table is dropped with it)."""
    state = context.__dict__.get("_pitfall_names")
    if state is None or state[0] is not context.findings:
        state = (context.findings, {})
        context.__dict__["_pitfall_names"] = state
    return state[1]


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if CAPABILITY not in context.view.patterns and PROPERTIES not in context.view.patterns:
        return
    kind = _kind(context, value)
    if kind == CAPABILITY and any(type(target) in (ast.Tuple, ast.List) for target in targets):
        context.report_pattern(CAPABILITY, _call_in(context, value))  # major, minor = torch.npu.get_device_capability()
    names = _assigned(context)
    for target in targets:
        if type(target) is ast.Name:
            if kind is None:
                names.pop(target.id, None)  # rebound to something else
            else:
                names[target.id] = kind


def on_subscript(context: RuleContext, node: ast.Subscript) -> None:
    if type(node.ctx) is ast.Load and _kind(context, node.value) == CAPABILITY:
        context.report_pattern(CAPABILITY, node)  # get_device_capability()[0]


def on_compare(context: RuleContext, node: ast.Compare) -> None:
    if CAPABILITY not in context.view.patterns or not any(type(operator) in _ORDERING for operator in node.ops):
        return
    for operand in (node.left, *node.comparators):
        if _kind(context, operand) == CAPABILITY:
            context.report_pattern(CAPABILITY, operand)  # get_device_capability() >= (8, 0): None >= tuple


def on_attribute(context: RuleContext, node: ast.Attribute, receiver_type, call, intermediate: str) -> None:
    if node.attr in _VERSION_FIELDS and _kind(context, node.value) == PROPERTIES:
        context.report_pattern(PROPERTIES, node)


_FLAGS = (
    Example("npu", """
        import torch
        import torch_npu


        def use_flash_attention(device=0):
            major, minor = torch.npu.get_device_capability(device)  # expect: NPU110
            if torch.npu.get_device_capability()[0] >= 8:  # expect: NPU110
                pass
            capability = torch.cuda.get_device_capability(device)  # expect: NPU101
            props = torch.npu.get_device_properties(device)
            print(props.name, props.total_memory, props.major)  # expect: NPU111
            return capability >= (8, 0)  # expect: NPU110


        def half_precision_dtype():
            major, _ = torch.npu.get_device_capability() if torch.npu.is_available() else (0, 0)  # expect: NPU110
            return torch.float16 if major >= 7 else torch.float32
        """, codes=("NPU110", "NPU111")),
)
_LEAVES_ALONE = (
    Example("npu", """
        import torch
        import torch_npu


        def describe(device=0):
            capability = torch.npu.get_device_capability(device)
            if capability is None:
                capability = (0, 0)
            props = torch.npu.get_device_properties(device)
            props = props.name
            return capability, props, torch.npu.get_device_name(device)


        def supports_bf16():
            major, _ = torch.npu.get_device_capability() or (0, 0)  # None on an NPU: the fallback is taken
            return major >= 8
        """, codes=("NPU110", "NPU111")),
)

RULE = Rule(
    name="pitfalls",
    hooks={ASSIGNMENT: on_assignment, COMPARE: on_compare},
    matchers={CAPABILITY: Matcher(SUBSCRIPT, on_subscript), PROPERTIES: Matcher(ATTRIBUTE, on_attribute)},
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
