"""Fixing a whole file: safe fixes together, unsafe ones on request, suppressed lines and broken results refused."""

from fix_builders import finding, rename, rewrite, span_of

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes import fix_all
from ascend_migrate.fixes.families.call_arguments import CallArguments

NPU_SCRIPT = """\
import os

import torch

os.environ["CUDA_VISIBLE_DEVICES"] = "0"
device = torch.device("cuda", 0)
model = Net().cuda()
if batch.is_cuda:
    torch.cuda.synchronize()
"""


def npu_findings(source: str) -> list:
    return [
        rename(source, "CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"),
        rename(source, "cuda", "npu"),  # the device string
        rename(source, "cuda", "npu", occurrence=2),  # .cuda()
        rename(source, "is_cuda", "is_npu"),
        rename(source, "torch.cuda.synchronize", "torch.npu.synchronize", add_imports=("import torch_npu",)),
    ]


def test_the_npu_renames_apply_together_with_one_import():
    result = fix_all(NPU_SCRIPT, npu_findings(NPU_SCRIPT))
    assert result.text == """\
import os

import torch
import torch_npu

os.environ["ASCEND_RT_VISIBLE_DEVICES"] = "0"
device = torch.device("npu", 0)
model = Net().npu()
if batch.is_npu:
    torch.npu.synchronize()
"""
    assert len(result.applied) == 5 and result.skipped == ()


def test_the_change_list_has_one_entry_per_fix_and_per_import():
    result = fix_all(NPU_SCRIPT, npu_findings(NPU_SCRIPT))
    assert [(change.line, change.code, change.before, change.after) for change in result.changes] == [
        (4, "import", "", "import torch_npu"),
        (5, "NPU101", 'os.environ["CUDA_VISIBLE_DEVICES"] = "0"', 'os.environ["ASCEND_RT_VISIBLE_DEVICES"] = "0"'),
        (6, "NPU101", 'device = torch.device("cuda", 0)', 'device = torch.device("npu", 0)'),
        (7, "NPU101", "model = Net().cuda()", "model = Net().npu()"),
        (8, "NPU101", "if batch.is_cuda:", "if batch.is_npu:"),
        (9, "NPU101", "    torch.cuda.synchronize()", "    torch.npu.synchronize()"),
    ]


def test_structure_fixes_for_mindspore():
    source = "class Net(nn.Module):\n    def forward(self, x):\n        return x\n\nnet.train()\nnet.eval()\n"
    findings = [
        rename(source, "nn.Module", "mindspore.nn.Cell", add_imports=("import mindspore",)),
        rename(source, "forward", "construct"),
        rewrite(source, "net.train()", "call-arguments", {"method": "set_train", "add_positional": ["True"]}),
        rewrite(source, "net.eval()", "call-arguments", {"method": "set_train", "add_positional": ["False"]}),
    ]
    assert fix_all(source, findings).text == (
        "import mindspore\nclass Net(mindspore.nn.Cell):\n    def construct(self, x):\n        return x\n\nnet.set_train(True)\nnet.set_train(False)\n"
    )


def test_unsafe_fixes_wait_for_the_flag():
    source = "import torch\noptimizer = torch.optim.Adam(params)\n"
    unsafe = rename(source, "torch.optim.Adam", "torch_npu.optim.NpuFusedAdam", safe=False, add_imports=("import torch_npu",))
    result = fix_all(source, [unsafe])
    assert result.text == source and not result.changed
    assert [skip.reason for skip in result.skipped] == ["unsafe fix: apply it with --unsafe (or one by one in the editor)"]
    assert fix_all(source, [unsafe], unsafe=True).text == "import torch\nimport torch_npu\noptimizer = torch_npu.optim.NpuFusedAdam(params)\n"


def test_data_parallel_becomes_distributed_data_parallel_when_unsafe_is_asked_for():
    source = "import torch\nmodel = torch.nn.DataParallel(model, device_ids=[0, 1])\n"
    data_parallel = rewrite(
        source,
        "torch.nn.DataParallel(model, device_ids=[0, 1])",
        "call-arguments",
        {"callee": "torch.nn.parallel.DistributedDataParallel", "drop_keywords": ["device_ids", "output_device"], "keep_positional": 1},
        safe=False,
    )
    assert fix_all(source, [data_parallel], unsafe=True).text == "import torch\nmodel = torch.nn.parallel.DistributedDataParallel(model)\n"


def test_affinity_fixes_with_imports_merged_and_apex_import_removed():
    source = (
        "import torch\nimport torch.nn.functional as F\nfrom apex.optimizers import FusedAdam\n\n"
        "y = F.gelu(x)\noptimizer = FusedAdam(model.parameters())\n"
    )
    findings = [
        rewrite(source, "F.gelu(x)", "call-arguments", {"callee": "torch_npu.fast_gelu"}, safe=False, add_imports=("import torch_npu",)),
        rename(source, "FusedAdam", "torch_npu.optim.NpuFusedAdam", occurrence=2, safe=False, add_imports=("import torch_npu",), remove_imports=("FusedAdam",)),
    ]
    assert fix_all(source, findings, unsafe=True).text == (
        "import torch\nimport torch.nn.functional as F\nimport torch_npu\n\n"
        "y = torch_npu.fast_gelu(x)\noptimizer = torch_npu.optim.NpuFusedAdam(model.parameters())\n"
    )


