"""The MindSpore route's structure fixes (issue 17), text for text, with the shipped knowledge base: the training
step, device placement, the data pipeline, no_grad, checkpoints, the ops/nn era's constructors, initialisers.
tests/execution runs the same fixes on real programs with the real mindspore (the proof they run); these pin
their text and the cases where no fix is written and the finding says why."""

from __future__ import annotations

import textwrap

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable

OPS_NN = "2.4"


def settings(version: str = "2.10") -> Settings:
    return Settings(target="mindspore", mindspore_version=version)


def fixed(source: str, version: str = "2.10") -> str:
    source = textwrap.dedent(source)
    return fix_until_stable(source, lambda text: analyze(text, "train.py", settings(version)), unsafe=True).text


def findings(source: str, version: str = "2.10"):
    return analyze(textwrap.dedent(source), "train.py", settings(version))


TRAINING = """
    import torch

    def train(model, loader, optimizer, criterion, clip):
        total = 0.0
        for data, target in loader:
            optimizer.zero_grad()
            output = model(data)
            loss = criterion(output, target)
            total += loss.item()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            print(loss.item(), output.shape)
        return total
"""


def test_a_training_step_becomes_a_forward_function_value_and_grad_and_an_optimizer_call():
    text = fixed(TRAINING)
    assert textwrap.indent(textwrap.dedent("""\
        for data, target in loader:
            def forward_fn(data, target, total):
                output = model(data)
                loss = criterion(output, target)
                total += loss.item()
                return loss, (output, total)
            (loss, (output, total)), grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)(data, target, total)
            grads = mindspore.ops.clip_by_global_norm(grads, clip)
            optimizer(grads)
            print(loss.item(), output.shape)
    """), "    ") in text
    assert "import torch\n" not in text  # nothing uses it any more
    assert "zero_grad" not in text and "backward" not in text and "import mindspore" in text
    compile(text, "train.py", "exec")


def test_a_grad_scaler_step_loses_its_scaler_calls():
    text = fixed("""
        import torch

        scaler = torch.cuda.amp.GradScaler()
        for x, y in batches:
            optimizer.zero_grad()
            loss = model(x, y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
    """)
    assert "mindspore.value_and_grad(forward_fn, None, optimizer.parameters)(x, y)" in text
    assert "    optimizer(grads)\n" in text and "scaler.update()" not in text and "scaler.scale" not in text


def _backward_message(source: str) -> tuple[str, bool]:
    (finding,) = [f for f in findings(source) if f.api == "torch.Tensor.backward"]
    return finding.message, finding.fix is not None


def test_a_step_that_cannot_be_rewritten_says_why_and_has_no_fix():
    accumulated = """
        for i, (x, y) in enumerate(batches):
            loss = model(x, y) / 4
            loss.backward()
            if (i + 1) % 4 == 0:
                optimizer.step()
                optimizer.zero_grad()
    """
    message, fixable = _backward_message(accumulated)
    assert not fixable and "not in the same block as backward()" in message
    # two backward passes before one step are one function returning their sum (tests/fixes/
    # test_mindspore_layer_arguments.py); not when the gradients are zeroed between them
    two_losses = """
        for x, y in batches:
            optimizer.zero_grad()
            real = critic(x)
            real.backward()
            optimizer.zero_grad()
            fake = critic(y)
            fake.backward()
            optimizer.step()
    """
    message, fixable = _backward_message(two_losses)
    assert not fixable and "2 backward() passes before one step: zero_grad() between the backward passes" in message


def test_the_device_is_chosen_once_with_the_original_fallback_and_placements_are_dropped():
    text = fixed("""
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Net().to(device)
        for x, y in loader:
            x, y = x.to(device), y.to(device, non_blocking=True)
            x = x.to(torch.float16)
    """)
    assert 'device = "Ascend" if mindspore.device_context.ascend.is_available() else "CPU"\nmindspore.set_device(device)\n' in text
    assert "model = Net()\n" in text and "x, y = x" not in text  # `x, y = x, y` did nothing: the statement goes
    assert "x = x.to(torch.float16)" in text or "x = x.to(mindspore.float16)" in text  # a cast is not a placement


