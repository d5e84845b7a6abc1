"""`scan`, `fix` and the language server give every finding the same severity and the same suppression answer.

One project with the user's per-category severities in its pyproject.toml, a knowledge base whose entries
partly carry a severity of their own, and suppression comments of every kind (bare, a code, a prefix, a
category, and a selector that names no code). The engine decides both answers once; each face only shows them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_session import config, diagnostics_for, open_document, start_session

MAPPINGS = Path(__file__).parent / "agreement_mappings"
PYPROJECT = """[tool.ascend-migrate]
target = "npu"

[tool.ascend-migrate.severity]
npu-rename = "error"
"""
SOURCE = """import torch

torch.cuda.synchronize()
torch.cuda.synchronize()  # ascend-migrate: ignore[torch.cuda]
torch.cuda.synchronize()  # ascend-migrate: ignore[NPU1]
ok = torch.cuda.is_available()  # ascend-migrate: ignore[npu-rename]
ok = torch.cuda.is_available()  # ascend-migrate: ignore[NPU203]
torch.backends.cudnn.benchmark = True
x = torch.ones(2).to("cuda")  # ascend-migrate: ignore
"""
# (line, code, severity): the user's npu-rename = "error" outranks the entry's own `severity: info`; NPU203
# keeps its entry's `warning`; `ignore[torch.cuda]` names no code, so it suppresses nothing.
EXPECTED = [(3, "NPU101", "error"), (4, "NPU101", "error"), (7, "NPU101", "error"), (8, "NPU203", "warning")]
SUPPRESSED_LINES = (5, 6, 9)
LSP_SEVERITY = {
    types.DiagnosticSeverity.Error: "error",
    types.DiagnosticSeverity.Warning: "warning",
    types.DiagnosticSeverity.Information: "info",
    types.DiagnosticSeverity.Hint: "hint",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("agreement")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "train.py").write_text(SOURCE, encoding="utf-8")
    return root


def _cli(project: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_migrate", *arguments],
        env={**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(MAPPINGS)},
        cwd=project, capture_output=True, text=True, timeout=120,
    )


@pytest_lsp.fixture(config=config(MAPPINGS), scope="module")
async def client(lsp_client: LanguageClient, project: Path):
    await start_session(lsp_client, "visual-studio-code", root=project)
    yield
    await lsp_client.shutdown_session()


def test_scan_reports_the_engine_answer(project):
    completed = _cli(project, "scan", "--format", "json", "train.py")
    findings = json.loads(completed.stdout)["findings"]
    assert [(finding["line"], finding["code"], finding["severity"]) for finding in findings] == EXPECTED


def test_fix_changes_exactly_what_scan_reports_and_leaves_suppressed_lines(project, tmp_path):
    report = tmp_path / "changes.json"
    completed = _cli(project, "fix", "--diff", "--report", str(report), "train.py")
    assert completed.returncode == 1, completed.stderr  # a diff to show
    document = json.loads(report.read_text(encoding="utf-8"))
    fixable = [(line, code) for line, code, _ in EXPECTED if code == "NPU101"]
    findings_fixed = [(change["line"], change["code"]) for change in document["changes"] if change["code"] != "import"]
    assert sorted(findings_fixed) == fixable
    assert [skip for skip in document["skipped"] if "suppressed" in skip["reason"]] == []
    diff_lines = completed.stdout.splitlines()
    for line in SUPPRESSED_LINES:
        assert f"-{SOURCE.splitlines()[line - 1]}" not in diff_lines


@pytest.mark.asyncio(loop_scope="module")
async def test_the_server_publishes_the_engine_answer(client, project):
    uri = (project / "train.py").as_uri()
    open_document(client, uri, SOURCE)
    diagnostics = await diagnostics_for(client, uri, 1)
    published = [(diagnostic.range.start.line + 1, diagnostic.code, LSP_SEVERITY[diagnostic.severity]) for diagnostic in diagnostics]
    assert sorted(published) == EXPECTED
