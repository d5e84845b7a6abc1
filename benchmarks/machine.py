"""What the numbers were measured on: the machine, the load on it, and the versions of everything timed."""

from __future__ import annotations

import os
import platform
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


def versions(tools_bin: Path | None) -> dict[str, str]:
    found = {
        "ascend-migrate": f"{package_version(sys.executable, 'ascend-migrate')} at {project_version()}",
        "libcst (ours)": package_version(sys.executable, "libcst"),
        "pygls": package_version(sys.executable, "pygls"),
    }
    if tools_bin is not None:
        python = str(tools_bin / "python")
        found["torchfix"] = package_version(python, "torchfix")
        found["libcst (TorchFix's)"] = package_version(python, "libcst")
        found["ruff"] = package_version(python, "ruff")
    return found
