"""TensorFlow → MindSpore entries from the r2.1 table (the last MindSpore docs with one).

Names are written with the real module (`tensorflow.`, `tensorflow_probability.`), never the `tf` alias.
Source versions: the table documents TensorFlow 2.6 and, in a second block, 1.15. A 1.15 row applies to
every version unless its name left the TF 2 namespace (TF1_ONLY), and where both blocks map the same name
differently the 2.6 row takes TF >= 2 and the 1.15 row TF < 2.
"""

from __future__ import annotations

from collections import defaultdict

from tools.generate_mappings.corrections import (PAGE_CHECKS, TENSORFLOW_NO_RENAME, TENSORFLOW_PAGE_DIFFERENCES,
                                                 TENSORFLOW_PARAMETER_CORRECTIONS)
from tools.generate_mappings.notes import difference_text, doc_link, join_notes
from tools.generate_mappings.parameter_corrections import corrected_rows, split_entry
from tools.generate_mappings.parameters import ParameterIndex, is_pure_rename, parameter_entries
from tools.generate_mappings.sources import BRANCHES, TENSORFLOW_TABLE_PATH, MappingRow

MODULE_ALIASES = {"tf": "tensorflow", "tfp": "tensorflow_probability"}
TF1 = "TensorFlow 1.15"
# Names of the 1.15 block that TensorFlow 2 no longer has at that path (only under tf.compat.v1).
TF1_ONLY = {"tf.arg_max", "tf.arg_min", "tf.metrics.mean_iou"}
# Names of the 2.6 era that TensorFlow 2.21 with Keras 3 no longer has (checked by resolve_names.py).
KERAS_3_REMOVED = {
    "tf.keras.Model.fit_generator": "Keras 3 (TensorFlow 2.21 checked) has no fit_generator; Model.fit takes generators.",
    "tf.keras.Model.predict_generator": "Keras 3 (TensorFlow 2.21 checked) has no predict_generator; Model.predict takes generators.",
    "tf.compat.v1.layers.Dense": "TensorFlow 2.21 (Keras 3) has tf.compat.v1.layers without Dense.",
}
# Instance methods: matched as methods on a receiver the engine knows the type of (see mappings/README.md).
METHOD_RECEIVERS = {"tf.data.Dataset.": "dataset", "tf.keras.Model.": "model"}
CSV_NAMES = "tensorflow_api_mapping.csv + tensorflow_param_diffs.csv"


def file_provenance() -> str:
    return BRANCHES["r2.1"].provenance(CSV_NAMES, TENSORFLOW_TABLE_PATH)


def real_name(api: str) -> str:
    head, _, rest = api.partition(".")
    return f"{MODULE_ALIASES.get(head, head)}.{rest}" if rest else MODULE_ALIASES.get(head, head)


def build(rows: list[MappingRow], parameters: ParameterIndex, target_resolution: dict[str, bool],
          source_resolution: dict[str, str] | None = None,
          hand_written: dict[tuple[str, str], str] | None = None) -> list[dict]:
    """`source_resolution`: real TensorFlow name → how it resolved in an installed TensorFlow. A name a
    hand-written table answers (`hand_written`: (api, route) → table) is left to it."""
    rows = [row for row in rows if (real_name(row.source_api), "mindspore") not in (hand_written or {})]
    groups: dict[tuple[str, str], list[MappingRow]] = defaultdict(list)
    for row in rows:
        groups[(row.source_api, _source_range(row, rows))].append(row)
    entries = []
    for (api, source_range), group in groups.items():
        entry = _entry(api, source_range, group, parameters, target_resolution, source_resolution or {})
        entries.append(entry)
        correction = TENSORFLOW_PARAMETER_CORRECTIONS.get(entry["api"])
        if correction is not None and correction.since:
            entries.append(split_entry(entry, correction, entry["api"]))
    return entries


def _source_range(row: MappingRow, rows: list[MappingRow]) -> str:
    if row.source_doc_version == TF1:
        if row.source_api in TF1_ONLY:
            return "<2"
        if any(other.source_api == row.source_api and other.source_doc_version != TF1 for other in rows):
            return "<2"
        return "*"
    if any(other.source_api == row.source_api and other.source_doc_version == TF1 for other in rows):
        return ">=2"
    return "*"


