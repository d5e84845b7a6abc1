"""`scan --format sarif`: one SARIF 2.1.0 log for code-scanning services (GitHub, Azure DevOps, IDE viewers).

Every code in codes.py is a rule. Results point at files relative to `%SRCROOT%` (the directory the scan's
relative paths start from) and carry a partial fingerprint that survives edits elsewhere in the file, so a
service keeps tracking the same alert when lines move. Fixable findings carry their edits as SARIF fixes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

from ascend_migrate import __version__
from ascend_migrate.analysis.findings import Finding, ScanResult
from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports.fix_edits import FixEdits
from ascend_migrate.reports.labels import code_help_uri, project_url
from ascend_migrate.reports.output import write_text
from ascend_migrate.reports.sources import ScannedSources
from ascend_migrate.taxonomy import CATEGORY_MEANINGS, CODES, DEFAULT_SEVERITY

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"
# Bump the version in the key whenever the fingerprint recipe changes, so services do not match old to new.
FINGERPRINT_KEY = "ascendMigrate/v1"
CONTEXT_LINES = 2

# Our severities → SARIF levels (SARIF has no "hint"; a hint is a note).
LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}

RULE_IDS = tuple(CODES)
RULE_INDEX = {code: index for index, code in enumerate(RULE_IDS)}


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    write_text(json.dumps(document(result), indent=2, ensure_ascii=False) + "\n", output)


def document(result: ScanResult, source_root: Path | None = None) -> dict[str, Any]:
    """The SARIF log. `source_root` is what relative finding paths are relative to (default: `base_directory`)."""
    sources = ScannedSources(result)
    root = (source_root or sources.base).resolve()
    fingerprints = _fingerprints(result.findings, sources)
    fix_edits = FixEdits(sources)
    run: dict[str, Any] = {
        "tool": {"driver": _driver()},
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [
            _result(finding, fingerprint, sources, fix_edits) for finding, fingerprint in zip(result.findings, fingerprints, strict=True)
        ],
        "properties": {"target": result.settings.target, "filesScanned": result.files_scanned},
    }
    if result.errors:
        run["invocations"] = [_invocation(result)]
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _driver() -> dict[str, Any]:
    return {
        "name": "ascend-migrate",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": project_url(),
        "rules": [_rule(code) for code in RULE_IDS],
    }


def _rule(code: str) -> dict[str, Any]:
    info = CODES[code]
    summary = _sentence(info.summary)
    return {
        "id": code,
        # SARIF's convention for a rule's friendly name is one Pascal-case word (the validator's SARIF2012).
        "name": pascal_case(info.name),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": f"{summary} Category {info.category}: {_sentence(CATEGORY_MEANINGS[info.category])}"},
        "helpUri": code_help_uri(code),
        "help": {"text": f"{summary} See {code_help_uri(code)} for examples and the fix."},
        "defaultConfiguration": {"level": LEVELS[DEFAULT_SEVERITY[info.category]]},
        "properties": {"category": info.category, "tags": [info.category]},
    }


def _result(finding: Finding, fingerprint: str, sources: ScannedSources, fix_edits: FixEdits) -> dict[str, Any]:
    text = _sentence(finding.message) + (f" {_sentence(finding.suggestion)}" if finding.suggestion else "")
    physical: dict[str, Any] = {"artifactLocation": _artifact(finding.path), "region": _region(finding, sources)}
    context = _context_region(finding, sources)
    if context is not None:
        physical["contextRegion"] = context
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": LEVELS[finding.severity],
        "message": {"text": text},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "properties": {
            "category": finding.category,
            "api": finding.api,
            "confidence": finding.confidence,
            "severity": finding.severity,
        },
    }
    if finding.code in RULE_INDEX:
        result["ruleIndex"] = RULE_INDEX[finding.code]
    if finding.doc_url:
        result["properties"]["docUrl"] = finding.doc_url
    if finding.cell:  # a notebook: the region's lines are those of this cell (SARIF has no cells)
        result["properties"]["cell"] = finding.cell
    fixes = _fixes(finding, fix_edits)
    if fixes:
        result["fixes"] = fixes
    return result


def _artifact(path: str) -> dict[str, Any]:
    if _WINDOWS_ABSOLUTE.match(path):
        return {"uri": Path(path).as_uri()}
    # The file name's own bytes, percent-encoded: a finding's path shows bytes that are not UTF-8 as \xNN
    # (workspace.printable_path), which as text would name another file.
    raw = _ESCAPED_BYTE.sub(lambda match: bytes([int(match.group(1), 16)]), path.encode("utf-8"))
    if raw.startswith(b"/"):
        return {"uri": "file://" + quote_from_bytes(raw, safe="/")}
    return {"uri": quote_from_bytes(raw, safe="/"), "uriBaseId": SOURCE_ROOT}


_ESCAPED_BYTE = re.compile(rb"\\x([0-9a-f]{2})")
_WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]")


def _region(finding: Finding, sources: ScannedSources) -> dict[str, Any]:
    region: dict[str, Any] = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
    }
    snippet = sources.span(finding.path, finding.line, finding.column, finding.end_line, finding.end_column)
    if snippet:
        region["snippet"] = {"text": snippet}
    return region


def _context_region(finding: Finding, sources: ScannedSources) -> dict[str, Any] | None:
    lines = sources.lines(finding.path)
    if not lines:
        return None
    first = max(1, finding.line - CONTEXT_LINES)
    last = min(len(lines), max(finding.end_line, finding.line) + CONTEXT_LINES)
    if first > last:
        return None
    return {"startLine": first, "endLine": last, "snippet": {"text": "\n".join(lines[first - 1:last]) + "\n"}}


def _fixes(finding: Finding, fix_edits: FixEdits) -> list[dict[str, Any]]:
    fix = finding.fix
    edits = fix_edits.edits(finding)
    if fix is None or not edits:
        return []
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.line,
                "startColumn": edit.column,
                "endLine": edit.end_line,
                "endColumn": edit.end_column,
            },
            "insertedContent": {"text": edit.new_text},
        }
        for edit in sorted(edits, key=lambda edit: (edit.line, edit.column))
    ]
    description = _sentence(fix.title) + ("" if fix.safe else " Check the result: this fix may change behaviour.")
    return [
        {
            "description": {"text": description},
            "artifactChanges": [{"artifactLocation": _artifact(finding.path), "replacements": replacements}],
        }
    ]


def _fingerprints(findings: list[Finding], sources: ScannedSources) -> list[str]:
    """A hash of what was found and the text of its line, numbered among identical ones in the same file.

    The line number is left out on purpose: adding a line above a finding must not make it a new alert.
    """
    seen: Counter[tuple[str, str, str, str]] = Counter()
    fingerprints = []
    for finding in findings:
        line_text = _normalised(sources.line(finding.path, finding.line) or "")
        key = (finding.path, finding.code, finding.api, line_text)
        occurrence = seen[key]
        seen[key] += 1
        material = "\0".join((finding.code, finding.api, line_text, str(occurrence)))
        fingerprints.append(hashlib.sha256(material.encode("utf-8")).hexdigest()[:32])
    return fingerprints


def _normalised(line: str) -> str:
    return " ".join(line.split())


def _invocation(result: ScanResult) -> dict[str, Any]:
    notifications = []
    for error in result.errors:
        location: dict[str, Any] = {"artifactLocation": _artifact(error.path)}
        if error.line:
            location["region"] = {"startLine": error.line}
        notifications.append(
            {
                "level": "warning",
                "message": {"text": _sentence(f"{error.path} was not fully analysed: {error.message}")},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {"executionSuccessful": True, "toolExecutionNotifications": notifications}


def pascal_case(kebab: str) -> str:
    """`cuda-api-rename` → `CudaApiRename`."""
    return "".join(part[:1].upper() + part[1:] for part in kebab.split("-"))


_SENTENCE_END = re.compile(r"[.!?。！？]$")


def _sentence(text: str) -> str:
    """SARIF wants plain-text messages to be complete sentences ending in a period."""
    text = text.strip()
    if not text or _SENTENCE_END.search(text):
        return text
    return text + "."
