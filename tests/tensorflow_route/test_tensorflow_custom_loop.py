"""The custom-loop fixes (MS258 GradientTape step, MS259 optimizer and loss object, MS260 tf.function): what they
write, and where they refuse and say why. Running what they write is tests/execution/test_tensorflow_route.py
(tf_custom_loop)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.fixes import fix_all

HEAD = """
import tensorflow as tf
from tensorflow import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.w = self.add_weight(shape=(4, 1), initializer="zeros")

    def call(self, inputs):
        return tf.matmul(inputs, self.w)


model = Net()
loss_fn = keras.losses.MeanSquaredError()
optimizer = keras.optimizers.Adam()
"""

STEP = """
@tf.function
def train_step(features, targets):
  with tf.GradientTape() as tape:
    predictions = model(features)
    loss = loss_fn(targets, predictions)
  gradients = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  return loss
"""


def _fixed(scan, source: str) -> str:
    source = textwrap.dedent(source)
    return fix_all(source, scan(source).findings, unsafe=True).text


def _finding(scan, source: str, code: str):
    (finding,) = [finding for finding in scan(source).findings if finding.code == code]
    return finding


def test_a_tape_step_becomes_value_and_grad_with_the_files_own_indentation(scan):
    fixed = _fixed(scan, HEAD + STEP)
    ast.parse(fixed)  # two-space blocks stay two-space: the function replaces the `with` at its depth
    assert textwrap.dedent("""
        def train_step(features, targets):
          def forward_fn(features, targets):
            predictions = model(features)
            loss = loss_fn(targets, predictions)
            return loss, (predictions,)
          (loss, (predictions,)), gradients = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)(features, targets)
          optimizer(gradients)
          return loss
        """) in fixed
    assert "optimizer = mindspore.nn.Adam(model.trainable_params(), learning_rate=0.001, eps=1e-07)" in fixed
    assert "loss_fn = mindspore.nn.MSELoss()" in fixed
    assert "tf." not in fixed and "keras" not in fixed  # every TensorFlow name had a fix: the imports went


def test_a_tape_step_in_a_loop_body_is_rewritten_too(scan):
    fixed = _fixed(scan, HEAD + """
for features, targets in [(1, 2)]:
    with tf.GradientTape() as tape:
        loss = loss_fn(targets, model(features))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
""")
    # the batch goes in as the forward function's arguments, in the order the block reads them
    assert "loss, grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters)(targets, features)" in fixed
    assert "    optimizer(grads)" in fixed


@pytest.mark.parametrize(("change", "reason"), [
    (("tf.GradientTape()", "tf.GradientTape(persistent=True)"), "the tape is made with arguments (persistent=True)"),
    (("    predictions = model(features)", "    tape.watch(features)\n    predictions = model(features)"),
     "line 22 uses the tape inside its block"),
    (("  optimizer.apply_gradients", "  gradients, _ = tf.clip_by_global_norm(gradients, 1.0)\n  optimizer.apply_gradients"),
     "line 25 changes or reads the grads before apply_gradients"),
    (("tape.gradient(loss, model.trainable_variables)", "tape.gradient([loss, predictions], model.trainable_variables)"),
     "the target `[loss, predictions]` is not one variable computed in the tape's block"),
    (("zip(gradients, model.trainable_variables)", "zip(gradients, other.trainable_variables)"),
     "apply_gradients is not given `zip(gradients, model.trainable_variables)`"),
    (("  optimizer.apply_gradients(zip(gradients, model.trainable_variables))\n", ""),
     "no `optimizer.apply_gradients(zip(gradients, model.trainable_variables))` follows in the same block"),
])
def test_a_tape_the_fix_does_not_understand_keeps_its_finding_and_says_why(scan, change, reason):
    finding = _finding(scan, HEAD + STEP.replace(*change), "MS258")
    assert finding.fix is None
    assert f"Not rewritten automatically: {reason}" in finding.message


def test_tf_function_is_removed_and_the_message_names_the_python_call(scan):
    finding = _finding(scan, HEAD + STEP, "MS260")
    assert "Line 22 calls `model`" in finding.message and "NumPy arrays" in finding.message
    fixed = _fixed(scan, HEAD + STEP)
    assert "@tf.function" not in fixed and "@mindspore" not in fixed and "\ndef train_step(features, targets):" in fixed


def test_tf_function_with_arguments_this_fix_does_not_read_keeps_the_finding(scan):
    finding = _finding(scan, HEAD + STEP.replace("@tf.function", "@tf.function(experimental_follow_type_hints=True)"), "MS260")
    assert finding.fix is None and "experimental_follow_type_hints" in finding.message
    noted = _finding(scan, HEAD + STEP.replace("@tf.function", "@tf.function(reduce_retracing=True)"), "MS260")
    assert noted.fix is not None and "MindSpore's jit has no reduce_retracing" in noted.message


def test_an_optimizer_without_one_model_in_scope_keeps_the_official_finding(scan):
    findings = scan("""
        from tensorflow import keras
        optimizer = keras.optimizers.Adam()
    """).findings
    assert [finding.code for finding in findings] == ["MS102"] and findings[0].fix is None


def test_a_cross_entropy_loss_object_on_probabilities_is_not_rewritten(scan):
    # No MindSpore Cell takes probabilities (from logits: tests/tensorflow_route/test_tensorflow_quickstart_fixes.py).
    findings = scan("""
        from tensorflow import keras
        loss_fn = keras.losses.SparseCategoricalCrossentropy()
    """).findings
    assert [finding.code for finding in findings] == ["MS102"] and findings[0].fix is None


METRICS = """
import tensorflow as tf

