"""A TensorFlow custom training loop → MindSpore's functional one (MS258-MS260, MS262, MindSpore route; issue 21).

    optimizer = tf.keras.optimizers.Adam()          optimizer = mindspore.nn.Adam(model.trainable_params(), ...)
    @tf.function                                    (the decorator removed: see below)
    def train_step(images, labels):                 def train_step(images, labels):
      with tf.GradientTape() as tape:                 def forward_fn(images, labels):
        predictions = model(images, training=True)  →     predictions = model(images, training=True)
        loss = loss_object(labels, predictions)           loss = loss_object(labels, predictions)
      gradients = tape.gradient(                          return loss, (predictions,)
          loss, model.trainable_variables)            (loss, (predictions,)), gradients = mindspore.value_and_grad(
      optimizer.apply_gradients(                          forward_fn, None, optimizer.parameters, has_aux=True)(images, labels)
          zip(gradients, model.trainable_variables))  optimizer(gradients)

MS258: the tape's block, `tape.gradient(loss, sources)` right after it and `optimizer.apply_gradients(zip(grads,
sources))` later in the same block become the PyTorch route's training-step rewrite (fixes/families/training_step.py,
its `tape` form). Any tape use it does not understand (arguments such as persistent=True, the tape used inside its
block or again after gradient(), several targets, grads changed before apply_gradients) keeps the finding without
a fix, and the message says which. MS259: a Keras optimizer assigned to a name is built on the trainable
parameters of the one Keras model in scope, with Keras' defaults written out (keras_training's table); with
no model or several in scope it keeps the official table's finding. MS260: `@tf.function` is removed,
so the function runs eagerly (PyNative), computing the same: `@mindspore.jit` is not written because a tf.function
takes NumPy arrays, which a jit function passes to its ops as values they reject (seen in mindspore 2.10), and
graph mode rejects or runs only once the Python side effects (a Keras metric's update, print) the message names.
MS262: a model of this file called with `training=` → `model.set_train(mode)(inputs)` (its construct has no
`training` argument).
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, CALL, FUNCTION_DEFINITION, LOOP, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import keras_roots
from ascend_migrate.analysis.rules.keras_training import optimizer_cell
from ascend_migrate.analysis.rules.tf_loss_order import swapped_call
from ascend_migrate.analysis.rules.tf_metrics import callee_name as _callee
from ascend_migrate.analysis.rules.training_step import read_and_assigned, why_not_movable
from ascend_migrate.analysis.symbols import KERAS_LAYER
from ascend_migrate.fixes.families.training_step import TrainingStep
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TAPE = "tensorflow.GradientTape"
FUNCTION = "tensorflow.function"
OPTIMIZER = "keras-optimizer"
LOSS = "keras-loss-object"
TRAINING_ARGUMENT = "keras-training-argument"
_TAPE_CODE, _OPTIMIZER_CODE, _FUNCTION_CODE = "MS258", "MS259", "MS260"
# Keras losses whose MindSpore Cell computes the same mean and is symmetric in its two arguments, so the call
# `loss(y_true, y_pred)` stays as written (MindSpore's order is (logits, labels)).
_SYMMETRIC_LOSSES = {"MeanSquaredError": "mindspore.nn.MSELoss()", "MeanAbsoluteError": "mindspore.nn.L1Loss()"}
_SOURCES = frozenset({"trainable_variables", "trainable_weights"})
_KERAS_MODEL = "tensorflow.keras.Model"
_OPTIMIZER_MODULES = ("tensorflow.keras.optimizers.", "tensorflow.optimizers.")
_OPTIMIZER_NAMES = frozenset({"Adam", "SGD", "RMSprop"})  # keras_training's table


def _canonical(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return context.view.aliases.canonical(qualified) if qualified else None


def _put(context: RuleContext, entry_api: str, node: ast.expr, code: str) -> int | None:
    """The index of the finding of name entry `entry_api` on `node` (made now when the walker has not reached
    the name yet; its own report of it is then a duplicate and dropped)."""
    span = context.factory.span(node)
    for index, finding in enumerate(context.findings):
        if finding.code == code and (finding.line, finding.column, finding.end_line, finding.end_column) == span:
            return index
    entry = next((entry for entry in context.view.by_name.get(entry_api, ()) if entry.code == code), None)
    if entry is None:
        return None
    before = len(context.findings)
    context.add(context.factory.finding(entry, span, "exact", api=context.qualified_name(node)))
    return before if len(context.findings) > before else None


def _explain(context: RuleContext, index: int, reason: str) -> None:
    finding = context.findings[index]
    context.findings[index] = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")


# --- MS258: the tape ----------------------------------------------------------------------------------------
class _Refused(Exception):
    pass


def on_function(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    if context.route != ROUTE_MINDSPORE:
        return
    for decorator in node.decorator_list:
        _decorator(context, node, decorator)
    arguments = node.args
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    _tapes(context, node.body, names)


def on_loop(context: RuleContext, node: ast.For | ast.AsyncFor) -> None:
    if context.route != ROUTE_MINDSPORE:
        return
    _tapes(context, node.body, read_and_assigned([ast.Assign(targets=[node.target], value=ast.Constant(None))])[1])


def _tape_call(context: RuleContext, statement: ast.stmt) -> ast.Call | None:
    if type(statement) is not ast.With:
        return None
    for item in statement.items:
        call = item.context_expr
        if type(call) is ast.Call and _canonical(context, call.func) == TAPE:
            return call
    return None


def _tapes(context: RuleContext, body: list[ast.stmt], batch: list[str]) -> None:
    for position, statement in enumerate(body):
        call = _tape_call(context, statement)
        if call is None:
            continue
        index = _put(context, TAPE, call.func, _TAPE_CODE)
        if index is None or context.findings[index].fix is not None:
            continue
        try:
            fix = _tape_fix(context, body, position, call, batch)
        except _Refused as error:
            _explain(context, index, str(error))
            continue
        context.findings[index] = dataclasses.replace(context.findings[index], fix=fix)


def _uses(name: str, nodes: list[ast.stmt]) -> ast.Name | None:
    return next((inner for node in nodes for inner in ast.walk(node) if type(inner) is ast.Name and inner.id == name), None)


def _tape_fix(context: RuleContext, body: list[ast.stmt], position: int, call: ast.Call, batch: list[str]) -> Fix:
    factory = context.factory
    block = body[position]
    assert type(block) is ast.With
    if len(block.items) != 1 or type(block.items[0].optional_vars) is not ast.Name:
        raise _Refused("the `with` does not bind the tape alone (`with tf.GradientTape() as tape:`)")
    if call.args or call.keywords:
        raise _Refused(f"the tape is made with arguments ({ast.unparse(call)[ast.unparse(call).index('(') + 1:-1]}): a persistent "
                       "tape or one that does not watch the variables has no counterpart in value_and_grad, which "
                       "differentiates once with respect to the weights it is given")
    tape = block.items[0].optional_vars.id
    header_line = factory.span(block)[0]
    if factory.span(block.body[0])[0] == header_line:
        raise _Refused("the tape's block is on its `with` line")
    inside = _uses(tape, block.body)
    if inside is not None:
        raise _Refused(f"line {factory.span(inside)[0]} uses the tape inside its block (watch, stop_recording): value_and_grad "
                       "differentiates with respect to the weights it is given, nothing else")
    reason = why_not_movable(block.body)
    if reason is not None:
        raise _Refused(reason.replace("forward pass", "tape's block"))
    gradient = body[position + 1] if position + 1 < len(body) else None
    target = gradient.targets[0] if type(gradient) is ast.Assign and len(gradient.targets) == 1 else None
    value = gradient.value if type(gradient) is ast.Assign else None
    if not (type(target) is ast.Name and type(value) is ast.Call and type(value.func) is ast.Attribute and value.func.attr == "gradient"
            and type(value.func.value) is ast.Name and value.func.value.id == tape and len(value.args) == 2 and not value.keywords):
        raise _Refused("the statement after the tape's block is not `grads = tape.gradient(loss, model.trainable_variables)`")
    assert gradient is not None and type(target) is ast.Name and type(value) is ast.Call
    loss, sources = value.args
    read_first, assigned = read_and_assigned(block.body)
    if type(loss) is not ast.Name or loss.id not in assigned:
        raise _Refused(f"the target `{ast.unparse(loss)}` is not one variable computed in the tape's block (several targets "
                       "are one summed loss in value_and_grad: compute it in the block)")
    if not (type(sources) is ast.Attribute and sources.attr in _SOURCES):
        raise _Refused(f"the sources `{ast.unparse(sources)}` are not a model's trainable_variables")
    later = body[position + 2:]
    grads = target.id
    apply_index, optimizer = _apply(later, grads, ast.unparse(sources))
    again = _uses(tape, later)
    if again is not None:
        raise _Refused(f"line {factory.span(again)[0]} uses the tape again after gradient() (a persistent tape or several targets)")
    between = _uses(grads, later[:apply_index])
    if between is not None:
        raise _Refused(f"line {factory.span(between)[0]} changes or reads the grads before apply_gradients (clip or scale them "
                       "in MindSpore on the grads value_and_grad returns)")
    batch_names = set(batch) | set(read_and_assigned(body[:position])[1])
    inputs = tuple(name for name in read_first if name in assigned or name in batch_names)
    function = "forward_fn"
    while context.lookup(function) is not None:
        function += "_"
    _, _, last_line, last_column = factory.span(gradient)
    replacements = tuple((_one_line_text(context, inner), text) for inner in ast.walk(block)
                         if type(inner) is ast.Call and (text := _with_mode(context, inner) or swapped_call(context, inner)) is not None)
    rewrite = TrainingStep((header_line, 1, last_line, last_column), loss.id, optimizer, function, inputs=inputs,
                           outputs=tuple(name for name in assigned if name != loss.id), tape=tape, gradients=grads,
                           replacements=tuple((old, new) for old, new in replacements if old))
    line, column, end_line, end_column = factory.span(later[apply_index])
    return Fix(title=f"Differentiate a forward function with `mindspore.value_and_grad` and call `{optimizer}({grads})`",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, f"{optimizer}({grads})"),), rewrite=rewrite,
               add_imports=("import mindspore",), remove_imports=keras_roots(context, [call.func]))


def _one_line_text(context: RuleContext, node: ast.expr) -> str:
    """The source text of `node` when it is on one line, else "" (no replacement)."""
    line, column, end_line, end_column = context.factory.span(node)
    return context.factory.lines.text(line)[column - 1:end_column - 1] if line == end_line else ""


def _apply(statements: list[ast.stmt], grads: str, sources: str) -> tuple[int, str]:
    """(the index of `optimizer.apply_gradients(zip(grads, sources))` among `statements`, the optimizer's text)."""
    for index, statement in enumerate(statements):
        call = statement.value if type(statement) is ast.Expr and type(statement.value) is ast.Call else None
        if call is None or type(call.func) is not ast.Attribute or call.func.attr != "apply_gradients":
            continue
        pairs = call.args[0] if len(call.args) == 1 and not call.keywords else None
        if not (type(pairs) is ast.Call and type(pairs.func) is ast.Name and pairs.func.id == "zip" and len(pairs.args) == 2
                and type(pairs.args[0]) is ast.Name and pairs.args[0].id == grads and ast.unparse(pairs.args[1]) == sources):
            raise _Refused(f"apply_gradients is not given `zip({grads}, {sources})`")
        return index, ast.unparse(call.func.value)
    raise _Refused(f"no `optimizer.apply_gradients(zip({grads}, {sources}))` follows in the same block")


# --- MS260: tf.function -------------------------------------------------------------------------------------
def _decorator(context: RuleContext, function: ast.FunctionDef | ast.AsyncFunctionDef, decorator: ast.expr) -> None:
    called = decorator if type(decorator) is ast.Call else None
    name = called.func if called is not None else decorator
    if _canonical(context, name) != FUNCTION:
        return
    index = _put(context, FUNCTION, name, _FUNCTION_CODE)
    if index is None:
        return
    factory = context.factory
    notes: list[str] = []
    if called is not None:
        given = [keyword.arg or "**" for keyword in called.keywords] + (["positional arguments"] if called.args else [])
        unknown = [argument for argument in given if argument not in ("input_signature", "reduce_retracing", "jit_compile", "autograph")]
        if unknown:
            _explain(context, index, f"tf.function is given {', '.join(unknown)}, which this fix does not read")
            return
        if given:
            notes.append(f"MindSpore's jit has no {', '.join(given)} (dynamic input shapes: Cell.set_inputs or jit's `dynamic`)")
    side_effect = _side_effect(context, function)
    line, column, end_line, end_column = factory.span(decorator)
    # The decorator's whole line goes, with the line break before it (on line 1: from its own start).
    start = (line - 1, len(factory.lines.text(line - 1)) + 1) if line > 1 else (line, 1)
    edit = TextEdit(*start, end_line, len(factory.lines.text(end_line)) + 1, "")
    title = "Run the function eagerly (PyNative): remove @tf.function"
    if side_effect is not None:
        notes.append(f"Line {side_effect[0]} calls `{side_effect[1]}`, a Python object that graph mode rejects or runs "
                     "only while compiling")
    notes.append("The fix removes the decorator: a tf.function also takes NumPy arrays, which mindspore.jit passes as "
                 "values its ops reject (mindspore 2.10: \"Failed calling MatMulExt with input=External\"), so "
                 "@mindspore.jit is added by hand where the arguments are Tensors")
    finding = context.findings[index]
    message = " ".join([finding.message, *(note + "." for note in notes)])
    context.findings[index] = dataclasses.replace(finding, message=message, fix=Fix(
        title=title, safe=False, edits=(edit,),
        remove_imports=keras_roots(context, [name])))


def _side_effect(context: RuleContext, function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, str] | None:
    """(line, callee) of the first call in the body that is not of an imported name, else None."""
    for statement in function.body:
        for inner in ast.walk(statement):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef | ast.Global | ast.Nonlocal):
                return context.factory.span(inner)[0], "a nested definition"
            if type(inner) is ast.Call and context.qualified_name(inner.func) is None:
                return context.factory.span(inner)[0], ast.unparse(inner.func)
    return None


