"""NPU201/202/401 caveats reported only where the call can meet them."""

CHECKPOINTS = """
    import torch


    def load(path, device, load_kwargs):
        plain = torch.load(path)
        on_cpu = torch.load(path, map_location="cpu", weights_only=True)
        positional = torch.load(path, "cpu")
        passed_through = torch.load(path, **load_kwargs)
        return plain, on_cpu, positional, passed_through
"""


def caveats(findings, api):
    return [finding.line for finding in findings if finding.api == api]


def test_torch_load_is_a_caveat_only_without_map_location(scan):
    assert caveats(scan(CHECKPOINTS), "torch.load") == [6]


def test_repeat_interleave_with_a_number_has_a_static_shape(scan):
    source = """
        import torch

        def expand(freqs, tokens, counts: torch.Tensor, groups):
            cos = freqs.cos().repeat_interleave(2, dim=-1)
            tiled = torch.repeat_interleave(tokens, 3, dim=0)
            ragged = torch.repeat_interleave(tokens, counts, dim=0)
            grouped = torch.repeat_interleave(tokens, groups)
            scaled = tokens.repeat_interleave(int(groups), dim=2)
            return cos, tiled, ragged, grouped, scaled
    """
    findings = [finding for finding in scan(source) if finding.code == "NPU401"]
    assert [(finding.line, finding.api) for finding in findings] == [
        (7, "torch.repeat_interleave"),  # a tensor of counts: the output length is their sum
        (8, "torch.repeat_interleave"),  # unknown: may be a tensor
    ]


def test_a_supported_optimizer_step_is_no_error_and_ddp_without_apex_is_quiet(scan):
    source = """
        import torch
        from torch.nn.parallel import DistributedDataParallel as DDP

        def train(model, loader, rank):
            model = DDP(model, device_ids=[rank])
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for batch in loader:
                optimizer.zero_grad()
                model(batch).sum().backward()
                optimizer.step()
            lbfgs = torch.optim.LBFGS(model.parameters())
            lbfgs.step(lambda: model(batch).sum())
    """
    findings = scan(source)
    assert [(finding.line, finding.code, finding.api) for finding in findings if finding.code in ("NPU201", "NPU202")] == [
        (13, "NPU201", "torch.optim.LBFGS.step"),  # listed unsupported, and no table says otherwise
    ]
