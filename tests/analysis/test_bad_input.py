"""Bad input never raises: syntax errors hide nothing else, odd bytes and deep nesting become errors."""

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings


def test_a_syntax_error_in_one_function_hides_nothing_else(run):
    source = """
        import torch

        def broken(:
            torch.cuda.synchronize()

        def fine():
            torch.cuda.synchronize()

        class Trainer:
            def step(self):
                return torch.cuda.is_available()
    """
    result = run(source)
    assert [(f.line, f.api) for f in result.findings] == [(8, "torch.cuda.synchronize"), (12, "torch.cuda.is_available")]
    (error,) = result.errors
    assert error.line == 4
    assert error.message.startswith("syntax error:") and "the rest of the file was analysed" in error.message


def test_an_unclosed_bracket_keeps_the_statements_before_and_after(run):
    source = "import torch\ntorch.cuda.synchronize()\nx = foo(\n\ntorch.cuda.synchronize()\n"
    result = run(source)
    assert [f.line for f in result.findings] == [2, 5]
    assert len(result.errors) == 1


def test_nul_bytes_are_an_error_not_a_crash(run):
    result = run("import torch\ntorch.cuda.synchronize()\nx = 'a\0b'\n")
    assert [f.line for f in result.findings] == [2]
    assert len(result.errors) == 1


def test_deep_nesting_is_reported(run):
    result = run("import torch\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\ntorch.cuda.synchronize()\n")
    assert [f.line for f in result.findings] == [3]
    assert len(result.errors) == 1


def test_a_long_left_deep_expression_is_reported_not_raised(run):
    result = run("import torch\nx = " + " + ".join(["a"] * 30000) + "\ntorch.cuda.synchronize()\n")
    assert [f.line for f in result.findings] == [3]


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_lone_cr_line_endings(run, newline):
    source = newline.join(["import torch", "", "torch.cuda.synchronize()", ""])
    assert [(f.line, f.column) for f in run(source).findings] == [(3, 1)]


def test_form_feed_tabs_and_non_ascii_identifiers(run):
    source = "import torch\n\x0c\ndef 训练(设备):\n\tx = torch.zeros(1, device='cuda')\n"
    assert [(f.line, f.column) for f in run(source).findings] == [(4, 29)]


def test_columns_count_characters_after_chinese_and_emoji(run):
    source = "import torch\nx = '中文🙂'; torch.cuda.synchronize()  # 注释\n"
    (finding,) = run(source).findings
    assert (finding.line, finding.column, finding.end_column) == (2, 12, 34)


def test_empty_and_comment_only_files(run):
    assert run("").findings == [] and run("").errors == []
    assert run("# only a comment\n").findings == []


def test_analyze_file_uses_the_real_knowledge_base_by_default():
    result = analyze_file("x = 1\n", "plain.py", Settings())
    assert result.findings == [] and result.errors == []
