"""`scan --format json`: one finding per line, each line exactly what `json.dumps` writes for the finding."""

from __future__ import annotations

import json
from dataclasses import replace

from ascend_migrate.reports import ReportOptions
from ascend_migrate.reports import json_report


def finding_lines(text: str) -> list[str]:
    return [line.strip().removesuffix(",") for line in text.splitlines() if line.startswith('    {"path"')]


def test_every_finding_line_is_json_dumps_of_the_finding(sample_result):
    text = json_report.render(sample_result)
    assert finding_lines(text) == [json.dumps(finding.to_json(), ensure_ascii=False) for finding in sample_result.findings]
    assert json.loads(text) == json_report.document(sample_result)


def test_findings_that_share_a_message_keep_their_own_place_path_and_fixability(sample_result):
    first = sample_result.findings[0]
    moved = replace(first, line=first.line + 40, column=first.column + 3, end_line=first.end_line + 41, end_column=2)
    elsewhere = replace(first, path="src/模型/train.py")
    unfixable = replace(first, fix=None)
    result = replace(sample_result, findings=[first, moved, elsewhere, unfixable])
    documents = [json.loads(line) for line in finding_lines(json_report.render(result))]
    assert [(d["path"], d["line"], d["column"], d["end_line"], d["end_column"], d["fixable"]) for d in documents] == [
        (first.path, first.line, first.column, first.end_line, first.end_column, first.fix is not None),
        (first.path, first.line + 40, first.column + 3, first.end_line + 41, 2, first.fix is not None),
        ("src/模型/train.py", first.line, first.column, first.end_line, first.end_column, first.fix is not None),
        (first.path, first.line, first.column, first.end_line, first.end_column, False),
    ]
    assert '"path": "src/模型/train.py"' in json_report.render(result)  # written as UTF-8, not \u escapes


def test_a_scan_without_findings_writes_empty_lists(sample_result, tmp_path):
    output = tmp_path / "report.json"
    json_report.write(replace(sample_result, findings=[], errors=[]), output, ReportOptions())
    text = output.read_text(encoding="utf-8")
    assert '  "findings": [],\n  "errors": []\n}\n' in text
    assert json.loads(text)["findings"] == []
