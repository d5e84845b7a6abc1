"""The migration-readiness score: per file, per project, and the weights of one line."""

from __future__ import annotations

from dataclasses import replace

from ascend_migrate.reports.readiness import code_line_count, file_readiness, line_effort, readiness, score
from ascend_migrate.reports.sources import ScannedSources

from report_samples import MODEL_SOURCE, TRAIN_SOURCE, build_result, sample_findings


def test_scores_of_the_sample_project():
    result = build_result()
    files, overall = readiness(result, ScannedSources(result))
    # train.py: 17 code lines; two errors without fix (2), two warnings without fix (1), five safe fixes (5 × 0.125).
    # model.py: 16 code lines; one error (1), two affinity hints (0). paths.py: 3 code lines, nothing to do.
    assert [(item.path, item.score, item.code_lines, item.effort, item.findings, item.blockers) for item in files] == [
        ("src/train.py", 79, 17, 3.625, 9, 2),
        ("src/model.py", 94, 16, 1.0, 3, 1),
        ("src/paths.py", 100, 3, 0.0, 0, 0),
    ]
    assert (overall.score, overall.code_lines, overall.effort, overall.blockers) == (87, 36, 4.625, 3)


def test_a_line_counts_once_with_its_worst_finding():
    train = [f for f in sample_findings() if f.path == "src/train.py"]
    warning_with_fix = next(f for f in train if f.code == "NPU103")
    error_without_fix = next(f for f in train if f.code == "TP101")
    same_line_error = replace(error_without_fix, line=warning_with_fix.line, end_line=warning_with_fix.line)
    assert line_effort([warning_with_fix]) == 0.125
    assert line_effort([warning_with_fix, same_line_error]) == 1.0
    assert line_effort([warning_with_fix, replace(warning_with_fix, fix=replace(warning_with_fix.fix, safe=False))]) == 0.5


def test_comments_and_blank_lines_are_not_code():
    assert code_line_count(["import torch", "", "   # set up", "x = 1  # not only a comment", '"""doc"""']) == 3
    assert code_line_count(MODEL_SOURCE.splitlines()) == 16
    assert code_line_count(TRAIN_SOURCE.splitlines()) == 17


def test_score_rounds_half_up_and_never_goes_below_zero():
    assert score(1.2, 16) == 93
    assert score(0.5, 200) == 100
    assert score(30, 10) == 0
    assert score(0, 0) == 100


def test_without_the_text_the_last_flagged_line_bounds_the_file():
    finding = next(f for f in sample_findings() if f.code == "NPU401")
    assert file_readiness("src/train.py", [finding], None).code_lines == 16
