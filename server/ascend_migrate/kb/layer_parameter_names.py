"""How mindspore.nn (the ops/nn era) names the parameters of the layers whose names differ from torch.nn's.

Source: the parameter names of each mindspore 2.10.0 layer, read with `Cell.parameters_and_names()` on CPU
(docs/weights.md shows the call), and the layer reference of mindspore.nn 2.10. The mint layers
(mindspore.mint.nn.*) keep torch's names (`weight`, `bias`, `running_mean`, `running_var`,
`num_batches_tracked`), read the same way, so the mint era needs no table. Keyed by the torch.nn class name.
Used by `weights convert` (weights/renames.py) and by the engine's class-name dispatch rule (MS223).
"""

from __future__ import annotations

_BATCH_NORM = {"weight": "gamma", "bias": "beta", "running_mean": "moving_mean", "running_var": "moving_variance"}
_AFFINE_NORM = {"weight": "gamma", "bias": "beta"}

# torch.nn class → {torch parameter or buffer name → mindspore.nn name}; names not listed stay as they are.
NN_ERA_RENAMES: dict[str, dict[str, str]] = {
    "BatchNorm1d": _BATCH_NORM,
    "BatchNorm2d": _BATCH_NORM,
    "SyncBatchNorm": _BATCH_NORM,
    # mindspore.nn.BatchNorm3d wraps a BatchNorm2d named bn2d (its parameters are bn2d.gamma, ...).
    "BatchNorm3d": {name: f"bn2d.{target}" for name, target in _BATCH_NORM.items()},
    "InstanceNorm1d": _BATCH_NORM,
    "InstanceNorm2d": _BATCH_NORM,
    "InstanceNorm3d": _BATCH_NORM,
    "LayerNorm": _AFFINE_NORM,
    "GroupNorm": _AFFINE_NORM,
    "Embedding": {"weight": "embedding_table"},
    "PReLU": {"weight": "w"},
}
