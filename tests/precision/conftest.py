"""Precision tests: realistic code analysed with the real knowledge base in mappings/ (issue 15)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings, apply_overrides
from ascend_migrate.kb.index import KnowledgeBase

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"


@pytest.fixture(scope="session")
def real_knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


@pytest.fixture
def scan(real_knowledge_base):
    """scan(source, target="npu", path="train.py", **settings) -> the findings of a dedented file."""

    def run(source: str, target: str = "npu", path: str = "train.py", **overrides):
        settings = apply_overrides(Settings(target=target), overrides, "test")
        return analyze_file(textwrap.dedent(source), path, settings, real_knowledge_base).findings

    return run
