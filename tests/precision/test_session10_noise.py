"""Noise found on code bases never seen before (session 10, docs/precision.md), removed at its root: code that
already has its NPU branch (an if/elif chain that tests for the NPU, a class's `cuda` method beside its `npu`
method) needs no change on the npu route. Each case both ways: the branch an NPU machine never takes is quiet; a
chain without an NPU branch, a negated NPU test and the NPU branch itself still report."""

DEVICE_CHAINS = """
    import torch
    import torch.distributed as torch_dist

    from mydevices import is_cuda_available, is_musa_available, is_npu_available

    DEVICE = 'cpu'
    if is_npu_available():
        DEVICE = 'npu'
    elif is_cuda_available():
        DEVICE = 'cuda'


    def communication_device(backend):
        if backend == 'hccl':
            return torch.device('npu', torch.npu.current_device())
        elif backend == torch_dist.Backend.NCCL:
            return torch.device('cuda', torch.cuda.current_device())
        else:
            return torch.device('cpu')


    def gather_device(group_backend):
        is_hccl_backend = group_backend == 'hccl'
        if is_hccl_backend:
            return torch.device('npu', torch.npu.current_device())
        return torch.device('cuda', torch.cuda.current_device())


    def empty_cache():
        if is_cuda_available():
            torch.cuda.empty_cache()
        elif is_musa_available():
            torch.musa.empty_cache()


    def seed_all(seed):
        if not is_npu_available():
            torch.cuda.manual_seed_all(seed)
        else:
            torch.npu.manual_seed_all(seed)


    def synchronize(device_type):
        if device_type != 'npu':
            torch.cuda.synchronize()


    def place(model, args):
        if args.distributed:
            torch.cuda.set_device(args.gpu)
        elif is_npu_available():
            model.npu()
        elif is_cuda_available():
            torch.cuda.set_device(0)


    def wrap(model, gpu):
        if gpu is not None and torch.npu.is_available():
            torch.npu.set_device(gpu)
        else:
            model = torch.nn.DataParallel(model).cuda()
        return model
"""


def cuda_lines(findings):
    return sorted({finding.line for finding in findings if finding.code in ("NPU101", "NPU102", "NPU105")})


def test_the_branches_an_npu_machine_never_takes_are_quiet_on_the_npu_route(scan):
    # Quiet: the CUDA branches of chains that test for the NPU (lines 10-11, 17-18 and the else at 19-20; line 55,
    # after the NPU's branch). Reported: line 27 follows an `if` on the NPU, it is no branch of a chain; line 32 is
    # in a chain with no NPU branch (on an NPU machine the cache is never emptied); line 39 is under a negated NPU
    # test, whose `else` is the branch an NPU machine takes; line 46 under `!= 'npu'` likewise; line 51 comes
    # before the NPU's branch and asks for no other device (a distributed run on the NPU takes it); line 62 is
    # the `else` of a test that may not hold on the NPU (`gpu is not None and ...`: without a device index the
    # NPU machine builds the DataParallel, which Ascend refuses).
    findings = scan(DEVICE_CHAINS, target="npu")
    assert cuda_lines(findings) == [27, 32, 39, 46, 51, 62]
    assert [finding.line for finding in findings if finding.code == "NPU201"] == [62]


def test_a_mindspore_port_still_replaces_every_branch(scan):
    # The MindSpore route keeps the CUDA branches: a port replaces the whole device choice.
    findings = scan(DEVICE_CHAINS, target="mindspore")
    assert {11, 18} <= {finding.line for finding in findings if "cuda" in finding.api}


DEVICE_METHODS = """
    import torch
    from torch import nn


    class Preprocessor(nn.Module):
        def cuda(self, *args, **kwargs):
            self._device = torch.device(torch.cuda.current_device())
            return super().cuda()

        def npu(self, *args, **kwargs):
            self._device = torch.device(torch.npu.current_device())
            return super().npu()


    class CudaOnly(nn.Module):
        def cuda(self, *args, **kwargs):
            self._device = torch.device(torch.cuda.current_device())
            return super().cuda()
"""


def test_a_cuda_method_beside_the_classes_own_npu_method_is_quiet(scan):
    # Preprocessor.cuda (lines 7-9) runs only when a caller asks for CUDA; the class has its npu() for Ascend.
    # CudaOnly has no npu(): its cuda() is what a migrated program would call, and is still reported.
    findings = scan(DEVICE_METHODS, target="npu")
    assert cuda_lines(findings) == [18, 19]


WRITES_THROUGH_DATA = """
    import torch
    from torch import nn


    class LocalAttention(nn.Module):
        def __init__(self, channels, heads=4):
            super().__init__()
            self.query_decay = nn.Conv1d(channels, heads, 1)
            self.query_decay.weight.data *= 0.01
            self.query_decay.bias.data[:] = -2

        def replace_bias(self, value):
            self.query_decay.bias.data = value
"""


def test_a_write_in_place_through_data_is_no_mindspore_finding(scan):
    # torchaudio's hdemucs: `weight.data *= 0.01` and `bias.data[:] = -2` write the Parameter in place; in
    # mindspore 2.10.0 on the CPU `p.data *= 0.5` and `p.data[:] = -2` write p too (checked), so `.data` there needs
    # no change (lines 10 and 11). Replacing the
    # value, `p.data = value` (line 14), becomes p.set_data(value) and is still reported.
    findings = scan(WRITES_THROUGH_DATA, target="mindspore")
    assert [finding.line for finding in findings if finding.api == "torch.Tensor.data"] == [14]


def test_torch_serialization_is_described_as_what_it_is(scan):
    # pytorch-lightning's and litgpt's incremental savers call torch.serialization.location_tag(storage): the
    # module-wide row said "Pickle safety lists of torch.load", which describes only add_safe_globals and friends.
    findings = scan("""
        import torch


        def storage_location(storage):
            return torch.serialization.location_tag(storage)
    """, target="mindspore")
    [finding] = [finding for finding in findings if finding.api == "torch.serialization.location_tag"]
    assert finding.code == "MS103"
    assert "machinery of torch.save and torch.load" in finding.message
    assert "Pickle safety" not in finding.message
