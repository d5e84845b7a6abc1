"""NPU204: a "supported with restriction" row is reported only where the call passes what it restricts."""

TRAINING_CODE = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Decoder(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.conv = nn.Conv2d(channels, channels, 3, padding=1)
            self.norm = nn.LayerNorm(channels)
            self.rnn = nn.LSTM(channels, channels, num_layers=2, dropout=0.1)
            self.plain_rnn = nn.LSTM(channels, channels)

        def forward(self, x, mask):
            x = F.interpolate(x, size=(64, 64), mode="bilinear")
            up = F.interpolate(x, scale_factor=2, mode="nearest")
            x = torch.where(mask, x, torch.zeros_like(x))
            total = torch.sum(x, dim=1)
            wide = torch.sum(x, dim=1, dtype=torch.float64)
            scores, indices = torch.topk(total, 5)
            unsorted = torch.topk(total, 5, 1, True, False)
            return up, wide, scores, unsorted


    def train(model, parameters, loader):
        features = torch.randn(4, 3, 32, 32)
        features = features.to(torch.float16)
        channels_last = features.to(memory_format=torch.channels_last)
        contiguous = features.to(memory_format=torch.contiguous_format)
        optimizer = torch.optim.AdamW(parameters, lr=1e-3)
        fused = torch.optim.AdamW(parameters, lr=1e-3, fused=True)
        compiled = torch.compile(model)
        graphs = torch.compile(model, backend="cudagraphs")
        return channels_last, contiguous, optimizer, fused, compiled, graphs
"""


def restrictions(findings):
    return sorted((finding.line, finding.api) for finding in findings if finding.code == "NPU204")


def test_restrictions_are_reported_only_where_the_call_passes_the_restricted_argument(scan):
    assert restrictions(scan(TRAINING_CODE)) == [
        (12, "torch.nn.LSTM"),  # dropout=0.1: not supported
        (17, "torch.nn.functional.interpolate"),  # scale_factor
        (20, "torch.sum"),  # dtype=
        (22, "torch.topk"),  # sorted=False, passed by position
        (29, "torch.Tensor.to"),  # memory_format=torch.channels_last
        (32, "torch.optim.AdamW"),  # fused=True
        (34, "torch.compile"),  # backend="cudagraphs": use npugraphs
    ]


def test_a_restriction_message_says_supported_in_english_and_what_to_do(scan):
    finding = next(finding for finding in scan(TRAINING_CODE) if finding.api == "torch.topk" and finding.code == "NPU204")
    assert finding.message.startswith("`torch.topk` is supported on Ascend NPU with a restriction this call meets: "
                                      "sorted=False is not supported")
    assert "not supported as is" not in finding.message
    assert finding.suggestion == "pass sorted=True (the default)"
    assert finding.severity == "warning"


def test_no_finding_a_user_sees_has_chinese_text(scan):
    for finding in scan(TRAINING_CODE):
        if finding.severity != "hint":
            assert not any("\u4e00" <= character <= "\u9fff" for character in finding.message + finding.suggestion), finding


def test_only_the_restricted_value_written_at_the_call_meets_a_values_condition(scan):
    source = """
        import torch

        def make(model, args, backend="inductor"):
            chosen = torch.compile(model, backend=args.backend)
            optioned = torch.compile(model, **args.options)
            inductor = torch.compile(model, backend="inductor")
            passed = torch.compile(model, backend=backend)
            graphs = torch.compile(model, backend="cudagraphs")
            return chosen, optioned, inductor, passed, graphs
    """
    assert restrictions(scan(source)) == [(9, "torch.compile")]  # the others are chosen elsewhere


def test_every_reported_entry_reads_in_english(real_knowledge_base):
    """Notes a user can see are English; a translated note keeps the source's text in note_original."""
    def chinese(text):
        return any("\u4e00" <= character <= "\u9fff" for character in text)

    for entry in real_knowledge_base.entries:
        if entry.reported:
            texts = [entry.note, entry.suggestion, *(difference.note for difference in entry.parameters)]
            assert not any(chinese(text) for text in texts), (entry.table, entry.api)
        if entry.note_original:
            assert chinese(entry.note_original) and not chinese(entry.note), entry.api


def test_only_npu201_says_not_supported(scan):
    source = """
        import torch

        def nearest(points, queries, features):
            distances = torch.cdist(points, queries, compute_mode="use_mm_for_euclid_dist")
            values, indices = features.topk(5)
            return distances, torch.std_mean(features), values
    """
    messages = {finding.api: finding.message for finding in scan(source) if finding.category == "npu-unsupported"}
    assert messages["torch.cdist"].startswith("`torch.cdist` works differently on Ascend NPU: With p=2.0, compute_mode")
    assert messages["torch.std_mean"].startswith("`torch.std_mean` is not supported on Ascend NPU")
    assert "torch.Tensor.topk" not in messages  # `features` is not known to be a tensor
