"""TensorFlow and Keras on the MindSpore route (issue 21), analysed with the real knowledge base in mappings/."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings, apply_overrides
from ascend_migrate.kb.index import KnowledgeBase

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"


@pytest.fixture(scope="session")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


@pytest.fixture
def scan(knowledge_base):
    """scan(source, target="mindspore") -> the findings of a dedented file, as written in mappings/."""

    def run(source: str, target: str = "mindspore", path: str = "model.py", **overrides):
        settings = apply_overrides(Settings(target=target), overrides, "test")
        return analyze_file(textwrap.dedent(source), path, settings, knowledge_base)

    return run
