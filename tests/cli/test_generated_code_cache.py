"""The cache of attrs/cattrs generated code that speeds up the server's start: same behaviour, fewer compiles.

Each case runs fresh interpreters (the cache must be installed before lsprotocol is first imported), with a
cache directory of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# Imports lsprotocol under the cache, then prints what was compiled and what the generated code does.
PROBE = r"""
import json, sys
from ascend_migrate import generated_code_cache
cache = generated_code_cache.install()
from lsprotocol import types
from pygls.protocol import default_converter

converter = default_converter()
params = converter.structure(
    {"processId": 42, "rootUri": "file:///work", "capabilities": {
        "textDocument": {"publishDiagnostics": {"versionSupport": True}, "hover": {"contentFormat": ["markdown"]}},
        "general": {"positionEncodings": ["utf-8", "utf-16"]}},
     "workspaceFolders": [{"uri": "file:///work", "name": "work"}]},
    types.InitializeParams,
)
position = types.Position(line=3, character=7)
behaviour = {
    "repr": repr(position),  # lsprotocol writes its own __repr__ for Position: "3:7"
    "repr_generated": repr(types.Hover(contents="x")),
    "equal": position == types.Position(line=3, character=7),
    "unequal": position != types.Position(line=3, character=8),
    "range_equal": types.Range(start=position, end=position) == types.Range(start=position, end=types.Position(3, 7)),
    "structured": converter.unstructure(params),
    "diagnostic": converter.unstructure(types.Diagnostic(
        range=types.Range(start=position, end=position), message="m", code="MS101",
        severity=types.DiagnosticSeverity.Warning)),
}
print(json.dumps({"added": cache.added, "used": len(cache.used), "saved": cache.save(), "behaviour": behaviour}))
"""


def run_probe(cache_directory: Path | str) -> dict:
    environment = {**os.environ, "ASCEND_MIGRATE_CACHE_DIR": str(cache_directory)}
    completed = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_a_second_start_compiles_nothing_and_behaves_the_same(tmp_path):
    first = run_probe(tmp_path)
    second = run_probe(tmp_path)
    assert first["added"] > 500  # every lsprotocol class has generated methods
    assert first["used"] == first["added"]
    assert second["added"] == 0
    assert second["used"] == first["used"]
    assert second["behaviour"] == first["behaviour"]
    assert first["behaviour"]["repr"] == "3:7"
    assert first["behaviour"]["repr_generated"] == "Hover(contents='x', range=None)"
    assert first["behaviour"]["equal"] and first["behaviour"]["unequal"] and first["behaviour"]["range_equal"]
    assert first["behaviour"]["structured"]["processId"] == 42
    assert first["behaviour"]["structured"]["capabilities"]["general"]["positionEncodings"] == ["utf-8", "utf-16"]
    assert first["behaviour"]["diagnostic"]["severity"] == 2


def test_behaviour_without_the_cache_is_the_same(tmp_path):
    cached = run_probe(tmp_path)
    uncached = run_probe("")  # an empty value turns every cache off
    assert uncached["added"] > 500 and uncached["saved"] is True
    assert uncached["behaviour"] == cached["behaviour"]


def test_cached_code_equals_what_compile_makes(tmp_path):
    run_probe(tmp_path)
    check = r"""
import __future__
import linecache
from ascend_migrate import generated_code_cache
cache = generated_code_cache.install()
assert cache.known, "the cache was not read"
from lsprotocol import types
checked = 0
for cls in (types.Diagnostic, types.InitializeParams, types.Hover, types.TextEdit, types.CodeAction):
    for method in ("__init__", "__repr__", "__eq__"):
        code = getattr(cls, method).__code__
        source = "".join(linecache.getlines(code.co_filename))
        # As attrs' own call compiles it: with the `from __future__ import annotations` of attr/_make.py.
        fresh = compile(source, code.co_filename, "exec", __future__.annotations.compiler_flag, True)
        made = next(c for c in fresh.co_consts if hasattr(c, "co_name") and c.co_name == code.co_name)
        assert made.co_code == code.co_code and made.co_consts == code.co_consts, (cls, method)
        assert made.co_names == code.co_names and made.co_flags == code.co_flags, (cls, method)
        checked += 1
assert cache.added == 0, cache.added
print(checked)
"""
    environment = {**os.environ, "ASCEND_MIGRATE_CACHE_DIR": str(tmp_path)}
    completed = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=environment, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "15"


def test_a_corrupt_cache_file_is_replaced_not_trusted(tmp_path):
    first = run_probe(tmp_path)
    [cache_file] = tmp_path.glob("generated-code-*.marshal")
    cache_file.write_bytes(b"\x00garbage, not marshal data")
    damaged = run_probe(tmp_path)
    assert damaged["added"] == first["added"]  # everything compiled again
    assert damaged["behaviour"] == first["behaviour"]
    assert run_probe(tmp_path)["added"] == 0  # and the rewritten file serves the next start


def test_an_unwritable_cache_directory_costs_only_the_speed(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    result = run_probe(blocker)
    assert result["saved"] is False
    assert result["added"] > 500
    assert result["behaviour"]["repr"] == "3:7"
