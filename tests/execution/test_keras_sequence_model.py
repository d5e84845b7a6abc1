"""A Keras text classifier of the sequence layers (Embedding, self-attention MultiHeadAttention, LayerNormalization,
GlobalAveragePooling1D, Dense) as a functional model, with compile/fit, and a token-and-position embedding layer
(keras-io's shape: Embeddings built in __init__, keras.ops.shape/arange in call) and a feed-forward block (a
Sequential of Dense layers, LayerNormalization and Dropout built in __init__, sized from its constructor's
arguments) applied to a tensor: fixed with `fix --write --unsafe --target
mindspore` in both eras and run with the real mindspore 2.10 on CPU, where no TensorFlow is installed. It proves the
MS255 sequence-layer conversions (docs/fixes.md); their numbers are checked layer by layer against Keras by
tools/keras_layer_check.py. Needs mindspore (CI stage 38-execution); skips cleanly without it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mindspore") is None, reason="needs mindspore 2.10 (CI stage 38-execution)")

PROGRAM = textwrap.dedent('''
    import numpy as np
    import keras
    from keras import layers, ops


    class TokenAndPositionEmbedding(layers.Layer):
        def __init__(self, maxlen, vocab_size, embed_dim):
            super().__init__()
            self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
            self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

        def call(self, x):
            maxlen = ops.shape(x)[-1]
            positions = ops.arange(start=0, stop=maxlen, step=1)
            return self.token_emb(x) + self.pos_emb(positions)


    class FeedForwardBlock(layers.Layer):
        """The feed-forward half of the TransformerBlock of Keras-io: its sub-layers take their sizes from embed_dim,
        which the residual add ties to the input of call()."""

        def __init__(self, embed_dim, ff_dim, rate=0.1):
            super().__init__()
            self.ffn = keras.Sequential([layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)])
            self.layernorm = layers.LayerNormalization(epsilon=1e-6)
            self.dropout = layers.Dropout(rate)

        def call(self, inputs):
            ffn_output = self.ffn(inputs)
            ffn_output = self.dropout(ffn_output)
            return self.layernorm(inputs + ffn_output)


    def build_classifier(maxlen, vocab_size):
        inputs = keras.Input(shape=(maxlen,))
        x = layers.Embedding(input_dim=vocab_size, output_dim=32)(inputs)
        attention = layers.MultiHeadAttention(num_heads=4, key_dim=8, dropout=0.1)(x, x)
        x = layers.LayerNormalization(epsilon=1e-6)(attention)
        x = layers.GlobalAveragePooling1D()(x)
        x = layers.Dropout(0.1)(x)
        outputs = layers.Dense(2, activation="softmax")(x)
        return keras.Model(inputs=inputs, outputs=outputs)


    model = build_classifier(16, 1000)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    rng = np.random.default_rng(0)
    x_train, y_train = rng.integers(1, 1000, size=(64, 16)), rng.integers(0, 2, size=(64,))
    model.fit(x_train, y_train, batch_size=32, epochs=1)
    probabilities = model(x_train[:4])
    print("trained and predicted", tuple(probabilities.shape))
    embedded = TokenAndPositionEmbedding(16, 1000, 32)(ops.convert_to_tensor(x_train[:4]))
    print("embedded", tuple(embedded.shape))
    print("fed forward", tuple(FeedForwardBlock(32, 64)(embedded).shape))
''')


# The classifier written as top-level statements (keras-io's style): the MS255 module-level rewrite.
MODULE_PROGRAM = textwrap.dedent('''
    import numpy as np
    import keras
    from keras import layers

    maxlen, vocab_size = 16, 1000
    inputs = layers.Input(shape=(maxlen,))
    x = layers.Embedding(input_dim=vocab_size, output_dim=32)(inputs)
    attention = layers.MultiHeadAttention(num_heads=4, key_dim=8)(x, x)
    x = layers.LayerNormalization(epsilon=1e-6)(attention)
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)

    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    rng = np.random.default_rng(0)
    x_train, y_train = rng.integers(1, vocab_size, size=(64, maxlen)), rng.integers(0, 2, size=(64,))
    model.fit(x_train, y_train, batch_size=32, epochs=1)
    print("trained and predicted", tuple(model(x_train[:4]).shape))
''')


# num_heads * key_dim (128) is not the width (32): the fix writes Keras' attention as a Cell into the program
# (fixes/templates/keras_attention.py, checked against Keras by tools/keras_layer_check.py), trained here by fit.
ATTENTION_CELL_PROGRAM = MODULE_PROGRAM.replace("key_dim=8", "key_dim=32")
assert ATTENTION_CELL_PROGRAM != MODULE_PROGRAM


@pytest.mark.parametrize("era", ["2.4", "2.10"], ids=["ops-nn", "mint"])
@pytest.mark.parametrize("program", [PROGRAM, MODULE_PROGRAM, ATTENTION_CELL_PROGRAM],
                         ids=["in-a-function", "at-module-level", "attention-cell-at-module-level"])
def test_the_fixed_classifier_trains_and_predicts_on_mindspore(program: str, era: str, tmp_path) -> None:
    script = tmp_path / "classifier.py"
    script.write_text(program, encoding="utf-8")
    fixed = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "mindspore",
                            "--mindspore-version", era, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert fixed.returncode in (0, 1) and "Traceback" not in fixed.stderr, fixed.stderr
    text = script.read_text(encoding="utf-8")
    assert "keras" not in text.replace("Keras", ""), text  # every Keras line was rewritten (comments name Keras)
    run = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, "\n".join((run.stdout + run.stderr).splitlines()[-25:])
    assert "trained and predicted (4, 2)" in run.stdout
    if program is ATTENTION_CELL_PROGRAM:
        assert "KerasMultiHeadAttention(32, 32, 32, num_heads=4, key_dim=32)" in text
    if "TokenAndPositionEmbedding" in program:
        assert "embedded (4, 16, 32)" in run.stdout
        assert "fed forward (4, 16, 32)" in run.stdout  # the block's Dense/LayerNorm sizes from embed_dim and ff_dim
