"""The text of a module as the engine sees it: lines, byte-to-character columns, and suppression comments."""

from __future__ import annotations

from ascend_migrate.analysis.suppression import Suppression, suppressions


class SourceLines:
    """Lines of one module (or one region of it), 1-based, with column conversion for the ast's byte offsets."""

    __slots__ = ("lines", "first_line", "_suppressions")

    def __init__(self, lines: list[str], first_line: int = 1) -> None:
        self.lines = lines
        self.first_line = first_line
        self._suppressions: dict[int, Suppression] | None = None

    def text(self, line: int) -> str:
        index = line - self.first_line
        if 0 <= index < len(self.lines):
            return self.lines[index]
        return ""

    def character_column(self, line: int, byte_offset: int) -> int:
        """The 1-based character column of a 0-based UTF-8 byte offset on `line`."""
        text = self.text(line)
        if text.isascii():
            return byte_offset + 1
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="replace")) + 1

    def is_suppressed(self, line: int, code: str) -> bool:
        """Whether a suppression comment on `line` covers `code` (`analysis.suppression`)."""
        if self._suppressions is None:
            self._suppressions = suppressions(self.lines, self.first_line)
        suppression = self._suppressions.get(line)
        return suppression is not None and suppression.covers(code)
