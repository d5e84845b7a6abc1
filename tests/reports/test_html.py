"""The HTML report as text: self-contained, escaped, counts and excerpts right (test_html_browser.py opens it for real)."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import replace

from ascend_migrate.config import Settings
from ascend_migrate.reports import ReportOptions, writer
from ascend_migrate.reports.html import render
from ascend_migrate.analysis.findings import ScanResult

from report_samples import build_result

PAYLOAD = "</script><script>alert(1)</script>"


def test_code_from_the_scanned_files_is_escaped_and_only_our_script_runs(sample_result):
    page = render(sample_result)
    assert page.count("<script") == 1
    assert PAYLOAD not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "device != &#x27;npu&#x27; &amp;&amp; debug" in page


def test_the_page_loads_nothing_and_its_policy_admits_exactly_the_inline_style_and_script(sample_result):
    page = render(sample_result)
    assert not re.search(r"<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(", page)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)

    def digest(text: str) -> str:
        return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert policy == (
        f"default-src &#x27;none&#x27;; style-src &#x27;{digest(style)}&#x27;; script-src &#x27;{digest(script)}&#x27;; "
        "img-src data:; base-uri &#x27;none&#x27;; form-action &#x27;none&#x27;"
    )
    assert ' style="' not in page


def test_summary_counts(sample_result):
    page = render(sample_result)

    def count(pattern: str) -> str:
        return re.search(pattern, page).group(1)

    assert count(r'id="files-scanned" data-count="(\d+)"') == "3"
    assert count(r'id="total-findings" data-count="(\d+)"') == "12"
    assert count(r'id="fixable-findings" data-count="(\d+)"') == "5"
    assert count(r'id="blockers" data-count="(\d+)"') == "3"
    assert count(r'id="overall-score" data-score="(\d+)"') == "35"  # three blockers: the band 0-39
    categories = dict(re.findall(r'class="num category-count" data-category="([a-z-]+)" data-count="(\d+)"', page))
    assert categories == {"npu-rename": "5", "npu-unsupported": "2", "npu-affinity": "2", "npu-dynamic-shape": "2", "third-party": "1"}
    severities = dict(re.findall(r'data-severity="([a-z]+)" data-count="(\d+)"', page))
    assert severities == {"error": "3", "warning": "7", "info": "0", "hint": "2"}


def test_the_readiness_definition_is_on_the_page(sample_result):
    page = render(sample_result)
    assert "90-100 when only optional advice is left" in page
    assert "0-39 while a blocker is left" in page
    assert "band bottom + band width × (1 − effort ÷ code lines)" in page
    assert "error 1, warning 0.5, info 0.25, hint 0" in page
    assert "×0.25 when ascend-migrate fix makes the change safely" in page
    assert "Cannot run on the target yet: 3 blockers left." in page


def test_a_finding_shows_its_line_marked_with_its_neighbours(sample_result):
    page = render(sample_result)
    article = re.search(r'<article [^>]*data-code="NPU401".*?</article>', page, re.S).group(0)
    rows = re.findall(r'<tr class="(flagged|context)"><td class="ln">(\d+)</td><td class="src">(.*?)</td></tr>', article)
    assert rows == [
        ("context", "14", "    out = model(batch.cuda())"),
        ("context", "15", "    selected = out[mask]"),
        ("flagged", "16", "    index = <mark>torch.nonzero</mark>(mask)"),
        ("context", "17", "    torch.cuda.synchronize()"),
        ("context", "18", "    return selected.sum(), index"),
    ]
    assert '<p class="suggestion"><span class="label">Suggestion</span> 尽量用掩码运算代替下标列表。</p>' in article
    assert 'href="https://example.invalid/ascend-migrate/docs/codes#npu401" rel="noopener noreferrer"' in article


def test_blank_neighbours_at_the_edges_are_left_out(sample_result):
    page = render(sample_result)
    article = re.search(r'<article [^>]*data-code="TP101".*?</article>', page, re.S).group(0)
    assert re.findall(r'<td class="ln">(\d+)</td>', article) == ["1", "2", "3"]


def test_a_multi_line_finding_marks_each_of_its_lines():
    result = build_result()
    source = result.sources["src/model.py"]
    first = next(f for f in result.findings if f.code == "NPU302")
    result.findings = [replace(first, line=15, column=9, end_line=16, end_column=66)]
    article = re.search(r"<article .*?</article>", render(result), re.S).group(0)
    flagged = re.findall(r'<tr class="flagged"><td class="ln">(\d+)</td><td class="src">(.*?)</td>', article)
    assert flagged == [
        ("15", "        <mark>variance = x.pow(2).mean(-1, keepdim=True)</mark>"),
        ("16", "        <mark>return self.weight * x * torch.rsqrt(variance + self.eps)</mark>, banner"),
    ]
    assert source.splitlines()[15].endswith(", banner")


def test_only_web_links_become_documentation_links(sample_result):
    hostile = replace(sample_result.findings[0], doc_url="javascript:alert(1)")
    sample_result.findings = [hostile]
    page = render(sample_result)
    assert "javascript:" not in page
    assert 'class="doc"' not in page


def test_the_filter_searches_path_code_api_and_message(sample_result):
    page = render(sample_result)
    search = re.search(r'<article [^>]*data-code="NPU103"[^>]*data-search="([^"]*)"', page).group(1)
    assert search == "src/train.py npu103 npu-rename warning nccl 分布式后端 &#x27;nccl&#x27; 在昇腾上不可用。 改为 &#x27;hccl&#x27;。"
    toggles = re.findall(r'<button type="button" class="toggle cat-[a-z-]+" data-category="([a-z-]+)" aria-pressed="true">', page)
    assert toggles == ["npu-rename", "npu-unsupported", "npu-affinity", "npu-dynamic-shape", "third-party"]


def test_a_clean_project_says_so(tmp_path):
    clean = ScanResult(root=tmp_path, settings=Settings(target="mindspore"), files_scanned=1, sources={"a.py": "x = 1\n"})
    page = render(clean)
    assert "No findings: nothing to change for this target." in page
    assert 'id="overall-score" data-score="100"' in page
    assert "Target <strong>MindSpore</strong>" in page
    assert re.findall(r'data-category="([a-z-]+)" aria-pressed', page) == [
        "ms-equivalent", "ms-differs", "ms-unsupported", "ms-structure", "third-party",
    ]


def test_unreadable_files_are_listed(sample_result):
    from ascend_migrate.analysis.findings import FileError

    sample_result.errors = [FileError("src/<broken>.py", "cannot read: Permission denied"), FileError("src/paths.py", "syntax error", 2)]
    page = render(sample_result)
    assert "<td>src/&lt;broken&gt;.py</td><td>cannot read: Permission denied</td>" in page
    assert 'id="not-analysed" data-count="2"' in page
    # A file without findings has no section to link to; a partly analysed one says so beside its score.
    assert (
        '<tr class="readiness-row" data-path="src/paths.py" data-score="100">'
        '<td>src/paths.py<span class="tag warning-tag">not fully analysed</span></td>'
    ) in page


def test_written_atomically_to_the_output_file(sample_result, tmp_path):
    output = tmp_path / "reports" / "migration.html"
    writer("html")(sample_result, output, ReportOptions())
    assert [path.name for path in output.parent.iterdir()] == ["migration.html"]
    assert output.read_text(encoding="utf-8") == render(sample_result)
