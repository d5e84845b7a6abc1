"""PyTorch → MindSpore entries from the two generations of MindSpore's mapping table.

master (≈ MindSpore 2.6) maps to mindspore.mint and applies from 2.5 on; r2.4.10 maps to mindspore.ops/nn and
applies before 2.5 where master has the API too, else to every version (those ops/nn names still exist in
2.10, except the few corrections.REMOVED_TARGETS).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tools.generate_mappings import corrections, ops_nn_rows
from tools.generate_mappings.notes import difference_text, doc_link, join_notes
from tools.generate_mappings.numeric import NumericRecord
from tools.generate_mappings.parameter_corrections import corrected_rows, split_correction, split_entry
from tools.generate_mappings.parameters import ParameterIndex, is_pure_rename, parameter_entries
from tools.generate_mappings.reviews import apply_reviews
from tools.generate_mappings.signatures import Signatures
from tools.generate_mappings.sources import BRANCHES, PYTORCH_TABLE_PATH, MappingRow

from ascend_migrate.kb.versions import parse_range, parse_version

MASTER, LEGACY = "master", "r2.4.10"
MINT_RANGE, LEGACY_RANGE = ">=2.5", "<2.5"
METHOD_RECEIVERS = {"torch.Tensor.": "tensor", "torch.nn.Module.": "module"}
MASTER_CSV = "pytorch_api_mapping.csv + pytorch_param_diffs.csv"
LEGACY_CSV = "pytorch_api_mapping_r2.4.10.csv + pytorch_param_diffs.csv"


@dataclass
class Outcome:
    """What the generator did, for its summary and for mappings/README.md."""

    entries: list[dict] = field(default_factory=list)
    source_apis: set[str] = field(default_factory=set)  # the doc's spellings, before corrections
    skipped: dict[str, str] = field(default_factory=dict)  # api → the hand-written table that has it
    corrections: list[str] = field(default_factory=list)


def file_provenance() -> str:
    return BRANCHES[MASTER].provenance(MASTER_CSV, PYTORCH_TABLE_PATH)


@dataclass(frozen=True)
class Lookups:
    """Everything an entry is checked against besides its own row."""

    parameters: ParameterIndex
    target_resolution: dict[str, bool]  # MindSpore name → resolves in mindspore 2.10.0
    source_resolution: dict[str, str]  # torch name → how it resolved in the installed torch/torchvision
    numeric: NumericRecord | None = None
    signatures: Signatures | None = None


def build(master_rows: list[MappingRow], legacy_rows: list[MappingRow], lookups: Lookups,
          hand_written: dict[tuple[str, str], str]) -> Outcome:
    outcome = Outcome()
    groups: dict[tuple[str, str], list[MappingRow]] = defaultdict(list)
    for row in master_rows + legacy_rows:
        if not row.source_api:
            continue  # "Unique to MindSpore" rows name no torch API
        outcome.source_apis.add(row.source_api)
        api, _ = corrections.correct_source(row.source_api)
        if api != row.source_api:
            outcome.corrections.append(f"{row.source_api} → {api} ({row.branch})")
        groups[(api, row.branch)].append(row)
    in_master = {api for api, branch in groups if branch == MASTER}
    for (api, branch) in sorted(groups, key=lambda key: (key[0], key[1] != MASTER)):
        table = hand_written.get((api, "mindspore"))
        if table is not None:
            outcome.skipped[api] = table
            continue
        primary, alternatives = _choose(groups[(api, branch)])
        if branch == MASTER:
            target_range = MINT_RANGE
        else:
            target_range = LEGACY_RANGE if api in in_master else "*"
        entry = _entry(api, primary, alternatives, target_range, lookups, outcome)
        outcome.entries.append(entry)
        _, splitting = split_correction(corrections.PARAMETER_CORRECTIONS.get((api, branch), ()))
        if splitting is not None:
            outcome.entries.append(split_entry(entry, splitting, f"{api} ({branch})"))
            outcome.corrections.append(f"{api}: parameters corrected from {splitting.side} {splitting.since} on ({branch})")
        for checked in outcome.entries[-2:] if splitting is not None else [entry]:
            if lookups.numeric is not None and lookups.numeric.apply(checked):
                outcome.corrections.append(f"{api}: {checked['target']} disagrees when run → ms-differs ({branch})")
        replacement = corrections.CHECKED_REPLACEMENTS.get((api, branch))
        if replacement is not None:
            outcome.entries.append(_replacement_entry(entry, replacement))
            if lookups.numeric is not None:
                lookups.numeric.apply(outcome.entries[-1])
            outcome.corrections.append(f"{api}: {replacement.target} from MindSpore {replacement.since} ({branch})")
        if branch == MASTER and (api, LEGACY) not in groups and api in ops_nn_rows.ROWS:
            # the r2.4.10 table has no row: the ops/nn-era row derived by a side-by-side run (ops_nn_rows.py)
            outcome.entries.extend(ops_nn_rows.rows(api))
            outcome.corrections.append(f"{api}: ops/nn-era row {ops_nn_rows.ROWS[api]['target']} derived ({LEGACY})")
    stale = sorted(api for api in ops_nn_rows.ROWS if (api, LEGACY) in groups)
    if stale:  # the docs gained an r2.4.10 row: the derived one must be reviewed against it, not stacked on it
        raise ValueError(f"ops_nn_rows.ROWS holds names the r2.4.10 table now maps: {', '.join(stale)}")
    apply_reviews(outcome.entries)
    return outcome


def _contains(target_range: str, version: str) -> bool:
    return parse_range(target_range).contains(parse_version(version))


def _replacement_entry(entry: dict, replacement: corrections.Replacement) -> dict:
    """The checked target from `since` on; the doc's entry is narrowed to the releases before."""
    entry["target_versions"] = f"{entry['target_versions']},<{replacement.since}"
    checked = {key: value for key, value in entry.items() if key in ("api", "match", "receiver")}
    checked.update({
        "category": "ms-equivalent",
        "target": replacement.target,
        "target_versions": f">={replacement.since}",
        "fix": "safe",
        "note": replacement.note + ".",
        "docs": entry["docs"],
        "verified": replacement.verified,
    })
    return checked


