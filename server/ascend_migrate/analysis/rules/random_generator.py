"""`generator=` on torch's random calls, MindSpore route (MS239): what becomes of the generator, said at the keyword.

A seeded torch.Generator's numbers cannot be had in MindSpore (another algorithm), so a program that seeds its
synthetic data, its split or its initial weights draws other values after the port, whatever the fix writes. What
the fix writes depends on the era's target (read from the call's entry): mint's random functions take
`generator=`, and torch.Generator().manual_seed(n) becomes mindspore.Generator().manual_seed(n) (which returns the
generator, as torch's does: mindspore 2.10.0), so the keyword stays; ops/nn's functions take none, and the entry's
parameter row drops it (the draws then follow mindspore.set_seed). random_split becomes the written RandomSplit,
which seeds NumPy's permutation with the generator's initial_seed(). No fix of its own: the finding says which of
these happens, so that no one compares the ported program's numbers with torch's and calls the port broken.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.api import CALL, Example, Matcher, Rule, RuleContext
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

PATTERN = "random-generator"
# torch's functions that take generator= (torch 2.13.0 signatures), by the callee's last name.
_RANDOM = frozenset(("randint", "randn", "rand", "randperm", "normal", "multinomial", "bernoulli", "poisson", "random_split",
                     "DataLoader"))
_SPLITS = ("torch.utils.data.random_split", "torch.utils.data.dataset.random_split")
_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")
_DIFFERENT = "MindSpore draws other numbers than torch for the same seed, so what this call draws differs from the torch run's"


def on_call(context: RuleContext, node: ast.Call) -> None:
    keyword = next((keyword for keyword in node.keywords if keyword.arg == "generator"), None)
    if keyword is None:
        return
    qualified = context.qualified_name(node.func)
    if qualified is None or not qualified.startswith("torch.") or qualified.rsplit(".", 1)[-1] not in _RANDOM:
        return
    message = _message(context, qualified)
    factory = context.factory
    span = factory.span(keyword)
    for entry in context.view.patterns.get(PATTERN, ()):
        context.add(factory.finding(entry, span, "exact", api=qualified, message=message))


def _message(context: RuleContext, qualified: str) -> str:
    if qualified in _LOADERS:
        return (f"`generator=` of {qualified}: with a collate_fn the loader written into the file (SequenceLoader) "
                "seeds its shuffles with the generator's initial_seed(): the same orders on every run, not torch's orders "
                "for that seed (without one the data-pipeline fix leaves this loader to you)")
    if qualified in _SPLITS:
        return (f"`generator=` of {qualified}: the split written into the file (RandomSplit) seeds NumPy's permutation "
                "with the generator's initial_seed(): the same parts on every run, not the parts torch draws for that seed")
    entries = context.view.by_name.get(qualified) or []
    target = next((entry.target for entry in entries if entry.target), None)
    dropped = any(row.source == "generator" and row.change == "removed" for entry in entries for row in entry.parameters)
    if target is not None and dropped:
        return (f"`generator=` is dropped: {target} takes no generator and draws from the global seed "
                f"(mindspore.set_seed(n) once makes the draws repeatable); {_DIFFERENT}")
    if target is not None and target.startswith("mindspore.mint."):
        return (f"`generator=` is kept: {target} draws from a mindspore.Generator (torch.Generator().manual_seed(n) "
                f"becomes mindspore.Generator().manual_seed(n)); {_DIFFERENT}")
    return (f"`generator=` of {qualified}: a torch.Generator's draws cannot be reproduced in MindSpore; pass a "
            "mindspore.Generator where the MindSpore function takes generator=, else seed with mindspore.set_seed(n)")


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("mindspore", """
        import torch
        from torch.utils.data import random_split

        generator = torch.Generator().manual_seed(0)
        labels = torch.randint(0, 4, (96,), generator=generator)  # expect: MS239
        noise = torch.randn(3, 5, generator=generator)  # expect: MS239
        train, valid = random_split(list(range(96)), [0.9, 0.1], generator=generator)  # expect: MS239
        loader = torch.utils.data.DataLoader(train, batch_size=8, shuffle=True, collate_fn=list, generator=generator)  # expect: MS239
        """, codes=("MS239",)),
    Example("mindspore", """
        import torch

        order = torch.randperm(10, generator=torch.Generator().manual_seed(3))  # expect: MS239
        """, codes=("MS239",), mindspore_version="2.4"),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import random

        import numpy
        import torch

        torch.manual_seed(0)
        labels = torch.randint(0, 4, (96,))
        rows = numpy.random.default_rng(0).normal(size=3)
        picked = random.sample(range(10), 3)

        def draw(generator):
            return generator.normal(size=3)  # numpy's Generator, not a torch call
        """, codes=("MS239",)),
)

RULE = Rule(name="random_generator", matchers={PATTERN: Matcher(CALL, on_call, called=_RANDOM)},
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE, routes=frozenset((ROUTE_MINDSPORE,)))
