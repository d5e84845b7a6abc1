"""Dtype conditions read from the restriction notes: a note's dtype list ("支持fp16，fp32，int64", msfmktransplt's
supported_op tables) becomes a `when` condition that `ascend-migrate run` checks against the tensor a call passes."""

from __future__ import annotations

import re
from typing import Any

# The tables' abbreviations → torch's dtype names (the tables write every dtype one of these ways).
TABLE_DTYPES = {"fp16": "float16", "fp32": "float32", "bf16": "bfloat16", "fp64": "float64", "uint8": "uint8",
                "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "bool": "bool",
                "complex64": "complex64", "complex128": "complex128"}
# A whole segment that is only the op's dtype list: "支持fp16，fp32，int64". A list with a qualifier ("input支持…",
# "属性mode为constant时，支持…", "带dim场景不支持fp16") says something narrower and is left as prose. A list run into the
# next sentence (a lost <br>: "支持fp16，fp32可能回退至CPU执行") ends where the Chinese text starts.
_DTYPE_SEGMENT = re.compile(r"(?:^|(?<=[;(]))\s*支持((?:[a-z0-9]+)(?:，[a-z0-9]+)*)\s*(?=[;)。\u4e00-\u9fff]|$)")


def dtype_list(text: str) -> tuple[str, str] | None:
    """(the segment as written, the torch dtypes joined by commas) of the first plain dtype list in `text`, or None."""
    for match in _DTYPE_SEGMENT.finditer(text):
        names = match.group(1).split("，")
        if all(name in TABLE_DTYPES for name in names):
            return match.group(0).strip(), ",".join(TABLE_DTYPES[name] for name in names)
    return None


def with_dtype_condition(values: dict[str, Any]) -> None:
    """Adds the dtype condition to a restriction entry (NPU204 and caveats of the PyTorch tables) of a torch function
    or Tensor method whose note lists the op's dtypes. The list concerns the op's input: the Tensor itself for a
    method, the first argument (`input`) for a function; classes (their dtypes concern `forward`) get none."""
    api = values["api"]
    if values.get("category") != "npu-unsupported" or not api.startswith("torch."):
        return
    if values.get("match") == "method":
        if values.get("receiver") != "tensor":
            return
        argument, position = "self", None
    elif values.get("match", "name") == "name" and not values.get("condition") and api.rsplit(".", 1)[-1][:1].islower():
        argument, position = "input", 0
    else:
        return
    found = dtype_list(values.get("note_original") or values.get("note") or "")
    if found is None or any(condition.get("dtypes") for condition in values.get("when") or ()):
        return
    segment, dtypes = found
    condition: dict[str, Any] = {"argument": argument}
    if position is not None:
        condition["position"] = position
    condition["dtypes"] = dtypes.split(",")
    condition["derived_from"] = segment
    values["when"] = [*(values.get("when") or ()), condition]
