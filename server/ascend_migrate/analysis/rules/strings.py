"""String literals that act as a device, a distributed backend or an environment variable name.

A literal counts only in a role: an argument or keyword that takes a device (`device=`, `.to(...)`,
`torch.device(...)`, `map_location=`), a backend (`backend=`, `init_process_group(...)`), a comparison, an
assignment to a name about devices or backends, an argparse default, a parameter default, a dict value under
such a key. "cuda" in a help text, a log message, a comment or a docstring is prose and never a finding; so is the
left side of `"cuda" in X` unless X holds a device's text, and a choice beside a word that names no device.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.emit import headline
from ascend_migrate.analysis.rules.api import ASSIGNMENT, CALL, COMPARE, DICT, FUNCTION_DEFINITION, SUBSCRIPT, Example, Rule, RuleContext
from ascend_migrate.taxonomy import ROUTE_NPU

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
# Where a literal names an environment variable: the first argument of these (any mapping's get/setdefault/pop,
# since environments are often copied: `env = os.environ.copy(); env.get("CUDA_VISIBLE_DEVICES")`).
_MAPPING_READERS = frozenset({"get", "setdefault", "pop"})
_ENVIRONMENT_FUNCTIONS = frozenset({"os.getenv", "os.putenv", "os.unsetenv", "os.getenvb"})


def _device_value(node: ast.expr) -> str | None:
    """The device name ('cuda') a literal stands for, or None: "cuda", "cuda:0", f"cuda:{i}", and the format
    strings "cuda:{}", "cuda:%d" and "cuda:" that `_literals` finds inside `.format(...)`, `%` and `+`."""
    if type(node) is ast.Constant:
        value = node.value
        if type(value) is str and (value == "cuda" or (value.startswith("cuda:") and _is_index(value[5:]))):
            return "cuda"
        return None
    if type(node) is ast.JoinedStr and node.values:
        first = node.values[0]
        if type(first) is ast.Constant and type(first.value) is str and first.value in ("cuda:", "cuda"):
            return "cuda"
    return None


def _is_index(text: str) -> bool:
    """A device index as written after "cuda:": digits, a format placeholder, or nothing (`"cuda:" + str(i)`)."""
    return text.isdigit() or text == "" or (text[:1] == "{" and text[-1:] == "}" and "{" not in text[1:-1]) or text in ("%d", "%s", "%i")


def _backend_value(node: ast.expr) -> str | None:
    if type(node) is ast.Constant and type(node.value) is str and node.value in ("nccl", "NCCL"):
        return node.value
    return None


def _literals(node: ast.expr, npu_aware_quiet: bool, role: str = DEVICE):
    """The literals an expression spells: itself, both branches of `"cuda" if ok else "cpu"`, the elements of
    `["cpu", "cuda"]`, the format string of `"cuda:{}".format(i)`, `"cuda:%d" % i` and `"cuda:" + str(i)`. Code
    that already names the Ascend value beside the CUDA one (`{"cuda", "npu"}`, `t if t in ("npu", "xpu") else
    "cuda"`) handles the NPU there itself: nothing to report on the npu route (`npu_aware_quiet`; a MindSpore port
    still replaces the whole device choice). A choice whose other literal is no device (`'device' if new else
    'cuda'`: the word of an attribute name such as `self_cuda_memory_usage`) is not a device choice."""
    if type(node) is ast.IfExp:
        if not (npu_aware_quiet and _names_ascend(node)) and not (role == DEVICE and _holds_other_words((node.body, node.orelse))):
            yield from _literals(node.body, npu_aware_quiet, role)
            yield from _literals(node.orelse, npu_aware_quiet, role)
    elif type(node) is ast.List or type(node) is ast.Tuple or type(node) is ast.Set:
        if not (npu_aware_quiet and _names_ascend(node)) and not (role == DEVICE and _holds_other_words(node.elts)):
            for element in node.elts:
                yield from _literals(element, npu_aware_quiet, role)
    elif type(node) is ast.Call:
        func = node.func
        if type(func) is ast.Attribute and func.attr == "format" and type(func.value) is ast.Constant:
            yield func.value
    elif type(node) is ast.BinOp:
        if type(node.op) in (ast.Mod, ast.Add) and type(node.left) is ast.Constant:
            yield node.left
    else:
        yield node


_ASCEND_VALUES = frozenset({"npu", "hccl"})
# The device types torch 2.13.0's torch.device accepts (its error message lists them), torch_npu's "npu", and the
# words device options use beside them ("gpu", "tpu": a user's names; "auto": let the library choose).
_DEVICE_WORDS = frozenset({"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
                           "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone", "npu",
                           "gpu", "tpu", "auto", ""})


def _holds_other_words(options) -> bool:
    """Whether a choice spells, beside its other options, a string that names no device type ('device', 'gpu_time')."""
    for option in options:
        if type(option) is ast.Constant and type(option.value) is str and option.value.split(":", 1)[0].lower() not in _DEVICE_WORDS:
            return True
    return False


def _names_ascend(node: ast.expr) -> bool:
    """Whether an expression spells an Ascend device or backend string ("npu", "npu:0", "hccl") anywhere in it."""
    for part in ast.walk(node):
        if type(part) is ast.Constant and type(part.value) is str and part.value.split(":", 1)[0] in _ASCEND_VALUES:
            return True
    return False


def string_edit(context: RuleContext, literal: ast.expr, old: str, new: str) -> tuple[tuple[int, int, int, int], str] | None:
    """Where and what to write so that the string `literal` says `new` where it said `old` (the first time): the
    `old` characters inside the quotes when the source spells them as they are, else the whole literal written
    again with its quotes. Every edit is checked by reading the edited source back as a Python literal, so an
    escape (`"\\x63uda"`) or an implicit concatenation (`"cu" "da"`) is never half-rewritten into code; None
    when no checked edit exists (an f-string whose text is not spelled out, a literal over several lines)."""
    factory = context.factory
    line, column, end_line, end_column = factory.span(literal)
    if line != end_line:
        return None
    segment = factory.lines.text(line)[column - 1:end_column - 1]
    if type(literal) is ast.JoinedStr:
        index = segment.find(old)
        # An f-string cannot be read back as a literal: only its opening text, spelled out right after the
        # prefix and a single quote, is edited.
        if index < 0 or segment[:index].lstrip("fFrR") not in ("'", '"'):
            return None
        return (line, column + index, line, column + index + len(old)), new
    if type(literal) is not ast.Constant or type(literal.value) is not str:
        return None
    expected = literal.value.replace(old, new, 1)
    index = segment.find(old)
    if index >= 0 and _reads_as(segment[:index] + new + segment[index + len(old):], expected):
        return (line, column + index, line, column + index + len(old)), new
    quote = '"' if segment.lstrip("rRuUbB")[:1] == '"' else "'"
    rewritten = f"{quote}{expected}{quote}"
    if _reads_as(rewritten, expected):
        return (line, column, line, end_column), rewritten
    return None


def _reads_as(source: str, expected: str) -> bool:
    try:
        return ast.literal_eval(source) == expected
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False


def report(context: RuleContext, role: str, node: ast.expr, call: ast.Call | None = None, keyword: str | None = None,
           remapped: bool = True) -> None:
    """Report the device or backend literals `node` spells. `call` (and `keyword`): the call `node` is passed to;
    a local variable passed there is followed to the literals assigned to it (`arg = "cuda:0"` ...
    `torch.device(arg)`), reported with the call named in the message. `remapped`: whether transfer_to_npu
    rewrites this use at run time (it does not rewrite comparisons such as `backend == "nccl"`)."""
    if type(node) is ast.Name:
        values = context.assigned_values(node.id) if call is not None else ()
        if values and call is not None:
            flow = f"`{node.id}` reaches {_reached(context, call, keyword)}"
            for value in values:
                _report_literals(context, role, value, flow, remapped)
        return
    _report_literals(context, role, node, None, remapped)


def _report_literals(context: RuleContext, role: str, node: ast.expr, flow: str | None, remapped: bool) -> None:
    for literal in _literals(node, context.route == ROUTE_NPU, role):
        value = _device_value(literal) if role == DEVICE else _backend_value(literal)
        if value is None:
            continue
        for entry in context.view.by_string.get(value, ()):
            if entry.condition != role:
                continue
            factory = context.factory
            edit = string_edit(context, literal, value, entry.target) if entry.target and entry.fix != "none" else None
            fix = None
            if edit is not None:
                span, text = edit
                fix = factory.text_fix(entry, span, text, f"Replace '{value}' with '{entry.target}'",
                                       ("import torch_npu",) if role == DEVICE else ())
            else:
                span = factory.substring_span(literal, value) or factory.span(literal)
            message = None
            if flow is not None:
                api = f"'{value}'"
                message = f"{headline(entry, api)} ({flow})"
            context.add(factory.finding(entry, span, "exact", api=f"'{value}'", fix=fix, message=message, remappable=remapped))


def _reached(context: RuleContext, call: ast.Call, keyword: str | None = None) -> str:
    """How a message names the call a value reaches: `torch.device(...)` on line 12, `map_location=` of torch.load."""
    func = call.func
    name = context.qualified_name(func) or (f".{func.attr}" if type(func) is ast.Attribute else func.id if type(func) is ast.Name else "a call")
    line = call.lineno + context.factory.line_offset
    where = f"`{keyword}=` of `{name}(...)`" if keyword else f"`{name}(...)`"
    return f"{where} on line {line}"


def on_call(context: RuleContext, call: ast.Call) -> None:
    if not context.view.by_string:
        return
    func = call.func
    if call.args and (
        (type(func) is ast.Attribute and func.attr in _MAPPING_READERS) or context.qualified_name(func) in _ENVIRONMENT_FUNCTIONS
    ):
        report_environment_variable(context, call.args[0])
    for keyword in call.keywords:
        name = keyword.arg
        if name in _DEVICE_KEYWORDS:
            value = keyword.value
            if type(value) is ast.Dict:  # map_location={"cuda:0": "cpu"}
                for item in (*value.keys, *value.values):
                    if item is not None:
                        report(context, DEVICE, item)
            else:
                report(context, DEVICE, value, call, name)
        elif name in _BACKEND_KEYWORDS:
            report(context, BACKEND, keyword.value, call, name)
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
                report(context, DEVICE, argument, call)
            return
    qualified = context.qualified_name(func)
    if qualified in _DEVICE_TAKING_FUNCTIONS:
        report(context, DEVICE, call.args[0], call)
    elif qualified in _BACKEND_TAKING_FUNCTIONS:
        report(context, BACKEND, call.args[0], call)


def _tensor_type(context: RuleContext, argument: ast.expr) -> None:
    """x.type("torch.cuda.FloatTensor"): a CUDA tensor type named in a string."""
    if type(argument) is not ast.Constant or type(argument.value) is not str:
        return
    for prefix, entries in context.view.by_string.items():
        for entry in entries:
            if entry.condition != TENSOR_TYPE or not argument.value.startswith(prefix + "."):
                continue
            factory = context.factory
            edit = string_edit(context, argument, prefix, entry.target) if entry.target and entry.fix != "none" else None
            fix = None
            if edit is not None:
                span, text = edit
                fix = factory.text_fix(entry, span, text, f"Replace '{prefix}' with '{entry.target}'", ("import torch_npu",))
            else:
                span = factory.substring_span(argument, prefix) or factory.span(argument)
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
    # The Ascend guide: transfer_to_npu rewrites a backend only inside init_process_group; a comparison such as
    # `backend == "nccl"` or `assert backend in ["gloo", "nccl"]` must be edited by hand.
    membership = type(node.ops[0]) in (ast.In, ast.NotIn)
    for operand in (node.left, *node.comparators):
        if not (membership and operand is node.left and not _reads_as_device(node.comparators[0])):
            report(context, DEVICE, operand)
        report(context, BACKEND, operand, remapped=False)
    if type(node.ops[0]) in (ast.In, ast.NotIn):  # "CUDA_VISIBLE_DEVICES" in os.environ
        report_environment_variable(context, node.left)


def _reads_as_device(node: ast.expr) -> bool:
    """Whether the right side of `"cuda" in X` is a text or a device, so that the test looks for the device's name:
    a text made on the spot (`str(device)`, `str(error).lower()`: an error message names the device that failed),
    X named for a device (`device`, `args.device`, `self.dev`), or a device's `.type`. A bare name or attribute
    of anything else is a key or element test of the program's own (`'cuda' in rng_state`: a key it wrote itself)."""
    if type(node) is ast.Call:
        func = node.func
        return (type(func) is ast.Name and func.id in ("str", "repr")) or (
            type(func) is ast.Attribute and func.attr in ("lower", "upper", "strip", "format"))
    name = node.id if type(node) is ast.Name else node.attr if type(node) is ast.Attribute else ""
    lowered = name.lower()
    return type(node) is ast.JoinedStr or name == "type" or "device" in lowered or lowered in ("dev", "devices")


