"""The migration-readiness score: whether a file (or project) can run on the target yet, and how much work is left.

Definition (the HTML report states it on the page, docs/reports.md repeats it):

- The band says whether the code can run on the target: 90-100 when only optional advice is left (or nothing),
  40-79 when changes it cannot run without are left but each has a known replacement, 0-39 while a blocker is
  left (an error with no automatic fix and no known replacement, which can stop a run on its own). The gap
  from 79 to 90 is the step the last required change makes; the bands are the report's colours.
- Within its band the score falls from the top of the band with the work left per code line:
  score = bottom + (top - bottom) × (1 - effort ÷ code lines), at least the bottom.
- code lines: the lines that are neither blank nor only a comment;
- effort: every line with findings counts once, with the weight of its heaviest finding: the severity weight
  (error 1, warning 0.5, info 0.25, hint 0), times 2 for a structure change (it reaches beyond its line: a
  class, a training loop), times 0.5 for optional advice (NPU-affine replacements, dynamic shapes), times
  0.25 when `ascend-migrate fix` does it safely and 0.5 when its fix needs review (--unsafe).

"Required" is what `fail-on = "required"` (the default) fails a run on, so the score and the exit code agree.
The project's score uses the same formula over the sums of effort and code lines of every scanned file.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from ascend_migrate.analysis.findings import Finding, ScanResult
from ascend_migrate.config import is_required
from ascend_migrate.reports.sources import ScannedSources

SEVERITY_WEIGHT = {"error": 1.0, "warning": 0.5, "info": 0.25, "hint": 0.0}
STRUCTURE_FACTOR = 2.0
OPTIONAL_FACTOR = 0.5
SAFE_FIX_FACTOR = 0.25
UNSAFE_FIX_FACTOR = 0.5
# (bottom, top) of each band
BLOCKED, REQUIRED_LEFT, RUNS = (0, 39), (40, 79), (90, 100)


@dataclass(frozen=True)
class Readiness:
    """The score of one file, or of the whole scan (path "")."""

    path: str
    score: int
    code_lines: int
    effort: float
    findings: int
    blockers: int
    required: int = 0  # findings the code cannot run without


def code_line_count(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip() and not line.lstrip().startswith("#"))


def is_blocker(finding: Finding) -> bool:
    return finding.severity == "error" and finding.fix is None and is_required(finding)


def finding_weight(finding: Finding) -> float:
    weight = SEVERITY_WEIGHT[finding.severity]
    if finding.category == "ms-structure":
        weight *= STRUCTURE_FACTOR
    if not is_required(finding):
        weight *= OPTIONAL_FACTOR
    if finding.fix is not None:
        weight *= SAFE_FIX_FACTOR if finding.fix.safe else UNSAFE_FIX_FACTOR
    return weight


def line_effort(findings: list[Finding]) -> float:
    """The effort of one line: the weight of its heaviest finding."""
    return max(finding_weight(finding) for finding in findings)


def score(effort: float, code_lines: int, blockers: int = 0, required: int = 0) -> int:
    bottom, top = BLOCKED if blockers else REQUIRED_LEFT if required else RUNS
    if code_lines > 0:
        left = max(0.0, 1 - effort / code_lines)
    else:  # no code lines: nothing to do, or work on lines that were not read
        left = 1.0 if effort == 0 else 0.0
    # Half up, not Python's round-half-even: 92.5 reads as 93 to everyone.
    return max(bottom, math.floor(bottom + (top - bottom) * left + 0.5))


def file_readiness(path: str, findings: list[Finding], lines: list[str] | None) -> Readiness:
    by_line: dict[int, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_line[finding.line].append(finding)
    effort = sum(line_effort(on_line) for on_line in by_line.values())
    # Without the text, the last flagged line is the best lower bound of the file's length.
    code_lines = code_line_count(lines) if lines is not None else max((f.end_line for f in findings), default=0)
    blockers = sum(1 for finding in findings if is_blocker(finding))
    required = sum(1 for finding in findings if is_required(finding))
    return Readiness(path, score(effort, code_lines, blockers, required), code_lines, effort, len(findings), blockers, required)


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
    blockers = sum(item.blockers for item in files)
    required = sum(item.required for item in files)
    overall = Readiness("", score(effort, code_lines, blockers, required), code_lines, effort, len(result.findings),
                        blockers, required)
    return files, overall


def explanation() -> str:
    """The definition in the words of the report (plain text; the HTML page escapes it)."""
    weights = ", ".join(f"{severity} {weight:g}" for severity, weight in SEVERITY_WEIGHT.items())
    return (
        f"The band says whether the code can run on the target: {RUNS[0]}-{RUNS[1]} when only optional advice is left, "
        f"{REQUIRED_LEFT[0]}-{REQUIRED_LEFT[1]} when changes it cannot run without are left but each has a known "
        f"replacement, {BLOCKED[0]}-{BLOCKED[1]} while a blocker is left (an error with no automatic fix and no known "
        "replacement). Within its band the score falls with the work left per code line: "
        "band bottom + band width × (1 − effort ÷ code lines). Code lines are the lines that are neither blank nor "
        "only a comment. Effort counts every line with findings once, with the weight of its heaviest finding: "
        f"the severity ({weights}), ×{STRUCTURE_FACTOR:g} for a structure change (it reaches beyond its line), "
        f"×{OPTIONAL_FACTOR:g} for optional advice, ×{SAFE_FIX_FACTOR:g} when ascend-migrate fix makes the change "
        f"safely and ×{UNSAFE_FIX_FACTOR:g} when its fix needs review (--unsafe). The project score applies the same "
        "formula to the sums over all scanned files."
    )


def grade(score: int) -> str:
    """The CSS class the reports colour a score with."""
    if score >= 90:
        return "grade-good"
    if score >= 70:
        return "grade-fair"
    if score >= 40:
        return "grade-poor"
    return "grade-bad"
