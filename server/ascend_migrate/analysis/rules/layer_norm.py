"""`nn.LayerNorm` in the ops/nn era (MindSpore before 2.5): `mindspore.nn.LayerNorm(normalized_shape,
begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones', beta_init='zeros', epsilon=1e-07)`.

Renamed alone it fails or changes the numbers: MindSpore takes the shape only as a tuple or list (`LayerNorm(32)`
raises TypeError in mindspore 2.10) and its epsilon is 1e-07 (torch's eps 1e-05). The fix writes the size as a
one-element tuple and torch's eps. A size given as a name or an expression is taken as one int (torch's common
`nn.LayerNorm(d_model)`). Several normalized axes get no fix: MindSpore normalizes from `begin_norm_axis`, which
must lie in [-1, rank) (mindspore 2.10: -2 on a rank-3 input raises RuntimeError), so it needs the input's rank,
which the constructor does not know. elementwise_affine=False and bias=False have no counterpart (no fix).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import renamed_call, source_text
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_TORCH_ORDER = ("normalized_shape", "eps", "elementwise_affine", "bias")
_TORCH_EPS = "1e-05"


def _ops_nn_layer_norm(context, entry, node, call, span, root) -> Fix | None:
    """nn.LayerNorm(d) → mindspore.nn.LayerNorm((d,), epsilon=1e-05); nn.LayerNorm([d], eps) →
    mindspore.nn.LayerNorm((d,), epsilon=eps)."""
    if entry.target != "mindspore.nn.LayerNorm":
        return NotImplemented  # the mint era: mint.nn.LayerNorm has torch's signature
    if call is None or len(call.args) > 2 or any(type(argument) is ast.Starred for argument in call.args):
        return None
    passed: dict[str, ast.expr] = dict(zip(_TORCH_ORDER, call.args, strict=False))
    for keyword in call.keywords:
        if keyword.arg not in _TORCH_ORDER:
            return None  # **options, device, dtype: compared by hand
        passed[keyword.arg] = keyword.value
    for switch in ("elementwise_affine", "bias"):
        value = passed.get(switch)
        if value is not None and not (type(value) is ast.Constant and value.value is True):
            return None  # MindSpore's gamma and beta are always there and trained
    shape = passed.get("normalized_shape")
    if shape is None:
        return None
    if type(shape) in (ast.Tuple, ast.List):
        elements = shape.elts  # type: ignore[attr-defined]
        if len(elements) != 1 or type(elements[0]) is ast.Starred:
            return None  # several axes: begin_norm_axis would need the input's rank
        sizes = [source_text(context, element) for element in elements]
    elif type(shape) in (ast.Constant, ast.Name, ast.Attribute, ast.BinOp, ast.Call):
        if type(shape) is ast.Constant and type(shape.value) is not int:
            return None
        sizes = [source_text(context, shape)]
    else:
        return None
    arguments = [f"({sizes[0]},)"]
    eps = passed.get("eps")
    arguments.append(f"epsilon={source_text(context, eps) if eps is not None else _TORCH_EPS}")
    return renamed_call(context, entry, span, root, call, arguments,
                        "with the size as a tuple and torch's eps written out")


BUILDERS = {(ROUTE_MINDSPORE, "torch.nn.LayerNorm"): _ops_nn_layer_norm}
