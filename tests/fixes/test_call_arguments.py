"""The `call-arguments` family: keyword renames, dropped keywords, explicit defaults, complements, callee changes."""

import pytest
from fix_builders import rewrite

from ascend_migrate.fixes import FixError, apply_edits, edits_for


def fixed(source: str, text: str, **arguments) -> str:
    finding = rewrite(source, text, "call-arguments", arguments)
    return apply_edits(source, edits_for(finding.fix, source))


def test_a_renamed_keyword_keeps_its_value_and_spacing():
    source = "y = torch.clamp(x, min=0, max = 6)\n"
    assert fixed(source, "torch.clamp(x, min=0, max = 6)", rename_keywords={"min": "min_value", "max": "max_value"}) == (
        "y = torch.clamp(x, min_value=0, max_value = 6)\n"
    )


def test_dropping_a_middle_keyword_takes_its_comma():
    source = 'x = torch.zeros(3, 4, device="cuda", dtype=torch.float32)\n'
    assert fixed(source, 'torch.zeros(3, 4, device="cuda", dtype=torch.float32)', drop_keywords=["device"]) == (
        "x = torch.zeros(3, 4, dtype=torch.float32)\n"
    )


def test_dropping_the_last_keyword_leaves_no_dangling_comma():
    source = "torch.add(a, b, out=c)\n"
    assert fixed(source, "torch.add(a, b, out=c)", drop_keywords=["out"]) == "torch.add(a, b)\n"


def test_dropping_keywords_in_a_multiline_call_keeps_the_trailing_comma_and_comments():
    source = (
        "weights = torch.ones(\n"
        "    16,  # rows\n"
        "    requires_grad=True,\n"
        "    pin_memory=True,\n"
        ")\n"
    )
    assert fixed(source, source[10:-1], drop_keywords=["requires_grad", "pin_memory"]) == (
        "weights = torch.ones(\n"
        "    16,  # rows\n"
        ")\n"
    )


def test_a_dropped_keyword_that_is_absent_changes_nothing():
    source = "torch.add(a, b)\n"
    assert edits_for(rewrite(source, "torch.add(a, b)", "call-arguments", {"drop_keywords": ["out"]}).fix, source) == []


def test_a_default_that_differs_is_made_explicit_after_a_trailing_comma():
    source = "norm = nn.BatchNorm2d(\n    64,\n    affine=True,\n)\n"
    call = source[7:-1]
    assert fixed(source, call, default_keywords={"momentum": "0.9"}, positions={"momentum": 2}) == (
        "norm = nn.BatchNorm2d(\n    64,\n    affine=True,\n    momentum=0.9,\n)\n"
    )


def test_an_explicit_default_is_not_added_when_the_argument_is_passed_positionally():
    source = "norm = nn.BatchNorm2d(64, 1e-5, 0.2)\n"
    finding = rewrite(source, "nn.BatchNorm2d(64, 1e-5, 0.2)", "call-arguments", {"default_keywords": {"momentum": "0.9"}, "positions": {"momentum": 2}})
    assert edits_for(finding.fix, source) == []


def test_momentum_is_complemented_exactly():
    source = "norm = nn.BatchNorm2d(64, momentum=0.1)\n"
    assert fixed(source, "nn.BatchNorm2d(64, momentum=0.1)", callee="mindspore.nn.BatchNorm2d", complement_keywords={"momentum": "momentum"}) == (
        "norm = mindspore.nn.BatchNorm2d(64, momentum=0.9)\n"
    )


def test_a_positional_dropout_probability_becomes_keep_prob():
    source = "drop = nn.Dropout(0.3)\n"
    assert fixed(source, "nn.Dropout(0.3)", callee="mindspore.nn.Dropout", complement_keywords={"p": "keep_prob"}, positions={"p": 0}) == (
        "drop = mindspore.nn.Dropout(keep_prob=0.7)\n"
    )


def test_a_complemented_expression_is_parenthesised():
    source = "drop = nn.Dropout(p=rate / 2)\n"
    assert fixed(source, "nn.Dropout(p=rate / 2)", complement_keywords={"p": "keep_prob"}) == "drop = nn.Dropout(keep_prob=1 - (rate / 2))\n"


def test_a_complemented_name_needs_no_parentheses():
    source = "drop = nn.Dropout(p=rate)\n"
    assert fixed(source, "nn.Dropout(p=rate)", complement_keywords={"p": "keep_prob"}) == "drop = nn.Dropout(keep_prob=1 - rate)\n"


def test_a_call_already_using_the_new_callee_is_left_alone():
    source = "drop = mindspore.nn.Dropout(keep_prob=0.7)\n"
    finding = rewrite(source, "mindspore.nn.Dropout(keep_prob=0.7)", "call-arguments", {"callee": "mindspore.nn.Dropout", "complement_keywords": {"keep_prob": "keep_prob"}})
    assert edits_for(finding.fix, source) == []


def test_set_keywords_replaces_or_appends():
    source = "a = f(x, mode='fast')\nb = f(x)\n"
    assert fixed(source, "f(x, mode='fast')", set_keywords={"mode": "'exact'"}) == "a = f(x, mode='exact')\nb = f(x)\n"
    assert fixed(source, "f(x)", set_keywords={"mode": "'exact'"}) == "a = f(x, mode='fast')\nb = f(x, mode='exact')\n"


def test_method_rename_with_an_explicit_mode():
    source = "model.eval()\nmodel.train(False)\n"
    assert fixed(source, "model.eval()", method="set_train", add_positional=["False"]) == "model.set_train(False)\nmodel.train(False)\n"
    assert fixed(source, "model.train(False)", method="set_train", add_positional=["True"]) == "model.eval()\nmodel.set_train(False)\n"


def test_callee_replacement_with_dropped_keyword():
    source = "y = F.gelu(x, approximate='tanh')\n"
    assert fixed(source, "F.gelu(x, approximate='tanh')", callee="torch_npu.fast_gelu", drop_keywords=["approximate"]) == "y = torch_npu.fast_gelu(x)\n"


def test_data_parallel_keeps_only_the_module_argument():
    source = "model = nn.DataParallel(model, [0, 1], 0, dim=0)\n"
    assert fixed(source, "nn.DataParallel(model, [0, 1], 0, dim=0)", callee="torch.nn.parallel.DistributedDataParallel", keep_positional=1, drop_keywords=["device_ids", "output_device", "dim"]) == (
        "model = torch.nn.parallel.DistributedDataParallel(model)\n"
    )


def test_a_span_that_is_not_a_call_is_an_error():
    source = "x = torch.zeros\n"
    finding = rewrite(source, "torch.zeros", "call-arguments", {})
    with pytest.raises(FixError, match="is not a call"):
        edits_for(finding.fix, source)