def _entry(api, source_range, group, parameters, target_resolution, source_resolution) -> dict:
    row, alternatives = group[0], group[1:]  # tf.reshape: two rows of the same block → one entry, both named
    entry: dict = {"api": real_name(api)}
    for prefix, receiver in METHOD_RECEIVERS.items():
        if api.startswith(prefix):
            entry["match"] = "method"
            entry["receiver"] = receiver
    consistent = row.category == "consistent"
    entry["category"] = "ms-equivalent" if consistent else "ms-differs"
    entry["target"] = row.mindspore_api
    if source_range != "*":
        entry["source_versions"] = source_range
    notes = []
    parameter_list: list[dict] = []
    checked_page = None
    if consistent:
        entry["fix"] = "safe"
    else:
        found, shared_with = parameters.find(row.source_api, row.mindspore_api, row.diff_page, row.branch)
        parameter_list = parameter_entries(found, api)
        correction = TENSORFLOW_PARAMETER_CORRECTIONS.get(entry["api"])
        if correction is not None and not correction.since:
            parameter_list = corrected_rows(parameter_list, correction, entry["api"])
            notes.append(correction.note)
        safe = (not shared_with and row.category == "different_param_names" and set(row.diff_flags) == {"renamed"}
                and is_pure_rename(parameter_list))
        entry["fix"] = "safe" if safe else "unsafe"
        corrected = correction is not None and not correction.since
        # a doc row saying only "see the diff page" (a prose page) gets what running both sides found
        checked_page = TENSORFLOW_PAGE_DIFFERENCES.get((entry["api"], row.mindspore_api))
        stated = checked_page or difference_text(row, parameter_list)
        notes.append(f"The doc: {stated}" if corrected else stated)
        # A target that needs an argument the TensorFlow call never gives (BatchNorm2d's num_features, an optimizer's
        # params) cannot be reached by a rename: the renamed call raises a TypeError (issue 21), so no fix.
        required = [item["target"] for item in parameter_list if item.get("change") == "added" and item.get("target_default") == "(required)"]
        if required:
            entry["fix"] = "none"
            notes.insert(0, f"No fix: {row.mindspore_api} needs {', '.join(required)}, which the TensorFlow call does not give.")
        no_rename = TENSORFLOW_NO_RENAME.get((entry["api"], row.mindspore_api))
        if no_rename and not required:  # the renamed call was run and does not do the TensorFlow call's job
            entry["fix"] = "none"
            notes.insert(0, no_rename)
        if shared_with and parameter_list:
            notes.append(f"Parameters are from the diff page it shares with {shared_with}.")
    if row.source_doc_version != "TensorFlow 2.6":
        notes.append(f"Documented against {row.source_doc_version}.")
    if api in TF1_ONLY:
        notes.append("TensorFlow 2 has this name only under tf.compat.v1.")
    elif api in KERAS_3_REMOVED:
        notes.append(KERAS_3_REMOVED[api])
    for alternative in alternatives:
        notes.append(f"The same doc also maps it to {alternative.mindspore_api}.")
    if parameter_list:
        entry["parameters"] = parameter_list
    if notes:
        entry["note"] = join_notes(notes)
    links = [doc_link(item, TENSORFLOW_TABLE_PATH) for item in group]
    entry["docs"] = list(dict.fromkeys(link for link in links if link))
    parts = []
    resolves = [target_resolution.get(item.mindspore_api) for item in group]
    if all(value is not None for value in resolves):
        parts.append("target resolves in mindspore 2.10.0" if all(resolves) else "target does not resolve in mindspore 2.10.0")
    source = source_resolution.get(entry["api"])
    parts.append(f"source {source}" if source else "source not checked")
    # TensorFlow 1.15 and 2.6 do not install on Python 3.11, so the names were checked in a newer release.
    entry["verified"] = "name check: " + "; ".join(parts)
    correction = TENSORFLOW_PARAMETER_CORRECTIONS.get(entry["api"])
    if correction is not None and not correction.since and parameter_list:
        entry["verified"] += f"; parameters corrected: {correction.checked}"
    if checked_page:
        entry["verified"] += "; " + next(text for tag, text in PAGE_CHECKS.items() if checked_page.endswith(tag))
    if entry["fix"] == "safe":  # a safe fix is one the numeric battery ran; it runs torch only (issue 16)
        entry["fix"] = "unsafe"
        entry["verified"] += "; not a safe fix: the numeric battery does not run TensorFlow"
    return entry
