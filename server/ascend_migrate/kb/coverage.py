"""Usage-weighted coverage: how much of the PyTorch that real code uses gets a checked answer from the tables.

The usage counts are mappings/usage/torch_api_frequency.csv (six public code bases). A reference counts as
answered when the engine would find an entry for it on the route (an exact name, the nearest `prefix` entry,
a tensor-method entry, or a device/backend string entry), and as unanswered when only the generic
"has no entry in the knowledge base" fallback would speak. An answer is *checked* when `kb verify --numeric` ran the entry side
by side (mappings/verification/numeric.yaml: agree, differ or error), and *reviewed* when a person checked it
(`curated: true`, with what was read in `verified`); an entry alone says nothing about its answer. What cannot run
side by side (optimizers, schedulers, data pipelines, distributed, randomness) is *reviewed with a note* when its
entry carries `review:` (the difference found, or why there is none, and who checked it when and how).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.kb.index import KnowledgeBase, RouteView
from ascend_migrate.kb.loader import KnowledgeBaseError
from ascend_migrate.kb.schema import Entry

USAGE_FILE = Path("usage") / "torch_api_frequency.csv"
METHOD_USAGE_FILE = Path("usage") / "tensor_method_frequency.csv"
_TENSOR_METHOD = re.compile(r"^<tensor>\.(?P<method>\w+)(?:\((?P<argument>.*)\))?$")
_KEYWORD_STRING = re.compile(r"^<kwarg>(?P<keyword>\w+)=['\"](?P<value>[^'\"]*)['\"]$")
_STRING_ROLES = {"device": "device", "backend": "backend"}
_TENSOR_RECEIVERS = ("tensor", "any")
_RUN = ("agree", "differ", "error")  # outcomes of an entry the numeric battery ran (skipped: it did not)


@dataclass(frozen=True, slots=True)
class UsageRow:
    """One row of the frequency file."""

    api: str
    references: int
    repositories: int
    in_official_tables: bool


@dataclass(frozen=True, slots=True)
class Coverage:
    """The share of references that get a checked answer on one route."""

    route: str
    names: int
    references: int
    answered_names: int
    answered_references: int
    curated_references: int  # answered by an entry marked curated
    unanswered: tuple[UsageRow, ...]  # most used first
    checked_references: int = 0  # answered by an entry the numeric battery ran
    reviewed_references: int = 0  # answered by an entry the battery ran or a person reviewed (curated)
    review_noted_references: int = 0  # answered by an entry the battery ran or that carries a `review` note

    @property
    def share(self) -> float:
        return self.answered_references / self.references if self.references else 1.0

    @property
    def curated_share(self) -> float:
        return self._share(self.curated_references)

    def _share(self, count: int) -> float:
        return count / self.references if self.references else 1.0

    def to_json(self) -> dict:
        return {
            "route": self.route,
            "names": self.names,
            "references": self.references,
            "answered_names": self.answered_names,
            "answered_references": self.answered_references,
            "share": round(self.share, 4),
            "curated_references": self.curated_references,
            "curated_share": round(self.curated_share, 4),
            "checked_references": self.checked_references,
            "checked_share": round(self._share(self.checked_references), 4),
            "checked_or_reviewed_references": self.reviewed_references,
            "checked_or_reviewed_share": round(self._share(self.reviewed_references), 4),
            "checked_or_review_noted_references": self.review_noted_references,
            "checked_or_review_noted_share": round(self._share(self.review_noted_references), 4),
            "unanswered": [{"api": row.api, "references": row.references, "repos": row.repositories} for row in self.unanswered],
        }


def usage_path(knowledge_base: KnowledgeBase) -> Path:
    return knowledge_base.directory / USAGE_FILE


def load_usage(path: Path) -> list[UsageRow]:
    """The rows of a frequency file, most used first; a malformed file is a KnowledgeBaseError naming the line."""
    return _read_counts(path, ("api", "references", "repos"), lambda row: UsageRow(
        api=row["api"],
        references=int(row["references"]),
        repositories=int(row["repos"]),
        in_official_tables=row.get("in_official_mindspore_tables", "") == "yes",
    ))


def load_method_usage(path: Path) -> list[UsageRow]:
    """Tensor-method call counts (method, calls) as `<tensor>.method()` usage rows, most used first."""
    return _read_counts(path, ("method", "calls"), lambda row: UsageRow(
        api=f"<tensor>.{row['method']}()", references=int(row["calls"]), repositories=0, in_official_tables=False,
    ))


def _read_counts(path: Path, columns: tuple[str, ...], make_row) -> list[UsageRow]:
    if not path.is_file():
        raise KnowledgeBaseError(path, None, "the usage file does not exist")
    rows: list[UsageRow] = []
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = set(columns) - set(reader.fieldnames or ())
        if missing:
            raise KnowledgeBaseError(path, 1, f"missing columns {sorted(missing)}")
        for row in reader:
            try:
                rows.append(make_row(row))
            except (TypeError, ValueError):
                raise KnowledgeBaseError(path, reader.line_num, f"{', '.join(columns[1:])} must be whole numbers") from None
    rows.sort(key=lambda row: -row.references)
    return rows


def answer(view: RouteView, api: str) -> list[Entry]:
    """The entries the engine would report for a frequency-file name on this view ([] = generic fallback)."""
    method = _TENSOR_METHOD.match(api)
    if method:
        entries = _tensor_method_entries(view, method.group("method"))
        argument = (method.group("argument") or "").strip("'\"")
        if argument:
            entries = view.by_string.get(argument, []) + entries
        return entries
    keyword = _KEYWORD_STRING.match(api)
    if keyword:
        role = _STRING_ROLES.get(keyword.group("keyword"), "")
        return [entry for entry in view.by_string.get(keyword.group("value"), []) if not role or entry.condition in (role, "")]
    exact = view.by_name.get(api)
    if exact:
        return list(exact)
    method_entries = [entry for entry in view.by_method.get(api.rsplit(".", 1)[-1], []) if entry.api == api]
    if method_entries:
        return method_entries
    return prefix_answer(view, api)


def prefix_answer(view: RouteView, api: str) -> list[Entry]:
    """The nearest `condition: prefix` entry above `api`, as the engine picks it (longest prefix wins)."""
    parts = api.split(".")
    for length in range(len(parts) - 1, 0, -1):
        parent = ".".join(parts[:length])
        found = [entry for entry in view.by_name.get(parent, []) if entry.condition == "prefix"]
        if found:
            return found
    return []


def _tensor_method_entries(view: RouteView, method: str) -> list[Entry]:
    return [
        entry for entry in view.by_method.get(method, [])
        if entry.receiver_type == "torch.Tensor" and entry.receiver in _TENSOR_RECEIVERS
    ]


def is_cuda_related(api: str) -> bool:
    """The names the NPU route must answer: torch.cuda.*, torch.backends.*, .cuda()/.is_cuda, CUDA/NCCL strings."""
    lowered = api.lower()
    return "cuda" in lowered or "nccl" in lowered or api.startswith("torch.backends")


def measure(view: RouteView, rows: list[UsageRow], numeric: dict | None = None) -> Coverage:
    """`numeric`: the record of `kb verify --numeric` as `numeric.load_record` reads it."""
    numeric = numeric or {}
    answered_names = answered_references = curated_references = checked_references = reviewed_references = 0
    review_noted_references = 0
    unanswered: list[UsageRow] = []
    for row in rows:
        entries = answer(view, row.api)
        if entries:
            answered_names += 1
            answered_references += row.references
            curated = any(entry.curated for entry in entries)
            checked = any(numeric.get((entry.api, entry.target or ""), {}).get("outcome") in _RUN for entry in entries)
            curated_references += row.references if curated else 0
            checked_references += row.references if checked else 0
            noted = any(entry.review for entry in entries)
            reviewed_references += row.references if checked or curated or noted else 0
            review_noted_references += row.references if checked or noted else 0
        else:
            unanswered.append(row)
    return Coverage(
        route=view.route,
        names=len(rows),
        references=sum(row.references for row in rows),
        answered_names=answered_names,
        answered_references=answered_references,
        curated_references=curated_references,
        unanswered=tuple(unanswered),
        checked_references=checked_references,
        reviewed_references=reviewed_references,
        review_noted_references=review_noted_references,
    )


def route_coverage(knowledge_base: KnowledgeBase, route: str, rows: list[UsageRow], torch_version: str = "2.8",
                   mindspore_version: str = "2.10") -> Coverage:
    """Coverage on `route`: every row for mindspore, the CUDA-related rows for npu."""
    from ascend_migrate.kb.numeric import load_record

    view = knowledge_base.view(route, torch_version, mindspore_version)
    relevant = rows if route == "mindspore" else [row for row in rows if is_cuda_related(row.api)]
    return measure(view, relevant, load_record(knowledge_base.directory))

