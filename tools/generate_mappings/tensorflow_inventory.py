"""Writes mappings/tensorflow_inventory.yaml: the public names of the real TensorFlow and Keras packages, with aliases.

An API in this inventory that has no mapping is reported `ms-unsupported` (never silence), and a name is looked
up under every name TensorFlow exports it as: `tf.reduce_mean` is the object `tf.math.reduce_mean`,
`tf.compat.v1.reshape` is `tf.reshape`, `keras.ops.mean` is `keras.ops.numpy.mean`.

Spelling: TensorFlow names as `tensorflow.…`; Keras names (Keras 3 `keras`, the Keras 2 `tf_keras` and
`tf.keras`, which is Keras 3 from TensorFlow 2.16 on) all as `tensorflow.keras.…`, the spelling of MindSpore's
TensorFlow table. `module_aliases` says how the other spellings read (`keras.` and `tf_keras.` are
`tensorflow.keras.`, `tensorflow.compat.v2.` is `tensorflow.`).

The names are read from an interpreter that has tensorflow, keras and tf_keras installed (a venv of its own,
never the project's test venv): this script runs itself there with `--collect`, reads JSON back and writes the
YAML with the project's interpreter. Example:

    .venv/bin/python -m tools.generate_mappings.tensorflow_inventory --tensorflow-python .tfvenv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

# Spellings that name the same modules as the canonical prefix (read by kb/index.py, longest first).
MODULE_ALIASES = {
    "keras": "tensorflow.keras",
    "tf_keras": "tensorflow.keras",
    "tensorflow.compat.v2": "tensorflow",
    "tensorflow.compat.v1.keras": "tensorflow.keras",
}
# Subpackages walked elsewhere or not API: tf.keras is the keras walk; compat.v2 is tf itself (MODULE_ALIASES);
# `src` is Keras' implementation, `protobuf` tf_keras' wire formats.
SKIPPED_MODULES = {
    "tensorflow.keras", "tensorflow.compat.v2", "tensorflow.compat.v1.keras", "tensorflow.compat.v1.compat",
    "tensorflow.compat.v1.compat.v1", "tensorflow.compat.v1.compat.v2", "tensorflow.keras.src",
    "tensorflow.keras.protobuf",
}
CONSTANT_TYPES = ("DType", "TensorShape")


def collect() -> dict:
    """Runs inside the interpreter that has the packages: spelled module → public names, and alias groups."""
    import importlib
    import types
    import warnings

    warnings.simplefilter("ignore")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tensorflow = importlib.import_module("tensorflow")
    keras = importlib.import_module("keras")
    tf_keras = importlib.import_module("tf_keras")
    from tensorflow.python.util import tf_export

    inventory: dict[str, set[str]] = {}
    groups: dict[int, list[str]] = {}  # id of the object → every public name of it (tf.losses.X is keras.losses.X)
    canonical: dict[int, str] = {}

    def walk(module, spelled: str, seen: set[int]) -> None:
        if id(module) in seen:
            return
        seen.add(id(module))
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # a lazy attribute that fails to load is no usable API
                continue
            full = f"{spelled}.{name}"
            if isinstance(value, types.ModuleType):
                try:  # Keras 3's lazy tf.keras modules refuse even __name__
                    module_name = value.__name__
                except AttributeError:
                    continue
                if full not in SKIPPED_MODULES and _api_module(module_name):
                    walk(value, full, seen)
                continue
            if not (callable(value) or type(value).__name__ in CONSTANT_TYPES):
                continue  # version strings, flags and other plain values
            inventory.setdefault(spelled, set()).add(name)
            key = id(value)
            groups.setdefault(key, []).append(full)
            if spelled.startswith("tensorflow") and not spelled.startswith("tensorflow.keras") and key not in canonical:
                try:
                    name_in_tf = tf_export.get_canonical_name_for_symbol(value)
                except Exception:
                    name_in_tf = None
                if name_in_tf:
                    canonical[key] = f"tensorflow.{name_in_tf}"

    walk(tensorflow, "tensorflow", set())
    walk(keras, "tensorflow.keras", set())
    walk(tf_keras, "tensorflow.keras", set())
    aliases = []
    for key, names in groups.items():
        names = sorted(set(names), key=lambda spelled: (spelled.count("."), len(spelled), spelled))
        if len(names) < 2:
            continue
        first = canonical.get(key)
        if first in names:
            names.remove(first)
            names.insert(0, first)
        aliases.append(names)
    # Keras 2 and Keras 3 objects of one name are the same API: their groups meet where they share a name.
    aliases = _merge_groups(aliases)
    versions = {"tensorflow": tensorflow.__version__, "keras": keras.__version__, "tf_keras": tf_keras.__version__}
    return {
        "inventory": {module: sorted(names) for module, names in sorted(inventory.items())},
        "aliases": sorted(aliases),
        "versions": versions,
        "python": sys.version.split()[0],
    }


def _api_module(module_name: str) -> bool:
    """TensorFlow's and Keras' generated API modules, not their implementation (`tensorflow.python`, `keras.src`)
    nor what the API modules import for themselves (absl flags, `tf_decorator`)."""
    parts = module_name.split(".")
    if parts[0] == "tensorflow":
        # tf.compat reads as `tensorflow.compat` once keras is imported, as `tensorflow._api.v2.compat` before
        return module_name in ("tensorflow", "tensorflow.compat") or module_name.startswith(
            ("tensorflow._api.v2.", "tensorflow.compat."))
    return parts[0] in ("keras", "tf_keras") and "src" not in parts and "python" not in parts


def _merge_groups(groups: list[list[str]]) -> list[list[str]]:
    """Groups that share a name become one group, keeping the first group's first name first."""
    owner: dict[str, int] = {}
    merged: list[list[str]] = []
    for group in groups:
        targets = sorted({owner[name] for name in group if name in owner})
        if not targets:
            merged.append(list(group))
            index = len(merged) - 1
        else:
            index = targets[0]
            for other in targets[1:]:
                merged[index].extend(merged[other])
                for name in merged[other]:
                    owner[name] = index
                merged[other] = []
            merged[index].extend(name for name in group if name not in merged[index])
        for name in merged[index]:
            owner[name] = index
    return [list(dict.fromkeys(group)) for group in merged if len(set(group)) > 1]


