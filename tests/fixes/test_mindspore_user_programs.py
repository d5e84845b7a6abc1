"""The MindSpore route's fixes for session 8's user-shaped programs (issue 17: amp_cifar, finetune, text_classifier),
text for text, both ways: what each fix writes, and the code each one leaves alone. tests/execution/test_mindspore_route.py
runs the three programs after `fix --write --unsafe`; tests/execution/test_user_program_fixes.py runs what the fixes
write beside torch."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN, MINT = "2.4", "2.10"


def fixed(source: str, version: str = OPS_NN) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    text = fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text
    ast.parse(text)
    return text


def findings(source: str, code: str | None = None, version: str = OPS_NN):
    settings = Settings(target="mindspore", mindspore_version=version)
    return [finding for finding in analyze(textwrap.dedent(source), "train.py", settings) if code is None or finding.code == code]


# --- mixed precision (rules/mixed_precision.py) -----------------------------------------------------------------
AMP = """
    import torch

    use_amp = torch.cuda.is_available()
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
    with torch.cuda.amp.autocast(enabled=use_amp):
        print("forward")
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_autocast_becomes_a_null_context_and_the_scaler_takes_torch_defaults(version):
    text = fixed(AMP, version)
    assert "with contextlib.nullcontext():" in text
    assert "scaler = mindspore.amp.DynamicLossScaler(scale_value=65536.0, scale_factor=2, scale_window=2000)" in text
    assert "auto_mixed_precision" not in text and "enabled=" not in text.split("use_amp =")[1].split("\n", 1)[1]


def test_a_scaler_with_its_own_values_keeps_them():
    text = fixed("""
        import torch

        scaler = torch.amp.GradScaler("cuda", init_scale=1024.0, growth_interval=100)
    """)
    assert "mindspore.amp.DynamicLossScaler(scale_value=1024.0, scale_factor=2, scale_window=100)" in text


def test_a_backoff_that_is_not_the_inverse_growth_gets_no_fix_and_says_why():
    source = """
        import torch

        scaler = torch.cuda.amp.GradScaler(backoff_factor=0.25)
    """
    [finding] = [finding for finding in findings(source) if finding.api == "torch.cuda.amp.GradScaler"]
    assert finding.fix is None and "backoff_factor 0.25 is not 1 / growth_factor" in finding.message
    assert "GradScaler(backoff_factor=0.25)" in fixed(source)


def test_autocast_used_as_a_decorator_is_not_turned_into_a_context():
    source = """
        import torch

        @torch.autocast("cuda")
        def forward(x):
            return x
    """
    assert "nullcontext" not in fixed(source)


# --- reading .data, and a layer parameter filled in place (rules/parameter_values.py) -------------------------------
def test_reading_data_keeps_it_and_says_why():
    source = """
        import torch

        outputs = torch.randn(4, 10)
        _, predicted = torch.max(outputs.data, 1)
    """
    text = fixed(source)
    assert "mindspore.ops.max(outputs.data, 1)" in text and "set_data" not in text
    [finding] = [finding for finding in findings(source) if finding.api == "torch.Tensor.data"]
    assert finding.fix is None and "reading x.data needs no change" in finding.message


