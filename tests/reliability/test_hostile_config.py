"""Hostile mappings and config files: rejected with one clear line naming the file (and line or key), exit 2.

Run through the real command (`python -m ascend_migrate scan`), the knowledge base pointed at a temporary
directory with ASCEND_MIGRATE_MAPPINGS, the config in a temporary pyproject.toml.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from ascend_migrate.config import ConfigError, settings_from_pyproject
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.loader import KnowledgeBaseError

from reliability_cli import run_cli

ENGINE_TABLE = (Path(__file__).resolve().parents[1] / "fixtures" / "mappings" / "engine.yaml").read_text(encoding="utf-8")
SCRIPT = "import torch\n\ntorch.cuda.synchronize()\n"


def scan_with_mappings(tmp_path: Path, name: str, content: str | bytes) -> subprocess.CompletedProcess:
    mappings = tmp_path / "mappings"
    mappings.mkdir()
    (mappings / "engine.yaml").write_text(ENGINE_TABLE, encoding="utf-8")  # a good table beside the bad one
    target = mappings / name
    target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    (tmp_path / "train.py").write_text(SCRIPT, encoding="utf-8")
    return run_cli("scan", "train.py", cwd=tmp_path, mappings=mappings)


def load_mappings(tmp_path: Path, name: str, content: str) -> KnowledgeBase:
    """The knowledge base of a directory holding the engine's test table and `content` as `name`, in-process."""
    mappings = tmp_path / "mappings"
    mappings.mkdir()
    (mappings / "engine.yaml").write_text(ENGINE_TABLE, encoding="utf-8")
    (mappings / name).write_text(content, encoding="utf-8")
    return KnowledgeBase.from_directory(mappings)


def billion_laughs(levels: int = 9) -> str:
    lines = ["provenance: a test", 'lol0: &l0 ["lol"]']
    for level in range(1, levels + 1):
        lines.append(f"lol{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_is_refused_before_it_expands(tmp_path):
    completed = scan_with_mappings(tmp_path, "laughs.yaml", billion_laughs())
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (
        f"ascend-migrate: error: the knowledge base is broken: {tmp_path}/mappings/laughs.yaml:2: "
        "YAML anchors and aliases are not allowed in mappings\n"
    )


def test_a_python_tag_is_refused_and_never_run(tmp_path):
    marker = tmp_path / "MARKER"
    body = f'provenance: a test\nentries:\n  - api: !!python/object/apply:os.system ["touch {marker}"]\n    category: npu-rename\n'
    completed = scan_with_mappings(tmp_path, "tag.yaml", body)
    assert completed.returncode == 2
    assert completed.stderr == f"ascend-migrate: error: the knowledge base is broken: {tmp_path}/mappings/tag.yaml:3: api must be a str, not a list\n"
    assert not marker.exists()


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("entries: " + "[" * 2000 + "]" * 2000 + "\n", 1, "not valid YAML: while increasing flow level"),
        ("entries:\n" + "".join(" " * depth + f"k{depth}:\n" for depth in range(1, 2000)), 1000, "not valid YAML: while increasing block level"),
    ],
    ids=["2000-deep-flow", "2000-deep-block"],
)
def test_deeply_nested_yaml_is_refused_with_its_line(tmp_path, body, line, message):
    with pytest.raises(KnowledgeBaseError) as error:
        load_mappings(tmp_path, "deep.yaml", body)
    assert str(error.value).startswith(f"{tmp_path}/mappings/deep.yaml:{line}: {message}")


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("provenance: a test\nentries:\n  api: torch.cuda.synchronize\n", 3, "entries must be a list"),
        ("provenance: a test\nentries:\n  - 5\n", 3, "entry 1 must be a mapping"),
        ("provenance: a test\nentries:\n  - api: [torch, cuda]\n    category: npu-rename\n", 3, "api must be a str, not a list"),
        ("provenance: a test\nentries:\n  - api: torch.cuda.synchronize\n    category: npu-rename\n    curated: 'yes'\n", 5, "curated must be a bool, got str 'yes'"),
        ("provenance: a test\nentries:\n  - api: torch.cuda.synchronize\n    category: npu-rename\n    source_versions: '>=" + "9" * 100000 + "'\n",
         5, "source_versions: '" + "9" * 40 + "...' is not a version like 2.8 or 2.10.0"),
        ("provenance: a test\nentries:\n  - api: torch.cuda.synchronize\n    category: npu-rename\n    source_versions: '>=2.²'\n",
         5, "source_versions: '>=2.²' in '>=2.²' is not a version clause like '>=2.5' or '<2.8'"),
    ],
    ids=["entries-not-a-list", "entry-not-a-mapping", "api-a-list", "curated-a-string", "a-100000-digit-version", "a-superscript-digit"],
)
def test_wrong_types_and_huge_values_name_the_file_and_line(tmp_path, body, line, message):
    with pytest.raises(KnowledgeBaseError) as error:
        load_mappings(tmp_path, "bad.yaml", body)
    assert str(error.value) == f"{tmp_path}/mappings/bad.yaml:{line}: {message}"