def run_collector(python: str) -> dict:
    completed = subprocess.run(
        [python, str(Path(__file__).resolve()), "--collect"],
        capture_output=True, text=True, check=False, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    if completed.returncode != 0:
        raise SystemExit(f"collecting with {python} failed:\n{completed.stderr.strip()[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def render(result: dict) -> str:
    import yaml

    versions = result["versions"]
    header = {
        "table": "tensorflow_inventory",
        "description": (
            "Public names of the TensorFlow and Keras APIs, read from the installed packages by "
            "tools/generate_mappings/tensorflow_inventory.py; every Keras spelling (keras, tf_keras, tf.keras) is "
            "listed as tensorflow.keras. An API listed here with no mapping for the route is reported "
            "ms-unsupported; a name is looked up under all its aliases (one line of `aliases` is one object)."
        ),
        "provenance": (
            f"generated from tensorflow {versions['tensorflow']}, keras {versions['keras']} and tf_keras "
            f"{versions['tf_keras']} (Python {result['python']}): dir() of every public API module, no private names, "
            "no submodules, callables and dtypes only; aliases are names of one object (tf_export's canonical name first)"
        ),
        "module_aliases": MODULE_ALIASES,
    }
    text = yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=110)
    body = yaml.safe_dump({"inventory": result["inventory"]}, sort_keys=False, default_flow_style=False, width=110)
    alias_lines = ["aliases:"] + [f"- [{', '.join(group)}]" for group in result["aliases"]]
    return ("# Generated by tools/generate_mappings/tensorflow_inventory.py; do not edit by hand.\n"
            + text + body + "\n".join(alias_lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tensorflow-python", default=".tfvenv/bin/python",
                        help="an interpreter with tensorflow, keras 3 and tf_keras installed")
    parser.add_argument("--output", type=Path, default=Path("mappings/tensorflow_inventory.yaml"))
    arguments = parser.parse_args(argv)
    if arguments.collect:
        print(json.dumps(collect()))
        return 0
    result = run_collector(arguments.tensorflow_python)
    text = render(result)
    temporary = arguments.output.with_suffix(".yaml.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(arguments.output)
    names = sum(len(names) for names in result["inventory"].values())
    print(f"wrote {arguments.output}: {names} names in {len(result['inventory'])} modules, "
          f"{len(result['aliases'])} alias groups")
    return 0


if __name__ == "__main__":
    # Run as a script, this folder comes first on sys.path, and its modules must not shadow the packages read.
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
