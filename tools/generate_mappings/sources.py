"""The reference CSVs as rows, and where each came from (file, doc branch, commit)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from tools.generate_mappings.defaults import mapping_row_by_value, parameter_row_by_value

DEFAULT_REFERENCE = Path("/work/shared/reference/mindspore")
DOCS_REPOSITORY = "mindspore-ai/docs"
PYTORCH_TABLE_PATH = "docs/mindspore/source_en/note/api_mapping/pytorch_api_mapping.md"
TENSORFLOW_TABLE_PATH = "docs/mindspore/source_en/note/api_mapping/tensorflow_api_mapping.md"


@dataclass(frozen=True)
class DocBranch:
    """One branch of the MindSpore docs that a table was read from."""

    name: str
    commit: str
    note: str

    def provenance(self, csv_names: str, table_path: str) -> str:
        return f"{csv_names} from {DOCS_REPOSITORY} {table_path} at {self.name} {self.commit[:12]} ({self.note})"


BRANCHES = {
    "master": DocBranch("master", "9e844dc65dc5ef4381574e8b6ec2f93f9681f720", "2025-07-04, describes MindSpore 2.6.0"),
    "r2.4.10": DocBranch("r2.4.10", "4193344555cd72447ba39227765a78c2ba289762", "MindSpore 2.4.10, mindspore.ops/nn"),
    "r2.1": DocBranch("r2.1", "f55d64cc666df1406c82367eb066f1707db14ad5", "the last branch with the TensorFlow table"),
}


@dataclass(frozen=True)
class MappingRow:
    source_api: str
    mindspore_api: str
    category: str
    diff_flags: tuple[str, ...]
    doc_note: str
    diff_summary: str
    diff_page: str
    section: str
    source_doc_version: str
    branch: str


@dataclass(frozen=True)
class ParameterRow:
    source_api: str
    mindspore_api: str
    kind: str
    source_parameter: str
    mindspore_parameter: str
    source_default: str
    mindspore_default: str
    flags: tuple[str, ...]
    difference: str
    diff_page: str
    branches: tuple[str, ...]
    row_source: str


@dataclass(frozen=True)
class GeneralParameter:
    name: str
    meaning: str
    doc_note: str
    branch: str


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _flags(text: str) -> tuple[str, ...]:
    return tuple(flag for flag in text.split(";") if flag)


def read_mapping(path: Path, source_column: str, version_column: str) -> list[MappingRow]:
    """The mapping rows; defaults the summary calls different but which are the same value are taken out."""
    return [
        mapping_row_by_value(MappingRow(
            source_api=row[source_column].strip(),
            mindspore_api=row["mindspore_api"].strip(),
            category=row["category"],
            diff_flags=_flags(row["diff_flags"]),
            doc_note=row["doc_note"].strip(),
            diff_summary=row["diff_summary"].strip(),
            diff_page=row["diff_page"].strip(),
            section=row["section"],
            source_doc_version=row[version_column],
            branch=row["doc_ref"],
        ))
        for row in _read(path)
    ]


def read_parameters(path: Path, prefix: str) -> list[ParameterRow]:
    """The parameter rows; a default difference between two spellings of one value is no difference."""
    return [
        parameter_row_by_value(ParameterRow(
            source_api=row[f"{prefix}_api"],
            mindspore_api=row["mindspore_api"],
            kind=row["kind"],
            source_parameter=row[f"{prefix}_param"].strip(),
            mindspore_parameter=row["mindspore_param"].strip(),
            source_default=row[f"{prefix}_default"].strip(),
            mindspore_default=row["mindspore_default"].strip(),
            flags=_flags(row["flags"]),
            difference=row["difference"].strip(),
            diff_page=row["diff_page"].strip(),
            branches=tuple(row["doc_ref"].split(";")),
            row_source=row["row_source"],
        ))
        for row in _read(path)
    ]


def read_general_parameters(path: Path) -> list[GeneralParameter]:
    return [GeneralParameter(row["param"], row["meaning"], row["doc_note"], row["doc_ref"]) for row in _read(path)]


def read_resolution(path: Path) -> dict[str, bool]:
    """MindSpore name → whether it resolves in the installed mindspore 2.10.0 (the reference's import check)."""
    return {row["mindspore_api"]: row["resolves"] == "yes" for row in _read(path)}
