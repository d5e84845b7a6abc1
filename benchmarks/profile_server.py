"""Profile the language server while it handles edits: py-spy samples every thread of the real process.

Usage: python profile_server.py PY_SPY LINES SECONDS OUTPUT. Opens a LINES-line training script, then
replays the edit plan of the latency benchmark for SECONDS while py-spy records; writes py-spy's collapsed
stacks to OUTPUT and prints, as JSON, the functions with the most samples (own and inclusive).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from lsp_bench import SERVER_COMMAND, apply, content_change, edit_plan, wait_for_version
from lsp_client import LanguageServerProcess, change_kind, initialize
from training_scripts import training_script


def main(py_spy: str, lines_wanted: int, duration: float, output: str) -> None:
    text = training_script(lines_wanted)
    workspace = Path(tempfile.mkdtemp(prefix="ascend-migrate-profile-"))
    uri = (workspace / "train.py").as_uri()
    server = LanguageServerProcess(SERVER_COMMAND, cwd=workspace)
    edits = 0
    try:
        capabilities, _ = initialize(server, workspace)
        incremental = change_kind(capabilities) == 2
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        wait_for_version(server, uri, 1, 120)
        recorder = subprocess.Popen([py_spy, "record", "--pid", str(server.pid), "--format", "raw", "--output", output,
                                     "--rate", "250", "--threads", "--nonblocking"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # py-spy attaches
        lines = text.split("\n")
        version = 1
        deadline = time.monotonic() + duration
        plan = edit_plan(text)
        while time.monotonic() < deadline:
            for edit in plan:
                new_lines = apply(lines, edit)
                version += 1
                server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [content_change(lines, edit, incremental, new_lines)]})
                wait_for_version(server, uri, version, 120)
                lines = new_lines
                edits += 1
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)
    finally:
        server.shutdown()
    print(json.dumps({"edits": edits, **summarize(Path(output))}))


def summarize(collapsed: Path) -> dict:
    """Sample counts per function, own (innermost frame) and inclusive (anywhere on the stack), busy threads only."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in collapsed.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not count_text.isdigit():
            continue
        frames = [frame for frame in stack.split(";") if not frame.startswith(("thread ", "process "))]
        if not frames or _idle(frames[-1]):
            continue
        count = int(count_text)
        total += count
        own[_short(frames[-1])] += count
        for frame in {_short(frame) for frame in frames}:
            inclusive[frame] += count
    return {"samples": total, "own": own.most_common(15), "inclusive": inclusive.most_common(80)}


def _idle(frame: str) -> bool:
    return any(marker in frame for marker in ("wait (threading", "select (selectors", "_wait_for_tstate_lock", "readline", "read (", "poll ("))


def _short(frame: str) -> str:
    for marker in ("ascend_migrate/", "site-packages/", "lib/python3.11/"):
        index = frame.find(marker)
        if index >= 0:
            return frame[:frame.find("(") + 1] + frame[index:]
    return frame


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
