"""Observations of the child → findings in the static engine's vocabulary, and Huawei's dynamic-shape CSV."""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ascend_migrate.analysis.emit import headline, suggestion
from ascend_migrate.analysis.findings import Finding
from ascend_migrate.kb.index import RouteView
from ascend_migrate.kb.schema import Entry
from ascend_migrate.taxonomy import DEFAULT_SEVERITY

CONFIRMED = "confirmed at run time"
# msfmktransplt's dynamic_shape mode writes these columns (hook.py, see mappings/npu_dynamic_shape.yaml
# torch.utils.data.DataLoader and /work/shared/reference/ascend/dynamic_shape_ops.csv row 21).
DYNAMIC_SHAPE_CSV = "msft_dynamic_shape_analysis_report.csv"
DYNAMIC_SHAPE_COLUMNS = ("Function Name", "File Path", "Line Number", "Call Stack", "Input Shape Range", "Output Shape Range")
VARYING_SHAPES_API = "torch.utils.data.DataLoader"  # the entry that says changing input shapes recompile every op
_PATTERNS = {"x[mask]": "boolean-mask-index", "x[mask]=value": "boolean-mask-assignment"}


@dataclass
class RuntimeFinding:
    """A finding confirmed by the run: the static engine's Finding plus what was observed and the call stack."""

    finding: Finding
    observed: dict
    stack: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {**self.finding.to_json(), "confirmed": CONFIRMED, "observed": self.observed, "stack": self.stack}


@dataclass
class RunOutcome:
    """How the program ended, read from the child's `end` record (None: the child died without one)."""

    outcome: str | None
    exit_code: int | None = None
    steps: int | None = None
    message: str = ""


def read_observations(path: Path) -> tuple[list[dict], RunOutcome]:
    records: list[dict] = []
    outcome = RunOutcome(None)
    if not path.exists():
        return records, outcome
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by a kill at the timeout
        if record.get("kind") == "end":
            outcome = RunOutcome(record.get("outcome"), record.get("exit_code"), record.get("steps"), record.get("message", ""))
        else:
            records.append(record)
    return records, outcome


def findings_from(records: list[dict], view: RouteView, base: Path, user_severities: dict[str, str] | None = None
                  ) -> list[RuntimeFinding]:
    """`user_severities`: the user's severity per category (settings.severity), which outranks the entry's, as in scan."""
    found: list[RuntimeFinding] = []
    for record in _one_varying_site_per_line(records):
        entry = _entry_for(record, view)
        if entry is None:  # `reported: false` is not asked: it stops a static match; here the run observed it
            continue
        api = record["api"]
        if record["kind"] == "shapes":
            observed = {"calls": record["calls"], "input_shapes": _shape_range(record["inputs"]),
                        "output_shapes": _shape_range(record["outputs"])}
            if record["data_dependent"]:
                message = f"{headline(entry, api)} (output shapes seen: {observed['output_shapes']})"
            else:
                message = (f"`{api}` saw its shapes change across {record['calls']} calls (inputs {observed['input_shapes']}, "
                           f"outputs {observed['output_shapes']}): each new shape compiles the operators again on Ascend")
        else:
            observed = dict(record.get("observed") or {})
            message = headline(entry, api)
            if record["kind"] == "device-string":
                message = f"a CUDA device reaches `{observed.get('call', '?')}`: {headline(entry, 'cuda')}"
            if "returned" in observed:
                message += f" (returned {observed['returned']})"
            if record["kind"] == "restriction":
                message = _restriction_message(entry, api, message, observed)
            if record["kind"] == "device-mix":
                message = f"`{api}` got {observed.get('seen')}: {headline(entry, api)}"
            if record["kind"] == "channels-last":
                message = (f"a {observed.get('value')} tensor of shape {observed.get('shape')} reaches the NPU: "
                           f"{headline(entry, api)}")
        severity = (user_severities or {}).get(entry.category) or entry.severity or DEFAULT_SEVERITY[entry.category]
        finding = Finding(_display(record["path"], base), record["line"], 1, record["line"], 1, entry.code or "", entry.category,
                          severity, api, f"{message} [{CONFIRMED}]", suggestion(entry), "exact",
                          entry.docs[0] if entry.docs else "", None, entry.key)
        found.append(RuntimeFinding(finding, observed, record.get("stack", [])))
    found.sort(key=lambda item: (item.finding.path, item.finding.line, item.finding.code))
    return found


def _restriction_message(entry: Entry, api: str, headline_text: str, observed: dict) -> str:
    """The restriction the call met, with the value it passed; a dtype the table does not list is said as such (the
    row's headline is its other restriction, which the call need not meet)."""
    argument, value = observed.get("argument"), str(observed.get("value"))
    dtypes = next((condition for condition in entry.when if condition.dtypes and condition.argument == argument), None)
    if dtypes is None or not value.startswith("dtype "):
        return f"{headline_text} (`{argument}` was {value})"
    return (f"`{api}` on Ascend NPU supports the dtypes {', '.join(dtypes.dtypes)} (msfmktransplt PyTorch table: "
            f"{dtypes.derived_from}); this call passed `{argument}` of {value}")


