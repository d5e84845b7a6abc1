"""file: URIs to paths and back, byte-exact: a file name that is not UTF-8 survives the round trip.

pygls' helpers quote and unquote text as UTF-8, so they fail on (or replace) the bytes of a file name such as
b"caf\\xe9.py". Here a path's bytes (`os.fsencode`) are percent-encoded, and a URI's percent escapes are
decoded back to bytes and then to a path with the file-system encoding (surrogateescape), as Python's own
`os` functions do. For UTF-8 names the result is the same text as pygls' `from_fs_path`.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote_from_bytes, unquote_to_bytes, urlsplit

from pygls import IS_WIN
from pygls.uris import from_fs_path, to_fs_path


def uri_of_path(path: str | os.PathLike[str]) -> str:
    """The file: URI of an absolute path."""
    if IS_WIN:  # drive letters and UNC shares: pygls knows them
        return from_fs_path(os.fspath(path)) or Path(path).as_uri()
    return "file://" + quote_from_bytes(os.fsencode(os.fspath(path)), safe="/")


def path_of_uri(uri: str) -> str | None:
    """The path a file: URI names (None for another scheme). `//host/...` for a URI with a host."""
    if IS_WIN:
        return to_fs_path(uri)
    try:
        parts = urlsplit(uri)
    except (TypeError, ValueError):
        return None
    if parts.scheme.lower() != "file":
        return None
    # The query and fragment are not part of a file name; an unencoded `?` or `#` in a client's URI would be
    # a client bug.
    raw = unquote_to_bytes(parts.path) or b"/"
    if parts.netloc and parts.netloc.lower() != "localhost":
        raw = b"//" + unquote_to_bytes(parts.netloc) + raw
    return os.fsdecode(raw)
