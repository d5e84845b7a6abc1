"""Timing whole commands: wall and CPU seconds of a child process, repeated, with medians and percentiles."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path


class CommandFailed(RuntimeError):
    """A measured command exited with a status it should not have."""


@dataclass
class Samples:
    """Repeated timings of one command; `wall` and `cpu` in seconds, one entry per run."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(command: list[str], ok_statuses: tuple[int, ...] = (0,), cwd: Path | None = None,
             environment: dict[str, str] | None = None, stdout_path: Path | None = None,
             fresh_output: Path | None = None) -> tuple[float, float, str]:
    """Run `command` once; returns (wall seconds, CPU seconds of it and its waited-for children, stdout).

    A Python traceback on stderr fails the run whatever the exit status (an uncaught exception exits 1, the
    same status as "findings"); `fresh_output` is deleted first and must exist afterwards, so a crashed run
    can never be judged by the report an earlier run left behind.
    """
    if fresh_output is not None:
        fresh_output.unlink(missing_ok=True)
    cpu_before = children_cpu_seconds()
    stdout = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    try:
        started = time.perf_counter()
        completed = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd,
                                   env={**os.environ, **(environment or {})})
        wall = time.perf_counter() - started
    finally:
        if stdout_path:
            stdout.close()
    cpu = children_cpu_seconds() - cpu_before
    stderr = completed.stderr.decode("utf-8", "replace")
    if completed.returncode not in ok_statuses or "Traceback (most recent call last)" in stderr:
        tail = stderr.strip().splitlines()[-5:]
        raise CommandFailed(f"{' '.join(command)} exited {completed.returncode}: {' | '.join(tail)}")
    if fresh_output is not None and not fresh_output.exists():
        raise CommandFailed(f"{' '.join(command)} exited {completed.returncode} without writing {fresh_output}")
    return wall, cpu, (completed.stdout or b"").decode("utf-8", "replace")


def run_timed(command: list[str], repeats: int, warmups: int = 1, **options) -> tuple[Samples, str]:
    """`warmups` untimed runs (file cache, .pyc files), then `repeats` timed ones; returns samples and the last stdout."""
    samples = Samples()
    output = ""
    for _ in range(warmups):
        run_once(command, **options)
    for _ in range(repeats):
        wall, cpu, output = run_once(command, **options)
        samples.wall.append(wall)
        samples.cpu.append(cpu)
    shown = " ".join(part if len(part) < 40 else "…" + part[-30:] for part in command[:8])
    print(f"[benchmarks]   {shown} …: wall {' '.join(f'{value:.2f}' for value in samples.wall)} s", file=sys.stderr, flush=True)
    return samples, output


def percentile(values: list[float], fraction: float) -> float:
    """The `fraction` percentile by linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * fraction
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
