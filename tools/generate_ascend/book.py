"""Collecting entries: rows that describe the same API (and match, condition, receiver, versions) merge into
one draft, because the loader refuses duplicates; every draft remembers which reference rows it stands for."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from tools.generate_ascend.dtype_conditions import with_dtype_condition
from tools.generate_ascend.hand_edits import HandEdits
from tools.generate_ascend.reference import Row

from ascend_migrate.kb.patterns import PATTERN_NAMES

# The order keys are written in, so that a reviewer reads the same shape everywhere.
FIELD_ORDER = ("api", "route", "match", "receiver", "condition", "documentation_only", "category", "code", "reported",
               "severity", "target", "fix", "note", "note_original", "suggestion", "when", "parameters",
               "source_versions", "docs", "provenance", "verified", "curated")
# Conditions the loader learnt after the first tables were written: their entries were appended to the tables
# then (moved from proposed/), so they are written after the others to keep the committed order.
LATE_CONDITIONS = ("device-argument", "tensor-type", "torch-npu-not-imported")
TABLE_DESCRIPTIONS = {
    "cuda_npu": "CUDA → Ascend NPU (torch_npu): renamed torch.cuda APIs, device and backend strings, CUDA "
                "methods, CUDA environment variables and backend switches, DataParallel.",
    "npu_affinity": "NPU-affine replacements: fused torch_npu optimizers and operators, and the code shapes "
                    "they replace (msfmktransplt affinity list, torch_npu.contrib, msprof-analyze rules).",
    "npu_unsupported": "APIs unsupported on Ascend NPU or working differently there: msfmktransplt's "
                       "per-version tables (PyTorch 2.1/2.6/2.7/2.8), its advice, and curated caveats.",
    "npu_dynamic_shape": "Operations whose output shape depends on the data, with Ascend rewrite advice.",
    "third_party": "Third-party libraries that are CUDA-only or need an Ascend-adapted build, for both routes.",
}


@dataclass
class Draft:
    table: str
    fields: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    parameters: list[dict[str, str]] = field(default_factory=list)
    rows: dict[str, set[int]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def absorb(self, row: Row | None = None, note: str = "", suggestion: str = "", source: str = "",
               parameters: tuple[dict[str, str], ...] = ()) -> None:
        if row is not None:
            self.rows.setdefault(row.table, set()).add(row.number)
            for part in row.values.get("source", "").split("; "):
                _append_once(self.sources, part.strip())
        _append_once(self.notes, note)
        _append_once(self.suggestions, suggestion)
        for part in source.split("; "):
            _append_once(self.sources, part.strip())
        for parameter in parameters:
            if parameter not in self.parameters:
                self.parameters.append(parameter)

    def provenance(self) -> str:
        rows = [f"ascend/{table} row{'s' if len(numbers) > 1 else ''} {', '.join(map(str, sorted(numbers)))}"
                for table, numbers in sorted(self.rows.items())]
        return "; ".join(rows + self.sources)

    def to_yaml_mapping(self, hand_edits: HandEdits | None = None) -> dict[str, Any]:
        values = dict(self.fields)
        if self.notes:
            values["note"] = " ".join(self.notes)
        if self.suggestions:
            values["suggestion"] = " ".join(self.suggestions)
        if self.parameters:
            values["parameters"] = self.parameters
        values["provenance"] = self.provenance()
        if values.get("match") == "pattern" and values.get("condition", values.get("api")) not in PATTERN_NAMES:
            values["documentation_only"] = True  # a shape the engine has no matcher for (kb/patterns.py)
        if hand_edits is not None:
            hand_edits.apply(self.table, values)
        with_dtype_condition(values)  # after the hand edits: a `when` decided by hand keeps its dtype list too
        ordered = {key: values[key] for key in FIELD_ORDER if values.get(key) not in (None, "", [], ())}
        unknown = set(values) - set(FIELD_ORDER)
        if unknown:
            raise ValueError(f"draft for {values.get('api')!r} has unknown fields {sorted(unknown)}")
        if values.get("source_versions") == "*":
            ordered.pop("source_versions", None)
        return ordered


def _append_once(items: list[str], text: str) -> None:
    if text and text not in items:
        items.append(text)


class Book:
    """All drafts, keyed by the identity the loader uses to refuse duplicates."""

    def __init__(self) -> None:
        self._drafts: dict[tuple, Draft] = {}

    @staticmethod
    def identity(fields: dict[str, Any]) -> tuple:
        return (fields["api"], fields.get("route", "npu"), fields.get("match", "name"), fields.get("condition", ""),
                fields.get("receiver", ""), fields.get("source_versions", "*"))

    def entry(self, table: str, **fields: Any) -> Draft:
        """The draft with this identity, created in `table` when new. Fields of an existing draft are kept:
        the first (curated) decision wins, later rows only add notes, rows and sources."""
        fields.setdefault("match", "name")
        key = self.identity(fields)
        draft = self._drafts.get(key)
        if draft is None:
            draft = self._drafts[key] = Draft(table, fields)
        return draft

    def find(self, api: str, match: str = "name", condition: str = "", receiver: str = "",
             source_versions: str = "*", route: str = "npu") -> Draft | None:
        return self._drafts.get((api, route, match, condition, receiver, source_versions))

    def all_drafts(self) -> list[Draft]:
        return list(self._drafts.values())

    def drafts(self, table: str) -> list[Draft]:
        return [draft for draft in self._drafts.values() if draft.table == table]

    def write(self, directory: Path, hand_edits: HandEdits | None = None) -> dict[str, int]:
        """Write every table; entries whose condition the loader does not know yet go to proposed/<table>.yaml,
        which the knowledge base does not read (it loads mappings/*.yaml only). `hand_edits` are the reviewed
        decisions made in the tables by hand (hand_edits.yaml), applied on top of what the rows say."""
        counts = {}
        for table, description in TABLE_DESCRIPTIONS.items():
            accepted, proposed = [], []
            for draft in self.drafts(table):
                (accepted if condition_is_known(draft.fields) else proposed).append(draft)
            accepted.sort(key=lambda draft: draft.fields.get("condition") in LATE_CONDITIONS)
            _write_table(directory / f"{table}.yaml", table, description, accepted, hand_edits)
            counts[table] = len(accepted)
            proposed_path = directory / "proposed" / f"{table}.yaml"
            if proposed:
                proposed_path.parent.mkdir(exist_ok=True)
                _write_table(proposed_path, table, description + " Proposed entries: their conditions are not yet "
                             "known to the loader (ascend_migrate.kb.loader.CONDITIONS).", proposed, hand_edits)
                counts[f"proposed/{table}"] = len(proposed)
            elif proposed_path.exists():
                proposed_path.unlink()
        if hand_edits is not None:
            hand_edits.check_all_used()
        return counts


def condition_is_known(fields: dict[str, Any]) -> bool:
    """Whether the installed loader accepts this entry's condition (pattern conditions: see kb/patterns.py)."""
    from ascend_migrate.kb.loader import CONDITIONS

    condition = fields.get("condition", "")
    allowed = CONDITIONS.get(fields.get("match", "name"))
    return not condition or allowed is None or condition in allowed


def _write_table(path: Path, table: str, description: str, drafts: list[Draft],
                 hand_edits: HandEdits | None) -> None:
    document = {"table": table, "description": description,
                "entries": [draft.to_yaml_mapping(hand_edits) for draft in drafts]}
    text = ("# Generated by `python -m tools.generate_ascend` from the Ascend reference data, then reviewed.\n"
            "# Row references in provenance count CSV data rows from 1 (header excluded).\n")
    text += yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=120)
    temporary = path.with_suffix(".yaml.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
