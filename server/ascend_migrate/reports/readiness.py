"""The migration-readiness score: how much of a file (or project) already runs on the target as it is.

Definition (the HTML report states it on the page, docs/reports.md repeats it):

    readiness = 100 × (1 − effort ÷ code lines), at least 0

- code lines: the lines of the file that are neither blank nor only a comment;
- effort: every line with findings counts once, with the weight of its most severe finding
  (error 1, warning 0.5, info 0.1, hint 0), and a quarter of that when every finding on the line has a safe
  automatic fix (`ascend-migrate fix` does the work).

The project's score uses the same formula over the sums of effort and code lines of every scanned file, so a
large clean file weighs more than a small one. A line-based score reads as "share of the code that is ready";
the blockers (errors without a fix) are counted beside it because one of them can stop a run on its own.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from ascend_migrate.analysis.findings import Finding, ScanResult
from ascend_migrate.reports.sources import ScannedSources
from ascend_migrate.taxonomy import SEVERITY_RANK

SEVERITY_WEIGHT = {"error": 1.0, "warning": 0.5, "info": 0.1, "hint": 0.0}
AUTOMATIC_FIX_FACTOR = 0.25


@dataclass(frozen=True)
class Readiness:
    """The score of one file, or of the whole scan (path "")."""

    path: str
    score: int
    code_lines: int
    effort: float
    findings: int
    blockers: int


def code_line_count(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip() and not line.lstrip().startswith("#"))


def line_effort(findings: list[Finding]) -> float:
    """The effort of one line from the findings on it."""
    worst = min(findings, key=lambda finding: SEVERITY_RANK[finding.severity])
    weight = SEVERITY_WEIGHT[worst.severity]
    if all(finding.fix is not None and finding.fix.safe for finding in findings):
        weight *= AUTOMATIC_FIX_FACTOR
    return weight


def score(effort: float, code_lines: int) -> int:
    if code_lines <= 0:
        return 100 if effort == 0 else 0
    # Half up, not Python's round-half-even: 92.5 reads as 93 to everyone.
    return max(0, math.floor(100 * (1 - effort / code_lines) + 0.5))


def file_readiness(path: str, findings: list[Finding], lines: list[str] | None) -> Readiness:
    by_line: dict[int, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_line[finding.line].append(finding)
    effort = sum(line_effort(on_line) for on_line in by_line.values())
    # Without the text, the last flagged line is the best lower bound of the file's length.
    code_lines = code_line_count(lines) if lines is not None else max((f.end_line for f in findings), default=0)
    blockers = sum(1 for finding in findings if finding.severity == "error" and finding.fix is None)
    return Readiness(path, score(effort, code_lines), code_lines, effort, len(findings), blockers)


def readiness(result: ScanResult, sources: ScannedSources) -> tuple[list[Readiness], Readiness]:
    """Every file's readiness (files with findings first, lowest score first) and the project's."""
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in result.findings:
        by_path[finding.path].append(finding)
    paths = list(dict.fromkeys([*by_path, *result.sources]))
    files = [file_readiness(path, by_path.get(path, []), sources.lines(path)) for path in paths]
    files.sort(key=lambda item: (item.findings == 0, item.score, item.path))
    effort = sum(item.effort for item in files)
    code_lines = sum(item.code_lines for item in files)
    overall = Readiness(
        "", score(effort, code_lines), code_lines, effort, len(result.findings), sum(item.blockers for item in files)
    )
    return files, overall


def grade(score: int) -> str:
    """The CSS class the reports colour a score with."""
    if score >= 90:
        return "grade-good"
    if score >= 70:
        return "grade-fair"
    if score >= 40:
        return "grade-poor"
    return "grade-bad"
