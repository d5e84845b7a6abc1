"""How far apart two arrays are: max absolute and relative difference, cosine similarity, and the verdict."""

from __future__ import annotations

import math
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
                "max_absolute": _json_number(self.max_absolute), "max_relative": _json_number(self.max_relative),
                "cosine": _json_number(self.cosine), "passed": self.passed, **({"note": self.note} if self.note else {})}


def _json_number(value: float | None) -> float | str | None:
    """JSON has no infinity or NaN: those travel as the strings "inf", "-inf", "nan"."""
    return value if value is None or math.isfinite(value) else str(value)


def difference(name: str, expected: Any, actual: Any, tolerance: Tolerance) -> Difference:
    """`expected` (PyTorch) against `actual` (MindSpore), both numpy arrays; NaN (or the same infinity) in the same
    places counts as equal."""
    numpy = require("numpy", "comparing numbers")
    expected_shape, actual_shape = tuple(expected.shape), tuple(actual.shape)
    if expected_shape != actual_shape:
        if expected.size != actual.size or [n for n in expected_shape if n != 1] != [n for n in actual_shape if n != 1]:
            return Difference(name, expected_shape, actual_shape, None, None, None, False, "the shapes differ")
        actual = actual.reshape(expected_shape)  # only axes of length 1 differ (Conv1d's 4-D weight)
    with numpy.errstate(invalid="ignore", over="ignore"):  # inf - inf and huge products are results, not errors
        reference = expected.astype(numpy.float64)
        other = actual.astype(numpy.float64)
        same = (numpy.isnan(reference) & numpy.isnan(other)) | (reference == other)  # also inf against the same inf
        gap = numpy.where(same, 0.0, numpy.abs(reference - other))
        if gap.size == 0:
            return Difference(name, expected_shape, actual_shape, 0.0, 0.0, 1.0, True, "empty")
        max_absolute = float(numpy.nan_to_num(gap, nan=numpy.inf, posinf=numpy.inf).max())  # NaN against a number: infinitely apart
        scale = float(numpy.nan_to_num(numpy.abs(reference), nan=0.0, posinf=0.0).max())
        max_relative = max_absolute / scale if scale > 0 else (0.0 if max_absolute == 0 else float("inf"))
        flat_reference, flat_other = numpy.nan_to_num(reference.ravel()), numpy.nan_to_num(other.ravel())
        norms = float(numpy.linalg.norm(flat_reference) * numpy.linalg.norm(flat_other))
        cosine = float(flat_reference @ flat_other / norms) if norms > 0 else (1.0 if max_absolute == 0 else 0.0)
        passed = max_absolute <= tolerance.absolute + tolerance.relative * scale
        return Difference(name, expected_shape, actual_shape, max_absolute, max_relative, cosine, passed)
