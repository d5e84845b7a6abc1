"""The knowledge base's one error, apart from the YAML loader so that a process served from the compiled cache
never imports yaml."""

from __future__ import annotations

from pathlib import Path


class KnowledgeBaseError(Exception):
    """A mappings file that cannot be used; the message says which file, line and key, and what is wrong."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        location = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{location}: {message}")
