"""What the report tests share: a hand-built scan result (NPU findings, Chinese text), the real tools, real scans."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

from ascend_migrate.analysis.findings import FileError, Finding, Fix, TextEdit
from ascend_migrate.config import Settings
from ascend_migrate.taxonomy import CODES, DEFAULT_SEVERITY
from ascend_migrate.analysis.findings import ScanResult

TRAIN_SOURCE = '''\
import torch
import torch.distributed as dist
from apex import amp


def setup(rank):
    dist.init_process_group("nccl", rank=rank)
    torch.cuda.set_device(rank)
    device = torch.device("cuda")
    return device


def train_step(model, batch, mask):
    out = model(batch.cuda())
    selected = out[mask]
    index = torch.nonzero(mask)
    torch.cuda.synchronize()
    return selected.sum(), index


def device_name():
    major, minor = torch.cuda.get_device_capability()
    return f"sm_{major}{minor}"
'''

MODEL_SOURCE = '''\
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    """Root-mean-square norm; 见 </script><script>alert(1)</script> 一节."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        banner = "</script><script>alert(1)</script>"
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * x * torch.rsqrt(variance + self.eps), banner


def make_optimizer(model):
    return torch.optim.AdamW(model.parameters(), lr=1e-4)


def check_inputs():
    torch.sparse.check_sparse_tensor_invariants.enable()
'''

CLEAN_SOURCE = '''\
"""Paths and constants shared by the training scripts."""

