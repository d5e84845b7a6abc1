"""The transform review (mappings/verification/transforms_reviewed.yaml) holds the tables it judged: every transform entry
called equivalent was reviewed, and what it found wrong stays corrected."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.versions import parse_version

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"
REVIEW = yaml.safe_load((MAPPINGS / "verification" / "transforms_reviewed.yaml").read_text(encoding="utf-8"))
TRANSFORMS = ("torchvision.transforms", "torchaudio.transforms", "torchtext")


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


def in_range(knowledge_base: KnowledgeBase, api: str, target: str) -> list:
    return [entry for entry in knowledge_base.entries if entry.route == "mindspore" and entry.api == api
            and entry.target == target and entry.target_versions.contains(parse_version("2.10.0"))]


def test_every_transform_called_equivalent_was_reviewed(knowledge_base: KnowledgeBase) -> None:
    reviewed = {(item["api"], item["target"]) for item in REVIEW["entries"]}
    equivalent = {(entry.api, entry.target) for entry in knowledge_base.entries
                  if entry.route == "mindspore" and entry.api.startswith(TRANSFORMS) and entry.category == "ms-equivalent"
                  and entry.target_versions.contains(parse_version("2.10.0"))}
    assert equivalent - reviewed == set()  # a new equivalent transform needs the same review first
    for api, target in equivalent:
        assert all(entry.review for entry in in_range(knowledge_base, api, target)), api  # what was found, in words


@pytest.mark.parametrize("item", REVIEW["entries"], ids=lambda item: item["api"])
def test_a_reviewed_entry_is_in_the_tables_and_what_was_wrong_stays_corrected(knowledge_base, item) -> None:
    assert item["verdict"] in ("right", "corrected", "note added") and item["difference"]
    entries = in_range(knowledge_base, item["api"], item["target"])
    assert entries, item["api"]
    if item["verdict"] == "corrected":  # ms-differs now, or equivalent with a row naming the form the target refuses
        for entry in entries:
            assert entry.fix == "unsafe" and (entry.category == "ms-differs" or any(
                row.change == "removed" for row in entry.parameters)), item["api"]
