"""The sequence layers of the Keras model rewrites (MS255: Embedding, MultiHeadAttention, LayerNormalization,
GlobalAveragePooling1D): what they write, where they refuse and say why, and that the side-by-side record
(mappings/verification/keras_layers_numeric.yaml, tools/keras_layer_check.py) is of the Cells written now.
Running a fixed model is tests/execution/test_keras_sequence_model.py."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import yaml
from tools.keras_layer_check import CASES

from ascend_migrate.analysis.rules.keras_sequence_layers import convert
from ascend_migrate.fixes import fix_all

RECORD = Path(__file__).parents[2] / "mappings" / "verification" / "keras_layers_numeric.yaml"

ENCODER = """
    import keras
    from keras import layers

    def build_classifier():
        inputs = keras.Input(shape=(16,))
        x = layers.Embedding(input_dim=1000, output_dim=32)(inputs)
        attention = layers.MultiHeadAttention(num_heads=4, key_dim={key_dim})(x, x)
        x = layers.LayerNormalization(epsilon=1e-6)(attention)
        x = layers.GlobalAveragePooling1D()(x)
        outputs = layers.Dense(2, activation="softmax")(x)
        return keras.Model(inputs=inputs, outputs=outputs)
"""


def _model_finding(scan, source: str):
    (finding,) = [finding for finding in scan(textwrap.dedent(source)).findings if finding.code == "MS255"]
    return finding


def test_an_encoder_model_gets_its_cells_with_sizes_and_the_attention_call_order(scan):
    source = textwrap.dedent(ENCODER.format(key_dim=8))
    fixed = fix_all(source, scan(source).findings, unsafe=True).text
    assert "inputs = mindspore.Tensor(inputs, mindspore.int32)" in fixed  # Embedding takes ids
    assert "mindspore.nn.Embedding(1000, 32, embedding_table=mindspore.common.initializer.Uniform(0.05))" in fixed
    assert "mindspore.nn.MultiheadAttention(32, 4, has_bias=True, batch_first=True)" in fixed
    # Keras calls (query, value); MindSpore takes (query, key, value) and returns (output, weights)
    assert "attention = self.multi_head_attention(x, x, x, need_weights=False)[0]" in fixed
    assert "mindspore.nn.LayerNorm((32,), epsilon=1e-06)" in fixed
    assert "x = mindspore.ops.mean(x, 1)" in fixed
    assert "mindspore.nn.Dense(32, 2, has_bias=True)" in fixed
    assert "import keras" not in fixed and "layers." not in fixed
    ast.parse(fixed)


def test_attention_whose_heads_do_not_split_the_query_size_has_no_fix_and_says_why(scan):
    finding = _model_finding(scan, ENCODER.format(key_dim=32))
    assert finding.fix is None
    assert "line 8, layers.MultiHeadAttention: num_heads * key_dim = 128 is not the query's size 32" in finding.message


def test_a_masking_embedding_has_no_fix_and_says_why(scan):
    finding = _model_finding(scan, ENCODER.format(key_dim=8).replace("output_dim=32)", "output_dim=32, mask_zero=True)"))
    assert finding.fix is None
    assert "mask_zero=True" in finding.message


def test_layer_normalization_writes_keras_epsilon_when_the_code_gives_none():
    call = ast.parse("layers.LayerNormalization()", mode="eval").body
    assert isinstance(call, ast.Call)
    assert convert("LayerNormalization", call, ((5, 8),), False).cell == "mindspore.nn.LayerNorm((8,), epsilon=0.001)"


def test_the_side_by_side_record_is_of_the_cells_written_now_and_all_agree():
    record = yaml.safe_load(RECORD.read_text(encoding="utf-8"))["layers"]
    assert [(row["keras"], tuple(tuple(shape) for shape in row["inputs"])) for row in record] == [(source, shapes) for source, shapes, _ in CASES]
    for row in record:
        call = ast.parse(row["keras"], mode="eval").body
        assert isinstance(call, ast.Call)
        name = ast.unparse(call.func).rsplit(".", 1)[-1]
        shapes = tuple(tuple(shape[1:]) for shape in row["inputs"])
        assert convert(name, call, shapes, False).cell == row["mindspore"], "re-run tools/keras_layer_check.py"
        assert row["result"] == "agree", row