# --- MS259: the optimizer -----------------------------------------------------------------------------------
def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if context.route != ROUTE_MINDSPORE or len(targets) != 1 or type(targets[0]) is not ast.Name or type(value) is not ast.Call:
        return
    if _callee(value) not in _OPTIMIZER_NAMES:
        return  # resolve only what may be a Keras optimizer
    canonical = _canonical(context, value.func)
    if canonical is None or not canonical.startswith(_OPTIMIZER_MODULES):
        return
    entries = context.view.patterns.get(OPTIMIZER)
    models = context.names_of_type(_KERAS_MODEL)
    if not entries or len(models) != 1:
        return  # the official table's finding stays: it says the optimizer needs params
    try:
        built = optimizer_cell(context, value, models[0])
    except ValueError:
        return
    factory = context.factory
    span = factory.span(value.func)
    finding: Finding | None = factory.finding(entries[0], factory.span(value), "inferred", api=context.qualified_name(value.func))
    if finding is None:
        return
    line, column, end_line, end_column = factory.span(value)
    finding = dataclasses.replace(finding, fix=Fix(
        title=f"Build the optimizer on {models[0]}.trainable_params()", safe=False,
        edits=(TextEdit(line, column, end_line, end_column, built),), add_imports=("import mindspore",),
        remove_imports=keras_roots(context, [value.func])))
    _replace_official(context, span, finding)


