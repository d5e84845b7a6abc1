"""cuda_to_npu.csv → cuda_npu entries (renames, device and backend strings, CUDA methods) and the caveat and
unsupported rows that land in npu_unsupported."""

from __future__ import annotations

import re

from tools.generate_ascend.book import Book
from tools.generate_ascend.curated import AUTO_MIGRATION
from tools.generate_ascend.reference import Row, VersionTables

TRANSFER_TO_NPU = "torch_npu-2.14.0.whl:torch_npu/contrib/transfer_to_npu.py"
DEVICE_ARGUMENT_NOTE = (
    "Pass 'npu' or 'npu:<index>' (or torch.device('npu', index)) instead of a CUDA device. Auto-migration "
    "(transfer_to_npu) rewrites this argument at run time: strings containing 'cuda', torch.device('cuda[:i]'), "
    "dict keys and values, and a bare int become NPU devices."
)
# Rows whose source form is a GPU2Ascend argument rule rather than a plain `api(...)`: the entry they join.
GPU2ASCEND_DEVICE_ROWS = {
    "x.to(<device>)": ("torch.Tensor.to", "method", "tensor"),
    "x.to(<int>) / x.to(device=<int>) / to_empty": ("torch.Tensor.to", "method", "tensor"),
    "torch.cuda.set_device(<dev>) / set_device": ("torch.cuda.set_device", "name", ""),
    "torch.device(<dev>[, idx])": ("torch.device", "name", ""),
    "with torch.device('cuda'):": ("torch.device", "name", ""),
    "torch.load(map_location=<dev>)": ("torch.load", "name", ""),
    "torch.cuda.device(device)": ("torch.cuda.device", "name", ""),
}
# The parameter that takes the device when a row shows it positionally (`torch.Event(cuda)`): torch's own names.
POSITIONAL_DEVICE_PARAMETER = {
    "torch.device": "type",
    "torch.is_autocast_enabled": "device_type",
    "torch.set_autocast_enabled": "device_type",
    "torch.get_autocast_dtype": "device_type",
    "torch.set_autocast_dtype": "device_type",
    "torch.utils.cpp_extension.include_paths": "device_type",
    "torch.distributed.device_mesh.init_device_mesh": "device_type",
    "torch.distributed.device_mesh.DeviceMesh": "device_type",
}
CALL_FORM = re.compile(r"^(?P<api>[A-Za-z_][\w.]*)\((?P<arguments>.*)\)$")
KEYWORD = re.compile(r"^(?P<name>\w+)=")


def npu_target(target: str) -> str:
    """torch_npu.npu.X is reachable as torch.npu.X once torch_npu is imported; the fix writes the torch.npu form."""
    if target.startswith("torch_npu.npu."):
        return "torch.npu." + target[len("torch_npu.npu."):]
    return target


def add_rows(book: Book, rows: list[Row], tables: VersionTables) -> None:
    for row in rows:
        kind = row["kind"]
        if kind == "rename":
            _rename(book, row)
        elif kind == "device_string":
            _device_string(book, row)
        elif kind == "backend_string":
            _backend_string(book, row)
        elif kind == "method":
            _method(book, row)
        elif kind == "caveat":
            _caveat(book, row, tables)
        elif kind == "unsupported":
            _unsupported(book, row, tables)
        else:
            raise ValueError(f"cuda_to_npu.csv row {row.number}: unknown kind {kind!r}")


