"""The MindSpore route's fixes for the last torch uses of dcgan (issue 17), text for text, both ways:
`cudnn.benchmark = True` removed and `cudnn.deterministic = v` → `mindspore.set_deterministic(v)`
(analysis/rules/cudnn_switches.py), `nn.parallel.data_parallel(module, inputs, ids)` → `module(inputs)`
(data_parallel_call.py), and `model.load_state_dict(torch.load(computed path))` →
`mindspore.load_param_into_net(model, mindspore.load_checkpoint(path))` (state_dict_load.py).
tests/execution/test_mindspore_route.py runs all three in dcgan (the load: test_dcgan_resumes_from_its_own_checkpoints)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN, MINT = "2.4", "2.10"


def fixed(source: str, version: str = OPS_NN, target: str = "mindspore") -> str:
    source = textwrap.dedent(source)
    settings = Settings(target=target, mindspore_version=version)
    text = fix_until_stable(source, lambda text: analyze(text, "model.py", settings), unsafe=True).text
    ast.parse(text)
    return text


def findings(source: str, code: str, version: str = OPS_NN):
    settings = Settings(target="mindspore", mindspore_version=version)
    return [finding for finding in analyze(textwrap.dedent(source), "model.py", settings) if finding.code == code]


SWITCHES = """
    import random
    import torch
    import torch.backends.cudnn as cudnn

    random.seed(1)
    cudnn.benchmark = True
    print("seeded")
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_cudnn_benchmark_is_removed_with_its_imports(version):
    text = fixed(SWITCHES, version)
    assert text == textwrap.dedent("""
        import random

        random.seed(1)
        print("seeded")
    """)


def test_the_benchmark_finding_says_why_and_carries_the_removal():
    [finding] = findings(SWITCHES, "MS103")
    assert "MindSpore chooses kernels itself" in finding.message and finding.fix is not None and not finding.fix.safe


def test_benchmark_alone_in_its_block_becomes_pass():
    source = """
        import torch


        def setup(fast):
            if fast:
                torch.backends.cudnn.benchmark = True
            else:
                torch.backends.cudnn.benchmark = False  # the default
                print("slow")
            return fast
    """
    assert fixed(source) == textwrap.dedent("""


        def setup(fast):
            if fast:
                pass
            else:
                print("slow")
            return fast
    """)


def test_benchmark_not_alone_on_its_line_or_read_keeps_its_finding_without_a_fix():
    source = """
        import torch.backends.cudnn as cudnn

        flag = 1; cudnn.benchmark = True
        print(cudnn.benchmark)
    """
    assert [finding.fix for finding in findings(source, "MS103")] == [None, None]
    assert fixed(source) == textwrap.dedent(source)


def test_cudnn_deterministic_becomes_set_deterministic_never_a_rebinding():
    source = """
        import torch


        def setup(args):
            torch.backends.cudnn.deterministic = args.deterministic
            torch.backends.cudnn.benchmark = not args.deterministic
            return torch.backends.cudnn.deterministic
    """
    text = fixed(source)
    assert "    mindspore.set_deterministic(args.deterministic)\n" in text
    assert "set_deterministic =" not in text and "not args.deterministic" not in text
    # a read has no counterpart (mindspore has no getter): the finding stays, with no fix
    assert "    return torch.backends.cudnn.deterministic\n" in text
    [read] = [finding for finding in findings(text, "MS102") if finding.api == "torch.backends.cudnn.deterministic"]
    assert read.fix is None


def test_the_npu_route_keeps_its_advice_for_cudnn_benchmark():
    # torch_npu runs the assignment (msfmktransplt lists it as supported); no effect is documented: advice, no fix
    assert "\ncudnn.benchmark = True\n" in fixed(SWITCHES, target="npu")
    [advice] = [finding for finding in analyze(textwrap.dedent(SWITCHES), "model.py", Settings(target="npu"))
                if finding.api == "torch.backends.cudnn.benchmark"]
    assert advice.code == "NPU203" and advice.fix is None


DATA_PARALLEL = """
    import torch.nn as nn
    import torch.nn.parallel


    class Generator(nn.Module):
        def __init__(self, ngpu):
            super().__init__()
            self.ngpu = ngpu
            self.main = nn.Sequential(nn.Linear(4, 4), nn.Tanh())

        def forward(self, input):
            if input.is_cuda and self.ngpu > 1:
                output = nn.parallel.data_parallel(self.main, input, range(self.ngpu))
            else:
                output = self.main(input)
            return output
"""


