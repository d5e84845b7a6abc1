"""Fixing many fixes costs work in proportion to them, wherever they are (no timing: the work is counted).

`ascend_migrate.fixes.work.counting()` counts whole-text parses, libcst parses and renders, tokens given to
the token diff, and the characters of the change list. Four times the fixes must cost at most about four
times of each, and a constant number of whole-text parses: a per-fix re-parse of the statement or the
file, or a change list that repeats a whole long line per fix, makes these grow with the square of the
fixes. Also pinned: one broken fix among many costs a few parses (not two per fix), a rewrite of one huge
call or import diffs only what changed, and quick fixes of one text parse it once.
"""

from __future__ import annotations

import gc

from fix_builders import finding, rename, rewrite, span_of

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes import apply_edits, edits_for, fix_all
from ascend_migrate.fixes.arguments import node_text, parse_call
from ascend_migrate.fixes.families import rewrite_from_json
from ascend_migrate.fixes.node_diff import rewrite_edits
from ascend_migrate.fixes.text import LineIndex, diff_edits
from ascend_migrate.fixes.work import WorkCount, counting

# One fix each: a call-arguments rewrite (libcst), a device string, a rename that needs `import torch_npu`.
ELEMENTS = ("torch.zeros(2, out=b)", 'torch.device("cuda:0")', "torch.cuda.current_device()")
FIXED = ("torch.zeros(2)", 'torch.device("npu:0")', "torch.npu.current_device()")
SMALL, LARGE = 60, 240


def one_statement(count: int) -> tuple[str, str]:
    """A file whose one statement holds `count` fixable expressions on one line, and its fixed text."""
    source = "import torch\n\nvalues = [" + ", ".join(ELEMENTS[number % 3] for number in range(count)) + "]\n"
    fixed = "import torch\nimport torch_npu\n\nvalues = [" + ", ".join(FIXED[number % 3] for number in range(count)) + "]\n"
    return source, fixed


def many_statements(count: int) -> tuple[str, str]:
    """A file with `count` statements of one fixable expression each, and its fixed text."""
    source = "import torch\n\n" + "".join(f"value_{number} = {ELEMENTS[number % 3]}\n" for number in range(count))
    fixed = "import torch\nimport torch_npu\n\n" + "".join(f"value_{number} = {FIXED[number % 3]}\n" for number in range(count))
    return source, fixed


def findings_for(source: str, count: int) -> list:
    findings = []
    for number in range(count):
        occurrence = number // 3 + 1
        kind = number % 3
        if kind == 0:
            findings.append(rewrite(source, ELEMENTS[0], "call-arguments", {"drop_keywords": ["out"]}, occurrence=occurrence))
        elif kind == 1:
            line, column, _, _ = span_of(source, '"cuda:0"', occurrence)  # a device string: its value's start
            edit = TextEdit(line, column + 1, line, column + 5, "npu")
            findings.append(finding((line, column, line, column + 8), Fix("Replace `cuda` with `npu`", True, (edit,))))
        else:
            findings.append(rename(source, "torch.cuda.current_device", "torch.npu.current_device", occurrence=occurrence,
                                   add_imports=("import torch_npu",)))
    return findings


def fix_counted(layout, count: int) -> WorkCount:
    source, fixed = layout(count)
    with counting() as work:
        result = fix_all(source, findings_for(source, count))
    assert result.text == fixed
    assert len(result.applied) == count and result.skipped == ()
    assert len(result.changes) == count + 1  # one per fix, and the added import
    return work


def assert_linear(small: WorkCount, large: WorkCount) -> None:
    """Four times the fixes: at most 4.5 times the work, and the same number of whole-text parses."""
    assert large.module_parses == small.module_parses <= 3
    for field in ("expression_parses", "expression_parse_characters", "render_characters", "change_characters"):
        assert getattr(small, field) > 0
        assert getattr(large, field) <= 4.5 * getattr(small, field), field


