"""`scan --format html --output report.html`: one self-contained page to plan a migration from.

The page is rendered here, on the server side: every piece of text from the scanned project (paths, source
lines, messages, API names) goes through `html.escape`, and the page embeds no data as script. The stylesheet
and the small filter script are inlined from `html_assets/`; a Content-Security-Policy admits exactly those two
(by hash) and nothing else, so the page opens offline and a line of scanned code can never run as script.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter, defaultdict
from html import escape
from importlib import resources
from pathlib import Path

from ascend_migrate import __version__
from ascend_migrate.analysis.findings import Finding, ScanResult
from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports.html_charts import Bar, Slice, bars, donut, score_ring
from ascend_migrate.reports.html_findings import findings_section, plural
from ascend_migrate.reports.output import write_text
from ascend_migrate.reports.readiness import Readiness, explanation, grade, readiness
from ascend_migrate.reports.sources import ScannedSources
from ascend_migrate.taxonomy import CATEGORIES, CATEGORY_MEANINGS, CATEGORY_ROUTES, ROUTE_MINDSPORE, SEVERITIES

TOP_FILES = 10
TOP_APIS = 10


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    write_text(render(result), output)


def render(result: ScanResult) -> str:
    sources = ScannedSources(result)
    files, overall = readiness(result, sources)
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in result.findings:
        by_path[finding.path].append(finding)
    anchors = {item.path: f"file-{number}" for number, item in enumerate(files, start=1)}
    style = _asset("report.css")
    script = _asset("report.js")
    body = "\n".join(
        [
            _header(result),
            "<main>",
            _summary(result, files, overall),
            _charts(result, files, anchors),
            _readiness_section(files, anchors, {error.path for error in result.errors}),
            findings_section(result.findings, _route_categories(result), files, by_path, anchors, sources),
            _errors_section(result),
            "</main>",
            _footer(result),
        ]
    )
    policy = (
        f"default-src 'none'; style-src '{_hash(style)}'; script-src '{_hash(script)}'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="ascend-migrate {escape(__version__)}">\n'
        f"<title>Ascend migration report · {escape(_target_name(result))}</title>\n"
        f"<style>{style}</style>\n</head>\n<body>\n{body}\n<script>{script}</script>\n</body>\n</html>\n"
    )


def _asset(name: str) -> str:
    # One name per joinpath: on Python 3.10 an installed zip's zipfile.Path takes only one.
    return resources.files("ascend_migrate.reports").joinpath("html_assets").joinpath(name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _target_name(result: ScanResult) -> str:
    return "MindSpore" if result.settings.target == ROUTE_MINDSPORE else "Ascend NPU (torch_npu)"


def _route_categories(result: ScanResult) -> list[str]:
    present = {finding.category for finding in result.findings}
    return [c for c in CATEGORIES if result.settings.target in CATEGORY_ROUTES[c] or c in present]


def _header(result: ScanResult) -> str:
    settings = result.settings
    versions = (
        f"PyTorch {settings.torch_version} → MindSpore {settings.mindspore_version}"
        if settings.target == ROUTE_MINDSPORE
        else f"PyTorch {settings.torch_version} → torch_npu"
    )
    return (
        '<header class="top"><div class="top-inner">'
        '<div><h1>Ascend migration report</h1>'
        f'<p class="meta">Target <strong>{escape(_target_name(result))}</strong> · {escape(versions)} · '
        f"ascend-migrate {escape(__version__)}</p></div>"
        '<nav><a href="#summary">Summary</a><a href="#readiness">Readiness</a><a href="#findings">Findings</a></nav>'
        "</div></header>"
    )


def _summary(result: ScanResult, files: list[Readiness], overall: Readiness) -> str:
    with_findings = sum(1 for item in files if item.findings)
    safe = sum(1 for finding in result.findings if finding.fix is not None and finding.fix.safe)
    unsafe = sum(1 for finding in result.findings if finding.fix is not None and not finding.fix.safe)
    cards = [
        _card("files-scanned", result.files_scanned, "files scanned", f"{with_findings} with findings"),
        _card("total-findings", len(result.findings), "findings", plural(len({f.api for f in result.findings}), "distinct API")),
        _card("fixable-findings", safe, "safe fixes", f"applied by ascend-migrate fix; {unsafe} more with --unsafe (review them)"),
        _card("blockers", overall.blockers, "blockers", "errors without an automatic fix or a known replacement"),
    ]
    if result.errors:
        cards.append(_card("not-analysed", len(result.errors), "not analysed", "see the end of the page"))
    return (
        '<section id="summary" class="summary">'
        f'<div class="panel score-card">{score_ring(overall.score, grade(overall.score))}'
        f'<div><h2>Migration readiness</h2><p class="score-line"><span id="overall-score" data-score="{overall.score}">'
        f"{overall.score}</span> / 100 for the whole project</p>"
        f'<p class="verdict">{escape(_verdict(overall))}</p>'
        f'<p class="muted">{overall.code_lines} code lines, effort {overall.effort:.1f} line equivalents. '
        '<a href="#readiness-definition">How this is computed</a></p></div></div>'
        f'<div class="cards">{"".join(cards)}</div></section>'
    )


def _verdict(overall: Readiness) -> str:
    if overall.blockers:
        return f"Cannot run on the target yet: {plural(overall.blockers, 'blocker')} left."
    if overall.required:
        return f"Cannot run on the target yet: {plural(overall.required, 'required change')} left, each with a known replacement."
    return "Runs on the target as far as ascend-migrate can tell; only optional advice is left."


def _card(identifier: str, count: int, label: str, detail: str) -> str:
    return (
        f'<div class="card"><span class="card-value" id="{identifier}" data-count="{count}">{count}</span>'
        f'<span class="card-label">{escape(label)}</span><span class="card-detail">{escape(detail)}</span></div>'
    )


def _charts(result: ScanResult, files: list[Readiness], anchors: dict[str, str]) -> str:
    categories = Counter(finding.category for finding in result.findings)
    severities = Counter(finding.severity for finding in result.findings)
    slices = [Slice(category, categories[category], f"cat-{category}") for category in _route_categories(result)]
    legend = "".join(
        f'<tr><td><span class="swatch cat-{category}"></span></td><td><code>{category}</code></td>'
        f'<td class="num category-count" data-category="{category}" data-count="{categories[category]}">{categories[category]}</td>'
        f'<td class="muted">{escape(CATEGORY_MEANINGS[category])}</td></tr>'
        for category in _route_categories(result)
    )
    most = max(severities.values(), default=0) or 1
    severity_rows = "".join(
        f'<tr><td><span class="badge sev-{severity}">{severity}</span></td>'
        f'<td class="meter-cell"><span class="meter"><span class="meter-fill sev-{severity} w{_bucket(100 * severities[severity] / most)}">'
        "</span></span></td>"
        f'<td class="num severity-count" data-severity="{severity}" data-count="{severities[severity]}">{severities[severity]}</td></tr>'
        for severity in SEVERITIES
    )
    top_files = sorted((item for item in files if item.findings), key=lambda item: (-item.findings, item.path))[:TOP_FILES]
    file_severities = {
        item.path: Counter(f.severity for f in result.findings if f.path == item.path) for item in top_files
    }
    file_bars = [
        Bar(
            item.path,
            tuple(Slice(severity, file_severities[item.path][severity], f"sev-{severity}") for severity in SEVERITIES),
            note=f"readiness {item.score}",
            link=f"#{anchors[item.path]}",
        )
        for item in top_files
    ]
    api_counts = Counter((finding.api, finding.code) for finding in result.findings)
    api_rows = "".join(
        f'<tr><td><code>{escape(api)}</code></td><td><span class="code">{escape(code)}</span></td><td class="num">{count}</td></tr>'
        for (api, code), count in sorted(api_counts.items(), key=lambda item: (-item[1], item[0]))[:TOP_APIS]
    )
    files_chart = bars(file_bars, "Files with the most findings") if file_bars else '<p class="muted">No findings.</p>'
    return (
        '<section class="charts">'
        '<div class="panel"><h2>Category mix</h2><div class="mix">'
        f'{donut(slices, "Findings per category")}'
        f'<table class="legend" id="category-table">{legend}</table></div></div>'
        '<div class="panel"><h2>Severity</h2>'
        f'<table class="severity-table" id="severity-table">{severity_rows}</table></div>'
        '<div class="panel"><h2>Files with the most findings</h2>'
        '<p class="muted">Bars split by severity; click a file name to jump to its findings.</p>'
        f"{files_chart}</div>"
        '<div class="panel"><h2>Most frequent APIs</h2><table class="api-table" id="api-table">'
        f'<tr><th>API</th><th>code</th><th class="num">count</th></tr>{api_rows}</table></div>'
        "</section>"
    )


def _readiness_section(files: list[Readiness], anchors: dict[str, str], not_analysed: set[str]) -> str:
    rows = "".join(
        f'<tr class="readiness-row" data-path="{escape(item.path)}" data-score="{item.score}">'
        f"<td>{_file_name(item, anchors)}"
        f'{_NOT_ANALYSED_TAG if item.path in not_analysed else ""}</td>'
        f'<td class="score-cell"><span class="meter"><span class="meter-fill {grade(item.score)} w{_bucket(item.score)}"></span></span>'
        f'<span class="score-number">{item.score}</span></td>'
        f'<td class="num">{item.code_lines}</td><td class="num">{item.findings}</td><td class="num">{item.blockers}</td></tr>'
        for item in files
    )
    return (
        '<section id="readiness" class="panel">'
        "<h2>Migration readiness per file</h2>"
        '<div id="readiness-definition" class="definition">'
        f"<p>{escape(explanation())} "
        "<em>Blockers</em> are errors without an automatic fix or a known replacement: any one of them can stop the "
        "code from running.</p></div>"
        '<table class="readiness-table"><tr><th>file</th><th>readiness</th><th class="num">code lines</th>'
        f'<th class="num">findings</th><th class="num">blockers</th></tr>{rows}</table></section>'
    )


_NOT_ANALYSED_TAG = '<span class="tag warning-tag">not fully analysed</span>'


def _file_name(item: Readiness, anchors: dict[str, str]) -> str:
    """The file's name, linked to its findings when it has a section."""
    if item.findings:
        return f'<a href="#{anchors[item.path]}">{escape(item.path)}</a>'
    return escape(item.path)


def _bucket(score: float) -> int:
    # Widths come from CSS classes (w0 … w100 in steps of 5): the page allows no inline style attributes.
    return max(0, min(100, 5 * round(score / 5)))


def _errors_section(result: ScanResult) -> str:
    if not result.errors:
        return ""
    rows = "".join(
        f'<tr><td>{escape(error.path)}{f":{error.line}" if error.line else ""}</td><td>{escape(error.message)}</td></tr>'
        for error in result.errors
    )
    return (
        '<section id="errors" class="panel"><h2>Files not (fully) analysed</h2>'
        f'<table class="errors-table"><tr><th>file</th><th>why</th></tr>{rows}</table></section>'
    )


def _footer(result: ScanResult) -> str:
    return (
        '<footer><p>Generated by ascend-migrate '
        f"{escape(__version__)} for {escape(_target_name(result))}. The page works offline and loads nothing.</p></footer>"
    )
