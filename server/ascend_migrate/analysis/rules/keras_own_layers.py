"""A Keras layer class of the file applied in a module-level functional model: its Cell and output size, from the
constructor's arguments (MS255, MindSpore route; issue 21).

    class TokenAndPositionEmbedding(layers.Layer):           x = embedding_layer(inputs)  # inputs: (200,)
        def __init__(self, maxlen, vocab_size, embed_dim):        → output (200, embed_dim): the call returns
            self.token_emb = layers.Embedding(vocab_size, embed_dim)   token_emb(x) + positions, an Embedding of
        def call(self, x): ... return self.token_emb(x) + positions   output_dim=embed_dim applied to the input

The model rewrite needs each layer's output size to size the layers after it. For a class of the file it follows
`call` conservatively: `call` takes one input (others have defaults), is made of `name = expression` statements and a
`return`, and its returned value is a sub-layer built in `__init__` whose output size the code states (Embedding's
output_dim, Dense's units; Dropout, LayerNormalization and attention keep their input's size; a Sequential of them)
applied to the input, or `+`/`-`/`*` of such values. A sum of two values is read as one of their size: where one of
them has a size the code does not state (a position embedding of an `arange`), the other's size and rank are the
sum's, as Keras' broadcasting gives when the unknown operand has no more axes (a position table added to a batch of
token embeddings). A residual add of the input to a size from the constructor must match the size the model feeds
it. The sizes are written with the arguments of the class's construction (`embed_dim` → the module's `embed_dim`).
Anything else leaves the model without a fix, naming the class and the line to fill in.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from ascend_migrate.analysis.rules.keras_block_sizes import sub_layers
from ascend_migrate.analysis.rules.keras_layers import Converted, Dim, LayerArguments, NotConverted

_INPUT = "<the input of call()>"
_KEEPS_SIZE = frozenset({"Dropout", "LayerNormalization", "Activation", "ReLU", "Softmax"})
_BASES = frozenset({"Layer"})


@dataclass(frozen=True)
class _Value:
    """A value in `call`: the size of its last axis (None: not stated by the code) and how many axes it has more
    than the input (None: not known); `raw`: it is the input itself."""

    size: Dim | None
    extra: int | None
    raw: bool = False


_UNKNOWN = _Value(None, None)


def layer_classes(statements: list[ast.stmt], keras: Callable[[ast.expr], str | None]) -> dict[str, ast.ClassDef]:
    """The classes among `statements` whose one base is a Keras Layer, by name."""
    return {statement.name: statement for statement in statements if isinstance(statement, ast.ClassDef)
            and len(statement.bases) == 1 and keras(statement.bases[0]) in _BASES}


def convert_own_layer(node: ast.ClassDef, construction: ast.Call, shape: tuple[Dim, ...],
                      keras: Callable[[ast.expr], str | None]) -> tuple[Converted, bool]:
    """The Cell (the class built as the code builds it) and output shape of class `node` applied to an input of
    `shape` (no batch), and whether its input is token ids (it feeds only Embeddings)."""
    methods = {statement.name: statement for statement in node.body if isinstance(statement, ast.FunctionDef)}
    initializer, call = methods.get("__init__"), methods.get("call")
    if initializer is None or call is None:
        raise NotConverted(f"class {node.name} has no __init__ and call to follow")
    if "build" in methods:
        raise NotConverted(f"class {node.name} creates weights in build() from its input's size")
    if not shape:
        raise NotConverted(f"the size of the input of {node.name} is not known")
    arguments = _bound_arguments(node.name, initializer, construction)
    layers = sub_layers(initializer, keras)
    fed: list[str] = []  # the kinds of sub-layer the raw input is applied to
    ties: list[Dim] = []
    result, line = _trace(call, layers, keras, fed, ties)
    if result.size is None or result.extra not in (0, 1):
        raise NotConverted(f"the output size of {node.name} (what its call() returns, line {line}) is not stated by its "
                           "code: write the model as a Cell by hand")
    size = shape[-1] if result.size == _INPUT else _in_module_terms(result.size, arguments, node.name)
    for tie in ties:
        tied = _in_module_terms(tie, arguments, node.name)
        if str(tied) != str(shape[-1]):
            raise NotConverted(f"{node.name}'s call() adds its input (size {shape[-1]}) to a value of size {tied}, "
                               "which the code does not write as the same size: write them alike or the model by hand")
    output = (*shape[:-1], size) if result.extra == 0 else (*shape, size)
    return Converted(ast.unparse(construction), output), bool(fed) and all(kind == "Embedding" for kind in fed)


def _bound_arguments(name: str, initializer: ast.FunctionDef, construction: ast.Call) -> dict[str, ast.expr]:
    """The constructor's parameters bound to the construction's arguments (or their defaults)."""
    signature = initializer.args
    if signature.vararg or signature.posonlyargs or any(isinstance(argument, ast.Starred) for argument in construction.args) \
            or any(keyword.arg is None for keyword in construction.keywords):
        raise NotConverted(f"{name}'s constructor takes or is given * or ** arguments: its sizes are not followed")
    parameters = [argument.arg for argument in signature.args[1:]]
    defaults = dict(zip(parameters[len(parameters) - len(signature.defaults):], signature.defaults, strict=True))
    defaults.update({argument.arg: default for argument, default in zip(signature.kwonlyargs, signature.kw_defaults, strict=True) if default is not None})
    if len(construction.args) > len(parameters):
        raise NotConverted(f"{name}(...) is given more arguments than its constructor takes")
    bound = {**defaults, **dict(zip(parameters, construction.args, strict=False))}
    for keyword in construction.keywords:
        if keyword.arg not in parameters and keyword.arg not in {argument.arg for argument in signature.kwonlyargs}:
            if signature.kwarg is None:
                raise NotConverted(f"{name}(...) is given {keyword.arg}=, which its constructor does not take")
            continue  # **kwargs of the Layer (name=, dtype=): no size
        bound[str(keyword.arg)] = keyword.value
    return bound


def _trace(call: ast.FunctionDef, layers: dict, keras: Callable[[ast.expr], str | None], fed: list[str],
           ties: list[Dim]) -> tuple[_Value, int]:
    """The value `call` returns and the line returning it; `fed` and `ties` collect what the raw input is applied to
    and added to."""
    signature = call.args
    required = len(signature.args) - 1 - len(signature.defaults)
    if required != 1 or signature.vararg or any(default is None for default in signature.kw_defaults):
        raise NotConverted(f"call() (line {call.lineno}) does not take exactly one input")
    values = {signature.args[1].arg: _Value(_INPUT, 0, raw=True)}

    def value_of(node: ast.expr) -> _Value:
        if isinstance(node, ast.Name):
            return values.get(node.id, _UNKNOWN)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
            return _combined(value_of(node.left), value_of(node.right), node.lineno, ties, fed)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self" and node.func.attr in layers and node.args and not node.keywords):
            inputs = [value_of(argument) for argument in node.args]
            name, built, inner = layers[node.func.attr]
            if any(value.raw for value in inputs):
                fed.append(name)
            return _applied(name, built, inner, inputs[0], keras)
        return _UNKNOWN

    for statement in call.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            values[statement.targets[0].id] = value_of(statement.value)
        elif isinstance(statement, ast.Return) and statement.value is not None:
            return value_of(statement.value), statement.lineno
        else:
            raise NotConverted(f"line {statement.lineno} of call() is not `name = expression` or `return expression`")
    raise NotConverted(f"call() (line {call.lineno}) returns nothing")


def _combined(left: _Value, right: _Value, line: int, ties: list[Dim], fed: list[str]) -> _Value:
    if left.raw or right.raw:
        fed.append("arithmetic")
    if left.size == right.size:
        size = left.size
    elif left.size is None or right.size is None:
        size = right.size if left.size is None else left.size  # an unstated size broadcasts into the stated one
    elif _INPUT in (left.size, right.size):
        size = right.size if left.size == _INPUT else left.size
        ties.append(size)
    else:
        raise NotConverted(f"line {line} combines sizes {left.size} and {right.size}")
    if left.extra == right.extra or right.extra is None:
        extra = left.extra
    elif left.extra is None:
        extra = right.extra
    else:
        raise NotConverted(f"line {line} combines values of different ranks")
    return _Value(size, extra)


def _applied(name: str, built: ast.Call, inner: list[ast.Call], value: _Value, keras: Callable[[ast.expr], str | None]) -> _Value:
    if name == "Sequential":
        for layer in inner:
            value = _applied(keras(layer.func) or "", layer, [], value, keras)
        return value
    if name == "Embedding":
        size = LayerArguments(built, ("input_dim", "output_dim"), frozenset({"input_dim", "output_dim", "mask_zero"})).values.get("output_dim")
        return _Value(_dim(size), None if value.extra is None else value.extra + 1)
    if name == "Dense":
        units = LayerArguments(built, ("units", "activation", "use_bias"), frozenset({"units", "activation", "use_bias"})).values.get("units")
        return _Value(_dim(units), value.extra)
    if name in _KEEPS_SIZE or (name == "MultiHeadAttention" and not any(keyword.arg == "output_shape" for keyword in built.keywords)):
        return _Value(value.size, value.extra)
    return _UNKNOWN


def _dim(node: ast.expr | None) -> Dim | None:
    if node is None:
        return None
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else ast.unparse(node)


def _in_module_terms(size: Dim, arguments: dict[str, ast.expr], name: str) -> Dim:
    """A size written with the constructor's parameters, written with the arguments the module passes instead."""
    if isinstance(size, int):
        return size
    expression = ast.parse(size, mode="eval").body
    unknown = sorted({node.id for node in ast.walk(expression) if isinstance(node, ast.Name)} - set(arguments))
    if unknown:
        raise NotConverted(f"the output size {size} of {name} is not made of its constructor's parameters ({', '.join(unknown)})")
    if isinstance(expression, ast.Name):
        argument = arguments[expression.id]
        return argument.value if isinstance(argument, ast.Constant) and type(argument.value) is int else ast.unparse(argument)

    class _Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return arguments[node.id]

    return ast.unparse(_Substitute().visit(expression))
