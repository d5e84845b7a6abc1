"""`ascend-migrate kb stats | lookup | verify`: output, JSON shape and exit codes, on a small knowledge base.

The command runs in a subprocess, as a user runs it, against a mappings directory each test writes, so that
the expected output is exact and does not move when the real tables grow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TABLE = """\
table: sample
provenance: written for these tests
entries:
  - api: torch.float32
    category: ms-equivalent
    target: mindspore.float32
    fix: safe
    curated: true
    verified: checked by hand
  - api: torch.load
    category: ms-structure
    code: MS206
    target: mindspore.load_checkpoint
    note: reads MindSpore checkpoints only
    suggestion: convert .pth files once
    parameters:
      - {source: map_location, target: null, change: removed}
  - api: torch.fx
    condition: prefix
    category: ms-unsupported
    suggestion: use mindspore.rewrite
  - api: torch.Tensor.cpu
    match: method
    receiver: any
    category: ms-structure
    code: MS205
    suggestion: drop it
  - api: torch.cuda.synchronize
    route: npu
    category: npu-rename
    target: torch.npu.synchronize
"""
USAGE = """\
api,references,repos,in_official_mindspore_tables
torch.float32,100,6,no
torch.fx.Node,50,2,no
<tensor>.cpu(),30,5,no
torch.cuda.synchronize,15,4,no
torch.nn.Linear,5,6,yes
"""


@pytest.fixture
def mappings(tmp_path: Path) -> Path:
    directory = tmp_path / "mappings"
    (directory / "usage").mkdir(parents=True)
    (directory / "sample.yaml").write_text(TABLE, encoding="utf-8")
    (directory / "usage" / "torch_api_frequency.csv").write_text(USAGE, encoding="utf-8")
    return directory


def kb(mappings: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_migrate", "kb", "--mappings", str(mappings), *arguments],
        capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"}, timeout=120,
    )


def test_stats_prints_counts_and_usage_weighted_coverage(mappings):
    result = kb(mappings, "stats")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (  # what a user asks first: how much of real code each route answers
        f"knowledge base {mappings}\n"
        "  mindspore route       4 entries, an answer for 90.0 % of the torch API uses in public projects (180 of 200)\n"
        "  npu route             1 entry, an answer for 100.0 % of the CUDA-related torch API uses in public projects (15 of 15)\n"
        "categories:\n"
        "  ms-equivalent        1\n"
        "  ms-structure         2\n"
        "  ms-unsupported       1\n"
        "  npu-rename           1\n"
        "for maintainers: 5 entries (1 curated), 0 inventory names\n"
        "tables:\n"
        "  sample       5\n"
        "match kinds:\n"
        "  method       1\n"
        "  name         4\n"
        "coverage, mindspore route (all references in torch_api_frequency.csv): 90.0 % "
        "(180 of 200 references, 3 of 5 names); curated entries alone: 50.0 %\n"
        "  checked answers: 0.0 % run side by side (kb verify --numeric), 50.0 % run or reviewed by hand (curated), "
        "0.0 % run or with a review note naming the difference; the rest has an entry whose answer nobody checked\n"
        "  no answer: torch.cuda.synchronize (15 references)\n"
        "  no answer: torch.nn.Linear (5 references)\n"
        "coverage, npu route (CUDA-related references in torch_api_frequency.csv): 100.0 % "
        "(15 of 15 references, 1 of 1 names); curated entries alone: 0.0 %\n"
        "  checked answers: 0.0 % run side by side (kb verify --numeric), 0.0 % run or reviewed by hand (curated), "
        "0.0 % run or with a review note naming the difference; the rest has an entry whose answer nobody checked\n"
    )


def test_stats_counts_an_answer_as_checked_only_when_the_numeric_record_ran_it(mappings):
    """An entry is not a checked answer: torch.fx.Node is answered (a prefix entry) but nobody ran it."""
    (mappings / "verification").mkdir()
    (mappings / "verification" / "numeric.yaml").write_text(
        "results:\n"
        "  - {api: torch.float32, target: mindspore.float32, outcome: agree}\n"
        "  - {api: torch.Tensor.cpu, target: '', outcome: skipped}\n", encoding="utf-8")
    coverage = json.loads(kb(mappings, "stats", "--json").stdout)["coverage"]["mindspore"]
    assert (coverage["answered_references"], coverage["checked_references"]) == (180, 100)
    assert coverage["checked_share"] == 0.5 and coverage["checked_or_reviewed_share"] == 0.5


def test_stats_counts_a_review_note_as_a_reviewed_answer(mappings):
    """torch.fx.Node's answer (the torch.fx prefix entry) cannot run side by side; a review note checks it."""
    table = mappings / "sample.yaml"
    table.write_text(table.read_text(encoding="utf-8").replace(
        "    suggestion: use mindspore.rewrite\n",
        "    suggestion: use mindspore.rewrite\n    review: 'no FX graph IR in MindSpore (reviewer, 2026-12-01: read)'\n"),
        encoding="utf-8")
    coverage = json.loads(kb(mappings, "stats", "--json").stdout)["coverage"]["mindspore"]
    assert (coverage["checked_or_review_noted_references"], coverage["checked_or_review_noted_share"]) == (50, 0.25)
    assert coverage["checked_or_reviewed_references"] == 150  # the curated torch.float32 and the reviewed torch.fx
    (found,) = json.loads(kb(mappings, "lookup", "torch.fx", "--json").stdout)
    assert found["review"] == "no FX graph IR in MindSpore (reviewer, 2026-12-01: read)"


