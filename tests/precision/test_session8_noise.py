"""Noise found on code bases never seen before (session 8, docs/precision.md), removed at its root: each case both
ways, the quiet form and the form that still needs a change."""

AVERAGED_TRAINING = """
    import torch
    from torch.optim.swa_utils import SWALR, AveragedModel
    from torch.optim.lr_scheduler import LRScheduler


    class Warmup(LRScheduler):
        def get_lr(self):
            return [group["lr"] for group in self.optimizer.param_groups]

        def snapshot(self):
            return self.state_dict()


    def train(model, batches, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        averaged = AveragedModel(model)
        annealing = SWALR(optimizer, swa_lr=0.05)
        for _ in range(epochs):
            for inputs, targets in batches:
                optimizer.zero_grad()
                loss = torch.nn.functional.mse_loss(model(inputs), targets)
                loss.backward()
                optimizer.step()
            averaged.update_parameters(model)
            annealing.step()
        averaged.eval()
        return averaged.state_dict(), annealing.state_dict(), optimizer.state_dict()
"""


def optimizer_findings(findings):
    return sorted((finding.line, finding.code, finding.api) for finding in findings
                  if finding.api.startswith("torch.optim.Optimizer"))


def test_a_learning_rate_scheduler_is_no_optimizer(scan):
    # SWALR and LRScheduler subclasses live in torch.optim but are schedulers: their step() and state_dict() are not an
    # optimizer's (no MS204 training step, no MS207 optimizer state). The SGD optimizer's calls are still reported.
    findings = scan(AVERAGED_TRAINING, target="mindspore")
    assert optimizer_findings(findings) == [
        (21, "MS204", "torch.optim.Optimizer.zero_grad"),
        (24, "MS204", "torch.optim.Optimizer.step"),
        (28, "MS207", "torch.optim.Optimizer.state_dict"),
    ]


def test_an_averaged_model_is_a_module(scan):
    # torch.optim.swa_utils.AveragedModel derives from torch.nn.Module: eval() and state_dict() are a module's (MS203,
    # MS207 at hint: Cell.state_dict exists), not an optimizer's.
    findings = scan(AVERAGED_TRAINING, target="mindspore")
    assert [(finding.line, finding.api) for finding in findings if finding.api.startswith("torch.nn.Module.")] == [
        (16, "torch.nn.Module.parameters"), (27, "torch.nn.Module.eval"), (28, "torch.nn.Module.state_dict")]


MODULE_SURGERY = """
    import torch
    import torch.nn as nn


    def handlers():
        return {nn.Linear: "dense", nn.Conv2d: "convolution", nn.Module: "any other layer"}


    def freeze_linear_layers(model: nn.Module):
        for module in model.modules():
            if isinstance(module, (nn.Linear, nn.LSTM)):
                module.weight.requires_grad = False
            elif type(module) is nn.Conv2d:
                module.bias = None


    def replace_head(model, classes):
        model.head = nn.Linear(model.head.in_features, classes)
        return model


    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Conv2d(3, 8, 3)
"""


def test_a_layer_class_only_compared_with_gets_a_rename_message(scan):
    # isinstance arguments, dict keys and `type(m) is` compare with the class: a port compares with the MindSpore
    # cell, and the constructor's differences (weight_init, has_bias, pad_mode) are not met there. Constructing the
    # layer or subclassing nn.Module keeps the entry's note.
    findings = [finding for finding in scan(MODULE_SURGERY, target="mindspore")
                if finding.api in ("torch.nn.Linear", "torch.nn.Conv2d", "torch.nn.Module", "torch.nn.LSTM")]
    compared = sorted((finding.line, finding.code, finding.api) for finding in findings
                      if "only compared with here" in finding.message)
    assert compared == [(7, "MS201", "torch.nn.Module"), (12, "MS102", "torch.nn.LSTM")]
    rest = sorted((finding.line, finding.code, finding.api) for finding in findings
                  if "only compared with here" not in finding.message)
    # equivalents keep their rename text wherever they are. nn.Linear is one since session 9 (its weight_init/bias_init
    # difference was false: mint.nn.Linear initialises as torch does), so it is renamed wherever it stands
    assert rest == [(7, "MS101", "torch.nn.Conv2d"), (7, "MS101", "torch.nn.Linear"), (12, "MS101", "torch.nn.Linear"),
                    (14, "MS101", "torch.nn.Conv2d"), (19, "MS101", "torch.nn.Linear"), (23, "MS201", "torch.nn.Module"),
                    (26, "MS101", "torch.nn.Conv2d")]
    assert {finding.suggestion for finding in findings if "only compared" in finding.message} == {
        "compare with `mindspore.nn.Cell`", "compare with `mindspore.nn.LSTM`"}


PROFILED_STEP = """
    import torch
    from torch.profiler import ProfilerActivity, profile


    def profiled(step, use_gpu):
        activities = [ProfilerActivity.CPU]
        if use_gpu:
            activities.append(ProfilerActivity.CUDA)
            torch.cuda.synchronize()
        with profile(activities=activities) as profiler:
            step()
        return profiler
"""


def test_a_profiler_name_is_not_called_cuda_specific(scan):
    # torch.profiler's names have torch_npu.profiler counterparts (the row stays, as NPU101 with its target), but
    # ProfilerActivity.CPU and profile are not CUDA's: the headline says "has an Ascend counterpart" for them, and
    # "is CUDA-specific" for ProfilerActivity.CUDA and torch.cuda.synchronize.
    headlines = {finding.api: finding.message.split(":", 1)[0] for finding in scan(PROFILED_STEP)
                 if finding.code == "NPU101"}
    assert headlines == {
        "torch.profiler.ProfilerActivity.CPU":
            "`torch.profiler.ProfilerActivity.CPU` has an Ascend counterpart; on Ascend use "
            "`torch_npu.profiler.ProfilerActivity.CPU`",
        "torch.profiler.ProfilerActivity.CUDA":
            "`torch.profiler.ProfilerActivity.CUDA` is CUDA-specific; on Ascend use `torch_npu.profiler.ProfilerActivity.NPU`",
        "torch.cuda.synchronize": "`torch.cuda.synchronize` is CUDA-specific; on Ascend use `torch.npu.synchronize`",
        "torch.profiler.profile": "`torch.profiler.profile` has an Ascend counterpart; on Ascend use `torch_npu.profiler.profile`",
    }
