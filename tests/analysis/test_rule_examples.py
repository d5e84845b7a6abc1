"""Every rule's own examples (declared beside the rule, `RULE.flags` and `RULE.leaves_alone`), run through the engine
with the shipped knowledge base on the example's route; plus the seams of the rule API."""

from __future__ import annotations

import re
import textwrap

import pytest
from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.analysis.rules import MATCHERS, RULES
from ascend_migrate.analysis.rules.api import CALL, Rule, build_hooks
from ascend_migrate.config import Settings
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.patterns import PATTERN_NAMES

_EXPECT = re.compile(r"#\s*expect:\s*(.+)$")


def _examples():
    for rule in RULES:
        for kind, examples in (("flags", rule.flags), ("leaves-alone", rule.leaves_alone)):
            for number, example in enumerate(examples, 1):
                yield pytest.param(kind, example, id=f"{rule.name}-{kind}-{example.route}-{number}")


def _expected(source: str) -> list[tuple[int, str, str | None]]:
    """(line, code, api or None) for each `# expect: CODE [api], ...` marker."""
    expected = []
    for line_number, text in enumerate(source.splitlines(), 1):
        marker = _EXPECT.search(text)
        if marker is None:
            continue
        for item in marker.group(1).split(","):
            code, _, api = item.strip().partition(" ")
            expected.append((line_number, code, api.strip() or None))
    return expected


@pytest.fixture(scope="module")
def shipped_knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load()


@pytest.mark.parametrize(("kind", "example"), list(_examples()))
def test_rule_example(kind, example, shipped_knowledge_base) -> None:
    source = textwrap.dedent(example.source)
    expected = _expected(source)
    assert (kind == "flags") == bool(expected), "a flags example marks what it expects; a leaves-alone example marks nothing"
    watched = {code for _, code, _ in expected} | set(example.codes)
    settings = Settings(target=example.route) if example.mindspore_version is None else \
        Settings(target=example.route, mindspore_version=example.mindspore_version)
    findings = analyze_file(source, "example.py", settings, shipped_knowledge_base).findings
    found = sorted((finding.line, finding.code) for finding in findings if finding.code in watched)
    assert found == sorted((line, code) for line, code, _ in expected)
    for line, code, api in expected:
        if api is not None:
            assert any(f.line == line and f.code == code and f.api == api for f in findings), (line, code, api)


def test_every_matcher_name_is_known_to_the_loader_and_back() -> None:
    assert set(MATCHERS) == PATTERN_NAMES


def test_every_pattern_in_the_mappings_has_a_matcher_or_says_documentation_only(shipped_knowledge_base) -> None:
    patterns = [entry for entry in shipped_knowledge_base.entries if entry.match == "pattern"]
    assert patterns
    for entry in patterns:
        assert ((entry.condition or entry.api) in MATCHERS) != entry.documentation_only, entry.key


def test_an_unknown_event_in_a_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="declares unknown event 'calls'"):
        build_hooks([Rule(name="typo", hooks={"calls": print})], {})


def test_matchers_are_installed_only_for_patterns_the_view_has() -> None:
    hooks_without = build_hooks(RULES, {})
    hooks_with = build_hooks(RULES, {"rms-norm": []})
    assert len(hooks_with[CALL]) == len(hooks_without[CALL]) + 1
