"""`scan --format text`: findings grouped by file, then a summary with the counts per category."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from pathlib import Path

from ascend_migrate.analysis.findings import ScanResult
from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports.output import write_text
from ascend_migrate.taxonomy import CATEGORIES

_STYLES = {"bold": "1", "dim": "2", "red": "31", "yellow": "33", "blue": "34", "cyan": "36", "green": "32"}
_SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "blue", "hint": "dim"}


def render(result: ScanResult, color: bool = False) -> str:
    def paint(text: str, style: str) -> str:
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if color else text

    lines: list[str] = []
    for path, findings in groupby(result.findings, key=lambda finding: finding.path):
        lines.append(paint(path, "bold"))
        for finding in findings:
            location = f"cell {finding.cell}, line {finding.line}:{finding.column}" if finding.cell else f"{finding.line}:{finding.column}"
            code = paint(finding.code, _SEVERITY_STYLE.get(finding.severity, "dim"))
            fixable = paint(" [*]", "cyan") if finding.fixable else ""
            lines.append(f"  {location:>9}  {code:<7} {finding.message}{fixable}")
            if finding.suggestion and finding.suggestion not in finding.message:
                lines.append(f"  {'':>9}  {'':<7} {paint('help:', 'green')} {finding.suggestion}")
        lines.append("")
    counts = Counter(finding.category for finding in result.findings)
    safe = sum(1 for finding in result.findings if finding.fix is not None and finding.fix.safe)
    unsafe = sum(1 for finding in result.findings if finding.fix is not None and not finding.fix.safe)
    files_with_findings = len({finding.path for finding in result.findings})
    target = "MindSpore" if result.settings.target == "mindspore" else "Ascend NPU (torch_npu)"
    summary = (
        f"{len(result.findings)} finding{'s' if len(result.findings) != 1 else ''} in {files_with_findings} of "
        f"{result.files_scanned} file{'s' if result.files_scanned != 1 else ''} for {target}"
    )
    lines.append(paint(summary, "bold") + _fixes(safe, unsafe))
    for category in CATEGORIES:
        if counts[category]:
            lines.append(f"  {category:<18} {counts[category]:>6}")
    if result.skipped_directories:
        count = len(result.skipped_directories)
        lines.append(f"skipped {count} director{'y' if count == 1 else 'ies'} that hold no project code:")
        for skipped in result.skipped_directories:
            lines.append(f"  {skipped.path}: {skipped.message}")
    if result.not_analysed:
        kinds = Counter(skipped.message for skipped in result.not_analysed)
        count = len(result.not_analysed)
        lines.append(paint(f"not analysed: {count} file{'s' if count != 1 else ''} of a kind ascend-migrate does not read ("
                           + ", ".join(f"{number} {kind}" for kind, number in sorted(kinds.items())) + ")", "yellow"))
    if result.errors:
        lines.append(paint(f"{len(result.errors)} file{'s' if len(result.errors) != 1 else ''} not (fully) analysed; see stderr", "yellow"))
    return "\n".join(lines) + "\n"


def _fixes(safe: int, unsafe: int) -> str:
    """The same two numbers the HTML report shows: safe fixes (`fix` applies them) and unsafe ones (`fix --unsafe`)."""
    if not safe and not unsafe:
        return ""
    parts = [f"{safe} safe fix{'es' if safe != 1 else ''}: `ascend-migrate fix`"] if safe else []
    if unsafe:
        parts.append(f"{unsafe} {'more ' if safe else ''}to review: `ascend-migrate fix --unsafe`")
    return f" ({'; '.join(parts)})"


def write(result: ScanResult, output: Path | None, options: ReportOptions) -> None:
    write_text(render(result, color=options.color and output is None), output)
