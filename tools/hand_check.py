"""Hand check of the PyTorch → MindSpore entries: draw a seeded random sample, show it, count the verdicts.

    python -m tools.hand_check draw --seed 16001 --output mappings/verification/hand_check_1.yaml
    python -m tools.hand_check draw --seed 16002 --exclude mappings/verification/hand_check_1.yaml --output ...
    python -m tools.hand_check show mappings/verification/hand_check_1.yaml   # each entry with its battery record
    python -m tools.hand_check count mappings/verification/hand_check_1.yaml
    python -m tools.hand_check changed mappings/verification/hand_check_5.yaml --verdict wrong  # since the draw

The population is every entry of pytorch_mindspore*.yaml whose ranges hold the packages a person can check
against (torch 2.13.0, mindspore 2.10.0): an entry for an older MindSpore cannot be run here, so it is left out
rather than judged from its doc. Verdicts: `right`, `minor` (a note imprecise, the answer and the fix right),
`wrong` (the category, target, parameters or fix safety would mislead a user), `fixed` (was wrong; the entry is
corrected and `reason` says what was wrong).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import yaml

from ascend_migrate.kb.loader import load_table
from ascend_migrate.kb.numeric import load_record
from ascend_migrate.kb.schema import Entry
from ascend_migrate.kb.versions import parse_version

TABLES = ("pytorch_mindspore", "pytorch_mindspore_curated", "pytorch_mindspore_keywords")
TORCH, MINDSPORE = "2.13.0", "2.10.0"
VERDICTS = ("right", "minor", "wrong", "fixed")


def population(mappings: Path) -> list[Entry]:
    entries = []
    for table in TABLES:
        loaded, _ = load_table(mappings / f"{table}.yaml")
        entries += [entry for entry in loaded
                    if entry.source_versions.contains(parse_version(TORCH))
                    and entry.target_versions.contains(parse_version(MINDSPORE))]
    return sorted(entries, key=lambda entry: (entry.table, entry.index))


def identity(entry: Entry) -> str:
    """Stable across edits that move lines or correct the answer: table, api, match, receiver/condition (within the
    population, whose ranges all hold the same releases, that names one entry)."""
    return " | ".join([entry.table, entry.api, entry.match, entry.receiver or entry.condition])


def draw(mappings: Path, seed: int, size: int, exclude: list[Path]) -> dict[str, Any]:
    taken = {item["entry"] for path in exclude for item in yaml.safe_load(path.read_text(encoding="utf-8"))["sample"]}
    candidates = [entry for entry in population(mappings) if identity(entry) not in taken]
    chosen = sorted(random.Random(seed).sample(candidates, size), key=lambda entry: (entry.table, entry.index))
    return {
        "seed": seed,
        "drawn_from": f"{len(candidates)} entries of {', '.join(TABLES)} whose ranges hold torch {TORCH} and "
                      f"mindspore {MINDSPORE}" + (f", less the {len(taken)} of {', '.join(map(str, exclude))}"
                                                  if exclude else ""),
        "sample": [{"entry": identity(entry), "target": entry.target or "-", "category": entry.category,
                    "fix": entry.fix, "verdict": "", "reason": ""} for entry in chosen],
    }


def show(mappings: Path, sample_path: Path) -> None:
    by_identity = {identity(entry): entry for entry in population(mappings)}
    record = load_record(mappings)
    for number, item in enumerate(yaml.safe_load(sample_path.read_text(encoding="utf-8"))["sample"], start=1):
        entry = by_identity.get(item["entry"])
        print(f"--- {number}. {item['entry']}  [{item.get('verdict') or '?'}]")
        if entry is None:
            print("    (no such entry any more)")
            continue
        print(f"    {entry.category} fix={entry.fix} {entry.table}.yaml:{entry.line}")
        for parameter in entry.parameters:
            print(f"    param {parameter.source} -> {parameter.target} ({parameter.change}; "
                  f"{parameter.source_default} vs {parameter.target_default}) {parameter.note}")
        print(f"    note: {entry.note[:400]}")
        result = record.get((entry.api, entry.target or ""))
        if result:
            print(f"    battery: {result.get('outcome')} {result.get('scope', '')} {result.get('call', '')} "
                  f"{result.get('detail', '')[:300]}")


def changed(mappings: Path, sample_path: Path, verdicts: tuple[str, ...] = VERDICTS) -> list[tuple[str, str]]:
    """(entry, what differs) for each sampled entry with one of `verdicts` whose target, category or fix in the tables
    at `mappings` is no longer what was drawn: whether a later correction (a sweep's, another branch's) reached it. A
    correction of the note alone does not show here (the draw does not record notes)."""
    by_identity = {identity(entry): entry for entry in population(mappings)}
    found = []
    for item in yaml.safe_load(sample_path.read_text(encoding="utf-8"))["sample"]:
        if item.get("verdict") not in verdicts:
            continue
        entry = by_identity.get(item["entry"])
        if entry is None:
            found.append((item["entry"], "no such entry any more"))
            continue
        now = {"target": entry.target or "-", "category": entry.category, "fix": entry.fix}
        differences = [f"{field} {item[field]} → {value}" for field, value in now.items() if item[field] != value]
        if differences:
            found.append((item["entry"], ", ".join(differences)))
    return found


def count(sample_path: Path) -> dict[str, int]:
    sample = yaml.safe_load(sample_path.read_text(encoding="utf-8"))["sample"]
    counts = {verdict: 0 for verdict in (*VERDICTS, "unchecked")}
    for item in sample:
        counts[item.get("verdict") or "unchecked"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hand_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw")
    drawing.add_argument("--seed", type=int, required=True)
    drawing.add_argument("--size", type=int, default=100)
    drawing.add_argument("--exclude", type=Path, action="append", default=[])
    drawing.add_argument("--output", type=Path, required=True)
    commands.add_parser("show").add_argument("sample", type=Path)
    commands.add_parser("count").add_argument("sample", type=Path)
    changing = commands.add_parser("changed")
    changing.add_argument("sample", type=Path)
    changing.add_argument("--verdict", action="append", choices=VERDICTS, help="only entries judged so (repeatable)")
    arguments = parser.parse_args(argv)
    if arguments.command == "draw":
        document = draw(arguments.mappings, arguments.seed, arguments.size, arguments.exclude)
        text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=120)
        arguments.output.write_text(text, encoding="utf-8")
        print(f"{arguments.size} entries drawn with seed {arguments.seed} from {document['drawn_from']}")
    elif arguments.command == "show":
        show(arguments.mappings, arguments.sample)
    elif arguments.command == "changed":
        verdicts = tuple(arguments.verdict or VERDICTS)
        found = changed(arguments.mappings, arguments.sample, verdicts)
        for name, what in found:
            print(f"{name}: {what}")
        print(f"{len(found)} of the entries judged {'/'.join(verdicts)} changed since the draw")
    else:
        counts = count(arguments.sample)
        print(", ".join(f"{verdict} {number}" for verdict, number in counts.items()))
        return 1 if counts["unchecked"] else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
