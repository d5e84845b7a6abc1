"""Properties of fix_all over generated programs, for every fix family.

Programs are built from realistic statements (one per fix family, plus fillers: comments, blocks, unicode
strings, suppressed lines) in random order, with `\\n` or `\\r\\n` line breaks; hypothesmith adds arbitrary
valid programs in front. For every program: the output parses, suppressed lines are unchanged, the
edits are small and explain the output exactly, line breaks keep their style, and fixing again changes
nothing. FIXES_PROPERTY_EXAMPLES raises the example counts (the CI fuzz stage does).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.suppression import suppressed_lines
from ascend_migrate.fixes import apply_edits, fix_all
from ascend_migrate.fixes.families import rewrite_from_json
from ascend_migrate.fixes.syntax import parse
from ascend_migrate.fixes.text import NEWLINE

EXAMPLES = int(os.environ.get("FIXES_PROPERTY_EXAMPLES", "60"))
GENERATED_EXAMPLES = max(5, EXAMPLES // 5)
MARKER = re.compile(r"  # s(\d+)(  # ascend-migrate: ignore)?$")
HEADER_LINES = ['"""A generated training script."""', "from __future__ import annotations", "import os", "import torch", "import torch.nn as nn", "import amp_C"]


def _rename(old: str, new: str, **fields):
    def build(expression: str) -> Fix | None:
        start = expression.find(old)
        if start < 0:
            return None
        return Fix(f"Replace `{old}`", fields.get("safe", True), (TextEdit(1, start + 1, 1, start + 1 + len(old), new),),
                   add_imports=fields.get("add_imports", ()), remove_imports=fields.get("remove_imports", ()))
    return build


def _rewrite(family: str, safe: bool = True, key: str = "call", add_imports: tuple[str, ...] = (), **arguments):
    def build(expression: str) -> Fix | None:
        return Fix(f"{family} fix", safe, rewrite=rewrite_from_json(family, {key: [1, 1, 1, len(expression) + 1], **arguments}), add_imports=add_imports)
    return build


def _string(old: str, new: str):
    """The start of a string literal's value replaced, as the engine's plain edits do."""
    def build(expression: str) -> Fix | None:
        match = re.search(r"[rf]?\"" + re.escape(old), expression)
        if match is None:
            return None
        start = match.end() - len(old)
        return Fix("string", True, (TextEdit(1, start + 1, 1, start + 1 + len(old), new),))
    return build


# (left-hand side, expression, how to build the fix from the expression's current text)
STATEMENTS = [
    ("", "torch.cuda.synchronize()", _rename("torch.cuda", "torch.npu", add_imports=("import torch_npu",))),
    ("batch = ", "batch.cuda(non_blocking=True)", _rename(".cuda(", ".npu(", add_imports=("import torch_npu",))),
    ("on_device = ", "tensor.is_cuda", _rename("is_cuda", "is_npu")),
    ("device = ", 'torch.device("cuda:0")', _string("cuda", "npu")),
    ("device = ", 'torch.device(f"cuda:{rank}")', _string("cuda", "npu")),
    ("backend = ", 'dict(name="nccl")', _string("nccl", "hccl")),
    ("buffer = ", "torch.zeros(3, 4, out=buffer, device=place, requires_grad=True)",
     _rewrite("call-arguments", drop_keywords=["out", "device", "requires_grad", "pin_memory"])),
    ("drop = ", "nn.Dropout(0.25)", _rewrite("call-arguments", callee="mindspore.nn.Dropout", complement_keywords={"p": "keep_prob"}, positions={"p": 0}, add_imports=("import mindspore",))),
    ("norm = ", "nn.BatchNorm2d(64, momentum=0.2)",
     _rewrite("call-arguments", callee="mindspore.nn.BatchNorm2d", complement_keywords={"momentum": "momentum"}, default_keywords={"eps": "1e-05"}, add_imports=("import mindspore",))),
    ("", "model.eval()", _rewrite("call-arguments", method="set_train", add_positional=["False"])),
    ("", "torch.save(model.state_dict(), path)", _rewrite("save-checkpoint", add_imports=("import mindspore",))),
    ("", "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)", _rewrite("clip-grad-fused", safe=False, optimizer="optimizer")),
    ("model = ", "nn.DataParallel(model, device_ids=[0, 1])",
     _rewrite("call-arguments", safe=False, callee="torch.nn.parallel.DistributedDataParallel", keep_positional=1, drop_keywords=["device_ids", "output_device"])),
    ("", "amp_C", lambda expression: Fix("Remove `import amp_C`", True, remove_imports=("amp_C",)) if expression == "amp_C" else None),
]
FILLERS = ["", "# a comment about cuda", "total = 0  # running sum", 'label = "é → ü"', "if total:\n    total += 1", "def helper(value):\n    return value"]


def _program(parts: list[tuple[str, object]], newline: str) -> str:
    lines = list(HEADER_LINES)
    for kind, value in parts:
        if kind == "filler":
            lines.append(value.replace("\n", newline))
        else:
            index, suppressed = value
            left, expression, _ = STATEMENTS[index]
            if expression == "amp_C":  # the import-only fix (remove `import amp_C`) sits on a harmless statement
                expression = "None"
            lines.append(f"{left}{expression}  # s{index}" + ("  # ascend-migrate: ignore" if suppressed else ""))
    return newline.join(lines) + newline


def findings_for(source: str, with_amp_c: bool = True) -> list[Finding]:
    """The findings of every marked statement, built from the statement's current text."""
    findings = []
    for line_number, line in enumerate(NEWLINE.split(source), start=1):
        match = MARKER.search(line)
        if match is None:
            continue
        left, _, build = STATEMENTS[int(match.group(1))]
        start = len(left) if line.startswith(left) else 0
        expression = line[start:match.start()]
        if STATEMENTS[int(match.group(1))][1] == "amp_C":
            fix = build("amp_C") if with_amp_c and "import amp_C" in source else None
        else:
            fix = build(expression)
        if fix is None:
            continue
        fix = _shifted(fix, line_number, start)
        findings.append(Finding("generated.py", line_number, start + 1, line_number, match.start() + 1, "NPU101", "npu-rename",
                                "warning", "api", "message", "", "exact", fix=fix))
    return findings