DATA_ROOT = "/data/imagenet"
BATCH_SIZE = 256
'''

DOCS = "https://example.invalid/ascend-migrate/docs/codes"


def locate(source: str, line: int, text: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    """The engine position (1-based line and character columns, end exclusive) of `text` on `line`."""
    row = source.splitlines()[line - 1]
    start = -1
    for _ in range(occurrence + 1):
        start = row.index(text, start + 1)
    return line, start + 1, line, start + 1 + len(text)


def finding(
    path: str,
    source: str,
    line: int,
    text: str,
    code: str,
    api: str,
    message: str,
    suggestion: str = "",
    confidence: str = "exact",
    fix: Fix | None = None,
) -> Finding:
    category = CODES[code].category
    return Finding(
        path, *locate(source, line, text), code, category, DEFAULT_SEVERITY[category], api, message, suggestion,
        confidence, f"{DOCS}#{code.lower()}", fix,
    )


def rename(source: str, line: int, text: str, new_text: str, title: str, add_imports: tuple[str, ...] = ()) -> Fix:
    return Fix(title, True, (TextEdit(*locate(source, line, text), new_text),), add_imports=add_imports)


def sample_findings() -> list[Finding]:
    train, model = "src/train.py", "src/model.py"
    found = [
        finding(train, TRAIN_SOURCE, 3, "from apex import amp", "TP101", "apex.amp",
                "apex 依赖 CUDA 扩展，昇腾上需要适配版的 apex。", "安装 Ascend 适配版 apex，或改用 torch.npu.amp。"),
        finding(train, TRAIN_SOURCE, 7, '"nccl"', "NPU103", "nccl",
                "分布式后端 'nccl' 在昇腾上不可用。", "改为 'hccl'。",
                fix=rename(TRAIN_SOURCE, 7, '"nccl"', '"hccl"', "Use the 'hccl' backend")),
        finding(train, TRAIN_SOURCE, 8, "torch.cuda.set_device", "NPU101", "torch.cuda.set_device",
                "torch.cuda.set_device 有 NPU 对应接口。", "改为 torch.npu.set_device。",
                fix=rename(TRAIN_SOURCE, 8, "torch.cuda.set_device", "torch.npu.set_device",
                           "Use torch.npu.set_device", ("import torch_npu",))),
        finding(train, TRAIN_SOURCE, 9, '"cuda"', "NPU102", "cuda",
                "设备字符串 'cuda' 需要改为 'npu'。", "改为 'npu'。",
                fix=rename(TRAIN_SOURCE, 9, '"cuda"', '"npu"', "Use the 'npu' device")),
        finding(train, TRAIN_SOURCE, 14, "cuda", "NPU105", "torch.Tensor.cuda",
                ".cuda() 会把张量放到 GPU 上。", "改为 .npu()。", confidence="heuristic",
                fix=rename(TRAIN_SOURCE, 14, "cuda", "npu", "Use .npu()")),
        finding(train, TRAIN_SOURCE, 15, "out[mask]", "NPU402", "boolean-mask-index",
                "布尔掩码索引的输出形状取决于数据，会导致 NPU 动态 shape 编译。",
                "改用 torch.where 或 masked_fill 保持形状不变。", confidence="heuristic"),
        finding(train, TRAIN_SOURCE, 16, "torch.nonzero", "NPU401", "torch.nonzero",
                "torch.nonzero 的输出形状取决于数据。", "尽量用掩码运算代替下标列表。"),
        finding(train, TRAIN_SOURCE, 17, "torch.cuda.synchronize", "NPU101", "torch.cuda.synchronize",
                "torch.cuda.synchronize 有 NPU 对应接口。", "改为 torch.npu.synchronize。",
                fix=rename(TRAIN_SOURCE, 17, "torch.cuda.synchronize", "torch.npu.synchronize",
                           "Use torch.npu.synchronize", ("import torch_npu",))),
        finding(model, MODEL_SOURCE, 16, "self.weight * x * torch.rsqrt(variance + self.eps)", "NPU302", "rms-norm",
                "这段代码是 RMSNorm，NPU 有融合算子。", "torch_npu.npu_rms_norm(x, self.weight, epsilon=self.eps)[0]"),
        finding(model, MODEL_SOURCE, 20, "torch.optim.AdamW", "NPU301", "torch.optim.AdamW",
                "AdamW 在 NPU 上有融合优化器。", "torch_npu.optim.NpuFusedAdamW"),
        finding(model, MODEL_SOURCE, 24, "torch.sparse.check_sparse_tensor_invariants.enable", "NPU201",
                "torch.sparse.check_sparse_tensor_invariants.enable",
                "PyTorch 2.8 的 NPU 不支持 torch.sparse.check_sparse_tensor_invariants.enable。",
                "删除该调用；只在 CPU 上调试时 (device != 'npu' && debug) 打开。"),
        finding(train, TRAIN_SOURCE, 22, "torch.cuda.get_device_capability", "NPU202",
                "torch.cuda.get_device_capability",
                "NPU 上 torch.cuda.get_device_capability 返回 None。",
                "给出固定的 (major, minor)，或设置 TORCH_NPU_DEVICE_CAPABILITY=\"major.minor\"。"),
    ]
    return sorted(found, key=lambda f: (f.path, f.line, f.column, f.code))


def build_result(root: Path | None = None) -> ScanResult:
    result = ScanResult(root=root or Path("/work/project"), settings=Settings(target="npu"), files_scanned=3)
    result.findings = sample_findings()
    result.sources = {"src/train.py": TRAIN_SOURCE, "src/model.py": MODEL_SOURCE, "src/paths.py": CLEAN_SOURCE}
    return result


# --- Microsoft's SARIF validator (npm @microsoft/sarif-multitool); the CI stage 40-reports installs it ---

REPOSITORY = Path(__file__).resolve().parents[2]
_VALIDATOR_PLACES = (
    REPOSITORY / ".work" / "reports-node" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool",
)


def find_sarif_validator() -> Path | None:
    configured = os.environ.get("SARIF_MULTITOOL")
    candidates = [Path(configured)] if configured else [*_VALIDATOR_PLACES]
    on_path = shutil.which("Sarif.Multitool")
    if on_path and not configured:
        candidates.append(Path(on_path))
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def skip_or_fail(reason: str) -> None:
    """Skip a test whose real tool is missing, with the reason printed; CI's stage 40 sets the variable to fail instead."""
    import pytest

    if os.environ.get("ASCEND_MIGRATE_REQUIRE_REPORT_TOOLS") == "1":
        pytest.fail(reason)
    print(f"skipped: {reason}")
    pytest.skip(reason)


def validator_environment() -> dict[str, str]:
    # Invariant globalization: the .NET binary then needs no libicu (a fresh Debian machine may not have it).
    return os.environ | {"DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1", "DOTNET_CLI_TELEMETRY_OPTOUT": "1"}


# --- Real scans of the fixture project tests/reports/projects/trainer ---

PROJECT = Path(__file__).resolve().with_name("projects") / "trainer"


def scan_project(target: str, format_name: str, output: Path, *extra: str, project: Path = PROJECT) -> int:
    """`ascend-migrate scan . --target T --format F --output O [EXTRA...]` run in-process from inside `project`."""
    from ascend_migrate.cli import main

    previous = Path.cwd()
    os.chdir(project)
    try:
        arguments = ["scan", ".", "--target", target, "--format", format_name, "--output", str(output), "--no-progress"]
        return main([*arguments, *extra])
    finally:
        os.chdir(previous)


# --- SARIF logs that exercise the corners, for the validator ---

SARIF_ROOT = Path("/work/project")


def unusual_documents() -> dict[str, dict]:
    from ascend_migrate.reports.sarif import document

    """Hand-built logs that exercise the corners: file errors, no findings, other route, odd paths, a fix."""
    with_errors = build_result()
    with_errors.errors = [FileError("src/broken.py", "cannot read: Permission denied", 3)]
    source = 'x = "cuda"\n'
    unusual = ScanResult(root=SARIF_ROOT, settings=Settings(target="mindspore"), files_scanned=2, sources={"模型 训练/train v2.py": source})
    unusual.findings = [
        finding("模型 训练/train v2.py", source, 1, '"cuda"', "NPU102", "cuda", "设备字符串 'cuda' 需要改为 'npu'",
                fix=rename(source, 1, '"cuda"', '"npu"', "Use the 'npu' device")),
        replace(finding("/opt/shared/util.py", source, 1, '"cuda"', "MS205", "cuda", "MindSpore 按上下文放置数据"), fix=None),
    ]
    return {
        "sample": document(build_result(), SARIF_ROOT),
        "with-errors": document(with_errors, SARIF_ROOT),
        "empty": document(ScanResult(root=SARIF_ROOT, settings=Settings(), files_scanned=0), SARIF_ROOT),
        "unusual-paths": document(unusual, SARIF_ROOT),
    }
