"""Hover text: for a flagged API, its mapping for the current target with a table of parameter differences;
for an unflagged torch or tensorflow name, what the knowledge base knows of it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.kb.schema import Entry

TARGET_NAMES = {"mindspore": "MindSpore", "npu": "torch_npu"}
_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*")
SOURCE_FRAMEWORKS = ("torch", "tensorflow")


def _source_name(api: str) -> str:
    return "TensorFlow" if api.startswith("tensorflow") else "PyTorch"


def _cell(text: str | None) -> str:
    if text is None or text == "":
        return "—"
    return "`" + str(text).replace("|", "\\|").replace("`", "'") + "`"


def _plain_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def parameter_table(entry: Entry) -> str:
    """The parameter differences of an entry as a Markdown table (empty when there are none)."""
    if not entry.parameters:
        return ""
    source, target = _source_name(entry.api), TARGET_NAMES.get(entry.route, entry.route)
    rows = [
        f"| {source} parameter | {target} parameter | {source} default | {target} default | difference |",
        "|---|---|---|---|---|",
    ]
    for parameter in entry.parameters:
        difference = parameter.change + (f": {parameter.note}" if parameter.note else "")
        rows.append(
            f"| {_cell(parameter.source)} | {_cell(parameter.target)} | {_cell(parameter.source_default)} "
            f"| {_cell(parameter.target_default)} | {_plain_cell(difference)} |"
        )
    return "\n".join(rows)


def entry_markdown(entry: Entry, finding: Finding | None = None) -> str:
    """Everything the knowledge base says about one entry, with the finding's own words first if given."""
    target_name = TARGET_NAMES.get(entry.route, entry.route)
    arrow = f" → `{entry.target}`" if entry.target else f" (no {target_name} equivalent)" if "unsupported" in entry.category else ""
    parts = [f"**`{entry.api}`**{arrow}"]
    code = (finding.code if finding is not None else entry.code) or ""
    facts = [fact for fact in (code, entry.category, f"target {entry.route}") if fact]
    if finding is not None:
        facts.append(f"confidence {finding.confidence}")
    parts.append(" · ".join(facts))
    if finding is not None:
        parts.append(finding.message + (f"\n\n{finding.suggestion}" if finding.suggestion and finding.suggestion not in finding.message else ""))
    elif entry.suggestion:
        parts.append(entry.suggestion)
    table = parameter_table(entry)
    if table:
        parts.append(table)
    if entry.note:
        parts.append(f"**Note:** {entry.note}")
    versions = []
    if entry.source_versions.text != "*":
        versions.append(f"{_source_name(entry.api)} {entry.source_versions.text}")
    if entry.target_versions.text != "*" and entry.route == "mindspore":
        versions.append(f"MindSpore {entry.target_versions.text}")
    if versions:
        parts.append("Applies to " + ", ".join(versions) + ".")
    links = list(dict.fromkeys(([finding.doc_url] if finding is not None and finding.doc_url else []) + list(entry.docs)))
    if links:
        parts.append("Documentation: " + " · ".join(f"[{_link_label(link)}]({link})" for link in links))
    provenance = f"Source: {entry.provenance}" + (f" (verified: {entry.verified})" if entry.verified else "")
    parts.append(f"_{provenance}_")
    return "\n\n".join(parts)


def _link_label(url: str) -> str:
    without_scheme = url.split("://", 1)[-1]
    return without_scheme.split("/", 1)[0] or url


def finding_markdown(finding: Finding, entry: Entry | None) -> str:
    if entry is not None:
        return entry_markdown(entry, finding)
    parts = [f"**`{finding.api}`**", f"{finding.code} · {finding.category} · confidence {finding.confidence}", finding.message]
    if finding.suggestion and finding.suggestion not in finding.message:
        parts.append(finding.suggestion)
    if finding.doc_url:
        parts.append(f"Documentation: [{_link_label(finding.doc_url)}]({finding.doc_url})")
    return "\n\n".join(parts)


def name_at(line: str, index: int) -> tuple[str, int, int] | None:
    """The dotted name under character `index` of `line`, up to the segment under it, and its span."""
    for match in _DOTTED_NAME.finditer(line):
        if match.start() <= index <= match.end():
            text = match.group()
            # Up to the end of the identifier under the cursor: hovering `cuda` in `torch.cuda.is_available`.
            cut = index - match.start()
            while cut < len(text) and (text[cut].isalnum() or text[cut] == "_"):
                cut += 1
            dotted = re.sub(r"\s+", "", text[:cut])
            return dotted.rstrip("."), match.start(), match.start() + cut
    return None


def unflagged_markdown(qualified: str, route: str, entries: Sequence[Entry]) -> str | None:
    """Hover text for a torch/tensorflow name with no finding under the cursor; None for other names."""
    if qualified.split(".")[0] not in SOURCE_FRAMEWORKS:
        return None
    for_route = [entry for entry in entries if entry.route == route]
    if for_route:
        body = "\n\n---\n\n".join(entry_markdown(entry) for entry in for_route)
        return body + "\n\n_Not flagged here: the entry does not apply to this code, its versions, or it is ignored._"
    target_name = TARGET_NAMES.get(route, route)
    others = sorted({entry.route for entry in entries})
    note = f" (it has entries for the {', '.join(others)} target)" if others else ""
    if route == "npu":
        return f"**`{qualified}`**\n\nNo change is known to be needed with {target_name}: the knowledge base has no entry for it on the npu target{note}."
    return f"**`{qualified}`**\n\nThe knowledge base has no MindSpore mapping for this name{note}."
