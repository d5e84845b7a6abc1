"""The migration-readiness score: per file, per project, and the weights of one line."""

from __future__ import annotations

from dataclasses import replace

from ascend_migrate.reports.readiness import code_line_count, file_readiness, line_effort, readiness, score
from ascend_migrate.reports.sources import ScannedSources

from report_samples import MODEL_SOURCE, TRAIN_SOURCE, build_result, sample_findings


def test_scores_of_the_sample_project():
    result = build_result()
    files, overall = readiness(result, ScannedSources(result))
    # train.py: 17 code lines; two blockers (2), two optional dynamic-shape warnings (2 × 0.5 × 0.5), five safe
    # renames (5 × 0.5 × 0.25): effort 3.125; blocked, so 0 + 39 × (1 − 3.125 ÷ 17) = 31.8.
    # model.py: 16 code lines; one blocker (1), two affinity hints (0): 39 × (1 − 1 ÷ 16) = 36.6.
    # paths.py: 3 code lines, nothing to do.
    assert [(item.path, item.score, item.code_lines, item.effort, item.findings, item.blockers) for item in files] == [
        ("src/train.py", 32, 17, 3.125, 9, 2),
        ("src/model.py", 37, 16, 1.0, 3, 1),
        ("src/paths.py", 100, 3, 0.0, 0, 0),
    ]
    assert (overall.score, overall.code_lines, overall.effort, overall.blockers) == (35, 36, 4.125, 3)


def test_a_line_counts_once_with_its_worst_finding():
    train = [f for f in sample_findings() if f.path == "src/train.py"]
    warning_with_fix = next(f for f in train if f.code == "NPU103")
    error_without_fix = next(f for f in train if f.code == "TP101")
    same_line_error = replace(error_without_fix, line=warning_with_fix.line, end_line=warning_with_fix.line)
    assert line_effort([warning_with_fix]) == 0.125
    assert line_effort([warning_with_fix, same_line_error]) == 1.0
    assert line_effort([warning_with_fix, replace(warning_with_fix, fix=replace(warning_with_fix.fix, safe=False))]) == 0.25
    assert line_effort([replace(warning_with_fix, fix=None)]) == 0.5


def test_comments_and_blank_lines_are_not_code():
    assert code_line_count(["import torch", "", "   # set up", "x = 1  # not only a comment", '"""doc"""']) == 3
    assert code_line_count(MODEL_SOURCE.splitlines()) == 16
    assert code_line_count(TRAIN_SOURCE.splitlines()) == 17


def test_score_rounds_half_up_and_never_leaves_its_band():
    assert score(1.2, 16) == 99  # 90 + 10 × 0.925 = 99.25: only optional advice left
    assert score(0.5, 200) == 100
    assert score(30, 10) == 90
    assert score(0, 0) == 100
    assert score(30, 10, required=3) == 40 and score(0.5, 200, required=1) == 79
    assert score(30, 10, blockers=1, required=1) == 0 and score(0.5, 200, blockers=1, required=1) == 39


def test_the_score_falls_with_the_work_left_and_code_that_cannot_run_never_scores_high():
    """One required change left keeps a file below every file that only has advice left, one blocker below both."""
    train = [f for f in sample_findings() if f.path == "src/train.py"]
    rename = next(f for f in train if f.code == "NPU101")
    advice = next(f for f in train if f.code == "NPU401")
    blocker = next(f for f in train if f.code == "TP101")
    lines = ["x = 1"] * 20
    only_advice = file_readiness("a.py", [replace(advice, line=n, end_line=n) for n in range(1, 11)], lines).score
    one_rename = file_readiness("a.py", [rename], lines).score
    ten_renames = file_readiness("a.py", [replace(rename, line=n, end_line=n) for n in range(1, 11)], lines).score
    one_blocker = file_readiness("a.py", [blocker], lines).score
    assert only_advice >= 90 > 79 >= one_rename > ten_renames >= 40 > 39 >= one_blocker


def test_without_the_text_the_last_flagged_line_bounds_the_file():
    finding = next(f for f in sample_findings() if f.code == "NPU401")
    assert file_readiness("src/train.py", [finding], None).code_lines == 16
