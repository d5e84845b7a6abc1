"""The MindSpore route's fixes for the idioms of PyTorch GAN code (issue 17, dcgan), text for text: layers picked
by class name in weights_init (MS223), a later step reusing an earlier step's model output, `x.is_cuda`/`x.is_xpu`,
and `x.fill_(v)` as a statement. tests/execution/test_mindspore_route.py runs them in dcgan."""

from __future__ import annotations

import textwrap

from tests.fixes.test_mindspore_layer_arguments import GAN_STEPS as REUSED_OUTPUT_STEPS

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN, MINT = "2.4", "2.10"


def fixed(source: str, version: str) -> str:
    source = textwrap.dedent(source)
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(source, lambda text: analyze(text, "model.py", settings), unsafe=True).text


def findings(source: str, version: str, code: str):
    settings = Settings(target="mindspore", mindspore_version=version)
    return [finding for finding in analyze(textwrap.dedent(source), "model.py", settings) if finding.code == code]


WEIGHTS_INIT = """
    import torch.nn as nn

    def weights_init(m):
        classname = m.__class__.__name__
        if classname.find('Conv') != -1:
            nn.init.normal_(m.weight, 0.0, 0.02)
        elif classname.find('BatchNorm') != -1:
            nn.init.normal_(m.weight, 1.0, 0.02)
            nn.init.zeros_(m.bias)

    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))
    net.apply(weights_init)
"""


def test_a_batchnorm_branch_uses_gamma_and_beta_in_the_ops_nn_era():
    text = fixed(WEIGHTS_INIT, OPS_NN)
    assert ("m.gamma.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Normal(sigma=0.02, "
            "mean=1.0), m.gamma.shape, m.gamma.dtype))") in text
    assert "m.beta.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Zero(), m.beta.shape, m.beta.dtype))" in text
    # the Conv branch keeps weight (mindspore.nn.Conv2d's parameter is weight), and Cell.apply stays
    assert "Normal(sigma=0.02, mean=0.0), m.weight.shape, m.weight.dtype)" in text and "net.apply(weights_init)" in text


def test_a_batchnorm_branch_keeps_weight_in_the_mint_era():
    text = fixed(WEIGHTS_INIT, MINT)
    assert "m.gamma" not in text and "m.beta" not in text and findings(WEIGHTS_INIT, MINT, "MS223") == []


def test_classes_that_name_the_parameter_differently_leave_the_finding_without_a_fix():
    source = WEIGHTS_INIT.replace("nn.BatchNorm2d(8)", "nn.BatchNorm2d(8), nn.BatchNorm3d(8)")
    found = findings(source, OPS_NN, "MS223")
    assert [finding.line for finding in found] == [9, 10]
    assert all(finding.fix is None for finding in found)
    assert "BatchNorm2d: gamma, BatchNorm3d: bn2d.gamma" in found[0].message


def test_other_class_name_tests_are_read_too():
    source = """
        import torch.nn as nn

        def init(module):
            if 'LayerNorm' in type(module).__name__:
                module.bias.data.zero_()
            if module.__class__.__name__ == 'Embedding':
                nn.init.normal_(module.weight)
    """
    found = {finding.line: finding.fix.edits[0].new_text for finding in findings(source, OPS_NN, "MS223")}
    assert found == {6: "beta", 8: "embedding_table"}


# the D step draws its noise into a name of its own, which the G step can pass to the generator again
GAN_STEPS = REUSED_OUTPUT_STEPS.replace("        fake = netG(torch.randn(3, 2))\n",
                                        "        noise = torch.randn(3, 2)\n        fake = netG(noise)\n")


def test_a_later_step_makes_the_earlier_model_output_again_from_the_same_inputs():
    text = fixed(GAN_STEPS, OPS_NN)
    assert textwrap.indent(textwrap.dedent("""\
        def forward_fn_2(noise):
            fake = netG(noise)
            output = netD(fake)
            errG = criterion(output, mindspore.ops.ones((3, 1)))
            return errG, (fake, output)
        (errG, (fake, output)), grads = mindspore.value_and_grad(forward_fn_2, None, optimizerG.parameters, has_aux=True)(noise)
        optimizerG(grads)
    """), "    ") in text
    assert ".backward()" not in text


def test_an_earlier_output_that_is_not_one_model_call_stays_advice():
    source = GAN_STEPS.replace("        netG.zero_grad()\n        output = netD(fake)",
                               "        netG.zero_grad()\n        output = netD(fake * 2)").replace(
        "        fake = netG(noise)\n", "        fake = netG(noise) * 0.5\n")
    text = fixed(source, OPS_NN)
    assert "errG.backward()" in text
    backward = [finding for finding in findings(text, OPS_NN, "MS204") if "errG.backward" in text.splitlines()[finding.line - 1]]
    assert len(backward) == 1 and backward[0].fix is None
    assert "`fake` come from the forward pass of an earlier step" in backward[0].message


def test_device_flags_ask_the_process_device():
    text = fixed("""
        def forward(input, ngpu):
            if (input.is_cuda or input.is_xpu) and ngpu > 1:
                return 1
            return 0
    """, OPS_NN)
    assert 'if ((mindspore.get_context("device_target") == "GPU") or False) and ngpu > 1:' in text
    assert text.startswith("\nimport mindspore\n")


def test_a_fill_statement_rebinds_the_name_and_a_fill_used_as_a_value_is_left():
    text = fixed("""
        import torch

        label = torch.full((4,), 1.0)
        label.fill_(0.0)  # fake labels
        other = label.fill_(1.0)
    """, MINT)
    assert "label = mindspore.ops.full_like(label, 0.0)  # fake labels" in text
    assert "other = label.fill_(1.0)" in text


def test_in_place_fills_of_a_branch_become_set_data_with_the_era_s_name():
    source = """
        import torch.nn as nn

        def weights_init(m):
            classname = m.__class__.__name__
            if classname.find('Conv') != -1:
                m.weight.data.normal_(0.0, 0.02)
            elif classname.find('BatchNorm') != -1:
                m.weight.data.normal_(std=0.02, mean=1.0)
                m.bias.data.fill_(0)
                m.running_mean.zero_()

        net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))
    """
    initializer = "mindspore.common.initializer."
    ops_nn, mint = fixed(source, OPS_NN), fixed(source, MINT)
    for text, scale, shift, mean in ((ops_nn, "gamma", "beta", "moving_mean"), (mint, "weight", "bias", "running_mean")):
        assert (f"m.weight.set_data({initializer}initializer({initializer}Normal(sigma=0.02, mean=0.0), m.weight.shape, "
                "m.weight.dtype))") in text
        assert (f"m.{scale}.set_data({initializer}initializer({initializer}Normal(sigma=0.02, mean=1.0), m.{scale}.shape, "
                f"m.{scale}.dtype))") in text
        assert f"m.{shift}.set_data({initializer}initializer({initializer}Constant(0), m.{shift}.shape, m.{shift}.dtype))" in text
        assert f"m.{mean}.set_data({initializer}initializer({initializer}Zero(), m.{mean}.shape, m.{mean}.dtype))" in text
