"""Hand-written entries that the reference rows join: the generic string rules, the CUDA methods, DataParallel,
the cuDNN/CUDA backend switches and the caveats the CSVs describe in prose. Created before any row is read,
so their fields (category, target, fix) are the reviewed decision and rows only add evidence."""

from __future__ import annotations

from tools.generate_ascend.book import Book

WHEEL = "torch_npu-2.14.0.whl"
MSFMKTRANSPLT = "xiaobingling93-pixel/Ascend-mstt@99c2e0f990a17d328f487062acc9c490f7f6ff26:msfmktransplt"
BUILTIN_RULES = f"{MSFMKTRANSPLT}/src/ms_fmk_transplt/transfer/rules/common_rules/builtin_rules.json"
DISTRIBUTED_RULE = f"{MSFMKTRANSPLT}/src/ms_fmk_transplt/transfer/rules/distributed_rules/distributed_rule.py"
SUPPORTED_TABLES = f"{MSFMKTRANSPLT}/src/ms_fmk_transplt/resource/supported_op_{{2_1,2_6,2_7,2_8}}.json"


def add_entries(book: Book) -> None:
    _strings_and_methods(book)
    _distributed(book)
    _backend_switches(book)
    _caveats(book)
    _device_neutral_submodules(book)


def _strings_and_methods(book: Book) -> None:
    book.entry("cuda_npu", api="cuda", match="string", condition="device", category="npu-rename", code="NPU102",
               target="npu", fix="safe", curated=True).absorb(
        note="A CUDA device string ('cuda', 'cuda:0', f'cuda:{i}'); on Ascend the device type is 'npu'.",
        source=BUILTIN_RULES)
    book.entry("cuda_npu", api="nccl", match="string", condition="backend", category="npu-rename", code="NPU103",
               target="hccl", fix="safe", curated=True).absorb(
        note="NCCL is NVIDIA's collective library; on Ascend the torch.distributed backend is 'hccl'.",
        source=BUILTIN_RULES)
    book.entry("cuda_npu", api="NCCL", match="string", condition="backend", category="npu-rename", code="NPU103",
               target="HCCL", fix="safe", curated=True).absorb(
        note="The upper-case backend name; on Ascend it is 'HCCL'.", source=BUILTIN_RULES)
    book.entry("cuda_npu", api="CUDA_VISIBLE_DEVICES", match="string", condition="environment-variable",
               category="npu-rename", code="NPU104", target="ASCEND_RT_VISIBLE_DEVICES", fix="safe",
               curated=True).absorb(
        note="torch_npu counts and selects devices by ASCEND_RT_VISIBLE_DEVICES; CUDA_VISIBLE_DEVICES has no effect "
             "on NPU. torch_npu's own inductor autotuning maps CUDA_VISIBLE_DEVICES to ASCEND_RT_VISIBLE_DEVICES.",
        source=f"{WHEEL}:torch_npu/npu/__init__.py (ASCEND_RT_VISIBLE_DEVICES parsing); "
               f"{WHEEL}:torch_npu/_inductor/autotune_process.py")
    book.entry("cuda_npu", api="torch.Tensor.cuda", match="method", receiver="any", category="npu-rename",
               code="NPU105", target="torch.Tensor.npu", fix="safe", curated=True).absorb(
        note="x.cuda() → x.npu(); auto-migration assigns torch.Tensor.cuda = torch.Tensor.npu.")
    book.entry("cuda_npu", api="torch.nn.Module.cuda", match="method", receiver="module", category="npu-rename",
               code="NPU105", target="torch.nn.Module.npu", fix="safe", curated=True).absorb(
        note="model.cuda() → model.npu(); auto-migration assigns torch.nn.Module.cuda = torch.nn.Module.npu.")
    book.entry("cuda_npu", api="torch.Tensor.is_cuda", match="method", receiver="any", category="npu-rename",
               code="NPU105", target="torch.Tensor.is_npu", fix="safe", curated=True).absorb(
        note="x.is_cuda → x.is_npu; auto-migration assigns torch.Tensor.is_cuda = torch.Tensor.is_npu.")
    book.entry("cuda_npu", api="torch", match="import", condition="torch-npu-not-imported", category="npu-rename",
               code="NPU106", severity="hint", target="torch_npu", fix="safe", curated=True).absorb(
        note="A module that imports torch but not torch_npu: torch.npu and the NPU device only exist after "
             "`import torch_npu`. GPU2Ascend inserts `import torch_npu` after the torch import.")
    book.entry("cuda_npu", api="torch.profiler.profile", category="npu-rename", code="NPU101",
               target="torch_npu.profiler.profile", fix="safe", curated=True).absorb(
        parameters=({"source": "experimental_config", "target": "experimental_config", "change": "type",
                     "note": "must be a torch_npu.profiler._ExperimentalConfig; auto-migration deletes any other "
                             "value with a warning and GPU2Ascend removes the keyword"},))


