"""A Keras cross-entropy on logits and its calls → MindSpore's loss Cell, arguments swapped (MS269, MindSpore route;
issue 21).

    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(      loss_object = mindspore.nn.SoftmaxCrossEntropyWithLogits(
        from_logits=True)                                        →        sparse=True, reduction="mean")
    loss = loss_object(labels, predictions)                           loss = loss_object(predictions, labels)

Keras' losses take (y_true, y_pred), MindSpore's loss Cells (logits, labels). The object is kept (its name, where it
is built and where it is called) and each call on it gets its two arguments swapped; the walker types the object
(`symbols.keras_logits_loss_type`), so its calls are found in any function. `from_logits=True` is what makes
`nn.SoftmaxCrossEntropyWithLogits` the same computation (the softmax of the logits, then the mean over the batch of
the cross-entropy with integer labels (sparse=True) or one-hot labels (sparse=False)); Keras' `reduction`
("sum_over_batch_size", "sum", "none") becomes MindSpore's ("mean", "sum", "none"). Probabilities
(from_logits=False, Keras' default) have no such Cell: the object keeps the official table's finding and its calls
are left as they are. Other arguments (label_smoothing, axis, ignore_class, a sample_weight at the call) keep a
finding without a fix that says which.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, CALL, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_roots
from ascend_migrate.analysis.rules.tf_metrics import callee_name
from ascend_migrate.analysis.symbols import KERAS_LOGITS_LOSS_SUFFIX, KERAS_LOGITS_LOSSES, KERAS_LOSS_REDUCTIONS, keras_logits_loss_type
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

LOSS = "keras-logits-loss"
_SPARSE = {"SparseCategoricalCrossentropy": "True", "CategoricalCrossentropy": "False"}
_FROM_LOGITS = ast.keyword(arg="from_logits", value=ast.Constant(True))
_KEPT = frozenset({"from_logits", "reduction", "name"})  # name= is Keras' label for the object: dropped


class _Refused(ValueError):
    pass


def _finding(context: RuleContext, node: ast.Call, text: str | None, reason: str | None, edits: tuple[TextEdit, ...] = (),
             imports: tuple[str, ...] = (), removed: tuple[str, ...] = ()) -> Finding | None:
    entries = context.view.patterns.get(LOSS)
    if not entries:
        return None
    factory = context.factory
    span = factory.span(node)
    finding = factory.finding(entries[0], span, "inferred", api=entries[0].api)
    if finding is None:
        return None
    if text is not None:
        return dataclasses.replace(finding, fix=Fix(title=text, safe=False, edits=edits, add_imports=imports, remove_imports=removed))
    return dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")


def _cell(name: str, call: ast.Call) -> str:
    if call.args or any(keyword.arg is None for keyword in call.keywords):
        raise _Refused(f"{name}(...) is given positional or ** arguments (this fix reads keywords only)")
    given = {keyword.arg: keyword.value for keyword in call.keywords}
    unknown = sorted(str(argument) for argument in set(given) - _KEPT)
    if unknown:
        raise _Refused(f"argument {', '.join(unknown)} has no counterpart in nn.SoftmaxCrossEntropyWithLogits")
    reduction = given.get("reduction", ast.Constant("sum_over_batch_size"))
    if not (type(reduction) is ast.Constant and reduction.value in KERAS_LOSS_REDUCTIONS):
        raise _Refused(f"reduction={ast.unparse(reduction)} is not one of {', '.join(KERAS_LOSS_REDUCTIONS)} written at the call")
    return f'mindspore.nn.SoftmaxCrossEntropyWithLogits(sparse={_SPARSE[name]}, reduction="{KERAS_LOSS_REDUCTIONS[reduction.value]}")'


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    """`name = keras.losses.SparseCategoricalCrossentropy(from_logits=True)` → the MindSpore Cell."""
    if context.route != ROUTE_MINDSPORE or len(targets) != 1 or type(value) is not ast.Call or callee_name(value) not in KERAS_LOGITS_LOSSES:
        return
    if not any(keyword.arg == "from_logits" and type(keyword.value) is ast.Constant and keyword.value.value is True for keyword in value.keywords):
        return  # from_logits not True at the call: probabilities, which no MindSpore Cell takes
    qualified = context.qualified_name(value.func)
    name = callee_name(value)
    if qualified is None or keras_logits_loss_type(qualified, ast.Call(func=value.func, args=[], keywords=[_FROM_LOGITS])) is None:
        return  # not a Keras loss class (the same test as the walker's typing, on the name alone)
    factory = context.factory
    try:
        cell = _cell(name, value)
    except _Refused as error:
        finding = _finding(context, value, None, str(error))
    else:
        finding = _finding(context, value, f"Use {cell.split('(', 1)[0]} (its calls take (logits, labels))", None,
                           (TextEdit(*factory.span(value), cell),), ("import mindspore",), keras_roots(context, [value.func]))
    if finding is None:
        return
    # The official table's finding on the class offers no fix: this one replaces it.
    func_span = factory.span(value.func)
    context.findings[:] = [found for found in context.findings
                           if not (found.code == "MS102" and (found.line, found.column, found.end_line, found.end_column) == func_span)]
    context.add(finding)


def _logits_loss_call(context: RuleContext, node: ast.Call) -> bool:
    func = node.func
    if type(func) is not ast.Name or context.route != ROUTE_MINDSPORE or LOSS not in context.view.patterns:
        return False
    loss = context.infer(func)
    return loss is not None and loss.endswith(KERAS_LOGITS_LOSS_SUFFIX)


def _swapped(node: ast.Call) -> str:
    """`loss(logits, labels)` for `loss(labels, logits)`, or raises _Refused saying why not."""
    if any(isinstance(argument, ast.Starred) for argument in node.args) or any(keyword.arg is None for keyword in node.keywords):
        raise _Refused("its arguments are passed with * or **")
    arguments = dict(zip(("y_true", "y_pred"), node.args, strict=False))
    arguments.update({keyword.arg: keyword.value for keyword in node.keywords if keyword.arg})
    if set(arguments) != {"y_true", "y_pred"} or len(node.args) + len(node.keywords) != 2:
        raise _Refused("it is given arguments other than (y_true, y_pred) (sample_weight has no counterpart)")
    return ast.unparse(ast.Call(func=node.func, args=[arguments["y_pred"], arguments["y_true"]], keywords=[]))


def swapped_call(context: RuleContext, node: ast.Call) -> str | None:
    """The call's text in MindSpore's order when `node` calls a typed cross-entropy object, else None (the
    GradientTape rewrite, which moves the lines holding such calls, carries the edit: tf_custom_loop)."""
    if not _logits_loss_call(context, node):
        return None
    try:
        return _swapped(node)
    except _Refused:
        return None


def on_call(context: RuleContext, node: ast.Call) -> None:
    """`loss_object(labels, logits)` on a typed cross-entropy object → `loss_object(logits, labels)`."""
    if not _logits_loss_call(context, node):
        return
    try:
        swapped = _swapped(node)
    except _Refused as error:
        context.add(_finding(context, node, None, str(error)))
        return
    context.add(_finding(context, node, "Pass (logits, labels), MindSpore's order", None, (TextEdit(*context.factory.span(node), swapped),)))


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf

        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)  # expect: MS269
        probabilities_loss = tf.keras.losses.SparseCategoricalCrossentropy()

        def step(labels, logits, probabilities):
            loss = loss_object(labels, logits)  # expect: MS269
            return loss + probabilities_loss(labels, probabilities)
        """, codes=("MS269",)),
)

RULE = Rule(name="tf_loss_order", frameworks=TENSORFLOW, routes=frozenset({ROUTE_MINDSPORE}), matchers={LOSS: Matcher(ASSIGNMENT, on_assignment)}, hooks={CALL: on_call}, flags=_FLAGS)
