"""workspace/executeCommand arguments: positional (`["json", "/tmp/report.json"]`) or one object
(`[{"format": "json", "path": "/tmp/report.json"}]`); both are documented in docs/language-server.md."""

from __future__ import annotations

from typing import Any

from pygls.exceptions import JsonRpcInvalidParams


def named(arguments: tuple[Any, ...], names: tuple[str, ...], command: str) -> dict[str, Any]:
    """Named arguments from positional ones or from a single object."""
    if len(arguments) == 1 and isinstance(arguments[0], dict):
        values = dict(arguments[0])
    else:
        if len(arguments) > len(names):
            raise JsonRpcInvalidParams(message=f"{command} takes at most {len(names)} arguments ({', '.join(names)}), got {len(arguments)}")
        values = dict(zip(names, arguments, strict=False))  # fewer arguments than names: the rest are left out
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise JsonRpcInvalidParams(message=f"{command}: unknown argument(s) {', '.join(unknown)}; expected {', '.join(names)}")
    return values


def string(values: dict[str, Any], name: str, command: str) -> str:
    value = values.get(name)
    if not isinstance(value, str) or not value:
        raise JsonRpcInvalidParams(message=f"{command}: `{name}` must be a non-empty string, got {value!r}")
    return value