def _distributed(book: Book) -> None:
    book.entry("cuda_npu", api="torch.nn.DataParallel", category="npu-unsupported", code="NPU201",
               target="torch.nn.parallel.DistributedDataParallel", fix="unsafe", curated=True).absorb(
        note="DataParallel is not supported on Ascend NPU (msfmktransplt README; listed unsupported in the PyTorch "
             "2.1-2.8 tables), and torch_npu 2.14.0 auto-migration does not touch it. Use one process per NPU with "
             "DistributedDataParallel.",
        suggestion="GPU2Ascend's distributed mode does it in these steps: (1) at the start of the main file call "
                   "torch.distributed.init_process_group('hccl', rank=RANK_ID, world_size=RANK_SIZE) and "
                   "torch.npu.set_device(f'npu:{DEVICE_ID}'), with RANK_ID, RANK_SIZE and DEVICE_ID read from the "
                   "environment; (2) after model.npu(), wrap the model: torch.nn.parallel.DistributedDataParallel("
                   "model, device_ids=[DEVICE_ID], broadcast_buffers=False) instead of DataParallel; (3) give each "
                   "DataLoader sampler=torch.utils.data.distributed.DistributedSampler(dataset) with shuffle=False, "
                   "pin_memory=True, drop_last=True, and call loader.sampler.set_epoch(epoch) in the epoch loop; "
                   "(4) load weights through model.module.load_state_dict(...); (5) launch one process per device "
                   "(GPU2Ascend generates run_distributed_npu.sh).",
        source=DISTRIBUTED_RULE)
    book.entry("npu_unsupported", api="torch.nn.parallel.DistributedDataParallel", category="npu-unsupported",
               code="NPU202", severity="info", curated=True)
    # The same class under the names torch also exports it as (`from torch.nn.parallel import DataParallel`, as
    # basicsr writes it): checked in torch 2.13.0, `torch.nn.parallel.DataParallel is torch.nn.DataParallel` and
    # `torch.nn.parallel.data_parallel.DataParallel is torch.nn.DataParallel`. Before, neither spelling was reported.
    for alias in ("torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"):
        book.entry("cuda_npu", api=alias, category="npu-unsupported", code="NPU201",
                   target="torch.nn.parallel.DistributedDataParallel", fix="none", curated=True).absorb(
            note="The same class as torch.nn.DataParallel (torch 2.13.0), which is not supported on Ascend NPU "
                 "(msfmktransplt README; listed unsupported in the PyTorch 2.1-2.8 tables) and which torch_npu "
                 "2.14.0 auto-migration does not touch. Use one process per NPU with DistributedDataParallel.",
            suggestion="No fix here: see torch.nn.DataParallel. `ascend-migrate migrate --distributed --main FILE "
                       "--model VAR` writes the process group, the DistributedDataParallel wrapper and the "
                       "DistributedSampler set-up.",
            source=DISTRIBUTED_RULE)


