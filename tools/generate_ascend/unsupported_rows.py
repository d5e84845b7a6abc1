"""unsupported_or_caveats.csv → npu_unsupported entries: curated caveats (rows 1-24), msfmktransplt's precision
and performance advice (rows 25-51), the APIs unsupported for PyTorch 2.8 and the 2.8 restriction notes."""

from __future__ import annotations

import re

from tools.generate_ascend.book import Book
from tools.generate_ascend.cuda_rows import (
    CUDA_SUBMODULES,
    DTYPE_LIST,
    add_restriction,
    add_unsupported,
)
from tools.generate_ascend.curated import AUTO_MIGRATION
from tools.generate_ascend.reference import Row, VersionTables, table_source

QUALIFIED_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
UNSUPPORTED_PREFIX = "listed as unsupported on NPU for PyTorch 2.8"
RESTRICTION_PREFIX = "supported with restriction (PyTorch 2.8 table): "
NOT_REMAPPED = ("nvtx", "jiterator", "tunable", "get_arch_list", "is_tf32_supported", "temperature", "power_draw",
                "clock_rate", "memory_usage")


def _join(book: Book, row: Row, api: str, note: str = "", suggestion: str = "", parameters=(), **find: str) -> None:
    draft = book.find(api, **find)
    if draft is None:
        raise SystemExit(f"unsupported_or_caveats.csv row {row.number}: no entry {api!r} {find} to join")
    draft.absorb(row, note=note, suggestion=suggestion, parameters=parameters)


def _curated(book: Book, row: Row) -> None:
    """Rows 1-24: each joins the entry that carries its decision."""
    number, workaround = row.number, row["workaround"]
    if number == 1:
        _join(book, row, "apex.optimizers.FusedAdam")
    elif number == 2:
        _join(book, row, "amp_C", match="import")
    elif number == 3:
        _join(book, row, "torch.cuda.default_generators",
              note="msfmktransplt's README lists it as unsupported; torch_npu 2.14.0 auto-migration assigns it lazily "
                   "and 2.1.0.post12 does not.")
    elif number == 4:
        draft = book.find("torch.cuda.get_device_capability")
        draft.fields["fix"] = "unsafe"  # the counterpart returns None: code indexing the result breaks
        draft.absorb(row, note="On NPU it returns None (there is no compute capability) unless the environment "
                               "variable TORCH_NPU_DEVICE_CAPABILITY='major.minor' is set, and that value only serves "
                               "PyTorch compatibility.",
                     suggestion="Replace the None with a fixed (major, minor) tuple where code needs one, or set "
                                "TORCH_NPU_DEVICE_CAPABILITY.")
    elif number == 5:
        _join(book, row, "torch.cuda.get_device_properties",
              note="The NPU properties have no major/minor; only name, total_memory, L2_cache_size, cube_core_num and "
                   "vector_core_num are supported (PyTorch 2.8 table).",
              suggestion="Remove code that reads .major or .minor.")
    elif number == 6:
        _join(book, row, "torch.nn.DataParallel")
    elif number == 7:
        _join(book, row, "torch.channels_last", suggestion="Use the contiguous memory format.")
    elif number == 8:
        _join(book, row, "torch.jit.script", condition=AUTO_MIGRATION)
        _join(book, row, "torch.jit.script_method", condition=AUTO_MIGRATION)
    elif number == 9:
        _join(book, row, "torch.var_mean")
    elif number in (10, 11, 17, 18):
        condition = {10: "int64-multiply", 11: "cross-device-scalar-compare", 17: "zero-dim-data-index",
                     18: "cpu-tensor-to-npu-op"}[number]
        _join(book, row, condition, match="pattern", condition=condition)
    elif number == 12:
        _join(book, row, "torch.utils.tensorboard", match="import")
    elif number == 13:
        _join(book, row, "nccl", match="string", condition="backend")
    elif number == 14:
        _join(book, row, "torch_npu.contrib.transfer_to_npu", match="import")
    elif number == 15:
        _join(book, row, "torch.cuda.DoubleTensor", suggestion=f"Cast before the failing line: {workaround}.")
    elif number == 16:
        _join(book, row, "torch.load", suggestion="Pass map_location='npu' or map_location='cpu'.")
    elif number == 19:
        _join(book, row, "torch.nn.parallel.DistributedDataParallel",
              note="With apex.amp, wrap the model in DistributedDataParallel only after apex.amp.initialize "
                   "(otherwise: RuntimeError: Incoming model is an instance of DistributedDataParallel).")
    elif number == 20:
        _join(book, row, "torch.profiler.profile")
    elif number == 21:
        _join(book, row, "add-softmax-dropout", match="pattern", condition="add-softmax-dropout",
              note="Also not detected by msfmktransplt: bboxes_diou(), bboxes_giou(), LabelSmoothingCrossEntropy(), "
                   "ColorJitter; see their own entries.")
    elif number == 22:
        for api in ("torch.cuda.CUDAGraph", "torch.cuda.graph", "torch.cuda.make_graphed_callables"):
            _join(book, row, api, note="NPU graph capture is supported for inference only, not training (PyTorch 2.8 "
                                       "table): use torch.npu.NPUGraph only for inference.")
    elif number == 23:
        for name in NOT_REMAPPED:
            api = f"torch.cuda.{name}"
            _join(book, row, api, condition="prefix" if api in CUDA_SUBMODULES else "")
    elif number == 24:
        _join(book, row, "torch.utils.data.DataLoader",
              note="Dynamic input shapes trigger repeated operator compilation and slow runs.",
              suggestion="Put torch_npu.npu.set_compile_mode(jit_compile=False) at the training entry (inside the "
                         "spawned main function with mp.spawn); msprof-analyze also suggests "
                         "torch_npu.npu.config.allow_internal_format = False.")
    else:
        raise SystemExit(f"unsupported_or_caveats.csv row {number}: not a curated row")


