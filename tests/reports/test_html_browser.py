"""The HTML report in a real browser: Debian's chromium, headless, driven by playwright-core (browser_check.js).

Needs node, the npm package playwright-core and /usr/bin/chromium; .ci/stages/40-reports.sh installs them.
Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ascend_migrate.reports import ReportOptions, writer

from report_samples import REPOSITORY, build_result, scan_project, skip_or_fail

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).with_name("browser_check.js")
ARTIFACTS = REPOSITORY / "test-artifacts"
PAYLOAD = "</script><script>alert(1)</script>"


def _node_modules() -> Path | None:
    configured = os.environ.get("PLAYWRIGHT_NODE_MODULES")
    for candidate in ([Path(configured)] if configured else [REPOSITORY / ".work" / "reports-node" / "node_modules"]):
        if (candidate / "playwright-core").is_dir():
            return candidate
    return None


@pytest.fixture(scope="module")
def open_in_browser():
    """open(report, screenshot name, filter text, category to toggle) → what the page showed, as a dict."""
    node = shutil.which("node")
    modules = _node_modules()
    chromium = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    missing = [
        name for name, present in (("node", node), ("playwright-core", modules), ("chromium", chromium.exists())) if not present
    ]
    if missing:
        skip_or_fail(f"no real browser here: {', '.join(missing)} missing (run .ci/stages/40-reports.sh)")
    ARTIFACTS.mkdir(exist_ok=True)

    def open_report(report: Path, screenshot: str, filter_text: str, category: str) -> dict:
        completed = subprocess.run(
            [node, str(SCRIPT), str(report), str(ARTIFACTS / screenshot), filter_text, category],
            capture_output=True, text=True, timeout=240,
            env=os.environ | {"NODE_PATH": str(modules), "CHROMIUM": str(chromium)},
        )
        assert completed.returncode == 0, completed.stderr
        return json.loads(completed.stdout)

    return open_report


def assert_page_was_quiet(seen: dict) -> None:
    """No alert ran, nothing was fetched, no CSP violation or script error was logged."""
    assert seen["dialogs"] == []
    assert seen["requests"] == []
    assert seen["console"] == []
    assert seen["pageErrors"] == []
    assert seen["initial"]["scripts"] == 1


def test_sample_report_shows_its_counts_filters_and_toggles(open_in_browser, tmp_path):
    report = tmp_path / "sample.html"
    writer("html")(build_result(), report, ReportOptions())
    seen = open_in_browser(report, "html-report-sample.png", "nccl", "npu-rename")
    assert_page_was_quiet(seen)
    initial = seen["initial"]
    assert (initial["totalFindings"], initial["filesScanned"], initial["shownCount"]) == (12, 3, 12)
    assert initial["categories"] == {"npu-rename": 5, "npu-unsupported": 2, "npu-affinity": 2, "npu-dynamic-shape": 2, "third-party": 1}
    assert initial["severities"] == {"error": 3, "warning": 7, "info": 0, "hint": 2}  # affinity advice is a hint by default
    assert initial["fileScores"] == {"src/train.py": 32, "src/model.py": 37, "src/paths.py": 100}  # blockers left: the 0-39 band
    assert initial["svgCharts"] == 3
    assert "band bottom + band width × (1 − effort ÷ code lines)" in initial["hasDefinition"]
    assert PAYLOAD in initial["bodyText"]
    assert (seen["filtered"]["visibleCodes"], seen["filtered"]["shownText"]) == (["NPU103"], "Showing 1 of 12 findings")
    assert seen["filtered"]["visibleFiles"] == ["src/train.py"]
    assert seen["toggled"]["visibleCodes"] == ["TP101", "NPU402", "NPU401", "NPU202", "NPU302", "NPU301", "NPU201"]
    assert (seen["nothing"]["shownCount"], seen["noMatchVisible"]) == (0, True)
    assert (ARTIFACTS / "html-report-sample.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_of_a_real_scan_shows_the_json_counts(open_in_browser, tmp_path):
    scan_project("npu", "json", tmp_path / "findings.json")
    scan_project("npu", "html", tmp_path / "report.html")
    document = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))
    findings = document["findings"]
    seen = open_in_browser(tmp_path / "report.html", "html-report.png", "torch.cuda", "npu-rename")
    assert_page_was_quiet(seen)
    initial = seen["initial"]
    assert initial["totalFindings"] == initial["shownCount"] == len(findings)
    assert initial["filesScanned"] == document["files_scanned"]
    assert initial["categories"] == {
        category: sum(1 for f in findings if f["category"] == category) for category in initial["categories"]
    }
    assert sum(initial["categories"].values()) == len(findings)
    assert initial["severities"] == {
        severity: sum(1 for f in findings if f["severity"] == severity) for severity in ("error", "warning", "info", "hint")
    }
    assert sorted(initial["visibleCodes"]) == sorted(f["code"] for f in findings)
    assert PAYLOAD in initial["bodyText"]

    def searchable(finding: dict) -> str:
        fields = ("path", "code", "category", "severity", "api", "message", "suggestion")
        return " ".join(finding[field] for field in fields).lower()

    expected = sorted(f["code"] for f in findings if "torch.cuda" in searchable(f))
    assert len(expected) >= 3
    assert sorted(seen["filtered"]["visibleCodes"]) == expected
    assert seen["toggled"]["shownCount"] == sum(1 for f in findings if f["category"] != "npu-rename")
