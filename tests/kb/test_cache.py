"""The compiled knowledge-base cache: used when fresh, never when a table changed, ignored when broken."""

from __future__ import annotations

import shutil
from pathlib import Path

from ascend_migrate.kb import cache
from ascend_migrate.kb.index import KnowledgeBase

FIXTURE_MAPPINGS = Path(__file__).resolve().parents[1] / "fixtures" / "mappings"


def copy_tables(tmp_path: Path) -> Path:
    directory = tmp_path / "mappings"
    shutil.copytree(FIXTURE_MAPPINGS, directory)
    return directory


def test_second_load_comes_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    directory = copy_tables(tmp_path)
    first = KnowledgeBase.from_directory(directory)
    (cached_file,) = (tmp_path / "cache").glob("kb-*.pickle")
    second = KnowledgeBase.from_directory(directory)
    assert second.entries == first.entries and second.inventory == first.inventory
    assert cached_file.exists()


def test_an_edited_table_is_never_served_from_a_stale_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    directory = copy_tables(tmp_path)
    KnowledgeBase.from_directory(directory)
    table = directory / "engine.yaml"
    table.write_text(table.read_text(encoding="utf-8").replace("torch.npu.synchronize", "torch.npu.synchronise"), encoding="utf-8")
    reloaded = KnowledgeBase.from_directory(directory)
    assert [entry.target for entry in reloaded.lookup("torch.cuda.synchronize")] == ["torch.npu.synchronise"]
    assert len(list((tmp_path / "cache").glob("kb-*.pickle"))) == 2


def test_a_corrupt_cache_file_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    directory = copy_tables(tmp_path)
    expected = KnowledgeBase.from_directory(directory).entries
    for cached_file in (tmp_path / "cache").glob("kb-*.pickle"):
        cached_file.write_bytes(b"not a pickle")
    assert KnowledgeBase.from_directory(directory).entries == expected


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_MIGRATE_CACHE_DIR", "")
    assert cache.cache_directory() is None
    KnowledgeBase.from_directory(copy_tables(tmp_path))


def test_a_cache_written_for_another_schema_is_never_served(tmp_path, monkeypatch):
    """A new field in the schema (ParameterDifference.position once) must not meet an old pickle."""
    monkeypatch.setenv("ASCEND_MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    directory = copy_tables(tmp_path)
    paths = sorted(directory.glob("*.yaml"))
    digest = cache.tables_digest(paths)
    monkeypatch.setattr(cache, "_schema_signature", lambda: "Entry(api)")
    assert cache.tables_digest(paths) != digest
