"""The analysis files `migrate` writes into DST/transplant_result_file/, in the Ascend tool's layout.

msfmktransplt (GPU2Ascend) writes its analysis next to the migrated code in `transplant_result_file/`: the
PyTorch Analyse CSVs, `change_list.csv` (File, Start Line, End Line, Operation Type, Message), `unknown_api.csv`
(File, Start Line, End Line, OP, Tips) and the log `msFmkTranspltlog.txt` (names and columns read from
Ascend-mstt@ef8e0386 msfmktransplt/src/ms_fmk_transplt/transfer/transplant.py and ms_fmk_transplt.py). The
CSVs `scan --format csv` writes are the analysis of the source; `findings_left.csv` and `summary.json` are ours.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ascend_migrate.analysis.findings import FINDING_ORDER, FileError, Finding, ScanResult
from ascend_migrate.config import Settings
from ascend_migrate.files import write_atomically
from ascend_migrate.projects.one_file import FileMigration
from ascend_migrate.reports.csv_report import FINDINGS_FILE, _csv_text, render

CHANGE_LIST = ("change_list.csv", ("File", "Start Line", "End Line", "Operation Type", "Message"))
UNKNOWN_API = ("unknown_api.csv", ("File", "Start Line", "End Line", "OP", "Tips"))
UNKNOWN_TIP = "No table of ascend-migrate knows this torch name: check by hand whether the target supports it."
LOG_FILE = "msFmkTranspltlog.txt"
LEFT_FILE = "findings_left.csv"
SUMMARY_FILE = "summary.json"


@dataclass
class Summary:
    """What a migration did, as `summary.json` holds it and the command prints it."""

    source: str
    destination: str
    target: str
    files_copied: int = 0
    files_analysed: int = 0
    files_changed: list[str] = field(default_factory=list)
    fixes_applied: int = 0
    findings_by_category: dict[str, int] = field(default_factory=dict)  # in the source
    left_by_category: dict[str, int] = field(default_factory=dict)  # in the migrated copy
    not_analysed: dict[str, int] = field(default_factory=dict)  # kind of file → how many were copied unread
    skipped: list[dict[str, str]] = field(default_factory=list)  # paths not copied, with why
    errors: list[dict[str, object]] = field(default_factory=list)  # files copied without being migrated
    extra: dict[str, object] = field(default_factory=dict)  # what --auto, --distributed and the lists did

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def summarise(summary: Summary, outcomes: Sequence[FileMigration], not_analysed: Iterable[str]) -> Summary:
    summary.files_copied = len(outcomes)
    summary.files_analysed = sum(outcome.analysed for outcome in outcomes)
    summary.files_changed = [outcome.relative for outcome in outcomes if outcome.changed]
    summary.fixes_applied = sum(outcome.applied for outcome in outcomes)
    summary.findings_by_category = dict(sorted(Counter(f.category for o in outcomes for f in o.findings).items()))
    summary.left_by_category = dict(sorted(Counter(f.category for o in outcomes for f in o.left).items()))
    summary.not_analysed = dict(sorted(Counter(not_analysed).items()))
    summary.errors = [error.to_json() for error in _errors(outcomes)]
    return summary


def _errors(outcomes: Sequence[FileMigration]) -> list[FileError]:
    return [outcome.error for outcome in outcomes if outcome.error is not None]


def write_all(directory: Path, outcomes: Sequence[FileMigration], settings: Settings, summary: Summary,
              log_lines: Sequence[str]) -> list[str]:
    """Write every analysis file into `directory` (each atomically); returns their names."""
    files = render(_scan_result(directory, settings, outcomes, [f for o in outcomes for f in o.findings]))
    files[LEFT_FILE] = render(_scan_result(directory, settings, outcomes, [f for o in outcomes for f in o.left]))[FINDINGS_FILE]
    files[CHANGE_LIST[0]] = _csv_text(CHANGE_LIST[1], (
        (outcome.relative, operation.start_line, operation.end_line, operation.kind, operation.message)
        for outcome in outcomes for operation in outcome.operations
    ))
    files[UNKNOWN_API[0]] = _csv_text(UNKNOWN_API[1], (
        (outcome.relative, line, end_line, name, UNKNOWN_TIP) for outcome in outcomes for line, end_line, name in outcome.unknown
    ))
    files[LOG_FILE] = "".join(line + "\n" for line in log_lines)
    files[SUMMARY_FILE] = json.dumps(summary.to_json(), indent=2, ensure_ascii=False) + "\n"
    for name, text in files.items():
        write_atomically(directory / name, text.encode("utf-8"))
    return sorted(files)


def _scan_result(directory: Path, settings: Settings, outcomes: Sequence[FileMigration], findings: list[Finding]) -> ScanResult:
    result = ScanResult(root=directory, settings=settings, files_scanned=sum(o.analysed for o in outcomes),
                        findings=sorted(findings, key=FINDING_ORDER), errors=_errors(outcomes))
    return result


def summary_text(summary: Summary) -> str:
    """The summary as the command prints it."""
    changed = len(summary.files_changed)
    lines = [
        f"migrated {summary.source} -> {summary.destination} for {summary.target}: {summary.files_copied} files copied, "
        f"{summary.files_analysed} analysed, {changed} changed, {summary.fixes_applied} fix{'es' if summary.fixes_applied != 1 else ''} applied",
    ]
    found, left = summary.findings_by_category, summary.left_by_category
    if found or left:
        lines.append(f"  {'category':<18} {'found':>6} {'left':>6}")
        for category in sorted(set(found) | set(left)):
            lines.append(f"  {category:<18} {found.get(category, 0):>6} {left.get(category, 0):>6}")
    for kind, count in summary.not_analysed.items():
        lines.append(f"not analysed (copied unchanged): {count} {kind} file{'s' if count != 1 else ''}")
    for entry in summary.skipped:
        lines.append(f"not copied: {entry['path']}: {entry['reason']}")
    for error in summary.errors:
        location = f"{error['path']}:{error['line']}" if error.get("line") else error["path"]
        lines.append(f"not migrated: {location}: {error['message']}")
    return "\n".join(lines) + "\n"
