"""Doc links: a docs repository path on a branch → the page on www.mindspore.cn that Sphinx builds from it.

The site builds docs/mindspore/source_en/<path>.md of branch B into https://www.mindspore.cn/docs/en/B/<path>.html
(the docs' own cross-links use this form, e.g. .../docs/en/r2.4.10/note/api_mapping/pytorch_api_mapping.html).
A path outside source_en gets no link rather than a guessed one.
"""

from __future__ import annotations

SOURCE_PREFIX = "docs/mindspore/source_en/"
SITE = "https://www.mindspore.cn/docs/en"


def page_url(repository_path: str, branch: str) -> str | None:
    if not repository_path.startswith(SOURCE_PREFIX) or not repository_path.endswith(".md"):
        return None
    relative = repository_path[len(SOURCE_PREFIX):-len(".md")]
    return f"{SITE}/{branch}/{relative}.html"
