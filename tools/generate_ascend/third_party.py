"""third_party entries: CUDA-only libraries and the Ascend-adapted builds or replacements, one entry per route.

Every statement cites where it comes from; where no Ascend build is known to the sources, the note says so
instead of naming one."""

from __future__ import annotations

from tools.generate_ascend.book import Book

WHEEL = "torch_npu-2.14.0.whl"
OP_PLUGIN = "Ascend/op-plugin@517f2e7d0f202f38b76310706cb977ca2388ad21:docs/zh/custom_APIs"
ASCEND_APEX = "https://gitee.com/ascend/apex (Ascend/apex README: amp O1/O2, static and dynamic loss scale, npu fused optimizers)"
MINDSPORE_NOTE = ("{api} is written for CUDA GPUs or for PyTorch; no MindSpore build of it is known to these sources. "
                  "MindSpore code uses MindSpore's own operators, mixed precision (mindspore.amp) and parallel context "
                  "instead.")
# Libraries with an Ascend build or plugin: a warning to install the right build, not an error.
ADAPTED_ON_ASCEND = {"apex", "apex.amp", "apex.optimizers", "bitsandbytes", "triton", "deepspeed.ops", "mmcv.ops", "vllm"}

# (module or name, match, npu note, npu target, npu fix, sources); the mindspore entry gets MINDSPORE_NOTE.
LIBRARIES = [
    ("apex", "import",
     "NVIDIA apex is built on CUDA extensions. Huawei maintains an Ascend apex build (gitee.com/ascend/apex) with amp "
     "O1/O2, loss scaling and NPU fused optimizers; otherwise use torch's native AMP (torch.autocast('npu'), "
     "torch.npu.amp.GradScaler) and torch_npu.optim fused optimizers.", None, "none", ASCEND_APEX),
    ("apex.amp", "import",
     "apex.amp: use the Ascend apex build, or native AMP on NPU (torch.npu.amp.autocast / torch.autocast("
     "device_type='npu') and torch.npu.amp.GradScaler). With apex.amp, wrap the model in DistributedDataParallel only "
     "after amp.initialize.", None, "none",
     f"{ASCEND_APEX}; ascend/cuda_to_npu.csv (torch.cuda.amp → torch_npu.npu.amp)"),
    ("apex.optimizers", "import",
     "apex's fused optimizers are CUDA kernels; torch_npu.optim has the NPU fused optimizers (NpuFusedAdam, "
     "NpuFusedAdamW, NpuFusedSGD, NpuFusedLamb, ...), and msfmktransplt's advice names the Ascend apex forms "
     "apex.optimizers.NpuFused*.", None, "none",
     f"{OP_PLUGIN}/torch_npu-optim; xiaobingling93-pixel/Ascend-mstt@99c2e0f990a17d328f487062acc9c490f7f6ff26:"
     "msfmktransplt/src/ms_fmk_transplt/resource/precision_performance_advice.json"),
    ("apex.optimizers.FusedAdam", "name",
     "Neither auto-migration (transfer_to_npu) nor GPU2Ascend migrates apex FusedAdam. torch_npu.optim.NpuFusedAdam "
     "is the documented Adam-compatible fused optimizer; it requires that parameters are not re-allocated during "
     "training (no .cpu(), no reassigning).", "torch_npu.optim.NpuFusedAdam", "unsafe",
     f"{OP_PLUGIN}/torch_npu-optim"),
    ("apex.normalization", "import",
     "apex.normalization (FusedLayerNorm, FusedRMSNorm) runs CUDA kernels. Use torch.nn.LayerNorm on NPU, or the "
     "fused torch_npu.npu_rms_norm / torch_npu.npu_add_layer_norm where the code shape fits (see npu_affinity).",
     None, "none", "https://nvidia.github.io/apex/layernorm.html; ascend/affinity_apis.csv (npu_rms_norm, "
                   "npu_add_layer_norm)"),
    ("apex.normalization.FusedLayerNorm", "name",
     "A CUDA fused LayerNorm; on NPU use torch.nn.LayerNorm (check the constructor arguments).", "torch.nn.LayerNorm",
     "unsafe", "https://nvidia.github.io/apex/layernorm.html"),
    ("apex.parallel", "import",
     "apex.parallel (DistributedDataParallel, SyncBatchNorm) targets NCCL on CUDA; on NPU use "
     "torch.nn.parallel.DistributedDataParallel and torch.nn.SyncBatchNorm with the 'hccl' backend.", None, "none",
     "https://nvidia.github.io/apex/parallel.html; ascend/cuda_to_npu.csv (nccl → hccl)"),
    ("amp_C", "import",
     "amp_C is apex's CUDA extension module and is not supported on Ascend NPU. Delete `import amp_C` and the code "
     "that uses it before training (GPU2Ascend's RemoveImportRule removes the import).", None, "unsafe",
     "xiaobingling93-pixel/Ascend-mstt@99c2e0f990a17d328f487062acc9c490f7f6ff26:msfmktransplt/src/ms_fmk_transplt/"
     "transfer/rules/common_rules/common_rule.py"),
    ("flash_attn", "import",
     "flash-attn ships CUDA kernels. On NPU the fused FlashAttention-style operator is torch_npu.npu_fusion_attention("
     "q, k, v, head_num, input_layout, ...); its arguments and layouts differ from flash_attn_func.",
     "torch_npu.npu_fusion_attention", "none", f"{OP_PLUGIN}/torch_npu/torch_npu-npu_fusion_attention.md"),
    ("xformers", "import",
     "xFormers contains its own CUDA kernels (README). For memory_efficient_attention on NPU use "
     "torch_npu.npu_fusion_attention; no Ascend build of xformers is known to these sources.",
     "torch_npu.npu_fusion_attention", "none",
     f"https://github.com/facebookresearch/xformers (README); {OP_PLUGIN}/torch_npu/torch_npu-npu_fusion_attention.md"),
    ("bitsandbytes", "import",
     "bitsandbytes is built for CUDA; its multi-backend work is adding other devices: an Ascend NPU NF4 backend was "
     "proposed upstream (bitsandbytes PR 1695) and a beta build is on PyPI as bitsandbytes-npu-beta. Check that the "
     "features used (8-bit optimizers, LLM.int8, 4-bit) exist there.", None, "none",
     "https://huggingface.co/docs/bitsandbytes/main/non_cuda_backends; "
     "https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1695; https://pypi.org/project/bitsandbytes-npu-beta/"),
    ("triton", "import",
     "Community Triton targets NVIDIA/AMD GPUs. Triton-Ascend (pip install triton-ascend) compiles Triton kernels for "
     "Atlas A2/A3 NPUs and needs CANN and torch_npu; kernels may need tuning for NPU. Under auto-migration torch's "
     "has_triton() returns False.", None, "none",
     "https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/quick_start.md; "
     "https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/FAQ.md; torch_npu-2.14.0.whl:torch_npu/contrib/"
     "transfer_to_npu.py"),
    ("cupy", "import",
     "CuPy runs NumPy/SciPy code on NVIDIA CUDA or AMD ROCm; no Ascend backend is known to these sources. Keep the "
     "arrays as torch tensors on the NPU, or use NumPy on the CPU.", None, "none",
     "https://github.com/cupy/cupy (README); https://pypi.org/project/cupy/"),
    ("pynvml", "import",
     "pynvml wraps NVIDIA's NVML and sees no Ascend devices. For device memory and utilisation use torch.npu."
     "mem_get_info, torch.npu.memory_allocated, torch.npu.utilization (torch_npu), or the npu-smi tool.", None, "none",
     "https://pypi.org/project/nvidia-ml-py/; ascend/cuda_to_npu.csv (mem_get_info, utilization); "
     "https://docs.vllm.ai/projects/ascend/en/latest/installation.html (npu-smi info)"),
    ("nvidia.dali", "import",
     "NVIDIA DALI offloads data loading and augmentation to NVIDIA GPUs; no Ascend backend is known to these sources. "
     "Move the pipeline to torch.utils.data.DataLoader workers (CPU) or to torch operations on the NPU.", None, "none",
     "https://docs.nvidia.com/deeplearning/dali/user-guide/docs"),
    ("tensorrt", "import",
     "TensorRT is NVIDIA's inference optimizer and runtime; it does not run on Ascend. torch_npu 2.14.0 ships "
     "torchair (torch_npu.dynamo.torchair) for graph-mode execution of torch models on NPU.", None, "none",
     "https://pypi.org/project/tensorrt/; torch_npu-2.14.0.whl:torch_npu/dynamo/torchair"),
    ("deepspeed.ops", "import",
     "DeepSpeed's ops are built per accelerator; DeepSpeed supports Huawei Ascend NPU through its accelerator "
     "abstraction (Accelerator Setup Guide) and the older deepspeed_npu plugin supported 0.9.2. Check that each op "
     "used (FusedAdam, CPUAdam, transformer kernels, ...) has an NPU builder in the installed version.", None, "none",
     "https://deepspeed.ai/tutorials/accelerator-setup-guide; https://gitee.com/ascend/DeepSpeed (deepspeed_npu "
     "README, via a mirror)"),
    ("mmcv.ops", "import",
     "mmcv's CUDA ops need an NPU build: build mmcv with MMCV_WITH_OPS=1 FORCE_NPU=1 (mmcv >= 1.7.0); only part of "
     "the ops have an Ascend implementation (e.g. NMS, RoIAlign, RoIPool, PSAMask, BBoxOverlaps).", None, "none",
     "https://www.hiascend.com/document/detail/zh/canncommercial/700/modeldevpt/ptmigr/AImpug_000123.html"),
    ("vllm", "import",
     "vLLM runs on Ascend NPU through the vllm-ascend plugin (pip install vllm-ascend, with CANN and torch-npu).",
     None, "none", "https://docs.vllm.ai/projects/ascend/en/latest/installation.html"),
]


def add_entries(book: Book) -> None:
    for api, match, note, target, fix, sources in LIBRARIES:
        npu = book.entry("third_party", api=api, route="npu", match=match, category="third-party", code="TP101",
                         fix=fix, curated=True)
        if api in ADAPTED_ON_ASCEND:
            npu.fields["severity"] = "warning"
        if target:
            npu.fields["target"] = target
        npu.absorb(note=note, source=sources)
        if api.count(".") and match == "name":
            continue  # a class of an already listed package: the MindSpore route has no specific advice for it
        mindspore = book.entry("third_party", api=api, route="mindspore", match=match, category="third-party",
                               code="TP101", fix="none", curated=True)
        mindspore.absorb(note=MINDSPORE_NOTE.format(api=api), source=sources)
