"""The fixes the TensorFlow quickstart for experts needs (issue 21): a printed `tf.__version__` (MS267), `tf.newaxis`
(MS268) and a cross-entropy loss object on logits called as loss(labels, logits) (MS269): what they write, and where
they write nothing and say why. Running the fixed quickstart is tests/execution/test_tensorflow_route.py
(tf_quickstart_advanced)."""

from __future__ import annotations

import re
import textwrap

import pytest

from ascend_migrate.fixes import fix_all


def _fixed(scan, source: str) -> str:
    source = textwrap.dedent(source)
    return fix_all(source, scan(source).findings, unsafe=True).text


def _codes(scan, source: str, code: str):
    return [finding for finding in scan(source).findings if finding.code == code]


def test_a_printed_version_becomes_mindsporess_and_so_does_the_label(scan):
    fixed = _fixed(scan, """
        import tensorflow as tf
        print("TensorFlow version:", tf.__version__)
        print('Made with TensorFlow', tf.__version__, 'on CPU')
    """)
    assert 'print("MindSpore version:", mindspore.__version__)' in fixed
    assert "print('Made with MindSpore', mindspore.__version__, 'on CPU')" in fixed
    assert "tensorflow" not in fixed and "import mindspore" in fixed


def test_a_version_that_is_checked_keeps_its_finding_and_says_why(scan):
    source = """
        import tensorflow as tf
        if tf.__version__.startswith("2."):
            print("TensorFlow 2")
        major = int(tf.__version__.split(".")[0])
    """
    findings = _codes(scan, source, "MS267")
    assert [finding.line for finding in findings] == [3, 5]
    assert all(finding.fix is None and "rewrite or remove the check by hand" in finding.message for finding in findings)
    assert _fixed(scan, source) == textwrap.dedent(source)


def test_prints_of_other_versions_and_text_are_left_alone(scan):
    source = """
        import numpy as np
        import tensorflow as tf
        print("NumPy version:", np.__version__)
        print("TensorFlow is imported")
    """
    assert _codes(scan, source, "MS267") == []


def test_newaxis_becomes_none_and_the_fixed_index_runs_with_numpy(scan):
    fixed = _fixed(scan, """
        import numpy as np
        import tensorflow as tf
        images = np.zeros((4, 28, 28))
        images = images[..., tf.newaxis].astype("float32")
        column = np.arange(3)[:, tf.newaxis]
    """)
    assert "tensorflow" not in fixed and "images[..., None]" in fixed
    numpy = pytest.importorskip("numpy")  # the text checks above run without it
    namespace: dict = {}
    exec(compile(fixed, "fixed.py", "exec"), namespace)  # what the fix wrote, run
    assert namespace["images"].shape == (4, 28, 28, 1) and namespace["images"].dtype == numpy.float32
    assert namespace["column"].shape == (3, 1)


def test_numpy_newaxis_is_left_alone(scan):
    assert _codes(scan, """
        import numpy as np
        import tensorflow as tf
        x = np.zeros(3)[:, np.newaxis]
    """, "MS268") == []


LOSS = """
import tensorflow as tf

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam()


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.d(x)


model = Net()


def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))


def test_step(images, labels):
    return loss_object(y_true=labels, y_pred=model(images))
"""


def test_a_loss_object_on_logits_is_kept_and_its_calls_take_logits_first(scan):
    fixed = _fixed(scan, LOSS)
    assert 'loss_object = mindspore.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")' in fixed
    assert "loss = loss_object(predictions, labels)" in fixed  # inside the moved tape block too
    assert "return loss_object(model(images), labels)" in fixed
    assert fixed.count("loss_object(") == 2  # the two calls, each once


@pytest.mark.parametrize(("keras", "mindspore"), [
    ('CategoricalCrossentropy(from_logits=True, reduction="sum")', 'SoftmaxCrossEntropyWithLogits(sparse=False, reduction="sum")'),
    ('SparseCategoricalCrossentropy(from_logits=True, reduction="none", name="ce")', 'SoftmaxCrossEntropyWithLogits(sparse=True, reduction="none")'),
])
def test_reductions_and_the_categorical_loss(scan, keras, mindspore):
    fixed = _fixed(scan, f"""
        from tensorflow import keras
        loss_fn = keras.losses.{keras}
        def step(labels, logits):
            return loss_fn(labels, logits)
    """)
    assert f"loss_fn = mindspore.nn.{mindspore}" in fixed and "return loss_fn(logits, labels)" in fixed


@pytest.mark.parametrize(("constructed", "called", "reason"), [
    ("SparseCategoricalCrossentropy(from_logits=True, ignore_class=0)", "loss_fn(labels, logits)", "argument ignore_class has no counterpart"),
    ("SparseCategoricalCrossentropy(from_logits=True, reduction=mode)", "loss_fn(labels, logits)", "reduction=mode is not one of"),
])
def test_a_loss_object_the_fix_cannot_build_keeps_its_calls_as_written(scan, constructed, called, reason):
    source = f"""
        from tensorflow import keras
        mode = "sum"
        loss_fn = keras.losses.{constructed}
        def step(labels, logits):
            return {called}
    """
    (finding,) = _codes(scan, source, "MS269")
    assert finding.fix is None and reason in finding.message
    assert f"return {called}" in _fixed(scan, source)  # not swapped: the object stays Keras'


