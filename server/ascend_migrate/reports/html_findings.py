"""The findings part of the HTML report: the filter bar, one section per file, each finding with its source lines.

Everything from the scanned project goes through `html.escape`; `data-search` holds the lower-case text the
filter script matches against (file, code, category, severity, API, message, suggestion).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from urllib.parse import urlsplit

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.reports.readiness import Readiness, grade
from ascend_migrate.reports.sources import ScannedSources

CONTEXT_LINES = 2


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def findings_section(
    findings: list[Finding],
    categories: list[str],
    files: list[Readiness],
    by_path: dict[str, list[Finding]],
    anchors: dict[str, str],
    sources: ScannedSources,
) -> str:
    counts = Counter(finding.category for finding in findings)
    toggles = "".join(
        f'<button type="button" class="toggle cat-{category}" data-category="{category}" aria-pressed="true">'
        f'<span class="swatch cat-{category}"></span>{category} <span class="toggle-count">{counts[category]}</span></button>'
        for category in categories
    )
    sections = "".join(
        _file_section(item, by_path[item.path], anchors[item.path], sources) for item in files if item.findings
    )
    total = len(findings)
    if not sections:
        sections = '<p class="panel muted">No findings: nothing to change for this target.</p>'
    return (
        '<section id="findings">'
        '<div class="toolbar">'
        '<input id="filter" type="search" placeholder="Filter by file, API, code or message" autocomplete="off" '
        'aria-label="Filter findings">'
        f'<div class="toggles" role="group" aria-label="Categories">{toggles}</div>'
        f'<span id="shown-count" data-count="{total}">Showing {total} of {total} findings</span>'
        "</div>"
        f"{sections}"
        '<p id="no-match" class="panel muted" hidden>No finding matches the filter.</p>'
        "</section>"
    )


def _file_section(item: Readiness, findings: list[Finding], anchor: str, sources: ScannedSources) -> str:
    articles = "".join(_finding_article(finding, sources) for finding in findings)
    return (
        f'<section class="file" id="{anchor}" data-path="{escape(item.path)}">'
        f'<div class="file-head"><h3>{escape(item.path)}</h3>'
        f'<span class="pill {grade(item.score)}">readiness {item.score}</span>'
        f'<span class="muted">{plural(item.findings, "finding")} · {plural(item.blockers, "blocker")} · '
        f"{item.code_lines} code lines</span></div>{articles}</section>"
    )


def _finding_article(finding: Finding, sources: ScannedSources) -> str:
    # Category and severity come from fixed tables, but a finding is data: escape them like everything else.
    category, severity = escape(finding.category), escape(finding.severity)
    search = " ".join(
        [finding.path, finding.code, finding.category, finding.severity, finding.api, finding.message, finding.suggestion]
    ).lower()
    tags = []
    if finding.fix is not None:
        tags.append(f'<span class="tag fix">{"auto-fix" if finding.fix.safe else "fix (check)"}</span>')
    if finding.confidence != "exact":
        tags.append(f'<span class="tag confidence" title="how sure the finding is">{escape(finding.confidence)}</span>')
    suggestion = (
        f'<p class="suggestion"><span class="label">Suggestion</span> {escape(finding.suggestion)}</p>'
        if finding.suggestion
        else ""
    )
    doc = (
        f'<a class="doc" href="{escape(finding.doc_url)}" rel="noopener noreferrer" target="_blank">Documentation ↗</a>'
        if _is_web_link(finding.doc_url)
        else ""
    )
    fix_title = (
        f'<p class="fix-title"><span class="label">Fix</span> {escape(finding.fix.title)}</p>' if finding.fix is not None else ""
    )
    return (
        f'<article class="finding sev-{severity}" data-category="{category}" '
        f'data-severity="{severity}" data-code="{escape(finding.code)}" data-search="{escape(search)}">'
        '<div class="finding-head">'
        f'<span class="badge sev-{severity}">{severity}</span>'
        f'<span class="code">{escape(finding.code)}</span>'
        f'<span class="chip cat-{category}">{category}</span>'
        f'<span class="location">{escape(finding.path)}{f" cell {finding.cell}, line " if finding.cell else ":"}{finding.line}:{finding.column}</span>'
        f'<code class="api">{escape(finding.api)}</code>{"".join(tags)}</div>'
        f'<p class="message">{escape(finding.message)}</p>{suggestion}{fix_title}'
        f"{_excerpt(finding, sources)}{doc}</article>"
    )


def _is_web_link(url: str) -> bool:
    return urlsplit(url).scheme in ("http", "https") if url else False


def _excerpt(finding: Finding, sources: ScannedSources) -> str:
    lines = sources.lines(finding.path)
    if not lines or finding.line > len(lines):
        return ""
    first = max(1, finding.line - CONTEXT_LINES)
    last = min(len(lines), max(finding.end_line, finding.line) + CONTEXT_LINES)
    # Blank neighbours at the edges show nothing; the flagged lines always stay.
    while first < finding.line and not lines[first - 1].strip():
        first += 1
    while last > finding.end_line and not lines[last - 1].strip():
        last -= 1
    rows = []
    for number in range(first, last + 1):
        text = lines[number - 1]
        flagged = finding.line <= number <= finding.end_line
        rows.append(
            f'<tr class="{"flagged" if flagged else "context"}"><td class="ln">{number}</td>'
            f"<td class=\"src\">{_marked(text, number, finding) if flagged else escape(text)}</td></tr>"
        )
    return f'<table class="excerpt">{"".join(rows)}</table>'


def _marked(text: str, number: int, finding: Finding) -> str:
    # A continuation line is marked from its first character, not from its indentation.
    start = finding.column - 1 if number == finding.line else len(text) - len(text.lstrip())
    end = finding.end_column - 1 if number == finding.end_line else len(text)
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    if end <= start:
        return escape(text)
    return f"{escape(text[:start])}<mark>{escape(text[start:end])}</mark>{escape(text[end:])}"
