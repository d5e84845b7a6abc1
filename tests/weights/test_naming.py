"""The parameter map without torch or mindspore: names, eras, --map rules, and every way a parameter fails to map."""

import json

import pytest

from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.naming import build_map, print_map, read_map_file

BATCH_NORM = {"bn.weight": (8,), "bn.bias": (8,), "bn.running_mean": (8,), "bn.running_var": (8,), "bn.num_batches_tracked": ()}
LAYERS = {"": "Net", "bn": "BatchNorm2d", "norm": "LayerNorm", "tokens": "Embedding", "conv": "Conv1d", "fc": "Linear"}


def _map(shapes, target=None, era="nn", rules=()):
    return build_map(shapes, {"bn.num_batches_tracked": "int64"}, LAYERS, target, era, rules)


def test_the_nn_era_renames_norms_and_embeddings_and_lists_the_torch_only_counter():
    shapes = {**BATCH_NORM, "norm.weight": (4,), "norm.bias": (4,), "tokens.weight": (10, 4), "fc.weight": (2, 4)}
    result = _map(shapes)
    assert {entry.source: entry.target for entry in result.mapped} == {
        "bn.weight": "bn.gamma", "bn.bias": "bn.beta", "bn.running_mean": "bn.moving_mean",
        "bn.running_var": "bn.moving_variance", "norm.weight": "norm.gamma", "norm.bias": "norm.beta",
        "tokens.weight": "tokens.embedding_table", "fc.weight": "fc.weight",
    }
    assert [name for name, _ in result.not_carried] == ["bn.num_batches_tracked"]
    assert result.complete


def test_the_mint_era_keeps_torch_names():
    result = _map({"bn.weight": (8,), "tokens.weight": (10, 4)}, era="mint")
    assert [(entry.source, entry.target) for entry in result.mapped] == [("bn.weight", "bn.weight"), ("tokens.weight", "tokens.weight")]


def test_a_conv1d_weight_gets_mindspore_nn_s_unit_axis():
    [entry] = _map({"conv.weight": (4, 3, 5)}).mapped
    assert entry.target_shape == (4, 3, 1, 5)


def test_the_target_model_decides_per_layer():
    # A mint BatchNorm keeps torch's names (even its counter), a mindspore.nn LayerNorm renames.
    target = {"bn.weight": ((8,), "float32"), "bn.bias": ((8,), "float32"), "bn.running_mean": ((8,), "float32"),
              "bn.running_var": ((8,), "float32"), "bn.num_batches_tracked": ((), "int64"),
              "norm.gamma": ((4,), "float16"), "norm.beta": ((4,), "float32")}
    result = _map({**BATCH_NORM, "norm.weight": (4,), "norm.bias": (4,)}, target)
    assert {entry.source: entry.target for entry in result.mapped}["norm.weight"] == "norm.gamma"
    assert {entry.source: entry.target for entry in result.mapped}["bn.num_batches_tracked"] == "bn.num_batches_tracked"
    assert [(entry.source, entry.target_dtype) for entry in result.cast()] == [("norm.weight", "float16")]
    assert result.complete and result.not_carried == []


def test_every_failure_is_listed():
    target = {"fc.weight": ((3, 4), "float32"), "head.weight": ((1, 4), "float32")}
    result = _map({"fc.weight": (2, 4), "extra.weight": (4,)}, target)
    assert result.shape_mismatches == [("fc.weight", "fc.weight", (2, 4), (3, 4))]
    assert [name for name, _ in result.unmapped] == ["extra.weight"]
    assert "no parameter extra.weight or extra.gamma or extra.bn2d.gamma or extra.embedding_table or extra.w" in result.unmapped[0][1]
    assert result.missing == ["head.weight"]  # fc.weight is reported once, as the mismatch
    assert not result.complete
    printed = print_map(result)
    assert "unmapped: extra.weight" in printed and "shape mismatch: fc.weight [2, 4] → fc.weight [3, 4]" in printed
    assert "missing: the MindSpore parameter head.weight" in printed


def test_map_rules_come_first_expand_groups_and_may_leave_a_parameter_out(tmp_path):
    rules_file = tmp_path / "map.yaml"
    rules_file.write_text("'layers\\.(\\d+)\\.w': 'blocks.\\1.weight'\n'aux\\..*': null\n", encoding="utf-8")
    rules = read_map_file(rules_file)
    result = build_map({"layers.3.w": (2,), "aux.scale": (1,)}, {}, None, {"blocks.3.weight": ((2,), "float32")}, "nn", rules)
    assert [(entry.source, entry.target, entry.how) for entry in result.mapped] == [("layers.3.w", "blocks.3.weight", "--map map.yaml rule 1")]
    assert result.not_carried == [("aux.scale", "left out by --map map.yaml rule 2")]
    assert result.complete


def test_two_parameters_may_not_fill_one_name(tmp_path):
    rules_file = tmp_path / "map.json"
    rules_file.write_text(json.dumps([{"pattern": "a|b", "name": "c"}]), encoding="utf-8")
    result = build_map({"a": (1,), "b": (1,)}, {}, None, None, "nn", read_map_file(rules_file))
    assert [entry.source for entry in result.mapped] == ["a"]
    assert result.unmapped == [("b", "c is already filled from a")]


@pytest.mark.parametrize(
    ("text", "suffix", "message"),
    [
        ("'(unclosed': x\n", ".yaml", "rule 1: '(unclosed' is not a regular expression"),
        ("a: [1\n", ".yaml", "not valid YAML"),
        ("{\"a\": ", ".json", "not valid JSON"),
        ("- just a string\n", ".yaml", "expected a mapping `regex: name`"),
        ("a: 3\n", ".yaml", "rule 1: the pattern and the name must be strings"),
    ],
)
def test_a_bad_map_file_says_what_and_where(tmp_path, text, suffix, message):
    rules_file = tmp_path / f"map{suffix}"
    rules_file.write_text(text, encoding="utf-8")
    with pytest.raises(WeightsError) as raised:
        read_map_file(rules_file)
    assert str(raised.value).startswith(f"--map {rules_file}: ") and message in str(raised.value)
