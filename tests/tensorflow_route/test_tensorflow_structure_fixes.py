"""The Keras structure fixes (MS255 model → Cell, MS256 compile/fit/evaluate): what they write, and where they
refuse and say why (no broken fix). Running what they write is tests/execution/test_tensorflow_route.py."""

from __future__ import annotations

import ast
import textwrap

from ascend_migrate.fixes import fix_all


def _fixed(scan, source: str) -> str:
    source = textwrap.dedent(source)
    return fix_all(source, scan(source).findings, unsafe=True).text


def _finding(scan, source: str, code: str):
    (finding,) = [finding for finding in scan(source).findings if finding.code == code]
    return finding


SEQUENTIAL = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras import layers

    input_shape = (28, 28, 1)
    model = keras.Sequential(
        [
            keras.Input(shape=input_shape),
            layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Conv2D(64, kernel_size=3, strides=2, padding="same"),
            layers.Flatten(),
            layers.Dense(10, activation="softmax"),
        ]
    )
"""


def test_a_size_held_in_a_variable_is_computed_as_keras_computes_it(scan):
    fixed = _fixed(scan, SEQUENTIAL)
    dense = next(line for line in fixed.splitlines() if "nn.Dense(" in line)
    size = ast.parse(dense.split("nn.Dense(", 1)[1].split(", 10,")[0], mode="eval")
    # 28 → conv 3 valid: 26 → pool 2: 13 → conv 3 stride 2 same: 7; 7 * 7 * 64 = 3136 (what Keras builds)
    assert eval(compile(size, "dense", "eval"), {"input_shape": (28, 28, 1)}) == 3136
    assert eval(compile(size, "dense", "eval"), {"input_shape": (32, 32, 1)}) == 8 * 8 * 64
    assert "mindspore.nn.Conv2d(input_shape[-1], 32, (3, 3), stride=1, pad_mode='valid', has_bias=True)" in fixed
    assert "x = mindspore.Tensor(x, mindspore.float32)" in fixed and "x = mindspore.ops.transpose(x, (0, 3, 1, 2))" in fixed
    assert "from tensorflow" not in fixed  # the imports went with their last use


def test_a_sequential_without_an_input_shape_says_what_to_fill_in(scan):
    finding = _finding(scan, """
        from tensorflow import keras
        from tensorflow.keras import layers
        model = keras.Sequential([layers.Dense(8), layers.Dense(2)])
    """, "MS255")
    assert finding.fix is None
    assert "keras.Input(shape=...)" in finding.message


def test_a_layer_without_a_conversion_names_itself_and_its_line(scan):
    finding = _finding(scan, """
        import tensorflow as tf
        from tensorflow.keras import layers

        def build():
            inputs = tf.keras.Input(shape=(10, 8))
            x = layers.LSTM(16)(inputs)
            outputs = layers.Dense(2)(x)
            return tf.keras.Model(inputs, outputs)
    """, "MS255")
    assert finding.fix is None
    assert "line 7, layers.LSTM" in finding.message


def test_other_code_between_the_layers_is_not_rewritten(scan):
    finding = _finding(scan, """
        import tensorflow as tf
        from tensorflow.keras import layers

        def build():
            inputs = tf.keras.Input(shape=(8,))
            x = layers.Dense(4)(inputs)
            x = x * 2
            outputs = layers.Dense(2)(x)
            return tf.keras.Model(inputs, outputs)
    """, "MS255")
    assert finding.fix is None
    assert "line 8" in finding.message


TRAINING = """
    import tensorflow as tf

    def train(model, x, y):
        model.compile(optimizer=tf.keras.optimizers.SGD(momentum=0.9), loss="mse")
        model.fit(x, y, epochs=3)
        loss = model.evaluate(x, y)
