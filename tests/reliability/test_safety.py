"""Safety: user code is read, never imported or run; `fix --write` writes atomically and only where it may;
reports survive file names and code written to attack them."""

from __future__ import annotations

import html.parser
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest

from reliability_rpc import CONSOLE_SERVER_COMMAND, SERVER_COMMAND, RawServer
from reliability_cli import run_cli

SCRIPT = "import torch\n\ntorch.cuda.synchronize()\n"
FIXED = "import torch\nimport torch_npu\n\ntorch.npu.synchronize()\n"
NOBODY = 65534  # another user, for the tests that need one (they run as root)
# Modules the tool itself imports (a workspace file of that name would shadow them), the frameworks the
# scanned code imports, and the files Python or tools run by convention.
TRAPS = ["yaml", "libcst", "pathspec", "rich", "lsprotocol", "pygls", "cattrs", "attrs", "typing_extensions", "tomli",
         "torch", "torch_npu", "mindspore", "tensorflow", "sitecustomize", "usercustomize", "conftest", "setup", "train"]


def trapped_workspace(root: Path) -> Path:
    """A project where importing or running any file leaves a MARKER_<name> file behind."""
    (root / "pkg").mkdir(parents=True)
    for name in TRAPS:
        (root / f"{name}.py").write_text(f"open({str(root / ('MARKER_' + name))!r}, 'w').close()\n" + SCRIPT, encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text(f"open({str(root / 'MARKER_pkg')!r}, 'w').close()\n" + SCRIPT, encoding="utf-8")
    return root


def markers(root: Path) -> list[str]:
    return sorted(path.name for path in root.glob("MARKER_*"))


def test_scan_fix_and_kb_never_import_or_run_the_scanned_code(tmp_path):
    root = trapped_workspace(tmp_path / "project")
    assert run_cli("scan", "--format", "json", ".", cwd=root).returncode == 1  # a CUDA rename is required on the npu route: exit 1
    assert run_cli("kb", "lookup", "torch.cuda.synchronize", cwd=root).returncode == 0
    completed = run_cli("fix", "--write", ".", cwd=root)
    assert completed.returncode == 0, completed.stderr
    assert markers(root) == []
    assert (root / "train.py").read_text(encoding="utf-8").endswith(FIXED)  # the files were read and fixed all the same


def serve_a_session(root: Path, command: list[str], extra_files: int = 0) -> None:
    server = RawServer(cwd=root, command=command, log_level="warning")
    try:
        server.call("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                                   "workspaceFolders": [{"uri": root.as_uri(), "name": "project"}], "initializationOptions": {"target": "npu"}})
        server.notify("initialized", {})
        uri = (root / "train.py").as_uri()
        server.open(uri, (root / "train.py").read_text(encoding="utf-8"))
        diagnostics = server.diagnostics(uri, 1)
        server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 8}})
        server.call("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diagnostics[0]["range"], "context": {"diagnostics": diagnostics}})
        summary = server.call("workspace/executeCommand", {"command": "ascend-migrate.scanWorkspace", "arguments": []})["result"]
        assert summary["files"] == len(TRAPS) + 1 + extra_files
    finally:
        assert server.shutdown() == 0


def test_the_server_started_as_its_console_script_never_imports_the_workspace(tmp_path):
    root = trapped_workspace(tmp_path / "project")
    serve_a_session(root, CONSOLE_SERVER_COMMAND)
    assert markers(root) == []


def test_the_server_started_with_python_m_never_imports_the_workspace(tmp_path):
    root = trapped_workspace(tmp_path / "project")
    serve_a_session(root, SERVER_COMMAND[:-1])
    assert markers(root) == []


# --- a workspace that shadows the tool itself ---------------------------------------------------------------
# `python -m ascend_migrate` finds the package through sys.path with the working directory first, before any of
# our code runs, so no code of ours can defend that launch: every documented launch must avoid it instead.

VSCODE_INTERPRETER = Path(__file__).resolve().parents[2] / "vscode-client" / "src" / "interpreter.ts"


def vscode_python_source(constant: str) -> str:
    """The Python the VS Code extension passes to `python -c`, read from the extension's own source."""
    match = re.search(rf'export const {constant} =\s*"([^"]*)";', VSCODE_INTERPRETER.read_text(encoding="utf-8"))
    assert match, f"{constant} not found in {VSCODE_INTERPRETER}"
    return match.group(1)


def shadowing_workspace(root: Path, shape: str) -> Path:
    """A project holding its own `ascend_migrate` (a module or a package) that leaves MARKER_ascend_migrate when run."""
    trapped_workspace(root)
    payload = f"open({str(root / 'MARKER_ascend_migrate')!r}, 'w').close()\n"
    if shape == "module":
        (root / "ascend_migrate.py").write_text(payload, encoding="utf-8")
    else:
        (root / "ascend_migrate").mkdir()
        (root / "ascend_migrate" / "__init__.py").write_text(payload, encoding="utf-8")
        (root / "ascend_migrate" / "__main__.py").write_text(payload, encoding="utf-8")
    return root


SAFE_LAUNCHES = {
    "console script (docs/editors)": lambda: CONSOLE_SERVER_COMMAND,
    "VS Code extension": lambda: [sys.executable, "-c", vscode_python_source("SERVER_SOURCE"), "serve", "--stdio", "--log-level"],
    "python -P -m (3.11+)": lambda: [sys.executable, "-P", "-m", "ascend_migrate", "serve", "--stdio", "--log-level"],
}


@pytest.mark.parametrize("shape", ["module", "package"])
@pytest.mark.parametrize("launch", list(SAFE_LAUNCHES))
def test_every_documented_launch_of_the_server_ignores_a_workspace_that_shadows_the_tool(tmp_path, launch, shape):
    if launch.startswith("python -P") and sys.version_info < (3, 11):
        pytest.skip("-P exists from Python 3.11 on")
    root = shadowing_workspace(tmp_path / "project", shape)
    serve_a_session(root, SAFE_LAUNCHES[launch](), extra_files=1 if shape == "module" else 2)
    assert markers(root) == []


@pytest.mark.parametrize("shape", ["module", "package"])
def test_the_vscode_install_probe_ignores_a_workspace_that_shadows_the_tool(tmp_path, shape):
    root = shadowing_workspace(tmp_path / "project", shape)
    probe = subprocess.run([sys.executable, "-c", vscode_python_source("PROBE_SOURCE")], cwd=root,
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    assert markers(root) == []


def test_the_bare_python_m_launch_is_the_one_a_shadowing_workspace_hijacks(tmp_path):
    """Why the documented launches avoid `python -m ascend_migrate`: if this ever stops leaving a marker, Python
    changed, and the docs can say so."""
    root = shadowing_workspace(tmp_path / "project", "module")
    subprocess.run([sys.executable, "-m", "ascend_migrate", "--version"], cwd=root, capture_output=True, timeout=60)
    assert markers(root) == ["MARKER_ascend_migrate"]


def test_no_editor_set_up_starts_the_server_with_python_m():
    documented = Path(__file__).resolve().parents[2] / "docs" / "editors"
    offenders = [str(path.relative_to(documented)) for path in sorted(documented.rglob("*"))
                 if path.is_file() and path.suffix != ".md"
                 and re.search(r'"-m"[,\s]*"ascend_migrate"|-m ascend_migrate serve', path.read_text(encoding="utf-8", errors="replace"))]
    assert offenders == []


# --- fix --write ------------------------------------------------------------------------------------------

def test_fix_write_replaces_the_file_by_a_rename_never_in_place(tmp_path):
    """A hard link taken before the write keeps the old text: the new text went into a new file renamed over it."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(SCRIPT, encoding="utf-8")
    (project / "train.py").chmod(0o640)
    os.link(project / "train.py", tmp_path / "backup.py")
    inode = (project / "train.py").stat().st_ino
    assert run_cli("fix", "--write", "project", cwd=tmp_path).returncode == 0
    assert (project / "train.py").read_text(encoding="utf-8") == FIXED
    assert (tmp_path / "backup.py").read_text(encoding="utf-8") == SCRIPT
    assert (project / "train.py").stat().st_ino != inode
    assert (project / "train.py").stat().st_mode & 0o777 == 0o640
    assert sorted(path.name for path in project.iterdir()) == ["train.py"]  # no temporary file left behind


def test_fix_write_leaves_a_read_only_file_alone_and_says_so(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(SCRIPT, encoding="utf-8")
    (project / "train.py").chmod(0o444)
    completed = run_cli("fix", "--write", "project", cwd=tmp_path)
    assert completed.returncode == 1
    assert "project/train.py: not written: the file is read-only; make it writable to fix it" in completed.stderr
    assert (project / "train.py").read_text(encoding="utf-8") == SCRIPT
    assert (project / "train.py").stat().st_mode & 0o777 == 0o444


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_fix_write_keeps_the_owner_group_and_extended_attributes(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    path = project / "train.py"
    path.write_text(SCRIPT, encoding="utf-8")
    os.chown(path, NOBODY, NOBODY)
    try:
        os.setxattr(path, "user.reviewed-by", b"ops-team")
    except OSError:
        pytest.skip("this file system keeps no user extended attributes")
    assert run_cli("fix", "--write", "project", cwd=tmp_path).returncode == 0
    assert path.read_text(encoding="utf-8") == FIXED
    assert (path.stat().st_uid, path.stat().st_gid) == (NOBODY, NOBODY)
    assert os.getxattr(path, "user.reviewed-by") == b"ops-team"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="running fix as another user needs root and setpriv")
def test_fix_write_by_another_user_writes_in_place_to_keep_the_owner():
    """uid 65534 may write root's file (mode 0666) in a shared directory but cannot give a new file to root: the
    rename would change the owner, so the file is written in place."""
    as_nobody = ["setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups"]
    script = str(Path(sys.executable).with_name("ascend-migrate"))
    if subprocess.run([*as_nobody, script, "--version"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("uid 65534 cannot run this checkout's ascend-migrate (a folder above it is private)")
    shared = Path(tempfile.mkdtemp(prefix="ascend-migrate-shared-"))
    try:
        shared.chmod(0o777)
        path = shared / "train.py"
        path.write_text(SCRIPT, encoding="utf-8")
        path.chmod(0o666)
        inode = path.stat().st_ino
        environment = dict(os.environ, ASCEND_MIGRATE_CACHE_DIR="",
                           ASCEND_MIGRATE_MAPPINGS=str(Path(__file__).resolve().parents[1] / "fixtures" / "mappings"))
        completed = subprocess.run([*as_nobody, script, "fix", "--write", "train.py"], cwd=shared, env=environment,
                                   capture_output=True, text=True, timeout=120)
        assert completed.returncode == 0, completed.stderr
        assert path.read_text(encoding="utf-8") == FIXED
        assert (path.stat().st_uid, path.stat().st_ino, path.stat().st_mode & 0o777) == (0, inode, 0o666)
        assert sorted(child.name for child in shared.iterdir()) == ["train.py"]
    finally:
        shutil.rmtree(shared)


def test_fix_write_changes_nothing_outside_the_given_directory(tmp_path):
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    for path in (project / "train.py", project / "pkg" / "model.py", tmp_path / "elsewhere.py"):
        path.write_text(SCRIPT, encoding="utf-8")
    assert run_cli("fix", "--write", "pkg", cwd=project).returncode == 0
    assert (project / "pkg" / "model.py").read_text(encoding="utf-8") == FIXED
    assert (project / "train.py").read_text(encoding="utf-8") == SCRIPT
    assert (tmp_path / "elsewhere.py").read_text(encoding="utf-8") == SCRIPT


def test_fix_write_with_follow_symlinks_never_writes_through_a_link_out_of_the_tree(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "vendor"
    outside.mkdir()
    (outside / "library.py").write_text(SCRIPT, encoding="utf-8")
    (project / "pyproject.toml").write_text("[tool.ascend-migrate]\nfollow-symlinks = true\n", encoding="utf-8")
    (project / "train.py").write_text(SCRIPT, encoding="utf-8")
    (project / "vendored").symlink_to(outside)
    (project / "library.py").symlink_to(outside / "library.py")
    completed = run_cli("fix", "--write", ".", cwd=project)
    assert completed.returncode == 1
    assert (project / "train.py").read_text(encoding="utf-8") == FIXED
    assert (outside / "library.py").read_text(encoding="utf-8") == SCRIPT
    assert (project / "library.py").is_symlink() and (project / "vendored").is_symlink()
    assert f"library.py: symlink points outside the scanned tree ({outside / 'library.py'})" in completed.stderr
    assert f"vendored: symlink points outside the scanned tree ({outside})" in completed.stderr


# --- reports ----------------------------------------------------------------------------------------------

PAYLOAD = "</script><script>alert(3)</script><!--"
HOSTILE_NAMES = [b"<img src=x onerror=alert(1)>.py", b"\xff\xfe<b>.py", b"line\nbreak.py", b'=HYPERLINK("http:x").py']


def hostile_project(root: Path) -> Path:
    root.mkdir()
    source = f"import torch\n\ntorch.cuda.synchronize()  # {PAYLOAD}\nx = torch.zeros(1, device='cuda')  # \"'><svg onload=alert(4)>\n"
    for name in HOSTILE_NAMES:
        (Path(os.fsdecode(bytes(root) + b"/" + name))).write_text(source, encoding="utf-8")
    directory = root / "\"'><svg onload=alert(2)>"
    directory.mkdir()
    (directory / "model.py").write_text(source, encoding="utf-8")
    (root / "broken.py").write_text(f"def f(:\n    '{PAYLOAD}'\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("report_format", ["text", "json", "csv", "sarif", "html"])
def test_every_report_is_written_for_file_names_that_attack_it(tmp_path, report_format):
    hostile_project(tmp_path / "project")
    output = tmp_path / ("out" if report_format == "csv" else f"report.{report_format}")
    if report_format == "csv":
        output.mkdir()
    completed = run_cli("scan", "--format", report_format, "--output", str(output), "--fail-on", "error", "project", cwd=tmp_path)
    assert "Traceback" not in completed.stderr
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == "ascend-migrate: project/broken.py:1: syntax error: invalid syntax (line 1)\n"
    if report_format in ("json", "sarif"):
        json.loads(output.read_text(encoding="utf-8"))


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend(name for name, _ in attrs)

    def handle_data(self, data):
        self.text.append(data)


def test_the_html_report_shows_hostile_names_and_code_as_text_only(tmp_path):
    hostile_project(tmp_path / "project")
    completed = run_cli("scan", "--format", "html", "--output", "report.html", "--target", "npu", "project", cwd=tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    elements = _Elements()
    elements.feed(page)
    assert completed.returncode in (0, 1)
    assert elements.tags.count("script") == 1  # the report's own filter script, nothing from the scanned code
    assert not {"img", "iframe", "object", "embed", "link"} & set(elements.tags)  # (its charts are inline svg)
    assert not [name for name in elements.attributes if name.startswith("on")]
    text = "".join(elements.text)
    assert "<img src=x onerror=alert(1)>.py" in text and "\"'><svg onload=alert(2)>/model.py" in text
    assert PAYLOAD in text  # shown to the reader, as text


def test_sarif_links_a_file_name_that_is_not_utf8_by_its_own_bytes(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    Path(os.fsdecode(bytes(project) + b"/caf\xe9.py")).write_text("import torch\n\ntorch.cuda.synchronize()\n", encoding="utf-8")
    output = tmp_path / "report.sarif"
    completed = run_cli("scan", "--format", "sarif", "--output", str(output), "project", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr  # a CUDA rename is required on the npu route: exit 1
    [run] = json.loads(output.read_text(encoding="utf-8"))["runs"]
    uris = {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in run["results"]}
    assert uris == {"project/caf%E9.py"}
    assert unquote_to_bytes("project/caf%E9.py") == b"project/caf\xe9.py"


# --- fix --write and an editor saving at the same time -------------------------------------------------------

def test_fix_write_never_overwrites_an_edit_saved_while_the_file_was_being_fixed(tmp_path):
    """The user saves train.py after fix has read it and before fix writes it: the saved text survives, the run
    says so and exits 1, and the other file is still fixed. The moment of the read is seen through the file's
    access time (the file system updates it on the first read after a change, under relatime)."""
    root = tmp_path / "project"
    root.mkdir()
    # Long enough to fix that the save lands between the read and the write (~20,000 fixes: a few seconds).
    slow = root / "train.py"
    slow.write_text("import torch\n\n" + "torch.cuda.synchronize()\n" * 20_000, encoding="utf-8")
    other = root / "eval.py"
    other.write_text(SCRIPT, encoding="utf-8")
    written = os.stat(slow)
    os.utime(slow, ns=(written.st_mtime_ns - 10**10, written.st_mtime_ns))
    before_read = os.stat(slow).st_atime_ns
    open(slow, "rb").close()  # opening without reading leaves the access time alone: check the file system's rule
    environment = dict(os.environ, ASCEND_MIGRATE_MAPPINGS=str(Path(__file__).resolve().parents[1] / "fixtures" / "mappings"))
    process = subprocess.Popen([str(Path(sys.executable).with_name("ascend-migrate")), "fix", "--write", "train.py", "eval.py"],
                               cwd=root, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while os.stat(slow).st_atime_ns == before_read and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    if process.poll() is not None and os.stat(slow).st_atime_ns == before_read:
        pytest.skip("this file system does not update access times, so the moment of the read cannot be seen")
    saved_by_the_user = "import torch\n\nprint('saved in the editor')\n"
    slow.write_text(saved_by_the_user, encoding="utf-8")
    _, stderr = process.communicate(timeout=300)
    assert slow.read_text(encoding="utf-8") == saved_by_the_user
    assert "train.py: not written: the file changed on disk while it was being fixed" in stderr
    assert process.returncode == 1
    assert other.read_text(encoding="utf-8").endswith(FIXED)


# --- caches that another user could have written -------------------------------------------------------------

class _RunsWhenUnpickled:
    """A pickle that creates `marker` when loaded: what another user could put in a shared cache directory."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))



def poisoned_cache(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A project, a cache directory filled by a real scan, and every kb pickle in it replaced by a payload."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "train.py").write_text(SCRIPT, encoding="utf-8")
    cache = tmp_path / "cache"
    environment = dict(os.environ, ASCEND_MIGRATE_CACHE_DIR=str(cache),
                       ASCEND_MIGRATE_MAPPINGS=str(Path(__file__).resolve().parents[1] / "fixtures" / "mappings"))
    command = [str(Path(sys.executable).with_name("ascend-migrate")), "scan", "--format", "json", "."]
    assert subprocess.run(command, cwd=root, env=environment, capture_output=True, timeout=120).returncode == 1  # a CUDA rename is required on the npu route: exit 1
    pickles = sorted(cache.glob("kb-*.pickle"))
    assert pickles, "the scan did not write its knowledge-base cache"
    marker = tmp_path / "MARKER_cache"
    for path in pickles:
        path.write_bytes(pickle.dumps(_RunsWhenUnpickled(marker)))
    return root, cache, environment


def scan_with(root: Path, environment: dict[str, str]) -> dict:
    command = [str(Path(sys.executable).with_name("ascend-migrate")), "scan", "--format", "json", "."]
    completed = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 1, completed.stderr  # a CUDA rename is required on the npu route: exit 1
    return json.loads(completed.stdout)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_cache_file_of_another_user_is_never_loaded(tmp_path):
    root, cache, environment = poisoned_cache(tmp_path)
    for path in cache.glob("kb-*.pickle"):
        os.chown(path, NOBODY, NOBODY)
    report = scan_with(root, environment)
    assert not (tmp_path / "MARKER_cache").exists()
    assert [finding["code"] for finding in report["findings"]] == ["NPU101"]  # the YAML was read instead


@pytest.mark.parametrize("writable_by_others", ["file", "directory"])
def test_a_cache_that_others_could_write_is_never_loaded(tmp_path, writable_by_others):
    root, cache, environment = poisoned_cache(tmp_path)
    for path in ([cache] if writable_by_others == "directory" else list(cache.glob("kb-*.pickle"))):
        os.chmod(path, 0o777 if path.is_dir() else 0o666)
    scan_with(root, environment)
    assert not (tmp_path / "MARKER_cache").exists()


def test_the_same_cache_file_is_loaded_when_it_is_private(tmp_path):
    """The guard of the two tests above: a private poisoned pickle IS loaded, so they test the check, not luck."""
    root, cache, environment = poisoned_cache(tmp_path)
    command = [str(Path(sys.executable).with_name("ascend-migrate")), "scan", "--format", "json", "."]
    subprocess.run(command, cwd=root, env=environment, capture_output=True, timeout=120)
    assert (tmp_path / "MARKER_cache").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_generated_code_of_another_user_is_never_loaded(tmp_path):
    import marshal

    from ascend_migrate import generated_code_cache

    (tmp_path / "cache").mkdir(mode=0o700)
    path = tmp_path / "cache" / "generated-code.marshal"
    path.write_bytes(marshal.dumps({b"k" * 16: compile("open('MARKER', 'w')", "<attrs generated>", "exec")}))
    path.chmod(0o600)
    assert list(generated_code_cache._read(path)) == [b"k" * 16]
    os.chown(path, NOBODY, NOBODY)
    assert generated_code_cache._read(path) == {}


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_an_interrupted_fix_write_names_what_it_wrote_and_leaves_no_half_written_file(tmp_path, signal_name):
    import signal

    root = tmp_path / "project"
    root.mkdir()
    original = "import torch\n\n" + "torch.cuda.synchronize()\n" * 2_000
    names = [f"step_{index:02}.py" for index in range(60)]
    for name in names:
        (root / name).write_text(original, encoding="utf-8")
    environment = dict(os.environ, ASCEND_MIGRATE_MAPPINGS=str(Path(__file__).resolve().parents[1] / "fixtures" / "mappings"))
    # A job started in the background by a shell inherits SIGINT ignored, and Python then never turns it into
    # KeyboardInterrupt: give the command the default disposition a terminal's foreground job has.
    process = subprocess.Popen([str(Path(sys.executable).with_name("ascend-migrate")), "fix", "--write", "."],
                               cwd=root, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while (root / names[0]).read_text(encoding="utf-8") == original and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(getattr(signal, signal_name))
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    last_line = stderr.strip().splitlines()[-1]
    assert last_line.startswith("ascend-migrate: interrupted after "), stderr
    written = last_line.split("written: ", 1)[1].split(", ")
    assert written[0] == names[0] and len(written) < len(names)
    for name in names:
        text = (root / name).read_text(encoding="utf-8")
        if name in written:
            assert "torch.cuda" not in text and text.count("torch.npu.synchronize()") == 2_000, name
        else:
            assert text == original, name
    assert sorted(path.name for path in root.iterdir()) == names  # no temporary file left behind


def test_a_hostile_gitignore_is_matched_in_linear_time(tmp_path):
    """Fourteen lines of fourteen `**/a` over a 30-deep tree: minutes through a regular expression before."""
    root = tmp_path / "project"
    directory = root
    for _ in range(30):
        directory = directory / "a"
        directory.mkdir(parents=True)
        (directory / "model.py").write_text(SCRIPT, encoding="utf-8")
    (root / ".gitignore").write_text(("/".join(["**/a"] * 14) + "/b\n") * 14, encoding="utf-8")
    completed = run_cli("scan", "--format", "json", ".", cwd=root, timeout=60)
    assert completed.returncode == 1, completed.stderr  # a CUDA rename is required on the npu route: exit 1
    assert json.loads(completed.stdout)["files_scanned"] == 30
