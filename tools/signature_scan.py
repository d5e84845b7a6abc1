"""Signature-level checks of every PyTorch → MindSpore entry against the installed packages: the kinds of error
the hand checks found, looked for across all entries instead of in a sample.

    PYTHONPATH=server /work/kbvenv/bin/python -m tools.signature_scan [--json] [--era 2.4]

Needs torch and mindspore importable (run it with a venv that has both). For each entry whose ranges hold the
installed releases, it reports:

- `in-place`: a torch in-place method (`x.add_()`) mapped to an out-of-place target, or the reverse, called
  equivalent (a rename of `x.log_normal_()` to `x.log_normal()` drops the result);
- `class-function`: a class mapped to a function or a function to a class, called equivalent;
- `default`: a parameter both signatures name (after the entry's renames) whose defaults differ, with no row
  saying so;
- `missing`: a torch parameter the target has under no name and no row mentions (the general keywords `out`,
  `device`, `dtype`, ... aside: their own table answers them);
- `namedtuple`: torch documents a namedtuple result (`.values`, `.indices`) and the target's docstring does not,
  called equivalent.

`--era 2.4` scans the ops/nn-era entries instead: those whose MindSpore range holds 2.4 but not the installed 2.10
(outside the hand samples' population), against the installed mindspore's signatures of the same names.

Signatures come from `inspect`, or for builtins from every `name(...)` line of the docstring (MindSpore's tensor
methods document several overloads; a parameter agrees when any overload agrees). A finding is a lead for a
person, not a verdict: each one is judged and corrected in tools/generate_mappings/corrections.py.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
import warnings
from pathlib import Path
from typing import Any

from tools.hand_check import MINDSPORE, TABLES, TORCH, population

from ascend_migrate.kb.loader import load_table
from ascend_migrate.kb.versions import parse_version

# name(a, b=1, *, c=None) -> T, also as `.. method:: Tensor.name(...)` or `.. function:: name(...)`
_SIGNATURE_LINE = re.compile(r"^\s*(?:\.\.\s+(?:method|function)::\s+)?[\w.]+\((.*)\)\s*(?:->.*)?$")
# keywords the general keyword table (pytorch_mindspore_keywords.yaml) answers on every API, and the tensor itself
GENERAL = {"out", "layout", "device", "requires_grad", "pin_memory", "memory_format", "stable", "sparse_grad",
           "size_average", "reduce", "inplace", "input", "self", "generator", "dtype"}
_UNSET = object()


def _resolve(name: str) -> object:
    import importlib

    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:length]))
        except Exception:  # not a module at this length: try a shorter prefix
            continue
        for attribute in parts[length:]:
            value = getattr(value, attribute)
        return value
    raise LookupError(name)


def _split_parameters(text: str) -> list[str]:
    """Top-level comma split (defaults hold tuples and calls)."""
    parts, depth, current = [], 0, ""
    for character in text:
        depth += character in "([{"
        depth -= character in ")]}"
        if character == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    return [part.strip() for part in [*parts, current] if part.strip()]


def overloads(value: object) -> list[dict[str, object]]:
    """Each signature of `value` as {parameter: default or _UNSET} (no self, *args, **kwargs)."""
    function: Any = value.__init__ if inspect.isclass(value) else value
    try:
        signature = inspect.signature(function)
        found = {parameter.name: (_UNSET if parameter.default is parameter.empty else repr(parameter.default))
                 for parameter in signature.parameters.values()
                 if parameter.name != "self" and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)}
        if found or not signature.parameters:
            return [found]
    except (TypeError, ValueError):  # builtins without a text signature: read the docstring
        pass
    result = []
    for line in (getattr(value, "__doc__", None) or "").splitlines():
        match = _SIGNATURE_LINE.match(line)
        if match is None:
            continue
        parameters: dict[str, object] = {}
        for part in _split_parameters(match.group(1)):
            name, _, default = part.partition("=")
            name = name.split(":")[0].strip()
            # a docstring's return line also matches (`-> (Tensor, LongTensor)`): parameters are lower-case words
            if name.isidentifier() and name != "self" and not name[0].isupper():
                parameters[name] = default.strip() if default else _UNSET
        result.append(parameters)
    return result


def _same_default(left: object, right: object) -> bool:
    normal = {"True": "True", "False": "False", "None": "None", "1": "1", "1.0": "1", "0": "0", "0.0": "0"}
    return normal.get(str(left), str(left)).strip("'\"") == normal.get(str(right), str(right)).strip("'\"")


def scan_entry(entry, torch_value: object, mindspore_value: object) -> list[tuple[str, str]]:
    """(kind, what) leads for one entry."""
    leads = []
    equivalent = entry.category == "ms-equivalent"
    method, target_method = entry.api.rsplit(".", 1)[-1], (entry.target or "").rsplit(".", 1)[-1]
    in_place = method.endswith("_") and not method.endswith("__")
    if equivalent and in_place != (target_method.endswith("_") and not target_method.endswith("__")):
        leads.append(("in-place", f"{method} -> {target_method}"))
    if equivalent and inspect.isclass(torch_value) != inspect.isclass(mindspore_value):
        kinds = ["a function", "a class"]
        leads.append(("class-function", f"torch: {kinds[inspect.isclass(torch_value)]}, "
                                        f"mindspore: {kinds[inspect.isclass(mindspore_value)]}"))
    torch_overloads, mindspore_overloads = overloads(torch_value), overloads(mindspore_value)
    renamed = {row.source: row.target for row in entry.parameters if row.source and row.target}
    mentioned = {name for row in entry.parameters for name in (row.source, row.target) if name}
    # a row that records both defaults (or calls the change a default or a complement) has said it
    said_defaults = {row.source for row in entry.parameters
                     if row.change in ("default", "complement") or row.source_default != row.target_default}
    if torch_overloads and mindspore_overloads:
        target_names = {name for overload in mindspore_overloads for name in overload}
        for name in dict.fromkeys(name for overload in torch_overloads for name in overload):
            if name in GENERAL or name in mentioned and name not in renamed:
                continue
            target_name = renamed.get(name, name)
            if target_name not in target_names:
                if name not in mentioned:
                    leads.append(("missing", f"{name} (mindspore takes {', '.join(sorted(target_names)) or 'nothing'})"))
                continue
            if name in said_defaults:
                continue
            torch_defaults = {overload[name] for overload in torch_overloads if name in overload} - {_UNSET}
            target_defaults = {overload[target_name] for overload in mindspore_overloads if target_name in overload}
            if torch_defaults and not any(_same_default(left, right) for left in torch_defaults for right in target_defaults):
                leads.append(("default", f"{name}: torch {sorted(map(str, torch_defaults))}, mindspore "
                                         f"{target_name} {sorted(str(d) if d is not _UNSET else '(required)' for d in target_defaults)}"))
    torch_doc, target_doc = (getattr(value, "__doc__", None) or "" for value in (torch_value, mindspore_value))
    if equivalent and "namedtuple" in torch_doc and "namedtuple" not in target_doc:
        leads.append(("namedtuple", "torch documents a namedtuple result; the target's docstring does not"))
    return leads


def era_population(mappings: Path, era: str) -> list:
    """The entries whose MindSpore range holds `era` (2.4: the ops/nn era) but not the installed 2.10, and whose torch
    range holds the installed torch."""
    wanted, installed = parse_version(era), parse_version(MINDSPORE)
    entries = []
    for table in TABLES:
        loaded, _ = load_table(mappings / f"{table}.yaml")
        entries += [entry for entry in loaded
                    if entry.source_versions.contains(parse_version(TORCH))
                    and entry.target_versions.contains(wanted) and not entry.target_versions.contains(installed)]
    return sorted(entries, key=lambda entry: (entry.table, entry.index))


def scan(mappings: Path, era: str = "") -> list[dict]:
    warnings.simplefilter("ignore")
    found = []
    for entry in era_population(mappings, era) if era else population(mappings):
        if entry.match not in ("name", "method") or not entry.target or not entry.api.startswith("torch."):
            continue
        try:
            torch_value, mindspore_value = _resolve(entry.api), _resolve(entry.target)
        except Exception:  # kb verify reports names that do not resolve; nothing to compare here
            continue
        for kind, what in scan_entry(entry, torch_value, mindspore_value):
            found.append({"entry": f"{entry.table}.yaml:{entry.line}", "api": entry.api, "target": entry.target,
                          "category": entry.category, "fix": entry.fix, "kind": kind, "what": what})
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.signature_scan", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--era", default="", help="scan the entries whose MindSpore range holds this release but not "
                                                  "the installed one (2.4: the ops/nn era)")
    arguments = parser.parse_args(argv)
    found = scan(arguments.mappings, arguments.era)
    if arguments.json:
        json.dump(found, sys.stdout, indent=1)
        print()
    else:
        for lead in found:
            print(f"{lead['kind']:15} {lead['category']:14} {lead['fix']:6} {lead['api']} -> {lead['target']}: "
                  f"{lead['what']}  ({lead['entry']})")
        kinds: dict[str, int] = {}
        for lead in found:
            kinds[lead["kind"]] = kinds.get(lead["kind"], 0) + 1
        print(f"{len(found)} leads: " + ", ".join(f"{kind} {number}" for kind, number in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
