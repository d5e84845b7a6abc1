"""affinity_apis.csv → npu_affinity entries: named APIs with a fused torch_npu counterpart (NPU301) and code
shapes the engine recognises by pattern name (NPU302). Each row is mapped by hand; the table says which."""

from __future__ import annotations

import json
from pathlib import Path

from tools.generate_ascend.book import Book
from tools.generate_ascend.reference import Row

DEPRECATED = "torch_npu 2.14.0 marks {old} deprecated{instead}; earlier releases were not checked."
FUSED_OPTIMIZER_NOTE = ("torch_npu's fused optimizers require that the parameters are not re-allocated during "
                        "training (no .cpu() on the model, no reassigning a parameter or setting it to None); "
                        "numerics may differ slightly.")


def _name(api, target, note="", fix="unsafe", severity=None, versions="*", code="NPU301", receiver="",
          match="name", condition=""):
    return {"kind": "entry", "api": api, "target": target, "note": note, "fix": fix, "severity": severity,
            "source_versions": versions, "code": code, "receiver": receiver, "match": match, "condition": condition}


def _pattern(condition, label, target, note="", severity=None, versions="*", api=None):
    """A code shape: the api is the pattern name (api names have no spaces), the note describes the shape."""
    return _name(api or condition, target, f"Code shape: {label}. {note}", fix="none", severity=severity,
                 versions=versions, code="NPU302", match="pattern", condition=condition)


def _caveat(api, note, receiver="", match="name"):
    """Precision advice that names no faster API: an NPU202 entry in npu_unsupported."""
    return {"kind": "caveat", "api": api, "note": note, "receiver": receiver, "match": match}


OPTIMIZERS = {
    1: ("torch.optim.SGD", "torch_npu.optim.NpuFusedSGD"),
    2: ("torch.optim.Adam", "torch_npu.optim.NpuFusedAdam"),
    3: ("torch.optim.AdamW", "torch_npu.optim.NpuFusedAdamW"),
    4: ("torch.optim.Adadelta", "torch_npu.optim.NpuFusedAdadelta"),
    5: ("torch.optim.RMSprop", "torch_npu.optim.NpuFusedRMSprop"),
    # The tool's advice names torch.optim.RMSpropTF / Lamb / AdamP / BertAdam, which torch does not have: these are
    # timm's and pytorch-pretrained-bert's optimizers (timm/optim/__init__.py exports AdamP, Lamb, RMSpropTF).
    6: ("timm.optim.RMSpropTF", "torch_npu.optim.NpuFusedRMSpropTF"),
    7: ("timm.optim.Lamb", "torch_npu.optim.NpuFusedLamb"),
    8: ("pytorch_pretrained_bert.optimization.BertAdam", "torch_npu.optim.NpuFusedBertAdam"),
    9: ("timm.optim.AdamP", "torch_npu.optim.NpuFusedAdamP"),
}

