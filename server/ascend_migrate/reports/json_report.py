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
    write_text(render(document(result)), output)


def render(data: dict) -> str:
    """The document with one finding (and one error) per line: readable, diffable, and written by the C
    encoder (json.dumps with `indent` falls back to the pure-Python one, 3x slower on a big project)."""
    head = {key: value for key, value in data.items() if key not in ("findings", "errors")}
    lines = ["{"]
    lines += [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in head.items()]
    for key in ("findings", "errors"):
        items = [f"    {json.dumps(item, ensure_ascii=False)}" for item in data[key]]
        body = "[\n" + ",\n".join(items) + "\n  ]" if items else "[]"
        lines.append(f"  {json.dumps(key)}: {body}{',' if key == 'findings' else ''}")
    lines.append("}")
    return "\n".join(lines) + "\n"
