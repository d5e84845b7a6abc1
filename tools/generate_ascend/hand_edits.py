"""Decisions made in the NPU tables by hand, kept in hand_edits.yaml so that a regeneration reproduces them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
HAND_EDITS = HERE / "hand_edits.yaml"
# The fields a person may decide for a generated entry. `when`, `reported`, `note_original` and
# `documentation_only` have no reference row behind them; `code`, `note`, `suggestion` and `severity` replace what the rows
# say (an English restriction note whose Chinese original is kept in `note_original`, a severity judged on real code), and
# `fix` a fix's safety found by running what it writes (issue 17: `fix: none` where the rename breaks programs).
EDITABLE = ("code", "reported", "severity", "fix", "note", "note_original", "suggestion", "when", "documentation_only")
IDENTITY = ("api", "route", "match", "condition", "receiver", "source_versions")


class HandEditError(ValueError):
    """hand_edits.yaml does not fit the generated entries (an entry it names is gone, or a field is not editable)."""


def identity(fields: dict[str, Any]) -> tuple[str, ...]:
    """Who an entry is, as the loader tells duplicates apart (the defaults spelled out)."""
    defaults = {"route": "npu", "match": "name", "source_versions": "*"}
    return tuple(str(fields.get(key, defaults.get(key, ""))) for key in IDENTITY)


class HandEdits:
    """Per table, per entry identity: the fields set by hand (a value of null removes what the rows gave)."""

    def __init__(self, edits: dict[str, dict[tuple[str, ...], dict[str, Any]]], origin: str) -> None:
        self._edits = edits
        self._origin = origin
        self._used: set[tuple[str, tuple[str, ...]]] = set()

    @classmethod
    def read(cls, path: Path = HAND_EDITS) -> HandEdits:
        if not path.exists():
            return cls({}, str(path))
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        edits: dict[str, dict[tuple[str, ...], dict[str, Any]]] = {}
        for table, entries in (document.get("tables") or {}).items():
            for number, item in enumerate(entries, start=1):
                fields = dict(item.get("set") or {})
                wrong = sorted(set(fields) - set(EDITABLE))
                if wrong:
                    raise HandEditError(f"{path}: {table} entry {number} ({item.get('api')}): fields {wrong} are "
                                        f"not decided by hand (editable: {', '.join(EDITABLE)})")
                edits.setdefault(table, {})[identity(item)] = fields
        return cls(edits, str(path))

    def apply(self, table: str, values: dict[str, Any]) -> None:
        key = identity(values)
        fields = self._edits.get(table, {}).get(key)
        if fields is None:
            return
        self._used.add((table, key))
        for name, value in fields.items():
            if value is None:
                values.pop(name, None)
            else:
                values[name] = value

    def check_all_used(self) -> None:
        """Every hand edit must still find its entry: a row that left the reference is reviewed, not forgotten."""
        unused = [f"{table}: {key[0]} ({', '.join(part for part in key[1:] if part)})"
                  for table, entries in self._edits.items() for key in entries if (table, key) not in self._used]
        if unused:
            raise HandEditError(f"{self._origin}: no generated entry for {len(unused)} hand edits: "
                                + "; ".join(unused[:5]))


def record(generated: Path, committed: Path, tables: list[str], path: Path = HAND_EDITS) -> int:
    """Writes hand_edits.yaml from the difference between freshly generated tables (without hand edits) and the
    committed ones, for the editable fields; returns how many entries carry a hand edit."""
    document: dict[str, Any] = {"tables": {}}
    count = 0
    for table in tables:
        fresh = {identity(entry): entry for entry in _entries(generated / f"{table}.yaml")}
        items = []
        for entry in _entries(committed / f"{table}.yaml"):
            base = fresh.get(identity(entry), {})
            changed = {name: entry.get(name) for name in EDITABLE if entry.get(name) != base.get(name)}
            if changed:
                key = {name: entry[name] for name in IDENTITY if name in entry}
                items.append({**key, "set": changed})
        if items:
            document["tables"][table] = items
            count += len(items)
    text = ("# Fields of generated NPU-table entries decided by hand (python -m tools.generate_ascend applies them;\n"
            "# --record-hand-edits rewrites this file from the committed tables). Keyed by api, match, condition,\n"
            "# receiver and source_versions; null removes a field the reference rows gave.\n")
    path.write_text(text + yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=120), encoding="utf-8")
    return count


def _entries(path: Path) -> list[dict[str, Any]]:
    return list((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("entries") or [])
