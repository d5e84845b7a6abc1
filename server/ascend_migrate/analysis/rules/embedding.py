"""`nn.Embedding` in the ops/nn era (MindSpore before 2.5): `mindspore.nn.Embedding(vocab_size, embedding_size,
embedding_table=...)`, whose table is the parameter `embedding_table` (torch: `weight`, MS222).

mindspore 2.10's nn.Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
dtype=float32, padding_idx=None) fills its table from Normal(sigma=0.01) by default; torch's Embedding from
N(0, 1). The fix writes `embedding_table=mindspore.common.initializer.Normal(1.0)` so the table starts as
torch's does (checked on CPU: the default table's std is about 0.01; int64 indices are taken).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import renamed_call, source_text
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_TORCH_ORDER = ("num_embeddings", "embedding_dim")
_NAMES = {"num_embeddings": "vocab_size", "embedding_dim": "embedding_size"}


def _ops_nn_embedding(context, entry, node, call, span, root) -> Fix | None:
    """nn.Embedding(n, d) → mindspore.nn.Embedding(n, d, embedding_table=mindspore.common.initializer.Normal(1.0))."""
    if entry.target != "mindspore.nn.Embedding":
        return NotImplemented  # the mint era: mint.nn.Embedding has torch's signature and `weight`
    if call is None or len(call.args) > 2 or any(type(a) is ast.Starred for a in call.args):
        return None
    if any(keyword.arg not in _TORCH_ORDER for keyword in call.keywords):
        return None  # padding_idx, max_norm, sparse, _weight, ...: compared by hand
    arguments = [source_text(context, argument) for argument in call.args]
    arguments += [f"{_NAMES[str(keyword.arg)]}={source_text(context, keyword.value)}" for keyword in call.keywords]
    if len(arguments) != 2:
        return None
    arguments.append("embedding_table=mindspore.common.initializer.Normal(1.0)")
    return renamed_call(context, entry, span, root, call, arguments, "with torch's N(0, 1) table written out",
                        imports=("import mindspore",))


BUILDERS = {(ROUTE_MINDSPORE, "torch.nn.Embedding"): _ops_nn_embedding}
