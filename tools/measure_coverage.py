"""Coverage on code the curated entries were not written from: how many torch references get a checked answer.

    pip download --no-deps --only-binary=:all: torchmetrics==1.9.0 -d /tmp/corpus   # any wheels or folders
    python -m tools.measure_coverage /tmp/corpus/*.whl [--json]

Each file's imports are read (`import torch.nn as nn`, `from torch.nn import functional as F`, inside functions
too) and every use of a name they bind is counted once under its qualified name (the longest attribute chain:
`F.relu(x)` is one reference to torch.nn.functional.relu). Tensor methods are not counted: a static read does not
know the receiver. Each reference is then answered as `kb stats` answers the usage file (kb/coverage.py): has an
entry; run side by side (the numeric record); run or with a review note; run or reviewed by a person (curated or a
review note). Reading only, nothing is imported or run.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ascend_migrate.kb import coverage
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.numeric import load_record

ROOTS = ("torch", "torchvision", "torchaudio")


def python_files(source: Path) -> Iterator[tuple[str, str]]:
    """(name, text) of every .py file in a wheel, a zip, or a folder."""
    if source.is_dir():
        for path in sorted(source.rglob("*.py")):
            yield str(path), path.read_text(encoding="utf-8", errors="replace")
    elif zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            for name in sorted(archive.namelist()):
                if name.endswith(".py"):
                    yield name, archive.read(name).decode("utf-8", errors="replace")
    else:
        raise SystemExit(f"{source}: neither a folder nor a wheel/zip")


def _bindings(tree: ast.AST) -> dict[str, str]:
    """Local name → qualified torch name, from every import in the file."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ROOTS:
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in ROOTS:
                for alias in node.names:
                    if alias.name != "*":
                        bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _chain(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """The nodes inside annotations (`x: torch.Tensor`, `-> torch.Tensor`): the engine reports nothing there."""
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            roots.append(node.returns)
    return {id(inner) for root in roots for inner in ast.walk(root)}


def count_references(text: str, annotations: bool = True) -> Counter[str]:
    """Qualified torch names used in one file, by number of uses (imports themselves are not uses); without
    `annotations`, uses inside annotations are left out."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return Counter()
    bound = _bindings(tree)
    counts: Counter[str] = Counter()
    inner: set[int] = set() if annotations else _annotation_nodes(tree)  # nodes not to count
    for node in ast.walk(tree):
        if id(node) in inner or not isinstance(node, ast.Attribute | ast.Name):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            continue
        chain = _chain(node)
        if not chain or chain[0] not in bound:
            continue
        value = node.value if isinstance(node, ast.Attribute) else None
        while isinstance(value, ast.Attribute):
            inner.add(id(value))
            value = value.value
        if value is not None:
            inner.add(id(value))
        counts[".".join([bound[chain[0]], *chain[1:]])] += 1
    return counts


def measure(sources: list[Path], mappings: Path) -> dict:
    knowledge_base = KnowledgeBase.load(mappings)
    view = knowledge_base.view("mindspore", "2.8", "2.10")
    numeric = load_record(mappings)
    per_package: dict[str, dict] = {}
    total: Counter[str] = Counter()
    outside: Counter[str] = Counter()  # the references outside annotations: those the engine can answer with a finding
    packages: dict[str, set[str]] = {}
    for source in sources:
        counts: Counter[str] = Counter()
        files = 0
        for _, text in python_files(source):
            files += 1
            counts += count_references(text)
            outside += count_references(text, annotations=False)
        total += counts
        for api in counts:
            packages.setdefault(api, set()).add(source.name)
        rows = [coverage.UsageRow(api, number, 1, False) for api, number in counts.most_common()]
        per_package[source.name] = {"files": files, **_figures(coverage.measure(view, rows, numeric))}
    rows = [coverage.UsageRow(api, number, len(packages[api]), False) for api, number in total.most_common()]
    measured = coverage.measure(view, rows, numeric)
    outside_rows = [coverage.UsageRow(api, number, len(packages.get(api, ())), False) for api, number in outside.most_common()]
    return {"packages": per_package, "total": _figures(measured),
            "total_outside_annotations": _figures(coverage.measure(view, outside_rows, numeric)),
            "unanswered": [{"api": row.api, "references": row.references} for row in measured.unanswered[:15]],
            "unchecked": _unchecked(view, rows, numeric)}


def _figures(measured: coverage.Coverage) -> dict:
    figures = measured.to_json()
    keep = ("names", "references", "share", "checked_share", "checked_or_review_noted_share", "checked_or_reviewed_share")
    return {key: figures[key] for key in keep}


def _unchecked(view, rows: list[coverage.UsageRow], numeric: dict) -> list[dict]:
    """The most used answered names whose answer nobody ran or reviewed with a note: what to check next."""
    found = []
    for row in rows:
        entries = coverage.answer(view, row.api)
        ran = any(numeric.get((entry.api, entry.target or ""), {}).get("outcome") in ("agree", "differ", "error")
                  for entry in entries)
        if entries and not ran and not any(entry.review for entry in entries):
            found.append({"api": row.api, "references": row.references, "entry": entries[0].api,
                          "curated": entries[0].curated})
    return found[:15]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.measure_coverage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", type=Path, nargs="+", help="wheels, zips or folders of Python code")
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args(argv)
    report = measure(arguments.sources, arguments.mappings)
    if arguments.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{'code base':<48} {'files':>6} {'refs':>7} {'entry':>7} {'run':>7} {'run/note':>9} {'run/rev':>8}")
    rows = [*report["packages"].items(), ("total", {"files": "", **report["total"]}),
            ("total, outside annotations", {"files": "", **report["total_outside_annotations"]})]
    for name, figures in rows:
        print(f"{name:<48} {figures['files']:>6} {figures['references']:>7} {figures['share'] * 100:>6.1f}% "
              f"{figures['checked_share'] * 100:>6.1f}% {figures['checked_or_review_noted_share'] * 100:>8.1f}% "
              f"{figures['checked_or_reviewed_share'] * 100:>7.1f}%")
    for row in report["unchecked"]:
        print(f"  answered, not run or review-noted: {row['api']} ({row['references']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
