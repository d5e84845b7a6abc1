"""Edge-input sweep: every PyTorch → MindSpore entry the battery can call, run on edge inputs and compared exactly.

    PYTHONPATH=server /work/kbvenv/bin/python -m tools.edge_inputs [--json FILE]

Needs torch and mindspore importable (stage 30's venv or /work/kbvenv). The numeric battery (kb/battery.py) compares
values with `allclose`, which calls -0.0 equal to +0.0, and flattens results into arrays, so a 0-d tensor and a Python
number, or a tensor and a one-element tuple, look the same to it; its creation probes (`torch.range(0.0, 1.0, 5)`)
never land on the end of a range. This sweep takes the battery's probe call of each entry (the first call shape torch
accepts, in a child process per batch with `launch_blocking`, as `kb verify --numeric` does) and runs the same call on

- signed zeros: -0.0 and +0.0 side by side with negatives and positives;
- NaN, +inf and -inf beside -0.0, +0.0 and ordinary numbers;
- int64, int32 and bool tensors with negatives and zeros;
- a 0-d and an empty tensor (calls whose inputs are elementwise, as the battery's 0-d and empty cases);
- for calls made of numbers only (arange, range, linspace, logspace, ...): ranges whose end is hit exactly
  (`(0, 4, 1)`, `(0.0, 1.0, 0.25)`), empty and descending ranges;
- for layers: signed zeros and NaN/inf inputs.

Each case compares the result KIND (tensor, Python scalar, tuple and its items, named tuple: tools/result_kinds.py),
dtype and shape, and the VALUES: NaN positions and the sign bit of zeros exactly, infinities exactly, other numbers
within the battery's tolerance. A case MindSpore's CPU build has no kernel for is "not checked", never "agree". A lead
is a fact for a person to judge (docs/knowledge-base-verification.md, "Edge-input sweep"), not a verdict.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.result_kinds import compare_kinds, result_kind

from ascend_migrate.kb import battery, numeric

_BATCH = 40
# The battery's inputs that hold floats of any value: edge variants replace their values and keep their shapes.
# Indices, labels, probabilities and the SPD matrix keep the probe's values (out of their domain nothing is defined).
FILLED = ("x", "y", "z", "a34", "b45", "a234", "b245", "v4", "w4", "x4d", "x3d", "x4d3", "x3d3", "x4d4", "x3d4", "c35",
          "v3", "row14", "logits")
INTEGER_INPUTS = ("xi", "yi")
_PATTERNS = {
    "signed zeros": (-0.0, 0.0, -1.5, 2.0, -0.5, 0.25, 0.0, -0.0, 3.0, -2.25, 1.0, -1.0),
    "NaN and inf": (float("nan"), -0.0, float("inf"), 1.5, float("-inf"), 0.0, -2.0, 0.5, float("nan"), 3.0, -1.0, 2.5),
    "integers": (-3, 0, 2, -1, 5, 1, -4, 3, 0, -2, 4, 1),
    "bool": (True, False, False, True, True, False, True, False, False, True, False, True),
}
TENSOR_VARIANTS = ("signed zeros", "NaN and inf", "int64", "int32", "bool")
LAYER_VARIANTS = ("signed zeros", "NaN and inf")
ZERO_D_VALUE = -1.5
# Calls made of numbers only (creation of ranges): ends hit exactly, empty and descending ranges, integer and float.
RANGE_ARGUMENTS = ((4,), (0, 4), (0, 4, 1), (1, 4, 1), (0.0, 1.0, 0.25), (0, 10, 2), (-1.0, 1.0, 0.5), (0.0, 1.0, 5),
                   (0, 4, 5), (2.0, 2.0, 1), (4, 0, -1), (0.0, 1.0, 1))


def exact_differences(numpy, expected: list, actual: list, example=None, values: bool = True,
                      any_order: bool = False) -> list[str]:
    """The differences between torch's flattened results and MindSpore's, in words (empty: they agree exactly).
    NaN positions, infinities and the sign bit of zeros must match exactly; other numbers within the battery's
    tolerance. `example`, when it has the result's shape, is the input named beside a differing element."""
    if len(expected) != len(actual):
        return [f"torch returns {len(expected)} values, mindspore {len(actual)}"]
    found = []
    for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
        where = f"result {index}: " if len(expected) > 1 else ""
        if not isinstance(left, numpy.ndarray) or not isinstance(right, numpy.ndarray):
            if type(left) is not type(right):
                found.append(f"{where}torch {type(left).__name__}, mindspore {type(right).__name__}")
            elif left != right:
                found.append(f"{where}torch {left!r}, mindspore {right!r}")
            continue
        if left.shape != right.shape:
            found.append(f"{where}shape: torch {list(left.shape)}, mindspore {list(right.shape)}")
            continue
        if left.dtype != right.dtype:
            found.append(f"{where}dtype: torch {left.dtype}, mindspore {right.dtype}")
        if values and left.size:
            words = value_difference(numpy, left, right, example, any_order)
            if words:
                found.append(where + words)
    return found


