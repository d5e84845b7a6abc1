"""Layers picked by their class name (MS223): `classname = m.__class__.__name__` then
`if classname.find('BatchNorm') != -1: nn.init.normal_(m.weight, 1.0, 0.02)`, the weights_init idiom of PyTorch
GAN and segmentation code, applied to every layer with `model.apply(weights_init)` (mindspore.nn.Cell.apply
does the same: fn on every sub-cell, then the cell).

m's type is unknown in such a function, so no rename reaches `m.weight`; the guard says which torch.nn classes m
is. In the ops/nn era those layers name some parameters differently (a BatchNorm's weight is `gamma`:
kb/layer_parameter_names.py), so inside the branch `m.weight` becomes `m.gamma`. Conservative: the rename is
written only when every class the guard matches names the attribute alike; the classes are narrowed to those
the file itself names (its models are usually built beside their weights_init; a BatchNorm guard matches
BatchNorm3d too, whose mindspore.nn parameters sit under `bn2d.`), else all the classes the name matches. When
they disagree, the finding stays without a fix and says why.
"""

from __future__ import annotations

import ast
import dataclasses
import re

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import FUNCTION_DEFINITION, Example, Matcher, Rule, RuleContext
from ascend_migrate.kb.layer_parameter_names import NN_ERA_RENAMES

PATTERN = "layer-class-name-branch"
INIT_PATTERN = "layer-parameter-inplace-init"  # MS224: m.weight.data.normal_(0.0, 0.02) in such a branch
_INITIALIZER = "mindspore.common.initializer."


def _class_name_of(node: ast.expr, parameters: set[str]) -> str | None:
    """The parameter `m` of `m.__class__.__name__` or `type(m).__name__`."""
    if type(node) is not ast.Attribute or node.attr != "__name__":
        return None
    inner = node.value
    if type(inner) is ast.Attribute and inner.attr == "__class__" and type(inner.value) is ast.Name:
        name = inner.value.id
    elif (type(inner) is ast.Call and type(inner.func) is ast.Name and inner.func.id == "type" and len(inner.args) == 1
          and not inner.keywords and type(inner.args[0]) is ast.Name):
        name = inner.args[0].id
    else:
        return None
    return name if name in parameters else None


def _text(node: ast.expr) -> str | None:
    return node.value if type(node) is ast.Constant and type(node.value) is str else None


def _number(node: ast.expr) -> object:
    """The value of `0` or `-1` (a constant, or a minus sign before one); None for anything else."""
    if type(node) is ast.Constant:
        return node.value
    if type(node) is ast.UnaryOp and type(node.op) is ast.USub and type(node.operand) is ast.Constant and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _guard(test: ast.expr, names: dict[str, str], parameters: set[str]):
    """(the parameter, a predicate on a class name) of a class-name test: `V.find('S') != -1` (or `>= 0`,
    `> -1`), `'S' in V`, `V.startswith('S')`, `V.endswith('S')`, `V == 'S'`; V a class-name variable or the
    expression itself. None for any other test."""

    def subject(node: ast.expr) -> str | None:
        if type(node) is ast.Name:
            return names.get(node.id)
        return _class_name_of(node, parameters)

    if type(test) is ast.Compare and len(test.ops) == 1:
        left, operator, right = test.left, test.ops[0], test.comparators[0]
        text = _text(left)
        if type(operator) is ast.In and text is not None and (parameter := subject(right)):
            return parameter, lambda name: text in name
        if type(operator) is ast.Eq and (text := _text(right)) is not None and (parameter := subject(left)):
            return parameter, lambda name: name == text
        if (type(left) is ast.Call and type(left.func) is ast.Attribute and left.func.attr == "find" and len(left.args) == 1
                and not left.keywords and (text := _text(left.args[0])) is not None and (parameter := subject(left.func.value))):
            bound = _number(right)
            if (type(operator) is ast.NotEq and bound == -1) or (type(operator) is ast.GtE and bound == 0) or (
                    type(operator) is ast.Gt and bound == -1):
                return parameter, lambda name: text in name
        return None
    if (type(test) is ast.Call and type(test.func) is ast.Attribute and test.func.attr in ("startswith", "endswith")
            and len(test.args) == 1 and not test.keywords and (text := _text(test.args[0])) is not None
            and (parameter := subject(test.func.value))):
        if test.func.attr == "startswith":
            return parameter, lambda name: name.startswith(text)
        return parameter, lambda name: name.endswith(text)
    return None


