"""Converting columns between the engine's convention (1-based, counting characters) and LSP code units.

LSP counts a position's `character` in the code units of the negotiated encoding: UTF-16 by default, UTF-8
or UTF-32 when the client offers them. A character outside the Basic Multilingual Plane (an emoji) is one
engine column, two UTF-16 units and four UTF-8 bytes.
"""

from __future__ import annotations

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def _units(character: str, encoding: str) -> int:
    code_point = ord(character)
    if encoding == UTF16:
        return 2 if code_point > 0xFFFF else 1
    if encoding == UTF8:
        if code_point < 0x80:
            return 1
        if code_point < 0x800:
            return 2
        return 3 if code_point < 0x10000 else 4
    return 1


def units_before(line: str, index: int, encoding: str) -> int:
    """The number of code units in `line[:index]` (index counts characters, 0-based)."""
    prefix = line[:index]
    if encoding == UTF32 or prefix.isascii():
        return len(prefix)
    if encoding == UTF8:
        return len(prefix.encode("utf-8", errors="surrogatepass"))
    return len(prefix) + sum(1 for character in prefix if ord(character) > 0xFFFF)


def index_at_units(line: str, units: int, encoding: str) -> int:
    """The character index (0-based) at `units` code units into `line`, clamped to the line's length.

    A position inside a multi-unit character (half of a surrogate pair) moves to that character's start.
    """
    if units <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    counted = 0
    for index, character in enumerate(line):
        width = _units(character, encoding)
        if counted + width > units:
            return index
        counted += width
    return len(line)
