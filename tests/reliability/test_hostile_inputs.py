"""Odd bytes through every face: the engine, `scan`, `fix --write` and the server, on the same files.

Line endings (CRLF, lone CR), a BOM, tabs and form feeds, non-ASCII identifiers, a NUL byte, invalid UTF-8,
5,000 nested parentheses, a 5,000-long attribute chain; (with RELIABILITY_HEAVY=1) a 20 MB file.
Each file is `import torch` and `torch.cuda.synchronize()` plus its oddity; the finding must land on the
right line and column everywhere, and a file that cannot be parsed or decoded is reported, never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.files import decode_source

from reliability_cli import TEST_MAPPINGS, run_cli
from reliability_rpc import RawServer, summary

HEAVY = pytest.mark.skipif(not os.environ.get("RELIABILITY_HEAVY"), reason="heavy: set RELIABILITY_HEAVY=1 (the CI fuzz stage does)")
BASE = b"import torch\n\ntorch.cuda.synchronize()\n"
NPU = b"import torch\nimport torch_npu\n\ntorch.npu.synchronize()\n"

# name → (bytes, the finding's (line, column), the file's errors, the bytes after `fix --write` or None: untouched)
CASES = {
    "crlf": (BASE.replace(b"\n", b"\r\n"), (3, 1), [], NPU.replace(b"\n", b"\r\n")),
    "lone_cr": (BASE.replace(b"\n", b"\r"), (3, 1), [], NPU.replace(b"\n", b"\r")),
    "bom": (b"\xef\xbb\xbf" + BASE, (3, 1), [], b"\xef\xbb\xbf" + NPU),
    "tabs_form_feed": (b"import torch\n\x0c\ndef step():\n\ttorch.cuda.synchronize()\n", (4, 2), [],
                       b"import torch\nimport torch_npu\n\x0c\ndef step():\n\ttorch.npu.synchronize()\n"),
    "non_ascii": ("import torch\n\ndef 训练(设备):\n    torch.cuda.synchronize()  # 注释 🙂\n".encode(), (4, 5), [],
                  "import torch\nimport torch_npu\n\ndef 训练(设备):\n    torch.npu.synchronize()  # 注释 🙂\n".encode()),
    "nul": (BASE + b"x = 'a\x00b'\n", (3, 1), [(4, "syntax error: source code string cannot contain null bytes; the rest of the file was analysed")], None),
    "invalid_utf8": (BASE + b"name = '\xff'\n", None,
                     [(None, "cannot read: invalid utf-8 text: 'utf-8' codec can't decode byte 0xff in position 47: invalid start byte")], None),
    "deep_nesting": (BASE + b"x = " + b"(" * 5000 + b")" * 5000 + b"\n", (3, 1),
                     [(4, "syntax error: too many nested parentheses (line 1); the rest of the file was analysed")], None),
    "deep_chain": (BASE + b"y = torch" + b".cuda" * 5000 + b"\n", (3, 1), [(4, "too deeply nested to analyse; the rest of the file was analysed")], None),
}
FIX_REFUSALS = {
    "nul": "nul.py: syntax error: source code string cannot contain null bytes; the file is left as it is",
    "invalid_utf8": "invalid_utf8.py: cannot read: invalid utf-8 text: 'utf-8' codec can't decode byte 0xff in position 47: invalid start byte",
    "deep_nesting": "deep_nesting.py:4: syntax error: too many nested parentheses; the file is left as it is",
    "deep_chain": "deep_chain.py: syntax error: too deeply nested for the Python parser; the file is left as it is",
}


@pytest.fixture(scope="module")
def cases_directory(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("hostile") / "cases"
    directory.mkdir()
    for name, (data, *_rest) in CASES.items():
        (directory / f"{name}.py").write_bytes(data)
    return directory


@pytest.fixture(scope="module")
def scanned(cases_directory) -> dict:
    completed = run_cli("scan", "--format", "json", "cases", cwd=cases_directory.parent)
    assert "Traceback" not in completed.stderr
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def fixed(cases_directory) -> tuple[Path, subprocess.CompletedProcess]:
    copy = cases_directory.parent / "fixed"
    shutil.copytree(cases_directory, copy)
    return copy, run_cli("fix", "--write", ".", cwd=copy)


@pytest.fixture(scope="module")
def server():
    process = RawServer(log_level="warning")
    process.initialize(capabilities={"general": {"positionEncodings": ["utf-32"]}})  # code points: the engine's own columns
    yield process
    assert process.shutdown() == 0


@pytest.mark.parametrize("name", CASES)
def test_the_engine(name):
    data, position, errors, _ = CASES[name]
    try:
        source = decode_source(data)
    except ValueError:
        assert position is None
        return
    result = analyze_file(source, f"{name}.py", Settings(target="npu"), KnowledgeBase.from_directory(TEST_MAPPINGS))
    assert [(f.line, f.column, f.code) for f in result.findings] == [(*position, "NPU101")]
    assert [(e.line, e.message) for e in result.errors] == errors


@pytest.mark.parametrize("name", CASES)
def test_scan(scanned, name):
    _, position, errors, _ = CASES[name]
    path = f"cases/{name}.py"
    assert [(f["line"], f["column"], f["code"]) for f in scanned["findings"] if f["path"] == path] == ([(*position, "NPU101")] if position else [])
    assert [(e.get("line"), e["message"]) for e in scanned["errors"] if e["path"] == path] == errors


@pytest.mark.parametrize("name", CASES)
def test_fix_write(fixed, name):
    copy, completed = fixed
    data, _, _, expected = CASES[name]
    assert (copy / f"{name}.py").read_bytes() == (data if expected is None else expected)
    if name in FIX_REFUSALS:
        assert f"ascend-migrate: {FIX_REFUSALS[name]}\n" in completed.stderr
    assert completed.returncode == 1  # some files were skipped
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("name", CASES)
def test_the_server(server, name):
    """The editor holds text: a BOM is gone, invalid UTF-8 became U+FFFD; the NUL byte arrives as \\u0000."""
    data, position, errors, _ = CASES[name]
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    uri = f"file:///hostile/{name}.py"
    server.open(uri, text)
    diagnostics = server.diagnostics(uri, 1)
    expected_line, expected_column = position or (3, 1)
    assert summary(diagnostics) == [("NPU101", expected_line - 1, expected_column - 1, expected_line - 1, expected_column + 21)]


@HEAVY
@pytest.mark.slow
def test_a_20_megabyte_file_through_scan_and_the_server(tmp_path):
    parts, size, index = ["import torch\n\n"], 0, 0
    while size < 20 * 1024 * 1024:
        if index % 1000:
            chunk = f"def layer_{index}(x):\n    return x * {index} + torch.ones(1)\n\n"
        else:
            chunk = f"def layer_{index}(x):\n    return torch.cuda.synchronize()\n\n"
        parts.append(chunk)
        size += len(chunk)
        index += 1
    text = "".join(parts)
    (tmp_path / "generated.py").write_text(text, encoding="utf-8")
    started = time.monotonic()
    with open(tmp_path / "out.json", "w", encoding="utf-8") as output:
        process = subprocess.Popen([str(Path(sys.executable).with_name("ascend-migrate")), "scan", "--format", "json", "generated.py"],
                                   cwd=tmp_path, stdout=output, env={**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(TEST_MAPPINGS)})
        _, _, usage = os.wait4(process.pid, 0)
    scan_seconds = time.monotonic() - started
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    expected = (index + 999) // 1000
    assert len(document["findings"]) == expected and document["errors"] == []

    server = RawServer(log_level="warning")
    try:
        server.initialize()
        started = time.monotonic()
        server.open("file:///hostile/generated.py", text)
        assert len(server.diagnostics("file:///hostile/generated.py", 1, timeout=600)) == expected
        open_seconds = time.monotonic() - started
        server.change("file:///hostile/generated.py", 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# header\n"}])
        moved = server.diagnostics("file:///hostile/generated.py", 2, timeout=600)
        assert len(moved) == expected and moved[0]["range"]["start"]["line"] == 4
        server_peak = server.resident_kilobytes()
        assert server.shutdown() == 0
    finally:
        server.kill()
    print(f"20 MB ({index} functions): scan {scan_seconds:.0f} s, peak RSS {usage.ru_maxrss // 1024} MB; "
          f"server first diagnostics {open_seconds:.0f} s, RSS after an edit {server_peak // 1024} MB")