def test_a_mappings_file_over_32_mib_is_refused_unread(tmp_path):
    mappings = tmp_path / "mappings"
    mappings.mkdir()
    with open(mappings / "huge.yaml", "wb") as handle:
        handle.truncate(40 * 1024 * 1024)  # sparse: the loader must refuse it by its size, before reading
    (tmp_path / "train.py").write_text(SCRIPT, encoding="utf-8")
    completed = run_cli("scan", "train.py", cwd=tmp_path, mappings=mappings)
    assert completed.returncode == 2
    assert completed.stderr == f"ascend-migrate: error: the knowledge base is broken: {mappings}/huge.yaml: file is 41943040 bytes; the limit is 33554432\n"


def test_a_mappings_file_that_is_not_utf8_names_the_byte(tmp_path):
    completed = scan_with_mappings(tmp_path, "latin.yaml", b"provenance: a test\nentries:\n  - api: torch.cuda.\xff\n    category: npu-rename\n")
    assert completed.returncode == 2
    assert completed.stderr == f"ascend-migrate: error: the knowledge base is broken: {tmp_path}/mappings/latin.yaml: not valid UTF-8: invalid start byte at byte 48\n"


# --- [tool.ascend-migrate] in pyproject.toml -------------------------------------------------------------

def scan_with_config(tmp_path: Path, table: str | bytes, *arguments: str) -> subprocess.CompletedProcess:
    content = table if isinstance(table, bytes) else table.encode("utf-8")
    (tmp_path / "pyproject.toml").write_bytes(b"[project]\nname = \"trainer\"\n\n" + content)
    (tmp_path / "train.py").write_text(SCRIPT, encoding="utf-8")
    return run_cli("scan", *arguments, "train.py", cwd=tmp_path)


@pytest.mark.parametrize(
    "table, message",
    [
        ('[tool]\nascend-migrate = 5\n', "tool.ascend-migrate: must be a table"),
        ('[tool.ascend-migrate]\ntarget = 5\n', "target: must be one of ['mindspore', 'npu'], got 5"),
        ('[tool.ascend-migrate]\nfollow-symlinks = "yes"\n', "follow-symlinks: must be true or false, got 'yes'"),
        ('[tool.ascend-migrate]\nselect = [1, 2]\n', "select: must be a list of strings, got [1, 2]"),
        ('[tool.ascend-migrate]\nexclude = {a = 1}\n', "exclude: must be a list of strings, got {'a': 1}"),
        ('[tool.ascend-migrate]\nseverity = {npu-rename = "fatal"}\n', "severity: must be one of ['error', 'warning', 'info', 'hint'], got 'fatal'"),
        ('[tool.ascend-migrate]\nper-path-ignores = 3\n', "per-path-ignores: must be a table of glob → list of codes, got 3"),
        ('[tool.ascend-migrate]\ntorch-version = "' + "9" * 100000 + '"\n', "torch-version: '" + "9" * 40 + "...' is not a version like 2.8 or 2.10.0"),
        ('[tool.ascend-migrate]\nmindspore-version = 1e400\n', "mindspore-version: 'inf' is not a version like 2.8 or 2.10.0"),
        ('[tool.ascend-migrate]\nrun-this = "rm -rf /"\n', "run-this: unknown setting; known settings are"),
    ],
    ids=["table-a-number", "target-a-number", "boolean-a-string", "codes-numbers", "excludes-a-table", "unknown-severity",
         "ignores-a-number", "a-100000-digit-version", "an-infinite-version", "unknown-key"],
)
def test_wrong_types_and_huge_values_in_the_config_name_file_and_key(tmp_path, table, message):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "trainer"\n\n' + table, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        settings_from_pyproject(pyproject)
    source = f"{pyproject}" + ("" if "ascend-migrate = 5" in table else " [tool.ascend-migrate]")
    assert str(error.value).startswith(f"{source}: {message}")


def test_a_pyproject_with_50000_per_path_ignores_is_refused_with_the_limit(tmp_path):
    """50,000 globs made a 50-file scan take minutes and every keystroke seconds: refused in one line."""
    globs = "\n".join(f'"generated/module_{index}.py" = ["NPU101"]' for index in range(50_000))
    completed = scan_with_config(tmp_path, f"[tool.ascend-migrate.per-path-ignores]\n{globs}\n")
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (f"ascend-migrate: error: {tmp_path}/pyproject.toml [tool.ascend-migrate]: per-path-ignores: "
                                "has 50000 entries; at most 1000 are accepted\n")


