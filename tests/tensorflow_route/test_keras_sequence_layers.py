"""The sequence layers of the Keras model rewrites (MS255: Embedding, MultiHeadAttention, LayerNormalization,
GlobalAveragePooling1D), the sub-layers and keras.ops calls fixed on their own (an Embedding in a layer's __init__,
keras.ops.shape/arange/convert_to_tensor): what they write, where they refuse and say why, and that the side-by-side record
(mappings/verification/keras_layers_numeric.yaml, tools/keras_layer_check.py) is of the Cells written now.
Running a fixed model is tests/execution/test_keras_sequence_model.py."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
import yaml
from tools.keras_layer_check import CASES, FUNCTIONS

from ascend_migrate.analysis.rules.keras_layers import NotConverted
from ascend_migrate.analysis.rules.keras_sequence_layers import convert
from ascend_migrate.fixes import fix_all
from ascend_migrate.fixes.templates import class_source

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


def test_attention_whose_heads_do_not_split_the_query_size_gets_keras_attention_written_into_the_program(scan):
    source = textwrap.dedent(ENCODER.format(key_dim=32))
    fixed = fix_all(source, scan(source).findings, unsafe=True).text
    assert "mindspore.nn.MultiheadAttention" not in fixed
    assert "self.multi_head_attention = KerasMultiHeadAttention(32, 32, 32, num_heads=4, key_dim=32)" in fixed
    assert "attention = self.multi_head_attention(x, x)" in fixed  # Keras' order: (query, value)
    assert fixed.count("class KerasMultiHeadAttention(mindspore.nn.Cell):") == 1
    assert fixed.index("class KerasMultiHeadAttention") < fixed.index("def build_classifier")  # at module level, before use
    assert class_source("keras_attention", "KerasMultiHeadAttention") in fixed  # the template module's text, whole
    ast.parse(fixed)


def test_attention_in_a_nested_function_needing_the_written_class_has_no_fix_and_says_why(scan):
    finding = _model_finding(scan, """
        import keras
        from keras import layers

        def outer():
            def build_classifier():
                inputs = keras.Input(shape=(16,))
                x = layers.Embedding(input_dim=1000, output_dim=32)(inputs)
                x = layers.MultiHeadAttention(num_heads=4, key_dim=32)(x, x)
                return keras.Model(inputs=inputs, outputs=x)
            return build_classifier()
        """)
    assert finding.fix is None
    assert "KerasMultiHeadAttention written at module level" in finding.message


def test_attention_with_sizes_the_program_computes_gets_the_written_class(scan):
    call = ast.parse("layers.MultiHeadAttention(num_heads=heads, key_dim=width // heads, dropout=rate)", mode="eval").body
    assert isinstance(call, ast.Call)
    converted = convert("MultiHeadAttention", call, ((16, "width"), (16, "width")), False)
    # heads * key_dim may equal the width, but the code does not say so: Keras' computation, whatever the numbers
    assert converted.cell == "KerasMultiHeadAttention(width, width, width, num_heads=heads, key_dim=width // heads, dropout=rate)"
    assert converted.applied == "{cell}({0}, {1})"


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


def test_the_record_of_the_keras_ops_calls_is_of_the_fixes_written_now(scan):
    record = yaml.safe_load(RECORD.read_text(encoding="utf-8"))["functions"]
    assert [row["keras"] for row in record] == [source for source, _, _ in FUNCTIONS]
    for row in record:
        program = f"import keras\nresult = {row['keras']}\n"
        fixed = fix_all(program, scan(program).findings, unsafe=True).text
        assert f"result = {row['mindspore']}\n" in fixed, "re-run tools/keras_layer_check.py"
        assert row["result"] == "agree", row


LAYER = """
    import numpy as np
    from keras import layers, ops

    class TokenAndPositionEmbedding(layers.Layer):
        def __init__(self, maxlen, vocab_size, embed_dim):
            super().__init__()
            self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
            self.pos_emb = layers.Embedding(maxlen, embed_dim, mask_zero=True)

        def call(self, x):
            positions = ops.arange(start=0, stop=ops.shape(x)[-1], step=1)
            return self.token_emb(x) + self.pos_emb(positions)

    embedded = TokenAndPositionEmbedding(16, 1000, 32)(ops.convert_to_tensor(np.ones((2, 16)), dtype="int32"))
"""


def test_sub_layers_and_keras_ops_are_fixed_where_their_sizes_are_in_the_code_and_say_why_elsewhere(scan):
    source = textwrap.dedent(LAYER)
    findings = scan(source).findings
    fixed = fix_all(source, findings, unsafe=True).text
    assert "self.token_emb = mindspore.nn.Embedding(vocab_size, embed_dim, embedding_table=mindspore.common.initializer.Uniform(0.05))" in fixed
    assert "positions = mindspore.ops.arange(start=0, end=mindspore.ops.shape(x)[-1], step=1)" in fixed
    masked = next(finding for finding in findings if finding.line == 9)
    assert masked.fix is None and "mask_zero=True" in masked.message
    converted = next(finding for finding in findings if finding.line == 15 and finding.api.endswith("convert_to_tensor"))
    assert converted.fix is None and "dtype string" in converted.message


def test_attention_the_written_class_does_not_compute_keeps_its_reason():
    call = ast.parse("layers.MultiHeadAttention(num_heads=2, key_dim=8)", mode="eval").body
    assert isinstance(call, ast.Call)
    with pytest.raises(NotConverted, match="not \\(steps, features\\) sequences"):
        convert("MultiHeadAttention", call, ((4, 5, 8), (4, 5, 8)), False)  # Keras attends over two axes then
    with pytest.raises(NotConverted, match="sizes of the query, value and key are not all known"):
        convert("MultiHeadAttention", call, ((5, 8), ()), False)
    masked = ast.parse("layers.MultiHeadAttention(num_heads=2, key_dim=8, attention_axes=(1,))", mode="eval").body
    assert isinstance(masked, ast.Call)
    with pytest.raises(NotConverted, match="attention_axes has no counterpart"):
        convert("MultiHeadAttention", masked, ((5, 8), (5, 8)), False)
