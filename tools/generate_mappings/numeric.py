"""Side-by-side runs (`ascend-migrate kb verify --numeric`, recorded in mappings/verification/numeric.yaml)
folded into the entries they checked: agreement goes into `verified`, a disagreement makes the entry
ms-differs (never a safe fix) with what differs."""

from __future__ import annotations

from pathlib import Path

import yaml
from ascend_migrate.kb.versions import parse_range, parse_version

RECORD = Path("verification/numeric.yaml")


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

    def apply(self, entry: dict) -> str | None:
        """Updates an entry the run checked (same api and target, a range that holds the run's MindSpore);
        returns the outcome when it changed the entry's category."""
        result = self.results.get((entry["api"], entry.get("target")))
        if result is None or not parse_range(entry.get("target_versions", "*")).contains(parse_version(self.mindspore)):
            return None
        run = f"run side by side on the CPU (torch {self.torch}, mindspore {self.mindspore}) on {result.get('call', '?')}"
        outcome = result["outcome"]
        if outcome == "agree":
            difference = result.get("max_difference")
            agreement = f"numeric: agrees, {run}" + (f", max |difference| {difference}" if difference else "")
            earlier = entry.get("verified", "")
            # A name check says less than a run; any other check (a signature read by hand) is kept beside it.
            entry["verified"] = agreement if not earlier or earlier.startswith("name check") else f"{agreement}; {earlier}"
            return None
        if outcome not in ("differ", "error"):
            return None
        if entry["category"] == "ms-equivalent":
            entry["category"] = "ms-differs"
            entry.pop("code", None)  # MS105 and the like are codes of ms-equivalent
        entry["fix"] = "unsafe"  # a rename would not keep the behaviour the run saw
        what = result.get("detail", "")
        note = f"{'Differs' if outcome == 'differ' else 'Fails'} when {run}: {what}"
        entry["note"] = f"{entry['note']} {note}" if entry.get("note") else note
        earlier = entry.get("verified", "")
        found = f"numeric: {outcome}, {run}"
        entry["verified"] = found if not earlier or earlier.startswith("name check") else f"{found}; {earlier}"
        return outcome