def _rename(book: Book, row: Row) -> None:
    source, target = row["source_api"], row["target_api"]
    if source == "torch.cuda.<attr>":
        # No fix: the engine would replace the whole reference with the target, and the counterpart may not exist.
        draft = book.entry("cuda_npu", api="torch.cuda", condition="prefix", category="npu-rename", code="NPU101",
                           target="torch.npu", fix="none", severity="warning")
        draft.absorb(row, note="A torch.cuda name with no entry of its own: GPU2Ascend rewrites every attribute of "
                               "torch.cuda to torch.npu, but only the names in torch_npu.npu.__all__ exist there; "
                               "check the name on NPU before renaming.")
        return
    if source.startswith("<obj>.CUDA"):
        draft = book.entry("cuda_npu", api="torch.profiler.ProfilerActivity.CUDA", category="npu-rename",
                           code="NPU101", target="torch_npu.profiler.ProfilerActivity.NPU", fix="safe")
        draft.absorb(row, note="GPU2Ascend renames any `.CUDA` attribute to `.NPU` (ReplaceAttributeRule).")
        return
    if source.startswith("torch.compile(backend='cudagraphs')"):
        draft = book.entry("cuda_npu", api="cudagraphs", match="string", condition="backend", category="npu-rename",
                           code="NPU101", target="npugraphs", fix="safe")
        draft.absorb(row, note="torch.compile(backend='cudagraphs') → backend='npugraphs', which does the same job "
                               "on NPU (msfmktransplt PyTorch 2.8 table).")
        return
    if source == "torch.random.fork_rng":
        # GPU2Ascend's target torch_npu.npu.random.fork_rng is not in the torch_npu 2.14.0 wheel; torch_npu itself
        # calls torch.random.fork_rng(devices, device_type="npu").
        draft = book.entry("cuda_npu", api=source, category="npu-rename", code="NPU101", fix="none")
        draft.absorb(row, note="GPU2Ascend rewrites it to torch_npu.npu.random.fork_rng, which the torch_npu 2.14.0 "
                               "wheel does not define; torch_npu itself calls torch.random.fork_rng(devices, "
                               "device_type='npu'). Keep torch.random.fork_rng and pass device_type='npu'.",
                     source="torch_npu-2.14.0.whl:torch_npu/utils/_inductor.py",
                     parameters=({"source": "device_type", "target": "device_type", "change": "default",
                                  "source_default": "cuda", "target_default": "npu",
                                  "note": "pass device_type='npu' to fork the NPU generators"},))
        return
    readable = npu_target(target)
    note = f"The NPU counterpart is {target}"
    if readable != target:
        note += f" (reachable as {readable} once `import torch_npu` has run)"
    draft = book.entry("cuda_npu", api=source, category="npu-rename", code="NPU101", target=readable, fix="safe")
    draft.absorb(row, note=note + ".")
    draft.absorb(note=_mechanisms(row))


def _mechanisms(row: Row) -> str:
    """Which migration mechanism maps the API, in one short sentence."""
    note = row["note"]
    parts = []
    if "[auto-migration]" in note:
        parts.append("auto-migration (transfer_to_npu) remaps it at run time")
    if "[GPU2Ascend]" in note:
        parts.append("GPU2Ascend rewrites it in the source")
    if not parts:
        return ""
    sentence = " and ".join(parts)
    return sentence[0].upper() + sentence[1:] + "."


def _device_entry_for(source: str) -> tuple[str, str, str, str] | None:
    """(api, match, receiver, device parameter) for a `torch.X(device=cuda)` style row, else None."""
    if source in GPU2ASCEND_DEVICE_ROWS:
        api, match, receiver = GPU2ASCEND_DEVICE_ROWS[source]
        parameter = "map_location" if api == "torch.load" else POSITIONAL_DEVICE_PARAMETER.get(api, "device")
        return api, match, receiver, parameter
    call = CALL_FORM.match(source)
    if call is None:
        return None
    api = call.group("api")
    first_argument = call.group("arguments").split(",")[0].strip()
    keyword = KEYWORD.match(first_argument)
    parameter = keyword.group("name") if keyword else POSITIONAL_DEVICE_PARAMETER.get(api, "device")
    if api == "torch.load":
        parameter = "map_location"  # torch.load takes its device as map_location; auto-migration's row says device
    if api.startswith("torch.Tensor."):
        return api, "method", "tensor", parameter
    if api.startswith("torch.nn.Module."):
        return api, "method", "module", parameter
    return api, "name", "", parameter


