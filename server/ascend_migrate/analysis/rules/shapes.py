"""Code shapes with an NPU fused operator or an NPU caveat, matched on the syntax tree.

Each matcher names a `condition` of `match: pattern` entries in mappings/ (npu_affinity.yaml,
npu_dynamic_shape.yaml). The shapes follow the msprof-analyze op-sequence rules and msfmktransplt's affinity
list, written as the source code that produces those op sequences. They are conservative: a shape is
reported only when the operators are recognised through imports (`torch.rsqrt`, `F.silu`), or, for
tensor methods, on a receiver known to be a tensor (or, with the `untyped-receivers` setting, any receiver at
`heuristic` confidence).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.symbols import TENSOR

_SOFTMAX = frozenset({"torch.softmax", "torch.nn.functional.softmax", "torch.Tensor.softmax"})
_DROPOUT = frozenset({"torch.nn.functional.dropout", "torch.dropout"})
_MATMUL = frozenset({"torch.matmul", "torch.bmm", "torch.einsum", "torch.baddbmm"})


def _report(walker, condition: str, node: ast.AST, confidence: str = "exact") -> None:
    entries = walker.context.view.patterns.get(condition)
    if not entries:
        return
    factory = walker.context.factory
    span = factory.span(node)
    for entry in entries:
        walker.context.add(factory.finding(entry, span, confidence, api=entry.api))


def _callee(walker, node: ast.AST) -> str | None:
    if type(node) is not ast.Call:
        return None
    return walker.qualified_name(node.func)


def _contains(node: ast.AST, predicate) -> bool:
    stack = [node]
    budget = 200  # shapes are small; never walk a huge argument
    while stack and budget:
        budget -= 1
        current = stack.pop()
        if predicate(current):
            return True
        stack.extend(ast.iter_child_nodes(current))
    return False


def _is_square(node: ast.AST) -> bool:
    if type(node) is ast.BinOp and type(node.op) is ast.Pow:
        return type(node.right) is ast.Constant and node.right.value == 2
    if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "pow" and node.args:
        first = node.args[0]
        return type(first) is ast.Constant and first.value == 2
    return False


def on_call(walker, call: ast.Call) -> None:
    patterns = walker.context.view.patterns
    if not patterns:
        return
    qualified = walker.qualified_name(call.func)
    if qualified is not None:
        argument = call.args[0] if call.args else None
        if qualified == "torch.rsqrt" and argument is not None and _contains(argument, _is_square):
            _report(walker, "rms-norm", call)
        elif qualified in _SOFTMAX and argument is not None and _contains(
            argument, lambda n: (type(n) is ast.BinOp and type(n.op) is ast.MatMult) or _callee(walker, n) in _MATMUL
        ):
            _report(walker, "scaled-dot-product-attention", call)
        elif qualified in _DROPOUT and argument is not None and _callee(walker, argument) in _SOFTMAX:
            inner = argument.args[0] if argument.args else None
            if type(inner) is ast.BinOp and type(inner.op) is ast.Add:
                _report(walker, "add-softmax-dropout", call)
        elif qualified == "torch.nn.functional.layer_norm" and type(argument) is ast.BinOp and type(argument.op) is ast.Add:
            _report(walker, "add-layer-norm", call)
        elif qualified == "torch.nn.functional.silu" and _callee(walker, argument) == "torch.nn.functional.group_norm":
            _report(walker, "group-norm-silu", call)
        return
    func = call.func
    if type(func) is ast.Attribute and func.attr in ("reshape", "view"):
        receiver = func.value
        if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.func.attr == "contiguous":
            receiver = receiver.func.value
        if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.func.attr in ("permute", "transpose"):
            receiver_type = walker.infer(receiver.func.value)
            if receiver_type == TENSOR:
                _report(walker, "transpose-reshape", call, "inferred")
            elif receiver_type is None and walker.context.factory.settings.untyped_receivers:
                _report(walker, "transpose-reshape", call, "heuristic")
    elif type(func) is ast.Name and func.id in ("float", "int", "bool") and walker.lookup(func.id) is None and len(call.args) == 1:
        if walker.infer(call.args[0]) == TENSOR:
            _report(walker, "tensor-to-python-scalar", call, "inferred")


def on_binary_operation(walker, node: ast.BinOp) -> None:
    patterns = walker.context.view.patterns
    if not patterns:
        return
    operator = type(node.op)
    if operator is ast.Mult:
        for operand in (node.left, node.right):
            callee = _callee(walker, operand)
            if callee == "torch.nn.functional.silu":
                _report(walker, "swiglu", node)
                return
            if callee == "torch.nn.functional.gelu":
                _report(walker, "geglu", node)
                return
    elif operator is ast.Add and type(node.left) is ast.BinOp and type(node.right) is ast.BinOp:
        if type(node.left.op) is ast.Mult and type(node.right.op) is ast.Mult and _contains(node, _is_rotate_half):
            _report(walker, "rotary-embedding", node)


def _is_rotate_half(node: ast.AST) -> bool:
    if type(node) is not ast.Call:
        return False
    func = node.func
    name = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else ""
    return name == "rotate_half"


def on_function_definition(walker, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    patterns = walker.context.view.patterns
    if not patterns:
        return
    for entry in patterns.get("function-name", ()):
        if entry.api == node.name:
            _report_definition(walker, entry, node)
    signature = f"{node.name}({','.join(_parameter_names(node.args))})"
    for entry in patterns.get("function-signature", ()):
        if entry.api == signature:
            _report_definition(walker, entry, node)


def on_class_definition(walker, node: ast.ClassDef) -> None:
    patterns = walker.context.view.patterns
    if not patterns:
        return
    for entry in patterns.get("class-name", ()):
        if entry.api == node.name:
            _report_definition(walker, entry, node)
    signature_entries = patterns.get("class-signature", ())
    if not signature_entries:
        return
    methods = {item.name: ",".join(_parameter_names(item.args)) for item in node.body
               if type(item) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    for entry in signature_entries:
        head, _, parts = entry.api.partition(":")
        if head.split("(", 1)[0] != node.name:
            continue
        wanted = dict(part.split("(", 1) for part in parts.split(";") if "(" in part)
        if all(methods.get(name) == arguments.rstrip(")") for name, arguments in wanted.items()):
            _report_definition(walker, entry, node)


def _parameter_names(arguments: ast.arguments) -> list[str]:
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
    if arguments.vararg:
        names.append(arguments.vararg.arg)
    names += [argument.arg for argument in arguments.kwonlyargs]
    if arguments.kwarg:
        names.append(arguments.kwarg.arg)
    return names


def _report_definition(walker, entry, node) -> None:
    factory = walker.context.factory
    line = node.lineno + factory.line_offset
    text = factory.lines.text(line)
    column = text.find(node.name) + 1 or 1
    span = (line, column, line, column + len(node.name))
    walker.context.add(factory.finding(entry, span, "heuristic", api=entry.api.split("(", 1)[0]))
