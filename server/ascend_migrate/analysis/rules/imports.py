"""Imports of modules the knowledge base knows: CUDA-only libraries (`import amp_C`, `from apex import amp`)."""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.api import IMPORT, Example, Rule, RuleContext

TORCH_NPU_NOT_IMPORTED = "torch-npu-not-imported"
# Bound at module level by the engine's pre-pass when the module runs as a program (a `__main__` guard, a
# top-level loop or `main()` call); not an identifier, so never a name in code.
ENTRY_POINT_MARK = "<program>"


def on_import(context: RuleContext, node: ast.Import | ast.ImportFrom) -> None:
    if not context.view.by_import:
        return
    factory = context.factory
    if isinstance(node, ast.Import):
        for alias in node.names:
            entries = context.view.import_entries(alias.name)
            for entry in entries:
                if entry.condition == TORCH_NPU_NOT_IMPORTED:
                    _missing_torch_npu(context, entry, alias)
                    continue
                span = factory.span(alias)
                fix = _removal_fix(context, entry, node) if len(node.names) == 1 else None
                context.add(factory.finding(entry, span, "exact", api=alias.name, fix=fix))
        return
    if node.level or not node.module:
        return
    # `from torch_npu.contrib import transfer_to_npu` imports the module torch_npu.contrib.transfer_to_npu: its own
    # entries, as `import torch_npu.contrib.transfer_to_npu` has them (the nearest listed module wins, so `from apex
    # import amp` is apex.amp's, not apex's)
    by_import = context.view.by_import
    own = [(alias, by_import.get(f"{node.module}.{alias.name}")) for alias in node.names]
    for alias, own_entries in own:
        for entry in own_entries or ():
            if entry.condition != TORCH_NPU_NOT_IMPORTED:
                context.add(factory.finding(entry, factory.span(alias), "exact", api=f"{node.module}.{alias.name}"))
    if all(own_entries for _alias, own_entries in own):
        return
    for entry in context.view.import_entries(node.module):
        if entry.condition == TORCH_NPU_NOT_IMPORTED:
            continue  # reported once, on `import torch` itself
        span = factory.span(node)
        span = (span[0], span[1], span[0], len(factory.lines.text(span[0])) + 1) if span[2] != span[0] else span
        context.add(factory.finding(entry, span, "exact", api=node.module))


def _removal_fix(context: RuleContext, entry, node: ast.Import) -> Fix | None:
    """`import amp_C` has nothing to become on Ascend: the fix removes the import once nothing uses the name (a use
    left, `amp_C.multi_tensor_l2norm(...)`, keeps it: removing it would turn the use into a NameError, issue 17; each
    use is reported on its own, NPU112)."""
    if entry.fix == "none" or entry.target:
        return None
    name = node.names[0]
    return Fix(
        title=f"Remove `import {name.name}` (kept while the code still uses it)",
        safe=entry.fix == "safe",
        remove_imports=(name.asname or name.name,),
    )


def _missing_torch_npu(context: RuleContext, entry, alias: ast.alias) -> None:
    """`import torch` in a program that never imports torch_npu: torch.npu and the 'npu' device need it."""
    if alias.name != "torch":
        return
    # Only a program needs the import: a library that gains it no longer imports where torch_npu is absent,
    # and the program that uses the library has imported torch_npu before the library runs.
    if context.lookup(ENTRY_POINT_MARK) is None and context.factory.path.replace("\\", "/").rsplit("/", 1)[-1] != "__main__.py":
        return
    if any(value.split(".", 1)[0] == "torch_npu" for value in context.module_imports()):
        return
    span = context.factory.span(alias)
    fix = None
    if entry.fix != "none":
        fix = Fix(title="Add `import torch_npu`", safe=entry.fix == "safe", add_imports=("import torch_npu",))
    message = "`import torch` without `import torch_npu`: torch.npu and the 'npu' device exist only once torch_npu is imported"
    context.add(context.factory.finding(entry, span, "exact", api="torch", fix=fix, message=message))


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import os
        import torch  # expect: NPU106
        import amp_C  # expect: TP101
        from apex import amp  # expect: TP101
        from apex.optimizers import FusedAdam  # expect: TP101


        def main():
            model = torch.nn.Linear(4, 4)
            optimizer = FusedAdam(model.parameters())  # expect: TP101
            model, optimizer = amp.initialize(model, optimizer, opt_level=os.environ.get("OPT", "O1"))


        if __name__ == "__main__":
            main()
        """),
    Example("mindspore", """
        import torch
        from apex.parallel import DistributedDataParallel  # expect: TP101
        """),
)
_LEAVES_ALONE = (
    Example("npu", """
        import torch
        import torch_npu
        import numpy as np
        from .apex import helpers
        from torchvision import models
        """, codes=("NPU106", "TP101")),
    Example("npu", """
        # a library module: the program that imports it is the one that imports torch_npu
        import torch


        def count_parameters(model: torch.nn.Module) -> int:
            return sum(parameter.numel() for parameter in model.parameters())
        """, codes=("NPU106",)),
)


RULE = Rule(name="imports", hooks={IMPORT: on_import}, flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
