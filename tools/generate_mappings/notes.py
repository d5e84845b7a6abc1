"""The words and links of an entry, shared by the PyTorch and TensorFlow tables."""

from __future__ import annotations

from tools.generate_mappings.docs import page_url
from tools.generate_mappings.sources import MappingRow

NOTE_LIMIT = 400
# Categories whose rows say nothing more than "there is a diff page" (or nothing at all).
SEE_PAGE = ("different_see_page", "unspecified")


def difference_text(row: MappingRow) -> str:
    """What differs, in the doc's own words: its diff summary, else its note, else a pointer to the page."""
    if row.category == "consistent":
        return "consistent"
    if row.category in SEE_PAGE:
        return "see the diff page" if row.diff_page else "the doc gives no description; see the mapping table"
    if row.diff_summary:
        return row.diff_summary
    if row.doc_note and row.doc_note != "(diff page)":
        return row.doc_note
    return "see the diff page"


def doc_link(row: MappingRow, table_path: str) -> str | None:
    """The row's diff page, else the mapping table page, on the row's docs branch."""
    return page_url(row.diff_page or table_path, row.branch)


def join_notes(parts: list[str]) -> str:
    """Note parts as sentences, cut to NOTE_LIMIT characters."""
    text = " ".join(_sentence(part) for part in parts)
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 1].rstrip() + "…"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "…", "?", "!")) else text + "."