def _shifted(fix: Fix, line: int, offset: int) -> Fix:
    """`fix`, built for the expression alone on line 1, moved to `line` and `offset` characters right."""
    edits = tuple(TextEdit(line, edit.column + offset, line, edit.end_column + offset, edit.new_text) for edit in fix.edits)
    rewrite = fix.rewrite
    if rewrite is not None:
        rewrite = replace(rewrite, **{name: (line, span[1] + offset, line, span[3] + offset)
                                      for name, span in zip(rewrite.SPAN_FIELDS, rewrite.spans())})
    return replace(fix, edits=edits, rewrite=rewrite)


parts_strategy = st.lists(
    st.one_of(
        st.tuples(st.just("statement"), st.tuples(st.integers(0, len(STATEMENTS) - 1), st.booleans())),
        st.tuples(st.just("filler"), st.sampled_from(FILLERS)),
    ),
    min_size=1,
    max_size=14,
)


def check_properties(source: str, unsafe: bool) -> None:
    findings = findings_for(source)
    result = fix_all(source, findings, unsafe=unsafe)
    parse(result.text)
    unexpected = [(skip.finding.line, skip.reason) for skip in result.skipped if not skip.reason.startswith(("unsafe fix", "line ", "nothing to change"))]
    assert unexpected == []  # no fix broke the code, clashed or failed to fit
    applied_lines = {finding.line for finding in result.applied}
    assert all(finding.line in applied_lines for finding in findings if finding.line not in suppressed_lines(source) and (unsafe or finding.fix.safe)) or any(
        skip.reason.startswith("nothing to change") for skip in result.skipped
    )
    assert apply_edits(source, result.edits) == result.text  # the edits explain the output exactly
    assert all(edit.end_line - edit.line <= 2 for edit in result.edits)  # small edits, never the whole text
    output_lines = NEWLINE.split(result.text)
    for line in sorted(suppressed_lines(source)):
        assert NEWLINE.split(source)[line - 1] in output_lines
    if "\r\n" in source:
        assert "\n" not in result.text.replace("\r\n", "")
    again = fix_all(result.text, findings_for(result.text), unsafe=unsafe)
    assert again.text == result.text, f"second run changed {[(skip.finding.line, skip.reason) for skip in again.skipped]}"


@settings(max_examples=EXAMPLES, deadline=None)
@given(parts=parts_strategy, newline=st.sampled_from(["\n", "\r\n"]), unsafe=st.booleans())
def test_fix_all_properties_over_generated_scripts(parts, newline, unsafe):
    check_properties(_program(parts, newline), unsafe)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles odd but valid code
@settings(max_examples=GENERATED_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=hypothesmith.from_grammar(), parts=parts_strategy)
def test_fix_all_properties_after_arbitrary_python(prefix, parts):
    try:
        parse(prefix)
    except (SyntaxError, ValueError):
        assume(False)
    assume("\r" not in prefix and "\f" not in prefix and "\\\n" not in prefix)
    source = prefix.rstrip("\n") + "\n" + _program(parts, "\n")
    try:
        parse(source)
    except SyntaxError:
        assume(False)  # the prefix ended in a way that glues to the next line
    check_properties(source, unsafe=True)


ENGINE_STATEMENTS = [
    "import torch",
    "import torch.nn as nn",
    "import torch.nn.functional as F",
    "model = nn.Linear(4, 2).cuda()",
    "batch = torch.zeros(3, 4, device='cuda:0', requires_grad=True)",
    "torch.cuda.synchronize()",
    "torch.distributed.init_process_group(backend='nccl')",
    "output = F.gelu(model(batch))",
    "model.eval()",
    "torch.save(model.state_dict(), 'model.pt')",
    "optimizer = torch.optim.AdamW(model.parameters(), lr=0.001)",
    "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)",
    "selected = batch[batch > 0]",
    "torch.cuda.empty_cache()  # ascend-migrate: ignore",
]


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=GENERATED_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    prefix=hypothesmith.from_grammar(),
    statements=st.lists(st.sampled_from(ENGINE_STATEMENTS), min_size=1, max_size=10),
    target=st.sampled_from(["npu", "mindspore"]),
)
def test_engine_findings_fixed_twice_change_nothing(prefix, statements, target):
    """The real engine and knowledge base on generated programs: fixing parses, and the next pass is a no-op."""
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings

    source = prefix.rstrip("\n") + "\n" + "\n".join(["import torch", *statements]) + "\n"
    try:
        parse(source)
    except (SyntaxError, ValueError):
        assume(False)
    settings_for_target = Settings(target=target)
    text = source
    for _ in range(4):
        result = fix_all(text, analyze_file(text, "generated.py", settings_for_target).findings, unsafe=True)
        parse(result.text)
        assert [skip.reason for skip in result.skipped if "would not parse" in skip.reason] == []
        if not result.changed:
            break
        text = result.text
    else:
        raise AssertionError("still changing after 4 passes")
    suppressed = "torch.cuda.empty_cache()  # ascend-migrate: ignore"
    assert text.count(suppressed) == source.count(suppressed)
