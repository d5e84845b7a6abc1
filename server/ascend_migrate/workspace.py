"""Scanning many files: finding the Python files under some paths, and analysing them in one or more processes.

The CLI's `scan` and `fix` and the language server's workspace scan all start here. Discovery honours
.gitignore files and the `exclude` globs, never follows a symlink out of the scanned tree (nor any symlink
unless `follow_symlinks` is set), survives loops, and reports every file it skips and why.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from ascend_migrate.analysis.findings import FINDING_ORDER, FileError, FileResult, ScanResult
from ascend_migrate.config import Settings
from ascend_migrate.files import display_path, printable_path, read_source
from ascend_migrate.gitignore import GitignoreTree
from ascend_migrate.notebooks.document import SUFFIX as NOTEBOOK_SUFFIX
from ascend_migrate.notebooks.document import is_notebook

Item = TypeVar("Item", bound=tuple)  # a file's work: its path first
Outcome = TypeVar("Outcome")

@dataclass(frozen=True)
class Discovered:
    files: list[Path]
    skipped: list[FileError]
    # directories not walked because of what they hold (not errors: said in the summary)
    skipped_directories: list[FileError] = field(default_factory=list)
    # files of a kind that may hold code to port but that the scan does not read (counted in the summary)
    not_analysed: list[FileError] = field(default_factory=list)


# The suffixes the scan reads (notebooks through the notebooks room). A file named on the command line with any
# other suffix is an error, never "clean".
SOURCE_SUFFIXES = (".py", ".pyi", NOTEBOOK_SUFFIX)
# Kinds of file that hold code a migration must look at but the scan does not read: met in a directory they
# are counted in the summary (`Discovered.not_analysed`), so a project is never reported clean for them.
NOT_ANALYSED_KINDS = {
    ".pyx": "Cython source",
    ".cu": "CUDA source",
    ".cuh": "CUDA header",
}


def unknown_kind_reason(path: Path) -> str | None:
    """Why a file named explicitly cannot be analysed (its kind is not Python source), or None."""
    suffix = path.suffix.lower()
    if suffix in SOURCE_SUFFIXES or not suffix and _python_shebang(path):
        return None
    kind = NOT_ANALYSED_KINDS.get(suffix)
    if kind is not None:
        return f"not analysed: ascend-migrate does not read {kind} files ({suffix})"
    return f"not analysed: not a Python source file ({suffix or 'no suffix'}; only {', '.join(SOURCE_SUFFIXES)} are read)"


def discover(paths: list[Path], settings: Settings) -> Discovered:
    """Every Python file under `paths` (files given explicitly are always taken), and what was skipped."""
    files: list[Path] = []
    skipped: list[FileError] = []
    not_source: list[FileError] = []
    not_analysed: list[FileError] = []
    seen: set[Path] = set()
    for path in paths:
        if not os.path.lexists(path):
            skipped.append(FileError(str(path), "no such file or directory"))
            continue
        if path.is_file():
            reason = unknown_kind_reason(path)
            if reason is not None:  # named explicitly: an error entry, never "0 findings"
                skipped.append(FileError(str(path), reason))
                continue
            resolved = path.resolve()
            if resolved not in seen:
                seen.add(resolved)
                files.append(path)
            continue
        if not path.is_dir():  # a FIFO, a socket, a device, a broken or looping symlink
            skipped.append(FileError(str(path), "not a regular file or directory"))
            continue
        for found in _walk(path, settings, skipped, seen, not_source, not_analysed):
            files.append(found)
    return Discovered(files, skipped, not_source, not_analysed)


def _python_shebang(path: Path) -> bool:
    """A script without a suffix that starts with a Python shebang (`#!/usr/bin/env python3`)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256)
    except OSError:
        return True  # unreadable: analysing it reports why
    return first.startswith(b"#!") and b"python" in first


