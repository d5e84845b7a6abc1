"""The golden files: what the real knowledge base finds in each script of examples/, per target.

One line per finding, `line  category  api`, sorted. `python tests/golden/golden.py` rewrites them; review
the diff like any other change to behaviour before committing it.
"""

from __future__ import annotations

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLES = REPOSITORY / "examples"
EXPECTED = Path(__file__).resolve().parent / "expected"
TARGETS = ("npu", "mindspore")


def scripts() -> list[Path]:
    return sorted(EXAMPLES.glob("*.py"))


def expected_path(script: Path, target: str) -> Path:
    return EXPECTED / f"{script.stem}.{target}.txt"


def render(script: Path, target: str) -> str:
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings

    result = analyze_file(script.read_text(encoding="utf-8"), script.name, Settings(target=target))
    rows = sorted({(finding.line, finding.category, finding.api) for finding in result.findings})
    return "".join(f"{line:>4}  {category:<18} {api}\n" for line, category, api in rows)


if __name__ == "__main__":
    EXPECTED.mkdir(exist_ok=True)
    for script in scripts():
        for target in TARGETS:
            expected_path(script, target).write_text(render(script, target), encoding="utf-8")
            print(f"wrote {expected_path(script, target).relative_to(REPOSITORY)}")
