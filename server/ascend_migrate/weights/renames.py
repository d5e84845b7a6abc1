"""Parameter names for `weights convert`: the ops/nn era's renames (kept in kb/layer_parameter_names.py, which the
engine reads too), the torch buffers no MindSpore layer holds, the candidates for matching names of unknown layer
types, and the axes mindspore.nn adds.
"""

from __future__ import annotations

from ascend_migrate.kb.layer_parameter_names import NN_ERA_RENAMES

__all__ = ["CANDIDATES", "NN_ERA_INSERTED_AXES", "NN_ERA_RENAMES", "TORCH_ONLY_BUFFERS"]

# torch buffers that no MindSpore layer holds: listed in the report as not carried over, never silently dropped.
TORCH_ONLY_BUFFERS = {
    "num_batches_tracked": "a BatchNorm counter torch uses only when momentum=None (a cumulative average); "
    "mindspore.nn's BatchNorm has no such buffer",
}

# Any leaf name → the mindspore.nn names it may have, for matching against a target whose layer types are unknown
# (a checkpoint compared with a checkpoint): a candidate is used only when the target holds it and not the torch name.
CANDIDATES: dict[str, tuple[str, ...]] = {}
for _renames in NN_ERA_RENAMES.values():
    for _source, _target in _renames.items():
        if _target not in CANDIDATES.setdefault(_source, ()):
            CANDIDATES[_source] = (*CANDIDATES[_source], _target)

# torch.nn class → {parameter → the axis mindspore.nn adds}: mindspore.nn.Conv1d keeps a 4-D weight
# (out, in, 1, kernel) where torch has (out, in, kernel) (read in mindspore 2.10.0 with Cell.parameters_and_names() on CPU).
NN_ERA_INSERTED_AXES: dict[str, dict[str, int]] = {
    "Conv1d": {"weight": 2},
}
