"""Parameter-difference rows of the reference → the `parameters:` list of an entry."""

from __future__ import annotations

from collections import defaultdict

from tools.generate_mappings.sources import ParameterRow

# The reference's flags → the schema's `change`. A row with several flags takes the first change in
# CHANGE_PRIORITY: whether the parameter exists at all matters most, a rename least (the names show it).
FLAG_CHANGES = {
    "renamed": "renamed",
    "torch_only": "removed",
    "tf_only": "removed",
    "mindspore_only": "added",
    "default_differs": "default",
    "sig_default_differs": "default",
    "type_differs": "type",
    "io_differs": "meaning",
    "behavior_differs": "meaning",
    "position_differs": "position",
}
CHANGE_PRIORITY = ("removed", "added", "meaning", "type", "default", "position", "renamed")
NOTE_LIMIT = 200


class ParameterIndex:
    """Parameter rows looked up by (source api, MindSpore api, branch) or, failing that, by (diff page, branch)."""

    def __init__(self, rows: list[ParameterRow]) -> None:
        self.by_pair: dict[tuple[str, str, str], list[ParameterRow]] = defaultdict(list)
        self.by_page: dict[tuple[str, str], list[ParameterRow]] = defaultdict(list)
        for row in rows:
            for branch in row.branches:
                self.by_pair[(row.source_api, row.mindspore_api, branch)].append(row)
                if row.diff_page:
                    self.by_page[(row.diff_page, branch)].append(row)

    def find(self, source_api: str, mindspore_api: str, diff_page: str, branch: str) -> tuple[list[ParameterRow], str]:
        """The rows for a mapping, and the pair they were written for when it is another one on a shared page."""
        rows = self.by_pair.get((source_api, mindspore_api, branch))
        if rows:
            return rows, ""
        if diff_page:
            rows = self.by_page.get((diff_page, branch))
            if rows:
                return rows, rows[0].source_api or rows[0].mindspore_api
        return [], ""


def change_of(flags: tuple[str, ...]) -> str | None:
    changes = {FLAG_CHANGES[flag] for flag in flags if flag in FLAG_CHANGES}
    for change in CHANGE_PRIORITY:
        if change in changes:
            return change
    return None


def parameter_entries(rows: list[ParameterRow], source_label: str) -> list[dict]:
    """One schema parameter per differing row (rows with no flag say the parameter is the same: left out)."""
    entries: list[dict] = []
    seen: set[tuple] = set()
    for row in rows:
        change = change_of(row.flags)
        if change is None:
            continue
        if row.kind == "output":
            change = "meaning"  # an output is no argument: nothing a call could rename, drop or add
        source = row.source_parameter or None
        target = row.mindspore_parameter or None
        if change == "removed":
            target = None
        elif change == "added":
            source = None
        if source is None and target is None:
            continue
        identity = (source, target, change)
        if identity in seen:
            continue
        seen.add(identity)
        parameter: dict = {"source": source, "target": target, "change": change}
        if row.source_default and source is not None:
            parameter["source_default"] = row.source_default
        if row.mindspore_default and target is not None:
            parameter["target_default"] = row.mindspore_default
        note = _note(row, source_label)
        if note:
            parameter["note"] = note
        entries.append({key: value for key, value in parameter.items() if value is not None})
    return entries


def _note(row: ParameterRow, source_label: str) -> str:
    parts = []
    if row.kind != "parameter":
        parts.append(f"({row.kind})")
    if "sig_default_differs" in row.flags and "default_differs" not in row.flags:
        parts.append("the signatures' defaults differ; the doc text does not mention it.")
    # An inline note of the mapping table is already the entry's note; a diff page's row text is not.
    if row.row_source == "diff_page" and row.difference and row.difference.lower() not in ("not involved", "-"):
        parts.append(row.difference)
    text = " ".join(parts).strip()
    return text[:NOTE_LIMIT]


def is_pure_rename(parameters: list[dict]) -> bool:
    """Only keyword renames between plain names (rows that are the `same` aside): `*sizes` → `multiples` turns
    varargs into one argument, and `betas` → `beta1, beta2` splits one, so neither is a rename a fix could make."""
    differing = [parameter for parameter in parameters if parameter["change"] != "same"]
    return bool(differing) and all(
        parameter["change"] == "renamed"
        and str(parameter.get("source", "")).isidentifier()
        and str(parameter.get("target", "")).isidentifier()
        for parameter in differing
    )


# torch keywords no MindSpore API has (the general keyword table covers them), left out before lining up.
GENERAL_KEYWORDS = frozenset({"out", "layout", "device", "requires_grad", "pin_memory", "memory_format", "inplace"})


def renames_from_signatures(source: list[str], target: list[str], method: bool) -> list[tuple[str, str]] | None:
    """The keyword renames two real signatures show, when their parameters line up one to one; None when
    they do not (a different count means more than names differ, and that needs a person)."""
    source = [name for name in source if name not in GENERAL_KEYWORDS and not name.startswith("_")]
    target = [name for name in target if not name.startswith("_")]
    if method and target[:1] == ["input"] and source[:1] != ["input"]:
        target = target[1:]  # MindSpore documents some tensor methods with the tensor as `input`
    if not source or len(source) != len(target):
        return None
    return [(old, new) for old, new in zip(source, target, strict=True) if old != new]
