"""Keras `model.compile(...)` and `model.fit(...)` → `mindspore.train.Model` and its `fit()` on a
`mindspore.dataset` (MS256, MindSpore route; issue 21).

    model.compile(optimizer=keras.optimizers.Adam(1e-3),      model_trainer = mindspore.train.Model(model,
                  loss=SparseCategoricalCrossentropy(    →        loss_fn=nn.SoftmaxCrossEntropyWithLogits(sparse=True, ...),
                      from_logits=True))                          optimizer=nn.Adam(model.trainable_params(), ...))
    model.fit(x, y, batch_size=32, epochs=2)                  model_trainer.fit(2, NumpySlicesDataset((x, y), ...).batch(32))

The optimizer gets the Keras defaults written out where MindSpore's differ (SGD's learning rate 0.01, not 0.1;
Adam's epsilon 1e-7, not 1e-8). `fit` uses the trainer its compile call became (`<model>_trainer`); whether that
call was rewritten is not looked up (it is often another top-level statement, and a finding depends only on its
own statement, which keeps the editor's incremental analysis exact): a compile this rule cannot rewrite keeps its
finding, and the program stops there, before the fit, with that finding's reason. A loss, optimizer or
argument this rule does not know keeps the finding without a fix, and the message says which. (`fit`, not
`train`: the PyTorch route reads `x.train(...)` as a Cell's train mode.)
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_name, keras_roots

COMPILE = "keras-compile"
FIT = "keras-fit"
SUMMARY = "keras-summary"
EVALUATE = "keras-evaluate"
TO_CATEGORICAL = "keras-to-categorical"
NN = "mindspore.nn."
TRAINER_SUFFIX = "_trainer"

# Keras optimizer → (MindSpore optimizer, Keras defaults written out where MindSpore's differ, Keras arguments kept).
_OPTIMIZERS = {
    "Adam": ("Adam", (("learning_rate", "0.001"), ("eps", "1e-07")), {"learning_rate": "learning_rate", "beta_1": "beta1", "beta_2": "beta2", "epsilon": "eps"}),
    "SGD": ("SGD", (("learning_rate", "0.01"),), {"learning_rate": "learning_rate", "momentum": "momentum", "nesterov": "nesterov"}),
    # MindSpore adds epsilon under the square root, Keras after it: the same for the usual tiny epsilon.
    "RMSprop": ("RMSProp", (("learning_rate", "0.001"), ("decay", "0.9"), ("epsilon", "1e-07")),
                {"learning_rate": "learning_rate", "rho": "decay", "momentum": "momentum", "epsilon": "epsilon", "centered": "centered"}),
}
_OPTIMIZER_STRINGS = {"adam": "Adam", "sgd": "SGD", "rmsprop": "RMSprop"}
# Keras loss (class with from_logits, or string) → the MindSpore loss Cell; None: no Cell computes it as Keras does.
_LOSS_CLASSES = {
    ("SparseCategoricalCrossentropy", True): f'{NN}SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")',
    ("CategoricalCrossentropy", True): f'{NN}SoftmaxCrossEntropyWithLogits(sparse=False, reduction="mean")',
    ("BinaryCrossentropy", True): f"{NN}BCEWithLogitsLoss()",
    ("BinaryCrossentropy", False): f"{NN}BCELoss(reduction='mean')",
    ("MeanSquaredError", False): f"{NN}MSELoss()",
    ("MeanAbsoluteError", False): f"{NN}L1Loss()",
}
_LOSS_STRINGS = {"mse": f"{NN}MSELoss()", "mean_squared_error": f"{NN}MSELoss()", "mae": f"{NN}L1Loss()",
                 "mean_absolute_error": f"{NN}L1Loss()", "binary_crossentropy": f"{NN}BCELoss(reduction='mean')"}
# Keras' cross-entropies on probabilities (after a softmax), which no MindSpore Cell computes (theirs take logits):
# a small loss Cell is written before the trainer, computing what Keras does (probabilities clipped to
# [1e-7, 1 - 1e-7], Keras' epsilon, then the mean over the batch of -sum(labels * log(p))).
_PROBABILITY_LOSSES = {
    "categorical_crossentropy": ("CategoricalCrossentropy", "(-(labels * mindspore.ops.log(probabilities)).sum(-1)).mean()"),
    "sparse_categorical_crossentropy": (
        "SparseCategoricalCrossentropy", "mindspore.ops.nll_loss(mindspore.ops.log(probabilities), labels.astype(mindspore.int32))"),
}
_PROBABILITY_LOSS_CLASSES = {("CategoricalCrossentropy", False): "categorical_crossentropy",
                             ("SparseCategoricalCrossentropy", False): "sparse_categorical_crossentropy"}
# Keras metric names → MindSpore metric classes. The trainer's metrics are a dict with the loss first, in the
# order compile() named them, so evaluate() can give Keras' [loss, *metrics] list (a set's order is not fixed).
_METRICS = {"accuracy": "Accuracy", "acc": "Accuracy", "sparse_categorical_accuracy": "Accuracy", "categorical_accuracy": "Accuracy",
            "mae": "MAE", "mse": "MSE"}


class _Refused(ValueError):
    pass


def _statement_call(context: RuleContext, node: ast.Call) -> str | None:
    """The receiver's name when `node` is `name.method(...)` written as a statement of its own on its lines."""
    func = node.func
    if type(func) is not ast.Attribute or type(func.value) is not ast.Name:
        return None
    lines = context.factory.lines
    line, column, end_line, end_column = context.factory.span(node)  # the file's lines and character columns
    before = lines.text(line)[: column - 1]
    after = lines.text(end_line)[end_column - 1:]
    if before.strip() or after.split("#")[0].strip():
        return None
    return func.value.id