def value_difference(numpy, left, right, example=None, any_order: bool = False) -> str:
    """The first element where two arrays of one shape differ, in words, or "". With `any_order` (eigenvalues, whose
    order neither side promises) the same values in another order agree."""
    no_sign = numpy.zeros(left.shape, bool)
    if left.dtype.kind in "biu" and right.dtype.kind in "biu":
        nan, mismatch, sign = no_sign, left.astype(numpy.int64) != right.astype(numpy.int64), no_sign
    else:
        kind = numpy.complex128 if numpy.iscomplexobj(left) or numpy.iscomplexobj(right) else numpy.float64
        wide_left, wide_right = left.astype(kind), right.astype(kind)
        nan = numpy.isnan(wide_left) != numpy.isnan(wide_right)
        numbers = ~numpy.isnan(wide_left) & ~numpy.isnan(wide_right)
        with numpy.errstate(invalid="ignore"):
            close = numpy.isclose(wide_left, wide_right, rtol=battery.RELATIVE_TOLERANCE, atol=battery.ABSOLUTE_TOLERANCE)
            infinite = numpy.isinf(wide_left) | numpy.isinf(wide_right)
            # an infinity is close only to itself (isclose calls complex infinities apart even when they are equal)
            close = (close & ~infinite) | (wide_left == wide_right)
        mismatch = numbers & ~close
        if any_order and mismatch.any() and not nan.any():
            ordered = numpy.sort(wide_left, axis=None), numpy.sort(wide_right, axis=None)
            if numpy.allclose(*ordered, rtol=battery.RELATIVE_TOLERANCE, atol=battery.ABSOLUTE_TOLERANCE):
                return ""
        zeros = numbers & (wide_left == 0) & (wide_right == 0)
        sign = zeros & (numpy.signbit(wide_left) != numpy.signbit(wide_right)) if kind is numpy.float64 else no_sign
    if nan.any():
        what, where = "NaN where the other gives a number", nan
    elif mismatch.any():
        what, where = "values differ", mismatch
    elif sign.any():
        what, where = "sign of zero differs", sign
    else:
        return ""
    position = int(numpy.flatnonzero(where)[0])
    shown = f"{what} ({int(where.sum())} of {where.size}): torch {_element(left, position)}, mindspore " \
            f"{_element(right, position)}"
    if example is not None and getattr(example, "shape", None) == left.shape:
        shown += f" at input {_element(example, position)}"
    return shown


def _element(array, position: int) -> str:
    item = array.flat[position].item()
    return repr(item)


