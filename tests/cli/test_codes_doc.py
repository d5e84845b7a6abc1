"""README.md and docs/codes.md show the tables of taxonomy.py, row for row (SARIF rules link to the anchors)."""

import re
from pathlib import Path

from ascend_migrate.taxonomy import CATEGORY_INFO, CODES, ROUTE_TITLES, ROUTES

DOC = Path(__file__).resolve().parents[2] / "docs" / "codes.md"
README = DOC.parents[1] / "README.md"


def _table_rows(text: str, header: str) -> list[str]:
    """The rows of the markdown table whose header line is `header` (the separator line left out)."""
    lines = text.split("\n")
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_every_code_has_a_section_with_its_name_and_category():
    text = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^## (\w+)$", text, flags=re.M)
    assert headings == list(CODES)
    for info in CODES.values():
        section = text.split(f"## {info.code}\n", 1)[1].split("\n## ", 1)[0]
        assert f"**{info.name}** · category `{info.category}`" in section and info.summary in section


def test_the_readme_code_table_is_the_taxonomy():
    rows = _table_rows(README.read_text(encoding="utf-8"), "| code | category | name | meaning |")
    assert rows == [f"| `{info.code}` | `{info.category}` | {info.name} | {info.summary} |" for info in CODES.values()]


def test_the_readme_category_table_is_the_taxonomy():
    def route_title(routes: tuple[str, ...]) -> str:
        return "both" if set(routes) == set(ROUTES) else ROUTE_TITLES[routes[0]]

    rows = _table_rows(README.read_text(encoding="utf-8"), "| category | route | meaning |")
    assert rows == [f"| `{info.name}` | {route_title(info.routes)} | {info.meaning} |" for info in CATEGORY_INFO.values()]
