"""Noise found on code bases never seen before (session 7, docs/precision.md), removed at its root: each case both
ways, the quiet form and the form that still needs a change."""

SEEDED_SAMPLING = """
    import torch


    def sample_on(device, seed):
        # fork the generators of the device the sampling runs on, whatever its type
        with torch.random.fork_rng(devices=[device], device_type=device.type):
            torch.manual_seed(seed)
            return torch.randn(8, device=device)


    def sample_with_options(device, seed):
        options = {"devices": [device], "device_type": device.type}
        with torch.random.fork_rng(**options):
            torch.manual_seed(seed)
            return torch.randn(8, device=device)


    def sample_on_default_generators(seed):
        with torch.random.fork_rng(enabled=seed is not None):
            torch.manual_seed(seed)
            return torch.randn(8)


    def sample_on_gpu(devices, seed):
        with torch.random.fork_rng(devices, True, "fork_rng", "devices", "cuda"):
            torch.manual_seed(seed)
            return torch.randn(8)
"""


def fork_rng_lines(findings):
    return sorted(finding.line for finding in findings if finding.api == "torch.random.fork_rng")


def test_fork_rng_is_reported_only_where_it_forks_the_cuda_generators(scan):
    # device_type taken from the device (or passed through **options) forks the NPU's generators on the NPU: nothing
    # to change; no device_type forks CUDA's (torch <= 2.8, the Ascend tables' releases), and "cuda" says so.
    assert fork_rng_lines(scan(SEEDED_SAMPLING)) == [20, 26]


LOW_RANK_ADAPTER = """
    import torch
    import torch.nn as nn


    class LowRankAdapter(nn.Module):
        def __init__(self, features: int, rank: int, train_scale: bool):
            super().__init__()
            self.down = nn.Parameter(torch.zeros(rank, features))
            self.scale = nn.Parameter(torch.ones(1), requires_grad=train_scale)
            self.frozen = torch.nn.Parameter(torch.eye(features), requires_grad=False)
            self.register_buffer("gate", torch.ones(features, requires_grad=False))
            self.noise = torch.randn(rank, requires_grad=True)
"""


def keyword_findings(findings):
    return sorted((finding.line, finding.api) for finding in findings if finding.code == "MS104")


def test_requires_grad_on_a_parameter_is_no_keyword_mindspore_lacks(scan):
    # mindspore.Parameter(default_input, name=None, requires_grad=True, ...) takes it (its entry says so); a tensor
    # factory does not (mindspore.ops.ones/randn have no requires_grad), so those calls still need the change.
    assert keyword_findings(scan(LOW_RANK_ADAPTER, target="mindspore")) == [
        (12, "torch.ones(requires_grad=...)"),
        (13, "torch.randn(requires_grad=...)"),
    ]


def test_a_keyword_the_callee_entry_marks_as_differing_in_meaning_is_still_reported(scan):
    # mindspore.tensor has device= but accepts only 'CPU' and 'meta': its entry says `meaning`, so MS104 stays
    findings = scan("""
        import torch

        def labels_on(values, device):
            return torch.tensor(values, device=device)
    """, target="mindspore")
    assert ("torch.tensor(device=...)" in {finding.api for finding in findings if finding.code == "MS104"})


FOCAL_TERM = """
    import torch


    def focal_term(pt: torch.Tensor, threshold: float, gamma: float) -> torch.Tensor:
        term = ((1.0 - pt) / threshold).pow(gamma)
        term[pt < threshold] = 1
        hard = term[pt >= threshold]
        return term, hard
"""


def test_a_masked_write_says_what_it_costs_not_that_its_shape_depends_on_the_data(scan):
    # `term[mask] = 1` keeps term's shape (the row's note: IndexPut runs on the AI CPU, no graph converter); the read
    # `term[mask]` is the data-dependent shape.
    headlines = {finding.line: finding.message.split(":", 1)[0] for finding in scan(FOCAL_TERM) if finding.code == "NPU402"}
    assert headlines == {
        7: "`tensor[mask]=value` writes through an index tensor (IndexPut)",
        8: "`tensor[mask]` has a data-dependent output shape",
    }


def test_the_sequential_container_says_what_differs_not_only_where_to_read(scan):
    # segmentation-models-pytorch: 72 findings said only "see the diff page"; the note now names the methods a port
    # must change (read in mindspore 2.10.0: SequentialCell has append, not add_module/insert/extend)
    findings = scan("""
        import torch.nn as nn

        def decoder_block(channels):
            block = nn.Sequential()
            block.add_module("conv", nn.Conv2d(channels, channels, 3, padding=1))
            return block
    """, target="mindspore")
    sequential = next(finding for finding in findings if finding.api == "torch.nn.Sequential")
    assert "add_module" in sequential.message and "insert_child_to_cell" in sequential.message


def test_a_name_no_table_maps_says_so_and_does_not_claim_mindspore_lacks_it(scan):
    # peft: 124 MS103 errors on names with no entry said "has no MindSpore equivalent", also for torch.linalg.svd and
    # torch.fft.fft, which mindspore 2.10.0 has as ops.svd and ops.fft; a curated ms-unsupported row keeps its claim.
    # (Session 8 gave torch.linalg.svd an entry: it now says how ops.svd differs; lu_factor_ex still has none.)
    findings = scan("""
        import torch

        def spectral_norm(x):
            u, s, v = torch.linalg.svd(x)
            factors, pivots, info = torch.linalg.lu_factor_ex(x)
            return s.max() / torch.finfo(x.dtype).eps
    """, target="mindspore")
    headlines = {finding.api: finding.message.split(":", 1)[0] for finding in findings if finding.code == "MS103"}
    assert headlines["torch.linalg.lu_factor_ex"] == "`torch.linalg.lu_factor_ex` has no entry in the knowledge base"
    assert headlines["torch.finfo"] == "`torch.finfo` has no MindSpore equivalent"
    (svd,) = [finding for finding in findings if finding.api == "torch.linalg.svd"]
    assert svd.code == "MS102" and "(s, u, v)" in svd.message
