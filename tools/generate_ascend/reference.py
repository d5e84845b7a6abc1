"""Reading the reference: the four Ascend CSVs and, optionally, msfmktransplt's per-version JSON tables."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

# The PyTorch versions msfmktransplt ships tables for (resource/op_list_<v>.json, supported_op_<v>.json).
TABLE_VERSIONS = ("2.1", "2.6", "2.7", "2.8")
MSFMKTRANSPLT_COMMIT = "xiaobingling93-pixel/Ascend-mstt@99c2e0f990a17d328f487062acc9c490f7f6ff26"
RESOURCE_PATH = "msfmktransplt/src/ms_fmk_transplt/resource"


@dataclass(frozen=True)
class Row:
    """One data row of a reference CSV; `number` counts data rows from 1 (the header is not a row)."""

    table: str  # the CSV file name, e.g. cuda_to_npu.csv
    number: int
    values: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return self.values[column]


def read_rows(directory: Path, name: str) -> list[Row]:
    with (directory / name).open(encoding="utf-8", newline="") as handle:
        return [Row(name, number, dict(values)) for number, values in enumerate(csv.DictReader(handle), start=1)]


@dataclass(frozen=True)
class VersionTables:
    """msfmktransplt's per-version tables: unsupported APIs and restriction notes, keyed by PyTorch version."""

    unsupported: dict[str, frozenset[str]]
    restrictions: dict[str, dict[str, str]]

    @classmethod
    def read(cls, directory: Path | None) -> VersionTables:
        """The tables from a directory holding op_list_2_8.json etc.; only 2.8 is known without one."""
        unsupported: dict[str, frozenset[str]] = {}
        restrictions: dict[str, dict[str, str]] = {}
        if directory is None:
            return cls(unsupported, restrictions)
        for version in TABLE_VERSIONS:
            suffix = version.replace(".", "_")
            op_list = json.loads((directory / f"op_list_{suffix}.json").read_text(encoding="utf-8"))["op_list"]
            supported = json.loads((directory / f"supported_op_{suffix}.json").read_text(encoding="utf-8"))["op_list"]
            unsupported[version] = frozenset(op_list)
            restrictions[version] = {api: note.replace("<br>", "; ") for api, note in supported.items()}
        return cls(unsupported, restrictions)

    @property
    def known(self) -> bool:
        return bool(self.unsupported)

    def unsupported_range(self, api: str) -> list[str]:
        """The version ranges in which `api` is listed unsupported (2.8 only when the tables are absent)."""
        if not self.known:
            return [">=2.8,<2.9"]
        return contiguous_ranges([api in self.unsupported[version] for version in TABLE_VERSIONS])

    def restriction_range(self, api: str, note: str) -> list[str]:
        """The version ranges in which `api` carries exactly this restriction note."""
        if not self.known:
            return [">=2.8,<2.9"]
        return contiguous_ranges([self.note_in(version, api, note) for version in TABLE_VERSIONS])

    def note_in(self, version: str, api: str, note: str) -> bool:
        # The CSV left dtype-only fragments out of some notes; a table note that contains the CSV note counts.
        table_note = self.restrictions[version].get(api)
        return table_note is not None and (table_note == note or note in table_note)


def next_minor(version: str) -> str:
    major, minor = version.split(".")
    return f"{major}.{int(minor) + 1}"


def contiguous_ranges(listed: list[bool]) -> list[str]:
    """Version ranges covering the runs of tables that list an API.

    A run that spans several tables covers the releases between them (2.1 and 2.6 listed → 2.2 to 2.5 too:
    msfmktransplt ships no tables for those, and an API unsupported before and after is assumed unsupported in
    between). A run ends just before the next minor release after its last table, because later releases were
    not checked.
    """
    ranges = []
    start = None
    for index, is_listed in enumerate(listed):
        if is_listed and start is None:
            start = index
        if start is not None and (not is_listed or index == len(listed) - 1):
            end = index if is_listed else index - 1
            ranges.append(f">={TABLE_VERSIONS[start]},<{next_minor(TABLE_VERSIONS[end])}")
            start = None
    return ranges


def table_source(kind: str, version: str) -> str:
    """The provenance of one msfmktransplt per-version table."""
    return f"{MSFMKTRANSPLT_COMMIT}:{RESOURCE_PATH}/{kind}_{version.replace('.', '_')}.json"
