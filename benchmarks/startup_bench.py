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
