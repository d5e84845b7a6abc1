"""A method call may stay as written on the MindSpore route only when the knowledge base's target is the receiver's
own method of the same name (rules/methods.py `is_own_method`: `mindspore.Tensor.squeeze`, not the function
`mindspore.mint.dot`). The rule reads that from the name (MindSpore's modules are lower-case, its classes CapWords);
this checks the reading against mindspore 2.10 itself for every method entry of the shipped tables whose target has
the method's name, in both eras, and that each class target really has the method. Needs mindspore (CI stage
38-execution); skips cleanly without it."""

from __future__ import annotations

import importlib
import inspect

import pytest

from ascend_migrate.analysis.rules.methods import is_own_method
from ascend_migrate.kb.index import KnowledgeBase

pytest.importorskip("mindspore")


def _resolved(name: str):
    parts = name.split(".")
    value = importlib.import_module(parts[0])
    for position, part in enumerate(parts[1:], 1):
        value = getattr(value, part) if hasattr(value, part) else importlib.import_module(".".join(parts[:position + 1]))
    return value


def _same_named_targets() -> dict[str, str]:
    """target → method name, for every mindspore-route method entry whose target ends in the method's name."""
    targets: dict[str, str] = {}
    knowledge_base = KnowledgeBase.load()
    for version in ("2.4", "2.10"):
        for method, entries in knowledge_base.view("mindspore", "2.13", version).by_method.items():
            targets.update({entry.target: method for entry in entries
                            if entry.target and entry.target.rpartition(".")[2] == method})
    return targets


def test_a_target_is_read_as_a_method_exactly_when_mindspore_defines_it_on_a_class():
    targets = _same_named_targets()
    assert len(targets) > 250  # 294 when written (session 8): Tensor, Cell, GeneratorDataset methods and 3 functions
    wrong = []
    for target, method in sorted(targets.items()):
        owner = _resolved(target.rpartition(".")[0])
        if is_own_method(target, method) != inspect.isclass(owner):
            wrong.append(target)
        elif inspect.isclass(owner) and not hasattr(owner, method):
            wrong.append(f"{target} (no such method in mindspore 2.10)")
    assert wrong == []
    functions = sorted(target for target, method in targets.items() if not is_own_method(target, method))
    assert "mindspore.mint.dot" in functions  # torch.Tensor.dot's target: a call on the tensor is always reported
