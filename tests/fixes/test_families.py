"""The fix families as values: each round-trips through a diagnostic's `data`, moves with the lines, and
the call-arguments family merges the fixes of one call."""

from __future__ import annotations

import json

import pytest

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.fixes.families import FAMILIES, rewrite_from_json
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.fixes.families.clip_grad_fused import ClipGradFused
from ascend_migrate.fixes.families.early_device import EarlyDevice
from ascend_migrate.fixes.families.load_checkpoint import LoadCheckpoint
from ascend_migrate.fixes.families.loader_dataset_size import LoaderDatasetSize
from ascend_migrate.fixes.families.save_checkpoint import SaveCheckpoint
from ascend_migrate.fixes.families.training_step import TrainingStep
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.lsp import convert

# One value per family, with every kind of field filled; a family without an example fails the first test.
EXAMPLES = {
    "call-arguments": CallArguments(
        (12, 9, 13, 4), callee="torch_npu.fast_gelu", method="set_train", rename_keywords=(("input", "x"),),
        drop_keywords=("out", "device"), set_keywords=(("momentum", "0.9"),), default_keywords=(("eps", "1e-05"),),
        complement_keywords=(("p", "keep_prob"),), positions=(("p", 0), ("momentum", 2)), add_positional=("False",),
        keep_positional=1,
    ),
    "save-checkpoint": SaveCheckpoint((40, 5, 40, 45), callee="mindspore.save_checkpoint"),
    "clip-grad-fused": ClipGradFused((88, 9, 88, 60), "optimizer"),
    "load-checkpoint": LoadCheckpoint((12, 9, 12, 56), "runs/model.ckpt", callee="mindspore.load_checkpoint"),
    "loader-dataset-size": LoaderDatasetSize((46, 47, 46, 73), "train_loader"),
    "training-step": TrainingStep((30, 1, 33, 24), "loss", "optimizer", "forward_fn", ("hidden",), ("output", "hidden")),
    "written-definition": WrittenDefinition((58, 17, 58, 28), "lbfgs", "LBFGS"),
    "early-device": EarlyDevice((24, 1, 24, 73), '"Ascend" if torch.cuda.is_available() else "CPU"', "device"),
}


def test_every_family_has_an_example():
    assert sorted(EXAMPLES) == sorted(FAMILIES)
    assert all(type(value) is FAMILIES[name] for name, value in EXAMPLES.items())


def _finding(fix: Fix) -> Finding:
    return Finding("train.py", 12, 9, 12, 20, "MS201", "ms-differs", "warning", "api", "message", "", "exact", fix=fix)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_fix_survives_the_diagnostic_data_json_unchanged(name):
    fix = Fix("Rewrite", False, (TextEdit(12, 9, 12, 14, "mint"),), EXAMPLES[name], ("import mindspore",), ("torch",))
    sent = json.loads(json.dumps(convert.diagnostic_data(_finding(fix))))
    assert sent["fix"]["rewrite"] == name
    assert Fix.from_json(sent["fix"]) == fix


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_finding_moved_down_moves_its_rewrite_spans(name):
    fix = Fix("Rewrite", True, rewrite=EXAMPLES[name])
    moved = _finding(fix).shifted(3).fix.rewrite
    assert [span[0::2] for span in moved.spans()] == [(span[0] + 3, span[2] + 3) for span in EXAMPLES[name].spans()]
    assert [span[1::2] for span in moved.spans()] == [span[1::2] for span in EXAMPLES[name].spans()]


def test_call_arguments_travel_in_the_shape_servers_have_always_sent():
    sent = json.loads(json.dumps(EXAMPLES["call-arguments"].to_json()))
    assert sent == {
        "call": [12, 9, 13, 4], "callee": "torch_npu.fast_gelu", "method": "set_train", "rename_keywords": [["input", "x"]],
        "drop_keywords": ["out", "device"], "set_keywords": [["momentum", "0.9"]], "default_keywords": [["eps", "1e-05"]],
        "complement_keywords": [["p", "keep_prob"]], "positions": [["p", 0], ["momentum", 2]], "add_positional": ["False"],
        "keep_positional": 1,
    }
    assert CallArguments((1, 1, 1, 9)).to_json() == {"call": (1, 1, 1, 9)}  # empty fields are left out


def test_objects_as_the_documentation_writes_them_decode_too():
    written = {"call": [3, 1, 3, 20], "rename_keywords": {"input": "x"}, "drop_keywords": ["out"], "complement_keywords": {},
               "positions": {"input": 0}}
    assert rewrite_from_json("call-arguments", written) == CallArguments(
        (3, 1, 3, 20), rename_keywords=(("input", "x"),), drop_keywords=("out",), positions=(("input", 0),))


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("string-value", {"span": [1, 1, 1, 5]}, "unknown fix family 'string-value' (known: call-arguments, clip-grad-fused, early-device, load-checkpoint, loader-dataset-size, save-checkpoint, training-step, written-definition)"),
        ("call-arguments", {"call": [1, 1, 1, 5], "rename": {"a": "b"}}, "call-arguments: unknown argument 'rename'"),
        ("call-arguments", {"call": [1, 1, 5]}, "call-arguments: 'call' must be a span [line, column, end_line, end_column], got [1, 1, 5]"),
        ("save-checkpoint", {}, "save-checkpoint: SaveCheckpoint.__init__() missing 1 required positional argument: 'call'"),
    ],
)
def test_data_that_is_no_fix_of_this_version_is_refused_with_what_is_wrong(name, arguments, message):
    with pytest.raises(ValueError) as error:
        rewrite_from_json(name, arguments)
    assert str(error.value).startswith(message)


def test_the_argument_fixes_of_one_call_merge_into_one_rewrite_joining_names_and_lists():
    first = CallArguments((2, 5, 2, 60), callee="mint.zeros", drop_keywords=("out",), rename_keywords=(("dim", "axis"),))
    second = CallArguments((2, 5, 2, 60), drop_keywords=("device", "out"), rename_keywords=(("input", "x"),), keep_positional=1)
    assert first.merge_key() == second.merge_key() != CallArguments((3, 5, 3, 60)).merge_key()
    assert first.merged(second) == CallArguments(
        (2, 5, 2, 60), callee="mint.zeros", drop_keywords=("out", "device"), rename_keywords=(("dim", "axis"), ("input", "x")),
        keep_positional=1)


def test_families_that_rewrite_a_whole_call_never_merge():
    assert SaveCheckpoint((1, 1, 1, 30)).merge_key() is None
    assert ClipGradFused((1, 1, 1, 30), "optimizer").merge_key() is None
