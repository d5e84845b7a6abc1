"""Against the real tensorflow/keras packages (CI stage 39; skipped without them): every TensorFlow/Keras name the
hand-written tables name is public there, and the committed inventory is what the packages export now."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

tensorflow = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")
pytest.importorskip("tf_keras")

ROOT = Path(__file__).resolve().parents[2]
HAND_WRITTEN = ("tensorflow_mindspore_curated", "tensorflow_structure")


def _resolve(name: str):
    """Attribute access from the package, as user code reaches it (`tf.distribute.get_strategy`)."""
    parts = name.split(".")
    value = importlib.import_module(parts[0])
    for part in parts[1:]:
        value = getattr(value, part)
    return value


def test_every_hand_written_source_name_is_public_in_tensorflow(knowledge_base):
    entries = [entry for entry in knowledge_base.entries if entry.table in HAND_WRITTEN]
    assert len(entries) > 250
    missing = []
    for entry in entries:
        # a `match: pattern` entry may name the calling shape it matches after its name (`Model.fit(x,y)`)
        name = entry.api.split("(", 1)[0] if entry.match == "pattern" else entry.api
        try:
            _resolve(name)
        except AttributeError as error:
            missing.append(f"{entry.table}:{entry.line} {entry.api}: {error}")
    assert missing == []


def test_the_committed_inventory_is_what_the_packages_export(tmp_path):
    output = tmp_path / "tensorflow_inventory.yaml"
    subprocess.run([sys.executable, "-m", "tools.generate_mappings.tensorflow_inventory", "--tensorflow-python",
                    sys.executable, "--output", str(output)], cwd=ROOT, check=True, capture_output=True, timeout=600)
    committed = (ROOT / "mappings" / "tensorflow_inventory.yaml").read_text(encoding="utf-8")
    assert output.read_text(encoding="utf-8") == committed


def test_kb_verify_resolves_every_tensorflow_name_and_parameter(knowledge_base):
    """`kb verify` on the TensorFlow tables: names as user code reaches them (tf.distribute.get_strategy, a Keras 2 name
    through tf_keras), and every TF parameter a parameter row names is in the installed callable's signature."""
    from types import SimpleNamespace

    from ascend_migrate.kb.verify import Resolvers, verify_names

    tables = SimpleNamespace(entries=[entry for entry in knowledge_base.entries if entry.table.startswith("tensorflow_")],
                             directory=knowledge_base.directory)
    report = verify_names(tables, Resolvers())
    assert report.checked["source"] > 600
    # tf.compat.v1.layers (TF1's layers) is gone from tensorflow 2.21 with Keras 3; the official row stays documented.
    assert [problem.api for problem in report.problems] == ["tensorflow.compat.v1.layers.Dense"]
    assert report.parameters_checked > 160 and report.parameter_warnings == []