"""


def test_compile_fit_and_evaluate_become_the_trainer_with_keras_defaults(scan):
    fixed = _fixed(scan, TRAINING)
    assert ("model_trainer = mindspore.train.Model(model, loss_fn=mindspore.nn.MSELoss(), optimizer=mindspore.nn.SGD("
            "model.trainable_params(), learning_rate=0.01, momentum=0.9), metrics={\"loss\": mindspore.train.Loss()})") in fixed
    assert "model_trainer.fit(3, mindspore.dataset.NumpySlicesDataset((x, y), column_names=[\"data\", \"label\"], shuffle=True).batch(32))" in fixed
    assert "loss = loss if len(loss) > 1 else loss[0]" in fixed
    assert "tensorflow" not in fixed


def test_an_optimizer_or_loss_without_a_conversion_keeps_the_finding_with_its_reason(scan):
    finding = _finding(scan, """
        import tensorflow as tf
        model.compile(optimizer=tf.keras.optimizers.Adagrad(), loss="mse")
    """, "MS256")
    assert finding.fix is None
    assert "Adagrad" in finding.message and "Adam, SGD" in finding.message


def test_a_fit_whose_history_is_kept_records_it_with_a_history_callback_and_validates_on_validation_data(scan):
    source = """
        import keras

        def train(model, x, y, x_val, y_val):
            history = model.fit(x, y, batch_size=16, epochs=2, validation_data=(x_val, y_val))
            return history
    """
    fixed = _fixed(scan, source)
    assert "\n    history = mindspore.train.History()  # Keras' History" in fixed
    assert ("\n    model_trainer.fit(2, mindspore.dataset.NumpySlicesDataset((x, y), column_names=[\"data\", \"label\"], shuffle=True)"
            ".batch(16), valid_dataset=mindspore.dataset.NumpySlicesDataset((x_val, y_val), column_names=[\"data\", \"label\"], "
            "shuffle=False).batch(16), callbacks=[history])\n") in fixed
    ast.parse(fixed)


def test_a_fit_used_inside_an_expression_or_with_validation_data_it_cannot_read_has_no_fix_and_says_why(scan):
    cases = {
        "print(model.fit(x, y, epochs=2).history)": "used inside an expression",
        "model.fit(x, y, epochs=2, validation_data=validation)": "validation_data is not an (x, y) tuple",
        "model.fit(x, y, epochs=2, validation_split=0.1, validation_data=(a, b))": "comes with validation_split",
        "model.fit(dataset, epochs=2, validation_data=(a, b))": "validation_data is not an (x, y) tuple",
    }
    for line, reason in cases.items():
        finding = _finding(scan, f"import keras\n{line}\n", "MS256")
        assert finding.fix is None and reason in finding.message, (line, finding.message)


def test_compile_and_fit_of_other_libraries_are_left_alone(scan):
    findings = scan("""
        import re
        import torch
        from sklearn.linear_model import LinearRegression
        pattern = re.compile("a+")
        net = torch.compile(model)
        LinearRegression().fit(x, y)
    """).findings
    assert [finding for finding in findings if finding.code in ("MS255", "MS256")] == []


def test_a_layer_subclass_becomes_a_cell_with_its_weights_and_training_flag(scan):
    fixed = _fixed(scan, """
        import tensorflow as tf
        from tensorflow import keras

        class Scale(keras.layers.Layer):
            def __init__(self, size, **kwargs):
                super(Scale, self).__init__(**kwargs)
                self.scale = self.add_weight(shape=(size,), initializer="ones", trainable=False)

            def call(self, inputs, training=None):
                return inputs * self.scale if training else inputs
    """)
    assert "class Scale(mindspore.nn.Cell):" in fixed
    assert "        super().__init__()\n" in fixed
    assert ("self.scale = mindspore.Parameter(mindspore.common.initializer.initializer('ones', (size,), mindspore.float32), "
            "requires_grad=False)") in fixed
    assert "    def construct(self, inputs):\n        return inputs * self.scale if self.training else inputs" in fixed


def test_a_layer_with_build_keeps_its_finding_and_says_why(scan):
    findings = scan("""
        from tensorflow import keras

        class Lazy(keras.layers.Layer):
            def build(self, input_shape):
                self.w = self.add_weight(shape=(input_shape[-1], 4))

            def call(self, inputs):
                return inputs @ self.w
    """).findings
    (finding,) = [finding for finding in findings if finding.code == "MS201" and finding.line == 4]  # the base's
    assert finding.fix is None
    assert "build()" in finding.message


def test_a_tf_data_pair_becomes_a_numpy_slices_dataset_and_a_variable_is_left_with_its_reason(scan):
    source = """
        import tensorflow as tf
        train = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(100).batch(32)
        other = tf.data.Dataset.from_tensor_slices(pairs)
    """
    fixed = _fixed(scan, source)
    assert ('train = mindspore.dataset.NumpySlicesDataset((images, labels), column_names=["data", "label"], shuffle=False)'
            ".shuffle(100).batch(32)") in fixed
    (left,) = [finding for finding in scan(source).findings if finding.code == "MS257" and finding.fix is None]
    assert left.line == 4 and "(inputs, labels) pair" in left.message