def _walk(root: Path, settings: Settings, skipped: list[FileError], seen: set[Path],
          not_source: list[FileError], not_analysed: list[FileError]) -> Iterator[Path]:
    # Paths stay strings until a file is yielded: a big tree has ten entries for every Python file, and Path
    # objects, fnmatch per pattern and a realpath() per file made discovery a tenth of a scan's own time.
    excluded = exclusion_matcher(settings.all_excludes())
    visited_directories: set[tuple[int, int]] = set()
    ignore_specs = _GitignoreStack(settings.respect_gitignore, skipped)
    root_real = str(root.resolve())
    # (the directory, its path relative to the root in posix form, its real path with symlinks resolved)
    stack: list[tuple[Path, str, str]] = [(root, "", root_real)]
    while stack:
        directory, directory_relative, directory_real = stack.pop()
        try:
            directory_stat = directory.stat()
        except OSError as error:
            skipped.append(FileError(str(directory), f"cannot read directory: {error.strerror or error}"))
            continue
        identity = (directory_stat.st_dev, directory_stat.st_ino)
        if identity in visited_directories:
            skipped.append(FileError(str(directory), "symlink loop: this directory was already scanned"))
            continue
        visited_directories.add(identity)
        ignore_specs.enter(directory, directory_relative)
        try:
            children = sorted(os.scandir(directory), key=lambda child: child.name)
        except OSError as error:
            skipped.append(FileError(str(directory), f"cannot read directory: {error.strerror or error}"))
            continue
        if directory_relative:  # not the root: a path given explicitly is scanned whatever it is
            reason = not_source_reason(str(directory), directory.name, {child.name for child in children})
            if reason is not None:
                not_source.append(FileError(str(directory), reason))
                continue
        subdirectories = []
        for child in children:
            name = child.name
            relative = f"{directory_relative}/{name}" if directory_relative else name
            if excluded(os.path.normcase(name)) or excluded(os.path.normcase(relative)):
                continue
            try:
                is_link = child.is_symlink()
                is_directory = child.is_dir(follow_symlinks=True)
                is_file = child.is_file(follow_symlinks=True)
            except OSError as error:
                skipped.append(FileError(str(Path(child.path)), f"cannot stat: {error.strerror or error}"))
                continue
            if ignore_specs.ignored(relative, is_directory):
                continue
            child_real = os.path.join(directory_real, name)
            if is_link:
                child_path = Path(child.path)
                if not settings.follow_symlinks:
                    if is_file and name.endswith((".py", ".pyi", NOTEBOOK_SUFFIX)) or is_directory:
                        skipped.append(FileError(str(child_path), "symlink not followed (set follow-symlinks to scan it)"))
                    elif not is_file and name.endswith(".py"):
                        skipped.append(FileError(str(child_path), "broken symlink"))
                    continue
                try:
                    target = child_path.resolve()
                except (OSError, RuntimeError):
                    skipped.append(FileError(str(child_path), "broken or looping symlink"))
                    continue
                child_real = str(target)
                if not _is_inside(child_real, root_real):
                    skipped.append(FileError(str(child_path), f"symlink points outside the scanned tree ({target})"))
                    continue
            if is_directory:
                subdirectories.append((Path(child.path), relative, child_real))
            elif is_file and name.endswith((".py", NOTEBOOK_SUFFIX)):
                resolved = Path(child_real)
                if resolved in seen:
                    continue
                seen.add(resolved)
                yield Path(child.path)
            elif not is_file and not is_directory and name.endswith((".py", NOTEBOOK_SUFFIX)):
                skipped.append(FileError(str(Path(child.path)), "broken symlink or not a regular file"))
            elif is_file and os.path.splitext(name)[1].lower() in NOT_ANALYSED_KINDS:
                not_analysed.append(FileError(str(Path(child.path)), NOT_ANALYSED_KINDS[os.path.splitext(name)[1].lower()]))
        stack.extend(reversed(subdirectories))


def not_source_reason(directory: str, name: str, names: set[str]) -> str | None:
    """Why `directory` (whose entries are `names`) holds no code of the project: a virtual environment, a conda
    environment, setuptools' build output; or None. Only what it holds counts: `env/` or `build/` may be a
    real package. Decided from the listing the walk makes anyway, so it costs no system call in a source tree."""
    if "pyvenv.cfg" in names:
        return "a virtual environment (it has pyvenv.cfg)"
    if "conda-meta" in names:
        return "a conda environment (it has conda-meta)"
    if "Lib" in names and os.path.isdir(os.path.join(directory, "Lib", "site-packages")) or "lib" in names and any(
            entry.startswith("python") and os.path.isdir(os.path.join(directory, "lib", entry, "site-packages"))
            for entry in _names(os.path.join(directory, "lib"))):
        return "a Python environment (it has lib/python*/site-packages)"
    if name == ".ipynb_checkpoints":
        return "Jupyter's checkpoint copies of the notebooks beside it"
    if name == "build" and ("lib" in names or any(entry.startswith(("bdist.", "lib.")) for entry in names)):
        return "build output of setuptools (build/lib holds copies of the sources)"
    return None


