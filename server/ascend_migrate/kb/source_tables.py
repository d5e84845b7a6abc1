"""Which knowledge-base table answers for the PyTorch or TensorFlow version a user names, or why none does.

The tables are written against a few releases only (shared/reference READMEs): torch_npu's support tables
for PyTorch 2.1, 2.6, 2.7 and 2.8 (the `source_versions` ranges of the npu tables); MindSpore's PyTorch
mapping for PyTorch 2.1 (older rows for torchvision and friends cite 1.8.1); MindSpore's TensorFlow mapping
for TensorFlow 2.6 and 1.15. A version between tables is answered by the nearest older table, and said so;
a version older or newer than every table is refused: its findings would be guesses.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_migrate.kb.versions import VersionRangeError, parse_version


@dataclass(frozen=True)
class SourceTables:
    library: str
    tables: tuple[str, ...]  # the releases the tables are written for, oldest first
    oldest: str  # every version from `oldest` up to the newest table's minor release is answered
    # whether a version between tables is looked up as the nearest older table (the npu tables differ per
    # release); otherwise the one table answers for the whole range and the note only names it
    snap_to_table: bool
    # whether a version between tables is worth a note: MindSpore's torch table is one table for all of
    # PyTorch 1.8 to 2.8 (its rows name APIs, not releases), while TensorFlow 1.x and 2.x APIs differ widely
    explain_between: bool = True


ASCEND_TORCH = SourceTables("PyTorch", ("2.1", "2.6", "2.7", "2.8"), "2.1", snap_to_table=True)
MINDSPORE_TORCH = SourceTables("PyTorch", ("1.8", "2.1"), "1.8", snap_to_table=False, explain_between=False)
MINDSPORE_TENSORFLOW = SourceTables("TensorFlow", ("1.15", "2.6"), "1.15", snap_to_table=False)
# The MindSpore route's torch names come from torch 2.8's own inventory: newer torch is not known.
_NEWEST_TORCH = "2.8"
_NEWEST_TENSORFLOW = "2.19"


@dataclass(frozen=True)
class TableChoice:
    version: str  # the version the knowledge base is asked for
    note: str | None  # one line for stderr when the answer is not the exact table asked for


def choose(tables: SourceTables, version: str, newest: str) -> TableChoice:
    """The version to look up for `version`, and what to tell the user; VersionRangeError when out of range."""
    asked = _minor(parse_version(version))
    listed = ", ".join(tables.tables[:-1]) + f" and {tables.tables[-1]}"
    if asked < _minor(parse_version(tables.oldest)) or asked > _minor(parse_version(newest)):
        raise VersionRangeError(
            f"{tables.library} {version} is outside the knowledge base: its tables cover {tables.library} "
            f"{tables.oldest} to {newest} (written for {listed})"
        )
    exact = [table for table in tables.tables if _minor(parse_version(table)) == asked]
    if exact:
        return TableChoice(version, None)
    older = [table for table in tables.tables if _minor(parse_version(table)) <= asked]
    nearest = older[-1] if older else tables.tables[0]
    if tables.snap_to_table:
        return TableChoice(nearest, f"{tables.library} {version} has no Ascend table of its own (tables: {listed}); "
                                    f"using the {tables.library} {nearest} table, the nearest older one")
    if not tables.explain_between:
        return TableChoice(version, None)
    return TableChoice(version, f"{tables.library} {version} has no MindSpore table of its own (tables: {listed}); "
                                f"using the {tables.library} {nearest} table, the nearest older one")


def _minor(version: tuple[int, ...]) -> tuple[int, int]:
    return (version[0], version[1] if len(version) > 1 else 0)


def resolve_versions(target: str, torch_version: str, tensorflow_version: str, uses_tensorflow: bool = True) -> tuple[str, list[str]]:
    """(the torch version to look up, the notes to print) for a route; VersionRangeError names the bad one."""
    notes = []
    torch_tables = ASCEND_TORCH if target == "npu" else MINDSPORE_TORCH
    torch_choice = choose(torch_tables, torch_version, _NEWEST_TORCH)
    if torch_choice.note:
        notes.append(torch_choice.note)
    if target == "mindspore" and uses_tensorflow:
        tensorflow_choice = choose(MINDSPORE_TENSORFLOW, tensorflow_version, _NEWEST_TENSORFLOW)
        if tensorflow_choice.note:
            notes.append(tensorflow_choice.note)
    return torch_choice.version, notes