ADVICE_OPTIMIZERS = {
    "torch.optim.Lamb": "timm.optim.Lamb",
    "torch.optim.BertAdam": "pytorch_pretrained_bert.optimization.BertAdam",
    "torch.optim.AdamP": "timm.optim.AdamP",
    "torch.optim.RMSpropTF": "timm.optim.RMSpropTF",
}


def _advice(book: Book, row: Row) -> None:
    """Rows 25-51: msfmktransplt's precision and performance advice (precision_performance_advice.json)."""
    api, problem, workaround = row["api"], row["problem"], row["workaround"]
    advice = workaround or problem.replace("[precision advice] ", "")
    if api in ("torch.baddbmm", "torch.reshape"):
        _join(book, row, api)
    elif api in ("torch.nn.Embedding", "torch.nn.functional.embedding"):
        book.entry("npu_unsupported", api=api, category="npu-unsupported", code="NPU202", severity="hint").absorb(
            row, note=f"Precision advice (msfmktransplt): {advice}")
    elif api == "torch.matmul":
        _join(book, row, api, note=f"Precision advice (msfmktransplt): {advice}")
    elif api == "torch.Tensor.matmul":
        book.entry("npu_unsupported", api=api, match="method", receiver="tensor", category="npu-unsupported",
                   code="NPU202", severity="hint").absorb(row, note=f"Precision advice (msfmktransplt): {advice}")
    elif api in ADVICE_OPTIMIZERS:
        _join(book, row, ADVICE_OPTIMIZERS[api],
              note=f"msfmktransplt's advice names it {api}, which torch does not have.")
    elif api.startswith("torch.optim.") or api == "torch.nn.Linear":
        _join(book, row, api)
    elif api in ("torch.autograd.set_detect_anomaly", "torch.autograd.detect_anomaly", "torch.autograd.gradcheck"):
        book.entry("npu_unsupported", api=api, category="npu-unsupported", code="NPU202", severity="info").absorb(
            row, note=f"Performance advice (msfmktransplt): {advice}")
    elif api.startswith("torch.utils.data.DataLoader("):
        parameter = api.split("(")[1].split("=")[0]
        _join(book, row, "torch.utils.data.DataLoader", parameters=(
            {"source": parameter, "target": parameter, "change": "same",
             "note": f"performance advice (msfmktransplt): {workaround} ({problem.replace('[performance advice] ', '')})"},))
    elif api.startswith("torch.nn.parallel.DistributedDataParallel"):
        if "(" in api:
            parameter = api.split("(")[1].split("=")[0]
            _join(book, row, "torch.nn.parallel.DistributedDataParallel", parameters=(
                {"source": parameter, "target": parameter, "change": "same",
                 "note": f"performance advice (msfmktransplt): {workaround}"},))
        else:
            _join(book, row, "torch.nn.parallel.DistributedDataParallel",
                  note=f"Performance advice (msfmktransplt): {workaround}")
    elif api.startswith("to(non_blocking"):
        _join(book, row, "torch.Tensor.to", match="method", receiver="tensor", condition="device-argument",
              parameters=({"source": "non_blocking", "target": "non_blocking", "change": "same",
                           "note": f"performance advice (msfmktransplt): {workaround}"},))
    elif api == "torch_npu.npu.set_compile_mode":
        _join(book, row, "torch.utils.data.DataLoader", suggestion=workaround)
    elif api == "TASK_QUEUE_ENABLE":
        _join(book, row, "torch", match="import", condition="torch-npu-not-imported",
              note=f"Performance advice (msfmktransplt): {workaround}")
    elif api == "HCCL_OP_BASE_FFTS_MODE_ENABLE":
        _join(book, row, "nccl", match="string", condition="backend",
              note=f"Performance advice (msfmktransplt): {workaround}")
    else:
        raise SystemExit(f"unsupported_or_caveats.csv row {row.number}: unhandled advice row {api!r}")


