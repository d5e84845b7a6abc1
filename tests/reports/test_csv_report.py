"""The CSV report: the Ascend tool's files and columns, findings.csv with the JSON contract, BOM, safe cells."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from ascend_migrate.config import Settings
from ascend_migrate.reports import ReportOptions, writer
from ascend_migrate.reports.csv_report import FINDINGS_COLUMNS, render
from ascend_migrate.analysis.findings import ScanResult

EXPECTED_FILES = [
    "affinity_api_call.csv",
    "cuda_op_list.csv",
    "findings.csv",
    "full_unsupported_results.csv",
    "msft_dynamic_shape_analysis_report.csv",
    "unsupported_api.csv",
]


def test_unsupported_api_has_the_tools_columns_and_one_row_per_unsupported_finding(sample_result):
    assert render(sample_result)["unsupported_api.csv"] == (
        "File,Start Line,End Line,OP,Tips\r\n"
        "src/model.py,24,24,torch.sparse.check_sparse_tensor_invariants.enable,"
        "PyTorch 2.8 的 NPU 不支持 torch.sparse.check_sparse_tensor_invariants.enable。 "
        "删除该调用；只在 CPU 上调试时 (device != 'npu' && debug) 打开。\r\n"
        'src/train.py,22,22,torch.cuda.get_device_capability,"NPU 上 torch.cuda.get_device_capability 返回 None。 '
        '给出固定的 (major, minor)，或设置 TORCH_NPU_DEVICE_CAPABILITY=""major.minor""。"\r\n'
    )


def test_cuda_op_list_names_each_cuda_api_once_per_file(sample_result):
    assert render(sample_result)["cuda_op_list.csv"] == (
        "File,Api\r\n"
        "src/train.py,nccl\r\n"
        "src/train.py,torch.cuda.set_device\r\n"
        "src/train.py,cuda\r\n"
        "src/train.py,torch.Tensor.cuda\r\n"
        "src/train.py,torch.cuda.synchronize\r\n"
    )


def test_affinity_calls_say_whether_an_api_or_a_code_shape_matched(sample_result):
    assert render(sample_result)["affinity_api_call.csv"] == (
        "File,Start Line,End Line,Api Type,Api Call Name,Affinity Api Name\r\n"
        'src/model.py,16,16,special,rms-norm,"torch_npu.npu_rms_norm(x, self.weight, epsilon=self.eps)[0]"\r\n'
        "src/model.py,20,20,torch,torch.optim.AdamW,torch_npu.optim.NpuFusedAdamW\r\n"
    )


def test_dynamic_shape_rows_mark_the_runtime_columns_not_applicable(sample_result):
    assert render(sample_result)["msft_dynamic_shape_analysis_report.csv"] == (
        "Function Name,File Path,Line Number,Call Stack,Input Shape Range,Output Shape Range\r\n"
        "boolean-mask-index,src/train.py,15,NA,NA,NA\r\n"
        "torch.nonzero,src/train.py,16,NA,NA,NA\r\n"
    )


def test_third_party_rows_name_the_library_and_the_line(sample_result):
    assert render(sample_result)["full_unsupported_results.csv"] == (
        "File,3rd-party API,Message\r\n"
        'src/train.py,apex.amp,"start_line:3, '
        'apex 依赖 CUDA 扩展，昇腾上需要适配版的 apex。 安装 Ascend 适配版 apex，或改用 torch.npu.amp。"\r\n'
    )


def test_findings_csv_has_every_field_of_the_json_contract(sample_result):
    rows = list(csv.DictReader(io.StringIO(render(sample_result)["findings.csv"])))
    assert tuple(rows[0]) == FINDINGS_COLUMNS
    # "cell" is the one field only a notebook's finding has (tests/notebooks check it)
    assert tuple(column for column in FINDINGS_COLUMNS if column != "cell") == tuple(sample_result.findings[0].to_json())
    expected = [
        {key: ("true" if value is True else "false" if value is False else str(value)) for key, value in finding.to_json().items()}
        | {"cell": ""}
        for finding in sample_result.findings
    ]
    assert rows == expected
    assert [row["fixable"] for row in rows].count("true") == 5


def test_every_file_is_written_with_its_header_even_without_findings(tmp_path):
    empty = ScanResult(root=tmp_path, settings=Settings(), files_scanned=2)
    writer("csv")(empty, tmp_path / "out", ReportOptions())
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == EXPECTED_FILES
    assert (tmp_path / "out" / "unsupported_api.csv").read_bytes() == b"File,Start Line,End Line,OP,Tips\r\n"


def test_bom_option_lets_excel_read_chinese_text(sample_result, tmp_path):
    writer("csv")(sample_result, tmp_path / "bom", ReportOptions(bom=True))
    writer("csv")(sample_result, tmp_path / "plain", ReportOptions(bom=False))
    for name in EXPECTED_FILES:
        with_bom = (tmp_path / "bom" / name).read_bytes()
        without = (tmp_path / "plain" / name).read_bytes()
        assert with_bom == b"\xef\xbb\xbf" + without
        assert not without.startswith(b"\xef\xbb\xbf")
    text = (tmp_path / "bom" / "findings.csv").read_text(encoding="utf-8-sig")
    assert "分布式后端 'nccl' 在昇腾上不可用。" in text


def test_writing_leaves_no_temporary_files_and_replaces_old_reports(sample_result, tmp_path):
    output = tmp_path / "report"
    output.mkdir()
    (output / "unsupported_api.csv").write_text("stale\n")
    writer("csv")(sample_result, output, ReportOptions())
    assert sorted(path.name for path in output.iterdir()) == EXPECTED_FILES
    assert (output / "unsupported_api.csv").read_bytes().startswith(b"File,Start Line,End Line,OP,Tips\r\nsrc/model.py,24,")


def test_cells_that_a_spreadsheet_would_run_as_formulas_become_text(sample_result):
    hostile = replace(sample_result.findings[-1], path='=HYPERLINK("http://attacker.invalid","x").py', api="-cmd|' /C calc'!A0")
    sample_result.findings = [hostile]
    rows = list(csv.reader(io.StringIO(render(sample_result)["unsupported_api.csv"])))
    assert rows[1][0] == ' =HYPERLINK("http://attacker.invalid","x").py'
    assert rows[1][3] == " -cmd|' /C calc'!A0"
    assert rows[1][1] == "22"


def test_csv_needs_a_directory(sample_result):
    with pytest.raises(ValueError, match="give a directory with --output"):
        writer("csv")(sample_result, None, ReportOptions())


def test_files_are_utf8_with_crlf_rows(sample_result, tmp_path):
    writer("csv")(sample_result, tmp_path, ReportOptions())
    data = (tmp_path / "findings.csv").read_bytes()
    assert data.count(b"\r\n") == len(sample_result.findings) + 1
    assert data.decode("utf-8").splitlines()[0] == ",".join(FINDINGS_COLUMNS)
