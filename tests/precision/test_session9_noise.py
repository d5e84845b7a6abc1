"""Noise found on code bases never seen before (session 9, docs/precision.md), removed at its root: a class that is
only compared with (a key, an identity test, a loop over classes read only by isinstance) runs nothing of itself. Each
case both ways: the quiet form and the form that still needs a change."""

WRAPPERS = """
    import torch
    from torch import nn

    UNWRAPPERS = {}
    UNWRAPPERS[nn.DataParallel] = lambda wrapped: wrapped.module


    def unwrap(model):
        for wrapper in (nn.DataParallel, nn.parallel.DistributedDataParallel):
            if isinstance(model, wrapper):
                return model.module
        return model


    def is_wrapped(model):
        return any(isinstance(model, kind) for kind in [nn.DataParallel, nn.parallel.DistributedDataParallel])


    def wrapper_name(wrapper):
        if wrapper is nn.DataParallel:
            return "data parallel"
        return "none"


    def cuda_build():
        return torch.version.cuda is None


    def replicate(models):
        wrapped = []
        for wrapper in (nn.DataParallel,):
            wrapped.extend(wrapper(model) for model in models)
        return wrapped


    def replicate_one(model):
        return nn.DataParallel(model)


    def replicate_registered(registry, model):
        return registry[nn.DataParallel](model)


    class Replicated(UNWRAPPERS[nn.DataParallel]):
        pass
"""


def npu_unsupported_lines(findings):
    return sorted(finding.line for finding in findings if finding.code == "NPU201")


def test_a_class_used_as_a_key_or_identity_or_only_type_checked_is_quiet_on_the_npu(scan):
    # nn.DataParallel is unsupported on Ascend, but a key written into a dict (line 6), a loop over classes whose
    # variable only feeds isinstance (lines 10 and 17) and an `is` test (line 21) run nothing of the class.
    # A loop whose variable is called (line 32, the tuple of classes), a construction (line 38), a class built through a subscript
    # (line 42) and a subclass of one (line 45) are still reported; `torch.version.cuda is None` reads a value that
    # differs on the NPU and stays (NPU202).
    findings = scan(WRAPPERS, target="npu")
    assert npu_unsupported_lines(findings) == [32, 38, 42, 45]
    assert [(finding.line, finding.code) for finding in findings if finding.api == "torch.version.cuda"] == [(27, "NPU202")]


OPTIMIZERS = """
    import torch
    from torch import nn

    CONVERTERS = {}
    CONVERTERS[nn.ModuleList] = list


    def build_optimizer(optimizer_class, parameters):
        if optimizer_class is torch.optim.LBFGS:
            raise ValueError("L-BFGS needs a closure: use build_lbfgs")
        return optimizer_class(parameters, lr=0.01)


    def build_lbfgs(model):
        return torch.optim.LBFGS(model.parameters(), lr=0.8)


    def is_parameter(value):
        return isinstance(value, nn.Parameter)


    def uses_data_parallel(model):
        return any(isinstance(model, kind) for kind in [nn.DataParallel, nn.parallel.DistributedDataParallel])


    class Blocks(nn.Module):
        def __init__(self, blocks):
            super().__init__()
            self.blocks = nn.ModuleList(blocks)
            self.scale = nn.Parameter(torch.ones(1))
            self.parallel = nn.DataParallel(self.blocks)
"""


def test_a_class_only_compared_with_says_so_on_the_mindspore_route(scan):
    # The constructor's note (CellList's parameter names, L-BFGS written as a class, Parameter's initialiser,
    # DataParallel's parallel context) is not met where the class is a key, an `is` operand or an isinstance argument:
    # a port compares with the MindSpore class (CellList; a layer's weights are mindspore.Parameter objects), or, where
    # MindSpore has no class in its place (L-BFGS, DataParallel), drops the test. Building the classes keeps the notes.
    findings = scan(OPTIMIZERS, target="mindspore")
    compared = sorted((finding.line, finding.code, finding.api, finding.suggestion) for finding in findings
                      if "only compared with here" in finding.message)
    assert compared == [
        (6, "MS102", "torch.nn.ModuleList", "compare with `mindspore.nn.CellList`"),
        (10, "MS235", "torch.optim.LBFGS", "remove the test or compare with the port's own class"),
        (20, "MS102", "torch.nn.Parameter", "compare with `mindspore.Parameter`"),
        (24, "MS208", "torch.nn.DataParallel", "remove the test or compare with the port's own class"),
        (24, "MS208", "torch.nn.parallel.DistributedDataParallel", "remove the test or compare with the port's own class"),
    ]
    built = sorted((finding.line, finding.code, finding.api) for finding in findings
                   if finding.api in ("torch.nn.ModuleList", "torch.optim.LBFGS", "torch.nn.Parameter", "torch.nn.DataParallel")
                   and "only compared with here" not in finding.message)
    assert built == [(16, "MS235", "torch.optim.LBFGS"), (30, "MS102", "torch.nn.ModuleList"),
                     (31, "MS102", "torch.nn.Parameter"), (32, "MS208", "torch.nn.DataParallel")]
    lbfgs_note = next(finding.message for finding in findings if finding.line == 16 and finding.code == "MS235")
    assert "L-BFGS" in lbfgs_note and "only compared" not in lbfgs_note


PLANAR_FLOW = """
    import math

    import torch
    from torch import nn


    class PlanarFlow(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.scale = nn.Parameter(torch.empty(dim))
            self.shift = nn.Parameter(torch.empty(1))
            self.head = nn.Linear(dim, dim)
            self.reset_parameters()

        def reset_parameters(self):
            bound = 1.0 / math.sqrt(self.scale.size(0))
            self.scale.data.uniform_(-bound, bound)
            self.shift.data.zero_()
            self.head.weight.data.uniform_(-bound, bound)

        def constrain(self):
            self.shift.data.clamp_(min=0.0)
            self.scale.data = self.scale.data / self.scale.data.norm()

        def forward(self, x):
            scores = self.head(x) * self.scale + self.shift
            _, predicted = torch.max(scores.data, 1)
            return scores, predicted
"""


def test_data_carrying_an_in_place_method_is_no_finding(scan):
    # `.data.uniform_()`, `.data.zero_()`, `.data.clamp_()` only carry the in-place method past autograd: the method is
    # what a port looks at (MS246 on the Linear's weight fill, line 20). An assignment to .data (line 24, the target) and
    # plain reads (line 24's right-hand side, line 28's torch.max(scores.data, 1)) are still reported.
    findings = scan(PLANAR_FLOW, target="mindspore")
    data = sorted((finding.line, finding.column) for finding in findings if finding.api == "torch.Tensor.data")
    assert data == [(24, 20), (24, 38), (24, 56), (28, 41)]
    assert [(finding.line, finding.code) for finding in findings if finding.code == "MS246"] == [(20, "MS246")]
