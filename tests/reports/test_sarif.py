"""The SARIF report: rules from codes.py, results with locations, fingerprints and fixes, valid per Microsoft's validator."""

from __future__ import annotations

import json
from pathlib import Path

from report_samples import TRAIN_SOURCE, build_result, finding

from ascend_migrate.analysis.findings import FileError
from ascend_migrate.config import Settings
from ascend_migrate.reports import ReportOptions, writer
from ascend_migrate.reports.sarif import FINGERPRINT_KEY, document
from ascend_migrate.taxonomy import CODES
from ascend_migrate.analysis.findings import ScanResult

ROOT = Path("/work/project")


def results_by_code(log: dict) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for result in log["runs"][0]["results"]:
        grouped.setdefault(result["ruleId"], []).append(result)
    return grouped


def test_every_code_is_a_rule_with_its_metadata(sample_result):
    rules = document(sample_result, ROOT)["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == list(CODES)
    npu101 = rules[list(CODES).index("NPU101")]
    assert npu101 == {
        "id": "NPU101",
        "name": "CudaApiRename",
        "shortDescription": {"text": "A torch.cuda API with a torch_npu counterpart."},
        "fullDescription": {
            "text": "A torch.cuda API with a torch_npu counterpart. "
            "Category npu-rename: a CUDA API, device string, backend name or environment variable with a direct NPU counterpart."
        },
        "helpUri": "https://example.invalid/ascend-migrate/docs/codes.md#npu101",
        "help": {
            "text": "A torch.cuda API with a torch_npu counterpart. "
            "See https://example.invalid/ascend-migrate/docs/codes.md#npu101 for examples and the fix."
        },
        "defaultConfiguration": {"level": "warning"},
        "properties": {"category": "npu-rename", "tags": ["npu-rename"]},
    }


def test_a_result_points_at_the_flagged_text_relative_to_the_source_root(sample_result):
    log = document(sample_result, ROOT)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///work/project/"}}
    assert run["columnKind"] == "unicodeCodePoints"
    (nonzero,) = results_by_code(log)["NPU401"]
    assert nonzero["ruleIndex"] == list(CODES).index("NPU401")
    assert nonzero["level"] == "warning"
    assert nonzero["message"] == {"text": "torch.nonzero 的输出形状取决于数据。 尽量用掩码运算代替下标列表。"}
    assert nonzero["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "src/train.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 16, "startColumn": 13, "endLine": 16, "endColumn": 26, "snippet": {"text": "torch.nonzero"}},
                "contextRegion": {
                    "startLine": 14,
                    "endLine": 18,
                    "snippet": {
                        "text": "    out = model(batch.cuda())\n    selected = out[mask]\n    index = torch.nonzero(mask)\n"
                        "    torch.cuda.synchronize()\n    return selected.sum(), index\n"
                    },
                },
            }
        }
    ]


def test_info_findings_are_notes_and_errors_are_errors(sample_result):
    grouped = results_by_code(document(sample_result, ROOT))
    assert {result["level"] for result in grouped["NPU301"] + grouped["NPU302"]} == {"note"}
    assert {result["level"] for result in grouped["NPU201"] + grouped["TP101"]} == {"error"}


def test_fingerprints_survive_lines_added_above_and_change_with_the_line_itself():
    before = build_result()
    shifted_source = "#!/usr/bin/env python\n# Training entry point.\n\n" + before.sources["src/train.py"]
    after = build_result()
    after.sources["src/train.py"] = shifted_source
    after.findings = [f.shifted(3) if f.path == "src/train.py" else f for f in after.findings]

    def fingerprints(result: ScanResult) -> list[str]:
        return [r["partialFingerprints"][FINGERPRINT_KEY] for r in document(result, ROOT)["runs"][0]["results"]]

    assert fingerprints(after) == fingerprints(before)
    assert len(set(fingerprints(before))) == len(before.findings)

    edited = build_result()
    edited.sources["src/train.py"] = TRAIN_SOURCE.replace("torch.nonzero(mask)", "torch.nonzero(mask, as_tuple=False)")
    changed = [a != b for a, b in zip(fingerprints(edited), fingerprints(before))]
    nonzero_position = [f.code for f in before.findings].index("NPU401")
    assert changed == [index == nonzero_position for index in range(len(before.findings))]


