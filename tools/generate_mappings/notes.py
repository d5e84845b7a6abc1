"""The words and links of an entry, shared by the PyTorch and TensorFlow tables."""

from __future__ import annotations

from tools.generate_mappings.docs import page_url
from tools.generate_mappings.sources import MappingRow

NOTE_LIMIT = 400
# Categories whose rows say nothing more than "there is a diff page" (or nothing at all).
SEE_PAGE = ("different_see_page", "unspecified")


def difference_text(row: MappingRow, parameters: list[dict] | tuple = ()) -> str:
    """What differs, in the doc's own words: its diff summary, else its note, else what its parameter rows say
    (`dims: MindSpore does not support int input`: a finding saying only "see the diff page" tells a user nothing
    while the page's table names the difference), else a pointer to the page."""
    if row.category == "consistent":
        return "consistent"
    if row.category not in SEE_PAGE:
        if row.diff_summary:
            return row.diff_summary
        if row.doc_note and row.doc_note != "(diff page)":
            return row.doc_note
    stated = parameter_differences(parameters)
    if stated:
        return stated
    if row.category in SEE_PAGE and not row.diff_page:
        return "the doc gives no description; see the mapping table"
    return "see the diff page"


def parameter_differences(parameters: list[dict] | tuple) -> str:
    """The parameter rows' own words, one clause per row that has them (`dims: ...; mask: ...`)."""
    clauses = [f"{parameter.get('source') or parameter.get('target')}: {parameter['note'].rstrip('.')}"
               for parameter in parameters if parameter.get("note")]
    return "; ".join(clauses)


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