class EdgeBattery(battery.Battery):
    """The battery with edge inputs and an exact comparison of kinds and values."""

    def __init__(self) -> None:
        super().__init__()
        self.example = None  # the first input array of the case being run: named beside a differing element
        self.any_order = False  # eigenvalues: neither side promises an order

    def run(self, job: dict) -> dict:
        self.any_order = "eig" in job["api"].rsplit(".", 1)[-1]
        return super().run(job)

    def value(self, name, variant: str = "probe", shape=None):
        numpy = self.numpy
        edge = variant in TENSOR_VARIANTS or variant in ("0-d", "empty")
        if not edge or not isinstance(name, str):
            return super().value(name, variant, shape)
        if name in FILLED or (name in INTEGER_INPUTS and variant in ("int64", "int32")):
            size = shape if shape is not None else battery._SHAPES.get(name, (3, 4))
            if variant == "0-d":
                return numpy.array(ZERO_D_VALUE, dtype=numpy.float32)
            if variant == "empty":
                return numpy.zeros(size, numpy.float32)
            pattern = _PATTERNS["integers" if variant in ("int64", "int32") else variant]
            count = int(numpy.prod(size))
            offset = sum(map(ord, name)) % len(pattern)  # x and y hold their zeros and NaNs at other places
            flat = [pattern[(offset + index) % len(pattern)] for index in range(count)]
            dtype = {"int64": numpy.int64, "int32": numpy.int32, "bool": bool}.get(variant, numpy.float32)
            return numpy.array(flat, dtype=dtype).reshape(size)
        if name == "pair":
            return [self.value("x", variant, shape), self.value("y", variant, shape)]
        return super().value(name, "probe", shape)

    def case(self, run_torch, run_mindspore, extra=None, values: bool = True):
        """(status, detail, None) as the battery's case, compared by kind and exactly by value."""
        try:
            torch_result = run_torch()
            if torch_result is None:
                return None, "", None
            expected = self.flatten(torch_result, "torch") + (extra("torch") if extra else [])
        except Exception:
            return None, "", None  # torch refuses this input: the case does not apply
        try:
            mindspore_result = run_mindspore()
            actual = self.flatten(mindspore_result, "mindspore") + (extra("mindspore") if extra else [])
            self.mindspore.runtime.synchronize()
        except Exception as error:
            return battery._refusal(error)
        types = (self.torch.Tensor, self.mindspore.Tensor)
        kind = compare_kinds(result_kind(torch_result, types), result_kind(mindspore_result, types))
        words = ([kind] if kind else []) + exact_differences(self.numpy, expected, actual, self.example, values,
                                                                     self.any_order)
        return ("differ", "; ".join(words), None) if words else ("agree", "", None)


class Sweep:
    """What one entry showed, case by case."""

    def __init__(self, call: str) -> None:
        self.call = call
        self.checked: list[str] = []
        self.unchecked: list[str] = []
        self.leads: list[list[str]] = []

    def add(self, case: str, status, detail: str) -> None:
        if status is None:
            return  # torch refuses the case: it does not apply
        if status == "limit":
            self.unchecked.append(f"{case}: {detail}")
            return
        self.checked.append(case)
        if status in ("differ", "error"):
            # a difference an earlier case already showed (a named tuple, an index dtype) is said once
            said = {part for _, earlier in self.leads for part in earlier.split("; ")}
            new = [part for part in " ".join(detail.split()).split("; ") if part not in said]
            if new:
                self.leads.append([case, "; ".join(new)])

    def result(self) -> dict:
        return {"ran": bool(self.checked), "call": self.call, "checked": self.checked, "unchecked": self.unchecked,
                "leads": self.leads}


def _first_array(values: list):
    for value in values:
        if hasattr(value, "shape"):
            return value
        if isinstance(value, list) and value and hasattr(value[0], "shape"):
            return value[0]
    return None


