"""Counts the TensorFlow/Keras APIs real code calls, per code base: mappings/usage/tensorflow_api_frequency.csv.

A use is a call of a public TensorFlow or Keras name (`tf.reduce_mean(...)`, `layers.Dense(...)`, a decorator
`@tf.function`) or a class statement deriving from one (`class Block(keras.layers.Layer)`); imports and other
mentions are not counted. Names are resolved through each file's module-level imports, spelled as the knowledge
base spells them (`keras.ops.mean` → `tensorflow.keras.ops.mean`, `tf.reduce_mean` → `tensorflow.math.reduce_mean`)
and kept only when the inventory lists them (mappings/tensorflow_inventory.yaml). Example:

    pip download --no-deps keras-hub -d /tmp/corpus && unzip the wheel into /tmp/corpus/src/keras_hub
    .venv/bin/python -m tools.tensorflow_census /tmp/corpus/src/* --output mappings/usage/tensorflow_api_frequency.csv

The committed CSV has fifteen code bases in this order (docs/tensorflow.md): keras_hub tf_keras tensorflow_probability
tf_agents keras_nlp tf_models_official trax (written from), keras_cv tensorflow_recommenders keras_tuner dm_sonnet keras_rs
tensorflow_addons tensorflow_model_optimization tensorflow_text (held out).
"""

from __future__ import annotations

import argparse
import ast
import csv
import sys
from collections import Counter
from pathlib import Path

ROOTS = ("tensorflow", "keras", "tf_keras")


def file_uses(text: str) -> Counter:
    """api as written (imports resolved) → number of calls and class bases in one module."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return Counter()
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ROOTS:
                    if alias.asname:
                        imported[alias.asname] = alias.name
                    else:
                        root = alias.name.split(".")[0]
                        imported[root] = root
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] in ROOTS:
                for alias in node.names:
                    if alias.name != "*":
                        imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    if not imported:
        return Counter()
    uses: Counter = Counter()

    def qualified(expression: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(expression, ast.Attribute):
            parts.append(expression.attr)
            expression = expression.value
        if not isinstance(expression, ast.Name) or expression.id not in imported:
            return None
        return ".".join([imported[expression.id], *reversed(parts)])

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = qualified(node.func)
            if name:
                uses[name] += 1
        elif isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = qualified(base)
                if name:
                    uses[name] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:  # a bare `@tf.function` is a call too
                name = qualified(decorator) if not isinstance(decorator, ast.Call) else None
                if name:
                    uses[name] += 1
    return uses


def census(code_bases: list[Path], canonical, inventory: frozenset[str]) -> dict[str, Counter]:
    """canonical api → uses per code base (the folder's name)."""
    counts: dict[str, Counter] = {}
    for base in code_bases:
        for path in sorted(base.rglob("*.py")):
            if "test" in path.name:  # tests call APIs to check them, not to use them
                continue
            for name, number in file_uses(path.read_text(encoding="utf-8", errors="replace")).items():
                api = canonical(name)
                if api in inventory:
                    counts.setdefault(api, Counter())[base.name] += number
    return counts


def status(view, api: str) -> str:
    """What the knowledge base answers for `api` on the MindSpore route."""
    entries, canonical = view.name_entries(api)
    entries = entries or view.prefix_entries(canonical)  # a module answered as a whole (`tf.io.gfile`)
    if not entries:
        return "unmapped"
    return ";".join(sorted({entry.category for entry in entries}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code_bases", nargs="+", type=Path, help="one folder per code base (an unpacked wheel)")
    parser.add_argument("--output", type=Path, default=Path("mappings/usage/tensorflow_api_frequency.csv"))
    arguments = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
    from ascend_migrate.kb.index import KnowledgeBase

    knowledge_base = KnowledgeBase.load()
    view = knowledge_base.view("mindspore", "2.1", "2.10", "2.6")
    inventory = frozenset(f"{module}.{name}" for module, names in knowledge_base.inventory.items() for name in names)
    counts = census(arguments.code_bases, knowledge_base.aliases.canonical, inventory)
    names = [base.name for base in arguments.code_bases]
    rows = sorted(counts.items(), key=lambda item: (-sum(item[1].values()), item[0]))
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    with arguments.output.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["api", "uses", "code_bases", *names, "knowledge_base"])
        for api, per_base in rows:
            writer.writerow([api, sum(per_base.values()), len(per_base), *(per_base.get(name, 0) for name in names),
                             status(view, api)])
    total = sum(sum(per_base.values()) for per_base in counts.values())
    print(f"wrote {arguments.output}: {len(rows)} APIs, {total} uses in {len(names)} code bases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
