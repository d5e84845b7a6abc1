"""Lines the user suppressed with `# ascend-migrate: ignore` (or `ignore[CODE,...]`): fixes never touch them."""

from __future__ import annotations

import re

from ascend_migrate.fixes.text import NEWLINE

SUPPRESSION = re.compile(r"#\s*ascend-migrate:\s*ignore(\[[^\]]*\])?\s*$")


def suppressed_lines(source: str) -> frozenset[int]:
    """The 1-based numbers of the lines that end in a suppression comment."""
    return frozenset(number for number, line in enumerate(NEWLINE.split(source), start=1) if "ascend-migrate" in line and SUPPRESSION.search(line))
