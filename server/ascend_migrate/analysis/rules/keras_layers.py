"""Keras layers as MindSpore Cells with their input sizes, for the TensorFlow structure fixes (issue 21).

MindSpore layers are not built lazily: `nn.Dense` and `nn.Conv2d` take the size of their input (in_channels),
which Keras infers in build(). This module follows a model's shape from its input (`keras.Input(shape=...)` or
a first layer's `input_shape=`) through the layers, so each Cell gets its input size from the code. A size the
code holds in a variable (`keras.Input(shape=input_shape)`) stays an expression (`input_shape[-1]`), computed
when the program runs. Keras works in NHWC (channels_last); MindSpore's CPU layers only in NCHW, so a model
with image layers transposes its input once (the migration guide's first option) and the sizes follow that.

A layer this table does not know, or an argument it cannot carry over, gives the reason instead of a Cell: the
structure rules then offer no fix and say which number to fill in (never a broken fix).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

# A size: a number known from the code, or a Python expression computing it when the program runs.
Dim = int | str

# Canonical names start here (`keras.layers.Dense` reads as `tensorflow.keras.layers.Dense`; TensorFlow's own
# canonical name of the Keras optimizers is `tensorflow.optimizers.Adam`).
TENSORFLOW_PREFIX = "tensorflow."
NN = "mindspore.nn."
# Keras `activation=` strings and activation layers → the Cell computing the same function.
_ACTIVATIONS = {
    "relu": "ReLU()", "softmax": "Softmax(axis=-1)", "sigmoid": "Sigmoid()", "tanh": "Tanh()",
    "gelu": "GELU(approximate=False)", "elu": "ELU()", "selu": "SeLU()", "softplus": "Softplus()",
}
# Arguments that name or document a layer and change nothing it computes.
_HARMLESS = frozenset({"name"})


@dataclass(frozen=True)
class Converted:
    """One Keras layer as a Cell expression (`cell`; empty when a function computes it) and the shape of its
    output (batch left out, Keras order). `applied` is the construct line's right side: `{cell}` the Cell
    attribute, `{0}`, `{1}`, ... the layer's inputs in the Keras call's order."""

    cell: str
    shape: tuple[Dim, ...]
    applied: str = "{cell}({0})"


class NotConverted(Exception):
    """Why a layer cannot be written as a Cell with its sizes (said in the finding)."""


def keras_name(qualified: str | None) -> str | None:
    """`Conv2D` for `tensorflow.keras.layers.Conv2D` (any Keras spelling, canonical), else None: the callers
    compare it with the Keras names they convert."""
    if qualified is None or not qualified.startswith(TENSORFLOW_PREFIX):
        return None
    return qualified.rsplit(".", 1)[-1]


def keras_roots(context: Any, nodes: list[ast.AST]) -> tuple[str, ...]:
    """The imported names (tf, keras, layers) the replaced code used: their imports may go when nothing else does."""
    roots: list[str] = []
    for node in nodes:
        for inner in ast.walk(node):
            if type(inner) is ast.Name and inner.id not in roots:
                qualified = context.qualified_name(inner)
                if qualified and qualified.split(".")[0] in ("tensorflow", "keras", "tf_keras"):
                    roots.append(inner.id)
    return tuple(roots)


def literal_shape(node: ast.expr | None, source: str) -> tuple[Dim, ...]:
    """The sizes of `shape=(32, 32, 3)`, each a number or the expression written for it (a shape held in a
    variable is read by the caller, `keras_model._shape_of`)."""
    if isinstance(node, ast.Tuple | ast.List):
        dims: list[Dim] = []
        for element in node.elts:
            if isinstance(element, ast.Constant) and type(element.value) is int:
                dims.append(element.value)
            elif isinstance(element, ast.Constant) and element.value is None:
                raise NotConverted("the input shape has a size given as None: write the number the data has")
            else:
                dims.append(ast.unparse(element))
        return tuple(dims)
    raise NotConverted(f"the input shape `{source}` is not written as a tuple: give it as a tuple of sizes")


def _grouped(value: Dim) -> str:
    """The size as an operand: an expression other than a name or `name[i]` in parentheses."""
    simple = isinstance(value, int) or value.isidentifier() or (value.endswith("]") and value.split("[", 1)[0].isidentifier())
    return str(value) if simple else f"({value})"


def _output_size(size: Dim, kernel: int, stride: int, padding: str) -> Dim:
    """Keras' output size of a window layer: `valid` (n - k) // s + 1, `same` ceil(n / s)."""
    if isinstance(size, int):
        return (size - kernel) // stride + 1 if padding == "valid" else -(-size // stride)
    if padding == "valid":
        if stride == 1:
            return f"{_grouped(size)} - {kernel - 1}"
        # (n - k) // s + 1 is n // s when the window is the stride (pooling's default)
        return f"{_grouped(size)} // {stride}" if kernel == stride else f"({_grouped(size)} - {kernel}) // {stride} + 1"
    return size if stride == 1 else f"-(-{_grouped(size)} // {stride})"


