"""Keras layers on sequences (Embedding, LayerNormalization, MultiHeadAttention, GlobalAveragePooling1D) as
MindSpore Cells with their sizes, for the model rewrites of `keras_model.py` (issue 21).

Each was checked side by side: the Keras layer and the Cell written here, the Keras weights copied into the Cell,
the same input, outputs compared (`tools/keras_layer_check.py`, record in
mappings/verification/keras_layers_numeric.yaml). What the Cell would compute differently (a mask, a projection
size MindSpore ties to the model width) gives the reason instead of a Cell.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.keras_layers import NN, Converted, Dim, LayerArguments, NotConverted, text
from ascend_migrate.analysis.rules.keras_layers import convert as convert_image_layer
from ascend_migrate.fixes.templates import class_source

# Keras' MultiHeadAttention as a Cell of its own (fixes/templates/keras_attention.py), written into the program.
ATTENTION_CELL = "KerasMultiHeadAttention"


def convert(name: str, call: ast.Call, shapes: tuple[tuple[Dim, ...], ...], images: bool) -> Converted:
    """The Cell for Keras layer `name` built by `call` and applied to inputs of `shapes` (Keras order, no batch):
    the layers of this module, or those of `keras_layers` (one input each)."""
    converter = _CONVERTERS.get(name)
    if converter is not None:
        return converter(call, shapes)
    if len(shapes) != 1:
        raise NotConverted("it is applied to more than one input")
    return convert_image_layer(name, call, shapes[0], images)


def _one_input(shapes: tuple[tuple[Dim, ...], ...]) -> tuple[Dim, ...]:
    if len(shapes) != 1:
        raise NotConverted("it is applied to more than one input")
    return shapes[0]


def _embedding(call: ast.Call, shapes: tuple[tuple[Dim, ...], ...]) -> Converted:
    shape = _one_input(shapes)
    arguments = LayerArguments(call, ("input_dim", "output_dim"), frozenset({"input_dim", "output_dim", "mask_zero"}))
    if arguments.constant("mask_zero", False) is not False:
        raise NotConverted("mask_zero=True makes Keras mask the padding (id 0) in the layers after it; nn.Embedding has "
                           "no mask: pass the mask to the attention by hand")
    vocabulary, size = arguments.values.get("input_dim"), arguments.values.get("output_dim")
    if vocabulary is None or size is None:
        raise NotConverted("input_dim and output_dim are not both given")
    width: Dim = size.value if isinstance(size, ast.Constant) and type(size.value) is int else ast.unparse(size)
    # Keras draws the table from uniform(-0.05, 0.05), nn.Embedding from normal(0, 1): write Keras' initializer.
    cell = f"{NN}Embedding({ast.unparse(vocabulary)}, {ast.unparse(size)}, embedding_table=mindspore.common.initializer.Uniform(0.05))"
    return Converted(cell, (*shape, width))


def _layer_normalization(call: ast.Call, shapes: tuple[tuple[Dim, ...], ...]) -> Converted:
    shape = _one_input(shapes)
    arguments = LayerArguments(call, ("axis", "epsilon", "center", "scale"), frozenset({"axis", "epsilon", "center", "scale"}))
    if arguments.constant("axis", -1) not in (-1, len(shape)):
        raise NotConverted("axis is not the last axis")
    if arguments.constant("center", True) is not True or arguments.constant("scale", True) is not True:
        raise NotConverted("center=False or scale=False: nn.LayerNorm always has both gamma and beta")
    if not shape:
        raise NotConverted("the size of its input is not known")
    # Keras' epsilon defaults to 1e-3, nn.LayerNorm's to 1e-7: Keras' value is written.
    return Converted(f"{NN}LayerNorm(({text(shape[-1])},), epsilon={arguments.text('epsilon', '0.001')})", shape)


def _multi_head_attention(call: ast.Call, shapes: tuple[tuple[Dim, ...], ...]) -> Converted:
    arguments = LayerArguments(call, ("num_heads", "key_dim", "value_dim", "dropout", "use_bias"),
                               frozenset({"num_heads", "key_dim", "value_dim", "dropout", "use_bias"}))
    if len(shapes) not in (2, 3):
        raise NotConverted("it is not applied to (query, value) or (query, value, key)")
    if "num_heads" not in arguments.values or "key_dim" not in arguments.values:
        raise NotConverted("num_heads and key_dim are not both given")
    values = {name: _literal(node) for name, node in arguments.values.items()}
    heads, key_size, value_size = values["num_heads"], values["key_dim"], values.get("value_dim")
    query = shapes[0]
    width = query[-1] if query else None
    value = shapes[1]
    key = shapes[2] if len(shapes) == 3 else value
    if type(heads) is int and type(key_size) is int and isinstance(width, int) and heads * key_size == width and value_size in (None, key_size):
        return _torch_style_attention(arguments, width, heads, shapes, value, key)
    # Keras projects to num_heads * key_dim and back to the query's size; nn.MultiheadAttention splits the query's
    # size into its heads: the Cell written into the program computes Keras' layer (fixes/templates/keras_attention.py).
    if width is None or not value or not key:
        raise NotConverted("the sizes of the query, value and key are not all known")
    if any(len(shape) != 2 for shape in shapes if len(shape) > 1):
        raise NotConverted("its inputs are not (steps, features) sequences (Keras attends over more axes then)")
    options = [f"num_heads={arguments.text('num_heads')}", f"key_dim={arguments.text('key_dim')}"]
    options += [f"{name}={arguments.text(name)}" for name in ("value_dim", "dropout", "use_bias") if name in arguments.values]
    cell = f"{ATTENTION_CELL}({text(width)}, {text(value[-1])}, {text(key[-1])}, {', '.join(options)})"
    return Converted(cell, query, "{cell}(" + ", ".join(f"{{{index}}}" for index in range(len(shapes))) + ")")


def _literal(node: ast.expr) -> object:
    """The value of a literal argument, else None (a size the program computes)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _torch_style_attention(arguments: LayerArguments, width: int, heads: int, shapes: tuple[tuple[Dim, ...], ...],
                           value: tuple[Dim, ...], key: tuple[Dim, ...]) -> Converted:
    """nn.MultiheadAttention, when num_heads * key_dim is the query's size and value_dim is key_dim."""
    options = [f"dropout={arguments.text('dropout')}"] if "dropout" in arguments.values else []
    options.append(f"has_bias={arguments.text('use_bias', 'True')}")
    if key[-1:] != (width,):
        options.append(f"kdim={text(key[-1])}")
    if value[-1:] != (width,):
        options.append(f"vdim={text(value[-1])}")
    cell = f"{NN}MultiheadAttention({width}, {heads}, {', '.join(options)}, batch_first=True)"
    key_input = "{2}" if len(shapes) == 3 else "{1}"
    # Keras calls (query, value, key) and returns the output; nn.MultiheadAttention takes (query, key, value)
    # and returns a tuple (output, weights).
    return Converted(cell, shapes[0], "{cell}({0}, " + key_input + ", {1}, need_weights=False)[0]")


