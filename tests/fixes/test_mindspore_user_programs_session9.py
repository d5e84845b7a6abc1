"""The MindSpore route's fixes for session 9's user programs (issue 17: siamese_network, reinforce, gcn from
pytorch/examples), text for text, both ways: what each fix writes and what it leaves alone (with the reason in the
finding). tests/execution/test_mindspore_route.py runs the three programs after `fix --write --unsafe`;
tests/execution/test_user_program_fixes_session9.py runs what these fixes write."""

from __future__ import annotations

import pytest
from tests.fixes.test_mindspore_user_programs import MINT, OPS_NN, findings, fixed

# --- tensor constructors (rules/tensor_constructors.py) ---------------------------------------------------------
CONSTRUCTORS = """
    import numpy as np
    import torch
    import torch.nn as nn

    rows = np.arange(6, dtype=np.int32)
    weight = nn.Parameter(torch.Tensor(3, 4))
    bias = nn.Parameter(torch.Tensor(out_features))
    vector = torch.Tensor(5)
    features = torch.FloatTensor(rows[1:])
    labels = torch.LongTensor(rows)
    values = torch.Tensor([1, 2])
"""


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_typed_constructors_write_shapes_as_zeros_and_cast_their_data(version):
    text = fixed(CONSTRUCTORS, version)
    assert "weight = mindspore.Parameter(mindspore.ops.zeros((3, 4), mindspore.float32))" in text
    assert "bias = mindspore.Parameter(mindspore.ops.zeros((out_features,), mindspore.float32))" in text
    assert "vector = mindspore.ops.zeros((5,), mindspore.float32)" in text
    assert "features = mindspore.Tensor(rows[1:], dtype=mindspore.float32)" in text
    assert "labels = mindspore.Tensor(rows, dtype=mindspore.int64)" in text
    assert "values = mindspore.Tensor([1, 2], dtype=mindspore.float32)" in text
    assert "torch" not in text


def test_a_tensor_given_one_name_outside_a_parameter_is_left_and_says_why():
    source = """
        import torch

        def make(count):
            return torch.Tensor(count)
    """
    assert "torch.Tensor(count)" in fixed(source)
    [finding] = [finding for finding in findings(source) if finding.api == "torch.Tensor"]
    assert finding.fix is None and "`count` may be a size or data" in finding.message


def test_a_tensor_type_in_isinstance_keeps_the_rename():
    assert "isinstance(x, mindspore.Tensor)" in fixed("""
        import torch

        def check(x):
            return isinstance(x, torch.Tensor)
    """)


def test_a_deque_is_given_to_mindspore_tensor_as_a_list():
    text = fixed("""
        from collections import deque
        import torch

        def normalised(rewards):
            returns = deque()
            for reward in rewards:
                returns.appendleft(reward)
            returns = torch.tensor(returns)
            ready = torch.tensor([1.0, 2.0])
            return returns, ready
    """)
    assert "returns = mindspore.tensor(list(returns))" in text
    assert "ready = mindspore.tensor([1.0, 2.0])" in text


@pytest.mark.parametrize(("version", "expected"), [
    (OPS_NN, "mindspore.ops.randint(0, 256, (4, 28, 28), dtype=mindspore.int32).astype(mindspore.uint8)"),
    (MINT, "mint.randint(0, 256, (4, 28, 28), dtype=mindspore.uint8)"),
])
def test_random_uint8_images_are_drawn_as_int32_in_the_ops_nn_era(version, expected):
    text = fixed("""
        import torch

        images = torch.randint(0, 256, (4, 28, 28), dtype=torch.uint8)
        labels = torch.randint(0, 10, (4,))
    """, version)
    assert expected in text
    assert "astype" not in text.split("labels =")[1]


# --- pooling (rules/pooling.py) ---------------------------------------------------------------------------------
POOLING = """
    import torch.nn as nn

    halve = nn.MaxPool2d(2)
    stem = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
    smooth = nn.AvgPool2d(3, 1, 1)
    ceiling = nn.MaxPool2d(2, ceil_mode=True)
"""


def test_pooling_writes_torch_stride_and_pad_mode_in_the_ops_nn_era():
    text = fixed(POOLING)
    assert "halve = mindspore.nn.MaxPool2d(kernel_size=2, stride=2)" in text
    assert 'stem = mindspore.nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="pad", padding=1)' in text
    assert 'smooth = mindspore.nn.AvgPool2d(kernel_size=3, stride=1, pad_mode="pad", padding=1)' in text
    assert 'ceiling = mindspore.nn.MaxPool2d(kernel_size=2, stride=2, pad_mode="pad", ceil_mode=True)' in text