def test_a_statement_that_only_places_values_goes_whole_and_one_that_computes_stays():
    text = fixed("""
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(3, 1)
        model = model.to(device)  # placed
        for data in loader:
            inputs, labels = data[0].to(device), data[1].to(device)
            a, b = labels.to(device), inputs.to(device)
            inputs, labels = inputs.to(device), labels.to(device)
            print(model(inputs), a, b)
        for batch in loader:
            batch = batch.to(device)
        for x, y in loader:
            x, y = x.cuda(), y.cpu()
            self.x = self.x.to(device)
            z = x.to(device); z = z.to(device)
        print(x.to(device))
    """)
    assert "model.to" not in text and "# placed" not in text and "model = model" not in text
    assert "inputs, labels = data[0], data[1]\n" in text  # the value changes: only the calls go
    assert "a, b = labels, inputs\n" in text  # a swap is not a placement
    assert "inputs, labels = inputs" not in text and "x, y = x" not in text and "self.x = self.x" not in text
    assert "for batch in loader:\n    pass\n" in text  # never an empty block
    assert "z = x; z = z\n" in text  # not alone on its line: the calls go, the statements stay
    assert "print(x)\n" in text


def test_a_data_loader_over_a_tensor_dataset_keeps_batch_shuffle_drop_last_and_workers():
    text = fixed("""
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        loader = DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=True, drop_last=True, num_workers=2)
        held_out = TensorDataset(images, labels)
        evaluation = DataLoader(held_out, batch_size=8)
    """)
    assert ('loader = mindspore.dataset.NumpySlicesDataset((numpy.asarray(images), numpy.asarray(labels)), '
            'column_names=["column_0", "column_1"], shuffle=True, num_parallel_workers=max(1, 2))'
            '.batch(4, drop_remainder=True, num_parallel_workers=max(1, 2))') in text
    assert ('held_out = mindspore.dataset.NumpySlicesDataset((numpy.asarray(images), numpy.asarray(labels)), '
            'column_names=["column_0", "column_1"], shuffle=False)') in text
    assert "evaluation = held_out.batch(8, drop_remainder=False)" in text
    assert "from torch" not in text


def test_a_data_loader_with_options_it_cannot_see_is_left_to_the_user():
    source = """
        import torch

        loader = torch.utils.data.DataLoader(dataset, batch_size=4, **kwargs)
    """
    (finding,) = [f for f in findings(source) if f.api == "torch.utils.data.DataLoader"]
    assert finding.fix is None


def test_no_grad_becomes_a_null_context_and_checkpoints_are_ckpt_files():
    text = fixed("""
        import torch

        with torch.no_grad():
            prediction = model(x)
        torch.save(model.state_dict(), "model.pth")
        torch.save(model.state_dict(), "%s/net_%d.pt" % (folder, epoch))
    """)
    assert "with contextlib.nullcontext():\n    prediction = model(x)\n" in text and "import contextlib" in text
    assert 'mindspore.save_checkpoint(model, "model.ckpt")' in text
    assert 'mindspore.save_checkpoint(model, "%s/net_%d.ckpt" % (folder, epoch))' in text


def test_ops_nn_era_constructors_write_their_differences_out():
    text = fixed("""
        import torch
        import torch.nn as nn

        conv = nn.Conv2d(1, 32, 3, 1, 1, bias=False)
        plain = nn.Conv2d(3, 16, kernel_size=3)
        pairs = nn.Conv2d(1, 64, (5, 5), (1, 1), (2, 2))
        flat = torch.flatten(features, 1)
        rows = features.size(0)
        loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    """, OPS_NN)
    assert 'conv = mindspore.nn.Conv2d(1, 32, 3, 1, pad_mode="pad", padding=1, has_bias=False)' in text
    assert 'plain = mindspore.nn.Conv2d(3, 16, pad_mode="pad", kernel_size=3, has_bias=True)' in text
    assert 'pairs = mindspore.nn.Conv2d(1, 64, (5, 5), (1, 1), pad_mode="pad", padding=(2, 2, 2, 2), has_bias=True)' in text
    assert "flat = mindspore.ops.flatten(features, start_dim=1)" in text
    assert "rows = features.shape[0]" in text
    assert "loss_fn = functools.partial(mindspore.ops.cross_entropy, label_smoothing=0.1)" in text


