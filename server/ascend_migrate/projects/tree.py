"""The migrated copy's directory: checks on SRC and DST, the incomplete-run marker, and copying the project's files.

The copy never writes into SRC: DST may not be SRC, inside it, or above it, and every write goes to a path
under DST (a temporary file beside the target, then a rename, so a file is whole or absent). The marker file
is written before anything else and removed after everything else: a DST that holds it is an interrupted run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.config import Settings
from ascend_migrate.gitignore import GitignoreTree
from ascend_migrate.workspace import exclusion_matcher, not_source_reason

MARKER = ".ascend-migrate-incomplete"
# The Ascend tool's folder for its analysis files, inside the migrated copy (msfmktransplt's
# TRANSPLANT_OUTPUT_DIR_NAME in ms_fmk_transplt.py, Ascend-mstt@ef8e0386).
ANALYSIS_DIRECTORY = "transplant_result_file"


class DestinationError(Exception):
    """SRC or DST cannot be used; the message says which and why."""


def check_paths(source: Path, destination: Path, force: bool) -> None:
    """Raise DestinationError unless DST can receive a copy of SRC without touching SRC."""
    if not source.is_dir():
        raise DestinationError(f"{source}: not a directory (migrate copies a project directory)")
    real_source, real_destination = source.resolve(), destination.resolve()
    if real_destination == real_source or real_source in real_destination.parents:
        raise DestinationError(f"{destination}: the output is inside the project {source}; choose a directory outside it")
    if real_destination in real_source.parents:
        raise DestinationError(f"{destination}: the output contains the project {source}; choose a directory beside it")
    if destination.is_symlink() or destination.exists() and not destination.is_dir():
        raise DestinationError(f"{destination}: exists and is not a directory")
    if destination.is_dir() and any(destination.iterdir()) and not force:
        raise DestinationError(f"{destination}: not empty (give --force to write into it; files of the same name are replaced)")


def start(destination: Path, description: str) -> Path:
    """Create DST and write the marker first; returns the marker's path."""
    destination.mkdir(parents=True, exist_ok=True)
    marker = destination / MARKER
    marker.write_text(f"ascend-migrate migrate did not finish: the files here may be incomplete.\n{description}\n", encoding="utf-8")
    return marker


@dataclass(frozen=True)
class ProjectFile:
    """One file of the project: its path in SRC, its path relative to SRC (posix form), and whether it is a symlink."""

    source: Path
    relative: str
    is_link: bool = False


@dataclass
class Walk:
    files: list[ProjectFile]
    skipped: list[tuple[str, str]]  # (relative path, why it is not copied)


def walk(source: Path, settings: Settings) -> Walk:
    """The files of the project under `source`, with the exclude globs, .gitignore files and environment
    directories (virtual environments, build output) left out, as `scan` leaves them out."""
    excluded = exclusion_matcher(settings.all_excludes())
    ignores = GitignoreTree()
    result = Walk([], [])
    for directory, relative, names in _directories(source, settings, excluded, ignores, result):
        for name in names:
            path = directory / name
            child = f"{relative}/{name}" if relative else name
            if excluded(os.path.normcase(name)) or excluded(os.path.normcase(child)) or ignores.ignored(child, False):
                continue
            if path.is_symlink():
                result.files.append(ProjectFile(path, child, is_link=True))
            elif path.is_file():
                result.files.append(ProjectFile(path, child))
            else:
                result.skipped.append((child, "not a regular file"))
    return result


def _directories(source: Path, settings: Settings, excluded, ignores: GitignoreTree, result: Walk) -> Iterator[tuple[Path, str, list[str]]]:
    stack = [(source, "")]
    while stack:
        directory, relative = stack.pop()
        try:
            entries = sorted(os.listdir(directory))
        except OSError as error:
            result.skipped.append((relative or ".", f"cannot read directory: {error.strerror or error}"))
            continue
        if relative:
            reason = not_source_reason(str(directory), directory.name, set(entries))
            if reason is not None:
                result.skipped.append((relative, reason))
                continue
        if settings.respect_gitignore and (directory / ".gitignore").is_file():
            try:
                ignores.add(relative, (directory / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines())
            except OSError:
                pass
        files, subdirectories = [], []
        for name in entries:
            path = directory / name
            child = f"{relative}/{name}" if relative else name
            if path.is_dir() and not path.is_symlink():
                if not (excluded(os.path.normcase(name)) or excluded(os.path.normcase(child)) or ignores.ignored(child, True)):
                    subdirectories.append((path, child))
            else:
                files.append(name)
        yield directory, relative, files
        stack.extend(reversed(subdirectories))


def copy_file(item: ProjectFile, target: Path) -> None:
    """Copy one file (a symlink as the same link) to `target`, atomically: a temporary file beside it, then a rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if item.is_link:
        link = target.with_name(f".{target.name}.{os.getpid()}.link")
        os.symlink(os.readlink(item.source), link)
        os.replace(link, target)
        return
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    try:
        shutil.copy2(item.source, temporary)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
