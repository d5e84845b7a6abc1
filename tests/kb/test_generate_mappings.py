"""The mappings generator on a small reference folder: the rules that turn doc rows into entries."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from ascend_migrate.kb.loader import load_table

# tools/ is not part of the installed package; the repository root makes it importable under any runner.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.generate_mappings.__main__ import main  # noqa: E402

MAPPING_COLUMNS = ["torch_api", "mindspore_api", "category", "diff_flags", "doc_note", "diff_summary", "diff_page",
                   "section", "pytorch_doc_version", "doc_ref"]
PARAMETER_COLUMNS = ["torch_api", "mindspore_api", "kind", "torch_param", "mindspore_param", "torch_default",
                     "mindspore_default", "flags", "difference", "diff_page", "doc_ref", "row_source"]
PAGE = "docs/mindspore/source_en/note/api_mapping/pytorch_diff/{}.md"


def write_csv(path: Path, columns: list[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, list]:
    reference = tmp_path_factory.mktemp("reference")
    mappings = tmp_path_factory.mktemp("mappings")
    write_csv(reference / "pytorch_api_mapping.csv", MAPPING_COLUMNS, [
        ["torch.abs", "mindspore.mint.abs", "consistent", "", "Consistent", "", "", "torch", "PyTorch 2.1", "master"],
        ["torch.nn.SeLU", "mindspore.mint.nn.SELU", "consistent", "", "Consistent", "", "", "torch.nn", "PyTorch 2.1", "master"],
        ["", "mindspore.mint.distributed.destroy_process_group", "mindspore_only", "", "Unique to MindSpore", "", "",
         "torch.distributed", "PyTorch 2.1", "master"],
    ])
    write_csv(reference / "pytorch_api_mapping_r2.4.10.csv", MAPPING_COLUMNS, [
        ["torch.abs", "mindspore.ops.abs", "consistent", "", "Consistent", "", "", "torch", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.nn.Softmin", "mindspore.nn.Softmin", "different_param_names", "renamed", "(diff page)",
         "renamed: dim->axis", PAGE.format("Softmin"), "torch.nn", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.Tensor.repeat", "mindspore.Tensor.tile", "different_param_names", "renamed", "(diff page)",
         "renamed: *sizes->multiples", PAGE.format("tile"), "torch.Tensor", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.nn.BatchNorm2d", "mindspore.nn.BatchNorm2d", "different_defaults", "default_differs", "(diff page)",
         "default differs: momentum (0.1 vs 0.9)", PAGE.format("BatchNorm2d"), "torch.nn", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.nn.MultiLabelMarginLoss", "mindspore.nn.MultiLabelMarginLoss", "consistent", "", "Consistent", "", "",
         "torch.nn", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.optim.SGD", "mindspore.nn.SGD", "consistent", "", "Consistent", "", "", "torch.optim", "PyTorch 1.8.1", "r2.4.10"],
        ["torch.optim.SGD", "mindspore.experimental.optim.SGD", "consistent", "", "Consistent", "", "", "torch.optim",
         "PyTorch 1.8.1", "r2.4.10"],
        ["torch.Tensor.flip", "mindspore.Tensor.flip", "different_dtypes", "type_differs", "(diff page)", "",
         PAGE.format("flip"), "torch.Tensor", "PyTorch 1.8.1", "r2.4.10"],
    ])
    write_csv(reference / "pytorch_param_diffs.csv", PARAMETER_COLUMNS, [
        ["torch.nn.Softmin", "mindspore.nn.Softmin", "parameter", "dim", "axis", "None", "-1", "renamed", "",
         PAGE.format("Softmin"), "r2.4.10", "diff_page"],
        ["torch.Tensor.repeat", "mindspore.Tensor.tile", "parameter", "*sizes", "multiples", "(required)", "(required)",
         "renamed", "", PAGE.format("tile"), "r2.4.10", "diff_page"],
        ["torch.nn.BatchNorm2d", "mindspore.nn.BatchNorm2d", "parameter", "momentum", "momentum", "0.1", "0.9",
         "default_differs", "MindSpore's momentum is 1 - torch's", PAGE.format("BatchNorm2d"), "r2.4.10", "diff_page"],
        ["torch.nn.BatchNorm2d", "mindspore.nn.BatchNorm2d", "parameter", "eps", "eps", "1e-05", "1e-05", "",
         "", PAGE.format("BatchNorm2d"), "r2.4.10", "diff_page"],
        ["torch.Tensor.flip", "mindspore.Tensor.flip", "parameter", "dims", "dims", "(required)", "(required)",
         "type_differs", "Same functionality, MindSpore does not support int input", PAGE.format("flip"), "r2.4.10",
         "diff_page"],
    ])
    write_csv(reference / "pytorch_general_difference_params.csv", ["param", "meaning", "doc_note", "doc_ref"], [
        ["out", "Indicates the output Tensor", "Not supported in MindSpore.", "master"],
        ["inplace", "Modifies the input", "MindSpore provides some inplace APIs.", "r2.4.10"],
    ])
    write_csv(reference / "mindspore_api_resolution.csv", ["mindspore_api", "resolves", "object_type", "error", "in_files"], [
        ["mindspore.mint.abs", "yes", "function", "", ""],
        ["mindspore.nn.MultiLabelMarginLoss", "no", "", "no attribute", ""],
    ])
    write_csv(reference / "tensorflow_api_mapping.csv", [c.replace("torch_api", "tf_api").replace(
        "pytorch_doc_version", "tensorflow_doc_version") for c in MAPPING_COLUMNS], [
        ["tf.math.abs", "mindspore.ops.abs", "consistent", "", "Consistent", "", "", "tf.math", "TensorFlow 2.6", "r2.1"],
        ["tf.arg_max", "mindspore.Tensor.argmax", "different_see_page", "", "(diff page)", "",
         "docs/mindspore/source_en/note/api_mapping/tensorflow_diff/TensorArgmax.md", "tf", "TensorFlow 1.15", "r2.1"],
        # a made-up pair no check covers: the generator's fallback for a page with no parameter rows
        ["tf.image.adjust_gamma", "mindspore.dataset.vision.AdjustGamma", "different_see_page", "", "(diff page)", "",
         "docs/mindspore/source_en/note/api_mapping/tensorflow_diff/adjust_gamma.md", "tf.image", "TensorFlow 2.6",
         "r2.1"],
        ["tf.data.Dataset.map", "mindspore.dataset.GeneratorDataset.map", "unspecified", "", "", "", "", "tf.data",
         "TensorFlow 2.6", "r2.1"],
    ])
    write_csv(reference / "tensorflow_param_diffs.csv", [c.replace("torch", "tf") for c in PARAMETER_COLUMNS], [])
    assert main(["--reference", str(reference), "--mappings", str(mappings)]) == 0
    tables = {}
    for name in ("pytorch_mindspore", "pytorch_mindspore_keywords", "tensorflow_mindspore"):
        tables[name], _ = load_table(mappings / f"{name}.yaml")
    return tables


def by_api(entries, api: str) -> list:
    return [entry for entry in entries if entry.api == api]


def test_master_rows_apply_from_2_5_and_r2_4_rows_before_or_always(generated) -> None:
    new, old = by_api(generated["pytorch_mindspore"], "torch.abs")
    assert (new.target, new.target_versions.text, new.category, new.fix) == ("mindspore.mint.abs", ">=2.5", "ms-equivalent", "safe")
    assert (old.target, old.target_versions.text) == ("mindspore.ops.abs", "<2.5")
    (softmin,) = by_api(generated["pytorch_mindspore"], "torch.nn.Softmin")
    assert softmin.target_versions.text == "*"
    assert "r2.4.10" in old.provenance and "r2.4.10" not in new.provenance


def test_only_plain_keyword_renames_are_safe(generated) -> None:
    (softmin,) = by_api(generated["pytorch_mindspore"], "torch.nn.Softmin")
    assert (softmin.category, softmin.fix) == ("ms-differs", "safe")
    assert softmin.docs == ("https://www.mindspore.cn/docs/en/r2.4.10/note/api_mapping/pytorch_diff/Softmin.html",)
    (repeat,) = by_api(generated["pytorch_mindspore"], "torch.Tensor.repeat")
    assert (repeat.match, repeat.receiver, repeat.fix) == ("method", "tensor", "unsafe")


def test_parameter_rows_without_a_difference_are_left_out(generated) -> None:
    (batch_norm,) = by_api(generated["pytorch_mindspore"], "torch.nn.BatchNorm2d")
    assert [(p.source, p.change, p.source_default, p.target_default) for p in batch_norm.parameters] == [
        ("momentum", "complement", "0.1", "0.9")]  # corrections.PARAMETER_RELATIONS
    assert (batch_norm.note, batch_norm.fix) == ("default differs: momentum (0.1 vs 0.9).", "unsafe")


def test_corrections_and_removed_targets(generated) -> None:
    (selu,) = by_api(generated["pytorch_mindspore"], "torch.nn.SELU")
    assert selu.note == "correction: the doc spells it torch.nn.SeLU; torch's name is torch.nn.SELU."
    (loss,) = by_api(generated["pytorch_mindspore"], "torch.nn.MultiLabelMarginLoss")
    assert loss.target_versions.text == "<2.5"
    assert loss.verified.startswith("name check: target does not resolve in mindspore 2.10.0")


def test_a_doubly_mapped_optimizer_targets_experimental_optim_and_names_the_other(generated) -> None:
    (sgd,) = by_api(generated["pytorch_mindspore"], "torch.optim.SGD")
    assert sgd.target == "mindspore.experimental.optim.SGD"
    assert sgd.note == "The same doc also maps it to mindspore.nn.SGD (consistent)."


def test_rows_without_a_torch_api_are_left_out(generated) -> None:
    assert len(generated["pytorch_mindspore"]) == 9  # ten torch rows, SGD twice: nine entries


def test_a_row_pointing_to_its_diff_page_says_what_the_pages_parameter_rows_say(generated) -> None:
    (flip,) = by_api(generated["pytorch_mindspore"], "torch.Tensor.flip")
    assert flip.note.startswith("dims: Same functionality, MindSpore does not support int input")
    (gamma,) = by_api(generated["tensorflow_mindspore"], "tensorflow.image.adjust_gamma")
    assert gamma.note == "see the diff page."  # a page with no parameter rows and no check: nothing more to say
    # a TensorFlow pair whose page says nothing says what running both sides found (corrections.TENSORFLOW_PAGE_DIFFERENCES)
    (arg_max,) = by_api(generated["tensorflow_mindspore"], "tensorflow.arg_max")
    assert arg_max.note.startswith("x.argmax(axis) on the tensor: the keyword is axis, not dimension")
    assert "difference run: tensorflow 2.21.0" in arg_max.verified


def test_general_keywords(generated) -> None:
    out, inplace = generated["pytorch_mindspore_keywords"]
    assert (out.api, out.match, out.condition, out.code, out.target_versions.text, out.fix) == (
        "out", "pattern", "general-keyword", "MS104", "*", "unsafe")
    assert inplace.target_versions.text == "<2.5"


def test_tensorflow_rows(generated) -> None:
    abs_entry, arg_max, _, dataset_map = generated["tensorflow_mindspore"]
    # the numeric battery runs torch only, so no TensorFlow rename is a safe fix (issue 16)
    assert (abs_entry.api, abs_entry.category, abs_entry.fix) == ("tensorflow.math.abs", "ms-equivalent", "unsafe")
    assert (arg_max.api, arg_max.source_versions.text, arg_max.category) == ("tensorflow.arg_max", "<2", "ms-differs")
    assert arg_max.note.endswith("(run). Documented against TensorFlow 1.15. TensorFlow 2 has this name only under tf.compat.v1.")
    assert arg_max.docs == ("https://www.mindspore.cn/docs/en/r2.1/note/api_mapping/tensorflow_diff/TensorArgmax.html",)
    assert (dataset_map.match, dataset_map.receiver, dataset_map.receiver_type) == ("method", "dataset", "tensorflow.data.Dataset")
    assert dataset_map.docs == ("https://www.mindspore.cn/docs/en/r2.1/note/api_mapping/tensorflow_api_mapping.html",)
