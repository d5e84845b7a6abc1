"""The hand-checked samples (mappings/verification/hand_check_*.yaml) and the corrections they led to."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.versions import parse_version

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not part of the installed package
from tools import hand_check  # noqa: E402

MAPPINGS = ROOT / "mappings"
SAMPLES = sorted((MAPPINGS / "verification").glob("hand_check_*.yaml"))


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_every_sampled_entry_is_in_the_tables_with_a_verdict_and_a_reason(sample: Path) -> None:
    population = {hand_check.identity(entry) for entry in hand_check.population(MAPPINGS)}
    items = yaml.safe_load(sample.read_text(encoding="utf-8"))["sample"]
    assert len(items) == 100
    # a draw is committed before any judging (so it is fixed); from then on it is judged as a whole
    just_drawn = all(not item["verdict"] and not item["reason"] for item in items)
    for item in items:
        assert item["entry"] in population, item["entry"]
        assert just_drawn or (item["verdict"] in hand_check.VERDICTS and item["reason"]), item


def test_each_sample_is_fresh() -> None:
    seen: set[str] = set()
    for path in SAMPLES:
        entries = {item["entry"] for item in yaml.safe_load(path.read_text(encoding="utf-8"))["sample"]}
        assert not seen & entries, path.name
        seen |= entries


def test_a_draw_is_seeded_and_leaves_out_what_an_earlier_sample_holds() -> None:
    once, again = (hand_check.draw(MAPPINGS, 7, 20, [SAMPLES[0]]) for _ in range(2))
    assert once == again
    assert once != hand_check.draw(MAPPINGS, 8, 20, [SAMPLES[0]])
    first = {item["entry"] for item in yaml.safe_load(SAMPLES[0].read_text(encoding="utf-8"))["sample"]}
    assert not first & {item["entry"] for item in once["sample"]}


def test_changed_names_what_a_later_correction_changed_in_an_entry_judged_so(tmp_path: Path) -> None:
    document = yaml.safe_load(SAMPLES[0].read_text(encoding="utf-8"))
    first, second = document["sample"][:2]
    now = (first["target"], first["category"], first["fix"])
    document["sample"] = [{**first, "category": "ms-unsupported", "fix": "none", "verdict": "wrong"},
                          {**second, "verdict": "right"}, {**second, "entry": "pytorch_mindspore | torch.nope | name | ",
                                                           "verdict": "wrong"}]
    sample = tmp_path / "sample.yaml"
    sample.write_text(yaml.safe_dump(document), encoding="utf-8")
    assert hand_check.changed(MAPPINGS, sample, ("wrong",)) == [
        (first["entry"], f"category ms-unsupported → {now[1]}, fix none → {now[2]}"),
        ("pytorch_mindspore | torch.nope | name | ", "no such entry any more")]
    assert hand_check.changed(MAPPINGS, sample, ("right",)) == []  # drawn as it is


def test_the_first_sample_has_at_most_two_wrong_after_its_fixes() -> None:
    assert hand_check.count(SAMPLES[0])["wrong"] <= 2


def by_api(knowledge_base: KnowledgeBase, api: str) -> list:
    return [entry for entry in knowledge_base.entries if entry.api == api and entry.route == "mindspore"]


def test_what_the_first_sample_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    for api in ("torchaudio.transforms.MFCC", "torchaudio.transforms.TimeStretch"):
        assert {entry.category for entry in by_api(knowledge_base, api)} == {"ms-differs"}
    for api in ("torch.xlogy", "torch.Tensor.xlogy"):  # xlogy(0, 0): torch 0, MindSpore NaN; not an edge case
        checked = [entry for entry in by_api(knowledge_base, api) if "side by side" in entry.note]
        assert checked and all(entry.severity != "info" for entry in checked)
    for api in ("torch.nn.TransformerEncoderLayer", "torch.nn.TransformerDecoderLayer"):
        (entry,) = by_api(knowledge_base, api)
        sources_and_targets = {(row.source, row.target, row.change) for row in entry.parameters}
        assert ("bias", None, "removed") in sources_and_targets
        assert not {row.target for row in entry.parameters} & {"layer_norm_eps", "batch_first", "norm_first", "dtype"}
    (size,) = by_api(knowledge_base, "torchvision.transforms.functional.get_image_size")
    assert (size.category, size.target) == ("ms-differs", "mindspore.dataset.vision.get_image_size")
    (marker,) = by_api(knowledge_base, "torch.profiler.record_function")
    assert marker.target == "mindspore.profiler.mstx.Mstx.range_start"


def test_what_the_signature_scan_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    # in place vs out of place, named results vs a plain tuple, a list MindSpore requires, switches it lacks
    for api in ("torch.Tensor.cauchy_", "torch.sort", "torch.cummax", "torch.cummin", "torch.slogdet",
                "torch.Tensor.slogdet", "torch.Tensor.geqrf", "torch.lu_unpack", "torch.distributed.scatter_object_list",
                "torch.optim.NAdam", "torch.optim.RAdam"):
        current = [entry for entry in by_api(knowledge_base, api) if entry.target_versions.contains(parse_version("2.10.0"))]
        assert current and all(entry.category == "ms-differs" and entry.fix != "safe" for entry in current), api
    (scatter,) = by_api(knowledge_base, "torch.distributed.scatter_object_list")
    assert ("scatter_object_input_list", "(required)") in {(row.source, row.target_default) for row in scatter.parameters}


def test_what_the_third_sample_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    for api in ("torch.Tensor.index_add", "torch.vander"):  # writes into its receiver; no increasing
        (entry,) = by_api(knowledge_base, api)
        assert (entry.category, entry.fix) == ("ms-differs", "unsafe"), api
    for api in ("torch.nextafter", "torch.Tensor.nextafter"):  # float32 nextafter returns its input: not an edge case
        (entry,) = by_api(knowledge_base, api)
        assert entry.severity != "info" and entry.note.startswith("Differs when run"), api


def in_range(knowledge_base: KnowledgeBase, api: str) -> list:
    return [entry for entry in by_api(knowledge_base, api) if entry.target_versions.contains(parse_version("2.10.0"))]


def test_the_minors_the_third_sample_left_are_corrected(knowledge_base: KnowledgeBase) -> None:
    (greater,) = in_range(knowledge_base, "torch.Tensor.ge")  # the doc's "parameter names differ" is false
    assert (greater.category, greater.fix) == ("ms-equivalent", "safe")
    (logsumexp,) = in_range(knowledge_base, "torch.Tensor.logsumexp")  # left: only its edge differences, shown as info
    assert logsumexp.severity == "info" and logsumexp.edge_difference
    for api in ("torch.Tensor.amin", "torch.Tensor.amax"):  # x.amin() reduces every dimension: dim is not required
        (entry,) = in_range(knowledge_base, api)
        (dim,) = [row for row in entry.parameters if row.source == "dim"]
        assert (dim.target, dim.change, dim.source_default) == ("axis", "renamed", "None"), api
    for api, refused in (("torch.bernoulli", "p"), ("torch.nn.SELU", "inplace")):  # forms the target refuses
        (entry,) = in_range(knowledge_base, api)
        assert entry.category == "ms-equivalent" and entry.fix == "unsafe", api
        assert [(row.source, row.change) for row in entry.parameters] == [(refused, "removed")], api
    for api in ("torch.max", "torch.min", "torch.median", "torch.topk", "torch.Tensor.max", "torch.Tensor.min",
                "torch.Tensor.median", "torch.Tensor.topk"):  # named results in torch, a plain tuple in MindSpore
        assert all("plain tuple" in entry.note for entry in in_range(knowledge_base, api)), api
    (logspace,) = in_range(knowledge_base, "torch.logspace")
    assert "integer start and end" in logspace.note
    (vad,) = in_range(knowledge_base, "torchaudio.transforms.Vad")
    assert "dataset transform" in vad.note


def test_the_signature_scan_leads_a_run_confirmed_are_corrected(knowledge_base: KnowledgeBase) -> None:
    (randint,) = in_range(knowledge_base, "torch.randint")  # randint(0, 10, size=(3,)) raises after a rename
    assert randint.category == "ms-equivalent" and randint.fix == "unsafe" and "position only" in randint.note
    assert {(row.source, row.change) for row in randint.parameters} == {("low", "position"), ("high", "position"),
                                                                          ("size", "position")}
    assert "position only" in randint.review
    for api, renames in (("torch.hsplit", {("sections", "indices_or_sections"), ("indices", "indices_or_sections")}),
                         ("torch.vsplit", {("sections", "indices_or_sections"), ("indices", "indices_or_sections")}),
                         ("torch.dot", {("tensor", "other")}), ("torch.set_rng_state", {("new_state", "state")})):
        (entry,) = in_range(knowledge_base, api)  # still a rename, with torch's other keyword names
        assert entry.category == "ms-equivalent" and entry.fix == "unsafe", api
        assert {(row.source, row.target) for row in entry.parameters if row.change == "renamed"} == renames, api


def test_the_fourth_sample_counts_what_it_found() -> None:
    counts = hand_check.count(MAPPINGS / "verification" / "hand_check_4.yaml")
    assert (counts["wrong"], counts["unchecked"]) == (4, 0)


def test_what_the_fourth_sample_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    # a tuple (loss, log_alpha) for torch's loss; no decimals; fade_shape an enum, not torchaudio's string
    for api in ("torch.nn.functional.ctc_loss", "torch.special.round", "torchaudio.transforms.Fade"):
        (entry,) = in_range(knowledge_base, api)
        assert (entry.category, entry.fix) == ("ms-differs", "unsafe"), api
    (scatter,) = in_range(knowledge_base, "torch.Tensor.scatter_")  # an out-of-place target for an in-place method
    assert "leaves x unchanged" in scatter.note
    (rrelu,) = in_range(knowledge_base, "torch.nn.RReLU")
    assert [(row.source, row.change) for row in rrelu.parameters] == [("inplace", "removed")] and rrelu.fix == "unsafe"


def test_a_safe_fix_needs_a_target_that_takes_every_parameter_a_call_may_pass() -> None:
    from tools.generate_mappings.numeric import exercised

    agreed = {"outcome": "agree", "checked": ["probe", "dim=1"]}
    renamed = {"api": "torch.f", "target": "mindspore.f", "parameters": [{"source": "dim", "change": "renamed"}]}
    assert exercised(renamed, agreed, "2.10.0") is None
    refusing = {**renamed, "parameters": [{"source": "p", "change": "removed"}]}
    assert exercised(refusing, agreed, "2.10.0") == "the target refuses p= as a keyword, which a call may pass"
    positional = {**renamed, "parameters": [{"source": "size", "change": "position"}]}
    assert exercised(positional, agreed, "2.10.0") == "the target refuses size= as a keyword, which a call may pass"


def test_the_third_sample_counts_what_it_found() -> None:
    counts = hand_check.count(MAPPINGS / "verification" / "hand_check_3.yaml")
    assert (counts["wrong"], counts["unchecked"]) == (3, 0)


def test_the_signature_scan_reads_defaults_and_missing_parameters_from_real_signatures() -> None:
    import dataclasses
    import json
    import textwrap

    from tools import signature_scan

    found = next(entry for entry in hand_check.population(MAPPINGS) if entry.api == "torch.Tensor.cauchy_")
    entry = dataclasses.replace(found, category="ms-equivalent", parameters=())  # as the doc had it
    leads = signature_scan.scan_entry(entry, textwrap.wrap, textwrap.shorten)
    assert ("in-place", "cauchy_ -> cauchy") in leads
    assert ("default", "width: torch ['70'], mindspore width ['(required)']") in leads  # wrap(text, width=70)
    missing = [what for kind, what in signature_scan.scan_entry(entry, json.dumps, json.loads) if kind == "missing"]
    assert any(what.startswith("skipkeys ") for what in missing) and not any(what.startswith("cls ") for what in missing)
    assert signature_scan.overloads(json.loads)[0]["cls"] == "None"
    assert ("class-function", "torch: a function, mindspore: a class") in signature_scan.scan_entry(
        entry, json.loads, json.JSONDecoder)


def test_the_fifth_sample_counts_what_it_found() -> None:
    counts = hand_check.count(MAPPINGS / "verification" / "hand_check_5.yaml")
    assert (counts["wrong"], counts["unchecked"]) == (6, 0)


def test_what_the_fifth_sample_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    # a named result behind renames the doc states (the rename alone made the fix safe); an attribute that is a method in
    # MindSpore; signbit computing x < 0; a random augmentation and an antialiased resize called consistent
    for api, said in (("torch.Tensor.cummax", "plain tuple"), ("torch.Tensor.real", "a method"),
                      ("torch.Tensor.imag", "a method"), ("torch.signbit", "input < 0"),
                      ("torch.Tensor.signbit", "x < 0"),
                      ("torchvision.transforms.GaussianBlur", "fixed sigma"), ("torchvision.transforms.Resize", "antialias")):
        entries = in_range(knowledge_base, api)
        assert entries and all(entry.category == "ms-differs" and entry.fix == "unsafe" and entry.severity != "info"
                               and said in entry.note for entry in entries), api
    (cummax,) = in_range(knowledge_base, "torch.Tensor.cummax")  # the doc's rename is kept, only not applied blindly
    assert [(row.source, row.target, row.change) for row in cummax.parameters] == [("dim", "axis", "renamed")]
    (inclusive,) = in_range(knowledge_base, "torch.range")
    assert "torch.range includes end" in inclusive.note
    for api in ("torch.Tensor.inner", "torch.isnan"):  # the doc's "parameter names differ" is false
        (entry,) = in_range(knowledge_base, api)
        assert (entry.category, entry.fix) == ("ms-equivalent", "safe"), api
    (scatter,) = in_range(knowledge_base, "torch.scatter")
    assert {(row.source, row.change) for row in scatter.parameters} == {("value", "position"), ("reduce", "removed")}
    for dataset in ("DBpedia", "SQuAD1", "YahooAnswers", "YelpReviewPolarity"):  # a tuple of splits is not a usage
        (entry,) = in_range(knowledge_base, f"torchtext.datasets.{dataset}")
        assert "one datapipe per split" in entry.note, dataset


def test_a_form_mint_scatter_refuses_gets_no_fix_and_an_attribute_that_became_a_method_is_warned_about() -> None:
    import textwrap

    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    source = textwrap.dedent("""
        import torch

        x = torch.zeros(2, 3)
        index = torch.tensor([[0, 2], [1, 0]])
        src = torch.ones(2, 2)
        usual = torch.scatter(x, 1, index, src)
        filled = torch.scatter(x, 1, index, value=5.0)
        added = torch.scatter(x, 1, index, src, reduce="add")
        part = x.real
        negative = torch.signbit(x)
    """)
    by_line: dict[int, list] = {}
    for finding in analyze(source, "train.py", Settings(target="mindspore", mindspore_version="2.10")):
        by_line.setdefault(finding.line, []).append(finding)
    assert [(finding.code, finding.fix is not None) for finding in by_line[7]] == [("MS101", True)]
    for line, refused in ((8, "takes value by position only"), (9, "has no reduce")):  # a rename would raise TypeError
        assert any(finding.code == "MS102" and finding.fix is None and refused in finding.message
                   for finding in by_line[line]), line
    assert [(finding.code, finding.severity) for finding in by_line[10]] == [("MS102", "warning")]  # was info
    assert [finding.code for finding in by_line[11]] == ["MS102"]


def test_the_sixth_sample_counts_what_it_found() -> None:
    counts = hand_check.count(MAPPINGS / "verification" / "hand_check_6.yaml")
    assert (counts["wrong"], counts["minor"], counts["unchecked"]) == (1, 21, 0)


def test_what_the_sixth_sample_found_stays_corrected(knowledge_base: KnowledgeBase) -> None:
    # MindSpore's iid_masks=False masks a fixed band where torchaudio draws a random one: said, with a `meaning` row
    for api in ("torchaudio.transforms.FrequencyMasking", "torchaudio.transforms.TimeMasking"):
        entries = in_range(knowledge_base, api)
        assert entries and all(entry.category == "ms-differs" and entry.fix == "unsafe" and "masks the same" in entry.note
                               and ("iid_masks", "meaning") in {(row.source, row.change) for row in entry.parameters}
                               for entry in entries), api
    (timing,) = in_range(knowledge_base, "torchaudio.transforms.TimeMasking")
    assert ("p", None, "removed") in [(row.source, row.target, row.change) for row in timing.parameters]


def test_the_sixth_samples_minors_are_corrected(knowledge_base: KnowledgeBase) -> None:
    def changes(api: str) -> set[tuple]:
        (entry,) = in_range(knowledge_base, api)
        return {(row.source, row.target, row.change) for row in entry.parameters}

    (split,) = in_range(knowledge_base, "torch.Tensor.tensor_split")  # sections=/indices= were left behind a safe fix
    assert split.fix == "unsafe" and {("sections", "indices_or_sections", "renamed"),
                                      ("indices", "indices_or_sections", "renamed"),
                                      ("dim", "axis", "renamed")} <= changes("torch.Tensor.tensor_split")
    assert ("unbiased", "ddof", "type") in changes("torch.Tensor.std")  # ddof=True raises; the default is biased
    assert {("align_corners", "align_corners", "same"), ("mode", "mode", "meaning")} == changes(
        "torch.nn.functional.grid_sample")
    assert {("mel_scale", "mel_type", "type"), ("n_stft", "n_stft", "same")} <= changes("torchaudio.transforms.MelScale")
    assert {(name, name, "same") for name in ("lowpass_filter_width", "rolloff", "beta")} <= changes(
        "torchaudio.transforms.Resample")
    assert ("mode", "pad_mode", "type") in changes("torchaudio.transforms.ComputeDeltas")
    for api, said in (("torch.Tensor.igammac", "x = 0"), ("torch.addr", "beta=0"),
                      ("torch.nn.functional.margin_ranking_loss", "int margin"), ("torch.remainder", "by 0"),
                      ("torch.initial_seed", "Unseeded"), ("torch.std_mean", "unbiased overloads"),
                      ("torchvision.transforms.RandomResizedCrop", "antialias"),
                      ("torch.nn.modules.dropout.Dropout", "set_train(True)"),
                      ("torchvision.transforms.functional.resize", "antialias")):
        entries = in_range(knowledge_base, api)
        assert entries and all(said in entry.note for entry in entries), api
    schedulers = [entry for entry in knowledge_base.entries if entry.table == "pytorch_mindspore"
                  and (entry.target or "").startswith("mindspore.experimental.optim.lr_scheduler.")
                  and entry.source_versions.contains(parse_version("2.13.0"))]
    # CyclicLR's note is full (the 400 characters of its verbose and momentum corrections): its review says it
    assert len(schedulers) == 14 and all("get_last_lr() returns" in entry.note + entry.review for entry in schedulers)


def test_a_random_mask_made_fixed_is_warned_about_and_a_refused_split_keyword_gets_no_safe_fix() -> None:
    import textwrap

    from ascend_migrate.analysis.engine import analyze
    from ascend_migrate.config import Settings

    source = textwrap.dedent("""
        import torch
        import torchaudio

        masking = torchaudio.transforms.FrequencyMasking(freq_mask_param=30)
        x = torch.zeros(4, 6)
        halves = x.tensor_split(sections=2)
        spread = x.std()
        whole = x.long()
        kept = x.long(memory_format=torch.contiguous_format)
    """)
    by_line: dict[int, list] = {}
    for finding in analyze(source, "train.py", Settings(target="mindspore", mindspore_version="2.10")):
        by_line.setdefault(finding.line, []).append(finding)
    for line, said in ((5, "masks the same band"), (8, "biased estimator")):
        assert any(finding.code == "MS102" and finding.severity == "warning" and said in finding.message
                   for finding in by_line[line]), line
    # the rename of dim alone was a safe fix that left sections= to raise TypeError
    assert [(finding.code, finding.fix is None or not finding.fix.safe) for finding in by_line[7]] == [("MS102", True)]
    assert 9 not in by_line  # x.long() is the same method; memory_format=, which MindSpore refuses, is dropped
    (kept,) = [finding for finding in by_line[10] if finding.code == "MS105"]
    assert kept.fix is not None and kept.fix.rewrite.drop_keywords == ("memory_format",) and not kept.fix.safe
