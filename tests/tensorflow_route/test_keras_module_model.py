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


def test_a_class_of_the_file_that_is_not_a_keras_layer_is_named_as_what_the_rewrite_does_not_follow(scan):
    source = MODULE_MODEL.replace("x = layers.Dropout(0.1)(x)", "x = Block(32)(x)").replace(
        "maxlen = 16", "class Block:\n    pass\n\nmaxlen = 16")
    (model,) = _model_findings(scan(source))
    assert model.fix is None
    assert "`Block` is a class of this file this rewrite does not follow (not a direct keras.layers.Layer subclass" in model.message


# keras-io's Transformer classifier (tests/execution/corpus/tf_text_transformer), its own layer classes applied in
# the module-level model.
OWN_LAYERS = textwrap.dedent("""
    import keras
    from keras import layers, ops


    class TransformerBlock(layers.Layer):
        def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
            super().__init__()
            self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
            self.ffn = keras.Sequential([layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)])
            self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
            self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)

        def call(self, inputs):
            attn_output = self.att(inputs, inputs)
            out1 = self.layernorm1(inputs + attn_output)
            return self.layernorm2(out1 + self.ffn(out1))


    class TokenAndPositionEmbedding(layers.Layer):
        def __init__(self, maxlen, vocab_size, embed_dim):
            super().__init__()
            self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
            self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

        def call(self, x):
            maxlen = ops.shape(x)[-1]
            positions = ops.arange(start=0, stop=maxlen, step=1)
            positions = self.pos_emb(positions)
            x = self.token_emb(x)
            return x + positions


    maxlen, vocab_size, embed_dim = 200, 20000, 32
    inputs = layers.Input(shape=(maxlen,))
    embedding_layer = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)
    x = embedding_layer(inputs)
    transformer_block = TransformerBlock(embed_dim, 2, ff_dim=32)
    x = transformer_block(x)
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
""")


def test_the_file_s_own_layer_classes_are_built_in_the_cell_and_size_the_layers_after_them(scan):
    (model,) = _model_findings(scan(OWN_LAYERS))
    assert model.fix is not None, model.message
    fixed = fix_all(OWN_LAYERS, scan(OWN_LAYERS).findings, unsafe=True).text
    assert "self.token_and_position_embedding = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)" in fixed
    assert "self.transformer_block = TransformerBlock(embed_dim, 2, ff_dim=32)" in fixed
    # TokenAndPositionEmbedding returns an Embedding of output_dim=embed_dim; TransformerBlock keeps it (its residual
    # adds tie its input to embed_dim, which the model passes): the Dense after the pooling takes embed_dim.
    assert "mindspore.nn.Dense(embed_dim, 2, has_bias=True)" in fixed
    assert "inputs = mindspore.Tensor(inputs, mindspore.int32)" in fixed  # the class's input feeds only Embeddings
    assert "x = self.token_and_position_embedding(inputs)\n        x = self.transformer_block(x)\n" in fixed
    assert "embedding_layer" not in fixed and "keras" not in fixed.replace("Keras", "")
    ast.parse(fixed)


def test_an_own_layer_applied_inline_with_a_constant_size_gives_the_number(scan):
    source = OWN_LAYERS.replace("embedding_layer = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)\n"
                                "x = embedding_layer(inputs)", "x = TokenAndPositionEmbedding(maxlen, vocab_size, 16)(inputs)")
    source = source.replace("TransformerBlock(embed_dim, 2, ff_dim=32)", "TransformerBlock(16, 2, ff_dim=32)")
    fixed = fix_all(source, scan(source).findings, unsafe=True).text
    assert "self.token_and_position_embedding = TokenAndPositionEmbedding(maxlen, vocab_size, 16)" in fixed
    assert "mindspore.nn.Dense(16, 2, has_bias=True)" in fixed


def test_own_layers_whose_sizes_the_code_does_not_state_leave_the_model_unfixed_and_say_why(scan):
    cases = {
        # the block's residual add ties its input to embed_dim = 16, but the model feeds it embed_dim (32)
        OWN_LAYERS.replace("TransformerBlock(embed_dim, 2, ff_dim=32)", "TransformerBlock(16, 2, ff_dim=32)"):
            "TransformerBlock's call() adds its input (size embed_dim) to a value of size 16",
        # the returned value is computed by a function the trace does not know
        OWN_LAYERS.replace("return x + positions", "return ops.relu(x + positions)"):
            "the output size of TokenAndPositionEmbedding (what its call() returns, line 31) is not stated by its code",
        # weights sized from the input in build()
        OWN_LAYERS.replace("    def call(self, x):", "    def build(self, shape):\n        pass\n\n    def call(self, x):"):
            "class TokenAndPositionEmbedding creates weights in build() from its input's size",
        # one layer applied twice shares its weights
        OWN_LAYERS.replace("x = transformer_block(x)\n", "x = transformer_block(x)\nx = transformer_block(x)\n"):
            "`transformer_block` is applied more than once",
        # control flow in call()
        OWN_LAYERS.replace("        return x + positions", "        if maxlen:\n            x = x * 2\n        return x + positions"):
            "line 31 of call() is not `name = expression` or `return expression`",
    }
    for source, reason in cases.items():
        (model,) = _model_findings(scan(source))
        assert model.fix is None, reason
        assert reason in model.message, (reason, model.message)


def test_an_edit_of_an_own_layer_class_gives_what_a_full_analysis_gives(knowledge_base):
    settings = Settings(target="mindspore")
    before = analyze_module(OWN_LAYERS, "model.py", settings, knowledge_base)
    assert any(finding.code == "MS255" and finding.fix is not None for finding in before.findings)
    lines = OWN_LAYERS.split("\n")
    line = lines.index("        return x + positions") + 1
    edited = "\n".join([*lines[:line - 1], "        return ops.relu(x + positions)", *lines[line:]])
    incremental = analyze_document(edited, "model.py", settings, before, LineEdit(line, line, line), knowledge_base)
    assert _comparable(incremental) == _comparable(analyze_module(edited, "model.py", settings, knowledge_base))
    assert any(finding.code == "MS255" and finding.fix is None for finding in incremental.findings)


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
