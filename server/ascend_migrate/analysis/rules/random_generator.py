"""`generator=` on torch's random calls, MindSpore route (MS239): what becomes of the generator, said at the keyword.

A seeded torch.Generator's numbers cannot be had in MindSpore (another algorithm), so a program that seeds its
synthetic data, its split or its initial weights draws other values after the port, whatever the fix writes. What
the fix writes depends on the era's target (read from the call's entry): mint's random functions take
`generator=`, and torch.Generator().manual_seed(n) becomes mindspore.Generator().manual_seed(n) (which returns the
generator, as torch's does: mindspore 2.10.0), so the keyword stays; ops/nn's functions take none, and the entry's
parameter row drops it (the draws then follow mindspore.set_seed). random_split becomes the written RandomSplit,
which seeds NumPy's permutation with the generator's initial_seed(). No fix of its own: the finding says which of
these happens, so that no one compares the ported program's numbers with torch's and calls the port broken.

Tensor methods too (`x.uniform_(-0.1, 0.1, generator=g)`, `weight.normal_(generator=g)`): in mindspore 2.10.0
Tensor.random_, uniform_, normal_, bernoulli_, exponential_ and bernoulli take `generator=` as torch's do (read
with inspect.signature), cauchy and log_normal (cauchy_'s and log_normal_'s targets) take none, multinomial takes
`seed=`, and there is no geometric_. Said for a receiver that is a tensor or of a type the walker does not know
(a keyword `generator=` on these in-place names is torch's: numpy's Generator has no such methods).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.api import CALL, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.symbols import TENSOR
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

PATTERN = "random-generator"
# torch's functions that take generator= (torch 2.13.0 signatures), by the callee's last name.
_RANDOM = frozenset(("randint", "randn", "rand", "randperm", "normal", "multinomial", "bernoulli", "poisson", "random_split",
                     "DataLoader"))
# Tensor methods that take generator= (torch 2.13.0), and what mindspore 2.10.0's method of the port does with it.
_METHOD_TAKES = frozenset(("random_", "uniform_", "normal_", "bernoulli_", "exponential_", "bernoulli"))
_METHOD_TAKES_NONE = {"cauchy_": "mindspore.Tensor.cauchy", "log_normal_": "mindspore.Tensor.log_normal"}
_METHODS = _METHOD_TAKES | frozenset(_METHOD_TAKES_NONE) | frozenset(("geometric_", "multinomial"))
_SPLITS = ("torch.utils.data.random_split", "torch.utils.data.dataset.random_split")
_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")
_DIFFERENT = "MindSpore draws other numbers than torch for the same seed, so what this call draws differs from the torch run's"


def on_call(context: RuleContext, node: ast.Call) -> None:
    keyword = next((keyword for keyword in node.keywords if keyword.arg == "generator"), None)
    if keyword is None:
        return
    qualified = context.qualified_name(node.func)
    if qualified is None:
        func = node.func
        if type(func) is not ast.Attribute or func.attr not in _METHODS or context.infer(func.value) not in (TENSOR, None):
            return
        qualified = f"torch.Tensor.{func.attr}"
        message = _method_message(func.attr)
    elif not qualified.startswith("torch.") or qualified.rsplit(".", 1)[-1] not in _RANDOM:
        return
    else:
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


def _method_message(method: str) -> str:
    if method in _METHOD_TAKES:
        return (f"`generator=` is kept: mindspore.Tensor.{method} takes generator= as torch's does (mindspore 2.10.0), "
                f"a mindspore.Generator (torch.Generator().manual_seed(n) becomes mindspore.Generator().manual_seed(n)); "
                f"{_DIFFERENT}")
    if method in _METHOD_TAKES_NONE:
        return (f"`generator=` has no place: {_METHOD_TAKES_NONE[method]}, the port of {method}, takes no generator "
                f"(mindspore 2.10.0; the fix of a statement drops the keyword, remove it elsewhere) and draws from the global seed "
                f"(mindspore.set_seed(n)); {_DIFFERENT}")
    if method == "multinomial":
        return (f"`generator=` has no counterpart: mindspore.Tensor.multinomial takes `seed=` (an int), not a generator "
                f"(mindspore 2.10.0); {_DIFFERENT}")
    return (f"`generator=` of torch.Tensor.{method}: MindSpore has no Tensor.{method} (mindspore 2.10.0), and a "
            "torch.Generator's draws cannot be reproduced in MindSpore; seed with mindspore.set_seed(n)")


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

        generator = torch.Generator().manual_seed(0)
        weight = torch.empty(4, 3)
        weight.uniform_(-0.1, 0.1, generator=generator)  # expect: MS239 torch.Tensor.uniform_


        def init(layer, seed_generator):
            layer.weight.data.normal_(0.0, 0.02, generator=seed_generator)  # expect: MS239 torch.Tensor.normal_
            layer.bias.data.cauchy_(generator=seed_generator)  # expect: MS239 torch.Tensor.cauchy_
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

        weight = torch.empty(4, 3)
        weight.uniform_(-0.1, 0.1)
        model = torch.nn.Linear(3, 4)
        model.normal_(generator=None)  # a module: not the tensor method
        """, codes=("MS239",)),
)

RULE = Rule(name="random_generator", matchers={PATTERN: Matcher(CALL, on_call, called=_RANDOM | _METHODS)},
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE, routes=frozenset((ROUTE_MINDSPORE,)))
