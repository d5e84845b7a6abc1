"""Enum-typed parameters of the dataset transforms: where torchvision or torchaudio takes a string, a function or its
own enum and mindspore.dataset.vision/audio an enum of MindSpore's (Inter, Border, FadeShape, WindowType, ...).

    PYTHONPATH=server /work/kbvenv/bin/python -m tools.transform_enums --torch-sources DIR [--json]

DIR holds torchvision/transforms/transforms.py and torchaudio/transforms/_transforms.py, unpacked from their wheels
(`pip download --no-deps torchvision==0.28.0 torchaudio==2.11.1 -d DIR`, then `unzip` each wheel in DIR; read with
`ast`, nothing imported: neither is installed beside mindspore). Needs mindspore importable. For every
torchvision.transforms / torchaudio.transforms entry whose target is a mindspore.dataset class, each constructor
parameter of the target whose default is an enum member, or whose docstring gives an enum of mindspore.dataset as its
type (`interpolation (Inter, optional)`), is matched with torch's parameter of the same name or the name a row renames
to it. A lead is such a pair the entry has no `type` row for, or a safe fix on such an entry: passing torch's value
(torchvision's InterpolationMode.BICUBIC, torchaudio's 'linear' or torch.hann_window) after a rename raises TypeError
in MindSpore's validators. A lead is judged and corrected in tools/generate_mappings/corrections.py.
"""

from __future__ import annotations

import argparse
import ast
import enum
import inspect
import json
import re
import sys
from pathlib import Path

from tools.hand_check import population
from tools.signature_scan import _resolve

SOURCES = {"torchvision.transforms": "torchvision/transforms/transforms.py",
           "torchaudio.transforms": "torchaudio/transforms/_transforms.py"}


def torch_parameters(source: str) -> dict[str, dict[str, str]]:
    """class name → {constructor parameter: its default as written ('' when required)}, from a module's source."""
    classes: dict[str, dict[str, str]] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                arguments = item.args
                positional = arguments.posonlyargs + arguments.args
                defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
                pairs = list(zip(positional, defaults, strict=True)) + list(
                    zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True))
                classes[node.name] = {argument.arg: ast.unparse(default) if default is not None else ""
                                      for argument, default in pairs if argument.arg != "self"}
    return classes


def enum_parameters(target: type) -> dict[str, str]:
    """{parameter: the enum class's name} of a MindSpore transform's constructor."""
    try:
        signature = inspect.signature(target.__init__)
    except (TypeError, ValueError):
        return {}
    found = {name: type(parameter.default).__name__ for name, parameter in signature.parameters.items()
             if isinstance(parameter.default, enum.Enum)}
    # the enums the defining module knows (mindspore.dataset.vision.transforms imports Inter, Border, ...)
    namespace = vars(sys.modules[target.__module__])
    enums = {name for name, value in namespace.items() if inspect.isclass(value) and issubclass(value, enum.Enum)}
    for name, kind in re.findall(r"^\s*(\w+) \((\w+)", target.__doc__ or "", re.MULTILINE):
        if name in signature.parameters and kind in enums:
            found.setdefault(name, kind)
    return found


def scan_entry(entry, torch_classes: dict[str, dict[str, str]], target: type) -> list[str]:
    """The enum leads of one entry."""
    torch_signature = torch_classes.get(entry.api.rsplit(".", 1)[-1])
    if torch_signature is None:
        return []
    source_of = {row.target: row.source for row in entry.parameters if row.target and row.source}
    typed = {row.source for row in entry.parameters if row.change == "type" and row.source}
    leads = []
    for name, kind in enum_parameters(target).items():
        source = source_of.get(name, name)
        if source not in torch_signature or source in typed:
            continue
        default = torch_signature[source] or "(required)"
        leads.append(f"{source} (torch default {default}) -> {name}: {'an' if kind[0] in 'AEIOU' else 'a'} {kind}" +
                     ("; the fix is safe" if entry.fix == "safe" else ""))
    return leads


def scan(mappings: Path, torch_sources: Path) -> tuple[list[dict], int]:
    parsed = {prefix: torch_parameters((torch_sources / path).read_text(encoding="utf-8"))
              for prefix, path in SOURCES.items()}
    found, scanned = [], 0
    for entry in population(mappings):
        prefix = entry.api.rsplit(".", 1)[0]
        if prefix not in parsed or not (entry.target or "").startswith("mindspore.dataset."):
            continue
        try:
            target = _resolve(entry.target)
        except Exception:  # kb verify reports names that do not resolve
            continue
        if not inspect.isclass(target):
            continue
        scanned += 1
        found += [{"entry": f"{entry.table}.yaml:{entry.line}", "api": entry.api, "target": entry.target,
                   "category": entry.category, "fix": entry.fix, "what": what}
                  for what in scan_entry(entry, parsed[prefix], target)]
    return found, scanned


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.transform_enums", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--torch-sources", type=Path, required=True)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args(argv)
    missing = [path for path in SOURCES.values() if not (arguments.torch_sources / path).is_file()]
    if missing:
        print(f"error: {arguments.torch_sources} lacks {', '.join(missing)} (unpack the torchvision and torchaudio wheels "
              f"there)", file=sys.stderr)
        return 2
    found, scanned = scan(arguments.mappings, arguments.torch_sources)
    if arguments.json:
        json.dump(found, sys.stdout, indent=1)
        print()
        return 0
    for lead in found:
        print(f"{lead['category']:14} {lead['fix']:6} {lead['api']} -> {lead['target']}: {lead['what']}  ({lead['entry']})")
    print(f"{scanned} transform entries scanned; {len(found)} leads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
