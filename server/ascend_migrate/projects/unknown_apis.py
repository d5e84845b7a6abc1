"""The torch.* names a file uses that no table knows (unknown_api.csv): neither a knowledge-base entry nor a name of
the torch inventory, so nobody can say whether they run on the target. The Ascend tool lists the same kind of
name (APIs in neither its supported nor its unsupported table) for the user to check by hand.
"""

from __future__ import annotations

from functools import lru_cache

from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.projects.references import parse_quietly, references

ROOT = "torch"


@lru_cache(maxsize=1)
def _known(knowledge_base: KnowledgeBase) -> tuple[frozenset[str], frozenset[str]]:
    """(every name an entry or the inventory has, every module of the inventory)."""
    names = {entry.api for entry in knowledge_base.entries}
    names.update(f"{module}.{name}" for module, members in knowledge_base.inventory.items() for name in members)
    return frozenset(names), frozenset(knowledge_base.inventory)


def is_known(name: str, knowledge_base: KnowledgeBase) -> bool:
    """A name is known when a table has it, when it is a module of the inventory, or when it is an attribute of
    a known class or function (`torch.Tensor.add_`): an unknown name inside a known module stays unknown."""
    names, modules = _known(knowledge_base)
    if name in names or name in modules:
        return True
    parent = name.rpartition(".")[0]
    return parent in names and parent not in modules


def unknown_torch_names(source: str, knowledge_base: KnowledgeBase | None = None) -> list[tuple[int, int, str]]:
    """(line, end line, qualified name) of each torch.* reference of `source` that no table knows, once per line
    and name. Names are resolved through the file's imports (`import torch.nn as nn`, `from torch import cuda`)."""
    knowledge_base = knowledge_base or KnowledgeBase.load()
    tree = parse_quietly(source)
    if tree is None:
        return []
    found: dict[tuple[int, str], int] = {}
    for node, name in references(tree, {ROOT}):
        if not is_known(name, knowledge_base):
            found.setdefault((node.lineno, name), node.end_lineno or node.lineno)
    return sorted((line, end, name) for (line, name), end in found.items())