def test_ops_nn_era_losses_get_torchs_default_reduction_written_out():
    # mindspore.ops.smooth_l1_loss defaults to reduction='none'; a plain rename would return element-wise losses
    text = fixed("""
        import torch.nn.functional as F

        mean = F.smooth_l1_loss(prediction, target)
        summed = F.smooth_l1_loss(prediction, target, reduction="sum", beta=0.5)
        deprecated = F.smooth_l1_loss(prediction, target, size_average=False)
    """, OPS_NN)
    assert 'mean = mindspore.ops.smooth_l1_loss(prediction, target, reduction="mean")' in text
    assert 'summed = mindspore.ops.smooth_l1_loss(prediction, target, reduction="sum", beta=0.5)' in text
    assert "deprecated = F.smooth_l1_loss(prediction, target, size_average=False)" in text


def test_the_mint_era_keeps_torch_signatures():
    text = fixed("""
        import torch.nn as nn

        conv = nn.Conv2d(1, 32, 3, 1, 1)
    """)
    assert "conv = mint.nn.Conv2d(1, 32, 3, 1, 1)" in text


def test_initialisers_fill_the_parameter_in_place():
    text = fixed("""
        import torch.nn as nn

        def init(module):
            nn.init.normal_(module.weight, 0.0, 0.02)
            nn.init.uniform_(module.bias, -0.1, 0.1)
            nn.init.uniform_(module.other, 0.0, 0.1)
            nn.init.orthogonal_(module.weight, nn.init.calculate_gain('relu'))
    """)
    assert ("module.weight.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Normal("
            "sigma=0.02, mean=0.0), module.weight.shape, module.weight.dtype))") in text
    assert "mindspore.common.initializer.Uniform(0.1)" in text
    assert "nn.init.uniform_(module.other, 0.0, 0.1)" in text  # [0, 0.1) has no MindSpore Uniform: left, reported
    assert "mindspore.common.initializer.Orthogonal(gain=math.sqrt(2.0))" in text


def test_parameters_of_a_model_of_unknown_type_and_of_a_cell():
    text = fixed("""
        import torch

        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for name, parameter in model.named_parameters():
            print(name)
    """)
    assert "model.get_parameters()" in text and "model.parameters_and_names()" in text


def test_a_rescan_after_the_fix_still_reports_torch_calls_on_mindspore_objects():
    source = """
        import mindspore
        from mindspore import mint

        class Net(mindspore.nn.Cell):
            def construct(self, x):
                return x

        model = Net().to(device)
        loss = mint.randn(3).sum()
        loss.backward()
    """
    apis = {f.api for f in findings(source)}
    assert {"torch.nn.Module.to", "torch.Tensor.backward"} <= apis


def test_a_scaler_update_on_the_last_line_without_a_line_break_goes_cleanly():
    source = "for x, y in batches:\n    optimizer.zero_grad()\n    loss = model(x, y)\n    scaler.scale(loss).backward()\n    scaler.step(optimizer)\n    scaler.update()"
    text = fix_until_stable(source, lambda text: analyze(text, "train.py", settings()), unsafe=True).text
    assert text.endswith("    optimizer(grads)") and "scaler" not in text
    compile(text, "train.py", "exec")


def test_a_size_read_without_a_call_is_not_a_tensor_size():
    """MS214 is about calling x.size(...): `array.size` read as an attribute (a NumPy array's element count,
    another object's field) stays as it is, on any receiver."""
    source = """
        import numpy as np
        import torch

        def count(batch, mask):
            array = np.asarray(mask)
            return batch.size(0), batch.size(), array.size, batch.edge_attr.size
    """
    sizes = [finding for finding in findings(source) if finding.code == "MS214"]
    assert [finding.column for finding in sizes] == [18, 33]  # the two calls, at `size`
    assert fixed(source).count(".shape") == 2 and "array.size, batch.edge_attr.size" in fixed(source)


