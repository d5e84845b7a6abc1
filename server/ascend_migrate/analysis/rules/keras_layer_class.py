"""A subclass of `keras.layers.Layer` or `keras.Model` → a subclass of `mindspore.nn.Cell` (the fix of its MS201
finding, MindSpore route; issue 21).

    class Linear(keras.layers.Layer):                      class Linear(mindspore.nn.Cell):
        def __init__(self, units, input_dim, **kwargs):        def __init__(self, units, input_dim, **kwargs):
            super().__init__(**kwargs)                             super().__init__()
            self.w = self.add_weight(shape=(input_dim, units), →   self.w = mindspore.Parameter(initializer(Normal(sigma=0.05), ...))
                                     initializer="random_normal")
        def call(self, inputs, training=False):                def construct(self, inputs):
            if training: ...                                       if self.training: ...

The base becomes `nn.Cell`; `super().__init__(...)` loses Keras' `name`/`dtype`/`**kwargs` (Cell.__init__ takes
none of them); `call` becomes `construct` without its `training` argument, whose reads become `self.training`
(what `set_train(True/False)` sets); `self.add_weight(shape=..., initializer=..., trainable=...)` becomes a
`mindspore.Parameter` initialised as Keras does. The rule fixes a class whole or not at all: a class with
`build()` (weights whose sizes come from the input), a `call` header over several lines, an initializer or
argument it does not know, keeps its MS201 finding without a fix, and the message says why.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CLASS_DEFINITION, TENSORFLOW, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_block_sizes import plan as plan_sub_layers
from ascend_migrate.analysis.rules.keras_layers import keras_name, keras_roots
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_BASES = frozenset({"Layer", "Model"})
_INITIALIZER = "mindspore.common.initializer."
# Keras initializer names → MindSpore's, with Keras' parameters (RandomNormal stddev 0.05, RandomUniform ±0.05).
_INITIALIZERS = {
    "random_normal": f"{_INITIALIZER}Normal(sigma=0.05)", "random_uniform": f"{_INITIALIZER}Uniform(scale=0.05)",
    "zeros": "'zeros'", "ones": "'ones'", "glorot_uniform": f"{_INITIALIZER}XavierUniform()",
    "glorot_normal": f"{_INITIALIZER}XavierNormal()",
}
_DEFAULT_INITIALIZER = "glorot_uniform"  # Keras' add_weight default for float weights


class _Refused(Exception):
    pass


def on_class(context: RuleContext, node: ast.ClassDef) -> None:
    if context.route != ROUTE_MINDSPORE:
        return
    bases = [base for base in node.bases if _keras(context, base) in _BASES]
    if len(bases) != 1:
        return
    base = bases[0]
    context.planned.update(plan_sub_layers(node, lambda callee: _keras(context, callee), context.factory.span,
                                           lambda name: context.lookup(name) is not None))
    index = _base_finding(context, base)
    if index is None:
        return
    finding = context.findings[index]
    try:
        edits = _edits(context, node, base)
    except _Refused as error:
        context.findings[index] = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {error}.")
        return
    fix = Fix(title="Subclass mindspore.nn.Cell: call -> construct, training -> self.training, add_weight -> Parameter",
              safe=False, edits=tuple(edits), add_imports=("import mindspore",), remove_imports=keras_roots(context, [base]))
    context.findings[index] = dataclasses.replace(finding, fix=fix)


def _keras(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return keras_name(context.view.aliases.canonical(qualified)) if qualified else None


def _base_finding(context: RuleContext, base: ast.expr) -> int | None:
    span = context.factory.span(base)
    for index, finding in enumerate(context.findings):
        if finding.code == "MS201" and (finding.line, finding.column, finding.end_line, finding.end_column) == span:
            return index
    return None


def _edits(context: RuleContext, node: ast.ClassDef, base: ast.expr) -> list[TextEdit]:
    factory = context.factory
    line, column, end_line, end_column = factory.span(base)
    edits = [TextEdit(line, column, end_line, end_column, "mindspore.nn.Cell")]
    methods = {statement.name: statement for statement in node.body if isinstance(statement, ast.FunctionDef)}
    if "build" in methods:
        raise _Refused("build() creates weights from the input's shape: create them in __init__ with their sizes first")
    if "call" not in methods:
        raise _Refused("it defines no call()")
    edits += _call_edits(context, methods["call"])
    initializer = methods.get("__init__")
    if initializer is not None:
        for inner in ast.walk(initializer):
            if type(inner) is ast.Call and _is_super_init(inner) and (inner.args or inner.keywords):
                line, column, end_line, end_column = factory.span(inner)
                edits.append(TextEdit(line, column, end_line, end_column, "super().__init__()"))
    for method in methods.values():
        for inner in ast.walk(method):
            if type(inner) is ast.Call and _is_self_method(inner, "add_weight"):
                if method.name != "__init__":
                    raise _Refused(f"line {context.factory.span(inner)[0]}: add_weight() outside __init__ (MindSpore builds nothing lazily)")
                line, column, end_line, end_column = factory.span(inner)
                edits.append(TextEdit(line, column, end_line, end_column, _parameter(inner, line)))
    return edits


def _call_edits(context: RuleContext, call: ast.FunctionDef) -> list[TextEdit]:
    lines = context.factory.lines
    header_line = context.factory.span(call)[0]  # the def line (decorators refused below)
    header = lines.text(header_line)
    if call.decorator_list or call.body[0].lineno == call.lineno or not header.split("#")[0].rstrip().endswith(":"):
        raise _Refused("call()'s header is not one plain line: rename it to construct by hand")
    arguments = call.args
    training = [argument for argument in (*arguments.args, *arguments.kwonlyargs) if argument.arg == "training"]
    if arguments.vararg or arguments.kwarg or arguments.posonlyargs:
        raise _Refused("call() takes *args, **kwargs or positional-only arguments")
    positional = [argument for argument in arguments.args if argument.arg != "training"]
    defaults = list(arguments.defaults)
    padded = [None] * (len(arguments.args) - len(defaults)) + defaults
    new_defaults = [default for argument, default in zip(arguments.args, padded, strict=True) if argument.arg != "training" and default is not None]
    keyword_only = [(argument, default) for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if argument.arg != "training"]
    signature = ast.arguments(posonlyargs=[], args=positional, vararg=None, kwonlyargs=[a for a, _ in keyword_only],
                              kw_defaults=[d for _, d in keyword_only], kwarg=None, defaults=new_defaults)
    returns = f" -> {ast.unparse(call.returns)}" if call.returns is not None else ""
    indentation = header[: len(header) - len(header.lstrip())]
    edits = [TextEdit(header_line, 1, header_line, len(header) + 1, f"{indentation}def construct({ast.unparse(signature)}){returns}:")]
    if training:
        for inner in ast.walk(call):
            if type(inner) is ast.Name and inner.id == "training":
                if type(inner.ctx) is not ast.Load:
                    raise _Refused(f"line {context.factory.span(inner)[0]}: call() assigns `training`")
                line, column, end_line, end_column = context.factory.span(inner)
                edits.append(TextEdit(line, column, end_line, end_column, "self.training"))
    return edits


def _is_super_init(call: ast.Call) -> bool:
    func = call.func
    return (type(func) is ast.Attribute and func.attr == "__init__" and type(func.value) is ast.Call
            and type(func.value.func) is ast.Name and func.value.func.id == "super")


def _is_self_method(call: ast.Call, name: str) -> bool:
    func = call.func
    return type(func) is ast.Attribute and func.attr == name and type(func.value) is ast.Name and func.value.id == "self"


def _parameter(call: ast.Call, line: int) -> str:
    if call.args:
        raise _Refused(f"line {line}: add_weight() with positional arguments (their order differs between Keras 2 and 3)")
    given = {keyword.arg: keyword.value for keyword in call.keywords}
    unknown = sorted(str(name) for name in set(given) - {"shape", "initializer", "trainable", "name"})
    if unknown:
        raise _Refused(f"line {line}: add_weight argument {', '.join(unknown)} has no counterpart this fix writes")
    if "shape" not in given:
        raise _Refused(f"line {line}: add_weight() without a shape")
    initializer = given.get("initializer", ast.Constant(_DEFAULT_INITIALIZER))
    if not (isinstance(initializer, ast.Constant) and initializer.value in _INITIALIZERS):
        raise _Refused(f"line {line}: initializer {ast.unparse(initializer)} is not one this fix converts")
    created = f"{_INITIALIZER}initializer({_INITIALIZERS[initializer.value]}, {ast.unparse(given['shape'])}, mindspore.float32)"
    options = f", requires_grad={ast.unparse(given['trainable'])}" if "trainable" in given else ""
    return f"mindspore.Parameter({created}{options})"


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf
        from tensorflow import keras

        class Linear(keras.layers.Layer):  # expect: MS201
            def __init__(self, units=32, input_dim=32):
                super().__init__()
                self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal", trainable=True)

            def call(self, inputs):  # expect: MS202
                return tf.matmul(inputs, self.w)
        """, codes=("MS201", "MS202")),
)

RULE = Rule(name="keras_layer_class", frameworks=TENSORFLOW, routes=frozenset({ROUTE_MINDSPORE}), hooks={CLASS_DEFINITION: on_class}, flags=_FLAGS)