def on_assign(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if not context.view.by_string or type(value) not in _VALUE_SHAPES:
        return
    for target in targets:
        name = target.id if type(target) is ast.Name else target.attr if type(target) is ast.Attribute else ""
        _report_by_name(context, name, value)


_VALUE_SHAPES = frozenset({ast.Constant, ast.JoinedStr, ast.IfExp, ast.List, ast.Tuple, ast.Call, ast.BinOp})


def on_dict(context: RuleContext, node: ast.Dict) -> None:
    if not context.view.by_string:
        return
    for key, value in zip(node.keys, node.values, strict=True):
        if type(key) is ast.Constant and type(key.value) is str:
            _report_by_name(context, key.value, value)
            report_environment_variable(context, key)


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
    pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults, strict=True))
    pairs += [(argument, default) for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if default is not None]
    for argument, default in pairs:
        _report_by_name(context, argument.arg, default)


def report_environment_variable(context: RuleContext, node: ast.expr) -> None:
    """An environment variable name in a role that reads or sets the variable: `os.environ["X"]`,
    `os.getenv("X")`, `env.get("X")`, `{"X": "0"}`, `"X" in os.environ`. The same name in a message, a log line
    or an f-string is prose about the variable and is left alone."""
    if type(node) is not ast.Constant or type(node.value) is not str:
        return
    entries = context.view.by_string.get(node.value)
    if not entries:
        return
    factory = context.factory
    for entry in entries:
        if entry.condition != ENVIRONMENT_VARIABLE:
            continue
        edit = string_edit(context, node, node.value, entry.target) if entry.target else None
        fix = None
        if edit is not None:
            span, text = edit
            fix = factory.text_fix(entry, span, text, f"Replace {node.value} with {entry.target}")
        else:
            span = factory.substring_span(node, node.value) or factory.span(node)
        context.add(factory.finding(entry, span, "exact", api=node.value, fix=fix))


