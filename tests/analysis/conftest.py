"""Helpers for the engine tests: analyse a snippet against the engine's own test knowledge base."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings, apply_overrides
from ascend_migrate.kb.index import KnowledgeBase

TEST_MAPPINGS = Path(__file__).resolve().parent.parent / "fixtures" / "mappings"


@pytest.fixture(scope="session")
def test_knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.from_directory(TEST_MAPPINGS)


@pytest.fixture
def run(test_knowledge_base):
    """run(source, target="npu", **settings) -> FileResult for a dedented snippet."""

    def run_snippet(source: str, target: str = "npu", **overrides):
        settings = apply_overrides(Settings(target=target), overrides, "test")
        return analyze_file(textwrap.dedent(source), "snippet.py", settings, test_knowledge_base)

    return run_snippet


@pytest.fixture
def found(run):
    """found(source, ...) -> sorted (line, code, api) triples."""

    def triples(source: str, target: str = "npu", **overrides):
        return sorted((f.line, f.code, f.api) for f in run(source, target, **overrides).findings)

    return triples
