"""Ops/nn-era rows (MindSpore < 2.5) for torch names the master table maps only to mindspore.mint.

The r2.4.10 table has no row for these names, so `--mindspore-version 2.4` had no answer ("no mapping is recorded
for MindSpore 2.4"). Each row here was derived from the signatures of mindspore 2.10.0 and torch 2.13.0 and a
side-by-side run on the CPU (tests/execution/test_ops_nn_rows.py runs what each fix writes against torch); the
ops/nn API is one the r2.4 documentation has (named in `docs`: the r2.4.10 mapping table, where it lists the API
for another torch name, or the API's own page). docs/knowledge-base-verification.md lists them.
"""

from __future__ import annotations

R24_TABLE = "https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_api_mapping.html"
R24_PAGE = "https://www.mindspore.cn/docs/en/r2.4.0/api_python/{kind}/mindspore.{kind}.{name}.html"
RANGE = "<2.5"
RUN = "tests/execution/test_ops_nn_rows.py"
PROVENANCE = ("derived: signatures of mindspore 2.10.0 and torch 2.13.0+cpu and a side-by-side run on the CPU "
              f"({RUN}); the r2.4.10 table, which this era's rows come from, has no row for this name")


GATHER_PAGE = "https://www.mindspore.cn/docs/en/r2.4.0/api_python/mindspore/Tensor/mindspore.Tensor.gather.html"
GATHER_EVIDENCE = ("the r2.4.0 page of Tensor.gather refers to mindspore.ops.gather(input_params, input_indices, axis, "
                   "batch_dims=0), documented with that signature since r2.0")


def _renamed(source: str, target: str) -> dict:
    return {"source": source, "target": target, "change": "renamed"}


def _removed(source: str, note: str = "") -> dict:
    return {"source": source, "target": None, "change": "removed", **({"note": note} if note else {})}


def _page(kind: str, name: str) -> str:
    return R24_PAGE.format(kind=kind, name=name)


