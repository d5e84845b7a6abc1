"""`len(loader.dataset)` on the MindSpore route (MS215): the number of samples a DataLoader reads.

The data-pipeline fix (structure_fixes.data_pipeline) writes the loader as a mindspore.dataset pipeline, which has
no `.dataset`. Reported where `loader` is a DataLoader, or a name of unknown type (a function's parameter: the
usual `train(args, model, device, train_loader, ...)`); a name known to be anything else is left alone. The fix
(`loader-dataset-size`, fixes/families/loader_dataset_size.py) checks on the whole text that the loader is the
fixed pipeline, following a parameter to every call of its function in the file, before it writes
`loader.children[0].get_dataset_size()`.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.api import CALL, Example, Matcher, Rule, RuleContext
from ascend_migrate.fixes.families.loader_dataset_size import LoaderDatasetSize

PATTERN = "loader-dataset-size"
_LOADERS = frozenset(("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"))


def on_len(context: RuleContext, node: ast.Call) -> None:
    if type(node.func) is not ast.Name or context.lookup("len") is not None or len(node.args) != 1 or node.keywords:
        return  # a `len` of this file's own, or not a plain len(x)
    argument = node.args[0]
    if type(argument) is not ast.Attribute or argument.attr != "dataset" or type(argument.value) is not ast.Name:
        return
    loader = argument.value.id
    loader_type = context.infer(argument.value)
    if loader_type is not None and loader_type not in _LOADERS:
        return
    factory = context.factory
    span = factory.span(node)
    confidence = "inferred" if loader_type is not None else "heuristic"
    for entry in context.view.patterns.get(PATTERN, ()):
        fix = None if entry.fix == "none" else Fix(
            title=f"Replace with `{loader}.children[0].get_dataset_size()` (the samples of the pipeline's source)",
            safe=False, rewrite=LoaderDatasetSize(span, loader))
        context.add(factory.finding(entry, span, confidence, api=entry.api, fix=fix))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("mindspore", """
        import torch


        def evaluate(model, test_loader):
            total = 0.0
            for data, target in test_loader:
                total += float((model(data).argmax(1) == target).sum())
            return total / len(test_loader.dataset)  # expect: MS215


        def main(images, labels):
            loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=32)
            print(len(loader.dataset))  # expect: MS215
        """, codes=("MS215",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import torch


        class Split:
            dataset = [1, 2, 3]


        def sizes(loader, split: Split):
            return len(split.dataset), len(loader), len(loader.dataset.rows)  # a typed object, batches, another attribute
        """, codes=("MS215",)),
)

RULE = Rule(name="loader_dataset", matchers={PATTERN: Matcher(CALL, on_len, called=frozenset(("len",)))},
            flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
