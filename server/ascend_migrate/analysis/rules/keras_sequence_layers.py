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
    heads, key_size = arguments.constant("num_heads", None), arguments.constant("key_dim", None)
    value_size = arguments.constant("value_dim", None)
    if type(heads) is not int or type(key_size) is not int:
        raise NotConverted("num_heads and key_dim are not numbers in the code")
    query = shapes[0]
    width = query[-1] if query else None
    if not isinstance(width, int):
        raise NotConverted("the query's size is not a number the code gives")
    if heads * key_size != width:
        raise NotConverted(f"num_heads * key_dim = {heads * key_size} is not the query's size {width}: Keras projects "
                           "to num_heads * key_dim, nn.MultiheadAttention to its embed_dim (the query's size) split "
                           "into num_heads heads")
    if value_size not in (None, key_size):
        raise NotConverted("value_dim differs from key_dim: nn.MultiheadAttention's heads have one size")
    value = shapes[1]
    key = shapes[2] if len(shapes) == 3 else value
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
    return Converted(cell, query, "{cell}({0}, " + key_input + ", {1}, need_weights=False)[0]")


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
