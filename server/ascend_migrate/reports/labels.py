"""Words the reports show for the public taxonomy: category titles and meanings, and where each code is documented."""

from __future__ import annotations

from functools import cache

# DESIGN.md's category table, in the words a report reader needs.
CATEGORY_MEANINGS: dict[str, str] = {
    "ms-equivalent": "MindSpore has an API that does the same job (possibly under another name)",
    "ms-differs": "an equivalent exists but parameters, defaults, dtypes or behaviour differ",
    "ms-unsupported": "no MindSpore equivalent is known; the message says what to do instead",
    "ms-structure": "program structure to change: Module to Cell, forward to construct, the training loop, train/eval mode, device placement, checkpoints",
    "npu-rename": "a CUDA API, device string or backend name with a direct NPU counterpart",
    "npu-unsupported": "not supported on NPU, or works differently there and needs a manual change",
    "npu-affinity": "an NPU-affine (fused, faster) replacement exists",
    "npu-dynamic-shape": "the output shape depends on the data, which slows or breaks NPU graph compilation",
    "third-party": "a library that is CUDA-only or needs an Ascend-adapted build",
}

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