def test_a_manual_sgd_step_becomes_value_and_grad_and_the_same_update_by_each_grad():
    text = fixed("""
        import torch

        fc = torch.nn.Linear(4, 1)
        for batch_x, batch_y in batches:
            fc.zero_grad()
            output = torch.nn.functional.mse_loss(fc(batch_x), batch_y)
            output.backward()
            for param in fc.parameters():
                param.data.sub_(0.1 * param.grad)
    """, OPS_NN)
    assert textwrap.indent(textwrap.dedent("""\
        for batch_x, batch_y in batches:
            def forward_fn(batch_y, batch_x):
                output = mindspore.ops.mse_loss(fc(batch_x), batch_y)
                return output
            output, grads = mindspore.value_and_grad(forward_fn, None, fc.trainable_params())(batch_y, batch_x)
            for param, grad in zip(fc.trainable_params(), grads):
                mindspore.ops.assign_sub(param, 0.1 * grad)
    """), "") in text
    assert "zero_grad" not in text and ".grad" not in text


def test_a_manual_update_by_another_tensors_grad_is_not_rewritten():
    message, fixable = _backward_message("""
        for x, y in batches:
            model.zero_grad()
            loss = model(x, y)
            loss.backward()
            for param in model.parameters():
                param.data.add_(-0.1 * other.grad)
    """)
    assert not fixable and "not in the same block as backward()" in message


def test_a_model_whose_class_is_imported_from_the_projects_own_module_is_saved_as_a_checkpoint(tmp_path):
    (tmp_path / "model.py").write_text("import torch.nn as nn\n\n\nclass Base(nn.Module):\n    pass\n\n\nclass Net(Base):\n    pass\n",
                                       encoding="utf-8")
    (tmp_path / "layers.py").write_text("class Net:\n    pass\n", encoding="utf-8")  # not a module: no fix
    source = textwrap.dedent("""
        import torch
        from model import Net
        from layers import Net as Plain

        model = Net()
        plain = Plain()

        def checkpoint(epoch):
            path = "model_epoch_{}.pth".format(epoch)
            torch.save(model, path)
            torch.save(plain, "plain.pth")
    """)
    main = str(tmp_path / "main.py")
    text = fix_until_stable(source, lambda text: analyze(text, main, settings(OPS_NN)), unsafe=True).text
    assert 'path = "model_epoch_{}.ckpt".format(epoch)\n    mindspore.save_checkpoint(model, path)\n' in text
    assert 'torch.save(plain, "plain.pth")' in text  # its type is not known: the pickle stays, reported
    elsewhere = fix_until_stable(source, lambda text: analyze(text, str(tmp_path / "other" / "main.py"), settings(OPS_NN)), unsafe=True).text
    assert "torch.save(model, path)" in elsewhere  # no model.py beside this file: not known


def test_the_accelerator_is_chosen_once_as_ascend():
    text = fixed("""
        import torch

        if use_accel and torch.accelerator.is_available():
            device = torch.accelerator.current_accelerator()
        else:
            device = torch.device("cpu")
    """, OPS_NN)
    assert textwrap.dedent("""
        if use_accel and mindspore.device_context.ascend.is_available():
            device = "Ascend"
            mindspore.set_device(device)
        else:
            device = "CPU"
            mindspore.set_device(device)
    """) in text


