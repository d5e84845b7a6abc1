"""References to qualified names: `torch.nn.Linear(...)`, `torch.backends.cudnn.benchmark = True`, a base class."""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Finding, Fix
from ascend_migrate.analysis.restrictions import applies_at
from ascend_migrate.analysis.rules.api import REFERENCE, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.cudnn_switches import BUILDERS as CUDNN_SWITCH_BUILDERS
from ascend_migrate.analysis.rules.data_parallel_call import BUILDERS as DATA_PARALLEL_BUILDERS
from ascend_migrate.analysis.rules.device_count import BUILDERS as DEVICE_COUNT_BUILDERS
from ascend_migrate.analysis.rules.embedding_bag import BUILDERS as EMBEDDING_BAG_BUILDERS
from ascend_migrate.analysis.rules.fill_dtype import with_fill_dtype
from ascend_migrate.analysis.rules.fused_optimizers import BUILDERS as FUSED_OPTIMIZER_BUILDERS
from ascend_migrate.analysis.rules.inplace_arguments import passed_inplace
from ascend_migrate.analysis.rules.keras_layer_calls import BUILDERS as KERAS_LAYER_BUILDERS
from ascend_migrate.analysis.rules.lbfgs import BUILDERS as LBFGS_BUILDERS
from ascend_migrate.analysis.rules.meshgrid_indexing import BUILDERS as MESHGRID_BUILDERS
from ascend_migrate.analysis.rules.mixed_precision import BUILDERS as MIXED_PRECISION_BUILDERS
from ascend_migrate.analysis.rules.optimizer_arguments import BUILDERS as OPTIMIZER_ARGUMENT_BUILDERS
from ascend_migrate.analysis.rules.pooling import BUILDERS as POOLING_BUILDERS
from ascend_migrate.analysis.rules.recurrent_cells import BUILDERS as RECURRENT_CELL_BUILDERS
from ascend_migrate.analysis.rules.recurrent_cells import CELLS, entries_for_cell
from ascend_migrate.analysis.rules.repeat_interleave_overload import BUILDERS as REPEAT_INTERLEAVE_BUILDERS
from ascend_migrate.analysis.rules.sequence_data import BUILDERS as SEQUENCE_DATA_BUILDERS
from ascend_migrate.analysis.rules.size_arguments import with_sizes_bracketed
from ascend_migrate.analysis.rules.structure_fixes import BUILDERS, NotFixed
from ascend_migrate.analysis.rules.tensor_constructors import BUILDERS as TENSOR_CONSTRUCTOR_BUILDERS
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.kb.schema import Entry
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

# The fallback for a public torch name that no table maps: the three options of the MindSpore migration guide.
GENERIC_UNSUPPORTED = Entry(
    api="*",
    route=ROUTE_MINDSPORE,
    category="ms-unsupported",
    table="builtin",
    index=0,
    line=0,
    provenance="MindSpore migration guide: options for an API without a mapping",
    code="MS103",
    note="no table maps it, so MindSpore may still have an equivalent: look under mindspore.ops and mindspore.mint first",
    suggestion="replace it with an equivalent MindSpore API, compose it from existing MindSpore APIs, "
    "or write a custom operator (mindspore.ops.Custom)",
)
# A name the tables map only for other MindSpore versions (`torch.triu`: a mint row, from 2.5): no equivalent is
# recorded for the version set, which is not the same as none existing (ms-differs, no target, no fix).
VERSION_GAP = dataclasses.replace(
    GENERIC_UNSUPPORTED, category="ms-differs", code="MS102",
    provenance="the knowledge base: the name's entries are for other MindSpore versions",
    note="", suggestion="find its counterpart for this MindSpore version by hand, or set mindspore-version to yours")