ROWS = {
    10: [_name("torch.nn.utils.clip_grad_norm_", "torch_npu.optim.NpuFusedOptimizerBase.clip_grad_norm_fused_",
               "With a torch_npu fused optimizer, call optimizer.clip_grad_norm_fused_(max_norm, norm_type) instead "
               "of torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, norm_type); it is a method of the "
               "NpuFused* optimizers only (msprof-analyze op sequence add-reciprocal-mul). Rewritten only where the one "
               "optimizer in scope is known to be an NpuFused* (after its own NPU301 rename; rules/fused_optimizers.py); "
               "otherwise advice.", fix="unsafe")],
    25: [_name("torch.matmul", "torch_npu.contrib.function.matmul_transpose",
               "msfmktransplt's affinity list matches every torch.matmul; matmul_transpose is the fused form for a "
               "matmul with a transposed second operand.", fix="none", severity="hint")],
    26: [_name("torch.roll", "torch_npu.contrib.function.roll", "NPU-affine roll from torch_npu.contrib.")],
    27: [_name("torch.nn.SiLU", "torch_npu.contrib.module.SiLU",
               "msfmktransplt's affinity list suggests torch_npu.contrib.module.SiLU (calls torch_npu.npu_silu). "
               + DEPRECATED.format(old="contrib SiLU", instead=" in favour of torch.nn.SiLU"),
               severity="hint", versions="<2.14")],
    28: [_pattern("boolean-mask-assignment", "input[condition] = value (boolean-mask index_put)",
                  "torch_npu.contrib.function.npu_fast_condition_index_put",
                  "msfmktransplt's 'special' affinity pattern: an assignment to x[mask] with a tensor mask. The "
                  "docstring notes the native index_put may be faster in some cases.", api="input[condition]=value")],
    29: [_pattern("add-softmax-dropout", "dropout(softmax(x + mask))",
                  "torch_npu.contrib.function.fuse_add_softmax_dropout",
                  "self.dropout(nn.functional.softmax(torch.add(attn_scores, attn_mask))) is one fused op; "
                  "msfmktransplt's affinity analysis does not detect it.")],
    30: [_name("bboxes_diou", "torch_npu.npu_diou",
               "A user-defined DIoU function: torch_npu.contrib lists npu_diou, which torch_npu 2.14.0 deprecates in "
               "favour of torch_npu.npu_diou (backward only for trans=True, is_cross=False, mode=iou).",
               fix="none", code="NPU302", match="pattern", condition="function-name")],
    31: [_name("bboxes_ciou", "torch_npu.npu_ciou",
               "A user-defined CIoU function: contrib npu_ciou is deprecated in torch_npu 2.14.0 in favour of "
               "torch_npu.npu_ciou.", fix="none", code="NPU302", match="pattern", condition="function-name")],
    32: [_name("bboxes_giou", "torch_npu.npu_giou",
               "A user-defined GIoU (loss) function: contrib npu_giou is deprecated in torch_npu 2.14.0 in favour of "
               "torch_npu.npu_giou; only trans=True (xywh), is_cross=False.", fix="none", code="NPU302",
               match="pattern", condition="function-name")],
    33: [_pattern("box-iou", "pairwise N x M box IoU (xyxy)", "torch_npu.npu_iou",
                  "torch_npu.npu_iou / torch_npu.npu_ptiou (the contrib forms are deprecated in 2.14.0); npu_iou adds "
                  "0.001 to numerator and denominator and has no backward, so not for an IoU loss.")],
    34: [_name("LabelSmoothingCrossEntropy", "torch_npu.contrib.module.LabelSmoothingCrossEntropy",
               "A user-defined label-smoothing cross entropy; msfmktransplt's affinity analysis does not detect it.",
               fix="none", code="NPU302", match="pattern", condition="class-name")],
    35: [_name("torchvision.transforms.ColorJitter", "torch_npu.contrib.module.FusedColorJitter",
               "matmul+add implementation, about 20% faster (docstring). "
               + DEPRECATED.format(old="FusedColorJitter", instead=" (use torchvision's ColorJitter)"),
               severity="hint", versions="<2.14")],
    36: [_name("torch.nn.LSTM", "torch_npu.contrib.BiLSTM",
               "For bidirectional=True: NPU did not support bidirectional torch.nn.LSTM, so BiLSTM joins two "
               "unidirectional LSTMs (docstring). " + DEPRECATED.format(old="BiLSTM", instead=""),
               fix="none", severity="hint", versions="<2.14")],
    37: [_pattern("bert-self-attention", "BERT self-attention block", "torch_npu.contrib.npu_fused_attention",
                  "Fused BERT self-attention.")],
    38: [_pattern("bert-self-attention", "BERT self-attention block", "torch_npu.contrib.npu_fused_attention",
                  "The variant with LayerNorm, torch_npu.contrib.npu_fused_attention_with_layernorm, is deprecated in "
                  "torch_npu 2.14.0: use torch_npu.npu_fusion_attention and torch.nn.LayerNorm.")],
    39: [_pattern("dataloader-prefetch", "prefetching DataLoader batches to the device", "torch_npu.contrib.Prefetcher",
                  "Pass a defined torch.npu.Stream if the prefetcher is re-created repeatedly (memory leak "
                  "otherwise).")],
    40: [_name("torch.nn.Dropout", "torch_npu.contrib.module.DropoutWithByteMask",
               "Stateless dropout with a uint8 mask; faster only on 32-core devices; inplace not supported."),
         _name("torch.nn.functional.dropout", "torch_npu.contrib.function.dropout_with_byte_mask",
               "Stateless dropout with a uint8 mask; faster only on 32-core devices; inplace not supported.")],
    41: [_name(f"torch.nn.{name}", f"torch_npu.contrib.module.Fast{name}",
               "Keeps num_batches_tracked as int32 instead of int64 (docstring).")
         for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm")],
    43: [_name("torch.nn.SiLU", "torch_npu.contrib.module.SiLU",
               "torch_npu.contrib.module.SiLU (alias Swish) calls torch_npu.npu_silu.", severity="hint",
               versions="<2.14")],
    44: [_pattern("transpose-reshape", "permute/transpose followed by reshape/view (or the reverse)",
                  "torch_npu.npu_confusion_transpose",
                  "msprof-analyze op-sequence rules (CANN 6.3.RC2): (permute|transpose)-(contiguous){0,1}-"
                  "(reshape|view) and (reshape|view)-(contiguous){0,1}-(permute|transpose).")],
    45: [_name("torch.nn.functional.gelu", "torch_npu.fast_gelu",
               "msprof-analyze rule (CANN 6.3.RC2) gelu → torch_npu.fast_gelu.")],
    46: [_pattern("scaled-masked-softmax", "softmax of scaled, masked scores", "torch_npu.npu_scaled_masked_softmax",
                  "msprof-analyze op sequences softmax-(mul){0,1}-(masked_fill_) and softmax-(mul){0,1}-(add).")],
    47: [_name("torch.nn.utils.clip_grad_norm_", "torch_npu.optim.NpuFusedOptimizerBase.clip_grad_norm_fused_",
               fix="none")],
    48: [_pattern("scaled-dot-product-attention", "attention: softmax(mask(scale * q @ k^T)) [dropout] @ v",
                  "torch_npu.npu_fusion_attention",
                  "msprof-analyze op sequence (CANN 7.0.RC1): matmul-(add)-(mul)-(masked_fill_|add)-softmax-"
                  "(dropout)-matmul.")],
    49: [_pattern("rotary-embedding", "RoPE: x * cos + rotate_half(x) * sin", "torch_npu.npu_rotary_mul",
                  "msprof-analyze op sequence (CANN 7.0.RC1): (chunk|slice)-neg-cat-(mul){0,2}-add.")],
    50: [_pattern("rms-norm", "RMSNorm: x * rsqrt(mean(x ** 2, -1) + eps) * weight", "torch_npu.npu_rms_norm",
                  "msprof-analyze op sequence (CANN 7.0.0): (pow)-(mean)-(add)-rsqrt-mul-(type_as).")],
    51: [_pattern("swiglu", "SwiGLU: silu(x1) * x2 with x1, x2 = chunk(x, 2, -1)", "torch_npu.npu_swiglu",
                  "msprof-analyze op sequences (CANN 7.0.0): (slice|chunk) with silu and mul, or sigmoid-mul-mul.")],
    52: [_pattern("geglu", "GeGLU: gelu(x1) * x2 with x1, x2 = split of the last dim", "torch_npu.npu_geglu",
                  "msprof-analyze op sequences (CANN 8.0.RC1): (slice|chunk)-gelu-mul, (slice|chunk)-mul-gelu.")],
    53: [_pattern("group-norm-silu", "GroupNorm followed by SiLU", "torch_npu.npu_group_norm_silu",
                  "msprof-analyze op sequence (CANN 8.0.RC1): group_norm-silu.")],
    54: [_pattern("mul-mul-add", "two multiplications added (beta * input + alpha * product)", "torch.addmm",
                  "msprof-analyze op sequence (CANN 8.0.RC1): mul-mul-add → torch.addmm.")],
    55: [_pattern("add-layer-norm", "layer_norm(x + residual)", "torch_npu.npu_add_layer_norm",
                  "msprof-analyze op sequence (CANN 8.0.RC1): add-layer_norm.")],
    56: [_pattern("matmul-add", "matmul followed by add", "mindspeed.ops.npu_matmul_add",
                  "msprof-analyze op sequence (CANN 8.0.RC3): matmul-add; the target is in MindSpeed "
                  "(mindspeed.ops), not torch_npu.")],
    57: [_pattern("moe-token-permute", "MoE token permutation: argsort(argsort(...)) then index_select",
                  "mindspeed.ops.npu_moe_token_permute",
                  "msprof-analyze op sequence (CANN 8.0.RC3): argsort-argsort-index_select; MindSpeed op.")],
    58: [_pattern("moe-token-unpermute", "MoE token un-permutation: index_select, mul, sum",
                  "mindspeed.ops.npu_moe_token_unpermute",
                  "msprof-analyze op sequence (CANN 8.0.RC3): index_select-mul-reduce_sum; MindSpeed op.")],
    59: [_pattern("scaled-masked-softmax", "softmax of scaled, masked scores", "torch_npu.npu_scaled_masked_softmax",
                  "torch.softmax((x * scale).masked_fill(mask, -inf), dim=-1) → torch_npu.npu_scaled_masked_softmax("
                  "x, mask, scale); the last dim of the scores and mask must be in [32, 8192] and a multiple of 32.")],
    60: [_name("torch.nn.functional.gelu", "torch_npu.fast_gelu",
               "fast_gelu is a different approximation: outputs differ from native gelu."),
         _name("torch.nn.GELU", "torch_npu.fast_gelu",
               "fast_gelu is a different approximation: outputs differ from native gelu.")],
    61: [_pattern("rms-norm", "RMSNorm: x * rsqrt(mean(x ** 2, -1) + eps) * weight", "torch_npu.npu_rms_norm",
                  "torch_npu.npu_rms_norm(x, weight, epsilon=eps)[0]: it returns a tuple; float16, bfloat16 and "
                  "float32 only.")],
    62: [_pattern("swiglu", "SwiGLU: silu(x1) * x2 with x1, x2 = chunk(x, 2, -1)", "torch_npu.npu_swiglu",
                  "torch_npu.npu_swiglu(x, dim=-1) computes silu(first half) * second half; float16, bfloat16 and "
                  "float32.")],
    63: [_pattern("rotary-embedding", "RoPE: x * cos + rotate_half(x) * sin", "torch_npu.npu_rotary_mul",
                  "torch_npu.npu_rotary_mul(x, cos, sin); rotary_mode 'half' (default) or 'interleave'.")],
    64: [_pattern("scaled-dot-product-attention", "attention: softmax(mask(scale * q @ k^T)) [dropout] @ v",
                  "torch_npu.npu_fusion_attention",
                  "torch_npu.npu_fusion_attention(q, k, v, head_num, input_layout, ...): fused FlashAttention-style "
                  "attention; input_layout e.g. BSH or BNSD.")],
    65: [_pattern("transpose-reshape", "permute/transpose followed by reshape/view (or the reverse)",
                  "torch_npu.npu_confusion_transpose",
                  "torch_npu.npu_confusion_transpose(x, perm, shape, transpose_first) fuses transpose and reshape.")],
    66: [_name("torch.nn.Linear", "torch_npu.npu_linear",
               "For 2-D/3-D input: a subclass of nn.Linear whose forward calls torch_npu.npu_linear (msfmktransplt "
               "performance advice).", fix="none")],
    67: [_name("torch.nn.CrossEntropyLoss", "torch_npu.npu_cross_entropy_loss",
               "Fuses log_softmax and nll_loss to save memory.", fix="none")],
    68: [_pattern("add-rms-norm", "residual add followed by RMSNorm", "torch_npu.npu_add_rms_norm",
                  "Fused Add + RMSNorm.")],
    69: [_pattern("group-norm-silu", "GroupNorm followed by SiLU", "torch_npu.npu_group_norm_silu",
                  "Returns (out, mean, rstd).")],
    70: [_pattern("geglu", "GeGLU: gelu(x1) * x2 with x1, x2 = split of the last dim", "torch_npu.npu_geglu",
                  "torch_npu.npu_gelu_mul(input, approximate=...) is the other fused form; recommended only when "
                  "the last axis is 32-byte aligned.")],
    71: [_name("torch.nn.functional.gelu", "torch_npu.fast_gelu",
               "torch_npu.npu_gelu(x, approximate='none'|'tanh') is the NPU GELU with the same approximations.")],
    72: [_pattern("rotary-embedding", "RoPE: x * cos + rotate_half(x) * sin", "torch_npu.npu_rotary_mul",
                  "For query and key together (inference): torch_npu.npu_apply_rotary_pos_emb(query, key, cos, sin, "
                  "layout='BSND') updates both in place.")],
    73: [_pattern("grouped-matmul-loop", "a loop of per-expert or per-group matmuls (MoE)",
                  "torch_npu.npu_grouped_matmul", "Groups several matmuls into one call.")],
    74: [_name("torch.max", "torch_npu.npu_max", "With dim: NPU-optimised, returns values and indices (beta API).",
               fix="none", severity="hint"),
         _name("torch.min", "torch_npu.npu_min", "With dim: NPU-optimised, returns values and indices (beta API).",
               fix="none", severity="hint")],
    75: [_name("torch.sort", "torch_npu.npu_sort_v2", "When the indices are not needed: returns values only (beta).",
               fix="none", severity="hint")],
    76: [_name("torch.nn.functional.one_hot", "torch_npu.npu_one_hot", "One-hot with on_value/off_value (beta).",
               fix="none", severity="hint")],
    77: [_name("torch.nn.functional.layer_norm", "torch_npu.npu_layer_norm_eval",
               "In evaluation: same as F.layer_norm, NPU-optimised (beta).", fix="none", severity="hint")],
    78: [_name("torch.scatter", "torch_npu.npu_scatter", "Similar to torch.scatter, NPU-optimised (beta).",
               fix="none", severity="hint")],
    79: [_name("torch.nn.functional.dropout", "torch_npu.contrib.function.dropout_with_byte_mask",
               "torch_npu._npu_dropout(x, p) is a seedless dropout returning (output, mask) (beta).")],
    80: [_caveat("torch.reshape", "Precision advice (msfmktransplt): this API may overflow in backward; try "
                                  "torch_npu.npu_confusion_transpose (permute + reshape).")],
    81: [_caveat("torch.baddbmm", "Precision advice (msfmktransplt): this API may overflow; try torch.bmm() + add.")],
}


def _signature_rows(resource: dict) -> dict[int, list[dict]]:
    """Rows 11-24: user-defined functions and classes matched by their exact parameter lists."""
    functions = resource["function"]
    classes = resource["class"]
    order = ["single_level_responsible_flags", "encode", "decode", "multiclass_nms", "fast_nms", "channel_shuffle"]
    rows: dict[int, list[dict]] = {}
    for number, name in enumerate(order, start=11):
        spec = functions[name]
        target = spec["affinity_function"]
        note = "msfmktransplt matches a function with exactly this name and parameter list."
        if target.endswith("npu_bbox_coder_decode_xyxy2xywh"):
            # Known mistake of the affinity list: the 2.14.0 wheel exports only the xywh2xyxy decoder.
            target = "torch_npu.contrib.function.npu_bbox_coder_decode_xywh2xyxy"
            note += (" Corrected target: the list names npu_bbox_coder_decode_xyxy2xywh, which torch_npu 2.14.0 "
                     "does not export; the wheel exports npu_bbox_coder_decode_xywh2xyxy.")
        label = f"{name}({','.join(spec['parameter'])})"
        rows[number] = [_name(label, target, note, fix="none", code="NPU302", match="pattern",
                              condition="function-signature")]
    class_order = ["MultiheadAttention", "FairseqDropout", "Mish", "ModulatedDeformConv2dFunction", "DropPath", "Focus",
                   "PSROIPool", "ROIAlign"]
    for number, name in enumerate(class_order, start=17):
        spec = classes[name]
        target = spec["affinity_class"]
        note = "msfmktransplt matches a class with exactly these __init__ and forward parameter lists."
        if target == "ModulatedDeformConv":
            target = "torch_npu.contrib.module.ModulatedDeformConv"
            note += (" The list gives the bare name ModulatedDeformConv; it is torch_npu.contrib.module.ModulatedDeformConv"
                     " (fp32 only; conv_offset weight and bias must be initialised to 0).")
        if name == "Mish":
            target = "torch.nn.Mish"
            note += (" The list suggests torch_npu.contrib.module.Mish, which torch_npu 2.14.0 deprecates in favour "
                     "of torch.nn.Mish.")
        label = (f"{name}({spec['parent_class_name']}):__init__({','.join(spec['__init__'])});"
                 f"forward({','.join(spec['forward'])})")
        rows[number] = [_name(label, target, note, fix="none", code="NPU302", match="pattern",
                              condition="class-signature")]
    return rows


def add_rows(book: Book, rows: list[Row], resource_directory: Path | None) -> None:
    specs = dict(ROWS)
    if resource_directory is None:
        raise SystemExit("affinity rows 11-24 need msfmktransplt's affinity_list_1_11_0.json (--resources)")
    resource = json.loads((resource_directory / "affinity_list_1_11_0.json").read_text(encoding="utf-8"))
    specs.update(_signature_rows(resource))
    specs[42] = [specs[19][0]]  # "class Mish (custom) / torch.nn.Mish": the same user-defined Mish class.
    for number, (api, target) in OPTIMIZERS.items():
        note = ("torch_npu's fused optimizer for this one; msfmktransplt's advice names the Ascend apex form "
                f"apex.optimizers.{target.rsplit('.', 1)[1]}. {FUSED_OPTIMIZER_NOTE}")
        specs[number] = [_name(api, target, note)]
    for row in rows:
        row_specs = specs.get(row.number)
        if not row_specs:
            raise SystemExit(f"affinity_apis.csv row {row.number} has no mapping in affinity_rows.py")
        for spec in row_specs:
            _add(book, row, spec)


def _add(book: Book, row: Row, spec: dict) -> None:
    if spec["kind"] == "caveat":
        draft = book.entry("npu_unsupported", api=spec["api"], match=spec["match"], receiver=spec["receiver"],
                           category="npu-unsupported", code="NPU202", severity="hint")
        draft.absorb(row, note=spec["note"])
        return
    fields = {key: spec[key] for key in ("api", "match", "receiver", "condition", "code", "target", "fix", "severity",
                                         "source_versions") if spec[key]}
    draft = book.entry("npu_affinity", category="npu-affinity", **fields)
    note = spec["note"]
    if note.startswith("Code shape: ") and any(earlier.startswith(note.split(". ", 1)[0]) for earlier in draft.notes):
        note = note.split(". ", 1)[1]  # the shape is already described by an earlier row
    draft.absorb(row, note=note)
