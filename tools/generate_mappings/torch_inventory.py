"""Writes mappings/torch_inventory.yaml: the public names of the real torch (and torchvision) packages.

An API in this inventory that has no mapping is reported `ms-unsupported`, so the list holds only public
callables, classes and constants (no `_private` names, no submodules, no re-exports of other packages).

The names are read from installed packages, which live in venvs of their own (the project venv has no
torch): this script runs itself under each given interpreter with `--collect`, reads JSON back, and writes
the YAML with the project's interpreter. Example:

    .venv/bin/python -m tools.generate_mappings.torch_inventory \
        --torch-python .work/torch-venv/bin/python \
        --torchvision-python .work/torchvision-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

TORCH_MODULES = (
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.distributed",
    "torch.utils.data",
    "torch.utils.checkpoint",
    "torch.amp",
    "torch.autograd",
    "torch.linalg",
    "torch.fft",
    "torch.special",
)
TORCHVISION_MODULES = (
    "torchvision",
    "torchvision.models",
    "torchvision.ops",
    "torchvision.transforms",
    "torchvision.transforms.functional",
    "torchvision.datasets",
    "torchvision.io",
    "torchvision.utils",
)
# Types whose instances are public constants of torch (torch.float32, torch.strided, torch.channels_last...).
TORCH_CONSTANT_TYPES = ("dtype", "layout", "memory_format", "qscheme")
TENSOR_METHODS_KEY = "torch.Tensor"
# Dispatch helpers that torch modules import for their own use; public-looking, but not API to migrate.
HELPER_NAMES = frozenset({
    "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic", "handle_torch_function",
    "boolean_dispatch", "assert_int_or_pair", "TYPE_CHECKING", "annotations",
})


def collect(module_names: list[str]) -> dict:
    """Runs inside the interpreter that has the package: module → sorted public names, plus versions."""
    import importlib
    import inspect
    import warnings

    warnings.simplefilter("ignore")
    inventory: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}
    for module_name in module_names:
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # a module missing from this build is reported, not fatal
            skipped[module_name] = f"{type(error).__name__}: {error}"
            continue
        inventory[module_name] = sorted(_public_names(module, module_name, inspect))
    if "torch" in module_names and "torch" in sys.modules:
        torch = sys.modules["torch"]
        inventory[TENSOR_METHODS_KEY] = sorted(name for name in dir(torch.Tensor) if not name.startswith("_"))
    versions = {}
    for package in ("torch", "torchvision"):
        if package in sys.modules:
            versions[package] = sys.modules[package].__version__
    return {"inventory": inventory, "skipped": skipped, "versions": versions, "python": sys.version.split()[0]}


def _public_names(module, module_name: str, inspect) -> set[str]:
    declared = getattr(module, "__all__", None)
    names: set[str] = set()
    for name in dir(module):
        if name.startswith("_"):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # lazy attributes that fail to load are not usable API
            continue
        if inspect.ismodule(value) or name in HELPER_NAMES:
            continue
        if declared is not None and name in declared:
            names.add(name)
        elif _defined_here(value, module_name):
            names.add(name)
    return names


def _defined_here(value, module_name: str) -> bool:
    """Whether an undeclared name belongs to this module rather than being an import of something else."""
    type_name = type(value).__name__
    if type_name in TORCH_CONSTANT_TYPES:
        return module_name == "torch"
    owner = getattr(value, "__module__", None)
    if not isinstance(owner, str):
        return False  # plain constants (bool, str, int) that __all__ does not declare are internals
    package = module_name.split(".")[0]
    if type_name == "builtin_function_or_method":
        # Operators written in C report the top package or a private extension module as their owner
        # (torch.nn.functional.conv2d is torch.conv2d; gelu says torch._C._nn).
        return owner == package or owner.startswith(f"{package}._C")
    if any(part.startswith("_") for part in owner.split(".")):
        return False  # defined in a private module: an internal helper or a removed-API stub
    return owner == module_name or owner.startswith(module_name + ".")


def run_collector(python: str, module_names: tuple[str, ...]) -> dict:
    completed = subprocess.run(
        [python, str(Path(__file__).resolve()), "--collect", *module_names],
        capture_output=True, text=True, check=False,
    )
    if completed.returncode != 0:
        raise SystemExit(f"collecting with {python} failed:\n{completed.stderr.strip()}")
    return json.loads(completed.stdout)


def render(torch_result: dict, torchvision_result: dict | None) -> str:
    import yaml

    inventory = dict(torch_result["inventory"])
    source = f"torch {torch_result['versions']['torch']} (Python {torch_result['python']})"
    note = ""
    if torchvision_result is not None:
        inventory.update(
            (module, names) for module, names in torchvision_result["inventory"].items() if module.startswith("torchvision")
        )
        versions = torchvision_result["versions"]
        source += f"; torchvision {versions['torchvision']} (installed beside torch {versions['torch']})"
    else:
        note = " torchvision was not installed, so it is not listed."
    header = {
        "table": "torch_inventory",
        "description": (
            "Public names of the PyTorch API, read from the installed packages by "
            "tools/generate_mappings/torch_inventory.py. An API listed here with no mapping for the route is "
            "reported ms-unsupported." + note
        ),
        "provenance": f"generated from {source}: dir() of each module, __all__ where declared, no private names",
    }
    text = yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=110)
    body = yaml.safe_dump({"inventory": inventory}, sort_keys=False, default_flow_style=False, width=110)
    return "# Generated by tools/generate_mappings/torch_inventory.py; do not edit by hand.\n" + text + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--torch-python", default=".work/torch-venv/bin/python")
    parser.add_argument("--torchvision-python", help="an interpreter with torchvision installed (optional)")
    parser.add_argument("--output", type=Path, default=Path("mappings/torch_inventory.yaml"))
    arguments = parser.parse_args(argv)
    if arguments.collect:
        json.dump(collect(arguments.collect), sys.stdout)
        return 0
    torch_result = run_collector(arguments.torch_python, TORCH_MODULES)
    torchvision_result = None
    if arguments.torchvision_python:
        torchvision_result = run_collector(arguments.torchvision_python, TORCHVISION_MODULES)
    for result in filter(None, (torch_result, torchvision_result)):
        for module, reason in result["skipped"].items():
            print(f"skipped {module}: {reason}", file=sys.stderr)
    text = render(torch_result, torchvision_result)
    temporary = arguments.output.with_suffix(".yaml.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(arguments.output)
    counts = {module: len(names) for module, names in yaml_inventory_counts(torch_result, torchvision_result).items()}
    print(f"wrote {arguments.output}: {sum(counts.values())} names in {len(counts)} modules")
    return 0


def yaml_inventory_counts(torch_result: dict, torchvision_result: dict | None) -> dict[str, list[str]]:
    merged = dict(torch_result["inventory"])
    if torchvision_result is not None:
        merged.update((m, n) for m, n in torchvision_result["inventory"].items() if m.startswith("torchvision"))
    return merged


if __name__ == "__main__":
    # Run as a script, this folder comes first on sys.path, and its modules (tensorflow_rows, numeric, ...)
    # must not shadow the packages being inspected.
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