train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

def record(loss, labels, predictions):
    train_loss(loss)
    train_accuracy.update_state(labels, predictions)
    return train_loss.result(), train_accuracy.result()

train_loss.reset_state()
train_accuracy.reset_states()
"""


def test_keras_metrics_become_mindspore_train_metrics_found_in_any_function(scan):
    fixed = _fixed(scan, METRICS)
    for line in ("train_loss = mindspore.train.Loss()", "train_accuracy = mindspore.train.Accuracy()",
                 "    train_loss.update(loss)", "    train_accuracy.update(predictions, labels)",  # Accuracy: predictions first
                 "    return train_loss.eval(), train_accuracy.eval()", "train_loss.clear()", "train_accuracy.clear()"):
        assert line in fixed.splitlines(), line
    assert "set_train" not in fixed  # a metric's eval() is its value, not a module's inference mode (MS203)
    assert "tf." not in fixed


@pytest.mark.parametrize(("change", "reason"), [
    (('Mean(name="train_loss")', 'Mean(name="train_loss", dtype="float64")'), "has arguments other than name="),
    (("train_loss(loss)", "train_loss(loss, sample_weight=weights)"), "sample_weight has no counterpart"),
])
def test_a_metric_use_the_fix_does_not_know_keeps_its_finding_and_says_why(scan, change, reason):
    findings = [finding for finding in scan(METRICS.replace(*change)).findings if finding.code == "MS261" and finding.fix is None]
    assert len(findings) == 1 and reason in findings[0].message


def test_calls_of_other_objects_named_like_metric_methods_are_left_alone(scan):
    findings = scan("""
        import tensorflow as tf
        def report(history, tracker):
            tracker.reset_state()
            return history.result()
    """).findings
    assert [finding for finding in findings if finding.code == "MS261"] == []


def test_a_model_of_this_file_called_with_training_sets_its_mode_first(scan):
    fixed = _fixed(scan, HEAD + """
outputs = model([[1.0, 2.0, 3.0, 4.0]], training=False)
other = print([1], training=False) if False else None
""")
    assert "outputs = model.set_train(False)([[1.0, 2.0, 3.0, 4.0]])" in fixed.splitlines()
    assert "other = print([1], training=False) if False else None" in fixed.splitlines()  # not a Keras model: left alone


def test_a_training_argument_inside_the_tape_is_rewritten_in_the_moved_lines(scan):
    # the two fixes overlap (the tape's block moves into the forward function): the tape's carries the other's edit
    fixed = _fixed(scan, HEAD + STEP.replace("model(features)", "model(features, training=True)"))
    assert "    predictions = model.set_train(True)(features)" in fixed.splitlines()
    assert "training=" not in fixed


def test_an_optimizer_and_loss_imported_by_name_are_rewritten_too(scan):
    fixed = _fixed(scan, HEAD.replace("from tensorflow import keras", "from tensorflow import keras\nfrom tensorflow.keras.optimizers import SGD")
                   .replace("keras.optimizers.Adam()", "SGD(0.1)"))
    assert "optimizer = mindspore.nn.SGD(model.trainable_params(), learning_rate=0.1)" in fixed.splitlines()
