"""Fixing many fixes costs work in proportion to them, wherever they are (no timing: the work is counted).

`ascend_migrate.fixes.work.counting()` counts whole-text parses, libcst parses and renders, and the
characters of the change list. Four times the fixes must cost at most about four times of each, and a
constant number of whole-text parses: a per-fix re-parse of the statement or the file, or a change list
that repeats a whole long line per fix, makes these grow with the square of the fixes.
"""

from __future__ import annotations

from fix_builders import finding, rename, rewrite, span_of

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes import edits_for, fix_all
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
            findings.append(rewrite(source, '"cuda:0"', "string-value", {"old": "cuda", "new": "npu"}, occurrence=occurrence, key="span"))
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