def _device_string(book: Book, row: Row) -> None:
    source = row["source_api"]
    if source.startswith("'cuda' ") or source.startswith("'cuda:' "):
        draft = book.find("cuda", match="string", condition="device")
        draft.absorb(row)
        return
    if source.startswith("'torch.cuda' "):
        draft = book.entry("cuda_npu", api="torch.cuda", match="string", condition="tensor-type",
                           category="npu-rename", code="NPU102", target="torch.npu", fix="safe")
        draft.absorb(row, note="A string naming a CUDA tensor type, e.g. x.type('torch.cuda.FloatTensor'): "
                               "GPU2Ascend replaces 'torch.cuda' inside the string with 'torch.npu'.")
        return
    if source == "x.cuda(<idx>)":
        draft = book.find("torch.Tensor.cuda", match="method", receiver="any")
        draft.absorb(row, note="With --specify-device or distributed mode, GPU2Ascend also drops the index "
                               "argument (x.cuda(i) → x.npu()) and selects the device once.")
        return
    found = _device_entry_for(source)
    if found is None:
        raise ValueError(f"cuda_to_npu.csv row {row.number}: cannot read the device form {source!r}")
    api, match, receiver, parameter = found
    draft = book.entry("cuda_npu", api=api, match=match, receiver=receiver, condition="device-argument",
                       category="npu-rename", code="NPU102", fix="none",
                       **({"source_versions": REMOVED_AFTER_2_8[api]} if api in REMOVED_AFTER_2_8 else {}))
    draft.absorb(row, note=DEVICE_ARGUMENT_NOTE)
    if "DEVICE_ID" in row["target_api"]:
        draft.absorb(note="In distributed or --specify-device mode GPU2Ascend writes f'npu:{DEVICE_ID}' here, with "
                          "DEVICE_ID read from the environment.")
    if parameter:
        draft.absorb(parameters=({"source": parameter, "target": parameter, "change": "same",
                                  "note": "a CUDA device here becomes an NPU device"},))


# Private factories of torch 2.8's rule list that torch 2.13.0 no longer has (`kb verify`): the entries say
# where they stopped rather than claim a name that does not resolve.
REMOVED_AFTER_2_8 = {
    "torch._sparse_csr_tensor_unsafe": "<=2.8",
    "torch._sparse_coo_tensor_unsafe": "<=2.8",
}


def _backend_string(book: Book, row: Row) -> None:
    source = row["source_api"]
    if source.startswith("'NCCL'"):
        book.find("NCCL", match="string", condition="backend").absorb(row)
        return
    if source == "(main entry file)":
        book.find("torch.nn.DataParallel").absorb(row)
        return
    draft = book.find("nccl", match="string", condition="backend")
    if source.startswith("backend == 'nccl'"):
        draft.absorb(row, note="Auto-migration replaces the backend only inside init_process_group and new_group; "
                               "user checks such as `backend == 'nccl'` or `assert backend in ['gloo', 'nccl']` must "
                               "be edited by hand.")
    else:
        draft.absorb(row)


def _method(book: Book, row: Row) -> None:
    source = row["source_api"]
    if source in ("x.cuda(...)", "torch.Tensor.cuda"):
        book.find("torch.Tensor.cuda", match="method", receiver="any").absorb(row)
    elif source == "torch.nn.Module.cuda":
        book.find("torch.nn.Module.cuda", match="method", receiver="module").absorb(row)
    elif source in ("x.is_cuda", "torch.Tensor.is_cuda"):
        book.find("torch.Tensor.is_cuda", match="method", receiver="any").absorb(row)
    elif source == "torch.storage.TypedStorage.is_cuda":
        draft = book.entry("cuda_npu", api=source, category="npu-rename", code="NPU105",
                           target="torch.storage.TypedStorage.is_npu", fix="safe")
        draft.absorb(row, note="Auto-migration assigns TypedStorage.is_cuda = TypedStorage.is_npu (torch_npu 2.14.0).")
    else:
        raise ValueError(f"cuda_to_npu.csv row {row.number}: unknown method form {source!r}")


