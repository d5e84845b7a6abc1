"""dynamic_shape_ops.csv → npu_dynamic_shape entries, each with the Ascend rewrite advice as its suggestion.

Function and tensor-method forms are separate entries (`torch.nonzero(x)` and `x.nonzero()`); code shapes
(boolean-mask indexing, scalar conversion) are pattern entries."""

from __future__ import annotations

from tools.generate_ascend.book import Book
from tools.generate_ascend.reference import Row

FIXED_SHAPE = "Keep shapes fixed: defer the extraction to the end, or use a masked computation instead."


def _function(api, suggestion="", condition="", severity=None, code="NPU401"):
    return {"api": api, "match": "name", "receiver": "", "condition": condition, "suggestion": suggestion,
            "severity": severity, "code": code}


def _method(api, suggestion="", severity=None):
    return {"api": api, "match": "method", "receiver": "tensor", "condition": "", "suggestion": suggestion,
            "severity": severity, "code": "NPU401"}


def _pattern(condition, label, suggestion, code="NPU402", severity=None):
    """The api of a pattern entry is its short code form (no spaces); the note carries the description."""
    return {"api": label, "match": "pattern", "receiver": "", "condition": condition, "suggestion": suggestion,
            "severity": severity, "code": code}


NONZERO = ("Use mask arithmetic instead of extracting the positions, e.g. tensor_a[mask].sum() → (tensor_a * "
           "mask).sum(); torch.nonzero_static(x, size=..., fill_value=...) gives a fixed-size result.")
ROWS = {
    1: [_function("torch.nonzero", NONZERO), _method("torch.Tensor.nonzero", NONZERO)],
    2: [_function("torch.argwhere", NONZERO), _method("torch.Tensor.argwhere", NONZERO)],
    3: [_function("torch.where", "Use the three-argument form torch.where(condition, x, y), which keeps the shape.",
                  condition="single-argument")],
    4: [_function("torch.masked_select", "Use torch.where(mask, x, 0) or x * mask and reduce afterwards."),
        _method("torch.Tensor.masked_select", "Use torch.where(mask, x, 0) or x * mask and reduce afterwards.")],
    5: [_pattern("boolean-mask-index", "x[mask]",
                 "Keep shapes unchanged and defer the index extraction, e.g. x[mask].sum() → (x * mask).sum().")],
    6: [_pattern("boolean-mask-assignment", "x[mask]=value",
                 "Use torch.where(mask, value, x), x *= ~mask to zero elements, or "
                 "torch_npu.contrib.function.npu_fast_condition_index_put(x, mask, value).")],
    7: [_pattern("integer-tensor-index", "x[index]",
                 "Use torch.index_select (gatherV2 runs on AI Core).", code="NPU401", severity="hint")],
    8: [_pattern("integer-tensor-index-assignment", "x[index]=value",
                 "Convert the index to a mask or use scatter (with few indices, indexing may still be faster).",
                 code="NPU401", severity="hint")],
    9: [_function("torch.unique", FIXED_SHAPE), _method("torch.Tensor.unique", FIXED_SHAPE)],
    10: [_function("torch.unique_consecutive", FIXED_SHAPE), _method("torch.Tensor.unique_consecutive", FIXED_SHAPE)],
    11: [_function("torch.bincount", "Pass minlength and keep inputs bounded, or use scatter_add into a tensor of "
                                     "fixed size."),
         _method("torch.Tensor.bincount", "Use scatter_add into a tensor of fixed size.")],
    12: [_function("torch.repeat_interleave", "Pass output_size so the result shape is known without the data."),
         _method("torch.Tensor.repeat_interleave", "Pass output_size so the result shape is known without the data.")],
    13: [_function("torch.nn.functional.one_hot", "Pass num_classes explicitly.", condition="single-argument")],
    14: [_function("torch.nn.functional.ctc_loss", ""), _function("torch.nn.CTCLoss", "")],
    15: [_function("torch.linalg.lstsq", "")],
    16: [_function("torch.nn.utils.rnn.pack_padded_sequence", "Pad to a fixed length and mask instead of packing.")],
    17: [_method("torch.Tensor.item", "Keep the value on the device; move host decisions out of the training step.",
                 severity="info"),
         _method("torch.Tensor.tolist", "Keep the value on the device.", severity="info"),
         _pattern("tensor-to-python-scalar", "float(tensor)",
                  "Keep the value on the device; compare with torch.where instead of a Python branch.",
                  code="NPU401", severity="info")],
    18: [_function("torch.equal", "", severity="info"), _function("torch.allclose", "", severity="info"),
         _method("torch.Tensor.equal", "", severity="info"), _method("torch.Tensor.allclose", "", severity="info")],
    19: [_function("torch.nonzero_static", "", severity="info")],
    20: [_function("torch.compile", "Set torch._dynamo.config.capture_dynamic_output_shape_ops (environment "
                                    "TORCHDYNAMO_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS=1) and capture_scalar_outputs "
                                    "(TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1) to avoid graph breaks.", severity="info")],
    21: [_function("torch.utils.data.DataLoader", "For dynamic shapes call torch_npu.npu.set_compile_mode("
                                                  "jit_compile=False) at the training entry (for fixed shapes "
                                                  "jit_compile=True); drop_last=True keeps the batch size fixed.",
                   severity="info")],
    22: [_function("torch.utils.data.DataLoader", "", severity="info")],
}
CONTRIB_ROWS = {
    23: ["torch_npu.contrib.module.NpuDropPath"],
    24: ["torch_npu.contrib.module.NpuCachedDropout", "torch_npu.contrib.module.NpuFairseqDropout"],
    25: ["torch_npu.contrib.module.MultiheadAttention"],
    26: ["torch_npu.contrib.function.matmul_transpose"],
    27: ["torch_npu.contrib.function.npu_bbox_coder_encode_yolo"],
    28: ["torch_npu.contrib.function.npu_multiclass_nms"],
    29: ["torch_npu.contrib.function.npu_batched_multiclass_nms"],
    30: ["torch_npu.contrib.function.npu_single_level_responsible_flags"],
}


def add_rows(book: Book, rows: list[Row]) -> None:
    for row in rows:
        if row.number in CONTRIB_ROWS:
            for api in CONTRIB_ROWS[row.number]:
                draft = book.entry("npu_dynamic_shape", api=api, category="npu-dynamic-shape", code="NPU401",
                                   severity="info")
                draft.absorb(row, note=f"torch_npu.contrib limits dynamic shapes here: {row['why']}.")
            continue
        specs = ROWS.get(row.number)
        if specs is None:
            raise SystemExit(f"dynamic_shape_ops.csv row {row.number} has no mapping in dynamic_rows.py")
        for spec in specs:
            fields = {key: spec[key] for key in ("api", "match", "receiver", "condition", "code", "severity")
                      if spec[key]}
            draft = book.entry("npu_dynamic_shape", category="npu-dynamic-shape", **fields)
            draft.absorb(row, note=_why(row), suggestion=spec["suggestion"])


def _why(row: Row) -> str:
    why = row["why"]
    return why + "."
