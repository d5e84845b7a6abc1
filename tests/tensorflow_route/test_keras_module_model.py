"""A functional Keras model written at module level (MS255, analysis/rules/keras_module_model.py): the top-level
statements from `inputs = keras.Input(...)` to `model = keras.Model(...)` become one Cell class, a statement that
is not a layer application leaves the finding without a fix naming its line, and an incremental analysis after an
edit of one of those statements gives what a full analysis gives (the rule read the text of earlier chunks)."""

from __future__ import annotations

import ast
import textwrap

from ascend_migrate.analysis.engine import analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_all

MODULE_MODEL = textwrap.dedent("""
    import keras
    from keras import layers

    maxlen = 16
    inputs = layers.Input(shape=(maxlen,))
    x = layers.Embedding(input_dim=1000, output_dim=32)(inputs)
    x = layers.GlobalAveragePooling1D()(x)
    x = layers.Dropout(0.1)(x)
    outputs = layers.Dense(2, activation="softmax")(x)

    model = keras.Model(inputs=inputs, outputs=outputs)
""")


def _model_findings(result):
    return [finding for finding in result.findings if finding.code == "MS255"]


def test_a_module_level_functional_model_becomes_one_cell_class(scan):
    findings = scan(MODULE_MODEL).findings
    (model,) = _model_findings(scan(MODULE_MODEL))
    assert model.line == 12 and model.fix is not None
    (embedding,) = [finding for finding in findings if finding.api.endswith("Embedding")]
    assert embedding.fix is None and "converted with its model by the model rewrite (MS255" in embedding.message  # not twice
    fixed = fix_all(MODULE_MODEL, findings, unsafe=True).text
    assert "self.embedding = mindspore.nn.Embedding(1000, 32, " in fixed
    assert "x = mindspore.ops.mean(x, 1)" in fixed
    assert "self.dense = mindspore.nn.SequentialCell([mindspore.nn.Dense(32, 2, has_bias=True), mindspore.nn.Softmax(axis=-1)])" in fixed
    assert "\nmodel = ModelCell()\n" in fixed and "maxlen = 16\nclass ModelCell" in fixed
    assert "keras" not in fixed and "layers." not in fixed
    ast.parse(fixed)


def test_a_statement_between_the_layers_names_its_line_and_leaves_the_model_unfixed(scan):
    source = MODULE_MODEL.replace("x = layers.Dropout(0.1)(x)", "print(x)")
    (model,) = _model_findings(scan(source))
    assert model.fix is None
    assert "line 9 is not `variable = layers.Layer(...)(variable)`" in model.message


def test_a_layer_class_of_the_file_is_named_as_what_the_rewrite_does_not_follow(scan):
    source = MODULE_MODEL.replace("x = layers.Dropout(0.1)(x)", "x = Block(32)(x)").replace(
        "maxlen = 16", "class Block(layers.Layer):\n    pass\n\nmaxlen = 16")
    (model,) = _model_findings(scan(source))
    assert model.fix is None
    assert "`Block` is a layer class of this file" in model.message


def test_a_model_without_a_keras_input_above_it_gets_no_model_finding(scan):
    assert _model_findings(scan("import keras\nencoder = keras.layers.Dense(2)\nmodel = keras.Model(inputs=a, outputs=b)\n")) == []


def _comparable(result):
    return [(finding.line, finding.code, finding.message, finding.fix.edits if finding.fix else None) for finding in result.findings]


def test_an_edit_of_a_layer_above_the_model_gives_what_a_full_analysis_gives(knowledge_base):
    settings = Settings(target="mindspore")
    before = analyze_module(MODULE_MODEL, "model.py", settings, knowledge_base)
    lines = MODULE_MODEL.split("\n")
    for replacement in ('outputs = layers.Dense(3, activation="softmax")(x)', "outputs = print(x)", "# outputs"):
        line = lines.index('outputs = layers.Dense(2, activation="softmax")(x)') + 1
        edited = "\n".join([*lines[:line - 1], replacement, *lines[line:]])
        incremental = analyze_document(edited, "model.py", settings, before, LineEdit(line, line, line), knowledge_base)
        assert _comparable(incremental) == _comparable(analyze_module(edited, "model.py", settings, knowledge_base)), replacement
    inserted = "\n".join([*lines[:6], "# a comment", *lines[6:]])
    incremental = analyze_document(inserted, "model.py", settings, before, LineEdit(7, 6, 7), knowledge_base)
    assert _comparable(incremental) == _comparable(analyze_module(inserted, "model.py", settings, knowledge_base))


def test_an_edit_of_the_model_statement_itself_reads_the_statements_above_again(knowledge_base):
    settings = Settings(target="mindspore")
    before = analyze_module(MODULE_MODEL, "model.py", settings, knowledge_base)
    lines = MODULE_MODEL.split("\n")
    line = lines.index("model = keras.Model(inputs=inputs, outputs=outputs)") + 1
    edited = "\n".join([*lines[:line - 1], 'model = keras.Model(inputs=inputs, outputs=outputs, name="classifier")', *lines[line:]])
    incremental = analyze_document(edited, "model.py", settings, before, LineEdit(line, line, line), knowledge_base)
    assert _comparable(incremental) == _comparable(analyze_module(edited, "model.py", settings, knowledge_base))
    assert any(finding.code == "MS255" and finding.fix is not None for finding in incremental.findings)
