"""Writes mappings/torch_aliases.yaml: the dotted names under which the real torch package exposes one object.

torch re-exports its classes and functions from the modules that define them: `torch.nn.modules.conv.Conv2d` is
`torch.nn.Conv2d`, `torch.utils.data.dataloader.DataLoader` is `torch.utils.data.DataLoader`, `torch.optim.adam.Adam`
is `torch.optim.Adam`. Real code writes both (`from torch.nn.modules.batchnorm import _BatchNorm`, `from
torch.utils.data.dataloader import default_collate`, `from torch.optim.adamw import AdamW`), and the tables spell
each API once. The knowledge base reads the groups as the TensorFlow inventory's `aliases` (`kb/aliases.py`): a
name without entries of its own is looked up under its group's first name, so both routes' entries are found under
every spelling without copying them (one line per object instead of one entry per spelling and route).

A group is only what an identity check in the installed torch says: two names are in one group when
`a is b`. The names are read from public-looking module paths (no `_private` module) of the packages real code
imports from (`ALIAS_PACKAGES`, walked with their submodules), and a module's name counts only when the object is
the module's own (its `__module__` lies at or below the module, or the module's `__all__` declares it): the `Tensor`
that `torch.nn.modules.conv` imports for its annotations is not a spelling of torch.Tensor anyone writes. A group
is written only when one of its names is known to the knowledge base (an entry's api or an inventory name); its
first name is the inventory's public spelling, else a name with entries, else the shortest.

The identity check runs in an interpreter that has torch (never the project's test venv): this script runs itself
there with `--collect`, reads JSON back, and writes the YAML with the project's interpreter. Example:

    .venv/bin/python -m tools.generate_mappings.torch_aliases \
        --torch-python /tmp/ascend-migrate-kb-verify/venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

# The packages whose submodules real code imports names from (grep of public code: torch.nn.modules.{module, loss,
# batchnorm, utils, padding, distance}, torch.nn.parallel, torch.nn.parameter, torch.utils.data.{dataloader, dataset,
# sampler, distributed}, torch.optim.{adam, adamw, optimizer, lr_scheduler}, torch.autograd.{function, variable,
# functional}, torch.amp / torch.cuda.amp's autocast_mode and grad_scaler, torch.functional).
ALIAS_PACKAGES = (
    "torch",
    "torch.nn",
    "torch.optim",
    "torch.utils.data",
    "torch.utils.checkpoint",
    "torch.autograd",
    "torch.amp",
    "torch.cuda",
    "torch.functional",
    "torch.serialization",
    "torch.random",
    "torch.linalg",
    "torch.fft",
    "torch.special",
)
# Walked with their submodules; the others are read alone (torch's and torch.cuda's submodules are many other APIs).
RECURSIVE_PACKAGES = ("torch.nn", "torch.optim", "torch.utils.data", "torch.autograd", "torch.amp", "torch.cuda.amp")
OUTPUT = Path("mappings/torch_aliases.yaml")
THIS_TABLE = "torch_aliases"


def collect(package_names: tuple[str, ...], recursive: tuple[str, ...]) -> dict:
    """Runs inside the interpreter that has torch: every group of names of one object, and the versions."""
    import importlib
    import inspect
    import pkgutil
    import warnings

    warnings.simplefilter("ignore")
    module_names = list(package_names)
    for package_name in recursive:
        package = importlib.import_module(package_name)
        module_names.append(package_name)
        for found in pkgutil.walk_packages(package.__path__, package_name + ".", onerror=lambda _name: None):
            if not any(part.startswith("_") for part in found.name.split(".")):
                module_names.append(found.name)
    skipped: dict[str, str] = {}
    modules = {}
    for module_name in dict.fromkeys(module_names):
        try:
            modules[module_name] = importlib.import_module(module_name)
        except Exception as error:  # a module that needs what this build lacks is reported, not fatal
            skipped[module_name] = f"{type(error).__name__}: {error}"
    # Read once everything is imported: an import may wrap a name of another module (torch.manual_seed is
    # torch.random.manual_seed until a module of the walk wraps it), and only the state after all imports is checked.
    names_by_object: dict[int, list[str]] = {}
    keep_alive: dict[int, object] = {}  # ids stay unique only while their objects live
    for module_name, module in modules.items():
        declared = set(getattr(module, "__all__", ()) or ())
        for name in dir(module):
            if name.startswith("__"):
                continue
            try:
                value = getattr(module, name)
            except Exception:
                continue
            if not (inspect.isclass(value) or inspect.isroutine(value)):
                continue  # constants and modules: equal values are not one API
            owner = getattr(value, "__module__", None)
            if not isinstance(owner, str) or owner.split(".", 1)[0] != "torch":
                continue  # typing.Optional, builtins: not torch's
            own = owner == module_name or owner.startswith(module_name + ".") or _builtin_of(value, module_name)
            if not own and (name not in declared or module_name.startswith(owner + ".")):
                continue  # imported for the module's own use (conv's Tensor), or from above it (torch.fft.Tensor)
            names_by_object.setdefault(id(value), []).append(f"{module_name}.{name}")
            keep_alive[id(value)] = value
    groups = sorted(sorted(set(names)) for names in names_by_object.values() if len(set(names)) > 1)
    return {"groups": groups, "skipped": skipped, "torch": sys.modules["torch"].__version__,
            "python": sys.version.split()[0]}


def _builtin_of(value, module_name: str) -> bool:
    """An operator written in C that a torch module exports (torch.nn.functional.conv2d is torch.conv2d, whose
    `__module__` says torch or a private torch._C module)."""
    return type(value).__name__ == "builtin_function_or_method" and module_name.split(".", 1)[0] == "torch"


def run_collector(python: str) -> dict:
    completed = subprocess.run(
        [python, str(Path(__file__).resolve()), "--collect"], capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"collecting with {python} failed:\n{completed.stderr.strip()}")
    return json.loads(completed.stdout)


def known_names(mappings: Path) -> tuple[set[str], set[str]]:
    """The apis of the tables' entries and the inventories' names (module.name), this table's own file aside."""
    from ascend_migrate.kb.loader import load_table_parts

    entry_names: set[str] = set()
    inventory_names: set[str] = set()
    for path in sorted(mappings.glob("*.yaml")):
        if path.stem == THIS_TABLE:
            continue
        parts = load_table_parts(path)
        entry_names.update(entry.api for entry in parts.entries)
        inventory_names.update(f"{module}.{name}" for module, names in parts.inventory.items() for name in names)
    return entry_names, inventory_names


