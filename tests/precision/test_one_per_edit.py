"""One finding per edit (issue 15): findings on one span, or inside a keyword argument whose edit replaces them,
become one finding; the most actionable wins and the other's text stays in its message."""

from __future__ import annotations

import textwrap

from ascend_migrate.fixes.apply import fix_all

DEVICE_CODE = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def forward(self, x):
            y = torch.zeros(3, device=x.device)
            z = torch.ones(2, device="cuda")
            w = x.to("cuda:0")
            return y, z, w
"""


def test_a_device_argument_is_one_finding_with_both_texts(scan):
    findings = [finding for finding in scan(DEVICE_CODE, target="mindspore") if finding.line in (8, 9, 10)]
    per_line = {line: [finding for finding in findings if finding.line == line and finding.code != "MS101"] for line in (8, 9, 10)}
    assert [len(found) for found in per_line.values()] == [1, 1, 1]
    zeros, ones, move = (found[0] for found in per_line.values())
    assert (zeros.code, zeros.api) == ("MS104", "torch.zeros(device=...)")
    assert "Also MS205 (torch.Tensor.device)" in zeros.message
    assert (ones.code, ones.api) == ("MS104", "torch.ones(device=...)") and "Also MS205 ('cuda')" in ones.message
    assert (move.code, move.api) == ("MS205", "torch.Tensor.to") and "Also MS205 ('cuda')" in move.message


def test_the_kept_fix_removes_the_argument_that_held_the_other_finding(scan):
    source = textwrap.dedent(DEVICE_CODE)
    fixed = fix_all(source, scan(DEVICE_CODE, target="mindspore"), unsafe=True).text
    assert "device=" not in fixed and "get_current_device" not in fixed


def test_two_actions_on_one_name_stay_two(scan):
    """NPU204 (drop fused=True, a warning) and NPU301 (use NpuFusedAdamW, a hint with a fix) on one name."""
    source = """
        import torch

        def build(parameters):
            return torch.optim.AdamW(parameters, lr=1e-3, fused=True)
    """
    found = sorted((finding.code, finding.severity) for finding in scan(source) if finding.line == 5)
    assert found == [("NPU204", "warning"), ("NPU301", "hint")]
