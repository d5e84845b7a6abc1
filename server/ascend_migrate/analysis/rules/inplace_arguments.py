"""torch layers' `inplace` argument on the MindSpore route: dropped where the MindSpore layer takes none.

`nn.ReLU(True)` or `nn.LeakyReLU(0.2, inplace=True)` renamed as they are raise TypeError in mindspore 2.10
(mindspore.nn.ReLU and mint.nn.ReLU take no argument). An in-place flag only says whether the layer may
overwrite its input's buffer; the value the layer returns is the same either way, so dropping it keeps what
a forward pass computes (a program that reads the overwritten input afterwards is the exception: the layer
call stays where it was, the finding is unsafe).
"""

from __future__ import annotations

import ast

# The position of `inplace` in each torch layer's constructor, read from torch 2.13.0
# (inspect.signature(torch.nn.X.__init__)), so that `ReLU(True)` is found as well as `ReLU(inplace=True)`.
TORCH_INPLACE_POSITION = {
    "torch.nn.AlphaDropout": 1, "torch.nn.CELU": 1, "torch.nn.Dropout": 1, "torch.nn.Dropout1d": 1,
    "torch.nn.Dropout2d": 1, "torch.nn.Dropout3d": 1, "torch.nn.ELU": 1, "torch.nn.FeatureAlphaDropout": 1,
    "torch.nn.Hardsigmoid": 0, "torch.nn.Hardswish": 0, "torch.nn.Hardtanh": 2, "torch.nn.LeakyReLU": 1,
    "torch.nn.Mish": 0, "torch.nn.RReLU": 2, "torch.nn.ReLU": 0, "torch.nn.ReLU6": 0, "torch.nn.SELU": 0,
    "torch.nn.SiLU": 0, "torch.nn.Threshold": 2,
}

# The MindSpore layers (mindspore 2.10.0, inspect.signature) that do take `inplace`: there it is kept.
TAKES_INPLACE = frozenset({
    "mindspore.mint.nn.Dropout", "mindspore.mint.nn.Dropout2d", "mindspore.mint.nn.ELU", "mindspore.mint.nn.Hardtanh",
    "mindspore.mint.nn.ReLU6", "mindspore.mint.nn.SiLU", "mindspore.mint.nn.Threshold",
})


def passed_inplace(api: str, target: str | None, call: ast.Call | None) -> int | None:
    """The torch position of `inplace` when `call` passes it (by keyword or by position) and `target` takes no
    such argument; else None."""
    position = TORCH_INPLACE_POSITION.get(api)
    if position is None or call is None or target is None or target in TAKES_INPLACE:
        return None
    by_keyword = any(keyword.arg == "inplace" for keyword in call.keywords)
    by_position = position < len(call.args) and not any(type(argument) is ast.Starred for argument in call.args[:position + 1])
    return position if by_keyword or by_position else None
