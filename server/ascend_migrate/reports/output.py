"""Writing a report file whole or not at all: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path


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


def write_atomically(output: Path, data: bytes | Iterable[bytes]) -> None:
    if output.exists() and not output.is_file():
        # /dev/null, a FIFO, a terminal: write into it; renaming a temporary file over it would replace it
        with open(output, "wb") as handle:
            _write(handle, data)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            _write(handle, data)
        os.replace(temporary, output)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write(handle, data: bytes | Iterable[bytes]) -> None:
    if isinstance(data, bytes):
        handle.write(data)
    else:
        handle.writelines(data)