def test_a_data_loaders_kwargs_dict_is_followed_to_its_keys_and_read_at_run_time():
    text = fixed("""
        import torch

        def main(args, use_accel):
            train_kwargs = {'batch_size': args.batch_size}
            if use_accel:
                accel_kwargs = {'num_workers': 1, 'persistent_workers': True, 'pin_memory': True, 'shuffle': True}
                train_kwargs.update(accel_kwargs)
            extra = {'drop_last': True} if use_accel else {}
            dataset1 = torch.utils.data.TensorDataset(images, labels)
            train_loader = torch.utils.data.DataLoader(dataset1, **train_kwargs, **extra)
            return train_loader
    """, OPS_NN)
    assert ('    train_loader = (dataset1.shuffle(dataset1.get_dataset_size()) if train_kwargs.get("shuffle", False) else dataset1)'
            '.batch(train_kwargs.get("batch_size", 1), drop_remainder=extra.get("drop_last", False), '
            'num_parallel_workers=max(1, train_kwargs.get("num_workers", 0)))\n') in text
    assert "DataLoader" not in text


def _loader_message(source: str) -> tuple[str, bool]:
    (finding,) = [f for f in findings(source, OPS_NN) if f.api == "torch.utils.data.DataLoader"]
    return finding.message, finding.fix is not None


def test_a_data_loaders_kwargs_whose_keys_are_not_known_says_so_and_has_no_fix():
    message, fixable = _loader_message("""
        import torch

        def loader(dataset, options):
            kwargs = {'batch_size': 4}
            kwargs.update(options)
            return torch.utils.data.DataLoader(dataset, **kwargs)
    """)
    assert not fixable and "the keys `**kwargs` passes are not known here" in message
    message, fixable = _loader_message("""
        import torch

        def loader(dataset):
            return torch.utils.data.DataLoader(dataset, batch_size=4)
    """)
    assert not fixable and "its columns are not known here" in message
    message, fixable = _loader_message("""
        import torch

        def loader(dataset, sampler):
            kwargs = {'batch_size': 4}
            kwargs['sampler'] = sampler
            return torch.utils.data.DataLoader(dataset, **kwargs)
    """)
    assert not fixable and "`**kwargs` may pass sampler, which the pipeline cannot carry over" in message


def test_an_import_torch_nothing_uses_goes_with_the_other_torch_imports():
    text = fixed("""
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def forward(self, x):
                return x
    """, OPS_NN)
    assert "import torch" not in text and "class Net(mindspore.nn.Cell):" in text
    kept = fixed("""
        import torch
        import torch.nn as nn

        layer = nn.Linear(2, 2)
        model = torch.hub.load("pytorch/vision", "resnet18")
    """, OPS_NN)
    assert "import torch\n" in kept and "torch.hub.load" in kept  # still used: kept (and reported)


def test_a_call_in_a_form_the_equivalent_target_refuses_is_a_difference_there_with_no_fix():
    # mint.randint takes low/high/size by position only; mint.bernoulli has no p (both raise TypeError in 2.10)
    source = """
        import torch

        usual = torch.randint(0, 10, (3,))
        sized = torch.randint(0, 10, size=(3,))
        probabilities = torch.bernoulli(weights)
        fixed_p = torch.bernoulli(weights, p=0.3)
        positional_p = torch.bernoulli(weights, 0.3)
    """
    by_line = {finding.line: finding for finding in findings(source)}
    assert (by_line[4].code, by_line[4].severity) == ("MS101", "info") and by_line[4].fix is not None
    assert (by_line[6].code, by_line[6].severity) == ("MS101", "info") and by_line[6].fix is not None
    for line, refused in ((5, "size by position only"), (7, "has no p"), (8, "has no p")):
        finding = by_line[line]
        assert (finding.code, finding.severity, finding.fix) == ("MS102", "warning", None), line
        assert refused in finding.message and "Not rewritten automatically" in finding.message
    text = fixed(source)
    assert "usual = mindspore.mint.randint(0, 10, (3,))" in text or "usual = mint.randint(0, 10, (3,))" in text
    assert "sized = torch.randint(0, 10, size=(3,))" in text
    assert "fixed_p = torch.bernoulli(weights, p=0.3)" in text and "positional_p = torch.bernoulli(weights, 0.3)" in text


def test_cpu_is_dropped_and_numpy_kept():
    text = fixed("""
        import torch

        def sample(model, z):
            image = model.decode(torch.randn(4, 20)).cpu()
            return image, z.cpu().numpy()
    """, OPS_NN)
    assert "image = model.decode(mindspore.ops.randn(4, 20))\n" in text
    assert "return image, z.numpy()\n" in text  # mindspore.Tensor.numpy copies to the host (2.10)