def _choose(rows: list[MappingRow]) -> tuple[MappingRow, list[MappingRow]]:
    """r2.4.10 lists some optimizers twice (mindspore.nn and mindspore.experimental.optim): the latter keeps
    torch's interface, so it is the target and the other is named in the note."""
    if len(rows) == 1:
        return rows[0], []
    ranked = sorted(rows, key=lambda row: (not row.mindspore_api.startswith("mindspore.experimental.optim"),
                                            row.category != "consistent"))
    return ranked[0], ranked[1:]


def _entry(api: str, row: MappingRow, alternatives: list[MappingRow], target_range: str, lookups: Lookups,
           outcome: Outcome) -> dict:
    entry: dict = {"api": api}
    for prefix, receiver in METHOD_RECEIVERS.items():
        if api.startswith(prefix):
            entry["match"] = "method"
            entry["receiver"] = receiver
    notes: list[str] = []
    _, spelling_note = corrections.correct_source(row.source_api)
    if spelling_note:
        notes.append(spelling_note)
    consistent = _is_consistent(api, row, notes, outcome)
    entry["category"] = "ms-equivalent" if consistent else "ms-differs"
    if consistent and entry.get("receiver") == "tensor":
        entry["code"] = "MS105"
    if api in corrections.NOT_REPORTED:
        entry["reported"] = False
        notes.append(corrections.NOT_REPORTED[api])
    entry["target"] = row.mindspore_api
    if row.mindspore_api in corrections.REMOVED_TARGETS:
        target_range = corrections.REMOVED_TARGET_RANGE
        notes.append(f"{row.mindspore_api} is gone from mindspore 2.10.0; this entry covers releases before 2.5 only.")
        outcome.corrections.append(f"{api} → {row.mindspore_api}: target_versions {target_range} ({row.branch})")
    entry["target_versions"] = target_range
    checked_signatures = "" if consistent else _differences(entry, row, lookups, notes, outcome)
    if consistent:
        entry["fix"] = "safe"
        rare_forms = corrections.EQUIVALENT_ROWS.get((api, row.branch))
        if rare_forms:  # numeric.exercised keeps such a fix unsafe
            entry["parameters"] = [dict(form) for form in rare_forms]
            outcome.corrections.append(f"{api}: rows for forms the target refuses ({row.branch})")
    no_rename = corrections.NO_RENAME.get((api, row.branch))
    if no_rename:
        entry["fix"] = "none"
        notes.insert(0, no_rename)
        outcome.corrections.append(f"{api}: no fix, a rename cannot work ({row.branch})")
    added_note = corrections.ADDED_NOTES.get((api, row.branch))
    if added_note:
        notes.append(added_note)
        outcome.corrections.append(f"{api}: a note the doc lacks ({row.branch})")
    for alternative in alternatives:
        spelled = "" if alternative.source_api == api else f" under the name {alternative.source_api}"
        notes.append(f"The same doc also maps it{spelled} to {alternative.mindspore_api} ({difference_text(alternative)}).")
    if notes:
        entry["note"] = join_notes(notes)
    docs = [doc_link(item, PYTORCH_TABLE_PATH) for item in [row, *alternatives]]
    entry["docs"] = list(dict.fromkeys(link for link in docs if link))
    if row.branch != MASTER:
        entry["provenance"] = BRANCHES[row.branch].provenance(LEGACY_CSV, PYTORCH_TABLE_PATH)
    entry["verified"] = _verified(api, row, lookups, checked_signatures)
    return entry


