"""Input sizes of the sub-layers a Keras layer class builds in `__init__`, taken from its constructor's parameters
(MindSpore route; issue 21).

    class TransformerBlock(layers.Layer):                       self.ffn = keras.Sequential([
        def __init__(self, embed_dim, num_heads, ff_dim):           layers.Dense(ff_dim, activation="relu"),
            self.ffn = keras.Sequential([...])             →        layers.Dense(embed_dim)])
            self.layernorm = layers.LayerNormalization()     becomes nn.SequentialCell([nn.SequentialCell([
        def call(self, inputs):                                 nn.Dense(embed_dim, ff_dim), nn.ReLU()]),
            out = self.layernorm(inputs + self.att(inputs))     nn.Dense(ff_dim, embed_dim)])
            return self.layernorm2(out + self.ffn(out))

MindSpore's Dense and LayerNorm take the size of their input, which Keras infers when the layer is first called.
Inside a class the size of `call`'s input is not written anywhere, except where `call` adds it to the output of
a sub-layer whose size the constructor's arguments give (`out + self.ffn(out)`, where ffn ends in
`Dense(embed_dim)`): a residual add of two tensors is read as one of equal sizes, so the input's size is
`embed_dim`. (Keras would broadcast a size of 1 against it; a block whose input has size 1 is not this one.)
The trace is conservative: `call` must take one input and consist of `name = expression` statements and a
`return`, where an expression is a name, a sub-layer applied to names, or `+`/`-`/`*` of two of them. Anything
else, a layer it does not know, or an input size no add ties to the constructor's parameters leaves the sub-layers
without a fix, and the finding says which number to fill in.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from ascend_migrate.analysis.emit import Located
from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.keras_layers import NN, Dim, LayerArguments, NotConverted
from ascend_migrate.analysis.rules.keras_sequence_layers import ATTENTION_CELL, convert, support_code
from ascend_migrate.analysis.rules.structure_fixes import NotFixed

# The size of `call`'s input while it is not known (not a Python expression, so it never reaches a fix).
_INPUT = "<the input of call()>"
# Sub-layers whose Cell needs its input's size, and those whose output keeps their input's size.
_SIZED = frozenset({"Dense", "LayerNormalization", "MultiHeadAttention"})
_KEEPS_SIZE = frozenset({"Dropout", "LayerNormalization", "Activation", "ReLU", "Softmax"})
# Sub-layers whose Cell needs no size: written in a class whose sized sub-layers are, so the class leaves Keras whole.
_SIZELESS = frozenset({"Dropout"})


class _Untraced(Exception):
    """Why `call` is not followed (said in the sub-layers' findings)."""


Span = tuple[int, int, int, int]


@dataclass(frozen=True)
class Planned:
    """A sub-layer call's fix: `text` replaces `where`."""

    where: Span
    text: str
    title: str
    support: tuple[int, str] | None = None  # (line, text): a class the Cell needs, written before the layer class

    def fix(self, root: str | None) -> Fix:
        support = (TextEdit(self.support[0], 1, self.support[0], 1, self.support[1]),) if self.support else ()
        return Fix(title=self.title, safe=False, edits=(TextEdit(*self.where, self.text), *support), add_imports=("import mindspore",),
                   remove_imports=(root,) if root else ())


def plan(node: ast.ClassDef, keras: Callable[[ast.expr], str | None], span: Callable[[Located], Span],
         defined: Callable[[str], bool] = lambda name: False) -> dict[Span, Planned | NotFixed]:
    """Fixes (or the reason there is none) by the span of each sized sub-layer call in `node`'s `__init__` and of
    its inner `keras.Sequential(...)`; `keras` gives a callee's Keras name, `defined` whether the module defines a
    name (Keras' attention Cell is written before the class once, unless the module has it)."""
    methods = {statement.name: statement for statement in node.body if isinstance(statement, ast.FunctionDef)}
    initializer, call = methods.get("__init__"), methods.get("call")
    if initializer is None or call is None:
        return {}
    layers = sub_layers(initializer, keras)
    sized = {id(layer): layer for _, built, inner in layers.values() for layer in (*inner, built) if keras(layer.func) in _SIZED}
    if not sized:
        return {}
    try:
        size = _input_size(call, layers, keras, _parameters(initializer))
    except _Untraced as error:
        reason = NotFixed(f"its input size is not known here ({error}): fill in the size of what call() applies it to "
                          "(nn.Dense's in_channels, nn.LayerNorm's normalized_shape)")
        return {span(built): reason for built in sized.values()}
    planned: dict[Span, Planned | NotFixed] = {}
    for layer in (layer for _, built, inner in layers.values() for layer in (*inner, built) if keras(layer.func) in _SIZELESS):
        try:
            cell = convert(keras(layer.func) or "", layer, ((),), False).cell
        except NotConverted as error:
            planned[span(layer)] = NotFixed(str(error))
            continue
        planned[span(layer)] = Planned(span(layer), cell, f"Replace with `{cell.split('(', 1)[0]}(...)`")
    for attribute, (_, built, inner) in layers.items():
        applied_to = size.get(attribute)
        if applied_to is None:
            continue
        try:
            _plan_layer(planned, built, inner, applied_to, keras, span)
            _add_support(planned, span(built), node, span, defined)
        except NotConverted as error:
            for layer in (*inner, built):
                if keras(layer.func) in _SIZED:
                    planned[span(layer)] = NotFixed(str(error))
    return planned


def _add_support(planned: dict, where: Span, node: ast.ClassDef, span: Callable[[Located], Span], defined: Callable[[str], bool]) -> None:
    """The first planned Cell of the class needing a class of its own (Keras' attention) writes it before the class."""
    fix = planned.get(where)
    if not isinstance(fix, Planned):
        return
    support = support_code(fix.text)
    if support is None or defined(ATTENTION_CELL) or any(isinstance(other, Planned) and other.support for other in planned.values()):
        return
    line = min([span(node)[0], *(span(decorator)[0] for decorator in node.decorator_list)])
    planned[where] = Planned(fix.where, fix.text, fix.title, (line, support + "\n\n\n"))


def _parameters(initializer: ast.FunctionDef) -> set[str]:
    arguments = initializer.args
    return {argument.arg for argument in (*arguments.args[1:], *arguments.kwonlyargs)}


def sub_layers(initializer: ast.FunctionDef, keras: Callable[[ast.expr], str | None]) -> dict[str, tuple[str, ast.Call, list[ast.Call]]]:
    """`self.NAME = layers.L(...)` / `keras.Sequential([layers.L(...), ...])` statements of `__init__`: NAME →
    (Keras name, the call, the Sequential's layer calls)."""
    found: dict[str, tuple[str, ast.Call, list[ast.Call]]] = {}
    for statement in initializer.body:
        if not (type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.value) is ast.Call):
            continue
        target, value = statement.targets[0], statement.value
        if not (type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self"):
            continue
        name = keras(value.func)
        if name is None:
            continue
        inner: list[ast.Call] = []
        if name == "Sequential":
            if len(value.args) != 1 or value.keywords or type(value.args[0]) is not ast.List:
                continue
            inner = [element for element in value.args[0].elts if type(element) is ast.Call]
            if len(inner) != len(value.args[0].elts) or not inner:
                continue
        found[target.attr] = (name, value, inner)
    return found


def _input_size(call: ast.FunctionDef, layers: dict, keras: Callable[[ast.expr], str | None], parameters: set[str]) -> dict[str, tuple[Dim, ...]]:
    """The input sizes of each sub-layer `call` applies (by attribute name; attention has more than one input), in
    terms of the constructor's parameters."""
    arguments = call.args
    if len(arguments.args) != 2 or arguments.vararg or arguments.kwarg or arguments.kwonlyargs:
        raise _Untraced("call() does not take exactly one input")
    sizes: dict[str, Dim] = {arguments.args[1].arg: _INPUT}
    applied: dict[str, tuple[Dim, ...]] = {}
    equal_to: set[Dim] = set()

    def size_of(node: ast.expr) -> Dim:
        if type(node) is ast.Name and node.id in sizes:
            return sizes[node.id]
        if type(node) is ast.BinOp and type(node.op) in (ast.Add, ast.Sub, ast.Mult):
            left, right = size_of(node.left), size_of(node.right)
            if left == right:
                return left
            if _INPUT in (left, right):
                known = right if left == _INPUT else left
                equal_to.add(known)
                return known
            raise _Untraced(f"line {node.lineno} combines sizes {left} and {right}")
        if (type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
                and node.func.value.id == "self" and node.func.attr in layers and not node.keywords and node.args):
            inputs = [size_of(argument) for argument in node.args]
            name, built, inner = layers[node.func.attr]
            if applied.get(node.func.attr, tuple(inputs)) != tuple(inputs):
                raise _Untraced(f"line {node.lineno} applies self.{node.func.attr} to another size")
            applied[node.func.attr] = tuple(inputs)
            return _output_size(name, built, inner, inputs[0], keras)
        raise _Untraced(f"line {node.lineno} is not a sub-layer applied to names or a sum of them")

    for statement in call.body:
        if type(statement) is ast.Expr and type(statement.value) is ast.Constant:
            continue  # a docstring
        if type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name:
            sizes[statement.targets[0].id] = size_of(statement.value)
        elif type(statement) is ast.Return and statement.value is not None:
            size_of(statement.value)
        else:
            raise _Untraced(f"line {statement.lineno} is not `name = expression` or `return expression`")
    if len(equal_to) != 1:
        raise _Untraced("no residual add ties call()'s input to a size the constructor's arguments give"
                        if not equal_to else f"call()'s input is added to sizes {', '.join(map(str, sorted(map(str, equal_to))))}")
    (input_size,) = equal_to
    if isinstance(input_size, str) and not {node.id for node in ast.walk(ast.parse(input_size)) if type(node) is ast.Name} <= parameters:
        raise _Untraced(f"the input's size {input_size} is not made of the constructor's parameters")
    return {name: tuple(input_size if size == _INPUT else size for size in sizes) for name, sizes in applied.items()}


def _output_size(name: str, built: ast.Call, inner: list[ast.Call], size: Dim, keras: Callable[[ast.expr], str | None]) -> Dim:
    if name == "Sequential":
        for layer in inner:
            size = _output_size(keras(layer.func) or "", layer, [], size, keras)
        return size
    if name == "Dense":
        units = LayerArguments(built, ("units", "activation", "use_bias"), frozenset({"units", "activation", "use_bias"})).values.get("units")
        if units is None:
            raise _Untraced(f"line {built.lineno}: Dense without units")
        return units.value if type(units) is ast.Constant and type(units.value) is int else ast.unparse(units)
    if name in _KEEPS_SIZE or (name == "MultiHeadAttention" and not any(k.arg == "output_shape" for k in built.keywords)):
        return size  # Keras' attention projects its output back to the query's size unless output_shape says otherwise
    raise _Untraced(f"line {built.lineno}: layers.{name} is not one whose output size this trace knows")


def _plan_layer(planned: dict, built: ast.Call, inner: list[ast.Call], sizes: tuple[Dim, ...], keras, span) -> None:
    """Each sized layer of one sub-layer (itself, or the layers of its Sequential) written with its input sizes."""
    if _INPUT in sizes:
        raise NotConverted("the size of call()'s input is not known here")
    size = sizes[0]
    fixes: list[tuple[ast.Call, str]] = []
    for layer in inner or [built]:
        name = keras(layer.func) or ""
        if name in _SIZED:
            converted = convert(name, layer, tuple((each,) for each in sizes) if name == "MultiHeadAttention" else ((size,),), False)
            fixes.append((layer, converted.cell))
        size = _output_size(name, layer, [], size, keras)
    for layer, cell in fixes:
        planned[span(layer)] = Planned(span(layer), cell, f"Replace with `{cell.split('(', 1)[0]}(...)` with its input size")
    if inner and all(keras(layer.func) in _SIZED | _SIZELESS for layer in inner):
        # Only when each of its layers gets a fix: a layer left to Keras (Dropout has its own finding) would stay inside.
        planned[span(built)] = Planned(span(built.func), f"{NN}SequentialCell", "Replace with `mindspore.nn.SequentialCell`")


def planned_fix(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    """The builder of the sized layers' and Sequential's findings: what `plan` wrote for this call, else nothing."""
    if call is None or entry.code not in (None, "MS201"):  # None: an MS102 entry; never the MS255 model pattern
        return None
    planned = context.planned.get(context.factory.span(call))
    return planned.fix(root) if isinstance(planned, Planned) else planned
