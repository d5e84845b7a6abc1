"""mappings/torch_aliases.yaml: the names torch exposes one object under, as an identity check in torch finds them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not part of the installed package
from tools.generate_mappings import torch_aliases  # noqa: E402


def test_a_group_is_kept_only_when_the_knowledge_base_knows_one_of_its_names_and_the_public_spelling_comes_first():
    groups = [
        ["torch.nn.Conv2d", "torch.nn.modules.Conv2d", "torch.nn.modules.conv.Conv2d"],
        ["torch.nn.modules.linear.Linear", "torch.nn.Linear"],
        ["torch.nn.qat.Conv2d", "torch.nn.qat.modules.Conv2d"],  # nothing knows either name
        ["torch.nn.functional._threshold", "torch.nn.functional.threshold"],  # the private name is torch's plumbing
        ["torch.nn.modules.loss._Loss", "torch.nn.modules._Loss"],
    ]
    entries = {"torch.nn.modules.linear.Linear", "torch.nn.modules.loss._Loss"}
    inventory = {"torch.nn.Conv2d", "torch.nn.Linear", "torch.nn.functional.threshold"}
    assert torch_aliases.ordered_groups(groups, entries, inventory) == [
        ["torch.nn.Conv2d", "torch.nn.modules.Conv2d", "torch.nn.modules.conv.Conv2d"],
        ["torch.nn.Linear", "torch.nn.modules.linear.Linear"],
        ["torch.nn.modules.loss._Loss", "torch.nn.modules._Loss"],
    ]


def test_the_shipped_groups_are_what_the_installed_torch_says():
    """Every name of a group is the same object in torch 2.13.0 (`a is b`), and regenerating writes the file byte for
    byte. Needs torch: runs in CI stage 36 (stage 30's venv); skips in the README's test command."""
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13.0"):
        pytest.skip(f"the table was generated from torch 2.13.0; this is torch {torch.__version__}")
    import importlib

    result = torch_aliases.collect(torch_aliases.ALIAS_PACKAGES, torch_aliases.RECURSIVE_PACKAGES)
    groups = torch_aliases.ordered_groups(result["groups"], *torch_aliases.known_names(ROOT / "mappings"))
    shipped = (ROOT / "mappings" / "torch_aliases.yaml").read_text(encoding="utf-8")
    assert torch_aliases.render(result, groups) == shipped.replace(
        shipped.split("(Python ", 1)[1].split(")", 1)[0], result["python"], 1)

    def resolve(name):
        module, attribute = name.rsplit(".", 1)
        return getattr(importlib.import_module(module), attribute)

    for group in groups:
        first = resolve(group[0])
        assert all(resolve(name) is first for name in group[1:]), group
