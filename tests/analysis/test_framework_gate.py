"""Keras/TensorFlow rules are installed only for a module whose text names tensorflow or keras (Rule.frameworks,
rules/api.py): a PyTorch file is not walked through them, and nothing they find is lost where the text names them
(a word anywhere: a function-level import counts too); an edit that makes a module name them (or stop) re-analyses it whole in the editor."""

from __future__ import annotations

import textwrap

from ascend_migrate.analysis.engine import analyze, analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.analysis.rules import RULES
from ascend_migrate.analysis.rules.api import CALL, TENSORFLOW, build_hooks, mentioned_frameworks
from ascend_migrate.config import Settings

MINDSPORE = Settings(target="mindspore")

KERAS = textwrap.dedent("""
    import numpy as np
    from tensorflow import keras


    def train(images, labels):
        model = keras.Sequential([keras.layers.Dense(10, activation="softmax")])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
        model.fit(images, labels, epochs=1)
        return model
""")


def test_a_pytorch_module_gets_no_tensorflow_rule():
    names = {rule.name for rule in RULES if rule.frameworks == TENSORFLOW}
    assert {"keras_model", "keras_training", "tf_custom_loop", "tf_metrics"} <= names
    handlers = {handler for event in build_hooks(RULES, {"keras-fit": [1], "keras-compile": [1]}, "mindspore", frozenset()).values()
                for handler in event}
    tensorflow_modules = {rule_module for rule_module in (handler.__module__ for handler in handlers)
                          if rule_module.rsplit(".", 1)[-1] in names}
    assert tensorflow_modules == set()
    every = build_hooks(RULES, {"keras-fit": [1], "keras-compile": [1]}, "mindspore", frozenset({"keras"}))
    assert len(every[CALL]) > len(build_hooks(RULES, {"keras-fit": [1], "keras-compile": [1]}, "mindspore", frozenset())[CALL])


def test_the_words_count_anywhere_in_the_text():
    assert mentioned_frameworks(["import torch", "x = 1"]) == frozenset()
    assert mentioned_frameworks(["    from tf_keras import layers"]) == frozenset({"keras"})
    assert mentioned_frameworks(["import tensorflow as tf"]) == frozenset({"tensorflow"})


def test_a_keras_module_keeps_its_findings():
    codes = {finding.code for finding in analyze(KERAS, "train.py", MINDSPORE)}
    assert {"MS255", "MS256"} <= codes


def test_an_edit_that_names_keras_re_analyses_the_module():
    before_text = KERAS.replace("from tensorflow import keras", "from mylib import models")
    before = analyze_module(before_text, "train.py", MINDSPORE)
    assert not {"MS255", "MS256"} & {finding.code for finding in before.findings}
    line = before_text.split("\n").index("from mylib import models") + 1
    after = analyze_document(KERAS, "train.py", MINDSPORE, before, LineEdit(line, line, line))
    full = analyze_module(KERAS, "train.py", MINDSPORE)
    assert [(f.line, f.code) for f in after.findings] == [(f.line, f.code) for f in full.findings]


def test_an_incremental_edit_reads_the_words_of_its_text_once(monkeypatch):
    """The previous text's words were read by its own analysis; the new text's are read once and serve both the
    comparison and the rules installed (before: three scans per edit, docs/performance.md session 9)."""
    from ascend_migrate.analysis import engine

    before = analyze_module(KERAS, "train.py", MINDSPORE)
    scanned: list[int] = []

    def counted(lines):
        scanned.append(len(lines))
        return mentioned_frameworks(lines)

    monkeypatch.setattr(engine, "mentioned_frameworks", counted)
    lines = KERAS.split("\n")
    line = lines.index("    return model") + 1
    edited = KERAS.replace("    return model", "    return model  # done")
    after = analyze_document(edited, "train.py", MINDSPORE, before, LineEdit(line, line, line))
    assert scanned == [len(lines)]
    assert after.frameworks == frozenset({"tensorflow", "keras"})
    full = analyze_module(edited, "train.py", MINDSPORE)
    assert [(f.line, f.code, f.message) for f in after.findings] == [(f.line, f.code, f.message) for f in full.findings]

