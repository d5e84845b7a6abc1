"""The TCP transport's token: made once per server and written to a file only its owner can read, so that
only a client that can read that file (the same user) can talk to the server over the port."""

from __future__ import annotations

import hmac
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

TOKEN_OPTION = "token"  # where the client puts it: initializationOptions.token of its first message


class TokenFileError(Exception):
    """The token file cannot be written safely; the message says where and why."""


def default_token_file(port: int) -> Path:
    """$XDG_RUNTIME_DIR/ascend-migrate (a per-user directory the system makes), else the user's cache directory."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ascend-migrate" / f"serve-tcp-{port}.token"


def write_token_file(path: Path) -> str:
    """A new token, written to `path` (mode 0600) in a directory only this user can write (made 0700)."""
    token = secrets.token_urlsafe(32)
    directory = path.parent
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(directory)
    except OSError as error:
        raise TokenFileError(f"cannot make the directory of the token file {directory}: {error.strerror or error}") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise TokenFileError(f"{directory} must be a directory owned by this user that others cannot write, for the token file")
    temporary = directory / f".{path.name}.{os.getpid()}.tmp"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(token + "\n")
        os.replace(temporary, path)  # replaces a stale file (or a link) itself, never what a link points to
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise TokenFileError(f"cannot write the token file {path}: {error.strerror or error}") from None
    return token


def remove_token_file(path: Path, token: str) -> None:
    """Remove the token file if it still holds this server's token."""
    try:
        if path.read_text(encoding="ascii").strip() == token:
            path.unlink()
    except (OSError, UnicodeDecodeError):
        pass


def presented_token(body: bytes) -> tuple[Any, str | None]:
    """The id of a client's first message and the token it presents (None when it presents none)."""
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None, None
    if not isinstance(message, dict):
        return None, None
    message_id = message.get("id") if isinstance(message.get("id"), (int, str)) else None
    params = message.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    token = options.get(TOKEN_OPTION) if isinstance(options, dict) and message.get("method") == "initialize" else None
    return message_id, token if isinstance(token, str) else None


def token_matches(presented: str | None, token: str) -> bool:
    return presented is not None and hmac.compare_digest(presented.encode("utf-8"), token.encode("utf-8"))
