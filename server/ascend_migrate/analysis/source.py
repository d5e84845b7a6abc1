"""The text of a module as the engine sees it: lines, byte-to-character columns, and suppression comments."""

from __future__ import annotations

import re

# `# ascend-migrate: ignore` or `# ascend-migrate: ignore[NPU101, MS1]` at the end of a line.
SUPPRESSION = re.compile(r"#\s*ascend-migrate:\s*ignore(?:\[([A-Za-z0-9_,\s-]*)\])?\s*$")


class SourceLines:
    """Lines of one module (or one region of it), 1-based, with column conversion for the ast's byte offsets."""

    __slots__ = ("lines", "first_line", "_suppressions")

    def __init__(self, lines: list[str], first_line: int = 1) -> None:
        self.lines = lines
        self.first_line = first_line
        self._suppressions: dict[int, frozenset[str] | None] | None = None

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

    def suppressed_codes(self, line: int) -> frozenset[str] | None:
        """None when the line has no suppression; an empty set when it suppresses every code."""
        if self._suppressions is None:
            self._suppressions = {}
            # Most files have no suppression at all: one search of the whole text spares a loop over its lines.
            lines = self.lines if "ascend-migrate" in "\n".join(self.lines) else ()
            for index, text in enumerate(lines):
                if "ascend-migrate" in text:
                    match = SUPPRESSION.search(text)
                    if match:
                        codes = match.group(1)
                        self._suppressions[index + self.first_line] = (
                            frozenset(code.strip() for code in codes.split(",") if code.strip()) if codes else frozenset()
                        )
        return self._suppressions.get(line)

    def is_suppressed(self, line: int, code: str) -> bool:
        codes = self.suppressed_codes(line)
        if codes is None:
            return False
        return not codes or any(code.startswith(selector) for selector in codes)
