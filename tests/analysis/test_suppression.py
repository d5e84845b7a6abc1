"""The one reader of `# ascend-migrate: ignore` comments (scan, fix and the editor's quick fix all use it)."""

import pytest

from ascend_migrate.analysis.suppression import parse_suppression, suppressed_lines


@pytest.mark.parametrize(
    ("line", "code", "covered"),
    [
        ("torch.cuda.init()  # ascend-migrate: ignore", "NPU101", True),
        ("torch.cuda.init()  # ascend-migrate: ignore[]", "NPU101", True),
        ("torch.cuda.init()  #ascend-migrate:ignore[NPU101]  ", "NPU101", True),
        ("torch.cuda.init()  # ascend-migrate: ignore[MS1, NPU1]", "NPU101", True),
        ("torch.cuda.init()  # ascend-migrate: ignore[npu-rename]", "NPU101", True),
        ("torch.cuda.init()  # ascend-migrate: ignore[NPU2]", "NPU101", False),
        ("torch.cuda.init()  # ascend-migrate: ignore[torch.cuda]", "NPU101", False),
    ],
)
def test_a_comment_covers_the_codes_its_selectors_name(line, code, covered):
    suppression = parse_suppression(line)
    assert suppression is not None and suppression.start == line.index("#")
    assert suppression.covers(code) is covered


def test_a_comment_not_at_the_end_of_the_line_is_none():
    assert parse_suppression("x = 1  # ascend-migrate: ignore, because") is None
    assert parse_suppression("x = 1") is None


def test_only_comments_that_name_a_code_protect_their_line_from_import_removal():
    text = "import a  # ascend-migrate: ignore\nimport b  # ascend-migrate: ignore[torch.cuda]\r\nimport c  # ascend-migrate: ignore[TP1]\n"
    assert suppressed_lines(text) == {1, 3}
