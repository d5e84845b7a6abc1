"""The text of the scanned files, for the reports that show or fingerprint source lines (SARIF, HTML)."""

from __future__ import annotations

from pathlib import Path

from ascend_migrate.analysis.findings import ScanResult
from ascend_migrate.files import read_source, split_lines


def base_directory(result: ScanResult) -> Path:
    """The directory the relative paths of the findings start from.

    The scan records it in `ScanResult.base`. For a result built without it (by hand), the first relative path
    that exists under the working directory or `ScanResult.root` decides.
    """
    if result.base is not None:
        return result.base
    working = Path.cwd()
    for path in dict.fromkeys(finding.path for finding in result.findings):
        if Path(path).is_absolute():
            continue
        if (working / path).is_file():
            return working
        if (result.root / path).is_file():
            return result.root
    return working


class ScannedSources:
    """Each scanned file's lines: from `ScanResult.sources` when the scan kept them, else read again from disk
    (relative paths from `base_directory`). A file that cannot be read any more gives no lines; reports then
    leave out what needs them.
    """

    def __init__(self, result: ScanResult) -> None:
        self._sources = result.sources
        self.base = base_directory(result)
        self._texts: dict[str, str | None] = {}
        self._lines: dict[str, list[str] | None] = {}

    def text(self, path: str) -> str | None:
        if path.lower().endswith(".ipynb"):
            return None  # a notebook's findings are in its cells' lines, not in the lines of its JSON
        if path not in self._texts:
            text = self._sources.get(path)
            if text is None:
                try:
                    text = read_source(self.base / path)
                except (OSError, ValueError):
                    text = None
            self._texts[path] = text
        return self._texts[path]

    def lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            text = self.text(path)
            lines = None if text is None else split_lines(text)
            if lines and lines[-1] == "":
                lines.pop()  # a file's last line end ends its last line; it starts no new one
            self._lines[path] = lines
        return self._lines[path]

    def line(self, path: str, number: int) -> str | None:
        """Line `number` (1-based) of `path` without its line ending, or None when unknown."""
        lines = self.lines(path)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]

    def span(self, path: str, line: int, column: int, end_line: int, end_column: int) -> str | None:
        """The text between two positions (engine convention; lines joined with "\n"), or None when unknown."""
        lines = self.lines(path)
        if not lines or not 1 <= line <= end_line <= len(lines):
            return None
        if line == end_line:
            return lines[line - 1][column - 1:end_column - 1]
        middle = lines[line:end_line - 1]
        return "\n".join([lines[line - 1][column - 1:], *middle, lines[end_line - 1][:end_column - 1]])