def test_mint_era_avg_pool_keeps_torch_arguments_and_max_pool_gets_its_stride():
    text = fixed(POOLING, MINT)
    assert "halve = mindspore.nn.MaxPool2d(kernel_size=2, stride=2)" in text
    assert "smooth = mint.nn.AvgPool2d(3, 1, 1)" in text


def test_a_padding_tuple_is_left_and_says_why():
    source = """
        import torch.nn as nn

        pool = nn.MaxPool2d(3, 2, (1, 0))
    """
    assert "nn.MaxPool2d(3, 2, (1, 0))" in fixed(source)
    [finding] = [finding for finding in findings(source) if finding.api == "torch.nn.MaxPool2d"]
    assert "a padding tuple" in finding.message


# --- the training step in a function's body (rules/training_step.py) -------------------------------------------
STEP_IN_FUNCTION = """
    import torch


    def train_iter(model, optimizer, criterion, input, target, mask):
        model.train()
        optimizer.zero_grad()
        output = model(*input)
        loss = criterion(output[mask], target[mask])
        loss.backward()
        optimizer.step()
        return loss.item()
"""


def test_a_step_in_a_function_body_becomes_value_and_grad():
    text = fixed(STEP_IN_FUNCTION)
    assert "def forward_fn(" in text and "mindspore.value_and_grad(forward_fn, None, optimizer.parameters" in text
    assert "optimizer(grads)" in text
    assert "zero_grad" not in text and ".backward()" not in text and "optimizer.step()" not in text


REINFORCE_STEP = """
    import torch


    def finish_episode(policy, optimizer, returns):
        policy_loss = []
        for log_prob, value in zip(policy.saved_log_probs, returns):
            policy_loss.append(-log_prob * value)
        optimizer.zero_grad()
        policy_loss = torch.cat(policy_loss).sum()
        policy_loss.backward()
        optimizer.step()
"""


def test_a_step_whose_loss_comes_from_saved_tensors_is_left_and_says_why_at_zero_grad():
    text = fixed(REINFORCE_STEP)
    assert "optimizer.zero_grad()" in text and "policy_loss.backward()" in text and "value_and_grad" not in text
    explained = [finding for finding in findings(REINFORCE_STEP, "MS204") if "no model runs between zero_grad() and backward()" in finding.message]
    assert {finding.line for finding in explained} == {9, 11}  # zero_grad() and backward()


# --- x.std() (rules/unbiased_std.py) -------------------------------------------------------------------------------
@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_std_with_no_arguments_stays_unbiased(version):
    text = fixed("""
        import torch

        def normalise(returns):
            returns = torch.tensor(returns)
            spread = returns.std(1)
            return (returns - returns.mean()) / (returns.std() + 1e-6), spread
    """, version)
    assert "returns.std(ddof=1)" in text
    assert "returns.std(1)" in text  # another form: the table's adaptation, not this fix


# --- children() (structure.yaml MS248) ---------------------------------------------------------------------------
def test_children_become_cells():
    source = """
        import torch.nn as nn


        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
                self.head = nn.Sequential(*list(self.body.children())[:-1])
    """
    assert "nn.SequentialCell(*list(self.body.cells())[:-1])" in fixed(source)
    assert [finding.line for finding in findings(source, "MS248")] == [9]


def test_children_of_something_that_is_not_a_module_is_left_alone():
    assert findings("""
        import torch

        def walk(tree):
            return list(tree.children())
    """, "MS248") == []


# --- typing: instance attributes from outside the class, isinstance in a function ---------------------------------
EMBEDDING_OUTSIDE = """
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.table = nn.Embedding(10, 4)


    model = Net()
    print(model.table.embedding_dim)
    other = object()
    print(other.table.embedding_dim)
"""


def test_an_instance_attribute_read_outside_its_class_is_typed():
    assert [finding.line for finding in findings(EMBEDDING_OUTSIDE, "MS222")] == [12]
    assert "print(model.table.embedding_size)" in fixed(EMBEDDING_OUTSIDE)


def test_a_layer_of_a_layer_attribute_is_typed_inside_the_class():
    text = fixed("""
        import torch.nn as nn


        class Small(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 10)


        class Twin(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = Small()
                self.width = self.body.fc.in_features
    """)
    assert "self.width = self.body.fc.in_channels" in text


ISINSTANCE = """
    import torch
    import torch.nn as nn


    def init_weights(m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)
        m.bias.data.fill_(0.02)
"""


def test_isinstance_types_the_name_in_its_body_only():
    assert [finding.line for finding in findings(ISINSTANCE, "MS246")] == [9]
    text = fixed(ISINSTANCE)
    assert "m.bias.set_data(mindspore.common.initializer.initializer(mindspore.common.initializer.Constant(0.01)" in text
    assert "m.bias.data.fill_(0.02)" in text
