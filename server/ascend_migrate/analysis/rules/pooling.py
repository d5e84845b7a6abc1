"""torch.nn.MaxPool2d/AvgPool2d → mindspore.nn.MaxPool2d/AvgPool2d with torch's stride and padding written out.

torch's stride defaults to the kernel size, mindspore.nn's to 1, and mindspore.nn pads only with pad_mode="pad"
(its default "valid" refuses a padding: ValueError in 2.10.0). The tables' rename wrote `mindspore.nn.MaxPool2d(2)`,
which pools with stride 1 (an 8x8 output where torch's is 4x4 on a 9x9 input), and `MaxPool2d(3, 2, padding=1)`, which
does not construct (the siamese_network corpus program). Run side by side (torch 2.13.0, mindspore 2.10.0, CPU):
kernel 2 and 3, stride None/1/2, padding 0/1, for both layers: equal outputs (max |difference| 0.0). The other
arguments (dilation, ceil_mode, return_indices, count_include_pad, divisor_override) have the same names in MindSpore
and need pad_mode="pad" too.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import renamed_call, source_text
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_ORDER = {"torch.nn.MaxPool2d": ("kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"),
          "torch.nn.AvgPool2d": ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")}


def _pooling(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | object:
    order = _ORDER[entry.api]
    if call is None or entry.target != entry.api.replace("torch.", "mindspore.", 1):
        return NotImplemented  # a reference, or another era's target (mint.nn.AvgPool2d takes torch's arguments)
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return NotFixed("arguments passed by * or **: write stride (torch's default: the kernel size) and, with a padding, pad_mode=\"pad\"")
    if len(call.args) > len(order) or any(keyword.arg not in order for keyword in call.keywords):
        return NotImplemented
    passed = {name: argument for name, argument in zip(order, call.args, strict=False)}
    passed.update({keyword.arg: keyword.value for keyword in call.keywords if keyword.arg})
    if "kernel_size" not in passed:
        return NotImplemented
    padding = passed.get("padding")
    if type(padding) is ast.Tuple:
        return NotFixed("a padding tuple: MindSpore's MaxPool2d/AvgPool2d take padding=(top, bottom, left, right) or an int with pad_mode=\"pad\"")
    texts = {name: source_text(context, value) for name, value in passed.items()}
    stride = texts.get("stride", "None")
    texts["stride"] = texts["kernel_size"] if stride == "None" else stride
    keywords = {"kernel_size": texts.pop("kernel_size"), "stride": texts.pop("stride")}
    if texts:
        keywords["pad_mode"] = '"pad"'
        keywords.update(texts)
    return renamed_call(context, entry, span, root, call, [f"{name}={value}" for name, value in keywords.items()],
                        "with torch's stride" + (' and pad_mode="pad"' if "pad_mode" in keywords else ""))


BUILDERS = {(ROUTE_MINDSPORE, api): _pooling for api in _ORDER}
