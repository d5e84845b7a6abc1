"""TensorFlow → MindSpore entries from the r2.1 table (the last MindSpore docs with one).

Names are written with the real module (`tensorflow.`, `tensorflow_probability.`), never the `tf` alias.
Source versions: the table documents TensorFlow 2.6 and, in a second block, 1.15. A 1.15 row applies to
every version unless its name left the TF 2 namespace (TF1_ONLY), and where both blocks map the same name
differently the 2.6 row takes TF >= 2 and the 1.15 row TF < 2.
"""

from __future__ import annotations

from collections import defaultdict

from tools.generate_mappings.notes import difference_text, doc_link, join_notes
from tools.generate_mappings.parameters import ParameterIndex, is_pure_rename, parameter_entries
from tools.generate_mappings.sources import BRANCHES, TENSORFLOW_TABLE_PATH, MappingRow

MODULE_ALIASES = {"tf": "tensorflow", "tfp": "tensorflow_probability"}
TF1 = "TensorFlow 1.15"
# Names of the 1.15 block that TensorFlow 2 no longer has at that path (only under tf.compat.v1).
TF1_ONLY = {"tf.arg_max", "tf.arg_min", "tf.metrics.mean_iou"}
# Instance methods: matched as methods on a receiver the engine knows the type of (see mappings/README.md).
METHOD_RECEIVERS = {"tf.data.Dataset.": "dataset", "tf.keras.Model.": "model"}
CSV_NAMES = "tensorflow_api_mapping.csv + tensorflow_param_diffs.csv"


def file_provenance() -> str:
    return BRANCHES["r2.1"].provenance(CSV_NAMES, TENSORFLOW_TABLE_PATH)


def real_name(api: str) -> str:
    head, _, rest = api.partition(".")
    return f"{MODULE_ALIASES.get(head, head)}.{rest}" if rest else MODULE_ALIASES.get(head, head)


def build(rows: list[MappingRow], parameters: ParameterIndex, target_resolution: dict[str, bool]) -> list[dict]:
    groups: dict[tuple[str, str], list[MappingRow]] = defaultdict(list)
    for row in rows:
        groups[(row.source_api, _source_range(row, rows))].append(row)
    entries = []
    for (api, source_range), group in groups.items():
        entries.append(_entry(api, source_range, group, parameters, target_resolution))
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


def _entry(api, source_range, group, parameters, target_resolution) -> dict:
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
    if consistent:
        entry["fix"] = "safe"
    else:
        found, shared_with = parameters.find(row.source_api, row.mindspore_api, row.diff_page, row.branch)
        parameter_list = parameter_entries(found, api)
        safe = (not shared_with and row.category == "different_param_names" and set(row.diff_flags) == {"renamed"}
                and is_pure_rename(parameter_list))
        entry["fix"] = "safe" if safe else "unsafe"
        notes.append(difference_text(row))
        if shared_with and parameter_list:
            notes.append(f"Parameters are from the diff page it shares with {shared_with}.")
    if row.source_doc_version != "TensorFlow 2.6":
        notes.append(f"Documented against {row.source_doc_version}.")
    if api in TF1_ONLY:
        notes.append("TensorFlow 2 has this name only under tf.compat.v1.")
    for alternative in alternatives:
        notes.append(f"The same doc also maps it to {alternative.mindspore_api}.")
    if parameter_list:
        entry["parameters"] = parameter_list
    if notes:
        entry["note"] = join_notes(notes)
    links = [doc_link(item, TENSORFLOW_TABLE_PATH) for item in group]
    entry["docs"] = list(dict.fromkeys(link for link in links if link))
    resolves = [target_resolution.get(item.mindspore_api) for item in group]
    if all(value is True for value in resolves):
        entry["verified"] = "name check: target resolves in mindspore 2.10.0; source not checked (no TensorFlow 1.15/2.6 for Python 3.11)"
    return entry
