"""What the numbers were measured on: the machine, the load on it, and the versions of everything timed."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def _first_match(path: str, prefix: str) -> str:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(prefix):
                return line.split(":", 1)[1].strip() if ":" in line else line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return "unknown"


def describe() -> dict[str, str]:
    memory_kib = _first_match("/proc/meminfo", "MemTotal").split()[0]
    return {
        "cpu": _first_match("/proc/cpuinfo", "model name"),
        "cores": f"{len(os.sched_getaffinity(0))} usable ({os.cpu_count()} online)",
        "memory": f"{int(memory_kib) / 2**20:.1f} GiB" if memory_kib.isdigit() else "unknown",
        "system": f"{_first_match('/etc/os-release', 'PRETTY_NAME=')}, Linux {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load average at start": " ".join(f"{value:.2f}" for value in os.getloadavg()),
    }


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def project_version() -> str:
    """The git commit measured, marked `+changes` when the work tree differs from it under server/ or mappings/."""
    def git(*arguments: str) -> str:
        completed = subprocess.run(["git", *arguments], cwd=REPOSITORY, capture_output=True, text=True)
        return completed.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "server", "mappings")
    return commit + (" +uncommitted changes in server/ or mappings/" if dirty else "")


def package_version(python: str, package: str) -> str:
    completed = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
                               capture_output=True, text=True)
    return completed.stdout.strip() or "not installed"


def use_snapshot_of_head(work: Path) -> str:
    """Extract server/ and mappings/ of HEAD under `work` and put it first on PYTHONPATH for every child process.

    The source checkout is shared with people editing it; a snapshot of the commit keeps a half-saved table
    or module from breaking (or flattering) a run. Returns the commit measured.
    """
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPOSITORY, capture_output=True, text=True,
                            check=True).stdout.strip()
    snapshot = work / "snapshot"
    if snapshot.exists():
        shutil.rmtree(snapshot)
    snapshot.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD", "server", "mappings"], cwd=REPOSITORY, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(snapshot)], input=archive.stdout, check=True)
    # The package finds mappings/ beside server/ in a source tree, so the snapshot's tables come with its code.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(snapshot / "server"), os.environ.get("PYTHONPATH")]))
    os.environ.pop("ASCEND_MIGRATE_MAPPINGS", None)
    return f"{commit} (a snapshot of the commit, not the work tree)"


def versions(tools_bin: Path | None, measured: str) -> dict[str, str]:
    found = {
        "ascend-migrate": f"{package_version(sys.executable, 'ascend-migrate')} at {measured}",
        "libcst (ours)": package_version(sys.executable, "libcst"),
        "pygls": package_version(sys.executable, "pygls"),
    }
    if tools_bin is not None:
        python = str(tools_bin / "python")
        found["torchfix"] = package_version(python, "torchfix")
        found["libcst (TorchFix's)"] = package_version(python, "libcst")
        found["ruff"] = package_version(python, "ruff")
    return found
