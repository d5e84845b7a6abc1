"""Keras metrics in a custom loop → `mindspore.train` metrics (MS261, MindSpore route; issue 21).

    train_loss = tf.keras.metrics.Mean(name="train_loss")          train_loss = mindspore.train.Loss()
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()  train_accuracy = mindspore.train.Accuracy()
    train_loss(loss)                                          →    train_loss.update(loss)
    train_accuracy(labels, predictions)                            train_accuracy.update(predictions, labels)
    train_loss.result(), train_loss.reset_state()                  train_loss.eval(), train_loss.clear()

`Loss` averages the scalar losses it is given, as Keras' `Mean` averages scalar values; `Accuracy` compares the
argmax of (N, C) predictions with (N,) labels or (N, C) one-hot labels, as `SparseCategoricalAccuracy` and
`CategoricalAccuracy` do, and takes them in the other order (predictions first). Differences the message says:
`Loss` takes one scalar (or a 1-element vector) per update, where `Mean` weighs a vector by its elements, and
`eval()` before any update raises where Keras gives 0. The walker types the metric objects
(`symbols.constructed_type`), so their calls are found in any function. A metric built with other arguments
(dtype, a sample_weight at update) keeps a finding without a fix, saying which.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, CALL, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_roots
from ascend_migrate.analysis.symbols import KERAS_METRIC_PREFIX, KERAS_METRICS
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

METRIC = "keras-metric"
_TARGETS = {"Mean": "mindspore.train.Loss()", "SparseCategoricalAccuracy": "mindspore.train.Accuracy()",
            "CategoricalAccuracy": "mindspore.train.Accuracy()"}
_METHODS = {"result": "eval", "reset_state": "clear", "reset_states": "clear"}
_UPDATE_AND_METHODS = frozenset({"update_state", *_METHODS})


def _report(context: RuleContext, node: ast.Call, text: str | None, reason: str | None, imports: tuple[str, ...] = ()) -> None:
    entries = context.view.patterns.get(METRIC)
    if not entries:
        return
    factory = context.factory
    span = factory.span(node)
    finding = factory.finding(entries[0], span, "inferred", api=entries[0].api)
    if finding is None:
        return
    if text is not None:
        finding = dataclasses.replace(finding, fix=Fix(title="Use the mindspore.train metric", safe=False,
                                                         edits=(TextEdit(*span, text),), add_imports=imports,
                                                         remove_imports=keras_roots(context, [node.func])))
    elif reason is not None:
        finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")
    # The official table's finding on the class offers a rename that keeps Keras' arguments (name=...), which
    # mindspore.train.Loss() rejects: this finding replaces it.
    func_span = factory.span(node.func)
    context.findings[:] = [found for found in context.findings
                           if not (found.code == "MS102" and (found.line, found.column, found.end_line, found.end_column) == func_span)]
    context.add(finding)


def callee_name(call: ast.Call) -> str:
    """The last name of the callee (`Mean` of `tf.keras.metrics.Mean`): a dictionary check before any resolution."""
    func = call.func
    return func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    """`name = keras.metrics.Mean(name=...)` → `name = mindspore.train.Loss()`."""
    if context.route != ROUTE_MINDSPORE or type(value) is not ast.Call or callee_name(value) not in KERAS_METRICS:
        return
    metric = context.infer(value)
    if metric is None or not metric.startswith(KERAS_METRIC_PREFIX):
        return
    kind = metric[len(KERAS_METRIC_PREFIX):]
    if value.args or any(keyword.arg != "name" for keyword in value.keywords):
        _report(context, value, None, f"{ast.unparse(value)} has arguments other than name= (which the MindSpore metric does not take)")
        return
    _report(context, value, _TARGETS[kind], None, ("import mindspore",))


def on_call(context: RuleContext, node: ast.Call) -> None:
    """`metric(values)`/`metric.update_state(...)` → `metric.update(...)`; result() → eval(); reset_state(s)() → clear()."""
    if context.route != ROUTE_MINDSPORE:
        return
    func = node.func
    if type(func) is ast.Attribute and func.attr not in _UPDATE_AND_METHODS:
        return  # x.view(...), torch.cat(...): most calls, asked nothing more
    receiver = func.value if type(func) is ast.Attribute else func
    if type(receiver) is not ast.Name:
        return
    metric = context.infer(receiver)
    if metric is None or not metric.startswith(KERAS_METRIC_PREFIX) or metric[len(KERAS_METRIC_PREFIX):] not in KERAS_METRICS:
        return
    name = receiver.id
    method = func.attr if type(func) is ast.Attribute else "update_state"
    if method in _METHODS:
        if node.args or node.keywords:
            _report(context, node, None, f"{method}() is given arguments")
            return
        _report(context, node, f"{name}.{_METHODS[method]}()", None)
        return
    if method != "update_state":
        return
    if node.keywords or any(isinstance(argument, ast.Starred) for argument in node.args):
        _report(context, node, None, "the update is given keyword arguments (sample_weight has no counterpart in mindspore.train metrics)")
        return
    accuracy = metric != f"{KERAS_METRIC_PREFIX}Mean"
    if len(node.args) != (2 if accuracy else 1):
        _report(context, node, None, f"the update is given {len(node.args)} arguments")
        return
    arguments = [ast.unparse(argument) for argument in node.args]
    if accuracy:
        arguments.reverse()  # Keras: (y_true, y_pred); mindspore.train.Accuracy.update: (y_pred, y)
    _report(context, node, f"{name}.update({', '.join(arguments)})", None)


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf

        train_loss = tf.keras.metrics.Mean(name="train_loss")  # expect: MS261
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")  # expect: MS261

        def record(loss, labels, predictions):
            train_loss(loss)  # expect: MS261
            train_accuracy(labels, predictions)  # expect: MS261
            return train_loss.result()  # expect: MS261

        train_loss.reset_state()  # expect: MS261
        """, codes=("MS261",)),
)

RULE = Rule(name="tf_metrics", frameworks=TENSORFLOW, routes=frozenset({ROUTE_MINDSPORE}), hooks={CALL: on_call}, matchers={METRIC: Matcher(ASSIGNMENT, on_assignment)}, flags=_FLAGS)
