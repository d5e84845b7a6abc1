"""`nn.EmbeddingBag(...)`, `nn.EmbeddingBag.from_pretrained(...)` (MS237) and `F.embedding_bag(...)` (MS238) on the
MindSpore route: mindspore 2.10 has no embedding bag, so the call becomes a call of the EmbeddingBag class the fix
writes into the file (fixes/templates/embedding_bag.py: torch's constructor, forward and functional), in both eras.

A call the written class does not cover keeps its finding, saying why: `max_norm` (torch renormalises the looked-up
rows of the weight in place) or `scale_grad_by_freq` given a value other than None/False, arguments that cannot be
read (`*args`, `**kwargs`), and an `embedding_bag(...)` imported by its bare name (its fix would call the written
class's static method, which a bare name does not reach).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import written_class_name
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TEMPLATE = "embedding_bag:EmbeddingBag"
LAYER = "torch.nn.EmbeddingBag"
PRETRAINED = "torch.nn.EmbeddingBag.from_pretrained"
FUNCTION = "torch.nn.functional.embedding_bag"
# Positions of max_norm and scale_grad_by_freq in each callable's torch 2.13 signature.
_UNWRITTEN_POSITIONS = {
    LAYER: {"max_norm": 2, "scale_grad_by_freq": 4},
    PRETRAINED: {"max_norm": 2, "scale_grad_by_freq": 4},
    FUNCTION: {"max_norm": 3, "scale_grad_by_freq": 5},
}
# torch.nn layer -> the class the MindSpore route writes for it (parameter_values: its parameters get set_data).
WRITTEN_LAYERS = {LAYER: "EmbeddingBag"}


def not_covered(api: str, call: ast.Call) -> str | None:
    """Why the written class cannot stand for this call of `api`, or None when it can."""
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return "its arguments are unpacked (*args/**kwargs), so whether it asks for max_norm is not known"
    for parameter, position in _UNWRITTEN_POSITIONS[api].items():
        value = call.args[position] if len(call.args) > position else \
            next((keyword.value for keyword in call.keywords if keyword.arg == parameter), None)
        if value is None or (type(value) is ast.Constant and value.value in (None, False)):
            continue
        what = ("torch renormalises the rows it looks up in the weight, in place, to that norm"
                if parameter == "max_norm" else "torch scales each row's gradient by the inverse of its count in the batch")
        return (f"{parameter}={ast.unparse(value)}: {what}, which the EmbeddingBag this fix writes does not do "
                "(fixes/templates/embedding_bag.py); leave it out to get the written class, or write that step")
    return None


def _written_bag(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | None:
    if call is None:
        return None  # the class named, not built (isinstance, a subclass): nothing to write
    reason = not_covered(entry.api, call)
    if reason is not None:
        return NotFixed(reason)
    if entry.api == LAYER:
        callee: ast.expr = call.func
    elif type(call.func) is ast.Attribute:
        callee = call.func.value  # `nn.EmbeddingBag`.from_pretrained, `F`.embedding_bag: the class takes its place
    else:
        return NotFixed("it is called by its bare name: call EmbeddingBag.embedding_bag(...) of the class written for "
                        "nn.EmbeddingBag (fixes/templates/embedding_bag.py) in its place")
    name = written_class_name(context, "EmbeddingBag")
    what = {LAYER: f"`{name}(...)`", PRETRAINED: f"`{name}.from_pretrained(...)`",
            FUNCTION: f"`{name}.embedding_bag(...)`"}[entry.api]
    return Fix(
        title=f"Replace with {what} of an EmbeddingBag written into the file (torch's sum/mean/max bags with offsets, "
              "padding_idx and per_sample_weights; mindspore has none)",
        safe=False,
        rewrite=WrittenDefinition(context.factory.span(callee), TEMPLATE, name),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {(ROUTE_MINDSPORE, api): _written_bag for api in _UNWRITTEN_POSITIONS}