def _is_consistent(api: str, row: MappingRow, notes: list[str], outcome: Outcome) -> bool:
    """The doc's category, after the corrections that overturn it."""
    if (api, row.branch) in corrections.FALSE_DIFFERENCES:
        notes.append(corrections.FALSE_DIFFERENCES[(api, row.branch)])
        outcome.corrections.append(f"{api}: the doc's only difference is false → ms-equivalent ({row.branch})")
        return True
    if (api, row.branch) in corrections.CHECKED_KEYWORD_RENAMES:
        said = "calls this consistent" if row.category == "consistent" else "names no parameter difference"
        renames = ", ".join(f"{source} → {target}" for source, target in corrections.CHECKED_KEYWORD_RENAMES[(api, row.branch)][0])
        notes.append(f"correction: the doc {said}, but MindSpore's API has other keyword names ({renames})")
        outcome.corrections.append(f"{api}: keyword renames found by running mindspore 2.10.0 ({row.branch})")
        return False
    return row.category == "consistent" and (api, row.branch) not in corrections.NOT_A_RENAME


def _with_relations(parameters: list[dict], relations: dict | None, outcome: Outcome, label: str) -> list[dict]:
    """The doc's parameter rows with the corrected relations of corrections.PARAMETER_RELATIONS applied."""
    if not relations:
        return parameters
    for parameter in parameters:
        relation = relations.get(parameter.get("source"))
        if relation is not None:
            change, target, position = relation
            parameter.update(change=change, target=target, position=position)
            if position is None:
                del parameter["position"]  # keyword-only in torch: no position to state
            outcome.corrections.append(f"{label}: parameter {parameter['source']} is a {change} with position {position}")
    return parameters