def on_subscript(context: RuleContext, node: ast.Subscript) -> None:
    if context.view.by_string:
        report_environment_variable(context, node.slice)


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
            if "cuda" in str(device).lower():  # expect: NPU102
                torch.cuda.synchronize()  # expect: NPU101
            return model(batch.type("torch.cuda.FloatTensor"))  # expect: NPU102


        def place(device):
            os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # expect: NPU104
            match device:
                case "cuda":  # expect: NPU102
                    return torch.device(device)
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
            print("CUDA_VISIBLE_DEVICES", "selects the card")
            return {"name": "cuda", "label": kind}


        def accelerator(device):
            # code that already knows the NPU: the CUDA value sits beside the Ascend one
            device_type = device.split(":")[0]
            device_type = device_type if device_type in {"npu", "xpu"} else "cuda"
            if torch.device(device).type not in ("cpu", "cuda", "npu"):
                raise ValueError(device)
            backend = "hccl" if device_type == "npu" else "nccl"
            return device_type, backend


        def restore(rng_state, events, new_profiler):
            # a key the program wrote itself, and a word of an attribute name: no device in either
            has_cuda_state = "cuda" in rng_state
            device_str = "device" if new_profiler else "cuda"
            return has_cuda_state, [getattr(event, f"self_{device_str}_memory_usage") for event in events]
        """, codes=("NPU102", "NPU103", "NPU104")),
)


RULE = Rule(
    name="strings",
    hooks={CALL: on_call, COMPARE: on_compare, ASSIGNMENT: on_assign, DICT: on_dict, SUBSCRIPT: on_subscript,
           FUNCTION_DEFINITION: on_function_definition},
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