def _product(sizes: tuple[Dim, ...]) -> Dim:
    numbers = [size for size in sizes if isinstance(size, int)]
    expressions = [_grouped(size) for size in sizes if not isinstance(size, int)]
    total = 1
    for number in numbers:
        total *= number
    if not expressions:
        return total
    return " * ".join(([str(total)] if total != 1 else []) + expressions)


class LayerArguments:
    """A layer call's arguments by Keras parameter name (positional ones by their place in the signature)."""

    def __init__(self, call: ast.Call, positional: tuple[str, ...], known: frozenset[str]) -> None:
        if any(isinstance(argument, ast.Starred) for argument in call.args) or any(k.arg is None for k in call.keywords):
            raise NotConverted("its arguments are passed with * or **: write them out")
        if len(call.args) > len(positional):
            raise NotConverted("it has more positional arguments than this fix reads")
        self.values: dict[str, ast.expr] = dict(zip(positional, call.args, strict=False))
        for keyword in call.keywords:
            assert keyword.arg is not None
            self.values[keyword.arg] = keyword.value
        unknown = sorted(set(self.values) - known - _HARMLESS)
        if unknown:
            raise NotConverted(f"argument {', '.join(unknown)} has no counterpart this fix writes")

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        return ast.unparse(value) if value is not None else default

    def constant(self, name: str, default: object) -> object:
        value = self.values.get(name)
        if value is None:
            return default
        try:
            return ast.literal_eval(value)
        except ValueError:
            raise NotConverted(f"`{name}` is not a literal: the sizes after this layer depend on it") from None

    def pair(self, name: str, default: object) -> tuple[int, int]:
        value = self.constant(name, default)
        if type(value) is int:
            return value, value
        if isinstance(value, tuple | list) and len(value) == 2 and all(type(item) is int for item in value):
            return value[0], value[1]
        raise NotConverted(f"`{name}` must be an int or a pair of ints")


def _activation(arguments: LayerArguments) -> list[str]:
    value = arguments.values.get("activation")
    if value is None or (isinstance(value, ast.Constant) and value.value in (None, "linear")):
        return []
    if isinstance(value, ast.Constant) and value.value in _ACTIVATIONS:
        return [NN + _ACTIVATIONS[value.value]]
    raise NotConverted(f"activation {ast.unparse(value)} is not one this fix knows (relu, softmax, sigmoid, tanh, gelu, ...)")


def _cell(cells: list[str]) -> str:
    return cells[0] if len(cells) == 1 else f"{NN}SequentialCell([{', '.join(cells)}])"


def _channels_last(arguments: LayerArguments) -> None:
    data_format = arguments.constant("data_format", None)
    if data_format not in (None, "channels_last"):
        raise NotConverted("data_format='channels_first' is not handled by this fix")


