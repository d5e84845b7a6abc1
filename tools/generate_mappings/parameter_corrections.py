"""Applies corrections.ParameterCorrection: corrected parameter rows, and an entry split at the release they change."""

from __future__ import annotations

import copy

from tools.generate_mappings.corrections import ParameterCorrection
from tools.generate_mappings.notes import join_notes

SIDES = {"target": ("target_versions", "MindSpore"), "source": ("source_versions", "torch")}


class CorrectionError(ValueError):
    """A correction that no longer finds the doc row it corrects: the reference changed, so corrections.py needs a look."""


def corrected_rows(parameters: list[dict], correction: ParameterCorrection, label: str) -> list[dict]:
    """The rows with each fix applied (a fixed row carries its reason as its note), then the rows the doc lacks."""
    fixes = {(fix.source, fix.target): fix for fix in correction.fixes}
    found: set[tuple] = set()
    rows: list[dict] = []
    for row in parameters:
        key = (row.get("source"), row.get("target"))
        fix = fixes.get(key)
        if fix is None:
            rows.append(row)
            continue
        found.add(key)
        if fix.becomes is not None:
            rows.append({**fix.becomes, "note": f"correction: {fix.reason}"})
    missing = [f"{source} -> {target}" for source, target in fixes if (source, target) not in found]
    if missing:
        raise CorrectionError(f"{label}: no doc parameter row {', '.join(missing)} to correct; review "
                              f"tools/generate_mappings/corrections.py")
    for row in correction.added:
        note = row.get("note", "in the real signatures, not in the doc")
        rows.append({**row, "note": f"correction: {note}"})
    return rows


def split_correction(corrections: tuple[ParameterCorrection, ...]) -> tuple[tuple[ParameterCorrection, ...], ParameterCorrection | None]:
    """The corrections for every range, and the one (if any) that holds only from its `since` on."""
    splitting = [correction for correction in corrections if correction.since]
    if len(splitting) > 1:
        raise CorrectionError("an entry can be split at one release only")
    return tuple(correction for correction in corrections if not correction.since), (splitting[0] if splitting else None)


def with_range_clause(current: str | None, clause: str) -> str:
    """`current` narrowed by `clause`; a new lower bound replaces the old one (`>=2.5` from 2.7 on is `>=2.7`)."""
    kept = [part for part in (current or "*").split(",") if part not in ("", "*")]
    if clause.startswith(">="):
        kept = [part for part in kept if not part.startswith(">")]
    return ",".join([*kept, clause])


def split_entry(entry: dict, correction: ParameterCorrection, label: str) -> dict:
    """Narrows the doc's `entry` to the releases before `since` and returns the corrected entry for the rest."""
    key, package = SIDES[correction.side]
    corrected = copy.deepcopy(entry)
    doc_note = entry.get("note", "")
    entry[key] = with_range_clause(entry.get(key), f"<{correction.since}")
    entry["note"] = join_notes([f"correction: the doc's parameters hold for {package} before {correction.since}; "
                                f"another entry has them from {correction.since} on", doc_note] if doc_note else
                               [f"correction: the doc's parameters hold for {package} before {correction.since}"])
    corrected[key] = with_range_clause(corrected.get(key), f">={correction.since}")
    rows = corrected_rows(corrected.pop("parameters", []), correction, label)
    if correction.equivalent:
        rows = [row for row in rows if row["change"] == "same"]
        corrected["category"] = "ms-equivalent"
        corrected["fix"] = "safe"
    if rows:
        corrected["parameters"] = rows
    corrected["note"] = join_notes([correction.note, f"The doc: {doc_note}"] if doc_note else [correction.note])
    corrected["verified"] = correction.checked
    return corrected