def _differences(entry: dict, row: MappingRow, lookups: Lookups, notes: list[str], outcome: Outcome) -> str:
    """Fills the parameters, fix and note of an ms-differs entry; returns which signatures named its
    parameters ("" when the doc's parameter rows did)."""
    api = entry["api"]
    keyword_renames = corrections.CHECKED_KEYWORD_RENAMES.get((api, row.branch))
    if keyword_renames:
        entry["parameters"] = [{"source": source, "target": target, "change": "renamed"}
                               for source, target in keyword_renames[0]]
        entry["fix"] = "safe"
        return ""
    found, shared_with = lookups.parameters.find(row.source_api, row.mindspore_api, row.diff_page, row.branch)
    parameter_list = _with_relations(parameter_entries(found, api), corrections.PARAMETER_RELATIONS.get((api, row.branch)),
                                     outcome, f"{api} ({row.branch})")
    everywhere, _ = split_correction(corrections.PARAMETER_CORRECTIONS.get((api, row.branch), ()))
    for correction in everywhere:
        parameter_list = corrected_rows(parameter_list, correction, f"{api} ({row.branch})")
        notes.append(correction.note)
        outcome.corrections.append(f"{api}: parameters corrected ({row.branch})")
    checked_signatures = ""
    signatures = lookups.signatures
    if (not parameter_list and signatures is not None and api not in corrections.SIGNATURE_MISREADS
            and _contains(entry["target_versions"], signatures.mindspore)):
        parameter_list, checked_signatures = signatures.renames(api, row.mindspore_api, entry.get("match") == "method")
    safe = (not shared_with and row.category == "different_param_names" and set(row.diff_flags) == {"renamed"}
            and is_pure_rename(parameter_list))
    # Renames read from signatures are a safe fix once a call has confirmed them.
    safe = safe or (bool(checked_signatures) and api in corrections.SIGNATURE_CALLS_CHECKED
                    and is_pure_rename(parameter_list))
    not_a_rename = corrections.NOT_A_RENAME.get((api, row.branch))
    # a difference the doc does not state (a plain tuple for torch's named result) makes even its renames unsafe
    entry["fix"] = "safe" if safe and not not_a_rename else "unsafe"
    if not_a_rename:
        notes.append(not_a_rename)
        outcome.corrections.append(f"{api}: consistent → ms-differs, unsafe ({row.branch})")
    else:
        stated = corrections.PAGE_DIFFERENCES.get((api, row.branch)) or difference_text(row, parameter_list)
        notes.append(f"The doc: {stated}" if everywhere else stated)
    if shared_with and parameter_list:
        notes.append(f"Parameters are from the diff page it shares with {shared_with}.")
    if checked_signatures:
        notes.append(f"The renamed parameters are read from the signatures ({checked_signatures}).")
    if parameter_list:
        entry["parameters"] = parameter_list
    return checked_signatures


def _verified(api: str, row: MappingRow, lookups: Lookups, checked_signatures: str) -> str:
    """How the entry was checked: a correction's own check, else the names (not the behaviour): the target in
    mindspore 2.10.0, the source in torch; plus the signatures that named its parameters."""
    keyword_renames = corrections.CHECKED_KEYWORD_RENAMES.get((api, row.branch))
    verified = keyword_renames[1] if keyword_renames else corrections.VERIFIED.get((api, row.branch), "")
    if not verified:
        parts = []
        resolves = lookups.target_resolution.get(row.mindspore_api)
        if resolves is not None:
            parts.append(f"target {'resolves' if resolves else 'does not resolve'} in mindspore 2.10.0")
        source = lookups.source_resolution.get(api)
        if source:
            parts.append(f"source {source}")
        verified = "name check: " + "; ".join(parts) if parts else ""
    everywhere, _ = split_correction(corrections.PARAMETER_CORRECTIONS.get((api, row.branch), ()))
    for correction in everywhere:
        verified += f"; parameters corrected: {correction.checked}"
    if checked_signatures:
        verified += f"; parameter names read from the signatures in {checked_signatures}"
        if api in corrections.SIGNATURE_CALLS_CHECKED:
            verified += "; a keyword call on the CPU refused torch's name and ran with MindSpore's"
    return verified