INIT_WEIGHTS = """
    from torch import nn


    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(32, 4)
            self.init_weights()

        def init_weights(self):
            initrange = 0.5
            self.fc.weight.data.uniform_(-initrange, initrange)
            self.fc.bias.data.zero_()
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_in_place_fills_of_a_layer_parameter_become_set_data(version):
    text = fixed(INIT_WEIGHTS, version)
    assert ("self.fc.weight.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Uniform(initrange), "
            "self.fc.weight.shape, self.fc.weight.dtype))") in text
    assert ("self.fc.bias.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Zero(), "
            "self.fc.bias.shape, self.fc.bias.dtype))") in text


def test_an_asymmetric_uniform_fill_keeps_its_finding_without_a_fix():
    source = INIT_WEIGHTS.replace("uniform_(-initrange, initrange)", "uniform_(0.0, initrange)")
    line = next(number for number, text in enumerate(textwrap.dedent(source).splitlines(), 1) if "uniform_(0.0" in text)
    [finding] = [finding for finding in findings(source, "MS246") if finding.line == line]
    assert finding.fix is None and "only normal_(mean, std), uniform_(-r, r)" in finding.message


def test_an_embedding_bags_fill_is_rewritten_as_the_written_class_has_its_weight():
    """nn.EmbeddingBag is no longer left as torch's: the class written into the file (MS237) names its parameter
    `weight`, so its in-place fill gets set_data like any mapped layer's (tests/fixes/test_written_embedding_bag.py)."""
    source = """
        from torch import nn


        class Bag(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.EmbeddingBag(100, 8)
                self.embedding.weight.data.uniform_(-0.5, 0.5)
    """
    [fill] = findings(source, "MS246")
    assert fill.fix is not None
    [bag] = [finding for finding in findings(source, "MS237") if finding.api == "torch.nn.EmbeddingBag"]
    assert "no embedding bag layer" in bag.message and bag.fix is not None


# --- torch.save of a dict holding one state dict (structure_fixes._save_checkpoint_with_values) ----------------------
SAVE = """
    import torch
    from torch import nn

    net = nn.Linear(2, 2)
    for epoch in range(2):
        torch.save({"epoch": epoch, "model": net.state_dict()}, f"./net_{epoch}.pth")
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_saved_dict_with_one_state_dict_becomes_save_checkpoint_with_appended_values(version):
    text = fixed(SAVE, version)
    assert 'mindspore.save_checkpoint(net, f"./net_{epoch}.ckpt", append_dict={"epoch": epoch})' in text
    assert "import torch" not in text


def test_a_saved_dict_with_an_optimizer_state_is_left_with_its_finding():
    source = SAVE.replace('"model": net.state_dict()}', '"model": net.state_dict(), "optimizer": optimizer.state_dict()}')
    assert "torch.save(" in fixed(source)


# --- the device chosen before the module's first kernel (device_choice.py, fixes/families/early_device.py) -----------
@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_module_level_device_choice_moves_above_the_first_tensors(version):
    text = fixed("""
        import torch

        data = torch.randn(4, 3)
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        print(data)
    """, version)
    lines = text.splitlines()
    assert lines.index("mindspore.set_device(device)") < next(index for index, line in enumerate(lines) if line.startswith("data = "))
    assert lines.count("mindspore.set_device(device)") == 1


def test_a_device_choice_after_no_kernel_stays_where_it_is():
    text = fixed("""
        import torch

        seed = 0
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    """)
    assert text.splitlines()[-2:] == ['device = "Ascend" if mindspore.device_context.ascend.is_available() else "CPU"',
                                      "mindspore.set_device(device)"]


def test_a_device_choice_reading_a_variable_is_not_moved():
    text = fixed("""
        import torch

        use_cuda = torch.cuda.is_available()
        data = torch.randn(4, 3)
        device = torch.device("cuda" if use_cuda else "cpu")
    """)
    assert text.rstrip().endswith('device = "Ascend" if use_cuda else "CPU"\nmindspore.set_device(device)')


# --- a DataLoader over an element of a dict of TensorDatasets (walker: comprehension elements) -----------------------
LOADERS = """
    import torch

    image_datasets = {x: torch.utils.data.TensorDataset(torch.randn(8, 3), torch.randint(0, 2, (8,))) for x in ["train", "val"]}
    dataloaders = {x: torch.utils.data.DataLoader(image_datasets[x], batch_size=4, shuffle=(x == "train")) for x in ["train", "val"]}
