"""`scan --format json`: one JSON document, the stable contract documented in the README."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ascend_migrate import __version__
from ascend_migrate.analysis.findings import ScanResult
from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports.output import write_parts

JSON_VERSION = 1


def document(result: ScanResult) -> dict:
    """The report as a JSON value (what `render` writes, one finding per line)."""
    return {
        **_head(result),
        "findings": [finding.to_json() for finding in result.findings],
        "errors": [error.to_json() for error in result.errors],
    }


def _head(result: ScanResult) -> dict:
    return {
        "version": JSON_VERSION,
        "tool": {"name": "ascend-migrate", "version": __version__},
        "target": result.settings.target,
        "files_scanned": result.files_scanned,
        # additive to version 1: directories left out because of what they are (a virtual environment, ...)
        "skipped_directories": [{"path": skipped.path, "reason": skipped.message} for skipped in result.skipped_directories],
        # additive to version 1: files of a kind that holds code but is not read (notebooks, CUDA sources)
        "not_analysed": [{"path": skipped.path, "kind": skipped.message} for skipped in result.not_analysed],
    }


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    write_parts(_parts(result), output)


def render(result: ScanResult) -> str:
    """The document as `write` writes it."""
    return "".join(_parts(result))


def _parts(result: ScanResult) -> Iterator[str]:
    """The document with one finding (and one error) per line, in pieces: readable, diffable, cheap to write.

    Exactly `json.dumps(item, ensure_ascii=False)` per item, but a finding's line is put together from its
    position and the encoding of the rest, which is shared by every finding of the same API and message
    (a project has thousands of findings and a few hundred distinct messages), and the pieces go to the file
    one by one rather than joined into one string of many megabytes first (docs/performance.md).
    """
    encode = json.JSONEncoder(ensure_ascii=False).encode
    yield "{\n"
    for key, value in _head(result).items():
        yield f"  {encode(key)}: {encode(value)},\n"
    sections = (("findings", _finding_lines(result.findings, encode), ","),
                ("errors", (encode(error.to_json()) for error in result.errors), ""))
    for key, items, after in sections:
        separator = f"  {encode(key)}: [\n    "
        for item in items:
            yield separator
            yield item
            separator = ",\n    "
        yield f"  {encode(key)}: []{after}\n" if separator.startswith("  ") else f"\n  ]{after}\n"
    yield "}\n"


def _finding_lines(findings, encode):
    paths: dict[str, str] = {}
    rests: dict[tuple, str] = {}
    for finding in findings:
        path = paths.get(finding.path)
        if path is None:
            path = paths[finding.path] = encode(finding.path)
        key = (finding.code, finding.category, finding.severity, finding.api, finding.message, finding.suggestion,
               finding.confidence, finding.fix is not None, finding.doc_url)
        rest = rests.get(key)
        if rest is None:
            everything = finding.to_json()
            for position in ("path", "cell", "line", "column", "end_line", "end_column"):
                everything.pop(position, None)
            rest = rests[key] = encode(everything)[1:]  # without its "{": it follows the position below
        cell = f'"cell": {finding.cell}, ' if finding.cell else ""
        yield (f'{{"path": {path}, {cell}"line": {finding.line}, "column": {finding.column}, '
               f'"end_line": {finding.end_line}, "end_column": {finding.end_column}, {rest}')