def _backend_switches(book: Book) -> None:
    """The cuDNN/CUDA backend switches: what the reference says they mean on NPU, and no more."""
    listed = ("msfmktransplt's PyTorch 2.1-2.8 tables list it as supported (it runs on NPU) without saying what "
              "it does there")
    switches = {
        "torch.backends.cudnn.benchmark": (
            f"cuDNN autotuning switch. {listed}; no effect on NPU is documented; check."),
        "torch.backends.cudnn.deterministic": (
            f"cuDNN determinism switch. {listed}; no effect on NPU is documented; check. For deterministic NPU "
            "kernels torch_npu patches torch.use_deterministic_algorithms (the 2.6-2.8 tables add: HCCL "
            "collectives follow HCCL_DETERMINISTIC when it is set, else torch.use_deterministic_algorithms)."),
        "torch.backends.cudnn.enabled": (
            f"Switches cuDNN on or off. {listed}; no effect on NPU is documented; check."),
        "torch.backends.cudnn.allow_tf32": (
            f"TF32 for cuDNN convolutions. {listed}; no effect on NPU is documented. The NPU analogue is HF32: "
            "torch_npu 2.14.0 has torch.npu.conv.allow_hf32 (reads as enabled unless it was set to False)."),
        "torch.backends.cuda.matmul.allow_tf32": (
            f"TF32 for CUDA matmuls. {listed}; no effect on NPU is documented. The NPU analogue is HF32: "
            "torch_npu 2.14.0 has torch.npu.matmul.allow_hf32 (reads as disabled unless it was set to True)."),
    }
    for api, note in switches.items():
        draft = book.entry("cuda_npu", api=api, category="npu-unsupported", code="NPU203", severity="info",
                           fix="none", curated=True)
        draft.absorb(note=note, source=f"{SUPPORTED_TABLES}; {WHEEL}:torch_npu/npu/npu_config.py; "
                                       f"{WHEEL}:torch_npu/npu/__init__.py (matmul, conv)")


# The caveats that hold only in a program migrated with transfer_to_npu (the engine's `transfer-to-npu` condition).
AUTO_MIGRATION = "transfer-to-npu"
AUTO_MIGRATION_ONLY = ("torch.jit.script", "torch.jit.script_method")


def _caveats(book: Book) -> None:
    entries = {
        "torch.cuda.DoubleTensor": ("warning", "torch.npu.FloatTensor",
                                    "Double precision is not supported by some NPU operators ('Unsupport data type: "
                                    "at::ScalarType::Double'); auto-migration binds torch.cuda.DoubleTensor to "
                                    "torch.npu.FloatTensor, and Tensor.double returns float32 by default (PyTorch 2.8 "
                                    "table)."),
        "torch.jit.script": ("warning", None,
                             "Auto-migration turns torch.jit.script into the identity function (RuntimeWarning) unless "
                             "the internal flag torch_npu.utils._dynamo.use_jit_script is set (default False); the "
                             "function then runs eagerly. If scripting is required, migrate with GPU2Ascend instead "
                             "of transfer_to_npu."),
        "torch.jit.script_method": ("warning", None,
                                    "Auto-migration turns torch.jit.script_method into the identity function."),
        "torch.utils._triton.has_triton": ("info", None,
                                           "Auto-migration makes it return False (also torch._dynamo.utils.has_triton, "
                                           "torch._inductor.runtime.autotune_cache.has_triton and "
                                           "torch._inductor.compile_fx.has_triton)."),
        "torch._inductor.utils.get_gpu_type": ("info", None,
                                               "Auto-migration makes it return 'npu' (also in fx_passes.post_grad, "
                                               "joint_graph and autotune_process)."),
        "torch._utils._get_available_device_type": ("info", None,
                                                    "Auto-migration (2.14.0) makes it return 'npu' when "
                                                    "torch.npu.is_available()."),
        "torch.channels_last": ("warning", "torch.contiguous_format",
                                "Auto-migration does not support the channels_last feature; Tensor.npu/cuda accept "
                                "only memory_format=torch.contiguous_format and Tensor.to only contiguous_format or "
                                "preserve_format (PyTorch 2.8 table)."),
        "torch.load": ("info", None,
                       "A checkpoint saved on CUDA fails to load on an NPU machine (RuntimeError: Attempting to "
                       "deserialize object on a CUDA device but torch.cuda.is_available() is False) unless "
                       "map_location is given."),
    }
    for api, (severity, target, note) in entries.items():
        # jit.script is the identity only under transfer_to_npu (the source's own words): a program migrated by
        # rewriting its source, as `ascend-migrate fix` does, scripts as on CUDA, so the row speaks only where the
        # module imports transfer_to_npu (found judging the torch.compile tutorial, session 9)
        condition = {"condition": AUTO_MIGRATION} if api in AUTO_MIGRATION_ONLY else {}
        draft = book.entry("npu_unsupported", api=api, category="npu-unsupported", code="NPU202", severity=severity,
                           curated=True, **condition)
        if target:
            draft.fields["target"] = target
        draft.absorb(note=note)
    book.entry("npu_unsupported", api="torch.var_mean", category="npu-unsupported", code="NPU201",
               curated=True).absorb(
        note="Fails with 'No supported Ops kernel and engine are found for [ReduceStdV2A]'.",
        suggestion="Compute the variance as torch.std(x, ...) ** 2 and the mean with torch.mean(x, ...) separately.")
    imports = {
        "torch.utils.tensorboard": ("warning",
                                    "A migrated script that uses TensorBoard (also through libraries that import it, "
                                    "such as wandb or transformers) may end with only 'Segmentation fault'.",
                                    "Comment out the SummaryWriter calls; drop wandb if it is used only for logging."),
        "torch_npu.contrib.transfer_to_npu": ("info",
                                              "Auto-migration patches torch at run time: torch.jit.script becomes the "
                                              "identity, channels_last is unsupported, and third-party libraries that "
                                              "already have Ascend support may conflict with it.",
                                              "If a library is already adapted for Ascend, or jit.script is needed, "
                                              "migrate with GPU2Ascend (source rewriting) instead."),
    }
    for api, (severity, note, suggestion) in imports.items():
        book.entry("npu_unsupported", api=api, match="import", category="npu-unsupported", code="NPU202",
                   severity=severity, curated=True).absorb(note=note, suggestion=suggestion)
    patterns = {
        "int64-multiply": ("int64 tensor in a multiplication (Muls) on NPU",
                           "The Muls operator does not support int64.",
                           "Cast to int32 before moving to NPU, e.g. label_batch.int().npu()."),
        "cross-device-scalar-compare": ("comparison of 0-dim tensors on different devices (CPU vs NPU)",
                                        "Unsupported on torch_npu; the process shows only 'Segmentation fault'.",
                                        "Put both tensors on the same device; locate the line with python -X "
                                        "faulthandler."),
        "zero-dim-data-index": ("tensor.data[0] on a 0-dim tensor",
                                "IndexError: invalid index of a 0-dim tensor.", "Use tensor.item()."),
        "cpu-tensor-to-npu-op": ("a CPU tensor passed to an NPU-only operator",
                                 "Could not run 'aten::empty_with_format' with arguments from the CPU backend / "
                                 "options.device().type() == DeviceType::NPU INTERNAL ASSERT FAILED.",
                                 "Move the tensor to the NPU first (input = input.npu())."),
    }
    for condition, (label, note, suggestion) in patterns.items():
        book.entry("npu_unsupported", api=condition, match="pattern", condition=condition, category="npu-unsupported",
                   code="NPU202", severity="warning", curated=True).absorb(note=f"Code shape: {label}. {note}",
                                                                           suggestion=suggestion)


