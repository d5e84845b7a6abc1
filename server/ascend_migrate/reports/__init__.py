"""One module per output format. Each has `write(result, output, options)`; `output` None means stdout."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

# format name → module in this package
FORMATS = {
    "text": "text",
    "json": "json_report",
    "csv": "csv_report",
    "sarif": "sarif",
    "html": "html",
}


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False  # ANSI colour in text output
    bom: bool = False  # a UTF-8 byte-order mark in CSV files, for Excel


def writer(format_name: str):
    """The `write` function of a format."""
    module = importlib.import_module(f"ascend_migrate.reports.{FORMATS[format_name]}")
    return module.write
