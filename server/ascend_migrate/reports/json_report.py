"""`scan --format json`: one JSON document, the stable contract documented in the README."""

from __future__ import annotations

import json
from pathlib import Path

from ascend_migrate import __version__
from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports.output import write_text
from ascend_migrate.workspace import ScanResult

JSON_VERSION = 1


def document(result: ScanResult) -> dict:
    return {
        "version": JSON_VERSION,
        "tool": {"name": "ascend-migrate", "version": __version__},
        "target": result.settings.target,
        "files_scanned": result.files_scanned,
        "findings": [finding.to_json() for finding in result.findings],
        "errors": [error.to_json() for error in result.errors],
    }


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    write_text(json.dumps(document(result), indent=2, ensure_ascii=False) + "\n", output)
