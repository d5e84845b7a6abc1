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

from ascend_migrate.analysis.rules.api import (
    BINARY_OPERATION,
    CALL,
    CLASS_DEFINITION,
    FUNCTION_DEFINITION,
    LOOP,
    Example,
    Matcher,
    Rule,
    RuleContext,
)
from ascend_migrate.analysis.symbols import TENSOR

_SOFTMAX = frozenset({"torch.softmax", "torch.nn.functional.softmax", "torch.Tensor.softmax"})
_DROPOUT = frozenset({"torch.nn.functional.dropout", "torch.dropout"})
_MATMUL = frozenset({"torch.matmul", "torch.bmm", "torch.einsum", "torch.baddbmm"})
_MATMUL_2D = frozenset({"torch.matmul", "torch.mm", "torch.bmm"})


def _callee(context: RuleContext, node: ast.AST) -> str | None:
    if type(node) is not ast.Call:
        return None
    return context.qualified_name(node.func)


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


def _rms_norm(context: RuleContext, call: ast.Call) -> None:
    """x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)"""
    if call.args and context.qualified_name(call.func) == "torch.rsqrt" and _contains(call.args[0], _is_square):
        context.report_pattern("rms-norm", call)


def _has_matmul(context: RuleContext, node: ast.AST) -> bool:
    return _contains(node, lambda n: (type(n) is ast.BinOp and type(n.op) is ast.MatMult) or _callee(context, n) in _MATMUL)


def _scaled_dot_product_attention(context: RuleContext, call: ast.Call) -> None:
    """softmax(q @ k.transpose(-2, -1) * scale)"""
    if call.args and context.qualified_name(call.func) in _SOFTMAX and _has_matmul(context, call.args[0]):
        context.report_pattern("scaled-dot-product-attention", call)


def _scaled_masked_softmax(context: RuleContext, call: ast.Call) -> None:
    """softmax((x * scale).masked_fill(mask, -inf)) or softmax(x * scale + mask), the scores computed before
    (with the matmul inside the argument it is the attention shape instead)."""
    argument = call.args[0] if call.args else None
    if argument is None or context.qualified_name(call.func) not in _SOFTMAX or _has_matmul(context, argument):
        return
    if type(argument) is ast.Call and type(argument.func) is ast.Attribute and argument.func.attr == "masked_fill":
        scaled = argument.func.value
    elif type(argument) is ast.BinOp and type(argument.op) is ast.Add:
        scaled = argument.left if type(argument.left) is ast.BinOp else argument.right
    else:
        return
    if type(scaled) is ast.BinOp and type(scaled.op) in (ast.Mult, ast.Div):
        context.report_pattern("scaled-masked-softmax", call)


def _add_softmax_dropout(context: RuleContext, call: ast.Call) -> None:
    """dropout(softmax(x + mask))"""
    argument = call.args[0] if call.args else None
    if type(argument) is ast.Call and context.qualified_name(call.func) in _DROPOUT and _callee(context, argument) in _SOFTMAX:
        inner = argument.args[0] if argument.args else None
        if type(inner) is ast.BinOp and type(inner.op) is ast.Add:
            context.report_pattern("add-softmax-dropout", call)


def _add_layer_norm(context: RuleContext, call: ast.Call) -> None:
    """layer_norm(x + residual, ...)"""
    argument = call.args[0] if call.args else None
    if (type(argument) is ast.BinOp and type(argument.op) is ast.Add
            and context.qualified_name(call.func) == "torch.nn.functional.layer_norm"):
        context.report_pattern("add-layer-norm", call)


def _group_norm_silu(context: RuleContext, call: ast.Call) -> None:
    """F.silu(F.group_norm(...))"""
    if (call.args and context.qualified_name(call.func) == "torch.nn.functional.silu"
            and _callee(context, call.args[0]) == "torch.nn.functional.group_norm"):
        context.report_pattern("group-norm-silu", call)


