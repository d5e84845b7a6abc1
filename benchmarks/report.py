"""Tables of results: printed as aligned text, and written as Markdown into RESULTS.md."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Table:
    title: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *cells: object) -> None:
        self.rows.append(tuple(str(cell) for cell in cells))


def seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.0f} ms" if value >= 0.01 else f"{value * 1000:.1f} ms"


def ratio(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:.0f}×"


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def megabytes(value: int) -> str:
    return f"{value / 2**20:.0f} MB"


def as_text(tables: list[Table]) -> str:
    out: list[str] = []
    for table in tables:
        widths = [len(header) for header in table.headers]
        for row in table.rows:
            widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
        out.append(f"\n{table.title}")
        out.append("  ".join(header.ljust(width) for header, width in zip(table.headers, widths, strict=True)))
        out.append("  ".join("-" * width for width in widths))
        for row in table.rows:
            out.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        out.extend(f"  {note}" for note in table.notes)
    return "\n".join(out) + "\n"


def as_markdown(tables: list[Table]) -> str:
    out: list[str] = []
    for table in tables:
        out.append(f"### {table.title}\n")
        out.append("| " + " | ".join(table.headers) + " |")
        out.append("|" + "|".join("---" for _ in table.headers) + "|")
        for row in table.rows:
            out.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        if table.notes:
            out.append("")
            out.extend(f"- {note}" for note in table.notes)
        out.append("")
    return "\n".join(out)


def write_atomically(path: Path, text: str) -> None:
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
