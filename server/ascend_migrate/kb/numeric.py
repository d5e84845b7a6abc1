"""`kb verify --numeric`: run torch and MindSpore side by side on CPU for the mappings the tables call equivalent.

For every `ms-equivalent` entry whose source is a torch function, tensor method or layer, the checker tries a
few call shapes on random inputs (one tensor, two tensors, a tensor and a dim, a square matrix, a shape...),
takes the first one torch accepts, makes the same call on the MindSpore target (layers get the torch layer's
weights copied in), and compares the results: shapes, dtypes and values (rtol 1e-4, atol 1e-5).

The outcome per entry goes to a record file (mappings/verification/numeric.yaml) that `kb lookup` shows next to
the entry. The record never edits the tables: a disagreement is reported so that a person (or the table's
generator) turns the entry into `ms-differs` with what differs. torch, numpy and mindspore are imported only
inside `run_checks`; reading a record needs none of them.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

RECORD_FILE = Path("verification") / "numeric.yaml"
RELATIVE_TOLERANCE = 1e-4
ABSOLUTE_TOLERANCE = 1e-5
# Random, stateful or environment-touching APIs: their results cannot be compared value by value.
_SKIPPED_NAMES = re.compile(
    r"(^|\.)(rand\w*|normal_?|bernoulli_?|multinomial|poisson|dropout\w*|Dropout\w*|AlphaDropout|FeatureAlphaDropout|"
    r"manual_seed|seed|initial_seed|get_rng_state|set_rng_state|Generator|empty\w*|uniform_|exponential_|geometric_|"
    r"cauchy_|log_normal_|random_|new_empty|set_\w+|is_\w+|get_\w+|use_\w+|save|load|compile|numel|data_ptr|"
    r"element_size|storage\w*|pin_memory|share_memory_|record_stream|to|cpu|cuda|npu|item|tolist|numpy|"
    r"RReLU|rrelu_?|gumbel_softmax|fractional_max_pool\w*|FractionalMaxPool\w*)$"
)
# Where the numeric APIs live: torch.<function> directly, and these namespaces.
_NAMESPACES = ("torch.nn.functional.", "torch.linalg.", "torch.special.", "torch.fft.", "torch.Tensor.", "torch.nn.")
_TOP_LEVEL = re.compile(r"^torch\.[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class NumericResult:
    """The outcome of one side-by-side run."""

    api: str
    target: str
    location: str
    outcome: str  # agree, differ, error (MindSpore refused the call torch accepted), skipped
    category: str = "ms-equivalent"  # the entry's category when it was run
    detail: str = ""
    call: str = ""  # the call shape that was run
    max_difference: float | None = None


@dataclass
class NumericReport:
    versions: dict[str, str]
    results: list[NumericResult] = field(default_factory=list)

    @property
    def checked(self) -> list[NumericResult]:
        return [result for result in self.results if result.outcome != "skipped"]

    @property
    def unexpected(self) -> list[NumericResult]:
        """Entries called equivalent whose results differ or whose target refused the same call."""
        return [result for result in self.results
                if result.outcome in ("differ", "error") and result.category == "ms-equivalent"]

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for result in self.results:
            counts[result.outcome] = counts.get(result.outcome, 0) + 1
        return dict(sorted(counts.items()))

    def to_json(self) -> dict:
        return {"versions": self.versions, "counts": self.counts(), "results": [asdict(result) for result in self.results]}

    def lines(self) -> list[str]:
        lines = [f"{result.location}: {result.api} -> {result.target} is called equivalent but {result.outcome}s: "
                 f"{result.detail} [{result.call}]" for result in self.unexpected]
        already = len([result for result in self.results if result.outcome in ("differ", "error")]) - len(self.unexpected)
        if already:
            lines.append(f"{already} entries already marked ms-differs still differ, as recorded")
        counts = ", ".join(f"{count} {outcome}" for outcome, count in self.counts().items())
        lines.append(f"kb verify --numeric: {len(self.checked)} entries run side by side ({counts})")
        return lines


def load_record(directory: Path) -> dict[tuple[str, str], dict]:
    """(api, target) -> {outcome, detail, call} from the committed record, or {} when there is none."""
    path = directory / RECORD_FILE
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    record = {}
    for item in data.get("results", ()):
        if isinstance(item, dict) and "api" in item:
            record[(item["api"], item.get("target", ""))] = {
                key: item[key] for key in ("outcome", "detail", "call") if item.get(key) not in (None, "")
            }
    return record


def write_record(report: NumericReport, path: Path) -> None:
    """Write the record atomically; results are sorted so that re-runs give small diffs."""
    from ascend_migrate.files import write_atomically

    results = sorted(report.results, key=lambda result: (result.api, result.target))
    document = {
        "description": "Side-by-side runs of torch and MindSpore on CPU (ascend-migrate kb verify --numeric). "
                       "Generated; the tables in mappings/*.yaml stay the reviewed source of truth.",
        "versions": report.versions,
        "tolerance": {"rtol": RELATIVE_TOLERANCE, "atol": ABSOLUTE_TOLERANCE},
        "counts": report.counts(),
        "results": [
            {key: value for key, value in (
                ("api", result.api), ("target", result.target), ("category", result.category), ("outcome", result.outcome),
                ("detail", result.detail), ("call", result.call),
                ("max_difference", None if result.max_difference is None else float(f"{result.max_difference:.3g}")),
            ) if value not in (None, "")}
            for result in results
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, yaml.safe_dump(document, sort_keys=False, width=120, allow_unicode=True).encode("utf-8"))


def candidates(knowledge_base, previous: dict[tuple[str, str], dict] | None = None) -> list:
    """The MindSpore-route entries that claim equivalence and have a torch callable as source.

    Entries an earlier record found different (and that have since become ms-differs) are run again, so the
    record keeps saying why they differ instead of dropping them.
    """
    previous = previous or {}
    chosen = []
    seen = set()
    for entry in knowledge_base.entries:
        if entry.route != "mindspore" or not entry.target:
            continue
        earlier = previous.get((entry.api, entry.target), {}).get("outcome")
        if entry.category != "ms-equivalent" and not (entry.category == "ms-differs" and earlier in ("differ", "error")):
            continue
        if not entry.target.startswith("mindspore.") or not (entry.api.startswith(_NAMESPACES) or _TOP_LEVEL.match(entry.api)):
            continue
        if entry.match == "method" and entry.receiver not in ("tensor", "any"):
            continue
        if entry.match not in ("name", "method") or entry.condition:
            continue
        if not entry.target_versions.contains((2, 10)):
            continue
        if _SKIPPED_NAMES.search(entry.api):
            continue
        key = (entry.api, entry.target)
        if key not in seen:
            seen.add(key)
            chosen.append(entry)
    return chosen


def run_checks(knowledge_base, limit: int = 0) -> NumericReport:
    """Run every candidate (or the first `limit`) side by side. Needs torch, numpy and mindspore."""
    runner = _Runner()
    report = NumericReport(versions=runner.versions())
    selected = candidates(knowledge_base, load_record(knowledge_base.directory))
    if limit:
        selected = selected[:limit]
    for entry in selected:
        location = f"{knowledge_base.directory / (entry.table + '.yaml')}:{entry.line}"
        outcome, detail, call, difference = runner.check(entry.api, entry.target, is_method=entry.match == "method")
        if difference is not None and not math.isfinite(difference):
            difference = None
        report.results.append(NumericResult(entry.api, entry.target, location, outcome, entry.category, detail, call, difference))
    return report


# --- the side-by-side runner (imports torch, numpy and mindspore when built) ----------------------------

# Call shapes, tried in order until torch accepts one. Names stand for inputs made by `_Runner._value`.
_FUNCTION_CALLS = (
    ("x",), ("x", "y"), ("x", 1), ("x", "y", "z"), ("square",), ("a34", "b45"), ("a234", "b245"),
    ("v4", "w4"), ("shape34",), (5,), ("xi",), ("xi", "yi"), ("xb", "yb"), ("x", "shape43"), ("x", 1, 0),
    ("x", 0.5), ("logits", "labels"), ("x", "probability"), ("x", "y", 0.3), ("x4d",), ("x3d",),
)
_LAYER_CALLS = (
    ((), "x"), ((), "x4d"), ((4,), "x"), ((4, 5), "x"), ((3,), "x4d3"), ((3, 4, 3), "x4d3"), ((3, 4, 3), "x3d3"),
    ((2, 4), "x4d4"), ((), "logits_labels"), ((), "x_y"), ((10, 4), "indices"), ((4,), "x3d4"),
)


class _Runner:
    def __init__(self) -> None:
        import mindspore
        import numpy
        import torch

        mindspore.set_device("CPU")
        torch.manual_seed(0)
        self.torch = torch
        self.mindspore = mindspore
        self.numpy = numpy

    def versions(self) -> dict[str, str]:
        return {"torch": str(self.torch.__version__), "mindspore": str(self.mindspore.__version__), "numpy": str(self.numpy.__version__)}

    def check(self, api: str, target: str, is_method: bool) -> tuple[str, str, str, float | None]:
        try:
            torch_object = _follow(self.torch, api)
            mindspore_object = _follow(self.mindspore, target)
        except AttributeError as error:
            return "skipped", f"cannot resolve: {error}", "", None
        is_layer = isinstance(torch_object, type) and issubclass(torch_object, self.torch.nn.Module)
        if is_layer:
            return self._check_layer(torch_object, mindspore_object)
        if isinstance(torch_object, type):
            return "skipped", "a class that is not a layer", "", None
        if is_method or api.startswith("torch.Tensor."):
            return self._check_call(api.rsplit(".", 1)[-1], target.rsplit(".", 1)[-1], method=True)
        if not callable(torch_object):
            return self._compare_constants(torch_object, mindspore_object)
        return self._check_call(torch_object, mindspore_object, method=False)

    # -- inputs ------------------------------------------------------------------------------------------
    def _value(self, name, generator):
        numpy = self.numpy
        if not isinstance(name, str):
            return name
        shapes = {"x": (3, 4), "y": (3, 4), "z": (3, 4), "a34": (3, 4), "b45": (4, 5), "a234": (2, 3, 4),
                  "b245": (2, 4, 5), "v4": (4,), "w4": (4,), "x4d": (2, 3, 4, 4), "x3d": (2, 3, 5)}
        if name in shapes:
            return generator.uniform(0.2, 0.9, size=shapes[name]).astype(numpy.float32)
        if name == "square":
            matrix = generator.uniform(0.2, 0.9, size=(4, 4)).astype(numpy.float32)
            return (matrix @ matrix.T + 4 * numpy.eye(4)).astype(numpy.float32)
        if name in ("shape34", "shape43"):
            return (3, 4) if name == "shape34" else (4, 3)
        if name in ("xi", "yi"):
            return generator.integers(0, 8, size=(3, 4)).astype(numpy.int64)
        if name in ("xb", "yb"):
            return generator.integers(0, 2, size=(3, 4)).astype(bool)
        if name == "logits":
            return generator.normal(size=(3, 5)).astype(numpy.float32)
        if name == "labels":
            return generator.integers(0, 5, size=(3,)).astype(numpy.int64)
        if name == "probability":
            return generator.uniform(0.1, 0.9, size=(3, 4)).astype(numpy.float32)
        raise KeyError(name)

    def _convert(self, value, framework):
        numpy = self.numpy
        if isinstance(value, numpy.ndarray):
            if framework == "torch":
                return self.torch.from_numpy(value.copy())
            return self.mindspore.Tensor(value.copy())
        return value

    # -- functions and methods ---------------------------------------------------------------------------
    def _check_call(self, torch_callable, mindspore_callable, method: bool):
        numpy = self.numpy
        for call in _FUNCTION_CALLS:
            generator = numpy.random.default_rng(20261130)
            values = [self._value(name, generator) for name in call]
            torch_arguments = [self._convert(value, "torch") for value in values]
            try:
                if method:
                    if not isinstance(torch_arguments[0], self.torch.Tensor):
                        continue
                    torch_result = getattr(torch_arguments[0], torch_callable)(*torch_arguments[1:])
                else:
                    torch_result = torch_callable(*torch_arguments)
            except Exception:
                continue
            if torch_result is None:
                continue
            description = ", ".join(_describe(value) for value in values)
            mindspore_arguments = [self._convert(value, "mindspore") for value in values]
            try:
                if method:
                    mindspore_result = getattr(mindspore_arguments[0], mindspore_callable)(*mindspore_arguments[1:])
                else:
                    mindspore_result = mindspore_callable(*mindspore_arguments)
                actual = self._flatten(mindspore_result, "mindspore")  # kernels run lazily: errors surface here
                expected = self._flatten(torch_result, "torch")
                if method and torch_callable.endswith("_"):  # an in-place method must also change its receiver
                    actual += self._flatten(mindspore_arguments[0], "mindspore")
                    expected += self._flatten(torch_arguments[0], "torch")
            except Exception as error:
                return _refusal(error, description)
            outcome, detail, difference = self._compare(expected, actual)
            return outcome, detail, description, difference
        return "skipped", "no probe call fits the torch signature", "", None

    def _compare_constants(self, torch_value, mindspore_value):
        if str(torch_value).replace("torch.", "") == str(mindspore_value).replace("mindspore.", "").replace("Float", "float"):
            return "agree", "same value", "constant", 0.0
        return "skipped", "a constant that is not a number", "", None

    # -- layers --------------------------------------------------------------------------------------------
    def _check_layer(self, torch_class, mindspore_class):
        numpy = self.numpy
        for arguments, input_name in _LAYER_CALLS:
            generator = numpy.random.default_rng(20261130)
            inputs = self._layer_inputs(input_name, generator)
            try:
                torch_layer = torch_class(*arguments)
                torch_layer.eval()
                torch_result = torch_layer(*[self._convert(value, "torch") for value in inputs])
            except Exception:
                continue
            description = f"{torch_class.__name__}{tuple(arguments)} on " + ", ".join(_describe(value) for value in inputs)
            try:
                mindspore_layer = mindspore_class(*arguments)
                mindspore_layer.set_train(False)
                copied = self._copy_weights(torch_layer, mindspore_layer)
                mindspore_result = mindspore_layer(*[self._convert(value, "mindspore") for value in inputs])
                actual = self._flatten(mindspore_result, "mindspore")
            except Exception as error:
                return _refusal(error, description)
            outcome, detail, difference = self._compare(self._flatten(torch_result, "torch"), actual)
            if copied:
                description += f"; weights copied: {', '.join(copied)}"
            return outcome, detail, description, difference
        return "skipped", "no probe construction fits the layer", "", None

    def _layer_inputs(self, name, generator):
        numpy = self.numpy
        if name == "logits_labels":
            return [self._value("logits", generator), self._value("labels", generator)]
        if name == "x_y":
            return [self._value("x", generator), self._value("y", generator)]
        if name == "indices":
            return [generator.integers(0, 10, size=(2, 3)).astype(numpy.int64)]
        shapes = {"x4d3": (2, 3, 6, 6), "x3d3": (2, 3, 7), "x4d4": (2, 4, 3, 3), "x3d4": (2, 4, 5)}
        if name in shapes:
            return [generator.uniform(-1, 1, size=shapes[name]).astype(numpy.float32)]
        return [self._value(name, generator)]

    def _copy_weights(self, torch_layer, mindspore_layer) -> list[str]:
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
                    parameter.set_data(self.mindspore.Tensor(tensor.detach().numpy().copy()))
                    copied.append(short)
                    break
        return copied

    # -- comparison ----------------------------------------------------------------------------------------
    def _flatten(self, value, framework) -> list:
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
                flattened.extend(self._flatten(item, framework))
            return flattened
        if isinstance(value, (int, float, bool, numpy.number, numpy.bool_)):
            return [numpy.asarray(value)]
        return [value]

    def _compare(self, expected: list, actual: list):
        numpy = self.numpy
        if len(expected) != len(actual):
            return "differ", f"torch returns {len(expected)} values, mindspore {len(actual)}", None
        largest = 0.0
        notes = []
        for index, (left, right) in enumerate(zip(expected, actual)):
            if not isinstance(left, numpy.ndarray) or not isinstance(right, numpy.ndarray):
                if left == right:
                    continue
                return "differ", f"result {index}: {left!r} vs {right!r}", None
            if left.shape != right.shape:
                return "differ", f"shape: torch {left.shape}, mindspore {right.shape}", None
            if left.dtype != right.dtype:
                notes.append(f"dtype: torch {left.dtype}, mindspore {right.dtype}")
            if left.dtype == bool or right.dtype == bool:
                if not numpy.array_equal(left.astype(bool), right.astype(bool)):
                    return "differ", "boolean values differ", None
                continue
            if numpy.iscomplexobj(left) or numpy.iscomplexobj(right):
                left, right = left.astype(numpy.complex128), right.astype(numpy.complex128)
            else:
                left, right = left.astype(numpy.float64), right.astype(numpy.float64)
            if left.size:
                finite = numpy.isfinite(left) & numpy.isfinite(right)
                if finite.any():
                    largest = max(largest, float(numpy.max(numpy.abs(left[finite] - right[finite]))))
            if not numpy.allclose(left, right, rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE, equal_nan=True):
                if numpy.allclose(numpy.sort(left, axis=None), numpy.sort(right, axis=None),
                                  rtol=RELATIVE_TOLERANCE, atol=ABSOLUTE_TOLERANCE, equal_nan=True):
                    notes.append("the same values in another order")  # e.g. eigenvalues: no order is promised
                    continue
                return "differ", f"values differ (max |difference| {largest:.3g})", largest
        dtype_notes = [note for note in notes if note.startswith("dtype")]
        if dtype_notes:
            return "differ", "; ".join(dict.fromkeys(notes)) + " (values agree)", largest
        if notes:
            return "agree", "; ".join(dict.fromkeys(notes)), largest
        return "agree", "", largest


def _refusal(error: Exception, description: str) -> tuple[str, str, str, None]:
    """MindSpore refused the call torch accepted; a kernel missing on CPU is a limit of this check, not of the mapping."""
    message = _first_line(error)
    lowered = message.lower()
    cpu_limits = ("unregistered", "only supports ascend", "select cpu operator", "create kernelmod")
    if any(limit in lowered for limit in cpu_limits) or ("not support" in lowered and "cpu" in lowered):
        return "skipped", f"no CPU kernel in this mindspore ({message})", description, None
    return "error", f"mindspore raised {type(error).__name__}: {message}", description, None


def _follow(root, name: str):
    value = root
    for part in name.split(".")[1:]:
        value = getattr(value, part)
    return value


def _describe(value) -> str:
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"{getattr(value, 'dtype', '')}{list(shape)}"
    return repr(value)


def _first_line(error: Exception) -> str:
    """The first line of an error message that says something (MindSpore opens some with a rule of dashes)."""
    for line in str(error).strip().splitlines():
        line = line.strip()
        if line and line.strip("-=") and not line.startswith("- "):
            return line[:160]
    return ""