class EdgeCall(battery.Call):
    """A function or tensor method: the battery's probe call shape, then the edge inputs."""

    def run(self) -> dict:
        checker = self.battery
        for call in battery._FUNCTION_CALLS:
            probe = [checker.value(name) for name in call]
            checker.example = _first_array(probe)
            status, detail, _ = self.one(probe)
            if status is None:
                continue
            sweep = Sweep(", ".join(battery._describe(value) for value in probe))
            sweep.add("probe", status, detail)
            numbers_only = all(not isinstance(name, str) for name in call)
            if status in ("limit", "error") and not numbers_only:
                return sweep.result()  # MindSpore cannot run the ordinary call: the record says so already
            if self.method:
                attribute = self._attribute_or_method()
                if attribute:
                    sweep.leads.append(["probe", attribute])
            for label, values, compare_values in self._edge_inputs(call):
                checker.example = _first_array(values)
                status, detail, _ = self.one(values, compare_values=compare_values)
                sweep.add(label, status, detail)
            return sweep.result()
        return {"ran": False, "detail": "no probe call fits the torch signature"}

    def _attribute_or_method(self) -> str:
        """x.real is a tensor in torch and a bound method in MindSpore: the battery calls whatever it gets, so
        both sides give the same tensor and only this check shows that `x.real` is no longer a tensor."""
        checker = self.battery
        torch_attribute = getattr(checker.torch.zeros(2), self.torch_callable, None)
        mindspore_attribute = getattr(checker.mindspore.Tensor(checker.numpy.zeros(2, "float32")),
                                      self.mindspore_callable, None)
        if callable(torch_attribute) == callable(mindspore_attribute):
            return ""
        kinds = {True: "a method", False: "an attribute"}
        return (f"torch's x.{self.torch_callable} is {kinds[callable(torch_attribute)]}, mindspore's "
                f"x.{self.mindspore_callable} {kinds[callable(mindspore_attribute)]}")

    def _edge_inputs(self, call: tuple):
        checker = self.battery
        if all(not isinstance(name, str) for name in call):
            for arguments in RANGE_ARGUMENTS:
                yield f"range {arguments}", list(arguments), True
            return
        if not any(name in FILLED or name in INTEGER_INPUTS or name == "pair" for name in call):
            return  # indices, probabilities, shapes: nothing of the call takes an edge value
        for variant in TENSOR_VARIANTS:
            yield variant, [checker.value(name, variant) for name in call], True
        if all(not isinstance(name, str) or name in battery._ELEMENTWISE for name in call):
            for variant, shape in (("0-d", ()), ("empty", (0, 4))):
                yield variant, [checker.value(name, variant, shape) for name in call], variant != "empty"


class EdgeLayer(battery.Layer):
    """A layer: the battery's probe construction, then signed-zero and NaN/inf inputs."""

    def run(self) -> dict:
        for arguments, input_name in battery._LAYER_CALLS:
            inputs = self._inputs(input_name, "probe")
            self.battery.example = _first_array(inputs)
            (status, detail, _), _ = self.one(arguments, {}, inputs)
            if status is None:
                continue
            sweep = Sweep(f"{self.torch_class.__name__}{tuple(arguments)} on "
                          + ", ".join(battery._describe(value) for value in inputs))
            sweep.add("probe", status, detail)
            if status in ("limit", "error") or input_name in ("indices", "logits_labels"):
                return sweep.result()
            for variant in LAYER_VARIANTS:
                values = self._inputs(input_name, variant)
                self.battery.example = _first_array(values)
                (status, detail, _), _ = self.one(arguments, {}, values)
                sweep.add(variant, status, detail)
            return sweep.result()
        return {"ran": False, "detail": "no probe construction fits the layer"}


