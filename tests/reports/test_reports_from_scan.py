"""Every report of a real scan of the fixture project agrees with the JSON report of the same scan."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from pathlib import Path

import pytest
from report_samples import PROJECT, scan_project, unusual_documents

from ascend_migrate.reports.csv_report import ASCEND_FILES, FINDINGS_COLUMNS
from ascend_migrate.reports.sarif import FINGERPRINT_KEY
from ascend_migrate.taxonomy import CODES

TARGETS = ("npu", "mindspore")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict[str, Path]]:
    """target → format → the file (or directory) a real scan wrote."""
    written: dict[str, dict[str, Path]] = {}
    for target in TARGETS:
        directory = tmp_path_factory.mktemp(target)
        outputs = {
            "json": directory / "findings.json",
            "csv": directory / "csv",
            "sarif": directory / "findings.sarif",
            "html": directory / "report.html",
        }
        for format_name, output in outputs.items():
            assert scan_project(target, format_name, output) in (0, 1)
        written[target] = outputs
    return written


def json_report(reports, target: str) -> dict:
    return json.loads(reports[target]["json"].read_text(encoding="utf-8"))


def csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("target", TARGETS)
def test_the_fixture_project_has_findings_in_several_categories(reports, target):
    categories = {finding["category"] for finding in json_report(reports, target)["findings"]}
    assert len(categories) >= 3


@pytest.mark.parametrize("target", TARGETS)
def test_findings_csv_is_the_json_report_row_by_row(reports, target):
    expected = [
        {key: json.dumps(value) if isinstance(value, bool) else str(value) for key, value in finding.items()}
        | {"cell": str(finding.get("cell", ""))}  # a notebook's cell number; the column is always there
        for finding in json_report(reports, target)["findings"]
    ]
    rows = csv_rows(reports[target]["csv"] / "findings.csv")
    assert tuple(rows[0]) == FINDINGS_COLUMNS
    assert rows == expected


@pytest.mark.parametrize("target", TARGETS)
def test_each_ascend_file_holds_the_findings_of_its_categories(reports, target):
    findings = json_report(reports, target)["findings"]
    for ascend_file in ASCEND_FILES:
        path = reports[target]["csv"] / ascend_file.name
        with path.open(encoding="utf-8", newline="") as handle:
            header, *rows = list(csv.reader(handle))
        assert tuple(header) == ascend_file.columns
        chosen = [f for f in findings
                  if f["category"] in ascend_file.categories and f["code"] not in ascend_file.excluded_codes]
        expected = len({(f["path"], f["api"]) for f in chosen}) if ascend_file.unique else len(chosen)
        assert len(rows) == expected, ascend_file.name


def test_the_missing_torch_npu_import_is_no_cuda_api(reports):
    apis = [row["Api"] for row in csv_rows(reports["npu"]["csv"] / "cuda_op_list.csv")]
    assert "torch" not in apis and "torch.cuda.synchronize" in apis


def test_bom_from_the_command_line_prefixes_every_csv_file(reports, tmp_path):
    assert scan_project("npu", "csv", tmp_path, "--bom") in (0, 1)
    for path in sorted(reports["npu"]["csv"].iterdir()):
        assert (tmp_path / path.name).read_bytes() == b"\xef\xbb\xbf" + path.read_bytes()
    assert "数据增强" in (tmp_path / "findings.csv").read_text(encoding="utf-8-sig")


def test_affinity_rows_name_the_replacement(reports):
    rows = csv_rows(reports["npu"]["csv"] / "affinity_api_call.csv")
    assert ("model.py", "torch", "torch.optim.AdamW", "torch_npu.optim.NpuFusedAdamW") in {
        (row["File"], row["Api Type"], row["Api Call Name"], row["Affinity Api Name"]) for row in rows
    }


def test_the_npu_route_fills_the_tools_unsupported_and_cuda_files(reports):
    unsupported = csv_rows(reports["npu"]["csv"] / "unsupported_api.csv")
    assert ("train.py", "27", "torch.backends.cudnn.benchmark") in {(r["File"], r["Start Line"], r["OP"]) for r in unsupported}
    cuda_ops = {(row["File"], row["Api"]) for row in csv_rows(reports["npu"]["csv"] / "cuda_op_list.csv")}
    assert {("train.py", "torch.cuda.set_device"), ("utils/数据增强.py", "torch.cuda.is_available")} <= cuda_ops


@pytest.mark.parametrize("target", TARGETS)
def test_sarif_results_are_the_json_findings_in_order(reports, target):
    findings = json_report(reports, target)["findings"]
    log = json.loads(reports[target]["sarif"].read_text(encoding="utf-8"))
    run = log["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == PROJECT.as_uri() + "/"
    located = [
        (
            result["ruleId"],
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for result in run["results"]
    ]
    assert located == [(f["code"], re.sub("[^/.a-z_A-Z0-9]", lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), f["path"]), f["line"]) for f in findings]
    assert all(list(CODES)[result["ruleIndex"]] == result["ruleId"] for result in run["results"])
    per_file = {}
    for result, finding in zip(run["results"], findings):
        per_file.setdefault(finding["path"], []).append(result["partialFingerprints"][FINGERPRINT_KEY])
    assert all(len(set(prints)) == len(prints) for prints in per_file.values())


@pytest.mark.parametrize("target", TARGETS)
def test_each_sarif_fix_applied_alone_gives_code_that_still_parses(reports, target):
    from ascend_migrate.analysis.findings import TextEdit
    from ascend_migrate.fixes import apply_edits

    log = json.loads(reports[target]["sarif"].read_text(encoding="utf-8"))
    fixed = 0
    for result in log["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            (change,) = fix["artifactChanges"]
            path = PROJECT / Path(*[part for part in _unquote(change["artifactLocation"]["uri"]).split("/")])
            source = path.read_text(encoding="utf-8")
            edits = [
                TextEdit(r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"], r["deletedRegion"]["endLine"],
                         r["deletedRegion"]["endColumn"], r["insertedContent"]["text"])
                for r in change["replacements"]
            ]
            changed = apply_edits(source, edits)
            assert changed != source
            ast.parse(changed)
            fixed += 1
    assert fixed >= 5


def _unquote(uri: str) -> str:
    from urllib.parse import unquote

    return unquote(uri)


@pytest.mark.slow
def test_every_sarif_document_passes_microsofts_validator(reports, sarif_validator, tmp_path):
    """Real scans of both routes and the hand-built corner cases, in one run of the validator."""
    documents = {f"scan-{target}": json.loads(reports[target]["sarif"].read_text(encoding="utf-8")) for target in TARGETS}
    documents.update(unusual_documents())
    assert sarif_validator(documents, tmp_path) == []


@pytest.mark.parametrize("target", TARGETS)
def test_html_counts_are_the_json_counts(reports, target):
    findings = json_report(reports, target)["findings"]
    page = reports[target]["html"].read_text(encoding="utf-8")
    assert re.search(r'id="total-findings" data-count="(\d+)"', page).group(1) == str(len(findings))
    shown = dict(re.findall(r'class="num category-count" data-category="([a-z-]+)" data-count="(\d+)"', page))
    for category, count in shown.items():
        assert int(count) == sum(1 for f in findings if f["category"] == category)
    assert len(re.findall(r"<article class=\"finding ", page)) == len(findings)
    assert page.count("<script") == 1
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
