"""How far apart two arrays are: max absolute and relative difference, cosine similarity, and the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ascend_migrate.weights.packages import require


@dataclass(frozen=True)
class Tolerance:
    """Equal when max|a - b| <= absolute + relative * max|b| (b: the PyTorch side, the reference)."""

    absolute: float = 1e-4
    relative: float = 0.0


@dataclass(frozen=True)
class Difference:
    name: str  # what was compared: "output", "features.1", "features.1.weight → features.1.gamma"
    torch_shape: tuple[int, ...]
    mindspore_shape: tuple[int, ...]
    max_absolute: float | None  # None when the shapes differ (nothing to subtract)
    max_relative: float | None  # max|a - b| / max|b|
    cosine: float | None
    passed: bool
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "torch_shape": list(self.torch_shape), "mindspore_shape": list(self.mindspore_shape),
                "max_absolute": self.max_absolute, "max_relative": self.max_relative, "cosine": self.cosine,
                "passed": self.passed, **({"note": self.note} if self.note else {})}


def difference(name: str, expected: Any, actual: Any, tolerance: Tolerance) -> Difference:
    """`expected` (PyTorch) against `actual` (MindSpore), both numpy arrays; NaN in the same places counts as equal."""
    numpy = require("numpy", "comparing numbers")
    expected_shape, actual_shape = tuple(expected.shape), tuple(actual.shape)
    if expected_shape != actual_shape:
        if expected.size != actual.size or [n for n in expected_shape if n != 1] != [n for n in actual_shape if n != 1]:
            return Difference(name, expected_shape, actual_shape, None, None, None, False, "the shapes differ")
        actual = actual.reshape(expected_shape)  # only axes of length 1 differ (Conv1d's 4-D weight)
    reference = expected.astype(numpy.float64)
    other = actual.astype(numpy.float64)
    both_nan = numpy.isnan(reference) & numpy.isnan(other)
    gap = numpy.where(both_nan, 0.0, numpy.abs(reference - other))
    if gap.size == 0:
        return Difference(name, expected_shape, actual_shape, 0.0, 0.0, 1.0, True, "empty")
    max_absolute = float(numpy.nan_to_num(gap, nan=numpy.inf).max())
    scale = float(numpy.nan_to_num(numpy.abs(reference), nan=0.0, posinf=0.0).max())
    max_relative = max_absolute / scale if scale > 0 else (0.0 if max_absolute == 0 else float("inf"))
    flat_reference, flat_other = numpy.nan_to_num(reference.ravel()), numpy.nan_to_num(other.ravel())
    norms = float(numpy.linalg.norm(flat_reference) * numpy.linalg.norm(flat_other))
    cosine = float(flat_reference @ flat_other / norms) if norms > 0 else (1.0 if max_absolute == 0 else 0.0)
    passed = max_absolute <= tolerance.absolute + tolerance.relative * scale
    return Difference(name, expected_shape, actual_shape, max_absolute, max_relative, cosine, passed)
