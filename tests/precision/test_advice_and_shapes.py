"""Affinity advice (NPU301/302), data-dependent shapes (NPU401/402) and tensor evidence on real-looking code."""

MODEL = """
    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    INPUT_MASK = "input_mask"


    class Head(nn.Module):
        def __init__(self, dim, classes):
            super().__init__()
            self.proj = nn.Linear(dim, dim)
            self.drop = nn.Dropout(0.1)
            self.act = nn.GELU()
            self.fc = nn.Linear(dim, classes)

        def forward(self, x, features):
            x = self.drop(self.act(self.proj(x)))
            x = F.layer_norm(x, x.shape[-1:])
            mask = features[INPUT_MASK]
            return self.fc(x), mask


    def evaluate(model, dataset, boxes_np, scores_np):
        loader = DataLoader(dataset, batch_size=8)
        correct = 0
        keep_np = boxes_np[scores_np > 0.5]
        for images, labels in loader:
            logits = torch.randn(8, 10)
            predictions = logits.argmax(dim=-1)
            correct += (predictions == labels).sum().item()
            values = logits.tolist()
            same = torch.allclose(logits, logits)
            hits = torch.nonzero(predictions == labels)
            chosen = logits[logits > 0]
            classes = torch.unique(labels)
        compiled = torch.compile(model)
        return correct, values, same, hits, chosen, classes, compiled, keep_np
"""


def shown(findings):
    """What a user sees: findings at info or above."""
    return sorted((finding.line, finding.code, finding.api) for finding in findings if finding.severity != "hint")


def test_only_data_dependent_output_shapes_are_reported(scan):
    findings = scan(MODEL)
    dynamic = sorted((finding.line, finding.api) for finding in findings if finding.code in ("NPU401", "NPU402"))
    assert dynamic == [
        (36, "torch.nonzero"),
        (37, "tensor[mask]"),
        (38, "torch.unique"),
    ]  # not DataLoader, .item(), .tolist(), allclose, torch.compile; not the NumPy mask on line 29


def test_affinity_advice_is_a_hint_and_only_where_the_replacement_is_a_drop_in(scan):
    findings = scan(MODEL)
    affinity = sorted((finding.line, finding.api, finding.severity) for finding in findings if finding.code == "NPU301")
    # nn.Linear → npu_linear, Dropout → DropoutWithByteMask, layer_norm → an eval-only op: not drop-ins, silent.
    # GELU → fast_gelu stays as a hint that says it changes the numbers.
    assert affinity == [(16, "torch.nn.GELU", "hint")]
    gelu = next(finding for finding in findings if finding.code == "NPU301")
    assert "outputs differ from native gelu" in gelu.message
    assert not any(code.startswith("NPU3") for _, code, _ in shown(findings))


def test_affinity_can_be_raised_to_info_by_the_severity_setting(scan):
    findings = scan(MODEL, severity={"npu-affinity": "info"})
    assert [(finding.line, finding.severity) for finding in findings if finding.code == "NPU301"] == [(16, "info")]


def test_no_affinity_advice_in_test_files(scan):
    assert [finding for finding in scan(MODEL, path="tests/test_head.py") if finding.category == "npu-affinity"] == []


def test_constant_mask_keys_and_untyped_receivers_need_the_setting(scan):
    source = """
        import torch

        FEATURE_MASK = "feature_mask"

        def select(batch, arrays, mask):
            weights = batch[FEATURE_MASK]
            kept = arrays[mask]
            tokens = torch.zeros(4, 8)
            visible = tokens[mask]
            return weights, kept, visible
    """
    assert [(finding.line, finding.confidence) for finding in scan(source) if finding.code == "NPU402"] == [(10, "inferred")]
    with_setting = scan(source, untyped_receivers=True)
    assert [(finding.line, finding.confidence) for finding in with_setting if finding.code == "NPU402"] == [
        (8, "heuristic"), (10, "inferred"),
    ]
