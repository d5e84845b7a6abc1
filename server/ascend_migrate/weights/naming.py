"""The parameter map: which MindSpore name (and layout) each PyTorch parameter gets, and what did not map.

The names come from, in this order: the user's `--map` rules (regex → name), then the MindSpore model's own
parameter names when it is given (the torch name, else the mindspore.nn rename of `renames.py`), else the era
asked for (`nn`: the renames; `mint`: torch's names). Nothing is dropped without being listed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.renames import CANDIDATES, NN_ERA_INSERTED_AXES, NN_ERA_RENAMES, TORCH_ONLY_BUFFERS

ERAS = ("nn", "mint")


@dataclass(frozen=True)
class MapRule:
    """`pattern` (matched against the whole torch name) → `replacement` (with \\1 groups), None: leave it out."""

    pattern: re.Pattern[str]
    replacement: str | None
    origin: str  # "FILE rule N", for the report


@dataclass(frozen=True)
class Mapped:
    source: str
    target: str
    how: str  # "same name", "mindspore.nn BatchNorm2d: running_mean → moving_mean", "--map FILE rule 2"
    source_layer: str  # the torch module that holds the parameter ("" for the root)
    target_layer: str  # the MindSpore cell that holds it
    source_shape: tuple[int, ...]
    target_shape: tuple[int, ...]
    source_dtype: str
    target_dtype: str


@dataclass
class ParameterMap:
    mapped: list[Mapped] = field(default_factory=list)
    not_carried: list[tuple[str, str]] = field(default_factory=list)  # (torch name, why it has no counterpart)
    unmapped: list[tuple[str, str]] = field(default_factory=list)  # (torch name, why no name was found)
    shape_mismatches: list[tuple[str, str, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # MindSpore parameters that no torch parameter fills

    @property
    def complete(self) -> bool:
        return not (self.unmapped or self.shape_mismatches or self.missing)

    def reshaped(self) -> list[Mapped]:
        return [entry for entry in self.mapped if entry.source_shape != entry.target_shape]

    def cast(self) -> list[Mapped]:
        return [entry for entry in self.mapped if entry.source_dtype != entry.target_dtype]

    def layer_pairs(self) -> dict[str, str]:
        """torch module name → MindSpore cell name, as the parameters map them."""
        return {entry.source_layer: entry.target_layer for entry in self.mapped}

    def to_json(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "mapped": [
                {"source": entry.source, "target": entry.target, "how": entry.how, "source_shape": list(entry.source_shape),
                 "target_shape": list(entry.target_shape), "source_dtype": entry.source_dtype, "target_dtype": entry.target_dtype}
                for entry in self.mapped
            ],
            "not_carried": [{"source": name, "reason": reason} for name, reason in self.not_carried],
            "unmapped": [{"source": name, "reason": reason} for name, reason in self.unmapped],
            "shape_mismatches": [{"source": source, "target": target, "source_shape": list(source_shape), "target_shape": list(target_shape)}
                                 for source, target, source_shape, target_shape in self.shape_mismatches],
            "missing": list(self.missing),
        }


def read_map_file(path: Path) -> list[MapRule]:
    """Rules from a YAML or JSON file: a mapping `regex: name` (in order), or a list of `{pattern, name}`.
    A name of null leaves the matching parameters out of the checkpoint (listed as not carried)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise WeightsError(f"--map {path}: cannot read it: {error.strerror or error}") from None
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except Exception as error:  # json.JSONDecodeError, yaml.YAMLError: both say where
        raise WeightsError(f"--map {path}: not valid {'JSON' if path.suffix.lower() == '.json' else 'YAML'}: {error}") from None
    if isinstance(data, dict):
        pairs = list(data.items())
    elif isinstance(data, list) and all(isinstance(item, dict) and set(item) == {"pattern", "name"} for item in data):
        pairs = [(item["pattern"], item["name"]) for item in data]
    else:
        raise WeightsError(f"--map {path}: expected a mapping `regex: name` or a list of {{pattern: ..., name: ...}}")
    rules = []
    for number, (pattern, replacement) in enumerate(pairs, start=1):
        origin = f"{path.name} rule {number}"
        if not isinstance(pattern, str) or not (replacement is None or isinstance(replacement, str)):
            raise WeightsError(f"--map {path}: rule {number}: the pattern and the name must be strings (or the name null)")
        try:
            compiled = re.compile(pattern)
        except re.error as error:
            raise WeightsError(f"--map {path}: rule {number}: {pattern!r} is not a regular expression: {error}") from None
        rules.append(MapRule(compiled, replacement, origin))
    return rules


