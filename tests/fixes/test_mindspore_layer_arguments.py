"""The MindSpore route's argument fixes for layers and creation calls (issue 17), text for text: `inplace` dropped
where the MindSpore layer takes none (`nn.ReLU(True)` raised TypeError in mindspore 2.10), the sizes of
`torch.zeros(2, 3)` / `x.new_zeros(2, 3)` as one tuple (MindSpore's take one size). tests/execution runs them in
dcgan, word_language_model and time_sequence_prediction."""

from __future__ import annotations

import textwrap

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN, MINT = "2.4", "2.10"


def fixed(source: str, version: str) -> str:
    source = textwrap.dedent(source)
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(source, lambda text: analyze(text, "model.py", settings), unsafe=True).text


LAYERS = """
    import torch.nn as nn

    layers = [
        nn.ReLU(True),
        nn.ReLU(inplace=True),
        nn.LeakyReLU(0.2, inplace=True),
        nn.LeakyReLU(0.2, True),
        nn.Dropout(0.2, True),
        nn.ELU(1.0, True),
        nn.Hardtanh(-1, 1, True),
        nn.ReLU6(True),
        nn.SiLU(inplace=True),
        nn.ReLU(),
    ]
"""


def test_inplace_goes_where_the_ops_nn_layer_takes_none():
    lines = [line.strip() for line in fixed(LAYERS, OPS_NN).splitlines() if line.strip().startswith("mindspore.nn.")]
    assert lines == [
        "mindspore.nn.ReLU(),",
        "mindspore.nn.ReLU(),",
        "mindspore.nn.LeakyReLU(0.2),",
        "mindspore.nn.LeakyReLU(0.2),",
        # the p left last once inplace goes becomes a keyword: a positional first argument is keep_prob in ops/nn
        "mindspore.nn.Dropout(p=0.2),",
        "mindspore.nn.ELU(1.0),",
        "mindspore.nn.Hardtanh(-1, 1),",
        "mindspore.nn.ReLU6(),",
        "mindspore.nn.SiLU(),",
        "mindspore.nn.ReLU(),",
    ]


def test_inplace_stays_where_the_mint_layer_takes_it():
    text = fixed(LAYERS, MINT)
    assert text.count("mint.nn.ReLU(),") == 3  # ReLU(True), ReLU(inplace=True), ReLU()
    for kept in ("mint.nn.Dropout(0.2, True)", "mint.nn.ELU(1.0, True)", "mint.nn.ReLU6(True)", "mint.nn.SiLU(inplace=True)"):
        assert kept in text  # mindspore 2.10's mint layer has an inplace parameter
    assert text.count("mindspore.nn.LeakyReLU(0.2),") == 2  # no mint.nn.LeakyReLU: the ops/nn layer, inplace dropped
    assert "mindspore.nn.Hardtanh(-1, 1)," in text


def test_sizes_passed_one_by_one_become_one_tuple():
    source = """
        import torch

        def state(x, n):
            h = torch.zeros(n, 51, dtype=torch.double)
            ones = torch.ones((2, 3))
            row = torch.zeros(4)
            noise = torch.randn(3, 4)
            return h, ones, row, noise, noise.new_zeros(2, n, 3), noise.new_ones(5), torch.ones(*x.shape), torch.zeros(2, *x.shape)
    """
    for version, module in ((OPS_NN, "mindspore.ops"), (MINT, "mint")):
        text = fixed(source, version)
        assert f"h = {module}.zeros((n, 51), dtype=mindspore.float64)" in text
        assert f"ones = {module}.ones((2, 3))" in text and f"row = {module}.zeros(4)" in text
        assert f"noise = {module}.randn(3, 4)" in text  # randn takes *size in MindSpore too
        assert "noise.new_zeros((2, n, 3)), noise.new_ones(5)" in text
        assert f"{module}.ones((*x.shape,)), {module}.zeros((2, *x.shape,))" in text  # unpacked sizes: one tuple too


EMBEDDING = """
    import torch.nn as nn

    class Encoder(nn.Module):
        def __init__(self, tokens, width):
            super().__init__()
            self.encoder = nn.Embedding(tokens, width)
            self.decoder = nn.Linear(width, tokens)
            nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
            self.decoder.weight = self.encoder.weight
"""


