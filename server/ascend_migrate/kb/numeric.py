"""`kb verify --numeric`: run torch and MindSpore side by side on CPU for the mappings of torch callables.

Every MindSpore-route entry (`ms-equivalent` or `ms-differs`) whose source is a torch function, tensor method or
layer and whose target range holds the installed MindSpore goes through the battery of `kb/battery.py`: the
probe call on positive floats, then signs and zeros, NaN and inf, masked rows, other dtypes, 0-d, empty and
3-D tensors, the keywords of the entry's parameter rows and the constructor arguments users pass. The jobs run
in child processes, in batches, one JSON line per job, so a crash or a late kernel error lands on the entry that
caused it; two runs give the same record.

The outcome per entry goes to a record file (mappings/verification/numeric.yaml) that `kb lookup` shows next to
the entry. The record never edits the tables: a disagreement is reported so that a person (or the table's
generator) turns the entry into `ms-differs` with what differs. torch, numpy and mindspore are imported only in
the child processes; reading a record needs none of them.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

RECORD_FILE = Path("verification") / "numeric.yaml"
RELATIVE_TOLERANCE = 1e-4
ABSOLUTE_TOLERANCE = 1e-5
BATCH_SIZE = 60  # jobs per child process: a crash loses one batch's imports, not the run
# Random, stateful or environment-touching APIs: their results cannot be compared value by value.
_SKIPPED_NAMES = re.compile(
    r"(^|\.)(rand\w*|normal_?|bernoulli_?|multinomial|poisson|dropout\w*|Dropout\w*|AlphaDropout|FeatureAlphaDropout|"
    r"manual_seed|seed|initial_seed|get_rng_state|set_rng_state|Generator|empty_strided|empty_permuted|uniform_|exponential_|geometric_|"
    r"cauchy_|log_normal_|random_|set_\w+|is_\w+|get_\w+|use_\w+|save|load|compile|numel|data_ptr|"
    r"element_size|storage\w*|pin_memory|share_memory_|record_stream|to|cpu|cuda|npu|"
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
    outcome: str  # agree, differ, error (MindSpore refused the probe call torch accepted), skipped
    category: str = "ms-equivalent"  # the entry's category when it was run
    detail: str = ""
    call: str = ""  # the probe call
    max_difference: float | None = None
    scope: str = ""  # with differ: `edge` when only edge inputs (NaN, other dtypes, 0-d, empty) differ, `form` when
    # besides those MindSpore only refuses a keyword or position the probe does not pass (`nn.ReLU(True)`), else `all`
    checked: tuple[str, ...] = ()  # the cases that ran on both sides (probe, NaN and inf, dim=1, ReLU(True), ...)
    unchecked: tuple[str, ...] = ()  # cases torch ran and MindSpore's CPU build could not, keywords with no test value
    unexercised: tuple[str, ...] = ()  # forms of the call a fix writes that did not run on both sides, and why

    @property
    def edge_difference(self) -> str:
        """The difference in words when it shows only on edge inputs (NaN, a rare dtype): what the hover shows."""
        return self.detail if self.outcome == "differ" and self.scope == "edge" else ""


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
    """(api, target) -> {outcome, scope, detail, call, checked, unchecked} from the committed record, or {}."""
    path = directory / RECORD_FILE
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    record = {}
    for item in data.get("results", ()):
        if isinstance(item, dict) and "api" in item:
            record[(item["api"], item.get("target", ""))] = {
                key: item[key] for key in ("outcome", "scope", "detail", "edge_difference", "call", "checked", "unchecked",
                                           "unexercised")
                if item.get(key) not in (None, "", [])
            }
    return record


def write_record(report: NumericReport, path: Path) -> None:
    """Write the record atomically; results are sorted so that re-runs give small diffs."""
    from ascend_migrate.files import write_atomically

    results = sorted(report.results, key=lambda result: (result.api, result.target))
    document = {
        "description": "Side-by-side runs of torch and MindSpore on CPU (ascend-migrate kb verify --numeric), each "
                       "entry on the input battery of kb/battery.py; `checked` lists the cases that ran on both sides. "
                       "Generated; the tables in mappings/*.yaml stay the reviewed source of truth.",
        "versions": report.versions,
        "tolerance": {"rtol": RELATIVE_TOLERANCE, "atol": ABSOLUTE_TOLERANCE},
        "counts": report.counts(),
        "results": [
            {key: value for key, value in (
                ("api", result.api), ("target", result.target), ("category", result.category), ("outcome", result.outcome),
                ("scope", result.scope), ("detail", result.detail), ("edge_difference", result.edge_difference),
                ("call", result.call),
                ("max_difference", None if result.max_difference is None else float(f"{result.max_difference:.2g}")),
                ("checked", list(result.checked)), ("unchecked", list(result.unchecked)),
                ("unexercised", list(result.unexercised)),
            ) if value not in (None, "", [])}
            for result in results
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, yaml.safe_dump(document, sort_keys=False, width=120, allow_unicode=True).encode("utf-8"))


def candidates(knowledge_base, skipped: re.Pattern = _SKIPPED_NAMES) -> list:
    """The MindSpore-route entries (equivalent or differing) whose source is a torch callable and whose target
    range holds MindSpore 2.10, once per (api, target); `skipped` names the ones left out (tools/result_kinds.py
    keeps the random ones: the kind of a result does not depend on its values)."""
    chosen = []
    seen = set()
    for entry in knowledge_base.entries:
        if entry.route != "mindspore" or not entry.target or entry.category not in ("ms-equivalent", "ms-differs"):
            continue
        if not entry.target.startswith("mindspore.") or not (entry.api.startswith(_NAMESPACES) or _TOP_LEVEL.match(entry.api)):
            continue
        if entry.match == "method" and entry.receiver not in ("tensor", "any"):
            continue
        if entry.match not in ("name", "method") or entry.condition:
            continue
        if not entry.target_versions.contains((2, 10)):
            continue
        if skipped.search(entry.api):
            continue
        key = (entry.api, entry.target)
        if key not in seen:
            seen.add(key)
            chosen.append(entry)
    return chosen


def job(entry, elsewhere: tuple[str, ...] = ()) -> dict:
    """What the child process needs of an entry: names, the keywords its parameter rows name (and where the fix
    renames a positional argument), and the keywords another finding handles (`elsewhere`: out=, device=)."""
    keywords = [(difference.source, difference.target or difference.source, difference.change)
                for difference in entry.parameters if difference.source]
    positions = {difference.source: difference.position for difference in entry.parameters
                 if difference.source and difference.position is not None}
    return {"api": entry.api, "target": entry.target, "method": entry.match == "method", "keywords": keywords,
            "positions": positions, "elsewhere": list(elsewhere)}


def general_keywords(knowledge_base) -> tuple[str, ...]:
    """The keywords the general-keyword table reports on any call with MindSpore 2.10 (MS104: out=, device=;
    not inplace=, whose entry ends before 2.5)."""
    return tuple(sorted({entry.api for entry in knowledge_base.entries
                         if entry.condition == "general-keyword" and entry.target_versions.contains((2, 10))}))


def run_checks(knowledge_base, limit: int = 0, workers: int = 2, python: str = sys.executable) -> NumericReport:
    """Run every candidate (or the first `limit`) through the battery in child processes of `python`, which
    needs torch, numpy and mindspore. The record does not depend on `workers`: batches are fixed by position."""
    selected = candidates(knowledge_base)
    if limit:
        selected = selected[:limit]
    elsewhere = general_keywords(knowledge_base)
    jobs = [job(entry, elsewhere) for entry in selected]
    batches = [jobs[start:start + BATCH_SIZE] for start in range(0, len(jobs), BATCH_SIZE)]
    with ThreadPoolExecutor(max(1, workers)) as pool:
        answers = list(pool.map(lambda batch: _run_batch(batch, python), batches))
    versions = next((found for found, _ in answers if found), {})
    report = NumericReport(versions=versions)
    results = [result for _, batch_results in answers for result in batch_results]
    for entry, result in zip(selected, results, strict=True):  # _run_batch answers every job
        difference = result.get("max_difference")
        if difference is not None and not math.isfinite(difference):
            difference = None
        report.results.append(NumericResult(
            entry.api, entry.target, f"{knowledge_base.directory / (entry.table + '.yaml')}:{entry.line}",
            result["outcome"], entry.category, " ".join(result.get("detail", "").split()), result.get("call", ""), difference,
            result.get("scope", ""), tuple(result.get("checked", ())), tuple(result.get("unchecked", ())),
            tuple(result.get("unexercised", ())),
        ))
    return report


def _run_batch(batch: list[dict], python: str, module: str = "ascend_migrate.kb.battery",
               argument: str = "") -> tuple[dict, list[dict]]:
    """Run a batch in a child (`python -m module [argument]`, the battery by default; tools/result_kinds.py runs its
    own); when the child dies, the job it was running gets the failure and the rest of the batch goes to a new child."""
    versions: dict = {}
    results: list[dict] = []
    environment = {**os.environ, "GLOG_v": os.environ.get("GLOG_v", "3"), "PYTHONWARNINGS": "ignore"}
    while len(results) < len(batch):
        remaining = batch[len(results):]
        child = subprocess.run([python, "-m", module, *([argument] if argument else [])], input=json.dumps(remaining),
                               capture_output=True, text=True, env=environment)
        lines = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
        if lines and "versions" in lines[0]:
            versions = lines.pop(0)["versions"]
        results.extend(lines[: len(remaining)])
        if child.returncode != 0 and len(results) < len(batch):
            results.append(_crash(child))
        elif len(lines) < len(remaining):
            raise RuntimeError(f"the battery's process ended early without an error: {child.stderr[-400:]}")
    return versions, results


def _crash(child: subprocess.CompletedProcess) -> dict:
    """The record of a job its child process died running: MindSpore aborts on some kernel errors."""
    lines = [line for line in child.stderr.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else f"exit status {child.returncode}"
    message = _LOG_PREFIX.sub("", last).strip()[:160]  # without pid and time: two runs give the same record
    if "cpu device is not supported" in message.lower():
        return {"outcome": "skipped", "detail": f"no CPU kernel in this mindspore (the process aborted: {message})"}
    return {"outcome": "error", "detail": f"the check's process died running this entry: {message}"}


_LOG_PREFIX = re.compile(r"^\[[A-Z]+\] [A-Z]+\([^)]*\):[\d.:-]+ (\[[^\]]*\]\s*)*")
