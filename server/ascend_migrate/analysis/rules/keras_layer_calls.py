"""Keras calls the model rewrites do not cover, fixed on their own (issue 21). A Keras layer constructed on its own (a sub-layer in a Layer subclass's `__init__`, issue 21) → the MindSpore
Cell the model rewrites write for it, when the Cell needs no input size: `layers.Embedding(input_dim=V,
output_dim=D)` → `mindspore.nn.Embedding(V, D, embedding_table=Uniform(0.05))` (Keras' initializer). Layers whose
Cell needs the input's size (Dense, LayerNormalization, MultiHeadAttention) keep their finding: their size is
known where the layer is applied (MS255 writes it there), or in a layer class whose call() ties it to the
constructor's parameters (`keras_block_sizes`, whose plan the Dense/LayerNormalization/Dropout/Sequential builders read). `keras.ops.convert_to_tensor(x)` →
`mindspore.Tensor(x)` when only the value is given (MindSpore takes no Keras dtype string).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.analysis.rules.keras_block_sizes import planned_fix
from ascend_migrate.analysis.rules.keras_layers import NotConverted
from ascend_migrate.analysis.rules.keras_sequence_layers import convert
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _sizeless_layer(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    if call is None:
        return None
    _, _, end_line, end_column = context.factory.span(call)
    if context.factory.lines.text(end_line)[end_column - 1:].lstrip().startswith("("):
        return NotFixed("the layer is applied where it is built (`layers.Embedding(...)(x)`): it is converted with its "
                        "model by the model rewrite (MS255; that finding says why when it has no fix)")
    name = entry.api.rsplit(".", 1)[-1]
    try:
        converted = convert(name, call, ((),), False)  # an input of unknown rank: only the Cell's own sizes are used
    except NotConverted as error:
        return NotFixed(str(error))
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title=f"Replace with `{converted.cell.split('(', 1)[0]}(...)` with Keras' sizes and initializer",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, converted.cell),),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def _value_to_tensor(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    if call is None:
        return None
    values = [*call.args, *(keyword.value for keyword in call.keywords if keyword.arg == "x")]
    if len(values) != 1 or any(keyword.arg != "x" for keyword in call.keywords) or type(values[0]) is ast.Starred:
        return NotFixed("only the one-argument call is rewritten: mindspore.Tensor takes a MindSpore dtype "
                        "(mindspore.float16), not Keras' dtype string, and has no sparse or ragged")
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(
        title="Replace with `mindspore.Tensor(...)`",
        safe=False,
        edits=(TextEdit(line, column, end_line, end_column, f"mindspore.Tensor({source_text(context, values[0])})"),),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {
    (ROUTE_MINDSPORE, "tensorflow.keras.layers.Embedding"): _sizeless_layer,
    (ROUTE_MINDSPORE, "tensorflow.keras.ops.convert_to_tensor"): _value_to_tensor,
    # Sub-layers of a Keras layer class whose sizes its constructor's parameters give (keras_block_sizes.plan).
    **{(ROUTE_MINDSPORE, f"tensorflow.keras.{name}"): planned_fix for name in ("layers.Dense", "layers.LayerNormalization", "layers.Dropout", "Sequential",
                                                                             "layers.MultiHeadAttention")},
}