def _transpose_reshape(context: RuleContext, call: ast.Call) -> None:
    """x.permute(...).contiguous().view(...) / x.transpose(...).reshape(...)"""
    func = call.func
    if type(func) is not ast.Attribute:
        return
    receiver = func.value
    if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.func.attr == "contiguous":
        receiver = receiver.func.value
    if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.func.attr in ("permute", "transpose"):
        receiver_type = context.infer(receiver.func.value)
        if receiver_type == TENSOR:
            context.report_pattern("transpose-reshape", call, "inferred")
        elif receiver_type is None and context.factory.settings.untyped_receivers:
            context.report_pattern("transpose-reshape", call, "heuristic")


def _tensor_to_python_scalar(context: RuleContext, call: ast.Call) -> None:
    """float(loss), int(count), bool(flag) on a tensor: a device-to-host copy that waits for the device."""
    func = call.func
    if (type(func) is ast.Name and func.id in ("float", "int", "bool") and len(call.args) == 1
            and context.lookup(func.id) is None and context.infer(call.args[0]) == TENSOR):
        context.report_pattern("tensor-to-python-scalar", call, "inferred")


def _gated_activation(context: RuleContext, node: ast.BinOp) -> None:
    """F.silu(x1) * x2 (swiglu), F.gelu(x1) * x2 (geglu): one matcher for both names."""
    if type(node.op) is not ast.Mult:
        return
    for operand in (node.left, node.right):
        callee = _callee(context, operand)
        if callee == "torch.nn.functional.silu":
            context.report_pattern("swiglu", node)
            return
        if callee == "torch.nn.functional.gelu":
            context.report_pattern("geglu", node)
            return


def _rotary_embedding(context: RuleContext, node: ast.BinOp) -> None:
    """x * cos + rotate_half(x) * sin"""
    left, right = node.left, node.right
    if (type(node.op) is ast.Add and type(left) is ast.BinOp and type(right) is ast.BinOp
            and type(left.op) is ast.Mult and type(right.op) is ast.Mult and _contains(node, _is_rotate_half)):
        context.report_pattern("rotary-embedding", node)


def _is_matmul(context: RuleContext, node: ast.AST) -> bool:
    return (type(node) is ast.BinOp and type(node.op) is ast.MatMult) or _callee(context, node) in _MATMUL_2D


def _matmul_add(context: RuleContext, node: ast.BinOp) -> None:
    """x @ w + b, torch.matmul(x, w) + b"""
    if type(node.op) is ast.Add and (_is_matmul(context, node.left) or _is_matmul(context, node.right)):
        context.report_pattern("matmul-add", node)


def _mul_mul_add(context: RuleContext, node: ast.BinOp) -> None:
    """beta * input + alpha * (mat1 @ mat2): what torch.addmm computes in one operator."""
    left, right = node.left, node.right
    if not (type(node.op) is ast.Add and type(left) is ast.BinOp and type(right) is ast.BinOp
            and type(left.op) is ast.Mult and type(right.op) is ast.Mult):
        return
    if any(_is_matmul(context, operand) for operand in (left.left, left.right, right.left, right.right)):
        context.report_pattern("mul-mul-add", node)


def _grouped_matmul_loop(context: RuleContext, node: ast.For | ast.AsyncFor) -> None:
    """for i in range(num_experts): ... x[i] @ w[i] ...: one matmul per expert or group, an operand indexed by
    the loop variable (so the matmuls are independent of each other, which a grouped matmul needs)."""
    loop_names = {target.id for target in ast.walk(node.target) if type(target) is ast.Name}
    if not loop_names or not _text_mentions_matmul(context, node):
        return
    for statement in node.body:
        if _contains(statement, lambda n: _is_matmul(context, n) and _uses_loop_variable(n, loop_names)):
            context.report_pattern("grouped-matmul-loop", node.target)
            return


def _text_mentions_matmul(context: RuleContext, node: ast.For | ast.AsyncFor) -> bool:
    """Whether the loop's body text could hold a matmul: scanning its lines is far cheaper than walking its
    statements, and most loops hold none."""
    factory = context.factory
    offset = factory.line_offset
    text = factory.lines.text
    for line in range(node.body[0].lineno + offset, (node.end_lineno or node.lineno) + offset + 1):
        line_text = text(line)
        if "@" in line_text or "matmul" in line_text or "mm(" in line_text:
            return True
    return False


