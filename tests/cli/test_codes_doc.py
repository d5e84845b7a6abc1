"""docs/codes.md documents every code of codes.py under its own heading (SARIF rules link to those anchors)."""

import re
from pathlib import Path

from ascend_migrate.analysis.codes import CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "codes.md"


def test_every_code_has_a_section_with_its_name_and_category():
    text = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^## (\w+)$", text, flags=re.M)
    assert headings == list(CODES)
    for info in CODES.values():
        section = text.split(f"## {info.code}\n", 1)[1].split("\n## ", 1)[0]
        assert f"**{info.name}** · category `{info.category}`" in section and info.summary in section


def test_the_readme_lists_every_code():
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    for info in CODES.values():
        assert f"| `{info.code}` | `{info.category}` | {info.name} |" in readme, info.code