def _device_neutral_submodules(book: Book) -> None:
    """Submodules of torch.cuda that call nothing of CUDA, so the `torch.cuda` prefix row (every name with no entry
    of its own) does not speak for them. Read in torch 2.13.0's sources; the one function that does reach CUDA keeps
    a row of its own."""
    memory_viz = "torch 2.13.0:torch/cuda/_memory_viz.py"
    book.entry("cuda_npu", api="torch.cuda._memory_viz", condition="prefix", category="npu-rename", code="NPU101",
               reported=False, target="torch_npu.npu._memory_viz", fix="none", curated=True).absorb(
        note="Formats a memory snapshot that the caller passes in (segments, memory, compare, trace_plot, "
             "segment_plot, format_flamegraph): plain Python over dicts, nothing of CUDA is called, and torch_npu "
             "imports format_flamegraph from this module for its own snapshots.",
        source=f"{memory_viz}; {WHEEL}:torch_npu/npu/_memory_viz.py (from torch.cuda._memory_viz import "
               "format_flamegraph)")
    book.entry("cuda_npu", api="torch.cuda._memory_viz.profile_plot", category="npu-rename", code="NPU101",
               severity="warning", target="torch.npu", fix="none", curated=True).absorb(
        note="Builds its snapshot from a profile with torch.cuda.device_count() and files every device whose type "
             "is not 'cuda' under one extra slot, so NPU allocations are not told apart; torch_npu.npu._memory_viz "
             "has no profile_plot.",
        source=f"{memory_viz} (_profile_to_snapshot); {WHEEL}:torch_npu/npu/_memory_viz.py")
