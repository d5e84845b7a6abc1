"""The NPU-route tables (cuda_npu, npu_affinity, npu_unsupported, npu_dynamic_shape, third_party): they load,
every row of the Ascend reference CSVs is represented, and the facts people rely on are pinned."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.loader import load_table
from ascend_migrate.kb.schema import Entry

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"
TABLES = ("cuda_npu", "npu_affinity", "npu_unsupported", "npu_dynamic_shape", "third_party")
# Data rows of the reference CSVs in ../shared/reference/ascend (README: "Files and row counts").
CSV_ROWS = {"cuda_to_npu.csv": 368, "affinity_apis.csv": 81, "unsupported_or_caveats.csv": 510,
            "dynamic_shape_ops.csv": 30}
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ROW_REFERENCE = re.compile(r"ascend/(\w+\.csv) rows? (\d+(?:, \d+)*)")


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.from_directory(MAPPINGS)


@pytest.fixture(scope="module")
def entries() -> dict[str, list[Entry]]:
    return {table: load_table(MAPPINGS / f"{table}.yaml")[0] for table in TABLES}


def only(found: list[Entry], **fields: str) -> Entry:
    matching = [entry for entry in found if all(str(getattr(entry, key)) == value for key, value in fields.items())]
    assert len(matching) == 1, f"expected one entry with {fields}, got {matching}"
    return matching[0]


def test_the_whole_mappings_directory_loads_with_the_npu_tables(knowledge_base):
    assert {entry.table for entry in knowledge_base.entries} >= set(TABLES)


def test_entry_counts_per_table_are_pinned(entries):
    assert {table: len(found) for table, found in entries.items()} == {
        "cuda_npu": 258, "npu_affinity": 69, "npu_unsupported": 665, "npu_dynamic_shape": 43, "third_party": 36,
    }


def test_every_reference_csv_row_is_represented_in_some_entry():
    represented: dict[str, set[int]] = defaultdict(set)
    paths = [MAPPINGS / f"{table}.yaml" for table in TABLES]
    for path in paths:
        for entry in yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)["entries"]:
            for match in ROW_REFERENCE.finditer(entry["provenance"]):
                represented[match.group(1)].update(int(number) for number in match.group(2).split(", "))
    assert {name: sorted(numbers) for name, numbers in represented.items()} == {
        name: list(range(1, count + 1)) for name, count in CSV_ROWS.items()
    }


def test_device_arguments_and_the_torch_npu_import_are_entries(entries):
    """Once proposed in mappings/proposed/, now loaded: the loader knows their conditions."""
    shapes = {(entry.match, entry.condition) for entry in entries["cuda_npu"] if entry.condition}
    assert shapes >= {("import", "torch-npu-not-imported"), ("string", "tensor-type"),
                      ("name", "device-argument"), ("method", "device-argument")}
    zeros = only(entries["cuda_npu"], api="torch.zeros", condition="device-argument")
    assert (zeros.category, zeros.code, zeros.parameters[0].source) == ("npu-rename", "NPU102", "device")
    load = only(entries["cuda_npu"], api="torch.load", condition="device-argument")
    assert load.parameters[0].source == "map_location"


def test_torch_cuda_synchronize_becomes_torch_npu_synchronize(entries):
    entry = only(entries["cuda_npu"], api="torch.cuda.synchronize", condition="")
    assert (entry.category, entry.code, entry.target, entry.fix) == ("npu-rename", "NPU101", "torch.npu.synchronize",
                                                                      "safe")
    assert "torch_npu.npu.synchronize" in entry.note
    assert entry.verified.startswith("torch.npu.synchronize found in the torch_npu 2.14.0 wheel")


def test_nccl_backend_strings_become_hccl(entries):
    lower = only(entries["cuda_npu"], api="nccl", match="string")
    upper = only(entries["cuda_npu"], api="NCCL", match="string")
    assert (lower.condition, lower.code, lower.target, lower.fix) == ("backend", "NPU103", "hccl", "safe")
    assert (upper.target, upper.fix) == ("HCCL", "safe")


def test_cuda_visible_devices_becomes_ascend_rt_visible_devices(entries):
    entry = only(entries["cuda_npu"], api="CUDA_VISIBLE_DEVICES")
    assert (entry.match, entry.condition, entry.code, entry.target, entry.fix) == (
        "string", "environment-variable", "NPU104", "ASCEND_RT_VISIBLE_DEVICES", "safe")


def test_one_generic_cuda_device_string_entry(entries):
    entry = only(entries["cuda_npu"], api="cuda", match="string")
    assert (entry.condition, entry.code, entry.target, entry.fix) == ("device", "NPU102", "npu", "safe")


def test_cuda_methods_become_npu_methods(entries):
    tensor_cuda = only(entries["cuda_npu"], api="torch.Tensor.cuda", match="method")
    is_cuda = only(entries["cuda_npu"], api="torch.Tensor.is_cuda", match="method")
    module_cuda = only(entries["cuda_npu"], api="torch.nn.Module.cuda", match="method")
    assert (tensor_cuda.receiver, tensor_cuda.code, tensor_cuda.target) == ("any", "NPU105", "torch.Tensor.npu")
    assert (is_cuda.receiver, is_cuda.target) == ("any", "torch.Tensor.is_npu")
    assert module_cuda.receiver == "module"


def test_fork_rng_keeps_its_torch_name_because_the_gpu2ascend_target_does_not_exist(entries):
    entry = only(entries["cuda_npu"], api="torch.random.fork_rng")
    assert (entry.target, entry.fix) == (None, "none")
    assert [(parameter.source, parameter.target_default) for parameter in entry.parameters] == [("device_type", "npu")]


def test_cuda_amp_becomes_npu_amp(entries):
    assert only(entries["cuda_npu"], api="torch.cuda.amp.autocast").target == "torch.npu.amp.autocast"
    assert only(entries["cuda_npu"], api="torch.cuda.amp.GradScaler").target == "torch.npu.amp.GradScaler"


def test_data_parallel_is_reported_with_the_steps_and_never_rewritten_to_ddp_alone(entries):
    # DistributedDataParallel without a process group does not run (issue 17): advice, pointing to migrate --distributed
    entry = only(entries["cuda_npu"], api="torch.nn.DataParallel")
    assert (entry.category, entry.code, entry.target, entry.fix) == (
        "npu-unsupported", "NPU201", "torch.nn.parallel.DistributedDataParallel", "none")
    assert "ascend-migrate migrate --distributed" in entry.suggestion
    assert "init_process_group('hccl'" in entry.suggestion and "DistributedSampler" in entry.suggestion


def test_cudnn_switches_say_what_is_known_on_npu_and_no_more(entries):
    benchmark = only(entries["cuda_npu"], api="torch.backends.cudnn.benchmark")
    tf32 = only(entries["cuda_npu"], api="torch.backends.cuda.matmul.allow_tf32")
    assert (benchmark.code, benchmark.category) == ("NPU203", "npu-unsupported")
    assert "no effect on NPU is documented; check" in benchmark.note
    assert "torch.npu.matmul.allow_hf32" in tf32.note


def test_adamw_has_the_fused_npu_optimizer(entries):
    entry = only(entries["npu_affinity"], api="torch.optim.AdamW")
    assert (entry.category, entry.code, entry.target, entry.fix) == ("npu-affinity", "NPU301",
                                                                      "torch_npu.optim.NpuFusedAdamW", "unsafe")


def test_affinity_corrections_from_the_reference_readme(entries):
    decode = only(entries["npu_affinity"], api="decode(self,bboxes,pred_bboxes,stride)")
    silu = only(entries["npu_affinity"], api="torch.nn.SiLU")
    assert decode.target == "torch_npu.contrib.function.npu_bbox_coder_decode_xywh2xyxy"
    assert "does not export" in decode.note
    assert "npu_bbox_coder_decode_xywh2xyxy found in the torch_npu 2.14.0 wheel" in decode.verified
    assert str(silu.source_versions) == "<2.14" and "deprecated" in silu.note


def test_code_patterns_are_named_for_the_engine(entries):
    patterns = {entry.condition for entry in entries["npu_affinity"] if entry.match == "pattern"}
    assert {"rms-norm", "rotary-embedding", "swiglu", "scaled-dot-product-attention", "scaled-masked-softmax",
            "function-signature", "class-signature"} <= patterns
    rms = only(entries["npu_affinity"], api="rms-norm")
    assert (rms.code, rms.target) == ("NPU302", "torch_npu.npu_rms_norm")


def test_nonzero_has_a_data_dependent_shape_as_function_and_method(entries):
    function = only(entries["npu_dynamic_shape"], api="torch.nonzero")
    method = only(entries["npu_dynamic_shape"], api="torch.Tensor.nonzero")
    assert (function.code, function.match) == ("NPU401", "name")
    assert (method.match, method.receiver) == ("method", "tensor")
    assert "(tensor_a * mask).sum()" in function.suggestion


def test_boolean_mask_indexing_and_single_argument_where(entries):
    mask = only(entries["npu_dynamic_shape"], condition="boolean-mask-index")
    where = only(entries["npu_dynamic_shape"], api="torch.where")
    assert (mask.match, mask.code) == ("pattern", "NPU402")
    assert where.condition == "single-argument"


def test_an_api_unsupported_only_in_the_pytorch_2_8_table_applies_to_2_8_only(knowledge_base):
    for version, expected in (("2.8", ["NPU201"]), ("2.7", []), ("2.9", [])):
        view = knowledge_base.view("npu", version, "2.10")
        codes = [entry.code for entry in view.by_name.get("torch.nn.Transformer", ()) if entry.table == "npu_unsupported"]
        assert codes == expected, version


def test_an_api_unsupported_in_all_four_tables_spans_2_1_to_2_8(entries):
    entry = only(entries["npu_unsupported"], api="torch.heaviside")
    assert (entry.code, str(entry.source_versions)) == ("NPU201", ">=2.1,<2.9")


def test_restriction_notes_without_a_call_condition_are_kept_as_written(entries):
    entry = only(entries["npu_unsupported"], api="torch.utils.data.DataLoader", code="NPU204")
    assert "不支持多进程加载NPU数据，num_workers仅支持0" in entry.note
    assert str(entry.source_versions) == ">=2.6,<2.9"
    assert entry.when == ()  # it concerns NPU tensors in the dataset, which no call shows: never reported
    assert entry.reported is False


def test_restrictions_a_call_can_show_are_english_with_the_original_kept(entries):
    restrictions = [entry for entry in entries["npu_unsupported"] if entry.code == "NPU204"]
    assert len(restrictions) == 267
    # conditions a call's text can show (a dtype condition is seen only at run time: every dtype-list row has one)
    conditional = [entry for entry in restrictions if any(not condition.dtypes for condition in entry.when)]
    assert len(conditional) == 22
    for entry in conditional:
        assert not any("\u4e00" <= character <= "\u9fff" for character in entry.note), entry.api
        assert entry.note_original and entry.note_original != entry.note
        assert entry.severity == "warning" and entry.suggestion
    topk = only(entries["npu_unsupported"], api="torch.topk", code="NPU204", source_versions=">=2.7,<2.9")
    assert topk.note.startswith("sorted=False is not supported.")
    assert [(condition.argument, condition.position, condition.values, condition.dtypes) for condition in topk.when] == [
        ("sorted", 4, ("False",), ()),
        ("input", 0, (), ("bfloat16", "float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64"))]
    assert topk.when[1].derived_from == "支持bf16，fp16，fp32，fp64，uint8，int8，int16，int32，int64"
    assert {entry.severity for entry in restrictions if entry not in conditional} == {"hint", "info"}
    assert all(entry.reported is (entry in conditional) for entry in restrictions)


def test_restriction_notes_only_older_tables_have_keep_their_versions(entries):
    older = only(entries["npu_unsupported"], api="torch.nn.BCEWithLogitsLoss", source_versions=">=2.6,<2.7")
    newer = only(entries["npu_unsupported"], api="torch.nn.BCEWithLogitsLoss", source_versions=">=2.7,<2.9")
    assert older.note == "入参target不支持反向计算。(msfmktransplt PyTorch table, supported with restriction; 支持fp16，fp32)"
    assert older.provenance.endswith("resource/supported_op_2_6.json")
    assert newer.provenance.startswith("ascend/unsupported_or_caveats.csv row 461;")


def test_third_party_libraries_have_one_entry_per_route(entries):
    routes = defaultdict(set)
    for entry in entries["third_party"]:
        routes[entry.api].add(entry.route)
    assert routes["flash_attn"] == {"npu", "mindspore"}
    assert routes["amp_C"] == {"npu", "mindspore"}
    fused_adam = only(entries["third_party"], api="apex.optimizers.FusedAdam")
    assert (fused_adam.route, fused_adam.target, fused_adam.fix) == ("npu", "torch_npu.optim.NpuFusedAdam", "unsafe")
