"""Side-by-side runs (`ascend-migrate kb verify --numeric`, recorded in mappings/verification/numeric.yaml)
folded into the entries they checked: agreement goes into `verified`, a disagreement makes the entry ms-differs
(never a safe fix) with what differs and on which inputs, and a safe fix the battery did not run in the forms it
writes is downgraded to unsafe. The edge-input sweep's differences (corrections.EDGE_INPUTS, tools/edge_inputs.py) go
into the entry's edge_difference beside the run's."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from tools.generate_mappings.corrections import EDGE_INPUTS, EDGE_IS_ORDINARY

from ascend_migrate.kb.versions import parse_range, parse_version

RECORD = Path("verification/numeric.yaml")
_KEYWORD = re.compile(r"(\w+)=")


def exercised(entry: dict, result: dict | None, mindspore: str) -> str | None:
    """Why a safe fix of `entry` was not exercised by the run `result` (None when it was): the rename must have
    run and agreed on the battery, with every keyword it renames passed and every form of the call it writes
    (each keyword torch documents, by name and by position) run on both sides."""
    if result is None:
        if not parse_range(entry.get("target_versions", "*")).contains(parse_version(mindspore)):
            return f"its MindSpore range does not hold {mindspore}, the version the battery ran"
        return "the battery does not run it (not a torch function, tensor method or layer it can call)"
    if result["outcome"] != "agree":
        return f"the battery could not run it ({result.get('detail', result['outcome'])})"
    # keyword cases are `dim=1` (a call) or `Softmin(dim=1)` (a layer's constructor)
    checked = {name for case in result.get("checked", ()) for name in _KEYWORD.findall(case)}
    missing = [row["source"] for row in entry.get("parameters", ())
               if row.get("change") == "renamed" and row.get("source") not in checked]
    if missing:
        return f"the battery did not pass {', '.join(missing)}"
    refused = [row["source"] for row in entry.get("parameters", ()) if row.get("change") in ("removed", "position")]
    if refused:  # a rename would pass them on as keywords to a target that has no such keyword
        return f"the target refuses {', '.join(refused)}= as a keyword, which a call may pass"
    # forms of the call the fix writes (each documented keyword, each position) that did not run on both sides
    unexercised = result.get("unexercised", ())
    if unexercised:
        more = f"; and {len(unexercised) - 2} more" if len(unexercised) > 2 else ""
        return f"the battery did not run every form the fix writes ({'; '.join(unexercised[:2])}{more})"
    return None


class NumericRecord:
    """The results of one recorded run, by (source api, MindSpore target)."""

    def __init__(self, document: dict) -> None:
        versions = document.get("versions", {})
        self.torch = str(versions.get("torch", "?"))
        self.mindspore = str(versions.get("mindspore", "?"))
        self.results = {(result["api"], result["target"]): result for result in document.get("results", ())}

    @classmethod
    def read(cls, mappings: Path) -> NumericRecord | None:
        path = mappings / RECORD
        if not path.exists():
            return None
        return cls(yaml.safe_load(path.read_text(encoding="utf-8")) or {})

    def result(self, entry: dict) -> dict | None:
        """The run of this entry: same api and target, and a range that holds the run's MindSpore."""
        result = self.results.get((entry["api"], entry.get("target")))
        if result is None or not parse_range(entry.get("target_versions", "*")).contains(parse_version(self.mindspore)):
            return None
        return result

    def apply(self, entry: dict) -> str | None:
        """Updates an entry from its run; returns the outcome when it changed the entry's category."""
        result = self.result(entry)
        changed = self._fold(entry, result) if result is not None else None
        swept = EDGE_INPUTS.get((entry["api"], entry.get("target"))) if result is not None else None
        if swept:  # the edge-input sweep's difference: shown in the hover, as the battery's own edge differences are
            earlier = entry.get("edge_difference", "")
            entry["edge_difference"] = f"{earlier} {swept}." if earlier else f"{swept}."  # swept starts with a name
            if entry["category"] == "ms-equivalent":
                # an entry called consistent must pass every input it was run on (issue 16); one that differs only
                # on edge inputs is ms-differs at info severity (the hover, not a warning on every call), no safe fix
                entry["category"] = "ms-differs"
                entry.pop("code", None)
                entry["severity"] = "info"
                if entry.get("fix") == "safe":
                    entry["fix"] = "unsafe"
                    entry["verified"] = f"{entry.get('verified', '')}; not a safe fix: the edge-input sweep found a difference"
                note = "Differs only on edge inputs (see the edge difference); ordinary inputs agree."
                entry["note"] = f"{entry['note']} {note}" if entry.get("note") else note
                changed = changed or "differ"
        if entry.get("fix") == "safe":
            reason = exercised(entry, result, self.mindspore)
            if reason is not None:
                entry["fix"] = "unsafe"
                entry["verified"] = f"{entry.get('verified', '')}; not a safe fix: {reason}".lstrip("; ")
        return changed

    def _fold(self, entry: dict, result: dict) -> str | None:
        run = f"run side by side on the CPU (torch {self.torch}, mindspore {self.mindspore}) from {result.get('call', '?')}"
        outcome = result["outcome"]
        earlier = entry.get("verified", "")
        if outcome == "agree":
            difference = result.get("max_difference")
            agreement = (f"numeric: agrees, {run}, {_cases(result)}" + (f", max |difference| {difference}" if difference else "")
                         + _unchecked(result))
            # Kept beside the run: the names it resolved and any signature or call read by hand.
            entry["verified"] = f"{agreement}; {earlier}" if earlier else agreement
            return None
        if outcome not in ("differ", "error"):
            return None
        changed = entry["category"] == "ms-equivalent"
        if changed:
            entry["category"] = "ms-differs"
            entry.pop("code", None)  # MS105 and the like are codes of ms-equivalent
        ordinary = EDGE_IS_ORDINARY.get((entry["api"], entry.get("target")))
        if ordinary:
            result = {**result, "scope": "all", "detail": f"{result.get('detail', '')} ({ordinary})"}
        if result.get("scope") in ("edge", "form") and (changed or entry.get("severity") == "info"):
            # differs only on edge inputs, or only where a call passes a keyword or position the probe does not:
            # shown in the hover, not a warning on every call
            entry["severity"] = "info"
        if entry.get("fix") != "none":  # an entry no rename can serve keeps no fix
            entry["fix"] = "unsafe"  # a rename would not keep the behaviour the run saw
        detail = " ".join(result.get("detail", "").split())
        if result.get("scope") == "edge":
            # the message names the inputs; the hover's edge line says what differs on them
            inputs = [case for case in result.get("checked", ()) if f"{case}:" in detail]
            note = f"Differs only on edge inputs ({', '.join(inputs) or 'see the edge difference'}); ordinary inputs agree."
            entry["edge_difference"] = f"{detail.rstrip('.')}; {run}."
        else:
            where = {"form": "Differs only in some forms of the call", "all": "Differs"}.get(result.get("scope", ""), "Fails")
            note = f"{where} when {run}: {detail}"
        entry["note"] = f"{entry['note']} {note}" if entry.get("note") else note
        found = f"numeric: {outcome}, {run}, {_cases(result)}{_unchecked(result)}"
        entry["verified"] = f"{found}; {earlier}" if earlier else found
        return outcome if changed else None


def _cases(result: dict) -> str:
    """How much of the battery ran: the record lists the cases by name."""
    checked = result.get("checked", ())
    return "on the probe only" if len(checked) <= 1 else f"on {len(checked)} cases of the battery (listed in {RECORD})"


def _unchecked(result: dict) -> str:
    """"; not checked on int64, bool (...)" for the cases the CPU build could not run (int64/bool inputs,
    inplace=True): an answer that agrees says what it was not checked on."""
    unchecked = [line.partition(": ") for line in result.get("unchecked", ()) or ()]
    kernels = [case for case, _, reason in unchecked if reason.startswith("no CPU kernel")]
    others = [case for case, _, reason in unchecked if not reason.startswith("no CPU kernel")]
    said = f"; not checked on {', '.join(kernels)} (no CPU kernel in this mindspore)" if kernels else ""
    return said + (f"; not checked on {', '.join(others)} (reasons in {RECORD})" if others else "")