# (route, api) → the builder of a fix that is more than a rename (structure_fixes.BUILDERS describes them).
_BUILDERS = {**KERAS_LAYER_BUILDERS, **CUDNN_SWITCH_BUILDERS, **DATA_PARALLEL_BUILDERS, **LBFGS_BUILDERS,
             **RECURRENT_CELL_BUILDERS, **EMBEDDING_BAG_BUILDERS, **FUSED_OPTIMIZER_BUILDERS, **DEVICE_COUNT_BUILDERS, **MIXED_PRECISION_BUILDERS,
             **OPTIMIZER_ARGUMENT_BUILDERS, **MESHGRID_BUILDERS, **REPEAT_INTERLEAVE_BUILDERS,
             **TENSOR_CONSTRUCTOR_BUILDERS,
             **POOLING_BUILDERS, **BUILDERS, **SEQUENCE_DATA_BUILDERS}
_SOURCE_FRAMEWORKS = ("torch", "tensorflow", "torchvision", "torchaudio", "torchtext", "keras")
# The condition of a caveat that holds only where transfer_to_npu patches torch at run time (`torch.jit.script`).
AUTO_MIGRATION = "transfer-to-npu"
_TRANSFER_TO_NPU = "torch_npu.contrib.transfer_to_npu"


def on_reference(context: RuleContext, qualified: str, node: ast.expr, call: ast.Call | None, root: str | None) -> None:
    if context.in_annotation:
        # `x: tf.Tensor`, `model: nn.Module`: a port rewrites the code and the annotation follows; on Ascend an
        # annotation such as `Optional[torch.cuda.Stream]` runs nothing that fails. Nothing to act on.
        return
    view = context.view
    entries = view.by_name.get(qualified)
    canonical = qualified
    written_as = None  # the name as the code spells it, when an alias found the entry (`keras.layers.Dense`)
    if entries is None:
        dot = qualified.find(".")
        if (qualified[:dot] if dot > 0 else qualified) not in view.roots:
            return  # os.path.join, np.zeros: nothing in the knowledge base starts there
        entries, canonical = view.name_entries(qualified)
        if entries is not None:
            written_as = qualified
        else:
            entries = view.prefix_entries(canonical)
    if not entries:
        if (
            context.route == ROUTE_MINDSPORE
            and canonical in context.view.inventory
            and not canonical.rsplit(".", 1)[-1].startswith("_")  # __dict__, _private: not an API
            and canonical.split(".", 1)[0] in _SOURCE_FRAMEWORKS
        ):
            span = context.factory.span(node)
            elsewhere = context.view.other_versions.get(canonical)
            entry = GENERIC_UNSUPPORTED if elsewhere is None else _version_gap(context, elsewhere)
            context.add(context.factory.finding(entry, span, "exact", api=qualified))
        return
    if canonical in CELLS:
        entries = entries_for_cell(context, entries, call)
    factory = context.factory
    span = factory.span(node)
    for entry in entries:
        condition = entry.condition
        if condition == "single-argument" and (call is None or len(call.args) != 1 or call.keywords):
            continue
        if condition == "device-argument":
            continue  # the strings rule reports device arguments where the value is a CUDA device
        if condition == AUTO_MIGRATION and not _auto_migrated(context):
            continue  # jit.script is the identity only under transfer_to_npu; a rewritten source scripts as on CUDA
        if not applies_at(entry, call, context.infer):
            continue  # a restriction this call does not touch
        if context.compared_only and call is None and entry.category == "npu-unsupported":
            continue  # `isinstance(model, nn.DataParallel)`: comparing with the class runs none of it on the NPU
        fix = _fix_for(context, entry, span, call, root)
        reason = None
        if isinstance(fix, NotFixed):
            reason, fix = fix, None
        fix = with_sizes_bracketed(context, entry, call, fix)
        fix = with_fill_dtype(context, entry, call, fix)
        api = qualified if condition == "prefix" else written_as
        message = _compared_layer_message(context, entry, api or entry.api) if call is None else None
        finding = factory.finding(entry, span, "exact", api=api, fix=fix, message=message)
        if message is not None and finding is not None:
            finding = dataclasses.replace(finding, suggestion=f"compare with `{entry.target}`" if "a port compares with"
                                          in message else "remove the test or compare with the port's own class")
        if reason is not None and finding is not None:
            finding = with_reason(finding, reason)
        context.add(finding)


