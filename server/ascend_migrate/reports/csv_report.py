"""`scan --format csv --output DIR`: the CSV files of the Ascend migration analysis tool, plus one flat findings.csv.

`--output FILE.csv` (a name ending in .csv that is not an existing directory) writes only the flat table there.

msfmktransplt's PyTorch Analyse writes one CSV per analysis mode into `<project>_analysis/`. Teams keep
spreadsheets and scripts built on those files, so the same file names and the same header rows are written
here, filled from our findings (docs/reports.md has the correspondence, column by column). `findings.csv`
has every field of the JSON contract, one finding per row.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.analysis.findings import Finding, ScanResult
from ascend_migrate.files import write_atomically
from ascend_migrate.reports import ReportOptions

FINDINGS_FILE = "findings.csv"
FINDINGS_COLUMNS = (
    "path", "line", "column", "end_line", "end_column", "code", "category", "severity", "api", "message",
    "suggestion", "confidence", "fixable", "doc_url", "cell",  # cell: a notebook's cell number, else empty
)
# The tool writes "NA" where a column has no value (for example the File of a project-wide advice row).
NOT_APPLICABLE = "NA"


@dataclass(frozen=True)
class AscendFile:
    """One CSV file of the Ascend tool: its name, its header row, which findings go in it and how."""

    name: str
    columns: tuple[str, ...]
    categories: tuple[str, ...]
    row: Callable[[Finding], tuple[object, ...]]
    # Rows that would repeat (the tool lists an operator once per file) are written once.
    unique: bool = False
    # codes of those categories that do not belong in this file
    excluded_codes: tuple[str, ...] = ()


def _file(finding: Finding) -> str:
    """The File column: a notebook's finding names its cell (its line numbers count in that cell)."""
    return f"{finding.path} (cell {finding.cell})" if finding.cell else finding.path


def _tips(finding: Finding) -> str:
    return f"{finding.message} {finding.suggestion}" if finding.suggestion else finding.message


def _api_type(finding: Finding) -> str:
    # The tool's affinity types: 'torch' for a torch API called by name, 'special' for a code shape.
    return "special" if finding.code == "NPU302" else "torch"


_QUOTED = re.compile(r"`([^`]+)`")


def _affinity_target(finding: Finding) -> str:
    """The replacement's name, as the tool's column holds it: the first `quoted` name of the suggestion."""
    quoted = _QUOTED.search(finding.suggestion)
    return quoted.group(1) if quoted else finding.suggestion or finding.message


ASCEND_FILES: tuple[AscendFile, ...] = (
    # PyTorch Analyse, mode torch_apis: APIs the target does not support.
    AscendFile(
        "unsupported_api.csv",
        ("File", "Start Line", "End Line", "OP", "Tips"),
        ("npu-unsupported", "ms-unsupported"),
        lambda f: (_file(f), f.line, f.end_line, f.api, _tips(f)),
    ),
    # Mode torch_apis: the tool's list of CUDA operators; here, the CUDA APIs each file uses.
    AscendFile(
        "cuda_op_list.csv",
        ("File", "Api"),
        ("npu-rename",),
        lambda f: (_file(f), f.api),
        unique=True,
        excluded_codes=("NPU106",),  # "import torch_npu is missing" names no CUDA API
    ),
    # Mode affinity_apis.
    AscendFile(
        "affinity_api_call.csv",
        ("File", "Start Line", "End Line", "Api Type", "Api Call Name", "Affinity Api Name"),
        ("npu-affinity",),
        lambda f: (_file(f), f.line, f.end_line, _api_type(f), f.api, _affinity_target(f)),
    ),
    # Mode dynamic_shape: the tool records shapes while the model runs; a static scan has no stack or shapes.
    AscendFile(
        "msft_dynamic_shape_analysis_report.csv",
        ("Function Name", "File Path", "Line Number", "Call Stack", "Input Shape Range", "Output Shape Range"),
        ("npu-dynamic-shape",),
        lambda f: (f.api, _file(f), f.line, NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE),
    ),
    # Mode third_party.
    AscendFile(
        "full_unsupported_results.csv",
        ("File", "3rd-party API", "Message"),
        ("third-party",),
        lambda f: (_file(f), f.api, f"start_line:{f.line}, {_tips(f)}"),
    ),
)


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    if output is None:
        raise ValueError("the csv format writes several files: give a directory with --output")
    encoding = "utf-8-sig" if options.bom else "utf-8"
    files = render(result)
    if output.suffix.lower() == ".csv" and not output.is_dir():
        # A file name, not a directory: the one table that holds every finding.
        write_atomically(output, files[FINDINGS_FILE].encode(encoding))
        return
    for name, data in files.items():
        write_atomically(output / name, data.encode(encoding))


def render(result: ScanResult) -> dict[str, str]:
    """File name → CSV text, for every file the report writes (files with no rows still get their header)."""
    files = {}
    for ascend_file in ASCEND_FILES:
        chosen = [
            finding for finding in result.findings
            if finding.category in ascend_file.categories and finding.code not in ascend_file.excluded_codes
        ]
        rows = [ascend_file.row(finding) for finding in chosen]
        if ascend_file.unique:
            rows = list(dict.fromkeys(rows))
        files[ascend_file.name] = _csv_text(ascend_file.columns, rows)
    files[FINDINGS_FILE] = _csv_text(FINDINGS_COLUMNS, (_flat_row(finding) for finding in result.findings))
    return files


def _flat_row(finding: Finding) -> tuple[object, ...]:
    data = finding.to_json()
    return tuple(_json_cell(data.get(column, "")) for column in FINDINGS_COLUMNS)


def _json_cell(value: object) -> object:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _csv_text(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    table = csv.writer(buffer, lineterminator="\r\n")
    table.writerow(columns)
    for row in rows:
        table.writerow([neutralise_formula(cell) for cell in row])
    return buffer.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "%", "\t", "\r", "＝", "＋", "－", "＠")


def neutralise_formula(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula, made plain text (a leading space, as the tool does).

    Paths and messages come from the scanned project, so a file named `=HYPERLINK(...).py` must not become a
    live formula when someone opens the report in Excel.
    """
    if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS):
        return " " + cell
    return cell
