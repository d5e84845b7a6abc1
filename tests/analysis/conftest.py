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


def assert_every_edit_matches_a_full_analysis(source: str, edits: list[str], path: str, settings: Settings) -> None:
    """Replace each line of `source` in turn by each of `edits` (several lines, or none: a deletion) and check that the
    incremental analysis after that edit finds, in the statements that parse, what a full analysis finds."""
    from ascend_migrate.analysis.engine import analyze_module
    from ascend_migrate.analysis.incremental import LineEdit, analyze_document

    lines = source.split("\n")
    before = analyze_module(source, path, settings)
    for line in range(1, len(lines) + 1):
        for edit_text in edits:
            replacement = edit_text.split("\n") if edit_text else []
            new_text = "\n".join(lines[:line - 1] + replacement + lines[line:])
            incremental = analyze_document(new_text, path, settings, before, LineEdit(line, line, line + len(replacement) - 1))
            full = analyze_module(new_text, path, settings)
            parsed = sorted([f for chunk in incremental.chunks if not chunk.error for f in chunk.findings]
                            + incremental.unused_imports, key=lambda f: (f.line, f.column, f.code))
            assert [(f.line, f.code, f.api, f.message, f.fix) for f in parsed] == \
                [(f.line, f.code, f.api, f.message, f.fix) for f in full.findings], (line, edit_text)
