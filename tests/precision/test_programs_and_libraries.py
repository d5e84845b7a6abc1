"""NPU106 (`import torch_npu`): only programs need it; a library that gains it breaks where torch_npu is absent."""

import textwrap

from ascend_migrate.fixes import fix_all

LIBRARY = """
    \"\"\"Vision transformer blocks.\"\"\"
    import math

    import torch
    import torch.nn as nn


    class Attention(nn.Module):
        def __init__(self, dim, heads=8):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(dim, dim * 3)

        def forward(self, x):
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            scale = 1.0 / math.sqrt(q.shape[-1])
            return torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v
"""

TRAIN_SCRIPT = """
    import argparse

    import torch
    from model import Attention


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=1)
        args = parser.parse_args()
        model = Attention(64).to("npu")
        for _ in range(args.epochs):
            model(torch.randn(2, 16, 64, device="npu")).sum().backward()


    if __name__ == "__main__":
        main()
"""

NOTEBOOK_STYLE_SCRIPT = """
    import torch

    model = torch.nn.Linear(4, 2)
    for step in range(10):
        model(torch.randn(3, 4)).sum().backward()
"""


def codes(findings, code="NPU106"):
    return [(finding.line, finding.api) for finding in findings if finding.code == code]


def test_a_library_module_gets_no_torch_npu_import_advice_nor_fix(scan):
    findings = scan(LIBRARY, path="timm/layers/attention.py")
    assert codes(findings) == []
    assert "torch_npu" not in fix_all(textwrap.dedent(LIBRARY), findings).text


def test_a_program_with_a_main_guard_gets_the_import_and_its_fix(scan):
    findings = scan(TRAIN_SCRIPT, path="train.py")
    assert codes(findings) == [(4, "torch")]
    assert "import torch\nimport torch_npu\n" in fix_all(textwrap.dedent(TRAIN_SCRIPT), findings).text


def test_a_script_with_a_top_level_loop_is_a_program(scan):
    assert codes(scan(NOTEBOOK_STYLE_SCRIPT, path="quick_train.py")) == [(2, "torch")]


def test_a_package_main_module_is_a_program(scan):
    assert codes(scan("import torch\n\ndef cli():\n    pass\n", path="tool/__main__.py")) == [(1, "torch")]