def add_rows(book: Book, rows: list[Row], tables: VersionTables) -> None:
    for row in rows:
        problem = row["problem"]
        if row.number <= 24:
            _curated(book, row)
        elif problem.startswith(UNSUPPORTED_PREFIX):
            add_unsupported(book, row["api"], tables, row, extra_source=_listing_sources(tables, row["api"]))
        elif problem.startswith(RESTRICTION_PREFIX):
            restriction = problem[len(RESTRICTION_PREFIX):]
            add_restriction(book, row["api"], restriction, tables, row,
                            extra_source=_restriction_sources(tables, row["api"], restriction))
        else:
            _advice(book, row)


def _listing_sources(tables: VersionTables, api: str) -> str:
    return "; ".join(table_source("op_list", version) for version, names in tables.unsupported.items() if api in names)


def _restriction_sources(tables: VersionTables, api: str, note: str) -> str:
    return "; ".join(table_source("supported_op", version) for version in tables.restrictions
                     if tables.note_in(version, api, note))


def add_older_versions(book: Book, tables: VersionTables) -> int:
    """APIs unsupported in the 2.1/2.6/2.7 tables but not in 2.8: entries for the versions that list them."""
    if not tables.known:
        return 0
    older = set().union(*(tables.unsupported[version] for version in ("2.1", "2.6", "2.7"))) - tables.unsupported["2.8"]
    for api in sorted(older):
        add_unsupported(book, api, tables, None, extra_source=_listing_sources(tables, api))
    return len(older)


def add_older_restrictions(book: Book, tables: VersionTables) -> int:
    """Restriction notes that the 2.1/2.6/2.7 tables carry and 2.8 does not (dtype-only notes left out, as in the CSV)."""
    if not tables.known:
        return 0
    added = 0
    for version in ("2.1", "2.6", "2.7"):
        for api, note in sorted(tables.restrictions[version].items()):
            if not QUALIFIED_NAME.match(api):
                continue  # a key with prose glued to it (one 2.1 row); not an API name
            if not is_meaningful(note) or tables.restrictions["2.8"].get(api) == note:
                continue
            if tables.note_in("2.8", api, note):
                continue
            before = len(book.all_drafts())
            add_restriction(book, api, note, tables, None, extra_source=_restriction_sources(tables, api, note))
            added += len(book.all_drafts()) - before
    return added


def is_meaningful(note: str) -> bool:
    """A note that says more than which dtypes are supported ("-" and dtype lists alone say nothing)."""
    segments = [segment.strip() for segment in note.split("; ") if segment.strip() not in ("", "-")]
    return any(not DTYPE_LIST.match(segment) for segment in segments)
