"""Reading a mappings file: a regular file within the size limit, never a pipe, a device or a link to one.

A mappings override (ASCEND_MIGRATE_MAPPINGS) is a directory the user names, and a `*.yaml` entry in it could
be a FIFO (opening it blocks until a writer comes) or a link to /dev/zero (reading never ends). The file is
opened without blocking, checked on the open descriptor (so it cannot be swapped after the check), and read
to at most one byte past the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ascend_migrate.kb.errors import KnowledgeBaseError

MAX_FILE_BYTES = 32 * 1024 * 1024


def read_table_bytes(path: Path) -> bytes:
    """The bytes of the mappings file `path`, or a KnowledgeBaseError that says why it cannot be a table."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise KnowledgeBaseError(path, None, f"cannot be read: {error.strerror or error}") from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        raise KnowledgeBaseError(path, None, "not a regular file (a pipe, a device or a directory); a table must be a file")
    with os.fdopen(descriptor, "rb") as handle:
        if info.st_size > MAX_FILE_BYTES:
            raise KnowledgeBaseError(path, None, f"file is {info.st_size} bytes; the limit is {MAX_FILE_BYTES}")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        raise KnowledgeBaseError(path, None, f"file is over the limit of {MAX_FILE_BYTES} bytes")
    return data
