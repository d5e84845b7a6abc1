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


def _code(text: str | None) -> str:
    return "`" + str(text).replace("|", "\\|").replace("`", "'") + "`"


def _parameter_cell(name: str | None, default: str | None) -> str:
    """`name=default` in one short cell (two columns fewer than name and default apart: the table fits a hover)."""
    if not name:
        return "—"
    return _code(name if default in (None, "") else f"{name}={default}")


def parameter_table(entry: Entry) -> str:
    """The parameter differences of an entry as a short Markdown table, its notes listed under it (a long
    note in a cell makes every row wrap); empty when there are none."""
    if not entry.parameters:
        return ""
    source, target = _source_name(entry.api), TARGET_NAMES.get(entry.route, entry.route)
    rows = [f"| {source} | {target} | change |", "|---|---|---|"]
    notes = []
    for parameter in entry.parameters:
        rows.append(f"| {_parameter_cell(parameter.source, parameter.source_default)} "
                    f"| {_parameter_cell(parameter.target, parameter.target_default)} | {parameter.change} |")
        if parameter.note:
            notes.append(f"- {_code(parameter.source or parameter.target)}: {parameter.note}")
    return "\n".join(rows) + ("\n\n" + "\n".join(notes) if notes else "")


# A sentence ends at `.`, `;` or `!` before a space (not inside a name such as torch.npu.synchronize).
_SENTENCE_END = re.compile(r"(?<=[.;!])\s+")


def _unsaid(text: str, said: list[str]) -> str:
    """`text` without the sentences `said` already holds (a table's note is often the message's tail too)."""
    spoken = _comparable(" ".join(said))
    kept = [sentence for sentence in _SENTENCE_END.split(text.strip()) if _comparable(sentence).rstrip(".;") not in spoken]
    return " ".join(kept)


def _comparable(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def _heading(entry: Entry) -> str:
    if entry.target:
        return f"**`{entry.api}`** → `{entry.target}`"
    if entry.category == "ms-unsupported":
        return f"**`{entry.api}`** (no MindSpore equivalent)"
    # npu-unsupported also covers caveats of APIs that run on the NPU: "no equivalent" would be wrong there
    return f"**`{entry.api}`**"


def entry_markdown(entry: Entry, finding: Finding | None = None) -> str:
    """Everything a user needs about one entry, most useful first: the heading and one-line summary, the
    parameter table, what to do, the notes not said yet, versions, documentation, then the code line.
    Provenance (tables, rows, commits, checksums) is for `ascend-migrate kb lookup`, not the hover."""
    parts = [_heading(entry)]
    said: list[str] = []
    summary = finding.message if finding is not None else ""
    if summary:
        parts.append(summary)
        said.append(summary)
    table = parameter_table(entry)
    if table:
        parts.append(table)
    suggestion = finding.suggestion if finding is not None else entry.suggestion
    if suggestion and not _only_names_the_target(suggestion, entry):
        suggestion = _unsaid(suggestion, said)
        if suggestion:
            parts.append(suggestion)
            said.append(suggestion)
    if entry.note:
        note = _unsaid(entry.note, said)
        if note:
            parts.append(f"**Note:** {note}")
    if entry.edge_difference:
        # told here, not as a warning on every call: ordinary inputs agree
        parts.append(f"**Edge inputs:** {entry.edge_difference}")
    versions = []
    if entry.source_versions.text != "*":
        versions.append(f"{_source_name(entry.api)} {entry.source_versions.text}")
    if entry.target_versions.text != "*" and entry.route == "mindspore":
        versions.append(f"MindSpore {entry.target_versions.text}")
    if versions:
        parts.append("Applies to " + ", ".join(versions) + ".")
    links = documentation_links(entry, finding)
    if links:
        parts.append("Documentation: " + " · ".join(f"[{label}]({url})" for url, label in links))
    code = (finding.code if finding is not None else entry.code) or ""
    facts = [fact for fact in (code, entry.category, f"target {entry.route}") if fact]
    if finding is not None:
        facts.append(f"confidence {finding.confidence}")
    parts.append(" · ".join(facts) + f" · where this comes from: `ascend-migrate kb lookup {entry.api}`")
    return "\n\n".join(parts)


def _only_names_the_target(suggestion: str, entry: Entry) -> bool:
    """A suggestion such as "use `torch_npu.optim.NpuFusedAdamW`" repeats the heading's arrow."""
    words = _comparable(suggestion).rstrip(".").split()
    return bool(entry.target) and len(words) == 2 and words[0].lower() == "use" and words[1].rstrip("()") == entry.target


# A documentation file in a source the Ascend reference data records as `owner/repo@commit:path` (a GitHub
# repository at a pinned commit, /work/shared/reference/ascend/README.md): the page the table row came from.
_DOCUMENTATION_SOURCE = re.compile(r"(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)@(?P<commit>[0-9a-f]{40}):(?P<path>docs/\S+)")


def documentation_links(entry: Entry, finding: Finding | None = None) -> list[tuple[str, str]]:
    """(url, label) of the entry's documentation: the finding's and the entry's own links, then the
    documentation pages its provenance names. Nothing else is made up."""
    links: dict[str, str] = {}
    for url in ([finding.doc_url] if finding is not None and finding.doc_url else []) + list(entry.docs):
        links.setdefault(url, _link_label(url))
    for source in (entry.provenance or "").split(";"):
        match = _DOCUMENTATION_SOURCE.fullmatch(source.strip())
        if match is None:
            continue
        repo, commit, path = match["repo"], match["commit"], match["path"]
        kind = "tree" if path.endswith("/") else "blob"
        label = f"{repo.split('/')[-1]}: {path.rstrip('/').rsplit('/', 1)[-1]}"
        links.setdefault(f"https://github.com/{repo}/{kind}/{commit}/{path}", label)
    return list(links.items())


def _link_label(url: str) -> str:
    without_scheme = url.split("://", 1)[-1]
    return without_scheme.split("/", 1)[0] or url


def finding_markdown(finding: Finding, entry: Entry | None) -> str:
    if entry is not None:
        return entry_markdown(entry, finding)
    parts = [f"**`{finding.api}`**", finding.message]
    if finding.suggestion and finding.suggestion not in finding.message:
        parts.append(finding.suggestion)
    if finding.doc_url:
        parts.append(f"Documentation: [{_link_label(finding.doc_url)}]({finding.doc_url})")
    parts.append(f"{finding.code} · {finding.category} · confidence {finding.confidence}")
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
