"""Names as TensorFlow and Keras export them: every alias finds the entry, an unmapped public name is reported."""

from __future__ import annotations

from ascend_migrate.kb.aliases import NameAliases


def _rows(result):
    return sorted((finding.line, finding.code, finding.api, finding.entry_key) for finding in result.findings)


def test_an_alias_finds_the_entry_of_the_name_the_table_spells(scan):
    rows = _rows(scan("""
        import tensorflow as tf
        a = tf.reshape(x, [2])
        b = tf.compat.v1.reshape(x, [2])
        c = tf.compat.v2.reshape(x, [2])
    """))
    assert [row[2] for row in rows] == ["tensorflow.reshape", "tensorflow.compat.v1.reshape", "tensorflow.compat.v2.reshape"]
    assert len({row[3] for row in rows}) == 1  # one entry, three spellings


def test_every_keras_spelling_finds_the_tf_keras_entry(scan):
    rows = _rows(scan("""
        import keras
        import tf_keras
        import tensorflow as tf
        a = tf.keras.layers.BatchNormalization()
        b = keras.layers.BatchNormalization()
        c = tf_keras.layers.BatchNormalization()
        d = tf.compat.v1.keras.layers.BatchNormalization()
    """))
    assert [row[2] for row in rows] == [
        "tensorflow.keras.layers.BatchNormalization", "keras.layers.BatchNormalization",
        "tf_keras.layers.BatchNormalization", "tensorflow.compat.v1.keras.layers.BatchNormalization",
    ]
    assert len({row[3] for row in rows}) == 1


def test_an_unmapped_public_name_is_unsupported_and_a_made_up_one_is_silent(scan):
    result = scan("""
        import tensorflow as tf
        import keras
        a = tf.experimental.numpy.not_a_function(1)
        b = tf.histogram_fixed_width(x, [0.0, 1.0])
        c = keras.ops.not_a_keras_op(1)
    """)
    assert [(finding.line, finding.code, finding.api) for finding in result.findings] == [
        (5, "MS103", "tensorflow.histogram_fixed_width"),
    ]
    assert "custom operator" in result.findings[0].suggestion


def test_type_annotations_are_not_calls(scan):
    result = scan("""
        import tensorflow as tf
        def f(x: tf.Tensor, y: "tf.Tensor") -> tf.Tensor:
            z: tf.Tensor = x
            return z
    """)
    assert result.findings == []


def test_module_spellings_are_rewritten_longest_first():
    aliases = NameAliases.build(
        [["tensorflow.math.reduce_mean", "tensorflow.reduce_mean"]],
        {"keras": "tensorflow.keras", "tensorflow.compat.v2": "tensorflow", "tensorflow.compat.v1.keras": "tensorflow.keras"},
    )
    assert aliases.canonical("tensorflow.reduce_mean") == "tensorflow.math.reduce_mean"
    assert aliases.canonical("tensorflow.compat.v2.reduce_mean") == "tensorflow.math.reduce_mean"
    assert aliases.canonical("tensorflow.compat.v1.keras.layers.Dense") == "tensorflow.keras.layers.Dense"
    assert aliases.canonical("keras.ops.mean") == "tensorflow.keras.ops.mean"
    assert aliases.canonical("kerasx.ops.mean") == "kerasx.ops.mean"  # a spelling is a whole module, not a prefix
    assert aliases.canonical("torch.mean") == "torch.mean"


def test_the_inventory_holds_tensorflow_keras_and_their_aliases(knowledge_base):
    canonical = knowledge_base.aliases.canonical
    assert canonical("tensorflow.reduce_mean") == "tensorflow.math.reduce_mean"
    assert canonical("keras.ops.numpy.mean") == canonical("keras.ops.mean")
    assert canonical("keras.layers.Convolution2D") == "tensorflow.keras.layers.Conv2D"
    inventory = knowledge_base.inventory
    for module, name in (("tensorflow", "GradientTape"), ("tensorflow.keras.layers", "MultiHeadAttention"),
                         ("tensorflow.keras.ops", "mean"), ("tensorflow.compat.v1", "placeholder")):
        assert name in inventory[module], (module, name)