def _replace_official(context: RuleContext, span: tuple[int, int, int, int], finding: Finding) -> None:
    """Add `finding` in place of the official table's finding on `span` (which offers no working fix)."""
    for index, found in enumerate(context.findings):
        if found.code == "MS102" and (found.line, found.column, found.end_line, found.end_column) == span:
            del context.findings[index]
            break
    context.add(finding)


def on_loss_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    """MS259 too: `loss_fn = keras.losses.MeanSquaredError()` → `mindspore.nn.MSELoss()` (a custom loop calls it)."""
    if context.route != ROUTE_MINDSPORE or len(targets) != 1 or type(value) is not ast.Call or value.args or value.keywords:
        return
    if _callee(value) not in _SYMMETRIC_LOSSES:
        return
    canonical = _canonical(context, value.func)
    name = canonical.rsplit(".", 1)[-1] if canonical and canonical.startswith(("tensorflow.keras.losses.", "tensorflow.losses.")) else None
    entries = context.view.patterns.get(LOSS)
    if name not in _SYMMETRIC_LOSSES or not entries:
        return
    factory = context.factory
    finding = factory.finding(entries[0], factory.span(value), "exact", api=context.qualified_name(value.func))
    if finding is None:
        return
    line, column, end_line, end_column = factory.span(value)
    finding = dataclasses.replace(finding, fix=Fix(
        title=f"Use {_SYMMETRIC_LOSSES[name]}", safe=False, edits=(TextEdit(line, column, end_line, end_column, _SYMMETRIC_LOSSES[name]),),
        add_imports=("import mindspore",), remove_imports=keras_roots(context, [value.func])))
    _replace_official(context, factory.span(value.func), finding)


