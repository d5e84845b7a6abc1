"""The language server measured through a real LSP connection: edit latency, memory, initialize time.

Edit latency is the time from writing a one-line `didChange` to reading the `publishDiagnostics` for that
version. Edits go one at a time (each waits for its diagnostics), at places spread over the file: the
import block, function bodies and the end of the file; each place gets an inserted line, its removal, a
changed line and its restoration, so the document returns to its first text after every place.
"""

from __future__ import annotations

import ast
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsp_client import LanguageServerProcess, ServerError, change_kind, initialize, process_cpu_seconds, process_tree_rss
from timing import percentile
from training_scripts import training_script

SERVER_COMMAND = [sys.executable, "-m", "ascend_migrate", "serve", "--stdio", "--log-level", "warning"]
EDIT_TIMEOUT_SECONDS = 120.0


@dataclass(frozen=True)
class Edit:
    """Replace lines [start, end) (0-based) with `new_lines`; a one-line change in LSP terms."""

    start: int
    end: int
    new_lines: tuple[str, ...]
    place: str


@dataclass
class LatencyResult:
    lines: int
    targets: str
    latencies: list[float] = field(default_factory=list)
    server_cpu: list[float] = field(default_factory=list)  # the server's CPU seconds per edit (all threads)
    places: list[str] = field(default_factory=list)
    parse_seconds: float = 0.0
    open_seconds: float = 0.0
    final_diagnostics: int = 0
    sync: str = ""
    versions_matched: bool = True

    @property
    def p50(self) -> float:
        return percentile(self.latencies, 0.50)

    @property
    def p95(self) -> float:
        return percentile(self.latencies, 0.95)