@dataclass(frozen=True)
class HarmlessFinding:
    """A static finding of a restriction row whose calls the run saw, none of which met the restriction."""

    path: str
    line: int
    code: str
    api: str
    calls_seen: str = "every call the run saw at this line"

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "code": self.code, "api": self.api,
                "harmless": f"harmless at run time: the restricted argument or value was never passed ({self.calls_seen})"}


def harmless_static_findings(records: list[dict], settings, knowledge_base, base: Path) -> list[HarmlessFinding]:
    """Static findings (scan's, of the files where the run checked a restriction) that the run shows harmless: at
    their line, calls of their restriction row ran and none met it. Only the paths this run took are shown harmless."""
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.files import read_source

    met = {(record["path"], record["line"], (record.get("observed") or {}).get("entry")) for record in records
           if record["kind"] == "restriction"}
    clear = {(record["path"], record["line"], (record.get("observed") or {}).get("entry")) for record in records
             if record["kind"] == "restriction-clear"} - met
    harmless: list[HarmlessFinding] = []
    for path in sorted({path for path, _, _ in clear}):
        try:
            source = read_source(Path(path))
        except (OSError, ValueError):
            continue  # a file the run saw but cannot read now: nothing is claimed about it
        for finding in analyze_file(source, path, settings, knowledge_base).findings:
            if (path, finding.line, finding.entry_key) in clear:
                harmless.append(HarmlessFinding(_display(path, base), finding.line, finding.code, finding.api))
    return harmless


def _one_varying_site_per_line(records: list[dict]) -> list[dict]:
    """Shape-varying calls on one line are one finding (the first call's), and none where a data-dependent op on
    that line explains them; the CSV keeps every call site as Huawei's tool does."""
    explained = {(record["path"], record["line"]) for record in records if record["kind"] == "shapes" and record["data_dependent"]}
    kept, seen = [], set()
    for record in records:
        if record["kind"] == "shapes" and not record["data_dependent"]:
            place = (record["path"], record["line"])
            if place in explained or place in seen:
                continue
            seen.add(place)
        kept.append(record)
    return kept


def _entry_for(record: dict, view: RouteView) -> Entry | None:
    kind, api = record["kind"], record["api"]
    if kind == "device-string":
        return _first(view.by_string.get("cuda", []), lambda entry: entry.condition == "device")
    if kind == "shapes" and not record["data_dependent"]:
        return _first(view.by_name.get(VARYING_SHAPES_API, []))
    if kind == "restriction":
        key = (record.get("observed") or {}).get("entry")
        entries = view.by_name.get(api, []) + [entry for listed in view.by_method.values() for entry in listed if entry.api == api]
        return _first(entries, lambda entry: entry.key == key)
    if kind == "restriction-clear":
        return None  # not a finding: it marks a static finding harmless (harmless_sites)
    if kind == "device-mix":
        return _first(view.patterns.get((record.get("observed") or {}).get("pattern", ""), []))
    if kind == "channels-last":
        return _first(view.by_name.get("torch.channels_last", []))
    if kind == "cuda-only-import":
        return _first(view.import_entries(api))
    if api in _PATTERNS:
        return _first(view.patterns.get(_PATTERNS[api], []))
    entries = view.by_name.get(api, [])
    if not entries and "." in api:
        owner, method = api.rsplit(".", 1)
        receiver = {"torch.Tensor": "tensor", "torch.nn.Module": "module"}.get(owner)
        entries = [entry for entry in view.by_method.get(method, []) if entry.receiver in (receiver, "any")]
    plain = [entry for entry in entries if not entry.condition]
    if kind in ("unsupported-call", "caveat-call"):
        return _first(plain, lambda entry: entry.category == "npu-unsupported") or _first(plain)
    return _first(plain, lambda entry: entry.category == "npu-rename") or _first(plain)


def _first(entries: list[Entry], accept=lambda entry: True) -> Entry | None:
    return next((entry for entry in entries if accept(entry)), None)


def _shape_range(signatures: list[list[list[int]]]) -> str:
    """Per tensor position, the range of each dimension across the calls: [4~5, 8] (Huawei writes ranges so)."""
    if not signatures:
        return "[]"
    width = max(len(signature) for signature in signatures)
    parts = []
    for position in range(width):
        shapes = [signature[position] for signature in signatures if len(signature) > position]
        rank = max(len(shape) for shape in shapes)
        dimensions = []
        for axis in range(rank):
            values = [shape[axis] for shape in shapes if len(shape) > axis]
            low, high = min(values), max(values)
            dimensions.append(str(low) if low == high else f"{low}~{high}")
        parts.append("[" + ", ".join(dimensions) + "]")
    return ", ".join(parts)


def dynamic_shape_csv(records: list[dict], base: Path) -> str:
    """Huawei's msft_dynamic_shape_analysis_report.csv: one row per call site whose shapes vary or depend on data."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(DYNAMIC_SHAPE_COLUMNS)
    for record in records:
        if record["kind"] != "shapes":
            continue
        writer.writerow((record["api"], _display(record["path"], base), record["line"], " <- ".join(record.get("stack", [])),
                         _shape_range(record["inputs"]), _shape_range(record["outputs"])))
    return buffer.getvalue()


def _display(path: str, base: Path) -> str:
    try:
        relative = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative.replace(os.sep, "/")
