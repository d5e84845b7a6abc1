"""Where the reports say the project and each finding code are documented."""

from __future__ import annotations

from functools import cache

_FALLBACK_PROJECT_URL = "https://example.invalid/ascend-migrate"


@cache
def project_url() -> str:
    """The project's home page, as pyproject.toml declares it."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        for entry in metadata("ascend-migrate").get_all("Project-URL") or ():
            label, _, url = entry.partition(",")
            if label.strip().lower() == "homepage" and url.strip():
                return url.strip().rstrip("/")
    except PackageNotFoundError:
        pass
    return _FALLBACK_PROJECT_URL


def code_help_uri(code: str) -> str:
    """Where a finding code is explained (the codes table in the docs, one anchor per code)."""
    return f"{project_url()}/docs/codes.md#{code.lower()}"