def _auto_migrated(context: RuleContext) -> bool:
    """The module imports transfer_to_npu (`from torch_npu.contrib import transfer_to_npu` or the dotted import)."""
    return any(value == _TRANSFER_TO_NPU or value.startswith(_TRANSFER_TO_NPU + ".") for value in context.module_imports())


# MindSpore targets whose objects a port builds itself: a layer written as the target cell is an instance of it, so an
# isinstance test or a dict key keyed by the class takes the target class and nothing else changes. A layer's weights
# are mindspore.Parameter objects (mindspore 2.10.0: `isinstance(nn.Dense(2, 3).weight, mindspore.Parameter)` is True).
_CELL_TARGETS = ("mindspore.nn.", "mindspore.mint.nn.")
_BUILT_CLASSES = frozenset({"mindspore.Parameter"})
_COMPARED = "is only compared with here (an isinstance argument, a key, an `is` test or type(x))"


def _compared_layer_message(context: RuleContext, entry: Entry, api: str) -> str | None:
    """The headline for a class that is only compared with (`isinstance(m, nn.Linear)`, `{nn.Module: ...}`,
    `cls is torch.optim.LBFGS`): the entry's note says how constructing or subclassing it differs, which a comparison
    does not meet. A class that becomes no MindSpore class (DataParallel: a parallel context) leaves nothing to compare
    with."""
    if not (context.compared_only and context.route == ROUTE_MINDSPORE):
        return None
    if entry.category not in ("ms-differs", "ms-structure") or not entry.api.rsplit(".", 1)[-1][:1].isupper():
        return None
    target = entry.target or ""
    if target.startswith(_CELL_TARGETS) or target in _BUILT_CLASSES:
        return (f"`{api}` {_COMPARED}: a port compares with `{target}`; what differs in building or subclassing it "
                "does not apply here")
    if entry.category == "ms-structure" and not target.rsplit(".", 1)[-1][:1].isupper():
        replaced = f" (a port uses `{target}` instead)" if target else ""
        return (f"`{api}` {_COMPARED}: MindSpore has no class that takes its place{replaced}, so nothing in a port is "
                "an instance of it: remove the test, or compare with what the port builds instead")
    return None


def with_reason(finding: Finding, reason: NotFixed) -> Finding:
    """The finding saying why it has no fix; a form an equivalent entry's target refuses makes it a difference."""
    sentence_end = "" if finding.message.endswith(".") else "."
    finding = dataclasses.replace(finding, message=f"{finding.message}{sentence_end} Not rewritten automatically: {reason}.")
    if isinstance(reason, RefusedForm) and finding.category == "ms-equivalent":
        # equivalent in its usual form, not in this one: a difference at this call
        finding = dataclasses.replace(finding, code="MS102", category="ms-differs", severity="warning")
    return finding


def _fix_for(context: RuleContext, entry: Entry, span, call: ast.Call | None, root: str | None) -> Fix | NotFixed | None:
    if entry.fix == "none":
        return None
    builder = _BUILDERS.get((context.route, entry.api))
    if builder is not None:
        built = builder(context, entry, None, call, span, root)
        if built is not NotImplemented:  # NotImplemented: not this entry's shape (another era's target)
            return built
    # A MindSpore program imports no torch: `import torch` goes with the other torch imports once nothing uses it,
    # also when nothing did before (`import torch` beside `import torch.nn as nn`; issue 17).
    torch_too = bool(root) and root != "torch" and context.route == ROUTE_MINDSPORE and context.lookup("torch") == ("import", "torch")
    fix = context.factory.rename_fix(entry, span, root, also_remove=("torch",) if torch_too else ())
    inplace = passed_inplace(entry.api, entry.target, call) if context.route == ROUTE_MINDSPORE else None
    if fix is None or call is None or not (entry.parameters or inplace is not None):
        return fix
    return adapted_arguments(context, entry, call, fix, inplace)


