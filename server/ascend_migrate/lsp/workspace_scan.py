"""The workspace scan: every workspace folder with its own settings, open files as the editor has them.

The CLI's `scan` takes one set of settings for everything it scans. In an editor each workspace folder is a
project of its own (its pyproject.toml, its folder settings), and a file open in the editor may differ from
what is saved: the scan analyses the editor's text of open files, as their live diagnostics do. Each file is
analysed with its folder's settings (so its findings carry that folder's severities), and the scan keeps the
path on disk of each, so that the diagnostics go out under the file's real URI (a file name that is not UTF-8
included).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ascend_migrate.analysis.findings import FINDING_ORDER, FileError, FileResult, ScanResult
from ascend_migrate.config import Settings
from ascend_migrate.files import display_path, printable_path
from ascend_migrate.lsp import engine
from ascend_migrate.workspace import analyze_path, discover, each_file


@dataclass(frozen=True)
class Folder:
    """A workspace folder and the settings its files are scanned with."""

    root: Path
    settings: Settings


@dataclass
class WorkspaceScan:
    """A scan's result (what reports take), and per scanned file (by its path in the findings) where it is."""

    result: ScanResult
    files: dict[str, Path] = field(default_factory=dict)


def scan_folders(
    folders: list[Folder],
    open_text: Callable[[Path], str | None],
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    settings_for: Callable[[Path], Settings] | None = None,
) -> WorkspaceScan:
    """Analyse the Python files of every folder; `open_text(path)` gives the editor's text of an open file
    (None: read it from disk). Paths in the findings are relative to the first folder when inside it, else
    absolute.

    Which files: each folder's settings decide (excludes, .gitignore); a file inside two folders (one nested
    in the other) belongs to the innermost one, as in the editor. Each file is analysed with
    `settings_for(path)` (what the editor uses for it when it is open: a project nested in a folder has its
    own pyproject.toml), by default with its folder's settings.
    """
    started = time.perf_counter()
    base = folders[0].root
    work: list[tuple[Path, str, Settings]] = []
    skipped: dict[tuple[str, str], FileError] = {}
    seen: set[Path] = set()
    for folder in sorted(folders, key=lambda folder: len(folder.root.parts), reverse=True):
        discovered = discover([folder.root], folder.settings)
        for error in discovered.skipped:
            error = replace(error, path=printable_path(error.path))
            skipped.setdefault((error.path, error.message), error)
        for path in discovered.files:
            resolved = path.resolve()
            if resolved not in seen:
                seen.add(resolved)
                work.append((path, display_path(path, base), folder.settings))
    common = Path(os.path.commonpath([str(folder.root) for folder in folders]))
    scan = WorkspaceScan(ScanResult(root=common, settings=folders[0].settings, errors=list(skipped.values()), base=base))
    result = scan.result
    done = 0

    def analyse(item: tuple[Path, str, Settings]) -> tuple[FileResult, str | None]:
        path, display, folder_settings = item
        settings = settings_for(path) if settings_for is not None else folder_settings
        text = open_text(path)
        if text is None:
            return analyze_path(path, display, settings, keep_source=True)
        return engine.analyze_file(text, display, settings), text

    # In this thread, one file after the other: open documents are read as the editor has them right now.
    for index, (file_result, source) in each_file(analyse, work):
        path, display, _ = work[index]
        done += 1
        result.findings.extend(file_result.findings)
        result.errors.extend(file_result.errors)
        scan.files[display] = path
        if file_result.findings and source is not None:
            # Positions (and reports) need the text the findings were found in; only these files keep it.
            result.sources[display] = source
        if progress is not None:
            progress(done, len(work))
        if cancelled is not None and cancelled():
            break
    result.files_scanned = done
    result.findings.sort(key=FINDING_ORDER)
    result.seconds = time.perf_counter() - started
    return scan