def support_code(cell: str) -> str | None:
    """The class a Cell expression needs written into the program (Keras' attention), else None."""
    return class_source("keras_attention", ATTENTION_CELL) if cell.startswith(ATTENTION_CELL + "(") else None


def _global_average_pooling_1d(call: ast.Call, shapes: tuple[tuple[Dim, ...], ...]) -> Converted:
    shape = _one_input(shapes)
    arguments = LayerArguments(call, (), frozenset({"data_format", "keepdims"}))
    if arguments.constant("data_format", None) not in (None, "channels_last") or arguments.constant("keepdims", False):
        raise NotConverted("data_format='channels_first' or keepdims=True is not handled by this fix")
    if len(shape) != 2:
        raise NotConverted("its input is not a known (steps, features) sequence")
    return Converted("", shape[1:], "mindspore.ops.mean({0}, 1)")


_CONVERTERS = {
    "Embedding": _embedding, "LayerNormalization": _layer_normalization, "MultiHeadAttention": _multi_head_attention,
    "GlobalAveragePooling1D": _global_average_pooling_1d, "GlobalAvgPool1D": _global_average_pooling_1d,
}
# Layers whose input is integer ids: a model starting with one converts its input to int32, not float32.
ID_LAYERS = frozenset({"Embedding"})