def adapted_arguments(context: RuleContext, entry: Entry, call: ast.Call, fix: Fix, inplace: int | None = None) -> Fix | NotFixed:
    """`fix` with the call's arguments adapted to the entry's parameter rows (keywords renamed, dropped or complemented),
    or why no fix may be written when the call passes a parameter in a form the target refuses. Functions (above) and
    methods of equivalent entries (methods.py: `x.dot(tensor=y)`) go through it."""
    used = {keyword.arg for keyword in call.keywords if keyword.arg}
    refused = refused_form(entry, call, used)
    if refused is not None:
        return refused
    renames = tuple(
        (difference.source, difference.target)
        for difference in entry.parameters
        if difference.change == "renamed" and difference.source and difference.target
        and (difference.source in used or _passed_by_position(difference, call))
    )
    drops = tuple(
        difference.source
        for difference in entry.parameters
        if difference.change == "removed" and difference.source in used
    ) + (("inplace",) if inplace is not None else ())
    complements = tuple(
        (difference.source, difference.target or difference.source)
        for difference in entry.parameters
        if difference.change == "complement" and difference.source
        and (difference.source in used or _passed_by_position(difference, call))
    )
    positions = tuple(
        (difference.source, difference.position)
        for difference in entry.parameters
        if difference.position is not None and difference.source and difference.change in ("renamed", "complement")
    ) + ((("inplace", inplace),) if inplace is not None else ())
    if not renames and not drops and not complements:
        return fix
    call_span = context.factory.span(call)
    return Fix(
        title=fix.title + " and adapt its arguments",
        safe=fix.safe and not drops,
        edits=fix.edits,
        rewrite=CallArguments(call_span, rename_keywords=renames, drop_keywords=tuple(dict.fromkeys(drops)),
                              complement_keywords=complements, positions=positions),
        add_imports=fix.add_imports,
        remove_imports=fix.remove_imports,
    )


class RefusedForm(NotFixed):
    """The call passes a parameter in a form the target refuses or lacks: a rename cannot be right here."""


# Keywords the general keyword table (pytorch_mindspore_keywords.yaml) reports on every call (MS104): dropping one
# changes where or how a result is stored, not what is computed.
_GENERAL_KEYWORDS = frozenset({"out", "inplace", "device", "dtype", "requires_grad", "pin_memory", "layout",
                               "memory_format", "generator"})


def refused_form(entry: Entry, call: ast.Call, used: set[str]) -> RefusedForm | None:
    """`torch.randint(0, 10, size=(3,))` where mint.randint takes size by position only, `torch.bernoulli(x, p=0.3)`
    where mint.bernoulli has no p, or `transforms.Resize(224, interpolation=InterpolationMode.BICUBIC)` where
    MindSpore's interpolation is its own enum: the rows of an entry called equivalent for its usual form (issue 16's
    hand samples and sweeps) say which forms MindSpore refuses; a call in such a form gets no fix (a rename raises
    TypeError, dropping the argument changes the result)."""
    for difference in entry.parameters:
        source = difference.source
        if not source:
            continue
        if difference.change == "position" and source in used:
            return RefusedForm(f"{entry.target} takes {source} by position only ({source}= raises TypeError there)")
        if entry.category != "ms-equivalent" or not (source in used or _passed_by_position(difference, call)):
            continue
        if difference.change == "removed" and source not in _GENERAL_KEYWORDS:
            return RefusedForm(f"{entry.target} has no {source}; dropping it would change what the call computes")
        if difference.change == "type":
            expected = f" ({difference.target_default} is one)" if difference.target_default else ""
            return RefusedForm(f"{entry.target} takes {difference.target or source} as another type{expected}; "
                               f"torch's value raises TypeError there")
    return None


def _passed_by_position(difference, call: ast.Call) -> bool:
    return difference.position is not None and difference.position < len(call.args)