def convert(name: str, call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    """The Cell for Keras layer `name` built by `call`, fed `shape` (Keras order, no batch); `images`: the model
    transposed its input to NCHW (so 3-d shapes are (H, W, C) for Keras and (C, H, W) for the Cell)."""
    converter = _CONVERTERS.get(name)
    if converter is None:
        raise NotConverted(f"layers.{name} is not one this fix converts")
    return converter(call, shape, images)


def text(value: Dim) -> str:
    """A size as source text."""
    return str(value)


def _conv2d(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, ("filters", "kernel_size", "strides", "padding"),
                           frozenset({"filters", "kernel_size", "strides", "padding", "activation", "use_bias", "data_format"}))
    _channels_last(arguments)
    if len(shape) != 3 or not images:
        raise NotConverted("its input is not a known (height, width, channels) image")
    height, width, channels = shape
    kernel = arguments.pair("kernel_size", None)
    stride = arguments.pair("strides", 1)
    padding = arguments.constant("padding", "valid")
    if padding not in ("valid", "same"):
        raise NotConverted(f"padding={padding!r} is not valid/same")
    filters = arguments.text("filters")
    if filters is None:
        raise NotConverted("the number of filters is not given")
    use_bias = arguments.text("use_bias", "True")
    cell = (f"{NN}Conv2d({text(channels)}, {filters}, {arguments.text('kernel_size')}, stride={arguments.text('strides', '1')}, "
            f"pad_mode={padding!r}, has_bias={use_bias})")
    out = (_output_size(height, kernel[0], stride[0], str(padding)), _output_size(width, kernel[1], stride[1], str(padding)),
           _filters(arguments))
    return Converted(_cell([cell, *_activation(arguments)]), out)


def _filters(arguments: LayerArguments) -> Dim:
    value = arguments.values["filters"]
    return value.value if isinstance(value, ast.Constant) and type(value.value) is int else ast.unparse(value)


def _pooling(kind: str):
    def convert_pooling(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
        arguments = LayerArguments(call, ("pool_size", "strides", "padding"), frozenset({"pool_size", "strides", "padding", "data_format"}))
        _channels_last(arguments)
        if len(shape) != 3 or not images:
            raise NotConverted("its input is not a known (height, width, channels) image")
        pool = arguments.pair("pool_size", 2)
        stride = arguments.pair("strides", pool) if arguments.constant("strides", None) is not None else pool
        padding = arguments.constant("padding", "valid")
        if padding not in ("valid", "same"):
            raise NotConverted(f"padding={padding!r} is not valid/same")
        height, width, channels = shape
        cell = f"{NN}{kind}(kernel_size={pool if pool[0] != pool[1] else pool[0]}, stride={stride if stride[0] != stride[1] else stride[0]}, pad_mode={padding!r})"
        return Converted(cell, (_output_size(height, pool[0], stride[0], str(padding)), _output_size(width, pool[1], stride[1], str(padding)), channels))
    return convert_pooling


def _dense(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, ("units", "activation", "use_bias"), frozenset({"units", "activation", "use_bias"}))
    if not shape or (images and len(shape) == 3):
        raise NotConverted("it is applied to an image in NHWC order (the model computes in NCHW): flatten or pool it first")
    units = arguments.values.get("units")
    if units is None:
        raise NotConverted("the number of units is not given")
    cell = f"{NN}Dense({text(shape[-1])}, {ast.unparse(units)}, has_bias={arguments.text('use_bias', 'True')})"
    size: Dim = units.value if isinstance(units, ast.Constant) and type(units.value) is int else ast.unparse(units)
    return Converted(_cell([cell, *_activation(arguments)]), (*shape[:-1], size))


def _dropout(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, ("rate",), frozenset({"rate"}))
    rate = arguments.text("rate")
    if rate is None:
        raise NotConverted("the drop rate is not given")
    return Converted(f"{NN}Dropout(p={rate})", shape)


def _batch_normalization(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, ("axis", "momentum", "epsilon"), frozenset({"axis", "momentum", "epsilon"}))
    if arguments.constant("axis", -1) != -1:
        raise NotConverted("axis is not the last (channels) axis")
    # Keras and MindSpore both keep `momentum` of the old running value (PyTorch keeps 1 - momentum).
    options = f"momentum={arguments.text('momentum', '0.99')}, eps={arguments.text('epsilon', '0.001')}"
    if images and len(shape) == 3:
        return Converted(f"{NN}BatchNorm2d({text(shape[-1])}, {options})", shape)
    if len(shape) == 1:
        return Converted(f"{NN}BatchNorm1d({text(shape[-1])}, {options})", shape)
    raise NotConverted("its input is neither an image nor a vector")


def _flatten(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    LayerArguments(call, (), frozenset({"data_format"}))
    # In NCHW the flattened order differs from Keras' NHWC order: the size is the same (weights converted from
    # Keras need the Dense kernel's rows permuted; docs/tensorflow.md).
    return Converted(f"{NN}Flatten()", (_product(shape),))


def _global_average_pooling(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, (), frozenset({"data_format", "keepdims"}))
    _channels_last(arguments)
    if arguments.constant("keepdims", False):
        raise NotConverted("keepdims=True is not handled by this fix")
    if len(shape) != 3 or not images:
        raise NotConverted("its input is not a known (height, width, channels) image")
    return Converted(f"{NN}SequentialCell([{NN}AdaptiveAvgPool2d(1), {NN}Flatten()])", (shape[-1],))


def _activation_layer(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
    arguments = LayerArguments(call, ("activation",), frozenset({"activation"}))
    cells = _activation(arguments)
    return Converted(_cell(cells) if cells else f"{NN}Identity()", shape)


def _named_activation(cell: str):
    def convert_activation(call: ast.Call, shape: tuple[Dim, ...], images: bool) -> Converted:
        LayerArguments(call, (), frozenset())
        return Converted(NN + cell, shape)
    return convert_activation


_CONVERTERS = {
    "Conv2D": _conv2d, "Convolution2D": _conv2d,
    "MaxPooling2D": _pooling("MaxPool2d"), "MaxPool2D": _pooling("MaxPool2d"),
    "AveragePooling2D": _pooling("AvgPool2d"), "AvgPool2D": _pooling("AvgPool2d"),
    "Dense": _dense, "Dropout": _dropout, "BatchNormalization": _batch_normalization, "Flatten": _flatten,
    "GlobalAveragePooling2D": _global_average_pooling, "GlobalAvgPool2D": _global_average_pooling,
    "Activation": _activation_layer, "ReLU": _named_activation("ReLU()"), "Softmax": _named_activation("Softmax(axis=-1)"),
}
# Layers that work on (height, width, channels): a model holding one transposes its NHWC input to NCHW.
IMAGE_LAYERS = frozenset({"Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D", "AveragePooling2D", "AvgPool2D",
                          "GlobalAveragePooling2D", "GlobalAvgPool2D"})
