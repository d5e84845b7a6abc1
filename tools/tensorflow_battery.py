"""Runs TensorFlow and MindSpore side by side on the same inputs for the TF entries that compute.

TensorFlow and MindSpore need different numpy releases, so each side runs in its own venv and writes what it got
(JSON); `compare` reads both and writes the record, mappings/verification/tensorflow_numeric.yaml: per entry
`agree` (every case gave the same values, shape and dtype kind), `differ` (with what differs, in words) or
`not-checked` (with why). The inputs are the literals below, so both sides see exactly the same numbers:
negatives, signed zeros, NaN and infinities, int32 values and divisors, booleans, and shapes that broadcast.

    /tmp/ascend-migrate-tensorflow/venv/bin/python -m tools.tensorflow_battery run --side tensorflow --output /tmp/tf.json
    /work/kbvenv/bin/python -m tools.tensorflow_battery run --side mindspore --output /tmp/ms.json
    python3 -m tools.tensorflow_battery compare /tmp/tf.json /tmp/ms.json --output mappings/verification/tensorflow_numeric.yaml

An entry's category follows from its record: tests/tensorflow_route/test_tensorflow_battery.py fails when an
`ms-equivalent` entry's record says `differ`.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from tools.two_sides import command_line, error_text

NAN, INF = float("nan"), float("inf")
# name -> (literal, dtype); x and y broadcast ((2, 5) with (2, 1)), so do i and j, and b and c.
INPUTS = {
    "x": ([[-2.5, -1.0, -0.0, 0.0, 0.5], [1.0, 3.0, NAN, INF, -INF]], "float32"),
    "y": ([[2.0], [-0.5]], "float32"),
    "p": ([[0.25, 0.5, 1.0, 2.0, 4.5], [0.1, 3.0, 7.5, 1e-3, 10.0]], "float32"),  # positive: special functions
    "i": ([[-7, -3, -1, 0, 1], [2, 5, 7, 9, -8]], "int32"),
    "j": ([[2], [-3]], "int32"),
    "b": ([[True, False, True, False, True], [False, False, True, True, False]], "bool"),
    "c": ([[True], [False]], "bool"),
    "k": ([[0], [1]], "int32"),  # indices into the first axis of x and i
}
UNARY = ("f(x)", "f(i)")
BINARY = ("f(x, y)", "f(i, j)")
# The callables' positional parameters agree on both sides (checked in their signatures), so one call serves both.
CASES: dict[str, tuple[str, ...]] = {}
for _name in ("math.log", "math.exp", "math.square", "math.abs", "math.sqrt", "math.log1p", "math.reciprocal",
              "math.lgamma", "math.softplus", "math.floor", "math.expm1", "math.sign", "math.sigmoid", "math.digamma",
              "math.is_finite", "math.cos", "math.sin", "math.is_nan", "math.rsqrt", "math.tanh", "math.ceil",
              "math.round", "math.erfc", "math.is_inf", "math.atan", "math.sinh", "math.asinh", "math.tan",
              "math.log_sigmoid", "nn.relu", "nn.relu6", "nn.selu", "zeros_like", "ones_like",
              "keras.ops.sqrt", "keras.ops.ones_like", "keras.ops.zeros_like", "keras.ops.cos", "keras.ops.sin",
              "keras.ops.log", "keras.ops.sigmoid", "keras.ops.rsqrt", "keras.ops.tanh", "keras.ops.exp",
              "keras.ops.square", "keras.ops.floor", "keras.ops.abs", "keras.ops.silu", "keras.ops.relu",
              "keras.ops.softplus", "keras.ops.ceil", "keras.ops.round", "keras.activations.silu",
              "keras.activations.softmax", "math.bessel_i0", "math.bessel_i0e", "math.bessel_i1", "math.bessel_i1e"):
    CASES[_name] = UNARY
for _name in ("math.maximum", "math.minimum", "math.pow", "math.multiply", "math.subtract", "math.equal",
              "math.not_equal", "math.less", "math.greater", "math.greater_equal", "math.less_equal", "math.floormod",
              "math.floordiv", "math.xdivy", "math.truediv", "keras.ops.multiply", "keras.ops.add",
              "keras.ops.maximum", "keras.ops.minimum", "keras.ops.divide", "keras.ops.equal", "keras.ops.subtract",
              "keras.ops.greater", "keras.ops.greater_equal", "keras.ops.not_equal", "keras.ops.less",
              "keras.ops.power", "keras.ops.floor_divide"):
    CASES[_name] = BINARY
CASES.update({
    "math.xlogy": ("f(x, y)", "f(p, y)"),
    "math.igamma": ("f(p, y)", "f(p, p)"),
    "math.igammac": ("f(p, y)", "f(p, p)"),
    "math.zeta": ("f(p + 1.0, p)",),
    "math.scalar_mul": ("f(2.0, x)", "f(3, i)"),
    "math.logical_and": ("f(b, c)",), "math.logical_or": ("f(b, c)",), "math.logical_not": ("f(b)",),
    "keras.ops.logical_and": ("f(b, c)",), "keras.ops.logical_or": ("f(b, c)",), "keras.ops.logical_not": ("f(b)",),
    "bitwise.invert": ("f(i)",), "bitwise.left_shift": ("f(i, abs(j))",),
    "math.add_n": ("f([x, y + x, x])", "f([i, i])"),
    "stack": ("f([x, x * 2.0], 1)", "f([i, i], 0)"), "keras.ops.stack": ("f([x, x * 2.0], 1)", "f([i, i], 0)"),
    "broadcast_to": ("f(y, (2, 5))", "f(j, (3, 2, 1))"), "keras.ops.broadcast_to": ("f(y, (2, 5))",),
    "linalg.tensor_diag": ("f(y[:, 0])", "f(i[0])"),
    "tensor_scatter_nd_add": ("f(x, k, x * 0.0 + 1.0)", "f(i, k[1:], i[:1])"),
    "tensor_scatter_nd_update": ("f(x, k, x * 0.0 + 1.0)", "f(i, k[1:], i[:1])"),
    "meshgrid": ("f(y[:, 0], x[0])",), "keras.ops.meshgrid": ("f(y[:, 0], x[0])",),
    "linalg.band_part": ("f(x, 1, 0)", "f(i, 0, 1)"),
    "keras.ops.triu": ("f(x)", "f(i, 1)"), "keras.ops.tril": ("f(x)", "f(i, -1)"),
    "keras.ops.einsum": ("f('ij,kj->ik', x, x)",), "einsum": ("f('ij,kj->ik', x, x)",),
    "keras.ops.matmul": ("f(y, x[:1])", "f(j, i[:1])"),
})


def _entries(knowledge_base) -> list:
    """The TF entries the battery runs: an `ms-` entry whose TF name has cases and whose target is a function."""
    chosen = []
    for entry in knowledge_base.entries:
        if not entry.table.startswith("tensorflow_mindspore") or not entry.target:
            continue
        short = entry.api.removeprefix("tensorflow.")
        if short in CASES and entry.category in ("ms-equivalent", "ms-differs"):
            chosen.append(entry)
    return chosen


def _framework(side: str):
    """(make a tensor from a literal and dtype name, resolve a dotted name, describe a result)."""
    import importlib

    import numpy

    if side == "tensorflow":
        import tensorflow as framework

        def tensor(values, dtype):
            return framework.constant(values, dtype=getattr(framework, dtype))
    else:
        import mindspore as framework

        framework.runtime.launch_blocking()  # a kernel's error is raised by its own call, not by the next one

        def tensor(values, dtype):
            return framework.Tensor(numpy.array(values, dtype=dtype))

    def resolve(name: str):
        parts = name.split(".")
        value = importlib.import_module(parts[0])
        for part in parts[1:]:
            value = getattr(value, part)
        return value

    def describe(result) -> dict:
        if isinstance(result, (tuple, list)):
            return {"items": [describe(item) for item in result]}
        array = result.numpy() if hasattr(result, "numpy") else numpy.asarray(result)
        array = numpy.asarray(array)
        kind = "bool" if array.dtype == bool else "int" if array.dtype.kind in "iu" else "float"
        flat = [None if isinstance(value, float) and math.isnan(value) else value for value in array.ravel().tolist()]
        return {"kind": kind, "dtype": str(array.dtype), "shape": list(array.shape), "values": flat}

    return tensor, resolve, describe


def run(side: str, names: list[tuple[str, str]]) -> dict:
    """(api, callable on this side) -> {case: result or error} for this side."""
    tensor, resolve, describe = _framework(side)
    inputs = {name: tensor(values, dtype) for name, (values, dtype) in INPUTS.items()}
    results: dict = {}
    for api, function_name in names:
        short = api.removeprefix("tensorflow.")
        outcomes = results.setdefault(api, {})
        try:
            function = resolve(function_name)
        except Exception as error:
            outcomes["*"] = {"error": f"{function_name} does not resolve: {error}"}
            continue
        for case in CASES[short]:
            try:
                outcomes[case] = describe(eval(case, {"abs": abs}, {"f": function, **inputs}))  # noqa: S307 - our literals
            except Exception as error:
                outcomes[case] = {"error": error_text(error, 160, _CPU_GAPS)}
    return results


# MindSpore's CPU build lacks kernels (or dtypes of kernels) that its Ascend build has: not a difference of the API.
_CPU_GAPS = ("on CPU", "Select CPU operator")


def _close(left, right) -> bool:
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, bool) or isinstance(right, bool):
        return bool(left) == bool(right)
    if math.isinf(left) or math.isinf(right):
        return left == right
    return abs(left - right) <= 1e-5 + 1e-4 * abs(right)


def difference(tensorflow: dict, mindspore: dict) -> str:
    """'' when the two results agree; otherwise what differs, in words."""
    if "items" in tensorflow or "items" in mindspore:
        left, right = tensorflow.get("items", [tensorflow]), mindspore.get("items", [mindspore])
        if len(left) != len(right):
            return f"TensorFlow returns {len(left)} result(s), MindSpore {len(right)}"
        return next((found for found in (difference(a, b) for a, b in zip(left, right, strict=True)) if found), "")
    if tensorflow["shape"] != mindspore["shape"]:
        return f"shape {tuple(tensorflow['shape'])} in TensorFlow, {tuple(mindspore['shape'])} in MindSpore"
    if tensorflow["kind"] != mindspore["kind"]:
        return f"dtype {tensorflow['dtype']} in TensorFlow, {mindspore['dtype']} in MindSpore"
    wrong = [index for index, (a, b) in enumerate(zip(tensorflow["values"], mindspore["values"], strict=True)) if not _close(a, b)]
    if wrong:
        index = wrong[0]
        left, right = ("nan" if value is None else value for value in (tensorflow["values"][index], mindspore["values"][index]))
        return (f"{len(wrong)} of {len(tensorflow['values'])} values differ (element {index} of the flattened input: "
                f"{left} in TensorFlow, {right} in MindSpore)")
    return ""


def compare(tensorflow: dict, mindspore: dict, entries: list[dict]) -> list[dict]:
    """One record row per entry: agree, differ (with what) or not-checked (with why)."""
    rows = []
    for entry in entries:
        api = entry["api"]
        left, right = tensorflow.get(api, {}), mindspore.get(api, {})
        agreed, differences, unchecked = [], [], []
        for case in CASES[api.removeprefix("tensorflow.")]:
            a, b = left.get(case) or left.get("*"), right.get(case) or right.get("*")
            if a is None or b is None:
                unchecked.append(f"{case}: not run")
            elif "error" in a:
                unchecked.append(f"{case}: TensorFlow refuses it ({a['error']})")
            elif "error" in b and any(marker in b["error"] for marker in _CPU_GAPS):
                unchecked.append(f"{case}: MindSpore's CPU build has no kernel for it ({b['error']})")
            elif "error" in b:
                differences.append(f"{case}: MindSpore refuses what TensorFlow accepts ({b['error']})")
            else:
                found = difference(a, b)
                (differences.append(f"{case}: {found}") if found else agreed.append(case))
        outcome = "differ" if differences else "agree" if agreed else "not-checked"
        row = {"api": api, "target": entry["target"], "category": entry["category"], "outcome": outcome}
        if differences:
            row["differences"] = differences
        row["checked"] = agreed
        if unchecked:
            row["unchecked"] = unchecked
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser, commands = command_line(__doc__.splitlines()[0])
    comparing = commands.add_parser("compare", help="compare two sides' results and write the record")
    comparing.add_argument("tensorflow", type=Path)
    comparing.add_argument("mindspore", type=Path)
    comparing.add_argument("--output", type=Path, default=Path("mappings/verification/tensorflow_numeric.yaml"))
    arguments = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "server"))
    from ascend_migrate.kb.index import KnowledgeBase

    entries = _entries(KnowledgeBase.load())
    if arguments.command == "run":
        names = [(entry.api, entry.api if arguments.side == "tensorflow" else entry.target) for entry in entries]
        arguments.output.write_text(json.dumps(run(arguments.side, names)), encoding="utf-8")
        print(f"{arguments.side}: {len(names)} entries run, results in {arguments.output}")
        return 0
    import yaml

    from ascend_migrate.files import write_atomically

    sides = []
    for path in (arguments.tensorflow, arguments.mindspore):
        try:
            sides.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as error:
            print(f"error: {path}: not a results file of `run` ({error})", file=sys.stderr)
            return 2
    rows = compare(sides[0], sides[1], [{"api": e.api, "target": e.target, "category": e.category} for e in entries])
    counts = {outcome: sum(1 for row in rows if row["outcome"] == outcome) for outcome in ("agree", "differ", "not-checked")}
    document = {
        "description": "TensorFlow 2.21.0 and MindSpore 2.10.0 run side by side on CPU on the same literal inputs "
                       "(tools/tensorflow_battery.py), each in its own venv. Generated; the tables stay the reviewed "
                       "source of truth, and an ms-equivalent entry whose record says differ fails the tests.",
        "tolerance": {"rtol": 1e-4, "atol": 1e-5},
        "counts": counts,
        "results": rows,
    }
    write_atomically(arguments.output, yaml.safe_dump(document, sort_keys=False, width=120, allow_unicode=True).encode())
    print(f"wrote {arguments.output}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
