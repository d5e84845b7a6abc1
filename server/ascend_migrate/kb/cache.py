"""A compiled copy of the knowledge base, so that a process starts in milliseconds instead of re-reading YAML.

The cache file is keyed by a hash of every mappings file's name and bytes and by the package version, so
an edited table is never served stale. It lives in the user's cache directory (XDG_CACHE_HOME, else
~/.cache; ASCEND_MIGRATE_CACHE_DIR overrides it, and an empty value turns the cache off). A cache that
cannot be read or written is ignored: the YAML is the source of truth.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import time
from pathlib import Path

from ascend_migrate import __version__

_FORMAT = 1


def cache_directory() -> Path | None:
    configured = os.environ.get("ASCEND_MIGRATE_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ascend-migrate"


def _schema_signature() -> str:
    """The fields of every value the cache pickles: a schema change (a new field) must never be served an
    old pickle, even within one package version (developers, and CI on a reused machine)."""
    from dataclasses import fields

    from ascend_migrate.kb import schema, versions

    classes = (schema.Entry, schema.ParameterDifference, versions.VersionRange)
    return ";".join(f"{cls.__name__}({','.join(field.name for field in fields(cls))})" for cls in classes)


def tables_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256(f"{_FORMAT}:{__version__}:{_schema_signature()}".encode())
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def load(digest: str):
    directory = cache_directory()
    if directory is None:
        return None
    try:
        with open(directory / f"kb-{digest}.pickle", "rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None


def store(digest: str, value) -> None:
    directory = cache_directory()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(prefix=".kb-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, directory / f"kb-{digest}.pickle")
        except BaseException:
            os.unlink(temporary)
            raise
        for stale in directory.glob("kb-*.pickle"):  # older tables' caches: never read again
            if stale.name != f"kb-{digest}.pickle" and _older_than_a_day(stale):
                stale.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home is no reason to fail


def _older_than_a_day(path: Path) -> bool:
    return time.time() - path.stat().st_mtime > 86400