def test_stats_json_has_counts_and_coverage_per_route(mappings):
    result = kb(mappings, "stats", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["entries"] == 5
    assert report["categories"] == {"ms-equivalent": 1, "ms-structure": 2, "ms-unsupported": 1, "npu-rename": 1}
    assert report["coverage"]["mindspore"]["share"] == 0.9
    assert report["coverage"]["mindspore"]["unanswered"] == [
        {"api": "torch.cuda.synchronize", "references": 15, "repos": 4},
        {"api": "torch.nn.Linear", "references": 5, "repos": 6},
    ]
    assert report["coverage"]["npu"]["answered_names"] == 1


def test_lookup_prints_every_entry_for_the_name(mappings):
    result = kb(mappings, "lookup", "torch.load")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "torch.load -> mindspore.load_checkpoint  mindspore ms-structure MS206\n"
        "    note: reads MindSpore checkpoints only\n"
        "    do: convert .pth files once\n"
        "    parameter: map_location -> - (removed)\n"
        f"    generated; fix none; {mappings / 'sample.yaml'}:10\n"
    )


def test_lookup_json_has_the_entry_fields(mappings):
    result = kb(mappings, "lookup", "torch.float32", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [{
        "key": "sample:0", "api": "torch.float32", "route": "mindspore", "category": "ms-equivalent", "code": "MS101", "match": "name",
        "target": "mindspore.float32", "note": "", "suggestion": "", "parameters": [], "source_versions": "*",
        "target_versions": "*", "fix": "safe", "curated": True, "verified": "checked by hand",
        "provenance": "written for these tests", "docs": [], "receiver": "", "condition": "",
        "location": f"{mappings / 'sample.yaml'}:4",
    }]


def test_lookup_with_a_trailing_dot_lists_every_name_under_it(mappings):
    result = kb(mappings, "lookup", "torch.", "--json", "--route", "npu")
    assert [entry["api"] for entry in json.loads(result.stdout)] == ["torch.cuda.synchronize"]


def test_lookup_of_a_bare_method_name_finds_the_method_entry(mappings):
    result = kb(mappings, "lookup", "cpu", "--json")
    assert [(entry["api"], entry["receiver"]) for entry in json.loads(result.stdout)] == [("torch.Tensor.cpu", "any")]


def test_lookup_shows_the_numeric_check_recorded_for_the_entry(mappings):
    (mappings / "verification").mkdir()
    (mappings / "verification" / "numeric.yaml").write_text(
        "results:\n  - {api: torch.float32, target: mindspore.float32, outcome: agree, call: constant}\n", encoding="utf-8")
    result = kb(mappings, "lookup", "torch.float32", "--json")
    assert json.loads(result.stdout)[0]["numeric"] == {"outcome": "agree", "call": "constant"}


def test_lookup_of_an_unknown_name_exits_1(mappings):
    result = kb(mappings, "lookup", "torch.no_such_thing")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "no entry for torch.no_such_thing\n")


def test_a_broken_table_exits_2_naming_file_and_line(mappings):
    (mappings / "sample.yaml").write_text(TABLE.replace("category: ms-equivalent", "category: ms-equal"), encoding="utf-8")
    result = kb(mappings, "stats")
    assert result.returncode == 2
    assert result.stderr == (
        f"ascend-migrate: error: {mappings / 'sample.yaml'}:5: unknown category 'ms-equal'; expected one of "
        "['ms-equivalent', 'ms-differs', 'ms-unsupported', 'ms-structure', 'npu-rename', 'npu-unsupported', "
        "'npu-affinity', 'npu-dynamic-shape', 'third-party']\n"
    )


def test_kb_without_an_action_prints_help_and_exits_2(mappings):
    result = kb(mappings)
    assert result.returncode == 2
    assert "stats" in result.stdout and "lookup" in result.stdout and "verify" in result.stdout


def test_record_without_numeric_is_a_usage_error(mappings, tmp_path):
    result = kb(mappings, "verify", "--record", str(tmp_path / "numeric.yaml"))
    assert (result.returncode, result.stderr) == (2, "ascend-migrate: error: --record needs --numeric\n")


def test_a_malformed_usage_file_exits_2_naming_its_line(mappings):
    (mappings / "usage" / "torch_api_frequency.csv").write_text(USAGE.replace("torch.fx.Node,50", "torch.fx.Node,many"), encoding="utf-8")
    result = kb(mappings, "stats")
    assert (result.returncode, result.stderr) == (
        2, f"ascend-migrate: error: {mappings / 'usage' / 'torch_api_frequency.csv'}:3: references, repos must be whole numbers\n")


def test_verify_without_the_packages_says_not_verified_and_fails_unless_allowed(mappings):
    """With neither torch nor mindspore installed nothing behind the names was checked: no pass by default."""
    if any(__import__("importlib").util.find_spec(name) for name in ("torch", "mindspore")):
        pytest.skip("torch or mindspore is installed here")
    result = kb(mappings, "verify")
    last = result.stdout.strip().splitlines()[-1]
    assert result.returncode == 1, result.stdout
    assert last == ("kb verify: 5 entries, 0 unresolved names, NOT VERIFIED against mindspore (2 names), "
                    "torch (5 names), torch_npu (1 name): not installed, 0 parameter warnings")
    assert kb(mappings, "verify", "--allow-missing").returncode == 0
