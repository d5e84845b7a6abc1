"""Facts the MindSpore tables in mappings/ must keep: the targets per MindSpore version, parameter differences,
the general keyword table, the TensorFlow rows, the doc corrections, and the counts of the sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.schema import Entry
from ascend_migrate.kb.versions import parse_version

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"
GENERATED = ("pytorch_mindspore", "pytorch_mindspore_keywords", "tensorflow_mindspore")


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


def names(knowledge_base: KnowledgeBase, api: str, mindspore: str, torch: str = "2.8", tensorflow: str = "2.6") -> list[Entry]:
    return knowledge_base.view("mindspore", torch, mindspore, tensorflow).by_name.get(api, [])


def table(knowledge_base: KnowledgeBase, name: str) -> list[Entry]:
    return [entry for entry in knowledge_base.entries if entry.table == name]


def test_linear_maps_to_mint_on_new_mindspore_and_to_dense_with_renamed_parameters_on_old(knowledge_base) -> None:
    (new,) = names(knowledge_base, "torch.nn.Linear", "2.10")
    # the doc's weight_init/bias_init difference is false: with None, mint.nn.Linear draws torch's initial
    # distributions (corrections.FALSE_DIFFERENCES; tests/execution/test_default_initialisation.py draws them)
    assert (new.category, new.target, new.parameters) == ("ms-equivalent", "mindspore.mint.nn.Linear", ())
    assert "weight_init=None and bias_init=None" in new.note and "initialises as torch does" in new.note
    (old,) = names(knowledge_base, "torch.nn.Linear", "2.4.10")
    assert (old.category, old.target, old.fix) == ("ms-differs", "mindspore.nn.Dense", "unsafe")
    renamed = {(p.source, p.target) for p in old.parameters if p.change == "renamed"}
    assert {("in_features", "in_channels"), ("out_features", "out_channels"), ("bias", "has_bias")} <= renamed
    assert old.docs == ("https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/Dense.html",)
    assert "r2.4.10 4193344555cd" in old.provenance


def test_batch_norm_momentum_is_the_complement_on_the_ops_nn_target(knowledge_base) -> None:
    (old,) = names(knowledge_base, "torch.nn.BatchNorm2d", "2.4")
    (momentum,) = [p for p in old.parameters if p.source == "momentum"]
    assert (momentum.change, momentum.source_default, momentum.target_default, momentum.position) == (
        "complement", "0.1", "0.9", 2)
    (new,) = names(knowledge_base, "torch.nn.BatchNorm2d", "2.6")
    # the CPU build has no BatchNormExt kernel: never run, so not a safe fix (issue 16)
    assert (new.category, new.target, new.fix) == ("ms-equivalent", "mindspore.mint.nn.BatchNorm2d", "unsafe")


def test_a_tensor_method_is_a_method_entry_on_a_tensor_receiver(knowledge_base) -> None:
    view = knowledge_base.view("mindspore", "2.8", "2.10")
    (numpy,) = [entry for entry in view.by_method["numpy"] if entry.receiver_type == "torch.Tensor"]
    assert (numpy.match, numpy.receiver, numpy.target, numpy.reported) == ("method", "tensor", "mindspore.Tensor.asnumpy", False)
    # the battery ran x.numpy(force=True), a form torch documents: asnumpy refuses the keyword, so the rename is
    # no longer a safe fix; only that form differs, so it is info (and the entry is never reported anyway)
    assert (numpy.category, numpy.fix, numpy.severity) == ("ms-differs", "unsafe", "info")
    assert "force=True: mindspore raised TypeError" in numpy.note
    # x.size(1): a tuple is not callable. The hand-written structure entry (MS214, any receiver: issue 17) holds
    # it, so the generator leaves torch.Tensor.size to it.
    (size,) = [entry for entry in view.by_method["size"] if entry.receiver_type == "torch.Tensor"]
    assert (size.category, size.code, size.target, size.receiver) == ("ms-structure", "MS214", "mindspore.Tensor.shape", "any")
    assert size.note.startswith("Differs when run side by side")


def test_pure_keyword_renames_are_safe_fixes_once_the_battery_ran_them(knowledge_base) -> None:
    (glu,) = names(knowledge_base, "torch.nn.functional.glu", "2.10")
    assert (glu.target, glu.fix) == ("mindspore.ops.glu", "safe")
    assert [(p.source, p.target, p.change) for p in glu.parameters] == [("input", "x", "renamed"), ("dim", "axis", "renamed")]
    # the same kind of rename, but the battery saw NaN handled otherwise: no longer safe
    (softmin,) = names(knowledge_base, "torch.nn.Softmin", "2.10")
    assert (softmin.target, softmin.fix) == ("mindspore.nn.Softmin", "unsafe")
    assert "NaN and inf: NaN where the other gives a number" in softmin.edge_difference  # the hover's edge line
    assert [(p.source, p.target, p.change) for p in softmin.parameters] == [("dim", "axis", "renamed")]
    # Varargs to a tuple parameter is not a keyword rename.
    (repeat,) = [e for e in knowledge_base.view("mindspore", "2.8", "2.10").by_method["repeat"] if e.receiver == "tensor"]
    assert (repeat.target, repeat.fix) == ("mindspore.Tensor.tile", "unsafe")


def test_tensorflow_clip_by_value_differs_by_tensorflow_version(knowledge_base) -> None:
    (tf2,) = names(knowledge_base, "tensorflow.clip_by_value", "2.10", tensorflow="2.6")
    assert (tf2.category, tf2.target, tf2.source_versions.text) == ("ms-differs", "mindspore.ops.clip_by_value", ">=2")
    assert [(p.source, p.target, p.change) for p in tf2.parameters] == [("t", "x", "renamed"), ("name", None, "removed")]
    assert tf2.docs == ("https://www.mindspore.cn/docs/en/r2.1/note/api_mapping/tensorflow_diff/clip_by_value.html",)
    (tf1,) = names(knowledge_base, "tensorflow.clip_by_value", "2.10", tensorflow="1.15")
    assert (tf1.target, tf1.source_versions.text) == ("mindspore.Tensor.clip", "<2")


def test_tensorflow_rows_all_arrive(knowledge_base) -> None:
    entries = table(knowledge_base, "tensorflow_mindspore")
    # 205 rows: tf.reshape's two rows of the 1.15 block share one entry that names both targets, and tf.nn.relu and
    # tf.nn.softmax have a second entry from MindSpore 2.7, whose nn.ReLU/nn.Softmax call their input `input`, and tf.eye
    # one from 2.10, whose ops.eye calls its dtype `dtype`, not `t`; 207 entries, of which the names the hand-written TensorFlow tables answer (33 entries: names whose target is a class
    # used as a function, tf.one_hot, tf.keras.Model, tf.expand_dims whose row names TF1's parameter x, the Keras
    # Embedding and LayerNormalization layers) are left to them.
    curated = {entry.api for entry in table(knowledge_base, "tensorflow_mindspore_curated")}
    curated |= {entry.api for entry in table(knowledge_base, "tensorflow_structure")}
    assert len(entries) == 173
    assert not {entry.api for entry in entries} & curated
    (reshape,) = [entry for entry in table(knowledge_base, "tensorflow_mindspore_curated") if entry.api == "tensorflow.reshape"]
    assert reshape.target == "mindspore.ops.reshape"
    assert not [entry.api for entry in entries if entry.api.startswith("tf.")]
    categories = {entry.category for entry in entries}
    assert categories == {"ms-equivalent", "ms-differs"}
    assert sum(entry.category == "ms-equivalent" for entry in entries) == 20
    (dataset_map,) = [entry for entry in entries if entry.api == "tensorflow.data.Dataset.map"]
    assert (dataset_map.match, dataset_map.receiver_type) == ("method", "tensorflow.data.Dataset")
    (arg_max,) = [entry for entry in entries if entry.api == "tensorflow.arg_max"]
    assert arg_max.source_versions.text == "<2"
    assert "source does not resolve in tensorflow 2.21.0" in arg_max.verified
    resolved = {entry.api for entry in entries if "source resolves in tensorflow 2.21.0" in entry.verified}
    assert len(resolved) == 164


def test_every_torch_api_of_both_doc_tables_is_covered(knowledge_base) -> None:
    entries = table(knowledge_base, "pytorch_mindspore")
    header = (MAPPINGS / "pytorch_mindspore.yaml").read_text(encoding="utf-8")[:2000]
    left_to_hand_written = re.search(r"Left to\s+the hand-written tables: (.*?)\.'", header, re.S).group(1)
    handed_over = {name.strip() for name in re.sub(r"\s+", " ", left_to_hand_written).split(",")} - {"none"}
    hand_written = {entry.api for entry in knowledge_base.entries if entry.table in ("pytorch_mindspore_curated", "structure")}
    assert handed_over <= hand_written
    apis = {entry.api for entry in entries}
    assert not apis & handed_over
    assert len(apis | handed_over) == 926
    # The docs spell six names wrongly. Four corrected names exist only through the correction; the other two
    # (Adamax, RMSprop) were rows of their own already, so 928 doc names are 926 torch APIs.
    renamed = {match for entry in entries for match in re.findall(r"the doc spells it (\S+);", entry.note)}
    merged = {match for entry in entries for match in re.findall(r"under the name (\S+) to", entry.note)}
    assert renamed == {"torch.nn.LogSoftMax", "torch.nn.SeLU", "torch.nn.CeLU", "torch.Tensor.log_normal"}
    assert merged == {"torch.optim.AdaMax", "torch.optim.RMSProp"}
    only_corrected = {"torch.nn.LogSoftmax", "torch.nn.SELU", "torch.nn.CELU", "torch.Tensor.log_normal_"}
    assert len(((apis | handed_over) - only_corrected) | renamed | merged) == 928


def test_master_rows_target_mint_from_2_5_and_legacy_rows_before(knowledge_base) -> None:
    entries = table(knowledge_base, "pytorch_mindspore")
    ranges = {entry.target_versions.text for entry in entries}
    # >=2.5,<2.10 and >=2.10: torch.nn.Flatten's doc target and the one checked in mindspore 2.10.0; <2.7,
    # >=2.5,<2.7 and >=2.7: doc parameters (Tensor.bernoulli, randint_like) that mindspore 2.7.0 contradicts.
    # <2.10 and >=2.10 also: triplet_margin_loss's doc positions and the ones read in mindspore 2.10.0
    assert ranges == {">=2.5", "<2.5", "*", ">=2.5,<2.10", ">=2.10", "<2.7", ">=2.5,<2.7", ">=2.7", "<2.10"}
    for entry in entries:
        if (entry.target_versions.text, entry.api) in ((">=2.7", "torch.Tensor.bernoulli"),
                                                        (">=2.10", "torch.nn.functional.triplet_margin_loss")):
            assert entry.provenance.startswith("pytorch_api_mapping_r2.4.10.csv"), entry.api  # its r2.4.10 row, corrected
        elif entry.target_versions.text.startswith(">="):
            assert entry.provenance.startswith("pytorch_api_mapping.csv"), entry.api
        elif entry.provenance.startswith("derived:"):  # an ops/nn-era row for a master-only name (ops_nn_rows.py)
            assert entry.target_versions.text == "<2.5" and "side-by-side run" in entry.provenance, entry.api
        else:
            assert entry.provenance.startswith("pytorch_api_mapping_r2.4.10.csv"), entry.api


def test_targets_gone_from_mindspore_2_10_end_before_2_5(knowledge_base) -> None:
    (old,) = names(knowledge_base, "torch.nn.MultiLabelMarginLoss", "2.4")
    assert (old.target, old.target_versions.text) == ("mindspore.nn.MultiLabelMarginLoss", "<2.5")
    assert names(knowledge_base, "torch.nn.MultiLabelMarginLoss", "2.10") == []
    (hardswish,) = names(knowledge_base, "torch.nn.Hardswish", "2.10")
    assert hardswish.target == "mindspore.mint.nn.Hardswish"


def test_doc_quirks_are_corrected(knowledge_base) -> None:
    (nansum,) = names(knowledge_base, "torch.nansum", "2.10")
    # no parameter difference is left, but the battery found others (issue 16): int32 input gives int32, not int64
    assert (nansum.category, nansum.target, nansum.fix, nansum.parameters) == (
        "ms-differs", "mindspore.mint.nansum", "unsafe", ())
    assert "int32: dtype: torch int64, mindspore int32" in nansum.note
    assert "nansum has no `end` parameter" in nansum.note
    (log_softmax,) = names(knowledge_base, "torch.nn.LogSoftmax", "2.10")
    assert log_softmax.target == "mindspore.mint.nn.LogSoftmax"
    assert names(knowledge_base, "torch.nn.LogSoftMax", "2.10") == []
    (flatten_2_6,) = names(knowledge_base, "torch.nn.Flatten", "2.6")
    assert (flatten_2_6.category, flatten_2_6.fix, flatten_2_6.target) == ("ms-differs", "unsafe", "mindspore.mint.flatten")
    (flatten_2_10,) = names(knowledge_base, "torch.nn.Flatten", "2.10")
    assert (flatten_2_10.category, flatten_2_10.fix, flatten_2_10.target) == ("ms-equivalent", "safe", "mindspore.mint.nn.Flatten")
    (inv,) = names(knowledge_base, "torch.linalg.inv", "2.10")
    assert ([(p.source, p.target, p.change) for p in inv.parameters], inv.fix) == ([("A", "input", "renamed")], "unsafe")
    assert inv.verified.startswith("run on the CPU: torch 2.13.0 accepts A=, mindspore 2.10.0 raises TypeError")
    assert inv.verified.endswith("not a safe fix: the battery could not run it (no CPU kernel in this mindspore "
                                 "(no CPU kernel: The kernel MatrixInverseExt unregistered.))")
    (squeeze,) = [e for e in knowledge_base.view("mindspore", "2.8", "2.10").by_method["squeeze"] if e.receiver == "tensor"]
    assert [(p.source, p.target, p.change) for p in squeeze.parameters] == [("dim", "axis", "renamed")]
    assert (squeeze.category, squeeze.fix) == ("ms-differs", "safe")
    (adamax,) = names(knowledge_base, "torch.optim.Adamax", "2.4")
    assert adamax.target == "mindspore.experimental.optim.Adamax"
    assert "under the name torch.optim.AdaMax to mindspore.nn.AdaMax" in adamax.note


def test_general_keywords_are_pattern_entries(knowledge_base) -> None:
    new = knowledge_base.view("mindspore", "2.8", "2.10").patterns["general-keyword"]
    assert sorted(entry.api for entry in new) == [
        "device", "layout", "memory_format", "out", "pin_memory", "reduce", "requires_grad", "size_average",
        "sparse_grad", "stable"]
    assert {(entry.category, entry.code, entry.match) for entry in new} == {("ms-differs", "MS104", "pattern")}
    old = knowledge_base.view("mindspore", "2.8", "2.4").patterns["general-keyword"]
    (inplace,) = [entry for entry in old if entry.api == "inplace"]
    assert inplace.target_versions.text == "<2.5"
    (size_average,) = [entry for entry in new if entry.api == "size_average"]
    assert (size_average.parameters[0].target, size_average.parameters[0].change, size_average.fix) == (
        "reduction", "meaning", "none")


def test_generated_entries_say_where_they_come_from_and_link_the_docs(knowledge_base) -> None:
    for entry in knowledge_base.entries:
        if entry.table not in GENERATED:
            continue
        if entry.provenance.startswith("derived:"):  # ops_nn_rows.py: run side by side, named by a test
            assert re.search(r"tests/execution/test_ops_nn_rows(_session9)?\.py", entry.provenance + entry.verified), entry.api
        else:
            assert "mindspore-ai/docs" in entry.provenance and re.search(r" at \S+ [0-9a-f]{12} ", entry.provenance), entry.api
        assert entry.docs and all(link.startswith("https://www.mindspore.cn/docs/en/") for link in entry.docs), entry.api


def test_torch_sources_exist_in_the_torch_inventory(knowledge_base) -> None:
    """Every source whose module is inventoried is a public name of torch 2.13.0 / torchvision 0.29.1."""
    inventory = {module: set(names) for module, names in knowledge_base.inventory.items()}
    checked = 0
    for entry in table(knowledge_base, "pytorch_mindspore"):
        module, _, name = entry.api.rpartition(".")
        if module in inventory:
            assert name in inventory[module], entry.api
            checked += 1
    assert checked > 700


def test_the_inventory_holds_public_names_only(knowledge_base) -> None:
    inventory = knowledge_base.inventory
    assert {"Linear", "Module", "Parameter"} <= set(inventory["torch.nn"])
    assert {"view", "numpy", "shape", "cuda"} <= set(inventory["torch.Tensor"])
    assert "float32" in inventory["torch"] and "tensor" in inventory["torch"]
    assert "conv2d" in inventory["torch.nn.functional"]
    assert "resnet50" in inventory["torchvision.models"]
    for module, listed in inventory.items():
        assert not [name for name in listed if name.startswith("_")], module
        assert "functional" not in listed and "nn" not in listed, module  # submodules are not names


def test_side_by_side_runs_are_folded_into_the_entries_they_checked(knowledge_base) -> None:
    """What `kb verify --numeric` recorded shows in the generated entries: agreement in `verified`, any
    difference or failure as ms-differs with what differs."""
    record = yaml.safe_load((MAPPINGS / "verification" / "numeric.yaml").read_text(encoding="utf-8"))
    view = knowledge_base.view("mindspore", "2.8", record["versions"]["mindspore"])
    mine = {}
    for entries in list(view.by_name.values()) + list(view.by_method.values()):
        for entry in entries:
            if entry.table == "pytorch_mindspore":
                mine[(entry.api, entry.target)] = entry
    outcomes = {"agree": 0, "differ": 0, "error": 0}
    for result in record["results"]:
        entry = mine.get((result["api"], result["target"]))
        if entry is None or result["outcome"] not in outcomes:
            continue
        outcomes[result["outcome"]] += 1
        if result["outcome"] == "agree":
            assert entry.verified.startswith("numeric: agrees"), entry.api
        else:
            # never safe; "none" where no rename can serve the call (corrections.NO_RENAME)
            assert entry.category == "ms-differs" and entry.fix in ("unsafe", "none"), entry.api
            # an edge-only difference is told in the hover's edge line, the note names its inputs
            said = f"{entry.note} {entry.edge_difference}"
            assert " ".join(result["detail"].split()).rstrip(".") in " ".join(said.split()), entry.api
    assert outcomes["agree"] > 300 and outcomes["differ"] + outcomes["error"] > 0
    (squeeze,) = names(knowledge_base, "torch.squeeze", "2.10")
    assert squeeze.note.startswith("Fails when run side by side on the CPU (torch 2.13.0+cpu, mindspore 2.10.0)")


def test_every_safe_fix_was_run_by_the_battery_in_the_forms_it_writes(knowledge_base) -> None:
    """Issue 16: a safe rename is one the numeric battery ran and found agreeing, with every keyword it renames
    passed and every form it writes run, on the MindSpore version it ran; anything else is offered as unsafe."""
    record = yaml.safe_load((MAPPINGS / "verification" / "numeric.yaml").read_text(encoding="utf-8"))
    version = parse_version(record["versions"]["mindspore"])
    results = {(result["api"], result["target"]): result for result in record["results"]}
    safe = [entry for entry in knowledge_base.entries if entry.route == "mindspore" and entry.fix == "safe"]
    assert len(safe) > 200
    for entry in safe:
        result = results.get((entry.api, entry.target))
        assert entry.target_versions.contains(version), entry.api
        assert result is not None and result["outcome"] == "agree", entry.api
        passed = {name for case in result["checked"] for name in re.findall(r"(\w+)=", case)}
        assert {row.source for row in entry.parameters if row.change == "renamed"} <= passed, entry.api
        # every form of the call the fix writes (each documented keyword, by name and by position) ran on both sides
        assert not result.get("unexercised"), (entry.api, result.get("unexercised"))


def test_every_entry_called_equivalent_that_the_battery_ran_agrees(knowledge_base) -> None:
    """Or it is ms-differs with the difference in its note, or for edge inputs only in its edge line (the generator
    and the curated table fold the record)."""
    record = yaml.safe_load((MAPPINGS / "verification" / "numeric.yaml").read_text(encoding="utf-8"))
    version = parse_version(record["versions"]["mindspore"])
    differing = {(result["api"], result["target"]) for result in record["results"] if result["outcome"] in ("differ", "error")}
    for entry in knowledge_base.entries:
        if entry.route == "mindspore" and entry.target_versions.contains(version) and (entry.api, entry.target) in differing:
            assert entry.category != "ms-equivalent", entry.api
            assert "side by side" in entry.note or "side by side" in entry.edge_difference, entry.api


def test_unnamed_renames_are_named_from_the_real_signatures(knowledge_base) -> None:
    """The doc says only "the parameter names are inconsistent"; torch 2.13.0 and mindspore 2.10.0 say which."""
    (glu,) = names(knowledge_base, "torch.nn.functional.glu", "2.10")
    assert [(p.source, p.target, p.change) for p in glu.parameters] == [("input", "x", "renamed"), ("dim", "axis", "renamed")]
    assert glu.fix == "safe" and "a keyword call on the CPU refused torch's name" in glu.verified
    (argsort,) = [e for e in knowledge_base.view("mindspore", "2.8", "2.10").by_method["argsort"] if e.receiver == "tensor"]
    assert argsort.parameters == ()  # MindSpore accepts dim= too: no rename is claimed
