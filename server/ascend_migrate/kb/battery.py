"""The input battery of `kb verify --numeric`: one torch API and its MindSpore target run on many inputs.

Run as `python -m ascend_migrate.kb.battery` in a child process (torch, numpy and mindspore are imported there
only): it reads a JSON list of jobs on stdin and writes one JSON line per job on stdout as soon as the job is
done, so that the parent knows which job a crash or a late kernel error belongs to.

Per job: the first call shape torch accepts on positive floats (the probe, as before), then the same call on
negatives and zeros, NaN and inf, a fully masked (-inf) row, float64, int64, int32 and bool, a 0-d, an empty and
a 3-D tensor, broadcasting shapes, every keyword of the entry's parameter rows and the common `dim`, `keepdim`
and `dtype`; layers are also built with the constructor arguments users pass (`nn.ReLU(True)`). Value, dtype and
shape are compared. A case torch refuses does not apply; a case MindSpore refuses is a difference, except a
missing CPU kernel, which is listed as not checked.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import signal
import sys

RELATIVE_TOLERANCE = 1e-4
ABSOLUTE_TOLERANCE = 1e-5
SEED = 20261130
SECONDS_PER_JOB = 30
# Cases whose difference shows only on inputs a call rarely sees: recorded and shown, not a warning on every call.
EDGE_CASES = ("NaN and inf", "masked row", "float64", "int64", "int32", "bool", "0-d", "empty")
EDGE_SUFFIX = " on NaN and inf"  # a keyword case run on NaN and inf is an edge case too
# The cases that change the inputs of the probe call; every other case is a form of the call (a keyword, a position,
# a constructor argument): a difference only there shows only where a call is written that way.
INPUT_CASES = ("probe", "negative and zero", "3-D", "broadcast") + EDGE_CASES
# Calls whose values are uninitialised memory by definition: only shapes and dtypes are compared.
SHAPE_ONLY = ("empty", "empty_like", "new_empty")
_NAMED = re.compile(r"(\w+)=")  # the parameters a form's label passes by name

# Call shapes, tried in order until torch accepts one. Names stand for inputs made by `Battery._value`.
_FUNCTION_CALLS = (
    ("x",), ("x", "y"), ("x", 1), ("x", "y", "z"), ("square",), ("a34", "b45"), ("a234", "b245"),
    ("v4", "w4"), ("shape34",), (5,), ("xi",), ("xi", "yi"), ("xb", "yb"), ("x", "shape43"), ("x", 1, 0),
    ("x", 0.5), ("logits", "labels"), ("x", "probability"), ("x", "y", 0.3), ("x4d",), ("x3d",),
    # indexing, joining, filling and matrix-vector shapes, after the others so that their probes stay the same
    ("pair",), ("pair", 1), ("x", 1, "index34"), ("x", 1, "idx"), ("x", "xb", 0.5), ("xb", "x", "y"), ("x", "xb", "y"),
    ("c35", "a34", "b45"), ("a34", "v4"), ("v3", "a34", "v4"), ("x", "v3", "v4"), ("row14", "shape34"), ("row14", 3, 4),
    ("x", 1, 0, 2), ("shape34", 0.5), (0.0, 1.0, 5), ("x", (1,)), ("x", 1, "index34", "y"), ("v4i",),
    ("numpy34",),  # a NumPy array passed as one (from_numpy, as_tensor): last, so that no other probe changes
)
_LAYER_CALLS = (
    ((), "x"), ((), "x4d"), ((4,), "x"), ((4, 5), "x"), ((3,), "x4d3"), ((3, 4, 3), "x4d3"), ((3, 4, 3), "x3d3"),
    ((2, 4), "x4d4"), ((), "logits_labels"), ((), "x_y"), ((10, 4), "indices"), ((4,), "x3d4"),
)
_SHAPES = {"x": (3, 4), "y": (3, 4), "z": (3, 4), "a34": (3, 4), "b45": (4, 5), "a234": (2, 3, 4),
           "b245": (2, 4, 5), "v4": (4,), "w4": (4,), "x4d": (2, 3, 4, 4), "x3d": (2, 3, 5),
           "x4d3": (2, 3, 6, 6), "x3d3": (2, 3, 7), "x4d4": (2, 4, 3, 3), "x3d4": (2, 4, 5),
           "c35": (3, 5), "v3": (3,), "row14": (1, 4), "w3": (3,), "w5": (5,)}
_ELEMENTWISE = ("x", "y", "z", "pair")  # inputs whose shape may change (0-d, empty, 3-D, broadcast) without breaking the call
# Keyword values by parameter name: what a user plausibly passes that is not the default.
KEYWORD_VALUES = {
    "dim": 1, "axis": 1, "keepdim": True, "keepdims": True, "dtype": "float64", "descending": True, "stable": True,
    "unbiased": False, "correction": 0, "ddof": 0, "p": 1, "ord": 1, "decimals": 1, "diagonal": 1, "k": 2,
    "largest": False, "sorted": True, "return_counts": True, "return_inverse": True, "min": 0.3, "max": 0.6,
    "alpha": 2.0, "beta": 0.5, "exponent": 2, "approximate": "tanh", "negative_slope": 0.2, "eps": 1e-3,
    "reduction": "sum", "ignore_index": 1, "label_smoothing": 0.1, "inplace": True, "start_dim": 1, "end_dim": -1,
    "rounding_mode": "floor", "right": True, "lambd": 0.3, "threshold": 0.4, "value": 0.5, "upper": True,
    "dims": (1,), "shifts": 1, "repeats": 2, "chunks": 2, "sections": 2, "split_size_or_sections": 2, "n": 3,
    "norm": "ortho", "mode": "reduced", "out_int32": True, "other": 0.5,
}
# More values, tried in order when torch refuses the first on the battery's inputs or it is the default
# (`end_dim=-1`, `dim=1` on a dimension of 4 where cross needs 3); `@v4` is the battery input v4.
ALTERNATIVE_VALUES: dict[str, list] = {
    "dim": [0, -1], "end_dim": [1], "start_dim": [0], "keepdim": [False], "p": [2], "k": [1], "n": [2],
    "reduction": ["mean", "none"], "threshold": [0.2], "value": [0.1], "alpha": [0.5], "eps": [1e-2],
    "negative_slope": [0.1], "beta": [2.0], "offset": [1, -1], "dim1": [1], "dim2": [0], "rtol": [1e-2],
    "atol": [1e-2], "equal_nan": [True], "m": [5], "N": [3], "increasing": [True], "as_tuple": [True],
    "margin": [0.5], "delta": [0.5], "num_parameters": [4, 3], "init": [0.1], "non_blocking": [True],
    "force": [True], "weight": ["@w4", "@w5", "@w3"], "pos_weight": ["@w4"], "bias": ["@w4", "@w5", "@w3"],
    "scale_factor": [2.0], "align_corners": [True], "recompute_scale_factor": [True],
    "mode": ["bilinear", "nearest", "constant"], "ignore_index": [-100, 0],
}
COMMON_KEYWORDS = ("dim", "keepdim", "dtype")


_NO_DEFAULT = object()  # a parameter without a default, or one whose default is not a literal


def documented_overloads(function, method: bool) -> list[list[tuple[str, bool, object]]]:
    """The signatures torch documents for `function`, each a list of (name, may be positional, default): its
    Python signature, or for a builtin every `name(...)` line of its docstring (`sum(input, *, dtype=None)` and
    `.. function:: sum(input, dim, keepdim=False, *, dtype=None)`). A method's receiver is left out."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        parameters = None
    if parameters is not None:
        if method and parameters and parameters[0].name == "self":
            parameters = parameters[1:]
        return [[(parameter.name, parameter.kind == parameter.POSITIONAL_OR_KEYWORD or parameter.kind == parameter.POSITIONAL_ONLY,
                  _NO_DEFAULT if parameter.default is parameter.empty else parameter.default)
                 for parameter in parameters if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)]]
    name = getattr(function, "__name__", "")
    overloads = []
    for line in (getattr(function, "__doc__", None) or "").splitlines():
        head = re.sub(r"^\s*(\.\. (function|method)::\s*)?", "", line)
        if not name or not head.startswith(name + "(") or "->" not in head:
            continue
        try:
            definition = ast.parse(f"def f({head[len(name) + 1:head.rindex(')', 0, head.index('->'))]}): pass").body[0]
        except (SyntaxError, ValueError):
            continue
        assert isinstance(definition, ast.FunctionDef)
        arguments = definition.args
        if arguments.vararg or arguments.kwarg:
            continue  # to(*args, **kwargs): the overloads below it say more
        positional = arguments.posonlyargs + arguments.args
        defaults = [_NO_DEFAULT] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
        overload = [(argument.arg, True, _literal(default)) for argument, default in zip(positional, defaults, strict=True)]
        overload += [(argument.arg, False, _literal(default))
                     for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
        if method and overload and overload[0][0] == "self":
            overload = overload[1:]
        overloads.append(overload)
    return overloads


def _literal(node):
    if node is None or node is _NO_DEFAULT:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return _NO_DEFAULT


class Battery:
    def __init__(self) -> None:
        import mindspore
        import numpy
        import torch

        mindspore.set_device("CPU")
        mindspore.runtime.launch_blocking()  # kernels run when called, so an error belongs to the call that made it
        self.torch = torch
        self.mindspore = mindspore
        self.numpy = numpy

    def versions(self) -> dict[str, str]:
        return {"torch": str(self.torch.__version__), "mindspore": str(self.mindspore.__version__),
                "numpy": str(self.numpy.__version__)}

    def run(self, job: dict) -> dict:
        self.torch.manual_seed(0)
        self.mindspore.set_seed(0)
        try:
            torch_object = _follow(self.torch, job["api"])
            mindspore_object = _follow(self.mindspore, job["target"])
        except AttributeError as error:
            return _skipped(f"cannot resolve: {error}")
        if isinstance(torch_object, type) and issubclass(torch_object, self.torch.nn.Module):
            return Layer(self, torch_object, mindspore_object, job).run()
        if isinstance(torch_object, type):
            return _skipped("a class that is not a layer")
        if job.get("method") or job["api"].startswith("torch.Tensor."):
            if not job["target"].startswith("mindspore.Tensor."):
                # `x.relu()` → `mint.nn.functional.relu(x)`, `x.requires_grad` → `mindspore.Parameter`: calling the
                # target's last name on the receiver (`x.Parameter`) would check nothing the entry says
                return _skipped(f"the target {job['target']} is not a tensor method, so it is not called on the receiver")
            return Call(self, job["api"].rsplit(".", 1)[-1], job["target"].rsplit(".", 1)[-1], True, job).run()
        if isinstance(torch_object, self.torch.dtype):
            return self.dtype_constant(torch_object, mindspore_object)
        if not callable(torch_object):
            return _constant(torch_object, mindspore_object)
        return Call(self, torch_object, mindspore_object, False, job).run()

    def dtype_constant(self, torch_dtype, mindspore_dtype) -> dict:
        """`torch.long` and `mindspore.int64`: the same element type when NumPy names both the same."""
        try:
            expected = self.torch.empty((), dtype=torch_dtype).numpy().dtype
            actual = self.numpy.dtype(self.mindspore.dtype_to_nptype(mindspore_dtype))
        except Exception as error:  # bfloat16, quantised types: no NumPy name to compare by
            return _skipped(f"a dtype NumPy has no name for ({type(error).__name__})")
        if expected == actual:
            return {"outcome": "agree", "call": "dtype", "checked": [f"element type: numpy {expected}"]}
        return {"outcome": "differ", "scope": "all", "call": "dtype", "checked": ["element type"],
                "detail": f"element type: torch {expected}, mindspore {actual}"}

    # -- inputs ------------------------------------------------------------------------------------------
    def value(self, name, variant: str = "probe", shape=None):
        """The input `name` stands for, in a variant of the battery (the probe is positive floats)."""
        numpy = self.numpy
        if not isinstance(name, str):
            return name
        generator = numpy.random.default_rng(SEED + sum(map(ord, name)))
        if name == "square":
            matrix = generator.uniform(0.2, 0.9, size=(4, 4))
            if variant != "probe":
                matrix = generator.normal(size=(4, 4))
            matrix = matrix @ matrix.T + 4 * numpy.eye(4)
            return matrix.astype(numpy.float64 if variant == "float64" else numpy.float32)
        if name in ("shape34", "shape43"):
            return (3, 4) if name == "shape34" else (4, 3)
        if name in ("xi", "yi"):
            low = 0 if variant == "probe" else -4
            return generator.integers(low, 8, size=(3, 4)).astype(numpy.int64)
        if name in ("xb", "yb"):
            return generator.integers(0, 2, size=(3, 4)).astype(bool)
        if name == "logits":
            return generator.normal(size=(3, 5)).astype(numpy.float32)
        if name == "labels":
            return generator.integers(0, 5, size=(3,)).astype(numpy.int64)
        if name == "probability":
            return generator.uniform(0.1, 0.9, size=(3, 4)).astype(numpy.float32)
        if name == "indices":
            return generator.integers(0, 10, size=(2, 3)).astype(numpy.int64)
        if name == "index34":  # a permutation per row: scatter with repeated indices has no defined winner
            return numpy.stack([generator.permutation(4) for _ in range(3)]).astype(numpy.int64)
        if name == "idx":
            return numpy.array([0, 2, 3], dtype=numpy.int64)
        if name == "v4i":
            return generator.integers(0, 5, size=(6,)).astype(numpy.int64)
        if name == "pair":
            return [self.value("x", variant, shape), self.value("y", variant, shape)]
        if name == "numpy34":
            return NumpyArray(self.value("x", variant, shape))
        size = shape if shape is not None else _SHAPES[name]
        if variant == "probe":
            lowest = -1 if name in ("x4d3", "x3d3", "x4d4", "x3d4") else 0.2
            return generator.uniform(lowest, 0.9, size=size).astype(numpy.float32)
        values = numpy.round(generator.normal(scale=2.0, size=size), 2)
        values.flat[:: 5] = 0.0  # exact zeros: signs, divisions and sign-sensitive functions show on them
        if variant in ("int64", "int32"):
            return numpy.round(values).astype(variant)
        if variant == "bool":
            return values > 0
        if variant == "NaN and inf" and values.size >= 3:
            # at places that depend on the input, so that two inputs do not have their NaN at the same place
            first = sum(map(ord, name)) % values.size
            for offset, special in ((0, numpy.nan), (values.size // 2, numpy.inf), (1, -numpy.inf)):
                values.flat[(first + offset) % values.size] = special
        if variant == "masked row" and values.ndim >= 2:
            values[(0,) * (values.ndim - 1)] = -numpy.inf  # what an attention mask leaves of a row
        return values.astype(numpy.float64 if variant == "float64" else numpy.float32)

    def convert(self, value, framework: str):
        numpy = self.numpy
        if isinstance(value, NumpyArray):
            return value.array.copy()
        if isinstance(value, list):
            return [self.convert(item, framework) for item in value]
        if isinstance(value, numpy.ndarray):
            return self.torch.from_numpy(value.copy()) if framework == "torch" else self.mindspore.Tensor(value.copy())
        if value == "float64":
            return self.torch.float64 if framework == "torch" else self.mindspore.float64
        return value

    # -- one case: torch, then MindSpore, then the comparison -----------------------------------------------
    def case(self, run_torch, run_mindspore, extra=None, values: bool = True):
        """(status, detail, difference): status None when torch refuses (the case does not apply), else agree,
        differ, error (MindSpore refused) or limit (no CPU kernel). Without `values` only the number of results,
        shapes and dtypes are compared: MindSpore's CPU reductions of an empty tensor return uninitialised memory
        (a different number on each call, sometimes 0), which no record could hold the same twice."""
        try:
            torch_result = run_torch()
            if torch_result is None:
                return None, "", None
            expected = self.flatten(torch_result, "torch") + (extra("torch") if extra else [])
        except Exception:
            return None, "", None
        try:
            mindspore_result = run_mindspore()
            actual = self.flatten(mindspore_result, "mindspore") + (extra("mindspore") if extra else [])
            self.mindspore.runtime.synchronize()
        except Exception as error:
            return _refusal(error)
        if not values:
            numpy = self.numpy
            expected = [numpy.zeros(item.shape, item.dtype) if isinstance(item, numpy.ndarray) else item for item in expected]
            actual = [numpy.zeros(item.shape, item.dtype) if isinstance(item, numpy.ndarray) else item for item in actual]
        return self.compare(expected, actual)

    def flatten(self, value, framework) -> list:
        numpy = self.numpy
        if framework == "torch" and isinstance(value, self.torch.Tensor):
            return [value.detach().numpy()]
        if framework == "mindspore" and isinstance(value, self.mindspore.Tensor):
            return [value.asnumpy()]
        if isinstance(value, (tuple, list)):
            if all(isinstance(item, (int, float, bool)) for item in value):
                return [numpy.asarray(value)]
            flattened = []
            for item in value:
                flattened.extend(self.flatten(item, framework))
            return flattened
        if isinstance(value, (int, float, bool, numpy.number, numpy.bool_)):
            return [numpy.asarray(value)]
        return [value]

    def compare(self, expected: list, actual: list):
        numpy = self.numpy
        if len(expected) != len(actual):
            return "differ", f"torch returns {len(expected)} values, mindspore {len(actual)}", None
        largest = 0.0
        notes = []
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            if not isinstance(left, numpy.ndarray) or not isinstance(right, numpy.ndarray):
                if type(left) is type(right) and not isinstance(left, numpy.ndarray) and left == right:
                    continue
                return "differ", f"result {index}: torch {type(left).__name__}, mindspore {type(right).__name__}", None
            if left.shape != right.shape:
                return "differ", f"shape: torch {list(left.shape)}, mindspore {list(right.shape)}", None
            if left.dtype != right.dtype:
                notes.append(f"dtype: torch {left.dtype}, mindspore {right.dtype}")
            if left.dtype == bool or right.dtype == bool:
                if not numpy.array_equal(left.astype(bool), right.astype(bool)):
                    return "differ", "boolean values differ", None
                continue
            kind = numpy.complex128 if numpy.iscomplexobj(left) or numpy.iscomplexobj(right) else numpy.float64
            left, right = left.astype(kind), right.astype(kind)
            if left.size:
                finite = numpy.isfinite(left) & numpy.isfinite(right)
                if finite.any():
                    largest = max(largest, float(numpy.max(numpy.abs(left[finite] - right[finite]))))
            if not numpy.allclose(left, right, rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE, equal_nan=True):
                if numpy.allclose(numpy.sort(left, axis=None), numpy.sort(right, axis=None),
                                  rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE, equal_nan=True):
                    notes.append("the same values in another order")  # e.g. eigenvalues: no order is promised
                    continue
                nan = numpy.isnan(left) != numpy.isnan(right)
                if nan.any():
                    return "differ", "NaN where the other gives a number", largest
                # Past 1e3 the number is usually uninitialised memory, different on every run: say only its size.
                size = f"{largest:.2g}" if largest < 1e3 else "over 1e3"
                return "differ", f"values differ (max |difference| {size})", largest
        dtype_notes = [note for note in notes if note.startswith("dtype")]
        if dtype_notes:
            return "differ", "; ".join(dict.fromkeys(dtype_notes)) + " (values agree)", largest
        return "agree", "; ".join(dict.fromkeys(notes)), largest


class NumpyArray:
    """An input passed to both frameworks as a NumPy array, not converted to their tensors."""

    def __init__(self, array) -> None:
        self.array = array

    def __repr__(self) -> str:
        return f"ndarray {_describe(self.array)}"


class _Cases:
    """What one job found, case by case."""

    def __init__(self, call: str = "") -> None:
        self.call = call  # the probe call, as the record shows it
        self.checked: list[str] = []
        self.unchecked: list[str] = []
        self.differences: list[tuple[str, str]] = []
        self.unexercised: list[str] = []  # forms of the call a fix writes that did not run on both sides, and why
        self.rows: set[str] = set()  # the parameters the entry's rows name
        self.largest = 0.0

    def add(self, name: str, status, detail: str, difference) -> None:
        if status is None:
            return
        if status == "limit":
            self.unchecked.append(f"{name}: {detail}")
            return
        self.checked.append(name)
        if name == "probe" and difference is not None and difference == difference:
            self.largest = difference  # the probe's only: edge cases can read uninitialised memory
        if status in ("differ", "error"):
            if name not in INPUT_CASES and not name.endswith(EDGE_SUFFIX) and detail.startswith("values differ ("):
                # In a form, MindSpore's CPU build can read uninitialised memory (BCELoss(weight=w): 0.22 in one
                # process, over 1e3 in the next): the size is no fact a record could hold twice.
                detail = "values differ"
            self.differences.append((name, detail))

    def result(self, call: str) -> dict:
        result = {"call": call, "checked": self.checked, "unchecked": self.unchecked,
                  "unexercised": list(dict.fromkeys(self.unexercised)), "max_difference": self.largest}
        if not self.differences:
            return {"outcome": "agree", "detail": "", **result}
        # Edge: only inputs a call rarely sees differ, or only where one side gives NaN (out of the domain).
        edges = [name in EDGE_CASES or name.endswith(EDGE_SUFFIX) or detail.startswith("NaN where")
                 for name, detail in self.differences]
        # Form: only where a call passes a keyword, a position or a constructor argument the probe does not
        # (`nn.ReLU(True)`, `x.argmax(None, True)`), and none the entry's parameter rows name: a row's parameter
        # (`Tensor.norm`'s p) is the documented difference, on all calls that pass it.
        form = all(edge or (name not in INPUT_CASES and not set(_NAMED.findall(name)) & self.rows)
                   for edge, (name, _) in zip(edges, self.differences, strict=True))
        details = [f"{name}: {detail}" for name, detail in self.differences]
        shown = "; ".join(details[:3]) + (f"; and {len(details) - 3} more" if len(details) > 3 else "")
        return {"outcome": "differ", "scope": "edge" if all(edges) else "form" if form else "all", "detail": shown, **result}


class Call:
    """A function or tensor method and its target."""

    def __init__(self, battery: Battery, torch_callable, mindspore_callable, method: bool, job: dict) -> None:
        self.battery = battery
        self.torch_callable = torch_callable
        self.mindspore_callable = mindspore_callable
        self.method = method
        self.keywords = [tuple(row) for row in job.get("keywords", ())]
        self.positions = dict(job.get("positions", {}))  # the rows' positions: where the fix renames a positional argument
        self.elsewhere = set(job.get("elsewhere", ()))  # keywords another finding handles (out=, device=: MS104)

    def invoke(self, framework: str, values: list, keywords: dict):
        battery = self.battery
        arguments = [battery.convert(value, framework) for value in values]
        options = {name: battery.convert(value, framework) for name, value in keywords.items()}
        function = self.torch_callable if framework == "torch" else self.mindspore_callable
        if self.method:
            if not isinstance(arguments[0], (battery.torch.Tensor, battery.mindspore.Tensor)):
                raise TypeError("no receiver")
            self._receivers[framework] = arguments[0]
            attribute = getattr(arguments[0], function)
            if not callable(attribute) and len(arguments) == 1 and not options:
                return attribute  # a property: x.T, x.shape, x.real
            return attribute(*arguments[1:], **options)
        return function(*arguments, **options)

    def one(self, values: list, torch_keywords=None, mindspore_keywords=None, compare_values: bool = True,
            mindspore_values=None):
        self._receivers: dict[str, object] = {}  # framework → the tensor an in-place method was called on
        in_place = self.method and self.torch_callable.endswith("_")
        extra = (lambda framework: self.battery.flatten(self._receivers[framework], framework)) if in_place else None
        theirs = values if mindspore_values is None else mindspore_values
        name = self.torch_callable if self.method else getattr(self.torch_callable, "__name__", "")
        compare_values = compare_values and name not in SHAPE_ONLY  # uninitialised memory: shapes and dtypes only
        return self.battery.case(lambda: self.invoke("torch", values, torch_keywords or {}),
                                 lambda: self.invoke("mindspore", theirs, mindspore_keywords or {}), extra, compare_values)

    def run(self) -> dict:
        battery = self.battery
        for call in _FUNCTION_CALLS:
            probe = [battery.value(name) for name in call]
            status, detail, difference = self.one(probe)
            if status is None:
                continue
            description = ", ".join(_describe(value) for value in probe)
            if (self.torch_callable if self.method else getattr(self.torch_callable, "__name__", "")) in SHAPE_ONLY:
                description += " (shapes and dtypes only: the values are uninitialised)"
            cases = _after_probe(status, detail, difference, description)
            if isinstance(cases, dict):
                return cases
            cases.rows = {source for source, _, _ in self.keywords}
            self._variants(call, cases)
            return cases.result(cases.call)
        return _skipped("no probe call fits the torch signature")

    def _variants(self, call: tuple, cases: _Cases) -> None:
        battery = self.battery
        for variant in ("negative and zero",) + EDGE_CASES[:6]:
            values = [battery.value(name, variant) if name not in ("xb", "yb") else battery.value(name) for name in call]
            cases.add(variant, *self.one(values))
        if any(name in _ELEMENTWISE for name in call) and all(not isinstance(name, str) or name in _ELEMENTWISE for name in call):
            for variant, shape in (("0-d", ()), ("empty", (0, 4)), ("3-D", (2, 3, 4))):
                values = [battery.value(name, variant, shape) for name in call]
                cases.add(variant, *self.one(values, compare_values=variant != "empty"))
            if sum(1 for name in call if name in _ELEMENTWISE) >= 2:
                values = [battery.value(name, "broadcast", (4,) if index else None) for index, name in enumerate(call)]
                cases.add("broadcast", *self.one(values))
        signed = [battery.value(name, "negative and zero") for name in call]
        special = [battery.value(name, "NaN and inf") if name not in ("xb", "yb") else battery.value(name) for name in call]
        self._probe = [battery.value(name) for name in call]  # for forms torch refuses on signed inputs (a domain)
        self._forms(call, cases, signed, special)

    def _forms(self, call: tuple, cases: _Cases, signed: list, special: list) -> None:
        """The calls a fix writes from the user's: each parameter torch documents (and each of the entry's
        parameter rows) by keyword, renamed as the row says, and by position, where the fix keeps the position
        or turns the last positional argument into the renamed keyword. A form the battery could not run is
        listed in `cases.unexercised`; a safe fix needs none there."""
        function = getattr(self.battery.torch.Tensor, self.torch_callable, None) if self.method else self.torch_callable
        overloads = documented_overloads(function, self.method) if function is not None else []
        given = len(call) - (1 if self.method else 0)  # the probe's arguments by position, the receiver not counted
        rows = {source: (target or source, change) for source, target, change in self.keywords}
        filled = [name for overload in overloads for name, _, _ in overload[:given]]
        wanted = list(dict.fromkeys(
            [name for overload in overloads for name, _, _ in overload[given:]]
            + [source for source, (_, change) in rows.items() if change != "added"]
            + [name for name in COMMON_KEYWORDS if name not in filled]))
        by_keyword = self._filled_by_keyword(call, overloads, given, rows, signed, cases)
        accepted = set(by_keyword)
        for name in wanted:
            if name in filled or name in self.elsewhere or rows.get(name, ("", ""))[1] == "added":
                continue  # passed by the probe, or another finding's business (out=, device=: MS104)
            required = name in rows or any(name == parameter for overload in overloads for parameter, _, _ in overload)
            values = self._test_values(name, overloads)
            if not values:
                if required:
                    cases.unexercised.append(f"{name}=: no test value")
                continue
            target, change = rows.get(name, (name, "same"))
            tries = []
            for value in values:
                theirs = 1 - value if change == "complement" and isinstance(value, float) else value
                # a keyword the row removes is dropped by the fix: MindSpore gets the call without it
                mine, yours = {name: value}, ({} if change == "removed" else {target: theirs})
                if name in ("keepdim", "keepdims") and not any(isinstance(item, int) for item in call):
                    mine["dim"] = yours[rows.get("dim", ("dim", ""))[0]] = 1  # keepdim is passed with a dim
                tries.append((f"{name}={_describe(value)}", signed, mine, yours, None))
            chosen = self._form(cases, tries, required)
            if chosen is not None:
                accepted.add(name)
                label, _, mine, yours, _ = chosen
                cases.add(f"{label} on NaN and inf", *self.one(special, mine, yours))
        self._by_position(call, cases, signed, overloads, given, rows, wanted, accepted)

    def _filled_by_keyword(self, call, overloads, given, rows, signed, cases) -> list[str]:
        """The probe's own arguments passed by keyword from each position on (`f(input=x)`, `f(x, dim=1)`)."""
        spellings = list(dict.fromkeys(tuple(name for name, _, _ in overload[:given])
                                       for overload in overloads if len(overload) >= given))
        if not spellings or given == 0:
            return []
        accepted: list[str] = []
        offset = 1 if self.method else 0
        for start in range(given):
            for spelling in spellings:  # tensor_split(x, sections=2) or (x, indices=...): one that torch takes will do
                names = list(spelling[start:])
                if any(name in self.elsewhere for name in names):
                    break
                for inputs in (signed, self._probe):  # the probe's values when signed ones are out of the domain
                    mine = dict(zip(names, inputs[offset + start:offset + given], strict=True))
                    yours = {rows.get(name, (name, ""))[0]: value for name, value in mine.items()}
                    label = ", ".join(f"{name}=<{'tensor' if hasattr(value, 'shape') else _describe(value)}>" for name, value in mine.items())
                    if self._form(cases, [(label, inputs[:offset + start], mine, yours, None)], False) is not None:
                        accepted.extend(names)
                        break
                else:
                    continue
                break
            # torch refusing every spelling on values it took by position says the documented name is not the
            # keyword torch takes (`Tensor.mul(value)` is `other`): no form a user writes, so not listed.
        return accepted

    def _by_position(self, call, cases, signed, overloads, given, rows, wanted, accepted) -> None:
        offset = 1 if self.method else 0
        tried = set()
        for overload in overloads:
            for index in range(given, len(overload)):
                name, positional, _ = overload[index]
                if not positional or name in tried or name in self.elsewhere or name not in wanted:
                    continue
                tried.add(name)
                if any(earlier in self.elsewhere for earlier, _, _ in overload[given:index]):
                    continue  # f(x, y, None, None, True, 'sum'): through size_average= and reduce=, no one writes it
                before = []
                for earlier, _, default in overload[given:index]:
                    before.append(default if default is not _NO_DEFAULT else (self._test_values(earlier, overloads) or [_NO_DEFAULT])[0])
                values = self._test_values(name, overloads)
                if _NO_DEFAULT in before or not values:
                    cases.unexercised.append(f"{name} by position: no test value")
                    continue
                target, change = rows.get(name, (name, "same"))
                tries: list[tuple] = []
                for value in values:
                    mine = signed[:offset + given] + before + [value]
                    yours = list(mine)
                    if change == "complement" and isinstance(value, float):
                        yours[-1] = 1 - value
                    keyword = {}
                    if change in ("renamed", "complement") and self.positions.get(name) == index:
                        keyword = {target: yours.pop()}  # the fix turns the last positional argument into the keyword
                    tries.append((f"{name}={_describe(value)} by position", mine, {}, keyword, yours))
                # A position torch refuses where the keyword ran is keyword-only in fact (the docstrings of
                # builtins list `dtype` among the positional ones): no form a user writes, so not listed.
                self._form(cases, tries, False)

    def _form(self, cases: _Cases, tries: list, expected: bool):
        """Run one form with the first of its test values torch accepts, each on signed inputs and, when torch
        refuses those (a loss of probabilities), on the probe's; returns the try that ran. A form torch refuses
        with every value is listed as not exercised when torch documents it (`expected`)."""
        def swap(items):
            return [self._probe[index] if hasattr(value, "shape") and index < len(self._probe) else value
                    for index, value in enumerate(items)]

        for label, values, mine, yours, theirs in tries:
            for arguments, their_arguments in ((values, theirs), (swap(values), None if theirs is None else swap(theirs))):
                status, detail, difference = self.one(arguments, mine, yours, mindspore_values=their_arguments)
                if status is None:
                    continue
                if status == "limit":
                    cases.unexercised.append(f"{label}: {detail}")
                cases.add(label, status, detail, difference)
                return label, arguments, mine, yours, their_arguments
        if expected and tries:
            shown = tries[0][0] if len(tries) == 1 else f"{tries[0][0].split('=')[0]}= (each of {len(tries)} test values)"
            cases.unexercised.append(f"{shown}: torch refused it on the battery's inputs")
        return None

    def _test_values(self, name: str, overloads: list) -> list:
        """The test values for `name` other than its documented defaults: names of battery inputs become tensors."""
        return [self.battery.value(value[1:]) if isinstance(value, str) and value.startswith("@") else value
                for value in _test_values(name, overloads)]


def _test_values(name: str, overloads: list) -> list:
    """Values for `name` other than its documented defaults, in the order to try them: a flag flipped, the
    keyword table's value, then the alternatives (`@v4`: the battery input v4)."""
    defaults = [default for overload in overloads for parameter, _, default in overload if parameter == name]
    candidates: list = [not default for default in defaults if isinstance(default, bool)][:1]
    candidates += [KEYWORD_VALUES[name]] if name in KEYWORD_VALUES else []
    candidates += ALTERNATIVE_VALUES.get(name, [])
    chosen: list = []
    for value in candidates:
        if not any(value == default and type(value) is type(default) for default in defaults) and value not in chosen:
            chosen.append(value)
    return chosen


class Layer:
    """A torch.nn layer and its MindSpore Cell: built the same way, weights copied, run in inference mode."""

    def __init__(self, battery: Battery, torch_class, mindspore_class, job: dict) -> None:
        self.battery = battery
        self.torch_class = torch_class
        self.mindspore_class = mindspore_class
        keywords = [tuple(row) for row in job.get("keywords", ())]
        self.renames = {source: target for source, target, change in keywords if source and target and change != "removed"}
        self.dropped = {source for source, _, change in keywords if source and change == "removed"}  # by the fix
        self.rows = {source: change for source, _, change in keywords if source}
        self.elsewhere = set(job.get("elsewhere", ()))

    def one(self, arguments: tuple, options: dict, inputs: list):
        battery = self.battery
        built = {}

        def run_torch():
            layer = self.torch_class(*[battery.convert(value, "torch") for value in arguments],
                                     **{k: battery.convert(v, "torch") for k, v in options.items()})
            layer.eval()
            built["torch"] = layer
            return layer(*[battery.convert(value, "torch") for value in inputs])

        def run_mindspore():
            layer = self.mindspore_class(*[battery.convert(value, "mindspore") for value in arguments],
                                         **{self.renames.get(k, k): battery.convert(v, "mindspore")
                                            for k, v in options.items() if k not in self.dropped})
            layer.set_train(False)
            built["copied"] = self.copy_weights(built["torch"], layer)
            return layer(*[battery.convert(value, "mindspore") for value in inputs])

        return battery.case(run_torch, run_mindspore), built.get("copied", [])

    def run(self) -> dict:
        for arguments, input_name in _LAYER_CALLS:
            inputs = self._inputs(input_name, "probe")
            (status, detail, difference), copied = self.one(arguments, {}, inputs)
            if status is None:
                continue
            description = f"{self.torch_class.__name__}{tuple(arguments)} on " + ", ".join(_describe(v) for v in inputs)
            if copied:
                description += f"; weights copied: {', '.join(copied)}"
            cases = _after_probe(status, detail, difference, description)
            if isinstance(cases, dict):
                return cases
            cases.rows = set(self.rows)
            for variant in ("negative and zero", "NaN and inf", "masked row"):
                if input_name not in ("indices", "logits_labels"):
                    cases.add(variant, *self.one(arguments, {}, self._inputs(input_name, variant))[0])
            self._constructor_forms(arguments, self._inputs(input_name, "negative and zero"), inputs, cases)
            return cases.result(cases.call)
        return _skipped("no probe construction fits the layer")

    def _constructor_forms(self, arguments: tuple, signed: list, probe: list, cases: _Cases) -> None:
        """The constructor as users write it: each parameter the probe did not pass set to a value other than its
        default, by keyword and by position (the defaults before it passed too); a form that could not run is
        listed in `cases.unexercised`."""
        try:
            parameters = list(inspect.signature(self.torch_class.__init__).parameters.values())[1:]
        except (TypeError, ValueError):
            cases.unexercised.append("the constructor: torch gives no signature")
            return
        name_of = self.torch_class.__name__
        shown = [repr(argument) for argument in arguments]
        positional_so_far = True
        for index, parameter in enumerate(parameters):
            positional = parameter.kind == parameter.POSITIONAL_OR_KEYWORD
            if index < len(arguments) or parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                continue
            name, default = parameter.name, parameter.default
            if name in self.elsewhere or self.rows.get(name) == "added":
                positional_so_far = False  # device=: another finding's business; nothing after it by position
                continue
            overloads = [[(name, positional, default if default is not parameter.empty else _NO_DEFAULT)]]
            values = [self.battery.value(value[1:]) if isinstance(value, str) and value.startswith("@") else value
                      for value in _test_values(name, overloads)]
            if not values:
                cases.unexercised.append(f"{name}=: no test value")
                positional_so_far = False
                continue
            before = tuple(parameter.default for parameter in parameters[len(arguments):index])
            by_keyword = [(f"{name_of}({', '.join(shown + [f'{name}={_describe(value)}'])})", arguments, {name: value})
                          for value in values]
            inputs: tuple[list, ...] = (signed, probe)
            if name == "dtype":  # a layer built in float64 takes float64 inputs
                inputs = tuple([item.astype("float64") if hasattr(item, "astype") and item.dtype.kind == "f" else item
                                for item in group] for group in inputs)
            self._first(cases, by_keyword, *inputs)
            if positional and positional_so_far:
                by_position: list[tuple] = [(f"{name_of}({', '.join(shown + [_describe(item) for item in before + (value,)])})",
                                arguments + before + (value,), {}) for value in values]
                self._first(cases, by_position, *inputs)

    def _first(self, cases: _Cases, tries: list, signed: list, probe: list) -> None:
        """The first (form, arguments, options) torch accepts, on signed inputs or, when torch refuses those (a
        loss of probabilities), on the probe's; a form torch refuses with every value is not exercised."""
        for form, arguments, options in tries:
            for inputs in (signed, probe):
                status, detail, difference = self.one(arguments, options, inputs)[0]
                if status is None:
                    continue
                if status == "limit":
                    cases.unexercised.append(f"{form}: {detail}")
                cases.add(form, status, detail, difference)
                return
        shown = tries[0][0] if len(tries) == 1 else f"{tries[0][0]} (and {len(tries) - 1} other test values)"
        cases.unexercised.append(f"{shown}: torch refused it on the battery's inputs")

    def _inputs(self, name: str, variant: str) -> list:
        battery = self.battery
        if name == "logits_labels":
            return [battery.value("logits"), battery.value("labels")]
        if name == "x_y":
            return [battery.value("x", variant), battery.value("y", variant)]
        return [battery.value(name, variant)]

    def copy_weights(self, torch_layer, mindspore_layer) -> list[str]:
        aliases = {"weight": ("weight", "gamma", "embedding_table"), "bias": ("bias", "beta"),
                   "running_mean": ("running_mean", "moving_mean"), "running_var": ("running_var", "moving_variance")}
        targets = dict(mindspore_layer.parameters_and_names())
        by_short_name = {name.rsplit(".", 1)[-1]: parameter for name, parameter in targets.items()}
        copied = []
        for name, tensor in torch_layer.state_dict().items():
            short = name.rsplit(".", 1)[-1]
            for candidate in aliases.get(short, (short,)):
                parameter = targets.get(name)
                if parameter is None:  # Parameters have no truth value: no `or` here
                    parameter = by_short_name.get(candidate)
                if parameter is not None and tuple(parameter.shape) == tuple(tensor.shape):
                    parameter.set_data(self.battery.mindspore.Tensor(tensor.detach().numpy().copy()))
                    copied.append(short)
                    break
        return copied


def _after_probe(status: str, detail: str, difference, description: str):
    """The record when the probe already decides it (no CPU kernel, MindSpore refused), else the cases to go on with."""
    if status == "limit":
        return _skipped(f"no CPU kernel in this mindspore ({detail})", description)
    if status == "error":
        return {"outcome": "error", "detail": detail, "call": description, "checked": ["probe"]}
    cases = _Cases(description)
    cases.add("probe", status, detail, difference)
    return cases


def _constant(torch_value, mindspore_value) -> dict:
    if str(torch_value).replace("torch.", "") == str(mindspore_value).replace("mindspore.", "").replace("Float", "float"):
        return {"outcome": "agree", "detail": "same value", "call": "constant", "checked": ["constant"]}
    return _skipped("a constant that is not a number")


def _skipped(detail: str, call: str = "") -> dict:
    return {"outcome": "skipped", "detail": detail, "call": call}


def _refusal(error: Exception):
    """MindSpore refused the call torch accepted; a kernel missing on CPU is a limit of this check, not of the mapping."""
    message = _first_line(error)
    lowered = message.lower()
    cpu_limits = ("unregistered", "only supports ascend", "select cpu operator", "create kernelmod")
    if any(limit in lowered for limit in cpu_limits) or ("not support" in lowered and "cpu" in lowered):
        return "limit", f"no CPU kernel: {message}", None
    return "error", f"mindspore raised {type(error).__name__}: {message}", None


def _follow(root, name: str):
    value = root
    for part in name.split(".")[1:]:
        value = getattr(value, part)
    return value


def _describe(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_describe(item) for item in value) + "]"
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"{getattr(value, 'dtype', '')}{list(shape)}"
    return repr(value)


def _first_line(error: Exception) -> str:
    """The first line of an error message that says something (MindSpore opens some with a rule of dashes)."""
    for line in str(error).strip().splitlines():
        line = line.strip()
        if line and line.strip("-=") and not line.startswith("- "):
            return line[:160].rstrip()
    return ""


def _timed_out(signum, frame):
    raise TimeoutError(f"took longer than {SECONDS_PER_JOB} s")


def main() -> int:
    jobs = json.load(sys.stdin)
    battery = Battery()
    print(json.dumps({"versions": battery.versions()}), flush=True)
    signal.signal(signal.SIGALRM, _timed_out)
    for job in jobs:
        signal.alarm(SECONDS_PER_JOB)
        try:
            result = battery.run(job)
        except TimeoutError as error:
            result = _skipped(str(error))
        except Exception as error:  # a failure of the battery itself, not of MindSpore: never a verdict
            result = _skipped(f"the battery could not run it: {type(error).__name__}: {_first_line(error)}")
        finally:
            signal.alarm(0)
        print(json.dumps(result, default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
