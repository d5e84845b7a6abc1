"""String literals that act as a device, a distributed backend or an environment variable name.

A literal counts only in a role: an argument or keyword that takes a device (`device=`, `.to(...)`,
`torch.device(...)`, `map_location=`), a backend (`backend=`, `init_process_group(...)`), a comparison, an
assignment to a name about devices or backends, an argparse default, a parameter default, a dict value under
such a key. "cuda" in a help text, a log message, a comment or a docstring is prose and never a finding.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.api import ASSIGNMENT, CALL, COMPARE, DICT, FUNCTION_DEFINITION, STRING, Example, Rule, RuleContext

DEVICE = "device"
BACKEND = "backend"
ENVIRONMENT_VARIABLE = "environment-variable"
TENSOR_TYPE = "tensor-type"

_DEVICE_KEYWORDS = frozenset({"device", "device_type", "map_location", "device_name", "dev"})
_BACKEND_KEYWORDS = frozenset({"backend", "dist_backend"})
_DEVICE_TAKING_FUNCTIONS = frozenset({"torch.device", "torch.cuda.device", "torch.autocast", "torch.amp.autocast",
                                      "torch.set_default_device", "torch.get_autocast_dtype"})
_BACKEND_TAKING_FUNCTIONS = frozenset({"torch.distributed.init_process_group", "torch.distributed.new_group",
                                       "torch.distributed.is_backend_available"})
_DEVICE_TAKING_METHODS = frozenset({"to", "to_empty"})


def _device_value(node: ast.expr) -> str | None:
    """The device name ('cuda') a literal stands for, or None: "cuda", "cuda:0", f"cuda:{i}"."""
    node_type = type(node)
    if node_type is ast.Constant:
        value = node.value
        if type(value) is str and (value == "cuda" or (value.startswith("cuda:") and value[5:].isdigit())):
            return "cuda"
        return None
    if node_type is ast.JoinedStr and node.values:
        first = node.values[0]
        if type(first) is ast.Constant and type(first.value) is str and first.value in ("cuda:", "cuda"):
            return "cuda"
    return None


def _backend_value(node: ast.expr) -> str | None:
    if type(node) is ast.Constant and type(node.value) is str and node.value in ("nccl", "NCCL"):
        return node.value
    return None


def _literals(node: ast.expr):
    """The expression itself, or both branches of `"cuda" if ok else "cpu"`."""
    if type(node) is ast.IfExp:
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    else:
        yield node


def report(context: RuleContext, role: str, node: ast.expr) -> None:
    for literal in _literals(node):
        value = _device_value(literal) if role == DEVICE else _backend_value(literal)
        if value is None:
            continue
        for entry in context.view.by_string.get(value, ()):
            if entry.condition != role:
                continue
            factory = context.factory
            span = factory.substring_span(literal, value) or factory.span(literal)
            fix = None
            if entry.target and entry.fix != "none" and span[0] == span[2]:
                fix = factory.text_fix(entry, span, entry.target, f"Replace '{value}' with '{entry.target}'",
                                       ("import torch_npu",) if role == DEVICE else ())
            context.add(factory.finding(entry, span, "exact", api=f"'{value}'", fix=fix))


def on_call(context: RuleContext, call: ast.Call) -> None:
    if not context.view.by_string:
        return
    for keyword in call.keywords:
        name = keyword.arg
        if name in _DEVICE_KEYWORDS:
            value = keyword.value
            if type(value) is ast.Dict:  # map_location={"cuda:0": "cpu"}
                for item in (*value.keys, *value.values):
                    if item is not None:
                        report(context, DEVICE, item)
            else:
                report(context, DEVICE, value)
        elif name in _BACKEND_KEYWORDS:
            report(context, BACKEND, keyword.value)
        elif name == "default" and _argparse_option(call):
            option = _argparse_option(call)
            if "device" in option:
                report(context, DEVICE, keyword.value)
            elif "backend" in option:
                report(context, BACKEND, keyword.value)
    if not call.args:
        return
    func = call.func
    if type(func) is ast.Attribute and func.attr == "type":
        _tensor_type(context, call.args[0])
    if type(func) is ast.Attribute and func.attr in _DEVICE_TAKING_METHODS:
        qualified = context.qualified_name(func)
        if qualified is None:  # x.to("cuda"), not some_module.to(...)
            for argument in call.args:
                report(context, DEVICE, argument)
            return
    qualified = context.qualified_name(func)
    if qualified in _DEVICE_TAKING_FUNCTIONS:
        report(context, DEVICE, call.args[0])
    elif qualified in _BACKEND_TAKING_FUNCTIONS:
        report(context, BACKEND, call.args[0])


def _tensor_type(context: RuleContext, argument: ast.expr) -> None:
    """x.type("torch.cuda.FloatTensor"): a CUDA tensor type named in a string."""
    if type(argument) is not ast.Constant or type(argument.value) is not str:
        return
    for prefix, entries in context.view.by_string.items():
        for entry in entries:
            if entry.condition != TENSOR_TYPE or not argument.value.startswith(prefix + "."):
                continue
            factory = context.factory
            span = factory.substring_span(argument, prefix) or factory.span(argument)
            fix = None
            if entry.target and entry.fix != "none" and span[0] == span[2]:
                fix = factory.text_fix(entry, span, entry.target, f"Replace '{prefix}' with '{entry.target}'", ("import torch_npu",))
            context.add(factory.finding(entry, span, "exact", api=f"'{argument.value}'", fix=fix))


def _argparse_option(call: ast.Call) -> str:
    func = call.func
    if type(func) is ast.Attribute and func.attr == "add_argument" and call.args:
        first = call.args[0]
        if type(first) is ast.Constant and type(first.value) is str and first.value.startswith("-"):
            return first.value.lower()
    return ""


def on_compare(context: RuleContext, node: ast.Compare) -> None:
    if not context.view.by_string:
        return
    for operand in (node.left, *node.comparators):
        report(context, DEVICE, operand)
        report(context, BACKEND, operand)


def on_assign(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if not context.view.by_string or type(value) not in (ast.Constant, ast.JoinedStr, ast.IfExp):
        return
    for target in targets:
        name = target.id if type(target) is ast.Name else target.attr if type(target) is ast.Attribute else ""
        _report_by_name(context, name, value)


def on_dict(context: RuleContext, node: ast.Dict) -> None:
    if not context.view.by_string:
        return
    for key, value in zip(node.keys, node.values):
        if type(key) is ast.Constant and type(key.value) is str:
            _report_by_name(context, key.value, value)


def _report_by_name(context: RuleContext, name: str, value: ast.expr) -> None:
    """A value stored under a name about devices or backends (`device = "cuda"`, {"backend": "nccl"})."""
    lowered = name.lower()
    if "device" in lowered:
        report(context, DEVICE, value)
    elif "backend" in lowered:
        report(context, BACKEND, value)


def on_function_definition(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Parameter defaults: `def run(device="cuda")`."""
    if not context.view.by_string:
        return
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults))
    pairs += [(argument, default) for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults) if default is not None]
    for argument, default in pairs:
        _report_by_name(context, argument.arg, default)


