"""Whole-corpus scans: the ast.parse floor, `ascend-migrate scan` at one and two jobs, Ruff and TorchFix."""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from corpus import WORK, Corpus
from timing import Samples, run_timed

BENCHMARKS = Path(__file__).resolve().parent


@dataclass
class ScanMeasurement:
    """One tool over one corpus: its timings, plus what it reported about the files (a sanity check)."""

    name: str
    corpus: str
    samples: Samples
    detail: str = ""


def floor(corpus: Corpus, repeats: int) -> tuple[ScanMeasurement, float]:
    """Read + ast.parse every file in a fresh process; also returns the median seconds inside ast.parse alone."""
    parse_seconds: list[float] = []
    samples = None
    for _ in range(repeats):
        one, output = run_timed([sys.executable, str(BENCHMARKS / "floor.py"), str(corpus.directory)], repeats=1,
                                warmups=0 if samples else 1)
        reported = json.loads(output)
        if reported["files"] != len(corpus.files):
            raise RuntimeError(f"floor.py parsed {reported['files']} files, the corpus has {len(corpus.files)}")
        parse_seconds.append(reported["parse_seconds"])
        samples = samples or Samples()
        samples.wall += one.wall
        samples.cpu += one.cpu
    measurement = ScanMeasurement("ast.parse (floor)", corpus.directory.name, samples,
                                  f"ast.parse alone {statistics.median(parse_seconds):.2f} s")
    return measurement, statistics.median(parse_seconds)


def ascend_migrate_scan(corpus: Corpus, target: str, jobs: int, repeats: int) -> ScanMeasurement:
    """`ascend-migrate scan` writing its JSON report to a file (a real file: the report is part of a scan's work)."""
    output = WORK / f"scan-{corpus.directory.name}-{target}-{jobs}.json"
    command = [sys.executable, "-m", "ascend_migrate", "scan", str(corpus.directory), "--target", target,
               "--jobs", str(jobs), "--format", "json", "--output", str(output), "--no-progress", "--fail-on", "error"]
    samples, _ = run_timed(command, repeats, ok_statuses=(0, 1), cwd=corpus.directory, fresh_output=output)
    report = json.loads(output.read_text())
    if report["files_scanned"] != len(corpus.files):
        raise RuntimeError(f"scan saw {report['files_scanned']} files, the corpus has {len(corpus.files)}")
    errors = len(report["errors"])
    detail = f"{len(report['findings'])} findings, {errors} file errors"
    return ScanMeasurement(f"ascend-migrate scan --target {target} --jobs {jobs}", corpus.directory.name, samples, detail)


def ruff(corpus: Corpus, tools: Path, repeats: int) -> ScanMeasurement:
    """`ruff check --select ALL --no-cache` on one thread (RAYON_NUM_THREADS=1), output to a file."""
    command = [str(tools / "ruff"), "check", "--select", "ALL", "--no-cache", "--isolated", "--no-respect-gitignore",
               "--exit-zero", "--output-format", "concise", str(corpus.directory)]
    output = WORK / f"ruff-{corpus.directory.name}.txt"
    samples, _ = run_timed(command, repeats, environment={"RAYON_NUM_THREADS": "1"}, stdout_path=output)
    diagnostics = sum(1 for line in output.read_text(errors="replace").splitlines() if line.startswith(str(corpus.directory)))
    return ScanMeasurement("ruff check --select ALL (1 thread)", corpus.directory.name, samples, f"{diagnostics} diagnostics")


def ruff_default(corpus: Corpus, tools: Path, repeats: int) -> ScanMeasurement:
    """Ruff's default rules (parser + scope model), for the floor of a Rust analyser."""
    command = [str(tools / "ruff"), "check", "--no-cache", "--isolated", "--no-respect-gitignore", "--exit-zero",
               "--output-format", "concise", str(corpus.directory)]
    samples, _ = run_timed(command, repeats, environment={"RAYON_NUM_THREADS": "1"}, stdout_path=WORK / "ruff-default.txt")
    return ScanMeasurement("ruff check (default rules, 1 thread)", corpus.directory.name, samples)


def torchfix(corpus: Corpus, tools: Path, repeats: int) -> ScanMeasurement:
    """`torchfix -j 1` (libcst + QualifiedNameProvider). It needs no torch; it skips files without 'torch' in them."""
    with_torch = sum(1 for path in corpus.paths() if b"torch" in path.read_bytes())
    command = [str(tools / "torchfix"), "-j", "1", str(corpus.directory)]
    # exit 1 means some file failed to transform; that is TorchFix's verdict, not a benchmark failure
    samples, _ = run_timed(command, repeats, warmups=0, ok_statuses=(0, 1), stdout_path=WORK / "torchfix-output.txt")
    return ScanMeasurement("torchfix -j 1", corpus.directory.name, samples,
                           f"parses the {with_torch} of {len(corpus.files)} files that mention torch")
