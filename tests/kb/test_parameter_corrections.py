"""Doc parameter names the real packages contradict, corrected at the generator: the tables as the loader reads
them, the correction machinery on small rows, and the keyword the engine's call-arguments fix now writes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_all
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.schema import Entry

# tools/ is not part of the installed package; the repository root makes it importable under any runner.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.generate_mappings import corrections  # noqa: E402
from tools.generate_mappings.parameter_corrections import (  # noqa: E402
    CorrectionError,
    corrected_rows,
    split_entry,
    with_range_clause,
)

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


def entries_for(knowledge_base: KnowledgeBase, api: str, table: str) -> list[Entry]:
    return [entry for entry in knowledge_base.entries if entry.api == api and entry.table == table]


def rows(entry: Entry) -> list[tuple]:
    return [(parameter.source, parameter.target, parameter.change) for parameter in entry.parameters]


def test_keras_dot_renames_to_the_names_mindspore_ops_dot_has(knowledge_base) -> None:
    (dot,) = entries_for(knowledge_base, "tensorflow.keras.backend.dot", "tensorflow_mindspore")
    assert rows(dot) == [("x", "input", "renamed"), ("y", "other", "renamed")]
    assert (dot.target, dot.fix, dot.target_versions.text) == ("mindspore.ops.dot", "unsafe", "*")  # TensorFlow: never run
    assert dot.note.startswith("correction: mindspore.ops.dot(input, other) names its parameters input and other")
    assert [parameter.note for parameter in dot.parameters] == ["correction: mindspore.ops.dot(input, other)"] * 2


def test_a_rename_to_the_same_name_becomes_same(knowledge_base) -> None:
    (cell,) = entries_for(knowledge_base, "torch.nn.GRUCell", "pytorch_mindspore")
    assert rows(cell) == [("bias", "has_bias", "renamed"), ("input", "x", "renamed"), ("hx", "hx", "same")]
    # a `same` row leaves the keyword renames a plain rename, but MindSpore's GRUCell failed where torch's ran
    assert (cell.fix, cell.category) == ("unsafe", "ms-differs") and cell.verified.startswith("numeric: error")
    for loss in entries_for(knowledge_base, "torch.nn.functional.triplet_margin_loss", "pytorch_mindspore"):
        assert ("anchor", "anchor", "same") in rows(loss)
        assert not [row for row in rows(loss) if row[1] == "x"]


def test_rows_calling_a_parameter_one_sided_that_both_signatures_have_are_corrected(knowledge_base) -> None:
    (transformer,) = entries_for(knowledge_base, "torch.nn.Transformer", "pytorch_mindspore")
    assert ("bias", None, "removed") in rows(transformer) and (None, "batch_first", "added") not in rows(transformer)
    (clip,) = entries_for(knowledge_base, "torch.nn.utils.clip_grad_norm_", "pytorch_mindspore")
    assert ("error_if_nonfinite", "error_if_nonfinite", "same") in rows(clip)
    old, new = [entry for entry in entries_for(knowledge_base, "torch.utils.data.DataLoader", "pytorch_mindspore")
                if entry.target_versions.text != "<2.5"]
    assert (old.target_versions.text, new.target_versions.text) == (">=2.5,<2.10", ">=2.10")
    assert ("batch_sampler", None, "removed") in rows(old)
    assert {("batch_sampler", "batch_sampler", "same"), ("collate_fn", "collate_fn", "meaning")} <= set(rows(new))


def test_triplet_margin_loss_keeps_torchs_positions_from_mindspore_2_10(knowledge_base) -> None:
    old, new = entries_for(knowledge_base, "torch.nn.functional.triplet_margin_loss", "pytorch_mindspore")
    assert old.target_versions.text == "<2.10" and ("eps", "swap", "meaning") in rows(old)
    assert (new.target_versions.text, rows(new)) == (
        ">=2.10", [("size_average", None, "removed"), ("reduce", None, "removed"), ("anchor", "anchor", "same")])


def test_a_name_one_mindspore_release_changed_splits_the_entry_there(knowledge_base) -> None:
    old, new = entries_for(knowledge_base, "torch.Tensor.bernoulli", "pytorch_mindspore")
    assert old.target_versions.text == "<2.7"  # mindspore 2.0.0 had bernoulli(self, p=0.5, seed=None), as the doc
    assert ("generator", "seed", "renamed") in rows(old)
    assert new.target_versions.text == ">=2.7"
    assert rows(new) == [("generator", "generator", "same"), ("p", None, "removed")]
    assert (new.match, new.receiver, new.fix) == ("method", "tensor", "unsafe")
    assert old.note.startswith("correction: the doc's parameters hold for MindSpore before 2.7")
    assert new.verified.startswith("signatures read in the mindspore 2.0.0, 2.7.0 and 2.10.0 sources")
    # tf.nn.relu's split rows (nn.ReLU, a Cell named for a function) are answered by the curated table instead
    assert not entries_for(knowledge_base, "tensorflow.nn.relu", "tensorflow_mindspore")
    (relu,) = entries_for(knowledge_base, "tensorflow.nn.relu", "tensorflow_mindspore_curated")
    assert relu.target == "mindspore.ops.relu"
    old_randint, new_randint, _ = entries_for(knowledge_base, "torch.randint_like", "pytorch_mindspore")  # r2.4.10 last
    assert (old_randint.target_versions.text, rows(old_randint)) == (">=2.5,<2.7", [("low", "low", "default")])
    assert (new_randint.target_versions.text, rows(new_randint)) == (
        ">=2.7", [("low", "low", "position"), ("high", "high", "position")])


def test_verbose_is_a_difference_only_for_torch_before_2_7(knowledge_base) -> None:
    old, new = entries_for(knowledge_base, "torch.optim.lr_scheduler.StepLR", "pytorch_mindspore")
    assert (old.source_versions.text, old.category, rows(old)) == ("<2.7", "ms-differs", [("verbose", None, "removed")])
    assert (new.source_versions.text, new.category, new.fix, new.parameters) == (">=2.7", "ms-equivalent", "unsafe", ())
    old_cyclic, new_cyclic = entries_for(knowledge_base, "torch.optim.lr_scheduler.CyclicLR", "pytorch_mindspore")
    momentum = [("cycle_momentum", None, "removed"), ("base_momentum", None, "removed"), ("max_momentum", None, "removed")]
    assert rows(old_cyclic) == [("verbose", None, "removed"), *momentum]
    assert (new_cyclic.source_versions.text, new_cyclic.category, rows(new_cyclic)) == (">=2.7", "ms-differs", momentum)


def test_every_corrected_entry_says_so(knowledge_base) -> None:
    csv_of_branch = {"master": "pytorch_api_mapping.csv", "r2.4.10": "pytorch_api_mapping_r2.4.10.csv"}
    corrected = [(api, "tensorflow_mindspore", "tensorflow_api_mapping.csv")
                 for api in corrections.TENSORFLOW_PARAMETER_CORRECTIONS]
    corrected += [(api, "pytorch_mindspore", csv_of_branch[branch]) for api, branch in corrections.PARAMETER_CORRECTIONS]
    # 46 torch entries (13 schedulers; from the hand checks: 2 Transformer layers, polygamma, MultiheadAttention,
    # distributed.gather, vander, AmplitudeToDB (2 branches); from the signature scan after them: Transformer, new_group,
    # clip_grad_norm_, DataLoader and five mint inplace rows; from tools/signature_scan.py: scatter_object_list, NAdam,
    # RAdam; from the fourth hand check: special.round; from tools/transform_enums.py: 15 more transforms with an
    # enum-typed parameter, 2 branches each; from tools/result_kinds.py: Tensor.median's dim default), 5 TensorFlow
    # + Resize (2 branches): ms-differs since the fifth sample, its type row a correction; + torch.ger, Tensor.ger and
    # tensorflow.eye, whose type rows `kb verify` checks since issue 16's transforms branch; + 9 from the sixth sample:
    # FrequencyMasking, TimeMasking and ComputeDeltas (2 branches each), Tensor.std, Tensor.tensor_split, grid_sample;
    # + repeat_interleave's ops row (dim -> axis, session 10)
    assert len(corrected) == 97
    for api, table, csv_name in corrected:
        found = [entry for entry in entries_for(knowledge_base, api, table) if entry.provenance.startswith(csv_name + " ")]
        if table == "tensorflow_mindspore" and entries_for(knowledge_base, api, "tensorflow_mindspore_curated"):
            continue  # the curated table answers this name (tf.nn.relu, tf.nn.softmax: functional targets)
        assert found, api
        for entry in found:
            assert entry.note.startswith("correction: "), (api, entry.note)


def fixed(source: str, settings: Settings) -> str:
    return fix_all(source, analyze(source, "train.py", settings), unsafe=True).text


def test_the_call_arguments_fix_writes_the_keywords_mindspore_accepts() -> None:
    source = "import tensorflow as tf\n\nscores = tf.keras.backend.dot(x=features, y=weights)\n"
    assert fixed(source, Settings(target="mindspore")) == (
        "import mindspore\n\nscores = mindspore.ops.dot(input=features, other=weights)\n")
    source = "import tensorflow as tf\n\nlabels = tf.math.argmax(logits, axis=-1)\n"
    assert fixed(source, Settings(target="mindspore")) == (
        "import mindspore\n\nlabels = mindspore.ops.argmax(logits, dim=-1)\n")


def test_the_call_arguments_fix_leaves_a_keyword_both_sides_share() -> None:
    source = ("import torch.nn.functional as F\n\n"
              "loss = F.triplet_margin_loss(anchor=query, positive=match, negative=other, margin=0.2)\n")
    assert "mindspore.ops.triplet_margin_loss(anchor=query, positive=match, negative=other" in fixed(
        source, Settings(target="mindspore"))


def test_verbose_is_dropped_only_for_code_written_for_torch_before_2_7() -> None:
    source = "import torch\n\nscheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, verbose=True)\n"
    assert fixed(source, Settings(target="mindspore", torch_version="2.6")).endswith(
        "scheduler = mindspore.experimental.optim.lr_scheduler.StepLR(optimizer, step_size=30)\n")
    source = "import torch\n\nscheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)\n"
    (finding,) = analyze(source, "train.py", Settings(target="mindspore", torch_version="2.8"))
    assert (finding.code, finding.category, finding.fix.safe) == ("MS101", "ms-equivalent", False)  # schedulers are not run


def test_corrected_rows_replace_drop_and_add() -> None:
    correction = corrections.ParameterCorrection(
        fixes=(corrections.ParameterFix("input", "x", {"source": "input", "target": "input", "change": "same"}, "keeps it"),
               corrections.ParameterFix(None, "seed1", None, "no seed1")),
        added=({"source": "p", "change": "removed"},),
        note="correction: example", checked="read")
    doc = [{"source": "input", "target": "x", "change": "renamed"}, {"target": "seed1", "change": "added"},
           {"source": "out", "change": "removed"}]
    assert corrected_rows(doc, correction, "example") == [
        {"source": "input", "target": "input", "change": "same", "note": "correction: keeps it"},
        {"source": "out", "change": "removed"},
        {"source": "p", "change": "removed", "note": "correction: in the real signatures, not in the doc"},
    ]
    with pytest.raises(CorrectionError, match=r"example: no doc parameter row None -> seed1 to correct"):
        corrected_rows(doc[:1], correction, "example")


def test_a_split_narrows_the_doc_entry_and_starts_the_corrected_one_at_since() -> None:
    correction = corrections.ParameterCorrection(
        fixes=(corrections.ParameterFix("verbose", None, None, "gone"),), note="correction: verbose is gone",
        checked="read in the wheels", since="2.7", side="source", equivalent=True)
    doc = {"api": "torch.optim.lr_scheduler.StepLR", "category": "ms-differs", "target_versions": "*", "fix": "unsafe",
           "parameters": [{"source": "verbose", "change": "removed"}], "note": "No verbose input param."}
    corrected = split_entry(doc, correction, "StepLR")
    assert (doc["source_versions"], doc["parameters"]) == ("<2.7", [{"source": "verbose", "change": "removed"}])
    assert corrected == {"api": "torch.optim.lr_scheduler.StepLR", "category": "ms-equivalent", "target_versions": "*",
                         "fix": "safe", "source_versions": ">=2.7",
                         "note": "correction: verbose is gone. The doc: No verbose input param.",
                         "verified": "read in the wheels"}
    assert (with_range_clause(">=2.5", ">=2.7"), with_range_clause(">=2.5", "<2.7"), with_range_clause(None, "<2.7")) == (
        ">=2.7", ">=2.5,<2.7", "<2.7")
