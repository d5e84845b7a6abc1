"""Start-up costs: a scan of one small file, the knowledge base's load and index, a bare interpreter."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from corpus import WORK
from timing import run_once, run_timed
from training_scripts import HEADER

KB_PROBE = r"""
import json, time
started = time.perf_counter()
from ascend_migrate.kb.index import KnowledgeBase
imported = time.perf_counter()
knowledge_base = KnowledgeBase.load()
loaded = time.perf_counter()
views = [knowledge_base.view(route, "2.8", "2.10") for route in ("npu", "mindspore")]
indexed = time.perf_counter()
print(json.dumps({"import": imported - started, "load": loaded - imported, "index": indexed - loaded,
                  "entries": len(knowledge_base.entries)}))
"""


def small_file() -> Path:
    """A 70-line training-script header: imports, a config, seeding and distributed set-up."""
    path = WORK / "startup" / "small_train.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER.format(variant=0, batch_size=64, hidden=256))
    return path


def scan_one_file(repeats: int) -> tuple[list[float], int]:
    """Wall seconds of `ascend-migrate scan` of one small file (JSON to a file), and its line count."""
    path = small_file()
    output = WORK / "startup" / "small_train.json"
    command = [sys.executable, "-m", "ascend_migrate", "scan", str(path), "--format", "json", "--output", str(output),
               "--no-progress"]
    samples, _ = run_timed(command, repeats, ok_statuses=(0, 1), cwd=path.parent, fresh_output=output)
    return samples.wall, path.read_text().count("\n")


def bare_interpreter(repeats: int) -> list[float]:
    samples, _ = run_timed([sys.executable, "-c", "pass"], repeats)
    return samples.wall


def knowledge_base_load(repeats: int) -> dict[str, float]:
    """Medians over fresh processes of: importing the kb modules, loading all tables, building both route views."""
    runs = []
    run_once([sys.executable, "-c", KB_PROBE])  # warm the .pyc files
    for _ in range(repeats):
        _, _, output = run_once([sys.executable, "-c", KB_PROBE])
        runs.append(json.loads(output))
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def initialize_instructions(command: list[str]) -> int | None:
    """Machine instructions a server runs from its start to the end of an initialize/shutdown/exit session,
    counted by valgrind's callgrind: unlike seconds, the count does not move with the load of a shared
    machine (the same count twice, seen here). None when valgrind is not installed."""
    import shutil
    import subprocess

    from lsp_client import CLIENT_CAPABILITIES

    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": CLIENT_CAPABILITIES}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    session = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                       for body in (json.dumps(message).encode() for message in messages))
    subprocess.run(command, input=session, capture_output=True, timeout=120, check=False)  # caches and .pyc
    output = WORK / "startup" / "callgrind.out"
    completed = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={output}", *command],
                               input=session, capture_output=True, timeout=900, check=False)
    for line in completed.stderr.decode(errors="replace").splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    raise RuntimeError(f"callgrind printed no count for {command}: {completed.stderr[-500:]!r}")