def on_string(context: RuleContext, node: ast.Constant) -> None:
    """Environment variable names are specific enough to count wherever they appear as a literal."""
    entries = context.view.by_string.get(node.value)
    if not entries:
        return
    factory = context.factory
    for entry in entries:
        if entry.condition != ENVIRONMENT_VARIABLE:
            continue
        span = factory.substring_span(node, node.value) or factory.span(node)
        fix = None
        if entry.target and span[0] == span[2]:
            fix = factory.text_fix(entry, span, entry.target, f"Replace {node.value} with {entry.target}")
        context.add(factory.finding(entry, span, "exact", api=node.value, fix=fix))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import argparse
        import os
        import torch
        import torch_npu

        os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"  # expect: NPU104
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda", help="run on cuda or cpu")  # expect: NPU102
        parser.add_argument("--dist-backend", default="nccl")  # expect: NPU103
        device = torch.device("cuda:0")  # expect: NPU102
        torch.distributed.init_process_group(backend="nccl")  # expect: NPU103


        def evaluate(model, batch, device="cuda"):  # expect: NPU102
            if batch.device.type == "cuda":  # expect: NPU102
                batch = batch.to("cuda", non_blocking=True)  # expect: NPU102
            return model(batch.type("torch.cuda.FloatTensor"))  # expect: NPU102
        """),
    Example("mindspore", """
        import torch

        config = {"device": "cuda", "backend": "nccl"}  # expect: MS205, MS208
        """),
)
_LEAVES_ALONE = (
    Example("npu", """
        import logging
        import torch
        import torch_npu


        def report(kind="cuda"):
            \"\"\"Say whether cuda was used.\"\"\"
            logging.info("running on cuda with nccl")
            return {"name": "cuda", "label": kind}
        """, codes=("NPU102", "NPU103")),
)


RULE = Rule(
    name="strings",
    hooks={CALL: on_call, COMPARE: on_compare, ASSIGNMENT: on_assign, DICT: on_dict, STRING: on_string,
           FUNCTION_DEFINITION: on_function_definition},
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