def test_identical_lines_get_distinct_fingerprints_in_order():
    source = 'import torch\nx = torch.zeros(2).to("cuda")\ny = torch.ones(2)\nx = torch.zeros(2).to("cuda")\n'
    result = ScanResult(root=ROOT, settings=Settings(), files_scanned=1, sources={"a.py": source})
    result.findings = [
        finding("a.py", source, line, '"cuda"', "NPU102", "cuda", "设备字符串 'cuda' 需要改为 'npu'。") for line in (2, 4)
    ]
    first, second = document(result, ROOT)["runs"][0]["results"]
    assert first["partialFingerprints"] != second["partialFingerprints"]
    result.findings = result.findings[1:]
    (only,) = document(result, ROOT)["runs"][0]["results"]
    assert only["partialFingerprints"] == first["partialFingerprints"]


def test_a_complete_fix_becomes_a_sarif_fix_with_its_replacement(sample_result):
    (nccl,) = results_by_code(document(sample_result, ROOT))["NPU103"]
    assert nccl["fixes"] == [
        {
            "description": {"text": "Use the 'hccl' backend."},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "src/train.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {"startLine": 7, "startColumn": 29, "endLine": 7, "endColumn": 35},
                            "insertedContent": {"text": '"hccl"'},
                        }
                    ],
                }
            ],
        }
    ]


def test_a_fix_that_needs_an_import_carries_the_import(sample_result):
    grouped = results_by_code(document(sample_result, ROOT))
    set_device = next(r for r in grouped["NPU101"] if r["properties"]["api"] == "torch.cuda.set_device")
    inserted = [
        replacement["insertedContent"]["text"]
        for replacement in set_device["fixes"][0]["artifactChanges"][0]["replacements"]
    ]
    assert inserted == ["import torch_npu\n", "torch.npu.set_device"]


def test_findings_without_a_fix_have_no_fixes_property(sample_result):
    grouped = results_by_code(document(sample_result, ROOT))
    assert all("fixes" not in result for code in ("NPU401", "NPU402", "TP101", "NPU201") for result in grouped[code])


def test_unreadable_files_become_tool_notifications():
    result = build_result()
    result.errors = [FileError("src/broken.py", "cannot read: Permission denied"), FileError("src/bad.py", "syntax error", 4)]
    (invocation,) = document(result, ROOT)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    assert [n["message"]["text"] for n in invocation["toolExecutionNotifications"]] == [
        "src/broken.py was not fully analysed: cannot read: Permission denied.",
        "src/bad.py was not fully analysed: syntax error.",
    ]
    assert invocation["toolExecutionNotifications"][1]["locations"][0]["physicalLocation"]["region"] == {"startLine": 4}


def test_paths_with_spaces_and_chinese_are_percent_encoded_and_absolute_paths_are_file_uris():
    source = 'device = "cuda"\n'
    result = ScanResult(root=ROOT, settings=Settings(), files_scanned=2, sources={"模型 训练/train v2.py": source, "/opt/shared/util.py": source})
    result.findings = [
        finding(path, source, 1, '"cuda"', "NPU102", "cuda", "设备字符串 'cuda' 需要改为 'npu'。")
        for path in ("模型 训练/train v2.py", "/opt/shared/util.py")
    ]
    relative, absolute = (r["locations"][0]["physicalLocation"]["artifactLocation"] for r in document(result, ROOT)["runs"][0]["results"])
    assert relative == {"uri": "%E6%A8%A1%E5%9E%8B%20%E8%AE%AD%E7%BB%83/train%20v2.py", "uriBaseId": "%SRCROOT%"}
    assert absolute == {"uri": "file:///opt/shared/util.py"}


def test_sarif_goes_to_stdout_without_output(sample_result, capsys):
    writer("sarif")(sample_result, None, ReportOptions())
    log = json.loads(capsys.readouterr().out)
    assert len(log["runs"][0]["results"]) == len(sample_result.findings)


def test_sources_not_kept_are_read_from_where_the_relative_paths_start(tmp_path, monkeypatch):
    """A workspace scan in the language server makes paths relative to the workspace root, not the working directory."""
    from report_samples import MODEL_SOURCE

    project = tmp_path / "workspace"
    (project / "src").mkdir(parents=True)
    (project / "src" / "train.py").write_text(TRAIN_SOURCE, encoding="utf-8")
    (project / "src" / "model.py").write_text(MODEL_SOURCE, encoding="utf-8")
    (tmp_path / "server").mkdir()
    monkeypatch.chdir(tmp_path / "server")
    result = build_result(root=project)
    result.sources = {}
    run = document(result)["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.as_uri() + "/"}}
    (nonzero,) = results_by_code({"runs": [run]})["NPU401"]
    assert nonzero["locations"][0]["physicalLocation"]["region"]["snippet"] == {"text": "torch.nonzero"}
    monkeypatch.chdir(project)
    assert document(result)["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
