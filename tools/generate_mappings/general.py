"""The doc's "General Difference Parameter Table": torch keywords MindSpore has nowhere (out, device, ...).

Each becomes one `match: pattern` entry with `condition: general-keyword` and the keyword as `api`, so the
engine can flag `out=` / `device=` / ... on any torch call it maps to MindSpore (code MS104).
"""

from __future__ import annotations

from tools.generate_mappings.docs import page_url
from tools.generate_mappings.sources import BRANCHES, PYTORCH_TABLE_PATH, GeneralParameter

CONDITION = "general-keyword"
CODE = "MS104"
# Keywords whose doc note names a MindSpore parameter to use instead.
REPLACEMENTS = {"size_average": "reduction", "reduce": "reduction"}


def file_provenance() -> str:
    return BRANCHES["master"].provenance("pytorch_general_difference_params.csv", PYTORCH_TABLE_PATH)


def build(rows: list[GeneralParameter]) -> list[dict]:
    entries = []
    for row in rows:
        replacement = REPLACEMENTS.get(row.name)
        parameter = {"source": row.name, "change": "meaning" if replacement else "removed"}
        if replacement:
            parameter["target"] = replacement
        entry = {
            "api": row.name,
            "match": "pattern",
            "condition": CONDITION,
            "category": "ms-differs",
            "code": CODE,
            "target_versions": "*",
            # Dropping the keyword is a fix that changes behaviour (unsafe); size_average/reduce need a
            # reduction= value worked out by hand.
            "fix": "none" if replacement else "unsafe",
            "parameters": [parameter],
            "note": f"{row.meaning}; MindSpore has no such argument.",
            "suggestion": row.doc_note,
            "docs": [page_url(PYTORCH_TABLE_PATH, row.branch)],
        }
        if row.branch != "master":
            # Only the r2.4.10 table lists it; the 2.5+ table (mint) dropped the row.
            entry["target_versions"] = "<2.5"
            entry["note"] += " Listed only in the r2.4.10 table; the master (2.6) table no longer lists it."
            entry["provenance"] = BRANCHES[row.branch].provenance("pytorch_general_difference_params.csv", PYTORCH_TABLE_PATH)
        entries.append(entry)
    return entries
