"""A compiled copy of the knowledge base, so that a process starts in milliseconds instead of re-reading YAML.

The cache file is keyed by a hash of every mappings file's name and bytes and by the package version, so
an edited table is never served stale. It lives in the user's cache directory (XDG_CACHE_HOME, else
~/.cache; ASCEND_MIGRATE_CACHE_DIR overrides it, and an empty value turns the cache off). A cache that
cannot be read or written is ignored: the YAML is the source of truth.

Loading a pickle (or the marshalled code of generated_code_cache) runs what it says, so a cache file is read
only when nobody but this user could have written it: the directory and the file belong to this user and are
writable by no one else, and the file is a regular file, not a link (`open_private`). A cache directory that
others can write (a shared ASCEND_MIGRATE_CACHE_DIR, or /tmp itself) is neither read nor written.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import time
from pathlib import Path

from ascend_migrate import __version__
from ascend_migrate.files import write_atomically
from ascend_migrate.kb.table_files import read_table_bytes

_FORMAT = 2  # 2: the cached tuple holds the name aliases too


def cache_directory() -> Path | None:
    configured = os.environ.get("ASCEND_MIGRATE_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ascend-migrate"


def _private(info: os.stat_result) -> bool:
    """Owned by this user (where the system has users) and writable by nobody else."""
    owned = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    return owned and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_directory(directory: Path) -> bool:
    """True when `directory` exists, is a directory and is private (see `_private`)."""
    try:
        info = os.stat(directory)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _private(info)


def make_private_directory(directory: Path) -> bool:
    """Create `directory` (owner-only) if needed; True when it may be written to."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return private_directory(directory)


def open_private(path: Path):
    """`path` opened for reading in binary, or None unless it is a private regular file in a private directory:
    a file that another user could have written is never loaded, since loading it would run its code."""
    if not private_directory(path.parent):
        return None
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    info = os.fstat(descriptor)
    if not (stat.S_ISREG(info.st_mode) and _private(info)):
        os.close(descriptor)
        return None
    return os.fdopen(descriptor, "rb")


def _schema_signature() -> str:
    """The fields of every value the cache pickles: a schema change (a new field) must never be served an
    old pickle, even within one package version (developers, and CI on a reused machine)."""
    from dataclasses import fields

    from ascend_migrate.kb import aliases, schema, versions

    classes = (schema.Entry, schema.ParameterDifference, schema.CallCondition, versions.VersionRange, aliases.NameAliases)
    return ";".join(f"{cls.__name__}({','.join(field.name for field in fields(cls))})" for cls in classes)


def tables_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256(f"{_FORMAT}:{__version__}:{_schema_signature()}".encode())
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(read_table_bytes(path))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def load(digest: str):
    directory = cache_directory()
    if directory is None:
        return None
    try:
        handle = open_private(directory / f"kb-{digest}.pickle")
        if handle is None:
            return None
        with handle:
            return pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None


def store(digest: str, value) -> None:
    directory = cache_directory()
    if directory is None:
        return
    if not make_private_directory(directory):
        return
    try:
        # Owner-only whatever the umask: open_private() refuses to load a file that others could have written.
        write_atomically(directory / f"kb-{digest}.pickle", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600)
        for stale in directory.glob("kb-*.pickle"):  # older tables' caches: never read again
            if stale.name != f"kb-{digest}.pickle" and _older_than_a_day(stale):
                stale.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home is no reason to fail


def _older_than_a_day(path: Path) -> bool:
    return time.time() - path.stat().st_mtime > 86400