"""


def test_a_loader_over_an_element_of_a_dict_of_tensor_datasets_becomes_a_pipeline():
    text = fixed(LOADERS)
    assert ('dataloaders = {x: (image_datasets[x].shuffle(image_datasets[x].get_dataset_size()) if x == "train" '
            'else image_datasets[x]).batch(4, drop_remainder=False) for x in ["train", "val"]}') in text
    assert "torch" not in text


def test_a_loader_over_an_element_of_an_unknown_dict_keeps_its_reason():
    source = """
        import torch

        def loaders(image_datasets):
            return {x: torch.utils.data.DataLoader(image_datasets[x], batch_size=4) for x in ["train", "val"]}
    """
    [finding] = [finding for finding in findings(source) if finding.api == "torch.utils.data.DataLoader"]
    assert finding.fix is None and "is not a TensorDataset built in this file" in finding.message


# --- the training step of a phase (rules/phase_step.py) ---------------------------------------------------------
PHASE = """
    import torch


    def train_model(model, criterion, optimizer, dataloaders):
        for phase in ["train", "val"]:
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                print(loss.item(), preds)
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_a_phase_step_becomes_value_and_grad_in_that_phase_and_a_plain_call_otherwise(version):
    text = fixed(PHASE, version)
    maximum = "mindspore.ops.max" if version == OPS_NN else "mint.max"
    step = textwrap.indent(textwrap.dedent(f"""\
        for inputs, labels in dataloaders[phase]:
            def forward_fn(inputs, labels):
                outputs = model(inputs)
                _, preds = {maximum}(outputs, 1)
                loss = criterion(outputs, labels)
                return loss, (outputs, preds)
            if phase == "train":
                (loss, (outputs, preds)), grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)(inputs, labels)
                optimizer(grads)
            else:
                loss, (outputs, preds) = forward_fn(inputs, labels)
            print(loss.item(), preds)
    """), " " * 8)
    assert step in text
    assert "torch" not in text and "zero_grad" not in text and "set_grad_enabled" not in text


def test_a_phase_step_that_leaves_the_forward_pass_says_why():
    source = PHASE.replace('loss = criterion(outputs, labels)', 'loss = criterion(outputs, labels)\n                    if loss is None:\n                        break')
    [finding] = findings(source, "MS245")
    assert finding.fix is None and "control flow (break, continue, return, yield) leaves the forward pass" in finding.message


def test_a_set_grad_enabled_block_without_a_step_is_not_a_phase_step():
    source = """
        import torch

        def evaluate(model, loader):
            for inputs, labels in loader:
                with torch.set_grad_enabled(False):
                    outputs = model(inputs)
    """
    assert findings(source, "MS245") == []


# --- an ops/nn-era Dense's sizes (rules/linear_sizes.py) -----------------------------------------------------------
SIZES = """
    from torch import nn


    class Backbone(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 10)


    model = Backbone()
    num_ftrs = model.fc.in_features
    model.fc = nn.Linear(num_ftrs, 2)
"""


def test_in_features_of_a_dense_is_in_channels_in_the_ops_nn_era():
    assert "num_ftrs = model.fc.in_channels" in fixed(SIZES, OPS_NN)


def test_mint_linear_keeps_in_features():
    assert "num_ftrs = model.fc.in_features" in fixed(SIZES, MINT)
    assert findings(SIZES, "MS247", MINT) == []


# --- SGD without an lr (rules/optimizer_arguments.py) ----------------------------------------------------------------
@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_sgd_without_lr_gets_torch_default(version):
    text = fixed("""
        import torch
        from torch import nn

        model = nn.Linear(2, 2)
        params = [{"params": list(model.parameters()), "lr": 1e-2}]
        optimizer = torch.optim.SGD(params, momentum=0.9)
        other = torch.optim.SGD(params, 0.5)
    """, version)
    assert "optimizer = mindspore.experimental.optim.SGD(params, momentum=0.9, lr=0.001)" in text
    assert "other = mindspore.experimental.optim.SGD(params, 0.5)" in text


# --- a number plus a tensor is a tensor (walker: augmented assignment) ------------------------------------------------
def test_a_running_sum_of_tensors_is_formatted_as_a_number():
    text = fixed("""
        import torch

        running_corrects = 0
        for step in range(2):
            running_corrects += torch.sum(torch.ones(3))
        accuracy = running_corrects / 6
        print("{:.4f}".format(accuracy))
        total = 0
        for step in range(2):
            total += 1
        print("{:.4f}".format(total / 2))
    """)
    assert 'print("{:.4f}".format(accuracy.item()))' in text
    assert 'print("{:.4f}".format(total / 2))' in text
