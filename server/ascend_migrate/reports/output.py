"""Writing a report to standard output, or to a file whole or not at all (`files.write_atomically`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from ascend_migrate.files import write_atomically


def write_text(text: str, output: Path | None, encoding: str = "utf-8") -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomically(output, text.encode(encoding))


def write_parts(parts: Iterable[str], output: Path | None, encoding: str = "utf-8") -> None:
    """`write_text` of the text the parts make, without joining them into one string first."""
    if output is None:
        for part in parts:
            sys.stdout.write(part)
        sys.stdout.flush()
        return
    write_atomically(output, (part.encode(encoding) for part in parts))