def test_fixes_in_one_statement_on_one_line_cost_linear_work():
    small, large = fix_counted(one_statement, SMALL), fix_counted(one_statement, LARGE)
    assert_linear(small, large)
    assert (small.expression_parses, large.expression_parses) == (SMALL // 3, LARGE // 3)  # each call parsed once


def test_fixes_over_many_statements_cost_linear_work():
    assert_linear(fix_counted(many_statements, SMALL), fix_counted(many_statements, LARGE))


def test_a_long_line_is_shown_around_each_edit_in_the_change_list():
    source, _ = one_statement(30)
    result = fix_all(source, findings_for(source, 30))
    shown = [(change.line, change.before, change.after) for change in result.changes]
    assert shown[:3] == [
        (2, "", "import torch_npu"),
        (3, "values = [torch.zeros(2, out=b), torch.device(\"cuda:0\"), torch.cuda.cu…",
            "values = [torch.zeros(2), torch.device(\"cuda:0\"), torch.cuda.cu…"),
        (3, "…= [torch.zeros(2, out=b), torch.device(\"cuda:0\"), torch.cuda.current_device(), torch…",
            "…= [torch.zeros(2, out=b), torch.device(\"npu:0\"), torch.cuda.current_device(), torch…"),
    ]
    assert shown[-1] == (
        3,
        "…eros(2, out=b), torch.device(\"cuda:0\"), torch.cuda.current_device()]",
        "…eros(2, out=b), torch.device(\"cuda:0\"), torch.npu.current_device()]",
    )


def test_a_line_up_to_the_limit_is_shown_whole_and_one_character_more_is_shortened():
    whole = "values = [" + ", ".join(["x.cuda()"] * 22) + "]  # " + "c" * 7 + "\n"
    assert len(whole) == 241  # 240 characters and the line break
    result = fix_all(whole, [rename(whole, "cuda", "npu", occurrence=number) for number in (1, 22)])
    assert [change.before for change in result.changes] == [whole.rstrip("\n")] * 2
    longer = whole.replace("# ", "# c")
    result = fix_all(longer, [rename(longer, "cuda", "npu", occurrence=number) for number in (1, 22)])
    assert [(change.before, change.after) for change in result.changes] == [
        # 40 characters either side of the edit (`cuda`), cut ends marked
        ("values = [x.cuda(), x.cuda(), x.cuda(), x.cuda(), x.cuda…", "values = [x.npu(), x.cuda(), x.cuda(), x.cuda(), x.cuda…"),
        ("…cuda(), x.cuda(), x.cuda(), x.cuda(), x.cuda()]  # cccccccc", "…cuda(), x.cuda(), x.cuda(), x.cuda(), x.npu()]  # cccccccc"),
    ]


def broken_among(count: int) -> tuple[str, list]:
    """`count` good renames, and in the middle one fix whose edit leaves a bracket open."""
    lines = [f"value_{number} = torch.cuda.current_device()\n" for number in range(count)]
    lines.insert(count // 2, "flag = bool(1)\n")
    source = "import torch\n" + "".join(lines)
    findings = [rename(source, "torch.cuda", "torch.npu", occurrence=number + 1) for number in range(count)]
    broken = span_of(source, "bool(1)")
    findings.append(finding(broken, Fix("broken", True, (TextEdit(*broken, "bool(1"),))))
    return source, findings


def test_one_fix_that_breaks_the_code_costs_a_few_parses_not_two_per_fix():
    parses = {}
    for count in (SMALL, LARGE):
        source, findings = broken_among(count)
        with counting() as work:
            result = fix_all(source, findings)
        assert result.text == source.replace("torch.cuda", "torch.npu")
        assert [(skip.finding.line, skip.reason) for skip in result.skipped] == [
            (count // 2 + 2, "the fixed code would not parse; fix this line by hand")
        ]
        parses[count] = work.module_parses
    # Halving down to the broken fix: two more parses per doubling, whatever the number of good fixes.
    assert parses[LARGE] <= parses[SMALL] + 4
    assert parses[SMALL] <= 20


def test_quick_fixes_of_many_findings_of_one_text_parse_it_once():
    source, _ = many_statements(LARGE)
    findings = findings_for(source, LARGE)
    with counting() as work:
        edits = [edits_for(each.fix, source) for each in findings]
    assert all(edits)
    assert work.module_parses <= 1
    assert work.expression_parses == LARGE // 3


def huge_call(count: int) -> tuple[str, str]:
    """One call whose first argument is a `count`-element literal, and the call's text."""
    call = "torch.logcumsumexp(torch.tensor([" + ", ".join(f"{number}.5" for number in range(count)) + "]), dim=0)"
    return f"import torch\n\nx = {call}\n", call


def test_a_rewrite_of_one_huge_call_diffs_only_what_changed():
    diffed = []
    for count in (500, 2000):
        source, call = huge_call(count)
        fix = rewrite(source, call, "call-arguments", {"callee": "mindspore.ops.logcumsumexp", "rename_keywords": {"dim": "axis"}},
                      add_imports=("import mindspore",))
        with counting() as work:
            result = fix_all(source, [fix])
        assert result.text == "import torch\nimport mindspore\n\nx = " + call.replace("torch.logcumsumexp", "mindspore.ops.logcumsumexp").replace("dim=0", "axis=0") + "\n"
        assert [(edit.line, edit.column, edit.end_column, edit.new_text) for edit in result.edits] == [
            (3, 5, 10, "mindspore.ops"), (3, len(call) - 1, len(call) + 2, "axis"), (2, 1, 1, "import mindspore\n")
        ]
        assert work.expression_parses == 2  # the call, and the new callee
        diffed.append(work.diff_tokens)
    # The token diff sees the callee and the keyword, not the literal: the same tokens at either size.
    assert diffed[0] == diffed[1] < 40


REWRITES = [  # (call text, call-arguments of the rewrite): the shapes the engine asks for
    ("torch.clamp(x, min=0, max = 6)", {"rename_keywords": {"min": "min_value", "max": "max_value"}}),
    ('torch.zeros(3, 4, device="cuda", dtype=torch.float32)', {"drop_keywords": ["device"]}),
    ("torch.add(a, b, out=c)", {"drop_keywords": ["out"], "callee": "mint.add"}),
    ("torch.ones(\n    16,  # rows\n    requires_grad=True,\n    pin_memory=True,\n)", {"drop_keywords": ["requires_grad", "pin_memory"]}),
    ("nn.BatchNorm2d(\n    64,\n    affine=True,\n)", {"default_keywords": {"momentum": "0.9"}, "positions": {"momentum": 2}}),
    ("nn.Dropout(0.2)", {"complement_keywords": {"p": "keep_prob"}, "positions": {"p": 0}, "callee": "nn.Dropout"}),
    ("nn.Dropout(p=x * 2)", {"complement_keywords": {"p": "keep_prob"}, "callee": "ms_nn.Dropout"}),
    ("model.eval()", {"method": "set_train", "add_positional": ["False"]}),
    ("nn.DataParallel(model, [0, 1], 0, dim=0)", {"drop_keywords": ["device_ids", "output_device", "dim"], "keep_positional": 1,
                                                  "callee": "nn.parallel.DistributedDataParallel"}),
    ("F.gelu(x, approximate='tanh')", {"callee": "torch_npu.fast_gelu", "drop_keywords": ["approximate"]}),
    ("torch.cat([a, b], dim=0, out=buffer)", {"rename_keywords": {"dim": "axis"}, "drop_keywords": ["out"]}),
]


def test_diffing_only_between_kept_subtrees_gives_edits_as_small_as_the_token_diff():
    for text, arguments in REWRITES:
        index = LineIndex(text)
        span = (1, 1, *index.position(len(text)))
        call = parse_call(index, span)[0]
        rewritten = rewrite_from_json("call-arguments", {"call": span, **arguments}).rewritten(call)
        between_kept = rewrite_edits(call, rewritten, text, 1, 1, large=0)
        whole = diff_edits(text, node_text(rewritten), 1, 1)
        assert apply_edits(text, between_kept) == apply_edits(text, whole) == node_text(rewritten)
        assert edited_characters(index, between_kept) <= edited_characters(index, whole), text


def edited_characters(index: LineIndex, edits: list) -> int:
    return sum(end - start + len(edit.new_text) for edit in edits for start, end in [index.span(edit)])


def test_removing_one_name_from_a_huge_import_diffs_only_that_name():
    diffed = []
    for count in (300, 1200):
        names = ", ".join(f"name_{number}" for number in range(count))
        source = f"from apex.optimizers import (FusedAdam, {names})\n\noptimizer = torch_npu.optim.NpuFusedAdam(params)\n"
        removal = finding((3, 1, 3, 10), Fix("Remove apex's FusedAdam import", True, remove_imports=("FusedAdam",)))
        with counting() as work:
            result = fix_all(source, [removal])
        assert result.text == source.replace("FusedAdam, name_0", "name_0")
        diffed.append(work.diff_tokens)
    assert diffed[0] == diffed[1] < 20


def test_fixing_gives_the_cyclic_collector_back_as_it_found_it():
    source, _ = many_statements(30)
    broken_source, broken_findings = broken_among(30)
    assert gc.isenabled()
    fix_all(source, findings_for(source, 30))
    fix_all(broken_source, broken_findings)
    fix_all("def broken(:\n", [])
    assert edits_for(findings_for(source, 30)[2].fix, source)
    assert gc.isenabled()
    gc.disable()
    try:
        fix_all(source, findings_for(source, 30))
        assert not gc.isenabled()
    finally:
        gc.enable()
