"""A layer called with a keyword its MindSpore counterpart names otherwise, MindSpore route: `self.encoder(h,
mask=causal)` → `self.encoder(h, src_mask=causal)` (mindspore.nn.TransformerEncoder.construct(src, src_mask,
src_key_padding_mask); torch's forward(src, mask, ...) raised TypeError after the class was renamed).

The knowledge base's parameter rows marked "(input)" describe the call of the layer, not its constructor; the
renamed ones give the keyword to write. The layer's type is the walker's inference of the called name (an
attribute set in `__init__`, a local), and the call is reported only where it passes such a keyword, so a
positional call (most of them) costs one set lookup per keyword.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.api import CALL, Example, Rule, RuleContext
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.kb.schema import Entry
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_INPUT = "(input)"
# id(view) → (view, the keywords some layer's call renames): computed once per view
_KEYWORDS: dict[int, tuple[object, frozenset[str]]] = {}


def _renamed_inputs(entry: Entry) -> dict[str, str]:
    return {difference.source: difference.target for difference in entry.parameters
            if difference.change == "renamed" and difference.note.startswith(_INPUT)
            and difference.source and difference.target and difference.source != difference.target}


def _call_keywords(view) -> frozenset[str]:
    cached = _KEYWORDS.get(id(view))
    if cached is None or cached[0] is not view:
        names = {source for entries in view.by_name.values() for entry in entries for source in _renamed_inputs(entry)}
        cached = _KEYWORDS[id(view)] = (view, frozenset(names))
    return cached[1]


def on_call(context: RuleContext, node: ast.Call) -> None:
    if not node.keywords or type(node.func) not in (ast.Name, ast.Attribute):
        return
    keywords = _call_keywords(context.view)
    used = [keyword.arg for keyword in node.keywords if keyword.arg in keywords]
    if not used:
        return
    layer = context.infer(node.func)
    if layer is None or not layer.startswith("torch.nn."):
        return
    for entry in context.view.by_name.get(layer, ()):
        renamed = _renamed_inputs(entry)
        renames = tuple((source, renamed[source]) for source in used if source in renamed)
        if not renames or not entry.target:
            continue
        factory = context.factory
        span = factory.span(node)
        written = ", ".join(f"{source}= as {target}=" for source, target in renames)
        message = f"`{layer}` is called with {', '.join(f'{source}=' for source, _ in renames)}: {entry.target} names it otherwise"
        fix = None if entry.fix == "none" else Fix(
            title=f"Pass {written}", safe=False, rewrite=CallArguments(span, rename_keywords=renames))
        context.add(factory.finding(entry, span, "inferred", api=f"{layer}.forward", fix=fix, message=message))


_FLAGS = (
    Example("mindspore", """
        import torch
        from torch import nn


        class TinyLM(nn.Module):
            def __init__(self, vocabulary=100, width=32):
                super().__init__()
                layer = nn.TransformerEncoderLayer(width, 4, batch_first=True)  # expect: MS102
                self.encoder = nn.TransformerEncoder(layer, 2)  # expect: MS102
                self.head = nn.Linear(width, vocabulary)  # a rename (MS101), not watched here

            def forward(self, h):
                t = h.shape[1]
                causal = torch.triu(torch.ones(t, t), diagonal=1).bool()
                h = self.encoder(h, mask=causal)  # expect: MS102
                return self.head(h)
        """, codes=("MS102",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        from torch import nn


        def encode(encoder: nn.TransformerEncoder, h, causal, padding):
            h = encoder(h, causal)
            return encoder(h, src_key_padding_mask=padding)
        """, codes=("MS102",)),
)

RULE = Rule(name="layer_call_keywords", routes=frozenset({ROUTE_MINDSPORE}), hooks={CALL: on_call}, flags=_FLAGS,
            leaves_alone=_LEAVES_ALONE)