# --- MS262: a model called with training= -------------------------------------------------------------------
def on_call(context: RuleContext, node: ast.Call) -> None:
    """`model(x, training=True)` on an instance of a Keras Layer/Model subclass of this file → `model.set_train(True)(x)`:
    its `construct` (MS202's fix) takes no `training`; set_train sets the mode Dropout and BatchNorm read and returns
    the Cell."""
    text = _with_mode(context, node)
    entries = context.view.patterns.get(TRAINING_ARGUMENT)
    if text is None or not entries:
        return
    factory = context.factory
    span = factory.span(node)
    finding = factory.finding(entries[0], span, "inferred", api=entries[0].api)
    if finding is not None:
        context.add(dataclasses.replace(finding, fix=Fix(title="Set the mode with set_train(...) and call the Cell", safe=False,
                                                          edits=(TextEdit(*span, text),))))


def _with_mode(context: RuleContext, node: ast.Call) -> str | None:
    """`model.set_train(mode)(x)` for `model(x, training=mode)` on a Keras layer/model of this file, else None."""
    func = node.func
    if type(func) is not ast.Name or not any(keyword.arg == "training" for keyword in node.keywords):
        return None
    model = context.infer(func)
    if model is None or not model.startswith("local:") or not {KERAS_LAYER, _KERAS_MODEL} & set(context.types.family(model)):
        return None
    mode = next(keyword.value for keyword in node.keywords if keyword.arg == "training")
    called = ast.Call(func=ast.Call(func=ast.Attribute(value=func, attr="set_train", ctx=ast.Load()), args=[mode], keywords=[]),
                      args=node.args, keywords=[keyword for keyword in node.keywords if keyword.arg != "training"])
    return ast.unparse(called)


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf

        class Net(tf.keras.Model):  # expect: MS201
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(2)  # expect: MS102

            def call(self, x):  # expect: MS202
                return self.dense(x)

        model = Net()
        outputs = model([[1.0, 2.0]], training=False)  # expect: MS262
        loss_object = tf.keras.losses.MeanSquaredError()  # expect: MS259
        optimizer = tf.keras.optimizers.SGD(0.1)  # expect: MS259

        @tf.function  # expect: MS260
        def train_step(x, y):
            with tf.GradientTape() as tape:  # expect: MS258
                loss = loss_object(y, model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        """, codes=("MS258", "MS259", "MS260", "MS262")),
)

RULE = Rule(name="tf_custom_loop", frameworks=TENSORFLOW, routes=frozenset({ROUTE_MINDSPORE}), hooks={FUNCTION_DEFINITION: on_function, LOOP: on_loop},
            matchers={OPTIMIZER: Matcher(ASSIGNMENT, on_assignment), LOSS: Matcher(ASSIGNMENT, on_loss_assignment),
                      TRAINING_ARGUMENT: Matcher(CALL, on_call)},
            flags=_FLAGS)