# --- examples (tests/analysis/test_rule_examples.py runs them) ---------------------------------------------
_FLAGS = (
    Example("npu", """
        import torch
        import torch_npu

        torch.backends.cudnn.benchmark = True  # expect: NPU203
        scaler = torch.cuda.amp.GradScaler()  # expect: NPU101


        def step(loss):
            scaler.scale(loss).backward()
            torch.cuda.synchronize()  # expect: NPU101
            return torch.cuda.max_memory_allocated() / 2**20  # expect: NPU101
        """),
    Example("mindspore", """
        import torch
        from torch import nn


        def build(dim):
            layers = [nn.Linear(dim, dim), nn.LayerNorm(dim)]  # expect: MS101, MS101
            return nn.Sequential(*layers)  # expect: MS102
        """, codes=("MS101", "MS102")),
    Example("npu", """
        import torch
        import torch_npu
        from torch import nn


        def wrap(model):
            return nn.DataParallel(model)  # expect: NPU201


        def pool_for(dims):
            return {1: nn.MaxPool1d, 3: nn.MaxPool3d}[dims]  # expect: NPU201, NPU201


        def expand(x, counts, beams=None):
            repeated = torch.repeat_interleave(x, counts, dim=0)  # expect: NPU401
            return repeated.repeat_interleave(beams)  # expect: NPU401


        def to_nhwc(model):
            return model.to(memory_format=torch.channels_last)  # expect: NPU202
        """, codes=("NPU201", "NPU202", "NPU401")),
    Example("npu", """
        import torch
        import torch_npu
        from torch_npu.contrib import transfer_to_npu  # expect: NPU202 torch_npu.contrib.transfer_to_npu


        @torch.jit.script  # expect: NPU202
        def scale(x):
            return x * 2
        """, codes=("NPU202",)),
    Example("mindspore", """
        from torch import nn


        def is_conv(module):
            return isinstance(module, nn.Conv2d)  # expect: MS101
        """, codes=("MS101",)),
)
_LEAVES_ALONE = (
    Example("npu", """
        import os
        import torch
        import torch_npu


        def run(torch, path):
            torch.cuda.synchronize()  # a parameter named torch: not the module
            return os.path.join(path, "cuda")
        """, codes=("NPU101",)),
    Example("npu", """
        import torch
        import torch_npu
        from torch import nn

        RULES = {nn.MaxPool1d: "pool", nn.MaxPool3d: "pool"}  # keys are looked up, never constructed


        def unwrap(model):
            if isinstance(model, (nn.DataParallel, nn.parallel.DistributedDataParallel)):
                return model.module
            return model if type(model) is not nn.MaxPool3d else None


        def expand(x, n_steps: int, scale: float, beams=6):
            repeated = torch.repeat_interleave(x, n_steps, dim=0)  # a Python number: the output shape is static
            return repeated.repeat_interleave(2 * n_steps, dim=0), repeated.repeat_interleave(int(scale)), repeated.repeat_interleave(beams)


        class Heads(nn.Module):
            def __init__(self, heads: int = 8):
                super().__init__()
                self.heads = heads

            def forward(self, mask):
                nhwc = mask.is_contiguous(memory_format=torch.channels_last)  # asks, converts nothing
                return mask.repeat_interleave(self.heads, 0), nhwc
        """, codes=("NPU201", "NPU202", "NPU401")),
    Example("npu", """
        import torch
        import torch_npu  # the source rewritten, no transfer_to_npu: torch.jit.script scripts as on CUDA


        @torch.jit.script
        def scale(x):
            return x * 2
        """, codes=("NPU202",)),
)


RULE = Rule(name="names", hooks={REFERENCE: on_reference}, flags=_FLAGS, leaves_alone=_LEAVES_ALONE)


def _version_gap(context: RuleContext, elsewhere: Entry) -> Entry:
    version = context.factory.settings.mindspore_version
    return dataclasses.replace(VERSION_GAP, note=(
        f"no mapping is recorded for MindSpore {version}; for MindSpore {elsewhere.target_versions.text} the tables map "
        f"it to {elsewhere.target}"))