def test_per_path_ignores_within_the_limit_apply_to_every_file(tmp_path):
    globs = "\n".join(f'"generated/module_{index}.py" = ["NPU101"]' for index in range(999))
    completed = scan_with_config(tmp_path, f'[tool.ascend-migrate.per-path-ignores]\n{globs}\n"train.py" = ["NPU101"]\n',
                                 "--format", "json")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["findings"] == []


def test_a_bad_config_value_through_the_command_is_one_line_and_exit_2(tmp_path):
    completed = scan_with_config(tmp_path, '[tool.ascend-migrate]\ntorch-version = "' + "9" * 100000 + '"\n')
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (
        f"ascend-migrate: error: {tmp_path}/pyproject.toml [tool.ascend-migrate]: torch-version: '{'9' * 40}...' "
        "is not a version like 2.8 or 2.10.0\n"
    )


@pytest.mark.parametrize("content", [b'tool = "ascend-migrate"\n', b"tool = [\"ascend-migrate\"]\n"], ids=["a-string", "a-list"])
def test_a_pyproject_whose_tool_is_not_a_table_is_not_ours_and_is_passed_over(tmp_path, content):
    """Found by walking up from the scanned file (no --config): it names us but holds no table of ours."""
    completed = scan_with_config(tmp_path, content, "--format", "json")
    assert completed.stderr == ""
    assert completed.returncode == 1  # the default settings: a CUDA rename is required on the npu route
    assert '"api": "torch.cuda.synchronize"' in completed.stdout


def test_a_deeply_nested_config_given_with_config_is_an_error_not_a_traceback(tmp_path):
    completed = scan_with_config(tmp_path, b"[tool.ascend-migrate]\nexclude = " + b"[" * 100000 + b"]" * 100000 + b"\n", "--config", "pyproject.toml")
    assert completed.returncode == 2
    assert completed.stderr == "ascend-migrate: error: pyproject.toml: [tool.ascend-migrate]: not valid TOML: nested too deeply\n"


def test_a_config_that_is_not_utf8_given_with_config_names_the_byte(tmp_path):
    completed = scan_with_config(tmp_path, b'[tool.ascend-migrate]\ntarget = "np\xffu"\n', "--config", "pyproject.toml")
    assert completed.returncode == 2
    assert completed.stderr == "ascend-migrate: error: pyproject.toml: [tool.ascend-migrate]: not valid UTF-8: invalid start byte at byte 62\n"


def test_the_server_with_an_alias_bomb_in_its_mappings_says_so_once_and_stays_up(tmp_path):
    from reliability_rpc import RawServer, server_environment

    mappings = tmp_path / "mappings"
    mappings.mkdir()
    (mappings / "laughs.yaml").write_text(billion_laughs(), encoding="utf-8")
    server = RawServer(environment=server_environment(mappings), log_level="warning")
    try:
        server.initialize()
        server.open("file:///config/train.py", SCRIPT)
        server.wait_for(lambda m: m.get("method") == "window/showMessage", what="the error message")
        hover = server.call("textDocument/hover", {"textDocument": {"uri": "file:///config/train.py"}, "position": {"line": 2, "character": 8}})
        assert hover["result"] is None  # answered: nothing known without a knowledge base
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        assert messages == [f"The ascend-migrate knowledge base is broken: {mappings}/laughs.yaml:2: YAML anchors and aliases are not allowed in mappings"]
        assert server.shutdown() == 0
    finally:
        server.kill()


def mappings_with(tmp_path: Path, name: str, make) -> Path:
    mappings = tmp_path / "mappings"
    mappings.mkdir()
    (mappings / "engine.yaml").write_text(ENGINE_TABLE, encoding="utf-8")
    make(mappings / name)
    (tmp_path / "train.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    return mappings


@pytest.mark.parametrize("name, make, why", [
    ("pipe.yaml", os.mkfifo, "not a regular file (a pipe, a device or a directory); a table must be a file"),
    ("zero.yaml", lambda path: path.symlink_to("/dev/zero"), "not a regular file (a pipe, a device or a directory); a table must be a file"),
    ("folder.yaml", lambda path: path.mkdir(), "not a regular file (a pipe, a device or a directory); a table must be a file"),
])
def test_a_mappings_entry_that_is_not_a_regular_file_is_refused_at_once(tmp_path, name, make, why):
    """A FIFO used to hang the load and a link to /dev/zero to read until killed: both now fail in one line."""
    mappings = mappings_with(tmp_path, name, make)
    completed = run_cli("scan", "train.py", cwd=tmp_path, mappings=mappings, timeout=60)
    assert completed.returncode == 2
    assert completed.stderr == f"ascend-migrate: error: the knowledge base is broken: {mappings}/{name}: {why}\n"
