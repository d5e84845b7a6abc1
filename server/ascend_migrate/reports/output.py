"""Writing a report file whole or not at all: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def write_text(text: str, output: Path | None, encoding: str = "utf-8") -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomically(output, text.encode(encoding))


def write_atomically(output: Path, data: bytes) -> None:
    if output.exists() and not output.is_file():
        # /dev/null, a FIFO, a terminal: write into it; renaming a temporary file over it would replace it
        with open(output, "wb") as handle:
            handle.write(data)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, output)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