def _ops_nn_classes(context: RuleContext, matches) -> list[str]:
    """The torch.nn classes of the renames table the guard matches and this target maps to a mindspore.nn layer
    (the ops/nn era); narrowed to those the file names, when it names any."""
    classes = []
    for name in NN_ERA_RENAMES:
        if not matches(name):
            continue
        entries, _ = context.view.name_entries(f"torch.nn.{name}")
        if any((entry.target or "").startswith("mindspore.nn.") for entry in entries or ()):
            classes.append(name)
    lines = context.factory.lines.lines
    named = [name for name in classes if any(re.search(rf"\b{name}\b", line) for line in lines)]
    return named or classes


def on_function(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    entries = context.view.patterns.get(PATTERN)
    init_entries = context.view.patterns.get(INIT_PATTERN)
    if not entries and not init_entries:
        return
    arguments = node.args
    parameters = {argument.arg for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names: dict[str, str] = {}  # a variable holding a parameter's class name → that parameter
    for statement in ast.walk(node):
        if type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name:
            parameter = _class_name_of(statement.value, parameters)
            if parameter is not None:
                names[statement.targets[0].id] = parameter
    for branch in ast.walk(node):
        if type(branch) is not ast.If:
            continue
        guard = _guard(branch.test, names, parameters)
        if guard is None:
            continue
        parameter, matches = guard
        classes = _ops_nn_classes(context, matches) if entries else []
        for statement in branch.body:
            if init_entries:
                _report_init(context, init_entries[0], statement, parameter, classes)
            if classes and entries:
                for attribute in ast.walk(statement):
                    if type(attribute) is ast.Attribute and type(attribute.value) is ast.Name and attribute.value.id == parameter:
                        _report(context, entries[0], attribute, classes)


def _report_init(context: RuleContext, entry, statement: ast.stmt, parameter: str, classes: list[str]) -> None:
    """`m.weight.data.normal_(mean, std)` (or without `.data`; `fill_(v)`, `zero_()`) as a statement of the branch →
    `m.weight.set_data(initializer(Normal(sigma=std, mean=mean), m.weight.shape, m.weight.dtype))`, with the
    parameter's ops/nn-era name when every matched class agrees on it. MindSpore's Parameter is filled by
    set_data; the in-place fills have no CPU kernel in mindspore 2.10 (InplaceNormal, InplaceFillScalar)."""
    call = statement.value if type(statement) is ast.Expr and type(statement.value) is ast.Call else None
    if call is None or type(call.func) is not ast.Attribute or any(type(argument) is ast.Starred for argument in call.args):
        return
    target = call.func.value
    if type(target) is ast.Attribute and target.attr == "data":
        target = target.value
    if not (type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == parameter):
        return
    initializer = fill_initializer(call)
    if initializer is None:
        return
    names = {NN_ERA_RENAMES[name].get(target.attr, target.attr) for name in classes} or {target.attr}
    if len(names) != 1:
        return  # the rename's finding says why there is no fix
    factory = context.factory
    finding = factory.finding(entry, factory.span(call), "inferred", api=f"torch.Tensor.{call.func.attr}")
    if finding is None:
        return
    weight = f"{parameter}.{names.pop()}"
    line, column, end_line, end_column = factory.span(call)
    text = f"{weight}.set_data({_INITIALIZER}initializer({_INITIALIZER}{initializer}, {weight}.shape, {weight}.dtype))"
    fix = Fix(title=f"Replace with `{weight}.set_data(initializer({initializer}, ...))`", safe=False,
              edits=(TextEdit(line, column, end_line, end_column, text),), add_imports=("import mindspore",))
    context.add(dataclasses.replace(finding, fix=fix))


def fill_initializer(call: ast.Call) -> str | None:
    """`Normal(sigma=std, mean=mean)` for normal_(mean, std) (torch's defaults 0 and 1), `Constant(v)` for fill_(v),
    `Zero()` for zero_(), `Uniform(s)` for uniform_(-s, s) (MindSpore's Uniform(scale) draws from [-scale, scale]);
    None for anything else."""
    method = call.func.attr  # type: ignore[attr-defined]
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    if None in keywords:
        return None
    if method == "normal_" and len(call.args) + len(keywords) <= 2 and set(keywords) <= {"mean", "std"}:
        given = dict(zip(("mean", "std"), call.args, strict=False)) | keywords
        if len(given) != len(call.args) + len(keywords):
            return None  # a value passed twice
        mean = ast.unparse(given["mean"]) if "mean" in given else "0.0"
        std = ast.unparse(given["std"]) if "std" in given else "1.0"
        return f"Normal(sigma={std}, mean={mean})"
    if method == "fill_" and len(call.args) == 1 and not keywords:
        return f"Constant({ast.unparse(call.args[0])})"
    if method == "zero_" and not call.args and not keywords:
        return "Zero()"
    if method == "uniform_" and len(call.args) == 2 and not keywords:
        low, high = (ast.unparse(argument).replace(" ", "") for argument in call.args)
        return f"Uniform({ast.unparse(call.args[1])})" if low in (f"-{high}", f"-({high})") else None
    return None


def _report(context: RuleContext, entry, attribute: ast.Attribute, classes: list[str]) -> None:
    renamed = {name: NN_ERA_RENAMES[name].get(attribute.attr, attribute.attr) for name in classes}
    if set(renamed.values()) == {attribute.attr}:
        return
    factory = context.factory
    span = factory.attribute_name_span(attribute)
    api = f"torch.nn.{classes[0]}.{attribute.attr}" if len(classes) == 1 else entry.api
    finding = factory.finding(entry, span, "inferred", api=api)
    if finding is None:
        return
    targets = set(renamed.values())
    if len(targets) == 1:
        target = targets.pop()
        fix = Fix(title=f"Replace `{attribute.attr}` with `{target}` (the mindspore.nn name in {', '.join(classes)})", safe=False,
                  edits=(TextEdit(*span, target),))
        finding = dataclasses.replace(finding, message=f"{finding.message} Here: {attribute.attr} is {target}.", fix=fix)
    else:
        names = ", ".join(f"{name}: {target}" for name, target in renamed.items())
        finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: the classes the name "
                                                       f"matches name `{attribute.attr}` differently ({names}).")
    context.add(finding)


_FLAGS = (
    Example("mindspore", """
        import torch.nn as nn

        def weights_init(m):
            classname = m.__class__.__name__
            if classname.find('Conv') != -1:
                nn.init.normal_(m.weight, 0.0, 0.02)
            elif classname.find('BatchNorm') != -1:
                nn.init.normal_(m.weight, 1.0, 0.02)  # expect: MS223
                nn.init.zeros_(m.bias)  # expect: MS223

        def init_norms(module):
            if 'LayerNorm' in type(module).__name__:
                module.weight.data.fill_(1.0)  # expect: MS223, MS224

        model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.LayerNorm(8))
        model.apply(weights_init)
        """, codes=("MS223",), mindspore_version="2.4"),
)
_LEAVES_ALONE = (
    # the mint era: mint.nn.BatchNorm2d keeps torch's weight and bias
    Example("mindspore", """
        import torch.nn as nn

        def init_batch_norms(layer):
            if layer.__class__.__name__.startswith('BatchNorm'):
                nn.init.ones_(layer.weight)
        """, codes=("MS223",)),
    # not a class-name guard: m's kind is unknown
    Example("mindspore", """
        def scale(m, name):
            if name.find('BatchNorm') != -1:
                m.weight = m.weight * 2
        """, codes=("MS223",), mindspore_version="2.4"),
)

RULE = Rule(name="class_name_dispatch", flags=_FLAGS,
            matchers={PATTERN: Matcher(FUNCTION_DEFINITION, on_function), INIT_PATTERN: Matcher(FUNCTION_DEFINITION, on_function)},
            leaves_alone=_LEAVES_ALONE)