def ordered_groups(groups: list[list[str]], entry_names: set[str], inventory_names: set[str]) -> list[list[str]]:
    """The groups the knowledge base can use (a name known to it), each with the spelling the tables use first."""
    kept = []
    for group in groups:
        if not any(name in entry_names or name in inventory_names for name in group):
            continue
        group = sorted(group, key=lambda name: (name not in inventory_names, name not in entry_names,
                                                name.count("."), len(name), name))
        last = group[0].rsplit(".", 1)[-1]
        # a private name for a public one (`torch.nn.functional._threshold` is `threshold`) is torch's own plumbing
        group = [name for name in group if name.rsplit(".", 1)[-1] == last or not name.rsplit(".", 1)[-1].startswith("_")]
        if len(group) > 1:
            kept.append(group)
    return sorted(kept)


def render(result: dict, groups: list[list[str]]) -> str:
    import yaml

    header = {
        "table": THIS_TABLE,
        "description": (
            "The dotted names under which torch exposes one object (torch.nn.modules.conv.Conv2d is torch.nn.Conv2d), "
            "generated by tools/generate_mappings/torch_aliases.py. A name without entries of its own is looked up "
            "under its group's first name, so every spelling finds the entries of both routes."
        ),
        "provenance": (
            f"identity checked in torch {result['torch']} (Python {result['python']}): two names are in one group "
            "when `a is b`; classes and functions of public-looking modules of " + ", ".join(ALIAS_PACKAGES)
            + " (" + ", ".join(RECURSIVE_PACKAGES) + " with their submodules), each name the module's own or "
            "declared in its __all__; only groups with a name the other tables know"
        ),
    }
    text = yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=110)
    alias_lines = ["aliases:"] + [f"- [{', '.join(group)}]" for group in groups]
    return ("# Generated by tools/generate_mappings/torch_aliases.py; do not edit by hand.\n"
            + text + "\n".join(alias_lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--torch-python", default="/tmp/ascend-migrate-kb-verify/venv/bin/python",
                        help="an interpreter with torch installed")
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    arguments = parser.parse_args(argv)
    if arguments.collect:
        print(json.dumps(collect(ALIAS_PACKAGES, RECURSIVE_PACKAGES)))
        return 0
    result = run_collector(arguments.torch_python)
    for module, reason in result["skipped"].items():
        print(f"skipped {module}: {reason}", file=sys.stderr)
    groups = ordered_groups(result["groups"], *known_names(arguments.mappings))
    output = arguments.mappings / f"{THIS_TABLE}.yaml"
    temporary = output.with_suffix(".yaml.tmp")
    temporary.write_text(render(result, groups), encoding="utf-8")
    temporary.replace(output)
    print(f"wrote {output}: {len(groups)} groups of {sum(len(group) for group in groups)} names "
          f"({len(result['groups'])} groups found in torch {result['torch']})")
    return 0


if __name__ == "__main__":
    # Run as a script, this folder comes first on sys.path, and its modules must not shadow the package read.
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
