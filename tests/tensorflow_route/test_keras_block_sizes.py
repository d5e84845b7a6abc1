"""Sub-layers a Keras layer class builds in `__init__` (analysis/rules/keras_block_sizes.py), on keras-io's
TransformerBlock (tests/execution/corpus/tf_text_transformer): their input sizes come from the constructor's
parameters when `call` adds its input to a sub-layer output whose size those give; otherwise no fix, and the finding
says which number to fill in. (A fixed block of that shape runs on mindspore: tests/execution/test_keras_sequence_model.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

from ascend_migrate.fixes import fix_all
from ascend_migrate.fixes.templates import class_source

PROGRAM = Path(__file__).parents[1] / "execution" / "corpus" / "tf_text_transformer" / "text_classification_with_transformer.py"


def _block() -> str:
    """The imports and the TransformerBlock class of the corpus program, as written there."""
    text = PROGRAM.read_text(encoding="utf-8")
    (block,) = [node for node in ast.parse(text).body if type(node) is ast.ClassDef and node.name == "TransformerBlock"]
    return "import keras\nfrom keras import layers\n\n\n" + (ast.get_source_segment(text, block) or "") + "\n"


def _sized(findings):
    return [finding for finding in findings if finding.api.endswith(("Dense", "LayerNormalization", "MultiHeadAttention"))]


def test_the_residual_add_gives_the_sub_layers_their_sizes_from_the_constructor(scan):
    source = _block()
    fixed = fix_all(source, scan(source).findings, unsafe=True).text
    assert "self.ffn = mindspore.nn.SequentialCell(" in fixed
    assert "mindspore.nn.SequentialCell([mindspore.nn.Dense(embed_dim, ff_dim, has_bias=True), mindspore.nn.ReLU()])," in fixed
    assert "mindspore.nn.Dense(ff_dim, embed_dim, has_bias=True)," in fixed
    assert fixed.count("mindspore.nn.LayerNorm((embed_dim,), epsilon=1e-06)") == 2
    assert fixed.count("mindspore.nn.Dropout(p=rate)") == 2
    # The attention projects to num_heads * embed_dim, which nn.MultiheadAttention cannot: Keras' computation is written
    # into the program once, before the class (fixes/templates/keras_attention.py), with the sizes embed_dim gives.
    assert "self.att = KerasMultiHeadAttention(embed_dim, embed_dim, embed_dim, num_heads=num_heads, key_dim=embed_dim)" in fixed
    assert fixed.count(class_source("keras_attention", "KerasMultiHeadAttention")) == 1
    assert fixed.index("class KerasMultiHeadAttention(") < fixed.index("class TransformerBlock(")
    assert "keras" not in fixed.replace("Keras", "")
    ast.parse(fixed)


def test_a_module_that_defines_the_attention_class_gets_it_not_twice(scan):
    source = _block()
    once = fix_all(source, scan(source).findings, unsafe=True).text
    again = _block().replace("class TransformerBlock(", class_source("keras_attention", "KerasMultiHeadAttention") + "\n\n\nclass TransformerBlock(")
    fixed = fix_all(again, scan(again).findings, unsafe=True).text
    assert fixed.count("class KerasMultiHeadAttention(") == 1 and once.count("class KerasMultiHeadAttention(") == 1


def test_two_attention_layers_of_a_class_write_the_attention_class_once(scan):
    source = _block().replace("        self.ffn = keras.Sequential(", "        self.cross = layers.MultiHeadAttention(num_heads=4, key_dim=8)\n        self.ffn = keras.Sequential(")
    source = source.replace("attn_output = self.att(inputs, inputs)", "attn_output = self.cross(self.att(inputs, inputs), inputs)")
    fixed = fix_all(source, scan(source).findings, unsafe=True).text
    assert fixed.count("class KerasMultiHeadAttention(") == 1
    assert "self.cross = KerasMultiHeadAttention(embed_dim, embed_dim, embed_dim, num_heads=4, key_dim=8)" in fixed


def test_without_the_residual_add_the_input_size_is_not_guessed(scan):
    source = _block().replace("return self.layernorm2(out1 + ffn_output)", "return self.layernorm2(ffn_output)")
    source = source.replace("out1 = self.layernorm1(inputs + attn_output)", "out1 = self.layernorm1(attn_output)")
    findings = scan(source).findings
    assert len(_sized(findings)) == 5
    assert all(finding.fix is None and "no residual add ties call()'s input" in finding.message and "in_channels" in finding.message
               for finding in _sized(findings))
    (sequential,) = [finding for finding in findings if finding.api.endswith("Sequential")]
    assert sequential.fix is None


def test_an_input_added_to_a_size_made_of_other_names_is_not_taken(scan):
    source = _block().replace("layers.Dense(embed_dim)", "layers.Dense(WIDTH)")
    sized = _sized(scan(source).findings)
    assert sized and all(finding.fix is None and "not made of the constructor's parameters" in finding.message for finding in sized)


def test_a_statement_it_cannot_follow_is_named_by_its_line(scan):
    source = _block().replace("        ffn_output = self.ffn(out1)\n", "        ffn_output = self.ffn(out1)\n        print(out1)\n")
    sized = _sized(scan(source).findings)
    line = source.splitlines().index("        print(out1)") + 1
    assert sized and all(finding.fix is None and f"line {line} is not `name = expression`" in finding.message for finding in sized)