def test_a_call_with_a_sample_weight_keeps_its_finding_and_says_why(scan):
    source = """
        from tensorflow import keras
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        def step(labels, logits, weights):
            return loss_fn(labels, logits, sample_weight=weights)
    """
    (call,) = [finding for finding in _codes(scan, source, "MS269") if finding.line == 5]
    assert call.fix is None and "sample_weight has no counterpart" in call.message


def test_a_loss_on_probabilities_and_other_callables_are_left_alone(scan):
    source = """
        from tensorflow import keras
        loss_fn = keras.losses.SparseCategoricalCrossentropy()
        def step(labels, probabilities, other):
            return loss_fn(labels, probabilities) + other(labels, probabilities)
    """
    assert _codes(scan, source, "MS269") == []
    assert "loss_fn(labels, probabilities)" in _fixed(scan, source)


MODEL = """
import tensorflow as tf
from tensorflow.keras.layers import Dense, Flatten, Conv2D, MaxPooling2D
from tensorflow.keras import Model

class MyModel(Model):
  def __init__(self):
    super().__init__()
    self.conv1 = Conv2D(32, 3, activation='relu')
    self.pool = MaxPooling2D()
    self.conv2 = Conv2D(16, 5, strides=2, padding='same')
    self.flatten = Flatten()
    self.d1 = Dense(128, activation='relu')
    self.d2 = Dense(10)

  def call(self, x):
    return self.d2(self.d1(self.flatten(self.conv2(self.pool(self.conv1(x))))))
"""


def _cells(scan, source: str) -> dict[str, str]:
    (finding,) = _codes(scan, source, "MS270")
    return dict(re.findall(r"self\.(\w+) = (.+?)(?=; self\.|\. Put in)", finding.message))


def test_a_model_class_applying_its_layers_in_a_chain_gets_each_size_in_the_inputs_shape(scan):
    cells = _cells(scan, MODEL)
    assert cells["conv1"].startswith("mindspore.nn.SequentialCell([mindspore.nn.Conv2d(C, 32, 3, stride=1, pad_mode='valid'")
    assert cells["conv2"] == "mindspore.nn.Conv2d(32, 16, 5, stride=2, pad_mode='same', has_bias=True)"  # 32: stated
    # valid 3x3: H - 2; pool 2: // 2; same with stride 2: ceil(n / 2), written -(-n // 2)
    assert "mindspore.nn.Dense(16 * (-(-((H - 2) // 2) // 2)) * (-(-((W - 2) // 2) // 2)), 128, has_bias=True)" in cells["d1"]
    assert cells["pool"] == "mindspore.nn.MaxPool2d(kernel_size=2, stride=2, pad_mode='valid')"
    fixed = _fixed(scan, MODEL)
    assert "self.d2 = mindspore.nn.Dense(128, 10, has_bias=True)" in fixed  # its size is a stated number
    assert "self.conv1 = Conv2D(32, 3, activation='relu')" in fixed and "self.d1 = Dense(128, activation='relu')" in fixed
    (d1,) = [finding for finding in scan(MODEL).findings if finding.line == 13 and finding.code == "MS102"]  # d1
    assert d1.fix is None and "for an input of height H, width W and channels C" in d1.message


def test_the_sizes_are_those_keras_builds_from_the_data(scan):
    keras = pytest.importorskip("keras")  # tensorflow 2.21 / keras 3.15.1 (CI stage 39)
    namespace: dict = {}
    exec(compile(textwrap.dedent(MODEL), "model.py", "exec"), namespace)
    model = namespace["MyModel"]()
    model(keras.ops.zeros((2, 28, 20, 3)))  # built from the data, as the program's first call does
    numbers = {"H": 28, "W": 20, "C": 3}
    cells = _cells(scan, MODEL)
    assert set(cells) == {"conv1", "pool", "conv2", "d1"}
    in_channels = int(eval(cells["conv1"].split("Conv2d(", 1)[1].split(",", 1)[0], {}, numbers))
    assert in_channels == model.conv1.kernel.shape[2] == 3
    dense_inputs = int(eval(cells["d1"].split("Dense(", 1)[1].rsplit(", 128", 1)[0], {}, numbers))
    assert dense_inputs == model.d1.kernel.shape[0]  # 16 * 7 * 5 = 560 from Keras' own build


def test_a_class_whose_call_is_not_a_chain_gets_no_size_finding(scan):
    assert _codes(scan, MODEL.replace("return self.d2(self.d1(", "return x + self.d2(self.d1("), "MS270") == []
    assert _codes(scan, MODEL.replace("self.d1 = Dense(128, activation='relu')", "self.d1 = Dense(128, activation=act)"), "MS270") == []