def test_an_ops_nn_embedding_starts_as_torch_s_and_its_table_is_embedding_table():
    text = fixed(EMBEDDING, OPS_NN)
    assert "self.encoder = mindspore.nn.Embedding(tokens, width, embedding_table=mindspore.common.initializer.Normal(1.0))" in text
    # the initialiser's fix keeps `.weight`; the next pass renames it (a fixed Embedding still answers MS222)
    assert ("self.encoder.embedding_table.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer."
            "Uniform(0.1), self.encoder.embedding_table.shape, self.encoder.embedding_table.dtype))") in text
    assert "self.decoder.weight = self.encoder.embedding_table" in text and ".encoder.weight" not in text


def test_a_mint_embedding_keeps_its_weight():
    text = fixed(EMBEDDING, MINT)
    assert "self.encoder = mint.nn.Embedding(tokens, width)" in text and "embedding_table" not in text


CASTS = """
    import torch.nn as nn

    class Net(nn.Module):
        def forward(self, x):
            return x

    net = Net()
    net.double()
    half = Net().half()
"""


def test_a_cell_cast_is_cell_to_in_2_10_and_set_dtype_per_parameter_before():
    text = fixed(CASTS, MINT)
    assert "net.to(mindspore.float64)" in text and "half = Net().to(mindspore.float16)" in text
    text = fixed(CASTS, OPS_NN)
    assert "for parameter in net.get_parameters(): parameter.set_dtype(mindspore.float64)" in text
    assert "half = Net().half()" in text  # a cast used as a value: set_dtype needs a statement of its own


def test_detach_is_stop_gradient_also_on_a_receiver_of_unknown_type():
    text = fixed("""
        import torch

        def repackage(h):
            if isinstance(h, torch.Tensor):
                return h.detach()
            return tuple(repackage(v) for v in h)
    """, OPS_NN)
    assert "return mindspore.ops.stop_gradient(h)" in text


GAN_STEPS = """
    import torch
    import torch.nn as nn

    netD = nn.Linear(4, 1)
    netG = nn.Linear(2, 4)
    criterion = nn.BCEWithLogitsLoss()
    optimizerD = torch.optim.Adam(netD.parameters(), lr=0.1)
    optimizerG = torch.optim.Adam(netG.parameters(), lr=0.1)
    for real in [torch.randn(3, 4)]:
        netD.zero_grad()
        output = netD(real)
        errD_real = criterion(output, torch.ones(3, 1))
        errD_real.backward()
        fake = netG(torch.randn(3, 2))
        output = netD(fake.detach())
        errD_fake = criterion(output, torch.zeros(3, 1))
        errD_fake.backward()
        optimizerD.step()

        netG.zero_grad()
        output = netD(fake)
        errG = criterion(output, torch.ones(3, 1))
        errG.backward()
        optimizerG.step()
"""


def test_two_backward_passes_before_one_step_become_one_function_returning_their_sum():
    text = fixed(GAN_STEPS, OPS_NN)
    assert textwrap.indent(textwrap.dedent("""\
        def forward_fn(real):
            output = netD(real)
            errD_real = criterion(output, mindspore.ops.ones((3, 1)))
            fake = netG(mindspore.ops.randn(3, 2))
            output = netD(mindspore.ops.stop_gradient(fake))
            errD_fake = criterion(output, mindspore.ops.zeros((3, 1)))
            return errD_real + errD_fake, (output, errD_real, fake, errD_fake)
        (forward_fn_loss, (output, errD_real, fake, errD_fake)), grads = mindspore.value_and_grad(forward_fn, None, optimizerD.parameters, has_aux=True)(real)
        optimizerD(grads)
    """), "    ") in text
    assert "errD_real.backward()" not in text and "netD.zero_grad()" not in text


def test_a_step_whose_input_came_from_an_earlier_step_s_forward_pass_is_advice():
    text = fixed(GAN_STEPS, OPS_NN)
    assert "netG.zero_grad()\n    output = netD(fake)" in text and "errG.backward()" in text  # left as it was
    settings = Settings(target="mindspore", mindspore_version=OPS_NN)
    backward = [finding for finding in analyze(text, "train.py", settings) if finding.code == "MS204" and "errG.backward" in
                text.splitlines()[finding.line - 1]]
    assert len(backward) == 1 and backward[0].fix is None
    assert "`fake` come from the forward pass of an earlier step" in backward[0].message