def _arguments(node: ast.Call, positional: tuple[str, ...]) -> dict[str, ast.expr]:
    if any(isinstance(argument, ast.Starred) for argument in node.args) or any(keyword.arg is None for keyword in node.keywords):
        raise _Refused("its arguments are passed with * or **")
    if len(node.args) > len(positional):
        raise _Refused("it has more positional arguments than this fix reads")
    values = dict(zip(positional, node.args, strict=False))
    values.update({keyword.arg: keyword.value for keyword in node.keywords if keyword.arg})
    return values


def _keras(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return keras_name(context.view.aliases.canonical(qualified)) if qualified else None


def _optimizer(context: RuleContext, node: ast.expr, model: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        name, given = _OPTIMIZER_STRINGS.get(node.value.lower()), {}
    elif type(node) is ast.Call:
        name = _keras(context, node.func)
        given = _arguments(node, ("learning_rate",))
    else:
        raise _Refused(f"the optimizer `{ast.unparse(node)}` is not written at the call")
    if name not in _OPTIMIZERS:
        raise _Refused(f"optimizer {ast.unparse(node)} is not one this fix converts (Adam, SGD, RMSprop)")
    target, defaults, renames = _OPTIMIZERS[name]
    unknown = sorted(set(given) - set(renames))
    if unknown:
        raise _Refused(f"optimizer argument {', '.join(unknown)} has no counterpart this fix writes")
    options = dict(defaults)
    options.update({renames[key]: ast.unparse(value) for key, value in given.items()})
    written = ", ".join(f"{key}={value}" for key, value in options.items())
    return f"{NN}{target}({model}.trainable_params(), {written})"


def optimizer_cell(context: RuleContext, node: ast.expr, model: str) -> str:
    """The MindSpore optimizer for Keras optimizer `node` on `model.trainable_params()`, Keras' defaults written out
    (also for a custom loop's optimizer, tf_custom_loop.py); raises ValueError saying why there is none."""
    return _optimizer(context, node, model)


def _loss(context: RuleContext, node: ast.expr) -> tuple[str, str | None]:
    """(the loss Cell expression, the Keras name of a probability loss whose Cell class is written first)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value in _PROBABILITY_LOSSES:
            return "", node.value
        loss = _LOSS_STRINGS.get(node.value)
        if loss is None:
            raise _Refused(f"loss {node.value!r} is not one this fix converts")
        return loss, None
    if type(node) is not ast.Call:
        raise _Refused(f"the loss `{ast.unparse(node)}` is not written at the call")
    name = _keras(context, node.func)
    given = _arguments(node, ())
    if set(given) - {"from_logits"}:
        raise _Refused(f"loss argument {', '.join(sorted(set(given) - {'from_logits'}))} has no counterpart this fix writes")
    try:
        from_logits = bool(ast.literal_eval(given["from_logits"])) if "from_logits" in given else False
    except ValueError:
        raise _Refused("from_logits is not a literal") from None
    probability_loss = _PROBABILITY_LOSS_CLASSES.get((name or "", from_logits))
    if probability_loss is not None:
        return "", probability_loss
    loss = _LOSS_CLASSES.get((name or "", from_logits))
    if loss is None:
        raise _Refused(f"loss {ast.unparse(node)} has no MindSpore Cell computing the same (from_logits={from_logits})")
    return loss, None


def _probability_loss_class(context: RuleContext, keras_loss: str, indentation: str) -> tuple[str, list[str]]:
    """(the class's name, its lines) for a Keras cross-entropy on probabilities."""
    name, formula = _PROBABILITY_LOSSES[keras_loss]
    while context.lookup(name) is not None:
        name += "_"
    inner, body = indentation + "    ", indentation + "        "
    return name, [
        f"{indentation}class {name}(mindspore.nn.Cell):  # Keras' {keras_loss!r}: MindSpore's cross-entropy Cells take logits",
        f"{inner}def construct(self, probabilities, labels):",
        f"{body}probabilities = mindspore.ops.clamp(probabilities, 1e-07, 1 - 1e-07)",
        f"{body}return {formula}",
        "",
    ]


def _metrics(node: ast.expr | None) -> str:
    names = []
    if node is not None:
        if type(node) not in (ast.List, ast.Tuple) or not all(isinstance(item, ast.Constant) and item.value in _METRICS for item in node.elts):  # type: ignore[attr-defined]
            raise _Refused(f"metrics {ast.unparse(node)} are not ones this fix converts (accuracy, mae, mse)")
        names = [item.value for item in node.elts]  # type: ignore[attr-defined]
    metrics = ['"loss": mindspore.train.Loss()'] + [f'"{name}": mindspore.train.{_METRICS[name]}()' for name in names]
    return "{" + ", ".join(metrics) + "}"


def on_compile(context: RuleContext, node: ast.Call) -> None:
    model = _statement_call(context, node)
    if model is None or "compile" != node.func.attr or not _imports_keras(context):  # type: ignore[attr-defined]
        return
    try:
        arguments = _arguments(node, ("optimizer", "loss", "metrics"))
    except _Refused:
        return
    if not {keyword.arg for keyword in node.keywords} & {"loss", "optimizer"}:
        return  # not a Keras compile (re.compile(...), torch.compile(model)): Keras code names loss= or optimizer=
    edit: TextEdit | None = None
    reason: str | None = None
    try:
        unknown = sorted(set(arguments) - {"optimizer", "loss", "metrics"})
        if unknown:
            raise _Refused(f"compile argument {', '.join(unknown)} has no counterpart this fix writes")
        optimizer = _optimizer(context, arguments.get("optimizer", ast.Constant("rmsprop")), model)
        if "loss" not in arguments:
            raise _Refused("no loss is given")
        loss, probability_loss = _loss(context, arguments["loss"])
        metrics = _metrics(arguments.get("metrics"))
        before: list[str] = []
        line, column, _, _ = context.factory.span(node)
        indentation = context.factory.lines.text(line)[: column - 1]
        if probability_loss is not None:
            class_name, before = _probability_loss_class(context, probability_loss, indentation)
            loss = f"{class_name}()"
        parts = [model, f"loss_fn={loss}", f"optimizer={optimizer}", f"metrics={metrics}"]
        trainer = f"{model}{TRAINER_SUFFIX} = mindspore.train.Model({', '.join(parts)})"
        # The edit starts at the call, after its line's indentation: the first line goes without it.
        edit = _replace(context, node, "\n".join([*before, indentation + trainer]).lstrip())
    except _Refused as error:
        reason = str(error)
    _report(context, COMPILE, node, edit, reason, "Train with mindspore.train.Model(network, loss_fn, optimizer, metrics)")


def on_fit(context: RuleContext, node: ast.Call) -> None:
    func = node.func
    if type(func) is not ast.Attribute or type(func.value) is not ast.Name or not _imports_keras(context):
        return
    model = func.value.id
    statement, target = _statement_target(context, node)
    try:
        arguments = _arguments(node, ("x", "y", "batch_size", "epochs"))
    except _Refused:
        return
    if "x" not in arguments or ("epochs" not in arguments and "batch_size" not in arguments):
        return  # not Keras' fit (scikit-learn's fit(X, y) has no epochs)
    edit: TextEdit | None = None
    reason: str | None = None
    try:
        unknown = sorted(set(arguments) - {"x", "y", "batch_size", "epochs", "verbose", "validation_split", "shuffle", "validation_data"})
        if unknown:
            raise _Refused(f"fit argument {', '.join(unknown)} has no counterpart this fix writes")
        if not statement:
            raise _Refused("fit's result (Keras' History) is used inside an expression: mindspore.train.History() "
                           "passed as a callback records the losses")
        epochs = ast.unparse(arguments["epochs"]) if "epochs" in arguments else "1"
        options = _validation(arguments) + ([f"callbacks=[{target}]"] if target else [])
        fitted = f"{model}{TRAINER_SUFFIX}.fit({', '.join([epochs, _fit_dataset(arguments), *options])})"
        if target is None:
            edit = _replace(context, node, fitted)
        else:
            # Keras' fit returns its History; mindspore.train.History is the callback recording the same per epoch.
            line_number, _, end_line, end_column = context.factory.span(node)
            line = context.factory.lines.text(line_number)
            indentation = line[: len(line) - len(line.lstrip())]
            edit = TextEdit(line_number, 1, end_line, end_column, f"{indentation}{target} = mindspore.train.History()  # "
                            "Keras' History: .history['net_output'] is the loss, validation metrics by their names "
                            f"(Keras: 'val_...')\n{indentation}{fitted}")
    except _Refused as error:
        reason = str(error)
    _report(context, FIT, node, edit, reason, "Train with mindspore.train.Model.fit(epochs, dataset)")


def _statement_target(context: RuleContext, node: ast.Call) -> tuple[bool, str | None]:
    """Whether the call is a statement of its own or `name = call`, and that name."""
    lines = context.factory.lines
    first, column, last, end_column = context.factory.span(node)
    before = lines.text(first)[: column - 1].strip()
    after = lines.text(last)[end_column - 1:].split("#")[0].strip()
    target = before[:-1].strip() if before.endswith("=") and not before.endswith(("==", "!=", "<=", ">=")) else None
    if after or (before and (target is None or not target.isidentifier())):
        return False, None
    return True, target


def _validation(arguments: dict[str, ast.expr]) -> list[str]:
    """fit's `valid_dataset` for Keras' `validation_data=(x, y)` (evaluated after each epoch, in batches of
    batch_size, as Keras does)."""
    data = arguments.get("validation_data")
    if data is None:
        return []
    if not isinstance(data, ast.Tuple) or len(data.elts) != 2 or "validation_split" in arguments or "y" not in arguments:
        raise _Refused("validation_data is not an (x, y) tuple of arrays written at the call (or comes with validation_split)")
    batch = ast.unparse(arguments["batch_size"]) if "batch_size" in arguments else "32"
    x, y = (ast.unparse(element) for element in data.elts)
    return [f'valid_dataset=mindspore.dataset.NumpySlicesDataset(({x}, {y}), column_names=["data", "label"], shuffle=False).batch({batch})']


def _fit_dataset(arguments: dict[str, ast.expr]) -> str:
    """The dataset fit() trains on: Keras' fit(dataset) takes a batched pipeline (a tf.data one, rewritten by MS257);
    fit(x, y, batch_size, shuffle, validation_split) takes arrays, which become a NumpySlicesDataset."""
    if "y" not in arguments:
        if set(arguments) - {"x", "epochs", "verbose"}:
            raise _Refused("fit(dataset, ...) with arguments other than epochs")
        return ast.unparse(arguments["x"])
    x, y = ast.unparse(arguments["x"]), ast.unparse(arguments["y"])
    if "validation_split" in arguments:
        # Keras holds out the last fraction of the arrays for validation: train on the rest, as it did.
        kept = f"int(len({x}) * (1 - {ast.unparse(arguments['validation_split'])}))"
        x, y = f"{x}[:{kept}]", f"{y}[:{kept}]"
    shuffle = ast.unparse(arguments["shuffle"]) if "shuffle" in arguments else "True"
    batch = ast.unparse(arguments["batch_size"]) if "batch_size" in arguments else "32"
    return f'mindspore.dataset.NumpySlicesDataset(({x}, {y}), column_names=["data", "label"], shuffle={shuffle}).batch({batch})'


def on_evaluate(context: RuleContext, node: ast.Call) -> None:
    """`[score =] model.evaluate(x, y[, batch_size])` → the trainer's eval() on the arrays, giving what Keras gives:
    the loss alone when compile() named no metrics, else [loss, *metrics] (the trainer's metrics, loss first)."""
    func = node.func
    if type(func) is not ast.Attribute or type(func.value) is not ast.Name or not _imports_keras(context):
        return
    model = func.value.id
    line = context.factory.lines.text(context.factory.span(node)[0])
    statement, target = _statement_target(context, node)
    if not statement:
        return  # not a statement of its own, nor `name = model.evaluate(...)`
    try:
        arguments = _arguments(node, ("x", "y", "batch_size"))
    except _Refused:
        return
    if "x" not in arguments:
        return
    edit: TextEdit | None = None
    reason: str | None = None
    try:
        unknown = sorted(set(arguments) - {"x", "y", "batch_size", "verbose"})
        if unknown:
            raise _Refused(f"evaluate argument {', '.join(unknown)} has no counterpart this fix writes")
        if "y" not in arguments:
            if "batch_size" in arguments:
                raise _Refused("evaluate(dataset, batch_size=...): a dataset is batched already")
            dataset = ast.unparse(arguments["x"])  # Keras' evaluate(dataset): a tf.data pipeline, rewritten by MS257
        else:
            batch = ast.unparse(arguments["batch_size"]) if "batch_size" in arguments else "32"
            dataset = (f'mindspore.dataset.NumpySlicesDataset(({ast.unparse(arguments["x"])}, {ast.unparse(arguments["y"])}), '
                       f'column_names=["data", "label"], shuffle=False).batch({batch})')
        evaluated = f"{model}{TRAINER_SUFFIX}.eval({dataset})"
        indentation = line[: len(line) - len(line.lstrip())]
        if target is None:
            edit = _replace(context, node, evaluated)
        else:
            line_number, _, end_line, end_column = context.factory.span(node)
            text = (f"{indentation}{target} = [*{evaluated}.values()]\n"
                    f"{indentation}{target} = {target} if len({target}) > 1 else {target}[0]  # Keras: the loss alone without metrics")
            edit = TextEdit(line_number, 1, end_line, end_column, text)
    except _Refused as error:
        reason = str(error)
    _report(context, EVALUATE, node, edit, reason, "Evaluate with mindspore.train.Model.eval(dataset)")


def on_summary(context: RuleContext, node: ast.Call) -> None:
    """`model.summary()` as a statement → `print(model)`: a Cell's text lists its layers (there is no summary())."""
    model = _statement_call(context, node)
    if model is None or node.args or node.keywords or not _imports_keras(context):
        return
    _report(context, SUMMARY, node, _replace(context, node, f"print({model})"), None, "Print the Cell: its text lists the layers")


def on_to_categorical(context: RuleContext, node: ast.Call) -> None:
    """`keras.utils.to_categorical(y, n)` → `numpy.eye(n, dtype="float32")[y]`: the one-hot rows as a NumPy array,
    float32 as tf.keras 2 gives them (Keras 3 gives float64; MindSpore's losses want float32)."""
    if _keras(context, node.func) != "to_categorical":
        return
    edit: TextEdit | None = None
    reason: str | None = None
    try:
        arguments = _arguments(node, ("x", "num_classes"))
        if set(arguments) != {"x", "num_classes"}:
            raise _Refused("num_classes is not given (Keras takes max(y) + 1): write it")
        labels = ast.unparse(arguments["x"])
        edit = _replace(context, node, f'numpy.eye({ast.unparse(arguments["num_classes"])}, dtype="float32")[numpy.asarray({labels}, dtype="int64")]')
    except _Refused as error:
        reason = str(error)
    _report(context, TO_CATEGORICAL, node, edit, reason, "One-hot rows with numpy.eye", imports=("import numpy",))


def _imports_keras(context: RuleContext) -> bool:
    return any(name.split(".")[0] in ("tensorflow", "keras", "tf_keras") for name in context.module_imports())


def _replace(context: RuleContext, node: ast.Call, text: str) -> TextEdit:
    line, column, end_line, end_column = context.factory.span(node)
    return TextEdit(line, column, end_line, end_column, text)


def _report(context: RuleContext, pattern: str, node: ast.Call, edit: TextEdit | None, reason: str | None, title: str,
            imports: tuple[str, ...] = ("import mindspore",)) -> None:
    """The finding of `pattern` on `node`, with the fix `edit` (its imports added, and those of the Keras names the
    replaced call used removed when nothing else uses them), or with `reason` for having none."""
    entries = context.view.patterns.get(pattern)
    if not entries:
        return
    factory = context.factory
    finding = factory.finding(entries[0], factory.span(node), "inferred", api=entries[0].api)
    if finding is None:
        return
    if edit is not None:
        finding = dataclasses.replace(finding, fix=Fix(title=title, safe=False, edits=(edit,), add_imports=imports,
                                                         remove_imports=keras_roots(context, [node])))
    elif reason is not None:
        finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")
    context.add(finding)


_FLAGS = (
    Example("mindspore", """
        import numpy as np
        import tensorflow as tf

        def train(model, images, labels):
            model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: MS256
            model.fit(images, labels, batch_size=32, epochs=2)  # expect: MS256
        """, codes=("MS256",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import re
        pattern = re.compile("a+")
        def fit_line(estimator, features, targets):
            estimator.fit(features, targets)
        """, codes=("MS256",)),
)

RULE = Rule(
    name="keras_training",
    frameworks=TENSORFLOW,
    matchers={
        COMPILE: Matcher(CALL, on_compile, called=frozenset({"compile"})),
        FIT: Matcher(CALL, on_fit, called=frozenset({"fit"})),
        SUMMARY: Matcher(CALL, on_summary, called=frozenset({"summary"})),
        EVALUATE: Matcher(CALL, on_evaluate, called=frozenset({"evaluate"})),
        TO_CATEGORICAL: Matcher(CALL, on_to_categorical, called=frozenset({"to_categorical"})),
    },
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
