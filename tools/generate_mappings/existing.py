"""The entries other tables already hold, which the generated tables must not repeat (the loader refuses duplicates)."""

from __future__ import annotations

from pathlib import Path

import yaml

HAND_WRITTEN_TABLES = ("pytorch_mindspore_curated.yaml", "structure.yaml", "tensorflow_mindspore_curated.yaml",
                       "tensorflow_structure.yaml")


def hand_written_apis(mappings: Path) -> dict[tuple[str, str], str]:
    """(api, route) → the table that defines it, for the hand-written tables that exist. An entry with a `condition`
    speaks for some uses only (MS236's float64-file cells) and leaves the generated entry for the others."""
    found: dict[tuple[str, str], str] = {}
    for name in HAND_WRITTEN_TABLES:
        path = mappings / name
        if not path.exists():
            continue
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for entry in document.get("entries") or ():
            if entry.get("condition") and entry.get("match", "name") == "name":
                continue
            route = entry.get("route") or ("npu" if str(entry.get("category", "")).startswith("npu") else "mindspore")
            found.setdefault((entry["api"], route), name)
    return found