def run_child() -> int:
    """In the child process: jobs on stdin, one JSON line per job on stdout (as kb/battery.py's main)."""
    jobs = json.load(sys.stdin)
    battery.Call, battery.Layer = EdgeCall, EdgeLayer  # Battery.run builds the module's classes
    checker = EdgeBattery()
    print(json.dumps({"versions": checker.versions()}), flush=True)
    signal.signal(signal.SIGALRM, battery._timed_out)
    for job in jobs:
        signal.alarm(battery.SECONDS_PER_JOB)
        try:
            found = checker.run(job)
            if "ran" not in found:  # the battery's own answer: a constant, a dtype, a name that does not resolve
                found = {"ran": False, "detail": found.get("detail", "") or "a constant: no inputs to vary"}
        except Exception as error:  # the sweep itself failed on this entry: nothing known
            found = {"ran": False, "detail": f"{type(error).__name__}: {battery._first_line(error)}"}
        finally:
            signal.alarm(0)
        print(json.dumps(found, default=str), flush=True)
    return 0


def scan(mappings: Path, python: str = sys.executable, workers: int = 2) -> tuple[list[dict], dict[str, int]]:
    """Every candidate of `kb verify --numeric`, swept; returns one row per entry and the counts."""
    from ascend_migrate.kb.index import KnowledgeBase

    knowledge_base = KnowledgeBase.load(mappings)
    selected = numeric.candidates(knowledge_base)
    elsewhere = numeric.general_keywords(knowledge_base)
    jobs = [numeric.job(entry, elsewhere) for entry in selected]
    batches = [jobs[start:start + _BATCH] for start in range(0, len(jobs), _BATCH)]
    with ThreadPoolExecutor(max(1, workers)) as pool:
        answers = list(pool.map(
            lambda batch: numeric._run_batch(batch, python, module="tools.edge_inputs", argument="--child")[1], batches))
    record = numeric.load_record(mappings)
    rows = []
    for entry, found in zip(selected, [found for batch in answers for found in batch], strict=True):
        recorded = record.get((entry.api, entry.target), {})
        rows.append({"entry": f"{entry.table}.yaml:{entry.line}", "api": entry.api, "target": entry.target,
                     "category": entry.category, "fix": entry.fix, "severity": entry.severity or "",
                     "recorded": " ".join(filter(None, (recorded.get("outcome", ""), recorded.get("scope", "")))),
                     **found})
    ran = [row for row in rows if row.get("ran")]
    counts = {"entries": len(rows), "ran": len(ran),
              "probe refused": sum(1 for row in ran if row["checked"] == ["probe"] and row["leads"]),
              "not run": len(rows) - len(ran), "cases run": sum(len(row["checked"]) for row in ran),
              "cases not checked": sum(len(row.get("unchecked", ())) for row in rows),
              "entries with leads": sum(1 for row in ran if row["leads"] and row["checked"] != ["probe"]),
              "leads": sum(len(row["leads"]) for row in ran if row["checked"] != ["probe"])}
    return rows, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.edge_inputs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mappings", type=Path, default=Path("mappings"))
    parser.add_argument("--json", type=Path, help="also write every entry's cases and leads to this file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        return run_child()
    rows, counts = scan(arguments.mappings, workers=arguments.workers)
    if arguments.json:
        from ascend_migrate.files import write_atomically

        text = json.dumps({"counts": counts, "entries": rows}, indent=1) + "\n"
        write_atomically(arguments.json, text.encode("utf-8"))
    for row in rows:
        if not row.get("ran") or row["checked"] == ["probe"]:
            continue  # not run, or MindSpore refused the probe (kb verify --numeric records it as an error)
        for case, detail in row["leads"]:
            print(f"{row['category']:13} {row['fix']:6} {row['api']} -> {row['target']} [{case}] {detail} "
                  f"(record: {row['recorded'] or '-'}; {row['entry']})")
    print(f"{counts['entries']} entries: {counts['ran']} ran on both sides ({counts['probe refused']} of them only the "
          f"probe, which MindSpore refused), {counts['not run']} not run; {counts['cases run']} cases run, "
          f"{counts['cases not checked']} not checked (no CPU kernel); {counts['leads']} leads on "
          f"{counts['entries with leads']} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