def edit_plan(text: str, places: int = 12) -> list[Edit]:
    """Four edits at each of `places` places: 2 in the imports, the rest in function bodies, plus the end."""
    module = ast.parse(text)
    lines = text.split("\n")
    imports = [node for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno == node.end_lineno]
    statements = [
        node for function in ast.walk(module) if isinstance(function, ast.FunctionDef)
        for node in function.body
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr)) and node.lineno == node.end_lineno
        and not isinstance(getattr(node, "value", None), ast.Constant)
    ]
    statements.sort(key=lambda node: node.lineno)
    body_places = places - 3
    chosen_bodies = [statements[(index * (len(statements) - 1)) // max(1, body_places - 1)] for index in range(body_places)]
    plan: list[Edit] = []
    for node in (imports[1], imports[-1]):
        row = node.lineno - 1
        plan += _edits_at(lines, row, "import torch.distributed.fsdp as fsdp", "imports")
    for node in chosen_bodies:
        row = node.lineno - 1
        indent = lines[row][: len(lines[row]) - len(lines[row].lstrip())]
        plan += _edits_at(lines, row, f"{indent}torch.cuda.empty_cache()", "function body")
    last = max(row for row, line in enumerate(lines) if line.strip())
    plan += _edits_at(lines, last, "torch.cuda.synchronize()", "end of file")
    return plan


def _edits_at(lines: list[str], row: int, inserted: str, place: str) -> list[Edit]:
    original = lines[row]
    changed = _typed_change(original)
    return [
        Edit(row + 1, row + 1, (inserted,), place),  # type a new line below
        Edit(row + 1, row + 2, (), place),  # delete it again
        Edit(row, row + 1, (changed,), place),  # change this line (a number, or a trailing comment)
        Edit(row, row + 1, (original,), place),  # and back
    ]


def _typed_change(line: str) -> str:
    for index in range(len(line) - 1, -1, -1):
        if line[index].isdigit():
            return line[:index] + str((int(line[index]) + 1) % 10) + line[index + 1:]
    return line + "  # checked"


def apply(lines: list[str], edit: Edit) -> list[str]:
    return lines[: edit.start] + list(edit.new_lines) + lines[edit.end:]


def content_change(lines: list[str], edit: Edit, incremental: bool, new_lines: list[str]) -> dict:
    """The didChange content change for `edit`: a range over whole lines, or the full new text."""
    if not incremental:
        return {"text": "\n".join(new_lines)}
    replacement = "".join(line + "\n" for line in edit.new_lines)
    return {"range": {"start": {"line": edit.start, "character": 0}, "end": {"line": edit.end, "character": 0}},
            "text": replacement}


def wait_for_version(server: LanguageServerProcess, uri: str, version: int, timeout: float) -> tuple[float, int, bool]:
    """Seconds-stamp of the publishDiagnostics for `uri` at `version` (or the first one, when it carries no version)."""
    deadline = time.monotonic() + timeout
    while True:
        received = server.next_notification("textDocument/publishDiagnostics", max(0.1, deadline - time.monotonic()))
        params = received.message["params"]
        if params["uri"] != uri:
            continue
        published = params.get("version")
        if published is None:
            return received.at, len(params["diagnostics"]), False
        if published == version:
            return received.at, len(params["diagnostics"]), True


def measure_edit_latency(lines_wanted: int, edits_per_place: int = 4, places: int = 12) -> LatencyResult:
    text = training_script(lines_wanted)
    workspace = Path(tempfile.mkdtemp(prefix="ascend-migrate-bench-"))
    path = workspace / f"train_{lines_wanted}.py"
    path.write_text(text)
    uri = path.as_uri()
    result = LatencyResult(lines=text.count("\n"), targets="npu")
    # The comparison: ast.parse of the text in this process, 7 times now and once after every edit, so that
    # the median follows the machine through the run (a burst of 7 alone moved by 40% between runs).
    parse_times = [_parse_seconds(text) for _ in range(7)]
    server = LanguageServerProcess(SERVER_COMMAND, cwd=workspace)
    try:
        capabilities, _ = initialize(server, workspace)
        incremental = change_kind(capabilities) == 2
        result.sync = "incremental" if incremental else "full"
        server.drain(quiet_seconds=0.3, limit_seconds=10)
        sent = server.notify("textDocument/didOpen",
                             {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        at, _, _ = wait_for_version(server, uri, 1, EDIT_TIMEOUT_SECONDS)
        result.open_seconds = at - sent
        server.drain(quiet_seconds=0.3, limit_seconds=10)
        lines = text.split("\n")
        version = 1
        for edit in edit_plan(text, places):
            new_lines = apply(lines, edit)
            version += 1
            change = content_change(lines, edit, incremental, new_lines)
            cpu_before = process_cpu_seconds(server.pid)
            sent = server.notify("textDocument/didChange",
                                 {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
            at, diagnostics, matched = wait_for_version(server, uri, version, EDIT_TIMEOUT_SECONDS)
            result.latencies.append(at - sent)
            result.server_cpu.append(process_cpu_seconds(server.pid) - cpu_before)
            result.places.append(edit.place)
            result.final_diagnostics = diagnostics
            result.versions_matched &= matched
            lines = new_lines
            parse_times.append(_parse_seconds("\n".join(lines)))  # the server is idle now: nothing overlaps
            time.sleep(0.02)  # a typing pause; lets the server finish any follow-up work outside the measurement
        if "\n".join(lines) != text:
            raise RuntimeError("the edit plan did not return the document to its first text")
    finally:
        server.shutdown()
    result.parse_seconds = statistics.median(parse_times)
    return result


def _parse_seconds(text: str) -> float:
    started = time.perf_counter()
    ast.parse(text)
    return time.perf_counter() - started


@dataclass
class MemoryResult:
    documents: int
    lines_each: int
    rss_after_initialize: int
    rss_with_documents: int
    seconds_to_analyse_all: float
    diagnostics: int


def measure_memory(documents: int = 200, lines_each: int = 2000) -> MemoryResult:
    """RSS of the server process tree with `documents` distinct open scripts, all analysed and published."""
    workspace = Path(tempfile.mkdtemp(prefix="ascend-migrate-bench-memory-"))
    texts = [training_script(lines_each, variant=index + 1) for index in range(documents)]
    server = LanguageServerProcess(SERVER_COMMAND, cwd=workspace)
    try:
        initialize(server, workspace)
        server.drain(quiet_seconds=0.5, limit_seconds=10)
        baseline = process_tree_rss(server.pid)
        uris = []
        started = time.perf_counter()
        for index, text in enumerate(texts):
            uri = (workspace / f"train_{index:03}.py").as_uri()
            uris.append(uri)
            server.notify("textDocument/didOpen",
                          {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        waiting = set(uris)
        diagnostics = 0
        deadline = time.monotonic() + 900
        while waiting:
            received = server.next_notification("textDocument/publishDiagnostics", max(0.1, deadline - time.monotonic()))
            params = received.message["params"]
            if params["uri"] in waiting:
                waiting.discard(params["uri"])
                diagnostics += len(params["diagnostics"])
        seconds = time.perf_counter() - started
        server.drain(quiet_seconds=1.0, limit_seconds=30)
        rss = process_tree_rss(server.pid)
    finally:
        server.shutdown()
    lines = sum(text.count("\n") for text in texts) // documents
    return MemoryResult(documents, lines, baseline, rss, seconds, diagnostics)


BARE_PYGLS_COMMAND = [sys.executable, str(Path(__file__).resolve().parent / "bare_pygls_server.py")]


@dataclass(frozen=True)
class StartTimes:
    """Process start → `initialize` answered: wall seconds and the server's CPU seconds, per fresh process."""

    first: tuple[float, float]  # the untimed warm-up: .pyc files and the generated-code cache are written
    runs: list[tuple[float, float]]


def measure_initialize(commands: dict[str, list[str]], repeats: int = 5) -> dict[str, StartTimes]:
    """One fresh process per run for each command, the commands alternating so that load drifts hit all alike."""
    workspace = Path(tempfile.mkdtemp(prefix="ascend-migrate-bench-init-"))
    timings: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeats + 1):
        for name, command in commands.items():
            server = LanguageServerProcess(command, cwd=workspace)
            try:
                _, seconds = initialize(server, workspace)
                cpu = process_cpu_seconds(server.pid)
            finally:
                server.shutdown()
            timings[name].append((seconds, cpu))
    return {name: StartTimes(runs[0], runs[1:]) for name, runs in timings.items()}


__all__ = ["ServerError", "measure_edit_latency", "measure_memory", "measure_initialize"]
