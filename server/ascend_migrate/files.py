"""Reading and writing files: decoding Python sources, splitting lines, naming paths, and the one atomic writer.

Part of the ground floor with `taxonomy`: it imports nothing of ours, and every room that touches a file on
disk reads and writes it through here.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

MAX_FILE_BYTES = 32 * 1024 * 1024  # a larger .py file is generated data, not code to port

# Python (and LSP) end a line only at these; str.splitlines would also split at \x0c, \x1c and U+2028 inside
# strings and put every later finding on the wrong line.
LINE_END = re.compile(r"\r\n|\r|\n")


# --- reading -------------------------------------------------------------------------------------------

def read_source(path: Path) -> str:
    """The text of a Python file as Python reads it (PEP 263 coding cookie, BOM), or raises ValueError/OSError."""
    return decode_source(read_source_bytes(path))


def read_source_bytes(path: Path) -> bytes:
    """The bytes of a regular file within the size limit, or raises ValueError/OSError."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise ValueError(f"file is {info.st_size} bytes; files over {MAX_FILE_BYTES // (1024 * 1024)} MiB are skipped")
    return path.read_bytes()


def decode_source(data: bytes) -> str:
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as decode_error:
            raise ValueError(f"invalid UTF-8 and no coding declaration: {decode_error.reason} at byte {decode_error.start}") from None
        raise ValueError(f"cannot decode: {error}") from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise ValueError(f"invalid {encoding} text: {error}") from None
    return text[1:] if text.startswith("\ufeff") else text


def encode_like(text: str, original: bytes) -> bytes:
    """`text` encoded as the Python file whose bytes were `original` is (its coding cookie, its byte-order mark),
    so a fixed file keeps its encoding. Raises UnicodeEncodeError, LookupError or SyntaxError (a bad cookie)."""
    import codecs
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(original).readline)
    data = text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    return codecs.BOM_UTF8 + data if original.startswith(codecs.BOM_UTF8) else data


# --- lines ---------------------------------------------------------------------------------------------

def split_lines(text: str) -> list[str]:
    """The lines of `text` without their endings; text after the last line end is one more line (maybe empty),
    so a position just past the last line end has a line to be on."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def split_lines_keeping_ends(text: str) -> list[str]:
    """`split_lines` with each line's own line end kept (the last line has none), so joining gives `text` back."""
    if "\r" not in text:
        parts = text.split("\n")
        return [part + "\n" for part in parts[:-1]] + [parts[-1]]
    lines = []
    start = 0
    for match in LINE_END.finditer(text):
        lines.append(text[start:match.end()])
        start = match.end()
    lines.append(text[start:])
    return lines


def line_content(line: str) -> str:
    """A line of `split_lines_keeping_ends` without its line end."""
    if line.endswith("\r\n"):
        return line[:-2]
    if line.endswith(("\n", "\r")):
        return line[:-1]
    return line


# --- paths ---------------------------------------------------------------------------------------------

def display_path(path: Path, base: Path) -> str:
    """How findings name `path`: relative to `base` when inside it, else absolute; printable (see below)."""
    absolute = Path(os.path.abspath(path))
    try:
        return printable_path(absolute.relative_to(base).as_posix())
    except ValueError:
        return printable_path(absolute.as_posix())


def printable_path(path: str) -> str:
    """`path` as text every report can write: the bytes of a file name that are not UTF-8 become `\\xNN`."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


# --- writing -------------------------------------------------------------------------------------------

def write_atomically(
    path: Path, data: bytes | Iterable[bytes], mode: int | None = None, still_current: Callable[[], bool] | None = None,
    keep_identity: bool = False,
) -> bool:
    """Write `data` to `path` whole or not at all, or raise OSError and leave `path` as it was.

    The bytes go to a temporary file in the same directory (so the rename cannot cross file systems), are
    flushed to the disk, and the temporary file is renamed over `path`: a reader or a crash sees the old file
    or the new one, never a part. The file gets `mode` when given (caches: owner-only whatever the umask);
    else an existing file keeps its permission bits and a new one gets those any new file gets (0666 less
    the umask). `still_current()` is asked last, just before the rename: when it says no (the file changed
    on disk meanwhile), nothing is written and the result is False. A path that exists but is no regular
    file (/dev/null, a FIFO, a terminal) is written into, since renaming over it would replace it. The
    temporary file never outlives a failure or an interruption.

    `keep_identity` (a user's source file): a read-only file is refused (PermissionError), and the new file
    keeps the old one's owner, group and extended attributes; when the rename cannot keep them (another
    user's file in a directory we may write), the file is written in place instead, which keeps them all.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(path, "wb") as handle:
            _write(handle, data)
        return True
    if keep_identity and info is not None:
        _refuse_read_only(path, info)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = _create_temporary(path, 0o666 if mode is None else mode)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            _write(handle, data)
            handle.flush()
            os.fsync(handle.fileno())  # the data is on the disk before the name points at it
        if mode is not None:
            os.chmod(temporary, mode)
        elif info is not None:
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if keep_identity and info is not None and not _copy_identity(path, info, temporary):
            os.unlink(temporary)
            return _write_in_place(path, data, still_current)
        if still_current is not None and not still_current():
            os.unlink(temporary)
            return False
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return True


def _refuse_read_only(path: Path, info: os.stat_result) -> None:
    # No write bit at all is the user's "do not touch" even for root (who may write anything), as editors treat it.
    if not os.access(path, os.W_OK) or not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(errno.EACCES, "the file is read-only; make it writable to fix it")


def _copy_identity(path: Path, info: os.stat_result, temporary: str) -> bool:
    """Give `temporary` the owner, group and extended attributes of `path`; False when that is not possible."""
    created = os.stat(temporary)
    if (created.st_uid, created.st_gid) != (info.st_uid, info.st_gid):
        try:
            os.chown(temporary, info.st_uid, info.st_gid)
            os.chmod(temporary, stat.S_IMODE(info.st_mode))  # chown clears set-id bits
        except (OSError, AttributeError):
            return False
    if hasattr(os, "listxattr"):
        try:
            for name in os.listxattr(path):
                os.setxattr(temporary, name, os.getxattr(path, name))
        except OSError:
            return False
    return True


def _write_in_place(path: Path, data: bytes | Iterable[bytes], still_current: Callable[[], bool] | None) -> bool:
    """The fallback that keeps every attribute of the file: not atomic, so used only when the rename cannot."""
    if still_current is not None and not still_current():
        return False
    with open(path, "r+b") as handle:
        _write(handle, data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())
    return True


def _create_temporary(path: Path, mode: int) -> tuple[int, str]:
    # Not tempfile.mkstemp: it creates the file 0600, and a new report or source must get the usual mode.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        temporary = str(path.parent / f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(temporary, flags, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file beside {path}")


def _write(handle, data: bytes | Iterable[bytes]) -> None:
    if isinstance(data, bytes):
        handle.write(data)
    else:
        handle.writelines(data)