def build_map(
    shapes: dict[str, tuple[int, ...]],
    dtypes: dict[str, str],
    torch_layers: dict[str, str] | None,
    target: dict[str, tuple[tuple[int, ...], str]] | None,
    era: str = "nn",
    rules: tuple[MapRule, ...] | list[MapRule] = (),
) -> ParameterMap:
    """Map every torch name of `shapes` (in order). `torch_layers`: module name → torch.nn class name;
    `target`: MindSpore name → (shape, dtype), or None to name by `era` alone."""
    result = ParameterMap()
    taken: dict[str, str] = {}
    for name, shape in shapes.items():
        layer, _, leaf = name.rpartition(".")
        kind = (torch_layers or {}).get(layer, "")
        chosen = _by_rules(name, rules)
        if chosen is not None:
            target_name, how = chosen
            if target_name is None:
                result.not_carried.append((name, f"left out by {how}"))
                continue
            target_layer = target_name.rpartition(".")[0]
        else:
            if leaf in TORCH_ONLY_BUFFERS and (target is None or name not in target):
                result.not_carried.append((name, TORCH_ONLY_BUFFERS[leaf]))
                continue
            named = _by_names(layer, leaf, kind, target, era)
            if named is None:
                candidates = [name] + [_join(layer, other) for other in CANDIDATES.get(leaf, ())]
                result.unmapped.append((name, f"the MindSpore model has no parameter {' or '.join(candidates)}"))
                continue
            target_name, how, target_layer = named
        if target is not None and target_name not in target:
            result.unmapped.append((name, f"{how} names {target_name}, which the MindSpore model does not have"))
            continue
        if target_name in taken:
            result.unmapped.append((name, f"{target_name} is already filled from {taken[target_name]}"))
            continue
        taken[target_name] = name
        source_dtype = dtypes.get(name, "float32")
        if target is not None:
            target_shape, target_dtype = target[target_name]
        else:
            target_shape, target_dtype = _nn_era_shape(kind, leaf, shape) if era == "nn" else shape, source_dtype
        if target_shape != shape and not _same_up_to_unit_axes(shape, target_shape):
            result.shape_mismatches.append((name, target_name, shape, target_shape))
            continue
        result.mapped.append(Mapped(name, target_name, how, layer, target_layer, shape, target_shape, source_dtype, target_dtype))
    if target is not None:
        result.missing = [name for name in target if name not in taken]
    return result


def _by_rules(name: str, rules) -> tuple[str | None, str] | None:
    for rule in rules:
        match = rule.pattern.fullmatch(name)
        if match is not None:
            return (None if rule.replacement is None else match.expand(rule.replacement)), f"--map {rule.origin}"
    return None


def _by_names(layer: str, leaf: str, kind: str, target, era: str) -> tuple[str, str, str] | None:
    """(MindSpore name, how it was chosen, MindSpore layer) for one torch parameter, or None."""
    renamed = NN_ERA_RENAMES.get(kind, {}).get(leaf)
    if target is None:
        if era == "nn" and renamed is not None:
            return _join(layer, renamed), f"mindspore.nn {kind}: {leaf} → {renamed}", layer
        return _join(layer, leaf), "same name", layer
    same = _join(layer, leaf)
    if same in target:
        return same, "same name", layer
    for other in ([renamed] if renamed else []) + [item for item in CANDIDATES.get(leaf, ()) if item != renamed]:
        if _join(layer, other) in target:
            return _join(layer, other), f"mindspore.nn {kind or 'layer'}: {leaf} → {other}", layer
    return None


def _join(layer: str, leaf: str) -> str:
    return f"{layer}.{leaf}" if layer else leaf


def _nn_era_shape(kind: str, leaf: str, shape: tuple[int, ...]) -> tuple[int, ...]:
    axis = NN_ERA_INSERTED_AXES.get(kind, {}).get(leaf)
    return shape if axis is None or len(shape) < axis else (*shape[:axis], 1, *shape[axis:])


def _same_up_to_unit_axes(source: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """(4, 3, 3) and (4, 3, 1, 3): the same values in the same order, only axes of length 1 added or removed."""
    return [size for size in source if size != 1] == [size for size in target if size != 1]


def print_map(parameter_map: ParameterMap) -> str:
    """The map as a reviewable table, problems after it."""
    lines = []
    width = max((len(entry.source) for entry in parameter_map.mapped), default=0)
    for entry in parameter_map.mapped:
        notes = [entry.how] if entry.how != "same name" else []
        if entry.source_shape != entry.target_shape:
            notes.append(f"reshaped {list(entry.source_shape)} → {list(entry.target_shape)}")
        if entry.source_dtype != entry.target_dtype:
            notes.append(f"{entry.source_dtype} → {entry.target_dtype}")
        lines.append(f"{entry.source:<{width}}  →  {entry.target}{'  (' + '; '.join(notes) + ')' if notes else ''}")
    lines.extend(problem_lines(parameter_map))
    return "\n".join(lines) + "\n"


def problem_lines(parameter_map: ParameterMap) -> list[str]:
    lines = [f"not carried: {name}: {reason}" for name, reason in parameter_map.not_carried]
    lines += [f"unmapped: {name}: {reason}" for name, reason in parameter_map.unmapped]
    lines += [f"shape mismatch: {source} {list(source_shape)} → {target} {list(target_shape)}"
              for source, target, source_shape, target_shape in parameter_map.shape_mismatches]
    lines += [f"missing: the MindSpore parameter {name} gets no torch parameter (it would keep its initial value)"
              for name in parameter_map.missing]
    return lines