# api → the ops/nn-era row (without api, target_versions, provenance: added by `rows`). `ran` is what the
# side-by-side run compared; "fix": "none" where no rename can serve the call (the note says what to write).
ROWS: dict[str, dict] = {
    "torch.triu": {
        "category": "ms-equivalent", "target": "mindspore.ops.triu", "fix": "unsafe",
        "docs": [_page("ops", "triu")],
        "ran": "triu(a, 1) on float32[4, 5], triu(batch, diagonal=-1) on float32[3, 4, 4]: equal values and dtypes",
    },
    "torch.gather": {
        "category": "ms-differs", "target": "mindspore.ops.gather_elements", "fix": "unsafe",
        "parameters": [_removed("sparse_grad", "MindSpore has no sparse gradient option")],
        "note": ("mindspore.ops.gather_elements(input, dim, index) is torch.gather; mindspore.ops.gather is "
                 "index_select-like (a false friend). sparse_grad has no counterpart."),
        "docs": ["https://www.mindspore.cn/docs/en/r2.4.1/api_python/ops/mindspore.ops.gather_elements.html"],
        "ran": "gather(x, 1, index) and gather(x, dim=1, index=index) on float32[4, 5], int64[4, 3]: equal",
    },
    "torch.nn.functional.one_hot": {
        "category": "ms-differs", "target": "mindspore.ops.one_hot", "fix": "unsafe",
        "parameters": [_renamed("tensor", "indices"),
                       {**_renamed("num_classes", "depth"), "source_default": "-1", "target_default": "(required)",
                        "note": "required in MindSpore: torch's -1 (the largest index + 1) has no counterpart"}],
        "note": ("mindspore.ops.one_hot(indices, depth, on_value=1, off_value=0, axis=-1): depth is required, so "
                 "one_hot(x) without num_classes (or with -1) needs the class count written."),
        "docs": [_page("ops", "one_hot")],
        "ran": "one_hot(labels, 5) and one_hot(labels, num_classes=6) on int64[5]: equal values, both int64",
    },
    "torch.linalg.inv": {
        "category": "ms-equivalent", "target": "mindspore.ops.inverse", "fix": "unsafe",
        "parameters": [_renamed("A", "input"), _removed("out")],
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.inverse to mindspore.ops.inverse",
        "ran": "inv(a) on float32[3, 4, 4] (a batch): equal within 1e-5",
    },
    "torch.arctan2": {
        "category": "ms-equivalent", "target": "mindspore.ops.atan2", "fix": "unsafe",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.atan2 to mindspore.ops.atan2",
        "ran": "arctan2(y, x) and arctan2(y, other=x) on float32[4, 5]: equal",
    },
    "torch.Tensor.arctan2": {
        "category": "ms-equivalent", "target": "mindspore.Tensor.atan2", "fix": "unsafe",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.Tensor.atan2 to mindspore.Tensor.atan2",
        "ran": "y.arctan2(x) and y.arctan2(other=x) on float32[4, 5]: equal",
    },
    "torch.concat": {
        "category": "ms-differs", "target": "mindspore.ops.cat", "fix": "unsafe",
        "parameters": [_renamed("dim", "axis")],
        "note": "mindspore.ops.cat(tensors, axis=0): torch's dim is axis.",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.cat to mindspore.ops.cat",
        "ran": "concat([a, b], 1) and concat((a, b), dim=0) on float32[4, 5]: equal",
    },
    "torch.clone": {
        "category": "ms-differs", "target": "mindspore.ops.deepcopy", "fix": "unsafe",
        "parameters": [_renamed("input", "input_x"), _removed("memory_format")],
        "note": "mindspore.ops.deepcopy(input_x) copies the tensor; memory_format has no counterpart.",
        "docs": ["https://www.mindspore.cn/docs/en/r2.3.0/api_python/ops/mindspore.ops.deepcopy.html"],
        "evidence": "documented in r2.3 and r2.5 and present in 2.10 (deprecated there)",
        "ran": "clone(x) on float32[4, 5]: equal, and a later in-place change of x leaves the copy as it was",
    },
    "torch.empty": {
        "category": "ms-differs", "target": "mindspore.ops.zeros", "fix": "unsafe",
        "parameters": [_removed("out"), _removed("layout"), _removed("device"), _removed("requires_grad"),
                       _removed("pin_memory"), _removed("memory_format")],
        "note": ("mindspore.ops.zeros(size, dtype=None): torch.empty's values are unspecified, zeros are one "
                 "valid answer; the sizes go as one tuple."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.zeros to mindspore.ops.zeros",
        "ran": "empty(2, 3), empty((2, 3), dtype=float64): equal shapes and dtypes",
    },
    "torch.empty_like": {
        "category": "ms-differs", "target": "mindspore.ops.zeros_like", "fix": "unsafe",
        "parameters": [_removed("layout"), _removed("device"), _removed("requires_grad"), _removed("memory_format")],
        "note": "mindspore.ops.zeros_like(input, *, dtype=None): torch.empty_like's values are unspecified, zeros are one.",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.zeros_like to mindspore.ops.zeros_like",
        "ran": "empty_like(x), empty_like(x, dtype=int32): equal shapes and dtypes",
    },
    "torch.special.erfc": {
        "category": "ms-equivalent", "target": "mindspore.ops.erfc", "fix": "unsafe",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.erfc to mindspore.ops.erfc",
        "ran": "erfc(3 * x) on float32[4, 5]; -0.0, 0.0, NaN, inf, -inf: equal within 1e-5",
    },
    "torch.special.exp2": {
        "category": "ms-equivalent", "target": "mindspore.ops.exp2", "fix": "unsafe",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.exp2 to mindspore.ops.exp2",
        "ran": "exp2(3 * x) on float32[4, 5]; -0.0, 0.0, NaN, inf, -inf: equal within 1e-5",
    },
    "torch.special.expm1": {
        "category": "ms-differs", "target": "mindspore.ops.expm1", "fix": "unsafe", "severity": "info",
        "note": "Differs only on edge inputs (see the edge difference); ordinary inputs agree.",
        "edge_difference": ("expm1(-0.0) is -0.0 in torch and 0.0 in MindSpore: a zero of the other sign, as for "
                            "torch.expm1 (edge-input sweep)."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.expm1 to mindspore.ops.expm1",
        "ran": "expm1(x) on float32[4, 5]: equal within 1e-5; expm1(-0.0): 0.0 in MindSpore",
    },
    "torch.special.log1p": {
        "category": "ms-differs", "target": "mindspore.ops.log1p", "fix": "unsafe", "severity": "info",
        "note": "Differs only on edge inputs (see the edge difference); ordinary inputs agree.",
        "edge_difference": ("log1p(-0.0) is -0.0 in torch and 0.0 in MindSpore: a zero of the other sign, as for "
                            "torch.log1p (edge-input sweep)."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.log1p to mindspore.ops.log1p",
        "ran": "log1p(x) on float32[4, 5] (positive): equal within 1e-5; log1p(-0.0): 0.0 in MindSpore",
    },
    "torch.special.sinc": {
        "category": "ms-equivalent", "target": "mindspore.ops.sinc", "fix": "unsafe",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.sinc to mindspore.ops.sinc",
        "ran": "sinc(3 * x) on float32[4, 5]; -0.0, 0.0, NaN, inf, -inf: equal within 1e-5",
    },
    "torch.special.round": {
        "category": "ms-differs", "target": "mindspore.ops.round", "fix": "unsafe", "severity": "info",
        "note": ("mindspore.ops.round(input, *, decimals=0): decimals other than 0 raise RuntimeError on the CPU "
                 "(\"For Round only support decimals equal 0\"); round(x) agrees."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.round to mindspore.ops.round",
        "ran": "round(3 * x) on float32[4, 5]; -0.0, 0.0, NaN, inf, -inf: equal; round(x, decimals=2): MindSpore raised RuntimeError",
    },
    "torch.special.log_softmax": {
        "category": "ms-differs", "target": "mindspore.ops.log_softmax", "fix": "unsafe",
        "parameters": [_renamed("input", "logits"), _renamed("dim", "axis"),
                       _removed("dtype", "the output keeps the input's dtype in MindSpore")],
        "note": "mindspore.ops.log_softmax(logits, axis=-1): dim is axis; dtype has no counterpart.",
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.nn.functional.log_softmax to mindspore.ops.log_softmax",
        "ran": "log_softmax(x, 1) and log_softmax(x, dim=0) on float32[4, 5]: equal within 1e-5",
    },
    "torch.nn.Mish": {
        "category": "ms-differs", "target": "mindspore.nn.Mish", "fix": "unsafe",
        "parameters": [_removed("inplace")],
        "severity": "info",
        "note": "mindspore.nn.Mish() takes no argument: torch's inplace has no counterpart.",
        "edge_difference": "Mish()(inf) is inf in torch and NaN in MindSpore (run on the CPU).",
        "docs": ["https://www.mindspore.cn/docs/en/r2.3/api_python/nn/mindspore.nn.Mish.html"],
        "evidence": "documented in r2.3 (and ops.Mish in r2.4.10) and present in 2.10",
        "ran": "Mish()(x) on float32[4, 5]: equal within 1e-5; inf: NaN in MindSpore",
    },
    "torch.nn.ReflectionPad3d": {
        "category": "ms-differs", "target": "mindspore.nn.ReflectionPad3d", "fix": "unsafe", "severity": "info",
        "note": ("The r2.3 to r2.10 docs say mindspore.nn.ReflectionPad3d does not take 5-D input yet; in mindspore "
                 "2.10.0 on the CPU a 5-D input ran and agreed, earlier releases were not run."),
        "docs": ["https://www.mindspore.cn/docs/en/r2.4.1/api_python/nn/mindspore.nn.ReflectionPad3d.html"],
        "ran": "ReflectionPad3d(1) and ReflectionPad3d((1, 0, 2, 1, 0, 2)) on float32[1, 2, 3, 4, 5]: equal",
    },
    "torch.nn.ZeroPad1d": {
        "category": "ms-differs", "target": "mindspore.nn.ConstantPad1d", "fix": "none",
        "note": ("MindSpore has no ZeroPad1d: write mindspore.nn.ConstantPad1d(padding, 0.0) (the value argument is "
                 "required, so a rename cannot serve the call)."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.nn.ConstantPad1d to mindspore.nn.ConstantPad1d",
        "ran": "ZeroPad1d(2) and ZeroPad1d((1, 3)) against ConstantPad1d(..., 0.0) on float32[2, 3, 5]: equal",
    },
    "torch.nn.ZeroPad3d": {
        "category": "ms-differs", "target": "mindspore.nn.ConstantPad3d", "fix": "none",
        "note": ("MindSpore has no ZeroPad3d: write mindspore.nn.ConstantPad3d(padding, 0.0) (the value argument is "
                 "required, so a rename cannot serve the call)."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.nn.ConstantPad3d to mindspore.nn.ConstantPad3d",
        "ran": "ZeroPad3d(1) and ZeroPad3d((1, 0, 2, 1, 0, 2)) against ConstantPad3d(..., 0.0) on float32[1, 2, 3, 4, 5]: equal",
    },
    "torch.nn.Fold": {
        "category": "ms-differs", "target": "mindspore.ops.fold", "fix": "none",
        "note": ("No ops/nn-era layer: call mindspore.ops.fold(input, output_size, kernel_size, dilation, padding, "
                 "stride) in construct, with output_size as an int32 Tensor (the r2.4.10 table's fold row)."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.nn.functional.fold to mindspore.ops.fold",
        "ran": "Fold((4, 5), 2)(x) against ops.fold(x, Tensor([4, 5], int32), 2) on float32[1, 12, 12]: equal",
    },
    "torch.equal": {
        "category": "ms-differs", "target": "mindspore.ops.equal", "fix": "none",
        "note": ("torch.equal returns one Python bool (False for other shapes); mindspore.ops.equal compares element "
                 "by element. Write a.shape == b.shape and bool(mindspore.ops.equal(a, b).all())."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.eq to mindspore.ops.equal",
        "ran": "equal(a, a), equal(a, b), equal(a, a copied), equal(a, a[:2]) against that expression: the same bools",
    },
    "torch.allclose": {
        "category": "ms-differs", "target": "mindspore.ops.isclose", "fix": "none",
        "note": ("torch.allclose returns one Python bool; mindspore.ops.isclose(input, other, rtol, atol, equal_nan) "
                 "compares element by element: write bool(mindspore.ops.isclose(a, b, ...).all())."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.isclose to mindspore.ops.isclose",
        "ran": "allclose(a, a + 1e-9), allclose(a, b), allclose with atol=10 against that expression: the same bools",
    },
    "torch.select": {
        "category": "ms-differs", "target": "mindspore.ops.gather", "fix": "none",
        "note": ("mindspore.ops.select is torch.where (a false friend). torch.select(x, dim, index) is "
                 "mindspore.ops.gather(x, mindspore.Tensor(index), dim): the argument order differs."),
        "docs": [GATHER_PAGE], "evidence": GATHER_EVIDENCE,
        "ran": "select(x, 1, 2) and select(x, 0, -1) against that call on float32[4, 5]: equal",
    },
    "torch.norm": {
        "category": "ms-differs", "target": "mindspore.ops.norm", "fix": "unsafe",
        "parameters": [_renamed("p", "ord")],
        "note": ("mindspore.ops.norm(A, ord=None, dim=None, keepdim=False): with dim given and with p 'fro' or "
                 "left out it agrees; without dim on a 2-D input a number p (1, 2, inf) is a matrix norm in "
                 "MindSpore and the norm of the flattened input in torch: write mindspore.ops.norm(x.flatten(), p) "
                 "for those."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.linalg.norm to mindspore.ops.norm",
        "ran": ("norm(x), norm(x, 'fro'), norm(x, 2, 1), norm(x, p=1, dim=1) on float32[4, 5]: equal; norm(x, 1), "
                "norm(x, 2), norm(x, inf) on a 2-D input: differ (MindSpore computes a matrix norm)"),
    },
    "torch.nn.functional.normalize": {
        "category": "ms-differs", "target": "mindspore.ops.L2Normalize", "fix": "none",
        "note": ("For p=2 only: mindspore.ops.L2Normalize(axis=dim, epsilon=eps ** 2)(input), a primitive built "
                 "then called; it divides by sqrt(max(sum x^2, epsilon)) where torch divides by max(norm, eps). "
                 "Other p: no ops/nn-era function; compose input / ops.norm(...).clamp(min=eps)."),
        "docs": ["https://www.mindspore.cn/docs/en/r2.4.0/api_python/ops/mindspore.ops.L2Normalize.html"],
        "ran": "normalize(x), normalize(x, dim=0), and all-zero rows against L2Normalize(axis, 1e-24): equal",
    },
    "torch.nn.functional.embedding": {
        "category": "ms-differs", "target": "mindspore.ops.gather", "fix": "none",
        "note": ("F.embedding(input, weight) is mindspore.ops.gather(weight, input, 0): the argument order differs. "
                 "padding_idx only changes the gradient; max_norm (renormalising weight in place) has no "
                 "counterpart here. mindspore.ops.embedding of 2.10 has no CPU kernel (\"The kernel Embedding unregistered\")."),
        "docs": [GATHER_PAGE], "evidence": GATHER_EVIDENCE,
        "ran": "embedding(index, weight) on int64[2, 4], float32[10, 3] against ops.gather(weight, index, 0): equal",
    },
    "torch.nn.functional.relu_": {
        "category": "ms-differs", "target": "mindspore.ops.relu", "fix": "none",
        "note": ("relu_ changes its input in place; mindspore.ops.relu returns a new tensor. As a statement, write "
                 "x = mindspore.ops.relu(x); a rename would change nothing."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.nn.functional.relu to mindspore.ops.relu",
        "ran": "x = ops.relu(x) against F.relu_(x) on float32[4, 5]: equal",
    },
    "torch.Tensor.scatter_add": {
        "category": "ms-differs", "target": "mindspore.ops.tensor_scatter_elements", "fix": "none",
        "note": ("x.scatter_add(dim, index, src) is mindspore.ops.tensor_scatter_elements(x, index, src, dim, 'add'): "
                 "a function with another argument order; mindspore.Tensor.scatter_add of 2.10 has no CPU kernel."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.scatter_add to mindspore.ops.tensor_scatter_elements",
        "ran": "x.scatter_add(1, index, src) on float32[4, 5] against that call: equal",
    },
}


# Session 9 (knowledge9 helper): the last names with only a mint row, each run beside torch where it can run
# (tests/execution/test_ops_nn_rows_session9.py); the names still without a row are listed in
# docs/knowledge-base-verification.md with the reason.
RUN_9 = "tests/execution/test_ops_nn_rows_session9.py"
COMMUNICATION_EVIDENCE = ("mindspore.communication.get_rank, get_group_size and get_world_rank_from_group_rank are "
                          "documented from MindSpore 0.2.0-alpha (https://www.mindspore.cn/api/zh-CN/0.2.0-alpha/api/python/"
                          "mindspore/mindspore.communication.html) and present in 2.10; the r2.4.10 table maps "
                          "torch.distributed.get_rank to mindspore.communication.get_rank")
_ONE_PROCESS = ("in a one-process job on the CPU (msrun --worker_num=1, backend mccl) and without init: the group of one, "
                "so the rank translation itself was not exercised")
ROWS.update({
    "torch.distributed.get_world_size": {
        "category": "ms-differs", "target": "mindspore.communication.get_group_size", "fix": "unsafe",
        "parameters": [{"source": "group", "target": "group", "change": "default", "source_default": "None",
                        "target_default": "GlobalComm.WORLD_COMM_GROUP",
                        "note": "a group's str name in MindSpore; group=None raises TypeError (run)"}],
        "note": ("mindspore.communication.get_group_size(group=GlobalComm.WORLD_COMM_GROUP): the group is a str name "
                 "(create_group), not a ProcessGroup, and None is refused. Without init MindSpore returns 1 where torch "
                 "raises."),
        "docs": [R24_TABLE], "evidence": COMMUNICATION_EVIDENCE,
        "ran": (f"get_group_size() {_ONE_PROCESS}: 1, as torch's get_world_size() in a one-process gloo group; "
                "get_group_size(group=None): TypeError"),
        "run_by": RUN_9,
    },
    "torch.distributed.get_global_rank": {
        "category": "ms-differs", "target": "mindspore.communication.get_world_rank_from_group_rank", "fix": "none",
        "note": ("mindspore.communication.get_world_rank_from_group_rank(group, group_rank_id): the group is the str "
                 "name create_group made; its docs say the CPU and GPU builds lack it and the world group is refused on "
                 "Ascend. Write get_world_rank_from_group_rank(group_name, group_rank)."),
        "docs": [R24_TABLE], "evidence": COMMUNICATION_EVIDENCE,
        "ran": f"get_world_rank_from_group_rank(world group, 0) {_ONE_PROCESS}: 0, as torch's get_global_rank(group, 0)",
        "run_by": RUN_9,
    },
    "torch.distributed.get_group_rank": {
        "category": "ms-differs", "target": "mindspore.communication.get_group_rank_from_world_rank", "fix": "none",
        "note": ("mindspore.communication.get_group_rank_from_world_rank(world_rank_id, group) takes the rank first, "
                 "torch's get_group_rank(group, global_rank) the group: write "
                 "get_group_rank_from_world_rank(global_rank, group_name) (a str group; the world group is refused on "
                 "Ascend, per its docs)."),
        "docs": [R24_TABLE], "evidence": COMMUNICATION_EVIDENCE,
        "ran": f"get_group_rank_from_world_rank(0, world group) {_ONE_PROCESS}: 0, as torch's get_group_rank(group, 0)",
        "run_by": RUN_9,
    },
    "torch.linalg.vector_norm": {
        "category": "ms-differs", "target": "mindspore.ops.norm", "fix": "none",
        "note": ("mindspore.ops.norm(A, ord=None, dim=None, keepdim=False, *, dtype=None) agrees for one int dim: write "
                 "ops.norm(x, ord, dim); with dim None write ops.norm(x.flatten(), ord) (ops.norm(x, ord) is a matrix "
                 "norm on 2-D input and returns None on 3-D); a tuple dim has no ops/nn-era counterpart."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.linalg.norm to mindspore.ops.norm",
        "ran": ("vector_norm with ord 1, 2, 3, inf, -inf, 0, 0.5 on float32[4, 5] and [3, 4, 5]: dim=1 against "
                "ops.norm(x, ord, 1), dim None against ops.norm(x.flatten(), ord), keepdim and dtype by keyword: equal; "
                "ops.norm(x, ord) without dim and a tuple dim differ or fail"),
        "run_by": RUN_9,
    },
    "torch.linalg.matrix_norm": {
        "category": "ms-differs", "target": "mindspore.ops.norm", "fix": "none",
        "note": ("torch's matrix_norm(A, ord='fro', dim=(-2, -1)) is mindspore.ops.norm(A, ord, dim=(-2, -1)) with the "
                 "dim written out: ops.norm's dim defaults to None, which flattens a batch."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.linalg.norm to mindspore.ops.norm",
        "ran": ("matrix_norm with ord 'fro', 'nuc', 1, -1, 2, -2, inf, -inf on float32[4, 5] and a batch [3, 4, 5], and "
                "dim=(0, 1), keepdim=True by keyword, against ops.norm(A, ord, dim): equal"),
        "run_by": RUN_9,
    },
    "torch.nn.functional.conv_transpose2d": {
        "category": "ms-differs", "target": "mindspore.ops.Conv2DTranspose", "fix": "none",
        "note": ("A primitive built then called: mindspore.ops.Conv2DTranspose(out_channel, kernel_size, pad_mode='pad', "
                 "pad=padding, stride=stride, dilation=dilation, group=groups)(input, weight, output_shape), plus "
                 "bias.reshape(1, -1, 1, 1); output_shape (N, C_out, H_out, W_out) carries output_padding. "
                 "ops.conv_transpose2d of 2.10 has no CPU kernel."),
        "docs": ["https://www.mindspore.cn/docs/en/r2.4.10/api_python/ops/mindspore.ops.Conv2DTranspose.html"],
        "evidence": "its r2.4.10 page (read in the zh-CN edition) documents the primitive's (dout, weight, input_size) inputs",
        "ran": ("conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1) on float32[2, 3, 5, 5], w [3, 4, 3, 3] "
                "against that call with output_shape (2, 4, 10, 10): equal within 1e-5 (groups=1 only)"),
        "run_by": RUN_9,
    },
    "torch.Tensor.flatten": {
        "category": "ms-differs", "target": "mindspore.Tensor.flatten", "fix": "none",
        "when": [{"argument": "start_dim by position", "position": 0}],
        "note": ("Before 2.5, mindspore.Tensor.flatten(order='C', *, start_dim=0, end_dim=-1) takes order first, so "
                 "x.flatten(1) passes 1 as order: write x.flatten(start_dim=1) (reported only where start_dim is passed "
                 "by position)."),
        "docs": ["https://www.mindspore.cn/docs/en/r2.4.0/api_python/mindspore/Tensor/mindspore.Tensor.flatten.html"],
        "evidence": "its r2.4.0 page gives Tensor.flatten(order='C', *, start_dim=0, end_dim=-1)",
        "ran": ("x.flatten(start_dim=1) and x.flatten() on float32[2, 3, 5, 5] in mindspore 2.10.0 (the keyword form "
                "both signatures take): torch's shapes and values; the 2.4 signature read from its page, not run"),
        "run_by": RUN_9,
    },
    "torch.Tensor.clamp_": {
        "category": "ms-differs", "target": "mindspore.Tensor.clamp", "fix": "none",
        "note": ("clamp_ changes its tensor in place; mindspore.Tensor.clamp returns a new one and leaves x as it was: "
                 "as a statement write x = x.clamp(min, max); a rename would change nothing."),
        "docs": [R24_TABLE], "evidence": "the r2.4.10 table maps torch.Tensor.clamp to mindspore.Tensor.clamp",
        "ran": ("x = x.clamp(-0.5, 0.5), x.clamp(min=-0.5), x.clamp(max=0.1) against torch's clamp_ on float32[3, 4]: "
                "equal; the receiver of clamp unchanged"),
        "run_by": RUN_9,
    },
})

def rows(api: str) -> list[dict]:
    """The ops/nn-era row of `api` as a generated entry (none when there is none)."""
    derived = ROWS.get(api)
    if derived is None:
        return []
    entry: dict = {"api": api}
    if api.startswith("torch.Tensor."):
        entry.update(match="method", receiver="tensor")
    for key in ("category", "severity", "target"):
        if key in derived:
            entry[key] = derived[key]
    if entry["category"] == "ms-equivalent" and entry.get("receiver") == "tensor":
        entry["code"] = "MS105"  # as the generator's other equivalent tensor methods
    entry["target_versions"] = RANGE
    entry["fix"] = derived["fix"]
    if derived.get("parameters"):
        entry["parameters"] = [dict(row) for row in derived["parameters"]]
    if derived.get("note"):
        entry["note"] = derived["note"]
    if derived.get("edge_difference"):
        entry["edge_difference"] = derived["edge_difference"]
    if derived.get("when"):
        entry["when"] = [dict(condition) for condition in derived["when"]]
    entry["docs"] = list(derived["docs"])
    evidence = derived.get("evidence", "its r2.4 API page (docs)")
    run_by = derived.get("run_by", RUN)
    entry["provenance"] = f"{PROVENANCE.replace(RUN, run_by)}; the target in the ops/nn era: {evidence}"
    entry["verified"] = f"run side by side on the CPU (torch 2.13.0+cpu, mindspore 2.10.0) by {run_by}: {derived['ran']}"
    return [entry]
