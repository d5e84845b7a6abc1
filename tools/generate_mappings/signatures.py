"""Parameter names of the torch sources and MindSpore targets, read from the installed packages.

Many doc rows say only "the parameter names are inconsistent". The generator names those parameters from
the real signatures (torch 2.13.0, mindspore 2.10.0) when they line up one to one. This script collects the
names in each package's own venv (`--collect`, standard library only) and caches them in signatures.json:

    .venv/bin/python -m tools.generate_mappings.signatures \
        --torch-python .work/torch-venv/bin/python --mindspore-python .work/ms-venv/bin/python
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / "signatures.json"
# A signature line in a docstring: `name(a, b=1, *, c=None) -> Tensor`.
_DOC_SIGNATURE = re.compile(r"^\s*[\w.]+\((.*?)\)\s*(->.*)?$")
_PARAMETER = re.compile(r"^\*{0,2}([A-Za-z_]\w*)")


class Signatures:
    """The cached parameter names, as the generator reads them."""

    def __init__(self, document: dict) -> None:
        self.torch = document["torch"]["version"].split("+")[0]
        self.mindspore = document["mindspore"]["version"]
        self._torch = document["torch"]["parameters"]
        self._mindspore = document["mindspore"]["parameters"]

    @classmethod
    def read(cls) -> Signatures | None:
        return cls(json.loads(CACHE.read_text(encoding="utf-8"))) if CACHE.exists() else None

    def renames(self, api: str, target: str, method: bool) -> tuple[list[dict], str]:
        """Renamed-parameter items for an entry, and which versions were read ("" when nothing was found)."""
        from tools.generate_mappings.parameters import renames_from_signatures

        source_names, target_names = self._torch.get(api), self._mindspore.get(target)
        if not source_names or not target_names:
            return [], ""
        renames = renames_from_signatures(source_names, target_names, method)
        if not renames:
            return [], ""
        return ([{"source": old, "target": new, "change": "renamed"} for old, new in renames],
                f"torch {self.torch}, mindspore {self.mindspore}")


def _resolve(name: str):
    import importlib

    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:length]))
        except Exception:  # not a module at this length: try a shorter prefix
            continue
        for attribute in parts[length:]:
            value = getattr(value, attribute)
        return value
    return None


def _parameters(value) -> list[str] | None:
    """Names in order (no self, *args, **kwargs), from the signature or else the docstring's first one."""
    import inspect

    target = value.__init__ if inspect.isclass(value) else value
    try:
        names = [p.name for p in inspect.signature(target).parameters.values()
                 if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if names:
            return names
    except (TypeError, ValueError):  # builtins without a text signature: read the docstring
        pass
    for line in (getattr(value, "__doc__", None) or "").splitlines():
        match = _DOC_SIGNATURE.match(line)
        if match:
            names = []
            for part in match.group(1).split(","):
                found = _PARAMETER.match(part.strip())
                if found and found.group(1) != "self":
                    names.append(found.group(1))
            return names
    return None


def collect(names: list[str]) -> dict[str, list[str] | None]:
    import warnings

    warnings.simplefilter("ignore")
    result = {}
    for name in names:
        try:
            value = _resolve(name)
            result[name] = None if value is None else _parameters(value)
        except Exception:  # a name that does not resolve here has no signature to give
            result[name] = None
    return result


def _run(python: str, names: list[str]) -> dict:
    completed = subprocess.run([python, str(Path(__file__).resolve()), "--collect"], input="\n".join(names),
                               capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"collecting signatures with {python} failed:\n{completed.stderr.strip()[-2000:]}")
    return json.loads(completed.stdout)


def _version(python: str, package: str) -> str:
    return subprocess.run([python, "-c", f"import {package}; print({package}.__version__)"], capture_output=True,
                          text=True, check=True).stdout.strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--reference", type=Path, default=Path("/work/shared/reference/mindspore"))
    parser.add_argument("--torch-python", default=".work/torch-venv/bin/python")
    parser.add_argument("--mindspore-python", default=".work/ms-venv/bin/python")
    arguments = parser.parse_args(argv)
    if arguments.collect:
        json.dump(collect([line.strip() for line in sys.stdin if line.strip()]), sys.stdout)
        return 0
    from tools.generate_mappings.corrections import correct_source

    torch_names, mindspore_names = set(), set()
    for table in ("pytorch_api_mapping.csv", "pytorch_api_mapping_r2.4.10.csv"):
        with (arguments.reference / table).open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if row["torch_api"].startswith("torch."):
                    torch_names.add(correct_source(row["torch_api"])[0])
                    mindspore_names.add(row["mindspore_api"])
    document = {
        "torch": {"version": _version(arguments.torch_python, "torch"),
                  "parameters": _run(arguments.torch_python, sorted(torch_names))},
        "mindspore": {"version": _version(arguments.mindspore_python, "mindspore"),
                      "parameters": _run(arguments.mindspore_python, sorted(mindspore_names))},
    }
    CACHE.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {CACHE}: {len(torch_names)} torch and {len(mindspore_names)} MindSpore names")
    return 0


if __name__ == "__main__":
    # Run as a script, this folder comes first on sys.path, and its modules (tensorflow_rows, numeric, ...)
    # must not shadow the packages being inspected.
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