def _uses_loop_variable(node: ast.AST, loop_names: set[str]) -> bool:
    """Whether an operand of a matmul (`a @ b` or a 2-d matmul call) uses a loop variable."""
    operands = [node.left, node.right] if isinstance(node, ast.BinOp) else node.args[:2] if isinstance(node, ast.Call) else []
    for operand in operands:
        if type(operand) is ast.Subscript and type(operand.slice) is ast.Name and operand.slice.id in loop_names:
            return True
    return False


def _is_rotate_half(node: ast.AST) -> bool:
    if type(node) is not ast.Call:
        return False
    func = node.func
    name = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else ""
    return name == "rotate_half"


def _function_name(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    for entry in context.view.patterns["function-name"]:
        if entry.api == node.name:
            _report_definition(context, (entry,), node)


def _function_signature(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    signature = f"{node.name}({','.join(_parameter_names(node.args))})"
    for entry in context.view.patterns["function-signature"]:
        if entry.api == signature:
            _report_definition(context, (entry,), node)


def _class_name(context: RuleContext, node: ast.ClassDef) -> None:
    for entry in context.view.patterns["class-name"]:
        if entry.api == node.name:
            _report_definition(context, (entry,), node)


def _class_signature(context: RuleContext, node: ast.ClassDef) -> None:
    methods = None
    for entry in context.view.patterns["class-signature"]:
        head, _, parts = entry.api.partition(":")
        if head.split("(", 1)[0] != node.name:
            continue
        if methods is None:
            methods = {item.name: ",".join(_parameter_names(item.args)) for item in node.body
                       if type(item) is ast.FunctionDef or type(item) is ast.AsyncFunctionDef}
        wanted = dict(part.split("(", 1) for part in parts.split(";") if "(" in part)
        if all(methods.get(name) == arguments.rstrip(")") for name, arguments in wanted.items()):
            _report_definition(context, (entry,), node)


def _bert_self_attention(context: RuleContext, node: ast.ClassDef) -> None:
    """A module whose __init__ builds `self.query`, `self.key` and `self.value` as nn.Linear layers (the
    Hugging Face BertSelfAttention block and its copies)."""
    for item in node.body:
        if type(item) is ast.FunctionDef and item.name == "__init__":
            linear = {target.attr for statement in item.body if type(statement) is ast.Assign
                      and _callee(context, statement.value) == "torch.nn.Linear"
                      for target in statement.targets
                      if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self"}
            if {"query", "key", "value"} <= linear:
                _report_definition(context, context.view.patterns["bert-self-attention"], node)
            return


def _parameter_names(arguments: ast.arguments) -> list[str]:
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
    if arguments.vararg:
        names.append(arguments.vararg.arg)
    names += [argument.arg for argument in arguments.kwonlyargs]
    if arguments.kwarg:
        names.append(arguments.kwarg.arg)
    return names


def _report_definition(context: RuleContext, entries, node) -> None:
    """A finding per entry on the name of a `def` or `class`."""
    factory = context.factory
    line = node.lineno + factory.line_offset
    text = factory.lines.text(line)
    column = text.find(node.name) + 1 or 1
    span = (line, column, line, column + len(node.name))
    for entry in entries:
        context.add(factory.finding(entry, span, "heuristic", api=entry.api.split("(", 1)[0]))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import torch
        import torch_npu
        import torch.nn.functional as F
        from torch import nn


        class RMSNorm(nn.Module):
            def __init__(self, dim, eps=1e-6):
                super().__init__()
                self.eps = eps
                self.weight = nn.Parameter(torch.ones(dim))

            def forward(self, x):
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight  # expect: NPU302 rms-norm


        def rotate_half(x):
            x1, x2 = x.chunk(2, dim=-1)
            return torch.cat((-x2, x1), dim=-1)


        def apply_rotary(q, cos, sin):
            return q * cos + rotate_half(q) * sin  # expect: NPU302 rotary-embedding


        def attention(q, k, v, mask, scale):
            probs = torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1)  # expect: NPU302 scaled-dot-product-attention
            probs = F.dropout(F.softmax(probs + mask, dim=-1), p=0.1)  # expect: NPU302 add-softmax-dropout
            return (probs @ v).transpose(1, 2).contiguous().view(q.size(0), -1)  # expect: NPU302 transpose-reshape


        def masked_scores(scores, mask, scale):
            return torch.softmax((scores * scale).masked_fill(mask, float("-inf")), dim=-1)  # expect: NPU302 scaled-masked-softmax


        def feed_forward(x, w_in, w_out, bias):
            gate, up = (x @ w_in).chunk(2, dim=-1)
            hidden = F.silu(gate) * up  # expect: NPU302 swiglu
            out = hidden @ w_out + bias  # expect: NPU302 matmul-add
            blended = 0.9 * bias + 0.1 * (hidden @ w_out)  # expect: NPU302 mul-mul-add
            return F.layer_norm(out + x, x.shape[-1:]), blended  # expect: NPU302 add-layer-norm


        def experts(tokens, weights, num_experts):
            outputs = []
            for expert in range(num_experts):  # expect: NPU302 grouped-matmul-loop
                outputs.append(tokens[expert] @ weights[expert])
            return outputs


        def decode(norm, x):
            return F.silu(F.group_norm(x, 32))  # expect: NPU302 group-norm-silu


        class BertSelfAttention(nn.Module):  # expect: NPU302 bert-self-attention
            def __init__(self, hidden):
                super().__init__()
                self.query = nn.Linear(hidden, hidden)
                self.key = nn.Linear(hidden, hidden)
                self.value = nn.Linear(hidden, hidden)


        def train_step(model, batch, target):
            loss = F.mse_loss(model(batch), target)
            return float(loss)  # matched, but its entry is `reported: false` (a host sync, not a dynamic shape)
        """, codes=("NPU302", "NPU401")),
)
_LEAVES_ALONE = (
    Example("npu", """
        import torch
        import torch_npu
        import torch.nn.functional as F
        from torch import nn


        class Encoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.query = nn.Linear(dim, dim)
                self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(4))

            def forward(self, x, weight):
                for layer in self.layers:
                    x = layer(x)
                logits = x @ weight
                probs = F.softmax(logits, dim=-1)
                flat = x.view(x.size(0), -1)
                scale = 0.5 * 2 + 3 * 4
                return probs, flat, scale, float(len(self.layers))
        """, codes=("NPU302", "NPU401")),
)


RULE = Rule(
    name="shapes",
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
    matchers={
        "rms-norm": Matcher(CALL, _rms_norm, frozenset({"rsqrt"})),
        "scaled-dot-product-attention": Matcher(CALL, _scaled_dot_product_attention, frozenset({"softmax"})),
        "scaled-masked-softmax": Matcher(CALL, _scaled_masked_softmax, frozenset({"softmax"})),
        "add-softmax-dropout": Matcher(CALL, _add_softmax_dropout, frozenset({"dropout"})),
        "add-layer-norm": Matcher(CALL, _add_layer_norm, frozenset({"layer_norm"})),
        "group-norm-silu": Matcher(CALL, _group_norm_silu, frozenset({"silu"})),
        "transpose-reshape": Matcher(CALL, _transpose_reshape, frozenset({"reshape", "view"})),
        "tensor-to-python-scalar": Matcher(CALL, _tensor_to_python_scalar, frozenset({"float", "int", "bool"})),
        "swiglu": Matcher(BINARY_OPERATION, _gated_activation),
        "geglu": Matcher(BINARY_OPERATION, _gated_activation),
        "rotary-embedding": Matcher(BINARY_OPERATION, _rotary_embedding),
        "matmul-add": Matcher(BINARY_OPERATION, _matmul_add),
        "mul-mul-add": Matcher(BINARY_OPERATION, _mul_mul_add),
        "grouped-matmul-loop": Matcher(LOOP, _grouped_matmul_loop),
        "function-name": Matcher(FUNCTION_DEFINITION, _function_name),
        "function-signature": Matcher(FUNCTION_DEFINITION, _function_signature),
        "class-name": Matcher(CLASS_DEFINITION, _class_name),
        "class-signature": Matcher(CLASS_DEFINITION, _class_signature),
        "bert-self-attention": Matcher(CLASS_DEFINITION, _bert_self_attention),
    },
)