def _names(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def exclusion_matcher(patterns: tuple[str, ...] | list[str]) -> Callable[[str], bool]:
    """One compiled regular expression for all the `exclude` globs (fnmatch's meaning, matched as a whole)."""
    if not patterns:
        return lambda text: False
    expression = re.compile("|".join(fnmatch.translate(os.path.normcase(pattern)) for pattern in patterns))
    return lambda text: expression.match(text) is not None


def _is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


# A .gitignore larger than this is not a hand-written one; it is read no further (and said so).
MAX_GITIGNORE_BYTES = 1024 * 1024


class _GitignoreStack:
    """The .gitignore files that apply to the directories being walked (each applies below its directory)."""

    def __init__(self, enabled: bool, skipped: list[FileError]) -> None:
        self.enabled = enabled
        self.skipped = skipped
        self.tree = GitignoreTree()

    def enter(self, directory: Path, relative: str) -> None:
        if not self.enabled:
            return
        gitignore = directory / ".gitignore"
        try:  # is_file() raises too when the directory cannot be searched (the walk then reports it)
            if not gitignore.is_file():
                return
            with open(gitignore, "rb") as handle:
                data = handle.read(MAX_GITIGNORE_BYTES + 1)
        except OSError:
            return
        if len(data) > MAX_GITIGNORE_BYTES:
            self.skipped.append(FileError(str(gitignore), f"over {MAX_GITIGNORE_BYTES // 1024} KiB: only its first "
                                          f"{MAX_GITIGNORE_BYTES // 1024} KiB are honoured"))
            data = data[:MAX_GITIGNORE_BYTES].rsplit(b"\n", 1)[0]
        self.tree.add(relative, data.decode("utf-8", errors="replace").splitlines())

    def ignored(self, relative: str, is_directory: bool) -> bool:
        """`relative`: the path from the walk's root, posix form."""
        return self.tree.ignored(relative, is_directory)


def analyze_path(path: Path, display_path: str, settings: Settings, keep_source: bool = False) -> tuple[FileResult, str | None]:
    from ascend_migrate.analysis.engine import analyze_file

    if is_notebook(display_path):  # its findings are in cells: the reports read no lines of it (no source kept)
        from ascend_migrate.notebooks.per_file import analyze_notebook

        return analyze_notebook(path, display_path, settings), None

    try:
        source = read_source(path)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return FileResult(display_path, errors=[FileError(display_path, f"cannot read: {message}")]), None
    result = analyze_file(source, display_path, settings)
    return result, source if keep_source else None


def _analyze_item(item: tuple[str, str], settings: Settings, keep_source: bool) -> tuple[FileResult, str | None]:
    path, display = item
    return analyze_path(Path(path), display, settings, keep_source)


def scan(
    paths: list[Path],
    settings: Settings,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    keep_sources: bool = False,
    cancelled: Callable[[], bool] | None = None,
    relative_to: Path | None = None,
) -> ScanResult:
    """Analyse every Python file under `paths`. `progress(done, total)` is called as files finish.

    Paths in the findings are relative to `relative_to` (default: the working directory) when the file is
    inside it, else absolute.
    """
    started = time.perf_counter()
    root = _common_root(paths)
    base = (relative_to or Path.cwd()).resolve()
    discovered = discover(paths, settings)
    skipped = [replace(error, path=printable_path(error.path)) for error in discovered.skipped]
    result = ScanResult(root=root, settings=settings, errors=skipped, base=base,
                        skipped_directories=[replace(error, path=display_path(Path(error.path), base))
                                             for error in discovered.skipped_directories],
                        not_analysed=[replace(error, path=display_path(Path(error.path), base))
                                      for error in discovered.not_analysed])
    work = [(str(path), display_path(path, base)) for path in discovered.files]
    total = len(work)
    done = 0
    finished: list[tuple[FileResult, str | None] | None] = [None] * total
    task = functools.partial(_analyze_item, settings=settings, keep_source=keep_sources)
    for index, (file_result, source) in each_file(task, work, jobs, prepare=load_engine):
        done += 1
        finished[index] = (file_result, source)
        if progress is not None:
            progress(done, total)
        if cancelled is not None and cancelled():
            break
    for outcome in finished:  # in the order of discovery, whatever order the workers finished in
        if outcome is None:
            continue
        file_result, source = outcome
        result.findings.extend(file_result.findings)
        result.errors.extend(file_result.errors)
        if file_result.framework == "tensorflow":
            result.tensorflow_files.append(file_result.path)
        if source is not None:
            result.sources[file_result.path] = source
    result.files_scanned = done
    result.findings.sort(key=FINDING_ORDER)
    result.seconds = time.perf_counter() - started
    return result


def processes(jobs: int) -> int:
    """The number of processes `--jobs N` asks for: N, or with 0 one per core this process may run on."""
    if jobs > 0:
        return jobs
    if hasattr(os, "sched_getaffinity"):  # Linux: the cores this process may use, not all the machine has
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1  # macOS, Windows


def each_file(
    task: Callable[[Item], Outcome], items: Sequence[Item], jobs: int = 1, prepare: Callable[[], None] | None = None
) -> Iterator[tuple[int, Outcome]]:
    """(index in `items`, task(item)) for every item, in the order they finish: the one loop over files of
    `scan`, `fix` and the editor's workspace scan.

    Each item starts with its file's path. With `jobs` > 1 and enough items, the items go to that many
    processes (then `task` must pickle: a module-level function or a partial of one). `prepare` runs once
    here before the first item, and once in each worker. Stopping the iteration early drops the items not
    started yet.
    """
    if jobs <= 1 or len(items) < 2 * jobs:
        if prepare is not None and len(items) > 1:
            prepare()
        for index, item in enumerate(items):
            yield index, task(item)
        return
    # Longest first, in small batches: the workers finish together instead of one waiting on the other's last
    # big batch (a project's largest files are ten times its median). Batches still amortise the cost of
    # sending settings and results between processes.
    order = sorted(range(len(items)), key=lambda index: -_size(items[index][0]))
    batch_size = max(1, min(16, len(items) // (jobs * 16) or 1))
    batches = [[(index, items[index]) for index in order[start:start + batch_size]] for start in range(0, len(order), batch_size)]
    # Load the knowledge base and the engine here, once: forked workers inherit them instead of each
    # importing and loading them again.
    if prepare is not None:
        prepare()
    import multiprocessing  # here, not at the top: a one-process run never needs a pool
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=prepare) as pool:
        pending = [pool.submit(_run_batch, task, batch) for batch in batches]
        try:
            for future in as_completed(pending):
                yield from future.result()
        finally:  # the caller stopped early (cancelled): do not start the batches still queued
            for future in pending:
                future.cancel()


def _run_batch(task: Callable[[Item], Outcome], batch: list[tuple[int, Item]]) -> list[tuple[int, Outcome]]:
    return [(index, task(item)) for index, item in batch]


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # analyze_path reports it


def load_engine() -> None:
    """Import the engine and load the knowledge base before the first file (in a worker: before its first batch)."""
    import gc

    import ascend_migrate.analysis.engine  # noqa: F401  (imported before the first file, not during it)
    from ascend_migrate.kb.index import KnowledgeBase

    KnowledgeBase.load()
    # A scan allocates millions of short-lived ast nodes and no cycles worth collecting: move the long-lived
    # knowledge base out of the collector's sight and collect young objects far less often (the benchmark
    # measured 13-30 % less CPU; docs/performance.md).
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


def _common_root(paths: list[Path]) -> Path:
    resolved = [path.resolve() if path.is_dir() else path.resolve().parent for path in paths] or [Path.cwd()]
    return Path(os.path.commonpath([str(path) for path in resolved]))