def test_clipping_is_rewritten_by_the_step_never_renamed_to_a_call_on_the_weights():
    # The ops/nn era's table maps clip_grad_norm_ to ops.clip_by_norm; renamed, it clipped the weights and dropped the
    # result (mindspore 2.10 raised TypeError), and where the rename was applied a round before the step fix, the step
    # no longer saw its clipping. The step writes the clipping; a call outside any step keeps no fix and says why.
    source = """
        import torch

        def train(model, loader, optimizer, device):
            for x, y in loader:
                x, y = x.to(device), y.to(device)
                optimizer.zero_grad()
                loss = model(x, y)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
    """
    text = fixed(source, OPS_NN)
    assert "grads = mindspore.ops.clip_by_global_norm(grads, 1.0)" in text and "clip_by_norm" not in text
    alone = [f for f in findings("""
        import torch

        def clip(model):
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    """, OPS_NN) if f.api == "torch.nn.utils.clip_grad_norm_"]
    assert [(f.fix, "no rename can serve this call" in f.message) for f in alone] == [(None, True)]


def test_ops_nn_layer_norm_gets_its_size_as_a_tuple_and_torchs_eps():
    text = fixed("""
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.norm = nn.LayerNorm(width)
                self.tight = nn.LayerNorm(width, eps=1e-6)
                self.plane = nn.LayerNorm([4, width])
                self.plain = nn.LayerNorm(width, elementwise_affine=False)
    """, OPS_NN)
    assert "mindspore.nn.LayerNorm((width,), epsilon=1e-05)" in text
    assert "mindspore.nn.LayerNorm((width,), epsilon=1e-6)" in text
    # several axes (begin_norm_axis needs the input's rank) and no affine parameters: no fix, torch's call kept
    assert "nn.LayerNorm([4, width])" in text and "nn.LayerNorm(width, elementwise_affine=False)" in text
    mint = fixed("""
        import torch.nn as nn

        norm = nn.LayerNorm(16)
    """)
    assert "mint.nn.LayerNorm(16)" in mint  # the mint era's LayerNorm has torch's signature


def test_a_step_zeroing_grads_after_the_forward_pass_starts_its_function_at_the_model_call():
    text = fixed("""
        import torch

        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def get_batch():
            return torch.randn(3, 4), torch.randn(3, 2)

        for step in range(10):
            x, y = get_batch()
            loss = torch.nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()  # after the forward pass, as nanoGPT does
            loss.backward()
            optimizer.step()
    """)
    assert textwrap.dedent("""\
        for step in range(10):
            x, y = get_batch()
            def forward_fn(y, x):
                loss = mint.nn.functional.mse_loss(model(x), y)
                return loss
            loss, grads = mindspore.value_and_grad(forward_fn, None, optimizer.parameters)(y, x)
            optimizer(grads)
    """) in text, text  # the batch stays outside; zero_grad, backward and step are gone
    # a statement between zero_grad and backward: not this order; the loss is then not computed between them
    message, fixable = _backward_message("""
        for x, y in batches:
            loss = model(x, y)
            optimizer.zero_grad()
            print(step)
            loss.backward()
            optimizer.step()
    """)
    assert not fixable and "is not computed between zero_grad() and backward()" in message


def test_a_statement_removed_for_two_findings_is_listed_once(tmp_path, monkeypatch, capsys):
    from ascend_migrate.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text("import torch\n\n\ndef step(x, y, device):\n    x, y = x.to(device), y.to(device)\n"
                                       "    return x + y\n", encoding="utf-8")
    main(["fix", "--target", "mindspore", "--unsafe", "--diff", "train.py"])
    listed = [line for line in capsys.readouterr().err.splitlines() if " MS205 " in line]
    assert listed == ["train.py:5: MS205 x, y = x.to(device), y.to(device) -> (nothing)"]
