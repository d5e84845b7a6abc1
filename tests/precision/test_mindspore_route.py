"""The MindSpore route: annotations, dtype casts and calls that stay as they are give no finding a user sees."""

TENSORFLOW_LAYER = """
    from typing import Optional

    import tensorflow as tf


    class Dense(tf.keras.layers.Layer):
        def call(self, inputs: tf.Tensor, training: Optional[bool] = None) -> tf.Tensor:
            flat: tf.Tensor = tf.reshape(inputs, [-1, 8])
            return flat
"""

TORCH_TRAINING = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x)


    def train(model: nn.Module, device, compute_dtype, loader):
        model.to(torch.bfloat16)
        model.to(device)
        for batch in loader:
            batch = torch.as_tensor(batch)
            half = batch.to(torch.float16)
            cast = batch.to(dtype=torch.float32)
            same = batch.to(compute_dtype)
            moved = batch.to(device)
        state = model.state_dict()
        model.load_state_dict(state)
        return half, cast, same, moved
"""


def test_annotations_give_no_finding_the_calls_do(scan):
    findings = scan(TENSORFLOW_LAYER, target="mindspore")
    assert sorted((finding.line, finding.api) for finding in findings) == [
        (7, "tensorflow.keras.layers.Layer"),  # the base class: the layer becomes a Cell
        (8, "tensorflow.keras.Layer.call"),  # call becomes construct
        (9, "tensorflow.reshape"),  # not the tf.Tensor annotations on lines 8 and 9
    ]


def test_a_dtype_cast_is_no_device_placement(scan):
    findings = scan(TORCH_TRAINING, target="mindspore")
    placements = sorted((finding.line, finding.api) for finding in findings if finding.code == "MS205")
    assert placements == [(17, "torch.nn.Module.to"), (23, "torch.Tensor.to")]  # model.to(device), batch.to(device)
    assert not any(finding.line == 15 for finding in findings)  # `model: nn.Module` is an annotation


def test_state_dict_calls_that_stay_are_hints(scan):
    findings = scan(TORCH_TRAINING, target="mindspore")
    assert sorted((finding.line, finding.severity) for finding in findings if finding.code == "MS207") == [
        (24, "hint"), (25, "hint"),
    ]