# torch.cuda submodules among the names auto-migration leaves alone: their entries cover every name inside.
CUDA_SUBMODULES = frozenset(f"torch.cuda.{name}" for name in ("nvtx", "jiterator", "tunable", "nccl", "profiler",
                                                               "sparse", "streams", "graphs"))
RESTRICTION_PREFIX = "[PyTorch Analyse table] supported with restriction (PyTorch 2.8 table): "


def _caveat(book: Book, row: Row, tables: VersionTables) -> None:
    source, note = row["source_api"], row["note"]
    if note.startswith(RESTRICTION_PREFIX):
        restriction = note[len(RESTRICTION_PREFIX):].split(" || ")[0]
        add_restriction(book, source, restriction, tables, row)
        return
    special = _CAVEAT_HOMES.get(source)
    if special is not None:
        special(book, row)
        return
    if source.startswith("torch.cuda.") and "not in torch_npu.npu.__all__" in note:
        condition = "prefix" if source in CUDA_SUBMODULES else ""
        draft = book.entry("npu_unsupported", api=source, condition=condition, category="npu-unsupported",
                           code="NPU202", severity="warning")
        target = row["target_api"]
        if target.startswith("torch_npu."):
            draft.fields["target"] = target
            draft.absorb(note=f"The NPU counterpart is {target}, which auto-migration does not map.")
        draft.absorb(row, note="Not in torch_npu.npu.__all__ (torch_npu 2.14.0), so auto-migration leaves it "
                               "pointing at the CUDA implementation; remove or guard this call on NPU.")
        if "only its device argument" in note:
            draft.absorb(note="Only its device argument is rewritten.")
        return
    library = source.split(".")[0]
    if library in ("transformers", "trl", "peft", "accelerate"):
        draft = book.entry("npu_unsupported", api=source, category="npu-unsupported", code="NPU202", severity="info")
        requirement = note.split(":")[0].replace("[auto-migration] ", "")
        draft.absorb(row, note=f"Under auto-migration ({requirement}) torch_npu wraps this library function so that "
                               "its CUDA checks see the original torch.cuda.is_available, i.e. it behaves as on a "
                               "machine without CUDA; check what it decides on NPU.")
        return
    draft = book.entry("npu_unsupported", api=source, category="npu-unsupported", code="NPU202", severity="warning")
    draft.absorb(row, note=f"Under auto-migration: {row['target_api']}. {note.replace('[auto-migration] ', '')}.")


def add_restriction(book: Book, api: str, restriction: str, tables: VersionTables, row: Row | None,
                    extra_source: str = "") -> None:
    """A 'supported with restriction' note of the PyTorch tables: NPU204 for the versions that carry it."""
    match, receiver = api_shape(api)
    for versions in tables.restriction_range(api, restriction) or [">=2.8,<2.9"]:
        draft = book.entry("npu_unsupported", api=api, match=match, receiver=receiver, category="npu-unsupported",
                           code="NPU204", severity=restriction_severity(restriction), source_versions=versions)
        draft.absorb(row, note=restriction_note(restriction), source=extra_source)


# A restriction note that forbids or requires something ("不支持" not supported, "仅" only, "需"/"必须" must,
# "高危" high-risk) is info; a note that only informs (dtype lists, "may fall back to the CPU", a configuration
# tip) is a hint. Neither is a warning: most restrictions concern arguments or dtypes a given call does not use,
# and a warning on every `x.to(...)` of a project buries the findings that need work (lead's review).
_LIMITING_WORDS = ("不支持", "仅", "只支持", "不可", "禁止", "需", "必须", "要保持", "高危", "not supported", "only")


DTYPE_LIST = re.compile(r"^支持[a-z0-9，, ]+$")


def restriction_note(restriction: str) -> str:
    """The restriction first (messages show the first sentence), the dtype list after it; segments as written."""
    segments = restriction.split("; ")
    dtypes = [segment for segment in segments if DTYPE_LIST.match(segment)]
    others = [segment for segment in segments if segment not in dtypes]
    if not others:
        return f"Supported with restriction (msfmktransplt PyTorch table): {restriction}"
    tail = "; ".join(["msfmktransplt PyTorch table, supported with restriction", *dtypes])
    return f"{'; '.join(others).rstrip('。')}。({tail})"