def test_a_suppressed_line_is_never_touched():
    source = "torch.cuda.init()  # ascend-migrate: ignore[NPU101]\ntorch.cuda.init()\n"
    findings = [rename(source, "torch.cuda", "torch.npu"), rename(source, "torch.cuda", "torch.npu", occurrence=2)]
    result = fix_all(source, findings)
    assert result.text == "torch.cuda.init()  # ascend-migrate: ignore[NPU101]\ntorch.npu.init()\n"
    assert [skip.reason for skip in result.skipped] == ["line 1 is suppressed with '# ascend-migrate: ignore'"]


def test_overlapping_fixes_apply_the_first_and_report_the_second():
    source = "torch.cuda.amp.autocast()\n"
    first = rename(source, "torch.cuda.amp.autocast", "torch.npu.amp.autocast")
    second = rename(source, "torch.cuda", "torch.npu")
    result = fix_all(source, [first, second])
    assert result.text == "torch.npu.amp.autocast()\n"
    assert result.skipped[0].reason == "overlaps the fix for NPU101 at line 1; run fix again to apply it"


def test_identical_edits_from_two_findings_apply_once():
    source = "x.cuda()\n"
    assert fix_all(source, [rename(source, "cuda", "npu"), rename(source, "cuda", "npu")]).text == "x.npu()\n"


def test_a_fix_that_would_break_the_code_is_dropped_and_reported():
    source = "a = torch.cuda.init()\nb = x.cuda()\n"
    broken = finding(span_of(source, "torch.cuda.init()"), Fix("broken", True, (TextEdit(*span_of(source, "torch.cuda.init()"), "torch.npu.init("),)))
    good = rename(source, "cuda", "npu", occurrence=2)
    result = fix_all(source, [broken, good])
    assert result.text == "a = torch.cuda.init()\nb = x.npu()\n"
    assert [(skip.finding.line, skip.reason) for skip in result.skipped] == [(1, "the fixed code would not parse; fix this line by hand")]


def test_a_file_that_does_not_parse_is_left_alone():
    source = "def broken(:\n    torch.cuda.init()\n"
    result = fix_all(source, [rename(source, "torch.cuda", "torch.npu")])
    assert result.text == source
    assert result.skipped[0].reason.startswith("the file does not parse (line 1)")


def test_a_fix_whose_data_does_not_fit_is_skipped_with_its_reason():
    source = "x = 1\n"
    bad = rewrite(source, "1", "call-arguments", {})
    assert fix_all(source, [bad]).skipped[0].reason == "the text at line 1 column 5 is not a call: '1'"


def test_fixing_the_fixed_text_again_changes_nothing():
    result = fix_all(NPU_SCRIPT, npu_findings(NPU_SCRIPT))
    # The same fixes, located in the fixed text where the old values would be: they no longer match.
    again = [
        rename(result.text, "ASCEND_RT_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"),
        rename(result.text, "npu", "npu"),
        rename(result.text, "npu", "npu", occurrence=2, add_imports=("import torch_npu",)),
    ]
    second = fix_all(result.text, again)
    assert second.text == result.text and not second.changed


def test_argument_fixes_on_one_call_merge_into_one_rewrite():
    source = 'x = torch.zeros(3, out=buffer, device="cuda", requires_grad=True)\n'
    call = 'torch.zeros(3, out=buffer, device="cuda", requires_grad=True)'
    renamed = rename(source, "torch.zeros", "mint.zeros", add_imports=("from mindspore import mint",))
    renamed = finding(
        (renamed.line, renamed.column, renamed.end_line, renamed.end_column),
        Fix(renamed.fix.title, True, renamed.fix.edits, CallArguments(span_of(source, call), drop_keywords=("out",)), renamed.fix.add_imports),
    )
    drop_device = rewrite(source, call, "call-arguments", {"drop_keywords": ["device"]})
    drop_grad = rewrite(source, call, "call-arguments", {"drop_keywords": ["requires_grad"]})
    result = fix_all(source, [renamed, drop_device, drop_grad])
    assert result.text == "from mindspore import mint\nx = mint.zeros(3)\n"
    assert len(result.applied) == 3 and result.skipped == ()


def test_an_import_only_fix_is_listed_under_its_own_code():
    source = "import torch\nx = 1\n"
    add_torch_npu = finding((1, 8, 1, 13), Fix("Add `import torch_npu`", True, add_imports=("import torch_npu",)), code="NPU101")
    result = fix_all(source, [add_torch_npu])
    assert result.text == "import torch\nimport torch_npu\nx = 1\n"
    assert [(change.line, change.code, change.title, change.after) for change in result.changes] == [
        (2, "NPU101", "Add `import torch_npu`", "import torch_npu")
    ]


def test_unicode_before_a_rewritten_call_keeps_columns_right():
    source = 'label = "é"; x = torch.add(a, b, out=c)\n'
    drop_out = rewrite(source, "torch.add(a, b, out=c)", "call-arguments", {"drop_keywords": ["out"]})
    assert fix_all(source, [drop_out]).text == 'label = "é"; x = torch.add(a, b)\n'


def test_old_mac_line_breaks_are_kept_for_added_imports():
    source = "import torch\rtorch.cuda.init()\r"
    result = fix_all(source, [rename(source, "torch.cuda", "torch.npu", add_imports=("import torch_npu",))])
    assert result.text == "import torch\rimport torch_npu\rtorch.npu.init()\r"


def test_code_nested_too_deeply_to_parse_is_left_alone():
    source = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\ntorch.cuda.init()\n"
    result = fix_all(source, [rename(source, "torch.cuda", "torch.npu")])
    assert result.text == source
    assert result.skipped[0].reason.startswith("the file does not parse")