def test_data_parallel_calls_the_cell_and_its_imports_go():
    text = fixed(DATA_PARALLEL)
    assert "            output = self.main(input)\n        else:\n            output = self.main(input)\n" in text
    assert "torch" not in text and "import mindspore\n" in text


def test_the_data_parallel_finding_names_the_multi_device_set_up():
    [finding] = findings(DATA_PARALLEL, "MS208")
    assert "set_auto_parallel_context(parallel_mode=mindspore.ParallelMode.DATA_PARALLEL" in finding.message
    assert "mindspore.communication.init()" in finding.message and "msrun" in finding.message
    assert finding.fix is not None and not finding.fix.safe


def test_data_parallel_with_a_tuple_of_inputs_passes_each():
    source = DATA_PARALLEL.replace("data_parallel(self.main, input, range(self.ngpu))",
                                   "data_parallel(self.main, (input, input), device_ids=[0, 1])")
    assert "output = self.main(input, input)\n" in fixed(source)


@pytest.mark.parametrize(("call", "reason"), [
    ("data_parallel(self.main, inputs, range(2))", "may be a tuple"),  # inputs of unknown type
    ("data_parallel(self.main, input, module_kwargs={'scale': 2})", "module_kwargs"),
])
def test_data_parallel_left_as_it_is_says_why(call, reason):
    source = DATA_PARALLEL.replace("def forward(self, input):", "def forward(self, input, inputs=None):").replace(
        "data_parallel(self.main, input, range(self.ngpu))", call)
    [finding] = findings(source, "MS208")
    assert finding.fix is None and reason in finding.message
    assert f"nn.parallel.{call}" in fixed(source)


LOAD = """
    import argparse
    import torch
    import torch.nn as nn

    parser = argparse.ArgumentParser()
    parser.add_argument('--netG', default='')
    opt = parser.parse_args()


    class Generator(nn.Module):
        def __init__(self):
            super().__init__()
            self.main = nn.Linear(4, 4)


    netG = Generator()
    if opt.netG != '':
        netG.load_state_dict(torch.load(opt.netG))
    torch.save(netG.state_dict(), 'netG.pth')
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_computed_path_loads_a_mindspore_checkpoint_into_the_model(version):
    text = fixed(LOAD, version)
    assert "    mindspore.load_param_into_net(netG, mindspore.load_checkpoint(opt.netG))\n" in text
    assert "mindspore.save_checkpoint(netG, 'netG.ckpt')" in text and "torch" not in text


def test_the_computed_load_finding_points_a_pth_to_weights_convert():
    [finding] = [finding for finding in findings(LOAD, "MS206") if finding.api == "torch.load"]
    assert "ascend-migrate weights convert" in finding.message and "a .pth saved by torch" in finding.message
    assert finding.fix is not None and not finding.fix.safe


def test_map_location_is_dropped():
    source = LOAD.replace("torch.load(opt.netG)", "torch.load(opt.netG, map_location='cpu')")
    assert "mindspore.load_param_into_net(netG, mindspore.load_checkpoint(opt.netG))\n" in fixed(source)


def test_a_literal_pth_keeps_the_pointer_to_the_converted_checkpoint():
    text = fixed(LOAD.replace("torch.load(opt.netG)", "torch.load('netG.pth')"))
    assert "netG.load_state_dict(mindspore.load_checkpoint('netG.ckpt'))" in text
    assert "load_param_into_net" not in text


@pytest.mark.parametrize("load", [
    "netG.load_state_dict(torch.load(opt.netG), strict=False)",  # strict has no one-to-one counterpart
    "optimizer.load_state_dict(torch.load(opt.netG))",  # not a model
    "netG.load_state_dict(torch.load(opt.netG)['model'])",  # a checkpoint dict, not a state dict
])
def test_other_loads_keep_the_finding_without_this_fix(load):
    source = LOAD.replace("netG.load_state_dict(torch.load(opt.netG))", load)
    assert "load_param_into_net" not in fixed(source)
    [finding] = [finding for finding in findings(source, "MS206") if finding.api == "torch.load"]
    assert finding.fix is None