def restriction_severity(restriction: str) -> str:
    return "info" if any(word in restriction for word in _LIMITING_WORDS) else "hint"


def api_shape(api: str) -> tuple[str, str]:
    """(match, receiver) for an API of the PyTorch tables: tensor and module methods are method entries."""
    if api.startswith("torch.Tensor."):
        return "method", "tensor"
    if api.startswith("torch.nn.Module."):
        return "method", "module"
    if re.match(r"^torch\.(optim|distributed\.optim)\.[A-Z]\w*\.\w+$", api):
        return "method", "optimizer"
    if re.match(r"^torch\.(nn|distributed\.fsdp)\.[A-Z]\w*\.\w+$", api):
        return "method", "module"  # a method of an nn.Module subclass, matched on receivers of that type
    return "name", ""


def add_unsupported(book: Book, api: str, tables: VersionTables, row: Row | None, extra_source: str = "") -> None:
    """An API listed unsupported by the PyTorch tables: joins a curated entry, else NPU201 for its versions."""
    match, receiver = api_shape(api)
    curated = book.find(api, match=match, receiver=receiver)
    if curated is not None and curated.fields["category"] == "npu-unsupported":
        ranges = ", ".join(tables.unsupported_range(api)) or ">=2.8,<2.9"
        curated.absorb(row, note=f"msfmktransplt lists it as unsupported for PyTorch {ranges}.", source=extra_source)
        return
    for versions in tables.unsupported_range(api) or [">=2.8,<2.9"]:
        draft = book.entry("npu_unsupported", api=api, match=match, receiver=receiver, category="npu-unsupported",
                           code="NPU201", source_versions=versions)
        draft.absorb(row, note="Listed as unsupported on Ascend NPU by msfmktransplt's PyTorch support table "
                               "(PyTorch Analyse); find a replacement or run this part on the CPU.",
                     source=extra_source)


def _unsupported(book: Book, row: Row, tables: VersionTables) -> None:
    source = row["source_api"]
    if source == "import amp_C":
        book.find("amp_C", match="import").absorb(row)
    elif source.startswith("torch.nn.DataParallel"):
        book.find("torch.nn.DataParallel").absorb(row)
    elif row["note"].startswith("[PyTorch Analyse table]"):
        add_unsupported(book, source, tables, row)
    else:
        raise ValueError(f"cuda_to_npu.csv row {row.number}: unhandled unsupported row {source!r}")


def _join(api: str, **find: str):
    def absorb(book: Book, row: Row) -> None:
        draft = book.find(api, **find)
        if draft is None:
            raise ValueError(f"cuda_to_npu.csv row {row.number}: no curated entry {api!r} to join")
        draft.absorb(row)
    return absorb


# Caveat rows that belong to a curated entry (curated.py creates them first).
_CAVEAT_HOMES = {
    "torch.cuda.DoubleTensor": _join("torch.cuda.DoubleTensor"),
    "torch.jit.script": _join("torch.jit.script", condition=AUTO_MIGRATION),
    "torch.jit.script_method": _join("torch.jit.script_method", condition=AUTO_MIGRATION),
    "torch.utils._triton.has_triton": _join("torch.utils._triton.has_triton"),
    "torch._inductor.utils.get_gpu_type": _join("torch._inductor.utils.get_gpu_type"),
    "torch._utils._get_available_device_type": _join("torch._utils._get_available_device_type"),
    "torch.profiler.profile(experimental_config=...)": _join("torch.profiler.profile"),
    "import torch": _join("torch", match="import", condition="torch-npu-not-imported"),
    "torch.utils.data.DataLoader(dataset, ...)": _join("torch.nn.DataParallel"),
    "model.load_state_dict(...) / model.load_from(...)": _join("torch.nn.DataParallel"),
    "torch.cuda.get_device_properties(...).major / .minor": _join("torch.cuda.get_device_properties"),
}
