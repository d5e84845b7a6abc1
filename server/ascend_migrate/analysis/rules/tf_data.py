"""`tf.data.Dataset.from_tensor_slices(arrays)` → `mindspore.dataset.NumpySlicesDataset(arrays, column_names=...,
shuffle=False)` (MS257, MindSpore route; issue 21).

A MindSpore dataset has the pipeline methods a tf.data one is usually built with under the same names and
meaning (`shuffle(buffer_size)`, `batch(batch_size, drop_remainder)`, `repeat`, `take`, `skip`), so the source
of the pipeline is the only call rewritten; its two columns, an (inputs, labels) pair written at the call, are
named `data` and `label`, which `mindspore.train.Model` reads in order. `shuffle=False` keeps tf.data's order (NumpySlicesDataset shuffles
by default). A source this rule does not know (a dict of features, a generator, files) keeps its finding, and
the message says why.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_roots

FROM_TENSOR_SLICES = "tf-data-from-tensor-slices"
_SOURCE = "tensorflow.data.Dataset.from_tensor_slices"


def on_from_tensor_slices(context: RuleContext, node: ast.Call) -> None:
    qualified = context.qualified_name(node.func)
    if qualified is None or context.view.aliases.canonical(qualified) != _SOURCE:
        return
    entries = context.view.patterns.get(FROM_TENSOR_SLICES)
    if not entries:
        return
    factory = context.factory
    finding = factory.finding(entries[0], factory.span(node), "exact", api=qualified)
    if finding is None:
        return
    arrays = node.args[0] if len(node.args) == 1 and not node.keywords else None
    if type(arrays) is ast.Tuple and len(arrays.elts) == 2 and not any(isinstance(item, ast.Starred) for item in arrays.elts):
        columns = '["data", "label"]'
    else:
        arrays = None  # a variable may hold one array or a tuple of them: the column names differ
    if arrays is None:
        reason = "the slices are not an (inputs, labels) pair written at the call"
        context.add(dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}."))
        return
    line, column, end_line, end_column = factory.span(node)
    text = f"mindspore.dataset.NumpySlicesDataset({ast.unparse(arrays)}, column_names={columns}, shuffle=False)"
    fix = Fix(title="Build the pipeline from mindspore.dataset.NumpySlicesDataset", safe=False,
              edits=(TextEdit(line, column, end_line, end_column, text),), add_imports=("import mindspore",),
              remove_imports=keras_roots(context, [node.func]))
    context.add(dataclasses.replace(finding, fix=fix))


_FLAGS = (
    Example("mindspore", """
        import numpy as np
        import tensorflow as tf

        images, labels = np.zeros((8, 4)), np.zeros(8)
        dataset = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(8).batch(4)  # expect: MS257
        """, codes=("MS257",)),
)

RULE = Rule(name="tf_data", frameworks=TENSORFLOW, matchers={FROM_TENSOR_SLICES: Matcher(CALL, on_from_tensor_slices, called=frozenset({"from_tensor_slices"}))},
            flags=_FLAGS)
