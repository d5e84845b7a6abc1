"""The curated MindSpore-route answers for the PyTorch names real code uses most (issue 9).

The usage counts are mappings/usage/torch_api_frequency.csv (six public code bases). These tests need
neither torch nor mindspore: they read the tables as the engine does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.kb import coverage
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.kb.loader import load_table
from ascend_migrate.taxonomy import DEFAULT_CODE_FOR_CATEGORY

MAPPINGS = Path(__file__).resolve().parents[2] / "mappings"
CURATED_TABLES = ("pytorch_mindspore_curated", "structure")

# The answer the MindSpore route gives for each of the 100 most used names: (name, category, code, target).
TOP_100 = [
    ('torch.Tensor', 'ms-equivalent', 'MS101', 'mindspore.Tensor'),
    ('torch.cat', 'ms-equivalent', 'MS101', 'mindspore.mint.cat'),
    ('torch.nn.Module', 'ms-structure', 'MS201', 'mindspore.nn.Cell'),
    ('torch.tensor', 'ms-differs', 'MS102', 'mindspore.tensor'),
    ('torch.float32', 'ms-equivalent', 'MS101', 'mindspore.float32'),
    ('torch.Generator', 'ms-equivalent', 'MS101', 'mindspore.Generator'),
    ('torch.nn.Linear', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.Linear'),  # init drawn alike (session 9)
    ('torch.device', 'ms-structure', 'MS205', 'mindspore.set_device'),
    ('torch.manual_seed', 'ms-equivalent', 'MS101', 'mindspore.manual_seed'),
    ('torch.no_grad', 'ms-structure', 'MS209', 'mindspore.ops.stop_gradient'),
    ('torch.float16', 'ms-equivalent', 'MS101', 'mindspore.float16'),
    ('torch.randn', 'ms-equivalent', 'MS101', 'mindspore.mint.randn'),
    ('torch.zeros', 'ms-equivalent', 'MS101', 'mindspore.mint.zeros'),
    ('torch.arange', 'ms-equivalent', 'MS101', 'mindspore.mint.arange'),
    ('torch.nn.Conv2d', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.Conv2d'),
    ('torch.nn.ModuleList', 'ms-differs', 'MS102', 'mindspore.nn.CellList'),
    ('torch.nn.Identity', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.Identity'),
    ('<tensor>.cpu()', 'ms-structure', 'MS205', 'mindspore.Tensor.asnumpy'),
    ('torch.bfloat16', 'ms-equivalent', 'MS101', 'mindspore.bfloat16'),
    ('torch.stack', 'ms-equivalent', 'MS101', 'mindspore.mint.stack'),
    ('torch.FloatTensor', 'ms-differs', 'MS102', 'mindspore.Tensor'),
    ('torch.zeros_like', 'ms-equivalent', 'MS101', 'mindspore.mint.zeros_like'),
    ('torch.nn.Parameter', 'ms-differs', 'MS102', 'mindspore.Parameter'),
    ('torch.nn.Sequential', 'ms-differs', 'MS102', 'mindspore.nn.SequentialCell'),
    ('torch.dtype', 'ms-equivalent', 'MS101', 'mindspore.Type'),
    ('torch.utils.data.DataLoader', 'ms-differs', 'MS102', 'mindspore.dataset.GeneratorDataset'),
    ('torch.equal', 'ms-equivalent', 'MS101', 'mindspore.mint.equal'),
    ('torch.fx.Node', 'ms-unsupported', 'MS103', None),
    ('torch.ones', 'ms-equivalent', 'MS101', 'mindspore.mint.ones'),
    ('torch.from_numpy', 'ms-equivalent', 'MS101', 'mindspore.from_numpy'),
    ('torch.nn.LayerNorm', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.LayerNorm'),
    ('torch.allclose', 'ms-equivalent', 'MS101', 'mindspore.mint.allclose'),
    ('torch.fx.GraphModule', 'ms-unsupported', 'MS103', None),
    ('torch.empty', 'ms-equivalent', 'MS101', 'mindspore.mint.empty'),
    ('torch.long', 'ms-equivalent', 'MS101', 'mindspore.int64'),
    ('torch.exp', 'ms-differs', 'MS102', 'mindspore.mint.exp'),
    ('torch.nn.BatchNorm2d', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.BatchNorm2d'),
    ('torch.jit.ignore', 'ms-unsupported', 'MS103', None),
    ('torch.rand', 'ms-equivalent', 'MS101', 'mindspore.mint.rand'),
    ('torch.abs', 'ms-equivalent', 'MS101', 'mindspore.mint.abs'),
    ('torch.nn.Dropout', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.Dropout'),
    ('torch.nn.ReLU', 'ms-differs', 'MS102', 'mindspore.mint.nn.ReLU'),
    ('torch.cuda.is_available', 'ms-structure', 'MS205', 'mindspore.device_context.ascend.is_available'),
    ('torch.backends.mps.is_available', 'ms-structure', 'MS205', None),
    ('torch.randint', 'ms-equivalent', 'MS101', 'mindspore.mint.randint'),
    ('torch.load', 'ms-structure', 'MS206', 'mindspore.load_checkpoint'),
    ('torch.log', 'ms-equivalent', 'MS101', 'mindspore.mint.log'),
    ('torch.nn.functional.interpolate', 'ms-differs', 'MS102', 'mindspore.mint.nn.functional.interpolate'),
    ('torch.nn.functional.pad', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.functional.pad'),
    ('torch.sum', 'ms-equivalent', 'MS101', 'mindspore.mint.sum'),
    ('torch.mean', 'ms-equivalent', 'MS101', 'mindspore.mint.mean'),
    ('torch.jit.is_scripting', 'ms-unsupported', 'MS103', None),
    ('torch.optim.Optimizer', 'ms-differs', 'MS102', 'mindspore.nn.Optimizer'),
    ('torch.LongTensor', 'ms-differs', 'MS102', 'mindspore.Tensor'),
    ('torch.is_grad_enabled', 'ms-structure', 'MS209', None),
    ('torch.chunk', 'ms-equivalent', 'MS101', 'mindspore.mint.chunk'),
    ('torch.nn.init.zeros_', 'ms-differs', 'MS102', 'mindspore.common.initializer.Zero'),
    ('torch.int64', 'ms-equivalent', 'MS101', 'mindspore.int64'),
    ('torch.optim.Adam', 'ms-differs', 'MS102', 'mindspore.mint.optim.Adam'),
    ('torch.testing.assert_close', 'ms-unsupported', 'MS103', None),
    ('torch.nn.GELU', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.GELU'),
    ('torch.nn.SiLU', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.SiLU'),
    ('torch.cuda.empty_cache', 'ms-equivalent', 'MS101', 'mindspore.runtime.empty_cache'),
    ('torch.float64', 'ms-equivalent', 'MS101', 'mindspore.float64'),
    ('torch.is_tensor', 'ms-equivalent', 'MS101', 'mindspore.ops.is_tensor'),
    ('torch.nn.init.constant_', 'ms-differs', 'MS102', 'mindspore.common.initializer.Constant'),
    ("<kwarg>device='cuda'", 'ms-structure', 'MS205', 'mindspore.set_device'),
    ('torch.full', 'ms-equivalent', 'MS101', 'mindspore.mint.full'),
    ('torch.utils.data.Dataset', 'ms-differs', 'MS102', 'mindspore.dataset.GeneratorDataset'),
    ('torch.nn.functional', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.functional'),
    ('torch.concat', 'ms-equivalent', 'MS101', 'mindspore.mint.concat'),
    ('torch.linspace', 'ms-equivalent', 'MS101', 'mindspore.mint.linspace'),
    ('torch.optim.SGD', 'ms-equivalent', 'MS101', 'mindspore.experimental.optim.SGD'),
    ('torch.randn_like', 'ms-equivalent', 'MS101', 'mindspore.mint.randn_like'),
    ('torch.bool', 'ms-equivalent', 'MS101', 'mindspore.bool_'),
    ('torchvision.transforms.ToTensor', 'ms-differs', 'MS102', 'mindspore.dataset.vision.ToTensor'),
    ('torch.sqrt', 'ms-equivalent', 'MS101', 'mindspore.mint.sqrt'),
    ('torch.nn.functional.mse_loss', 'ms-equivalent', 'MS101', 'mindspore.mint.nn.functional.mse_loss'),
    ('torch.ones_like', 'ms-equivalent', 'MS101', 'mindspore.mint.ones_like'),
    ('torch.sin', 'ms-equivalent', 'MS101', 'mindspore.mint.sin'),
    ('torch.where', 'ms-equivalent', 'MS101', 'mindspore.mint.where'),
    ('torch.fx.Graph', 'ms-unsupported', 'MS103', None),
    ('torch.save', 'ms-structure', 'MS206', 'mindspore.save_checkpoint'),
    ('torchvision.transforms.Compose', 'ms-equivalent', 'MS101', 'mindspore.dataset.transforms.Compose'),
    ('torch.int32', 'ms-equivalent', 'MS101', 'mindspore.int32'),
    ('torch.cos', 'ms-equivalent', 'MS101', 'mindspore.mint.cos'),
    ('torch.split', 'ms-differs', 'MS102', 'mindspore.mint.split'),
    ('torch.nn.GroupNorm', 'ms-differs', 'MS102', 'mindspore.mint.nn.GroupNorm'),
    ('torch.optim.AdamW', 'ms-differs', 'MS102', 'mindspore.mint.optim.AdamW'),
    ('torch.nn.functional.scaled_dot_product_attention', 'ms-differs', 'MS102', 'mindspore.ops.flash_attention_score'),
    ('torchvision.transforms.Normalize', 'ms-differs', 'MS102', 'mindspore.dataset.vision.Normalize'),
    ('torch.clamp', 'ms-differs', 'MS102', 'mindspore.mint.clamp'),
    ('torchvision.transforms.Resize', 'ms-differs', 'MS102', 'mindspore.dataset.vision.Resize'),
    ('torch.ops.aten.relu.default', 'ms-unsupported', 'MS103', None),
    ('torch.autocast', 'ms-differs', 'MS102', 'mindspore.amp.auto_mixed_precision'),
    ('torch.nn.init.normal_', 'ms-differs', 'MS102', 'mindspore.common.initializer.Normal'),
    ('torch.contiguous_format', 'ms-unsupported', 'MS103', None),
    ('torchvision.transforms.CenterCrop', 'ms-equivalent', 'MS101', 'mindspore.dataset.vision.CenterCrop'),
    ('torch.nn.RMSNorm', 'ms-differs', 'MS102', 'mindspore.ops.rms_norm'),
    ('torch.distributed.tensor.DTensor', 'ms-unsupported', 'MS103', None),
]


@pytest.fixture(scope="module")
def knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.load(MAPPINGS)


@pytest.fixture(scope="module")
def view(knowledge_base):
    return knowledge_base.view("mindspore", "2.8", "2.10")


@pytest.fixture(scope="module")
def usage() -> list[coverage.UsageRow]:
    return coverage.load_usage(MAPPINGS / coverage.USAGE_FILE)


def test_the_pinned_list_is_the_100_most_used_names(usage):
    assert [name for name, *_ in TOP_100] == [row.api for row in usage[:100]]


@pytest.mark.parametrize(("name", "category", "code", "target"), TOP_100, ids=[row[0] for row in TOP_100])
def test_most_used_names_get_their_pinned_answer(view, name, category, code, target):
    entry = coverage.answer(view, name)[0]
    assert (entry.category, entry.code or DEFAULT_CODE_FOR_CATEGORY[entry.category], entry.target) == (category, code, target)
    assert entry.target or entry.suggestion, f"{name}: an answer must say what to use or do"


def test_every_name_used_20_times_or_in_3_code_bases_has_an_answer(view, usage):
    frequent = [row.api for row in usage if row.references >= 20 or row.repositories >= 3]
    assert len(frequent) == 373
    assert [name for name in frequent if not coverage.answer(view, name)] == []


def test_frequent_names_without_an_official_row_are_answered_by_a_curated_entry(view, usage):
    frequent = [row for row in usage if (row.references >= 20 or row.repositories >= 3) and not row.in_official_tables]
    uncurated = [row.api for row in frequent if not any(entry.curated for entry in coverage.answer(view, row.api))]
    assert uncurated == []


def test_mindspore_route_answers_at_least_97_percent_of_references(knowledge_base, usage):
    measured = coverage.route_coverage(knowledge_base, "mindspore", usage)
    assert measured.references == 79412
    assert measured.share >= 0.97


def test_every_cuda_related_name_has_an_npu_answer(knowledge_base, usage):
    measured = coverage.route_coverage(knowledge_base, "npu", usage)
    assert measured.names == 48
    assert [row.api for row in measured.unanswered] == []


@pytest.mark.parametrize("table", CURATED_TABLES)
def test_curated_tables_say_how_each_entry_was_checked(table):
    entries, _ = load_table(MAPPINGS / f"{table}.yaml")
    assert entries
    for entry in entries:
        assert entry.curated, f"{table}.yaml:{entry.line} is not marked curated"
        assert entry.verified, f"{table}.yaml:{entry.line} does not say how it was verified"
        assert "mindspore 2.10.0" in entry.provenance or "torch_npu 2.14.0" in entry.verified


def test_structure_entries_carry_the_structure_codes():
    entries, _ = load_table(MAPPINGS / "structure.yaml")
    codes = {entry.code for entry in entries}
    assert codes == {"MS201", "MS202", "MS203", "MS204", "MS205", "MS206", "MS207", "MS208", "MS209", "MS213", "MS214", "MS215", "MS216", "MS217", "MS218", "MS221", "MS222", "MS223", "MS224", "MS230", "MS231", "MS235", "MS236", "MS237", "MS238", "MS239", "MS245", "MS246", "MS247", "MS248"}
    assert {entry.category for entry in entries} == {"ms-structure"}


@pytest.mark.parametrize(("api", "match", "receiver", "code", "target"), [
    ("torch.nn.Module.forward", "definition", "", "MS202", "mindspore.nn.Cell.construct"),
    ("torch.nn.Module.train", "method", "module", "MS203", "mindspore.nn.Cell.set_train"),
    ("torch.nn.Module.eval", "method", "module", "MS203", "mindspore.nn.Cell.set_train"),
    ("torch.optim.Optimizer.zero_grad", "method", "optimizer", "MS204", "mindspore.value_and_grad"),
    ("torch.optim.Optimizer.step", "method", "optimizer", "MS204", "mindspore.nn.Optimizer"),
    ("torch.Tensor.backward", "method", "tensor", "MS204", "mindspore.value_and_grad"),
    ("torch.Tensor.to", "method", "tensor", "MS205", "mindspore.Tensor.to"),
    ("torch.nn.Module.to", "method", "module", "MS205", "mindspore.nn.Cell.to"),
    ("torch.Tensor.cuda", "method", "any", "MS205", "mindspore.set_device"),
    ("torch.save", "name", "", "MS206", "mindspore.save_checkpoint"),
    ("torch.nn.parallel.DistributedDataParallel", "name", "", "MS208", "mindspore.set_auto_parallel_context"),
    ("torch.autograd.grad", "name", "", "MS209", "mindspore.grad"),
])
def test_structural_rules_match_the_way_the_engine_expects(knowledge_base, api, match, receiver, code, target):
    found = [entry for entry in knowledge_base.lookup(api) if entry.route == "mindspore" and entry.table == "structure"]
    # train(), eval() and to(device) also have an entry for a receiver of unknown type (heuristic, issue 17).
    typed = [entry for entry in found if entry.receiver != "any" or receiver == "any"]
    assert [(entry.match, entry.receiver, entry.code, entry.target) for entry in typed] == [(match, receiver, code, target)]
    assert {(entry.code, entry.target) for entry in found} == {(code, target)}


def test_state_dict_targets_follow_the_mindspore_version(knowledge_base):
    newest = knowledge_base.view("mindspore", "2.8", "2.10").by_method["state_dict"]
    older = knowledge_base.view("mindspore", "2.8", "2.6").by_method["state_dict"]
    assert [entry.target for entry in newest if entry.receiver == "module"] == ["mindspore.nn.Cell.state_dict"]
    assert [entry.target for entry in older if entry.receiver == "module"] == ["mindspore.nn.Cell.parameters_dict"]


def test_prefix_entries_answer_every_name_below_them(view):
    entry = coverage.answer(view, "torch.fx.experimental.symbolic_shapes.ShapeEnv")[0]
    assert (entry.api, entry.condition, entry.category) == ("torch.fx", "prefix", "ms-unsupported")
    assert "mindspore.rewrite" in entry.suggestion


def test_tensor_method_rows_resolve_to_method_entries(view):
    cpu = coverage.answer(view, "<tensor>.cpu()")
    assert [(entry.api, entry.match, entry.receiver) for entry in cpu] == [("torch.Tensor.cpu", "method", "any")]
    to_cuda = coverage.answer(view, "<tensor>.to('cuda')")
    assert [(entry.api, entry.match) for entry in to_cuda] == [("cuda", "string"), ("torch.Tensor.to", "method"), ("torch.Tensor.to", "method")]


def test_a_file_using_the_300_most_used_names_gets_no_unsupported_finding_for_a_name_with_an_equivalent(view, usage):
    names = [row.api for row in usage[:300] if row.api.startswith("torch.") and not row.api.startswith("<")]
    source = "import torch\nimport torch.nn\nimport torch.nn.functional\n" + "".join(f"value_{index} = {name}\n" for index, name in enumerate(names))
    findings = analyze(source, "uses_top_300.py", Settings(target="mindspore"))
    answered_otherwise = {
        name for name in names
        if coverage.answer(view, name) and all(entry.category != "ms-unsupported" for entry in coverage.answer(view, name))
    }
    wrongly_unsupported = sorted({
        finding.api for finding in findings if finding.category == "ms-unsupported" and finding.api in answered_otherwise
    })
    assert wrongly_unsupported == []
    reported = {finding.line for finding in findings}
    assert len(reported) >= 0.9 * len(names)


# Method names other types share (dict.values, list.index, Image.resize, Module.mode...): no tensor entry on purpose.
SHARED_METHOD_NAMES = {"values", "resize", "mode", "index", "put"}


def test_the_tensor_methods_real_code_calls_most_have_a_tensor_method_entry(view):
    rows = coverage.load_method_usage(MAPPINGS / coverage.METHOD_USAGE_FILE)
    assert [row.api for row in rows[:5]] == ["<tensor>.to()", "<tensor>.view()", "<tensor>.reshape()", "<tensor>.flatten()", "<tensor>.unsqueeze()"]
    unanswered = [row.api for row in rows if not coverage.answer(view, row.api)]
    assert unanswered == [f"<tensor>.{name}()" for name in ("values", "resize", "mode", "index", "put")]
    assert {api[len("<tensor>."):-2] for api in unanswered} == SHARED_METHOD_NAMES


def test_tensor_method_entries_match_only_a_known_tensor_receiver(view):
    names = [row.api[len("<tensor>."):-2] for row in coverage.load_method_usage(MAPPINGS / coverage.METHOD_USAGE_FILE)]
    receivers = {entry.receiver for name in names for entry in view.by_method.get(name, []) if entry.receiver_type == "torch.Tensor"}
    # "any" is kept for the calls that are nearly always torch: .cuda(), .cpu() and .to(device) (a device
    # argument, never a dtype: the entry's `when`; issue 17: a batch's x.to(device) was not reported) and .size(d)
    # (MS214: a renamed call could not run), .detach() without arguments (MS209: mindspore.Tensor has none) and
    # .new_zeros/new_ones, reported only with the sizes one by one (a TypeError in mindspore 2.10).
    assert receivers == {"tensor", "any"}
    any_receiver = {entry.method_name for name in names for entry in view.by_method.get(name, [])
                    if entry.receiver_type == "torch.Tensor" and entry.receiver == "any"}
    assert any_receiver - {"new_zeros", "new_ones"} == {"cpu", "cuda", "detach", "size", "to"}
