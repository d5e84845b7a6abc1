"""Positions and edits: applying edits to text exactly, and refusing edits that overlap."""

import pytest

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes import OverlappingEditsError, apply_edits
from ascend_migrate.fixes.text import LineIndex, diff_edits, newline_of


def test_edits_apply_in_text_order_whatever_order_they_come_in():
    source = "x = torch.cuda.synchronize()\ny = a.cuda()\n"
    edits = [TextEdit(2, 7, 2, 11, "npu"), TextEdit(1, 11, 1, 15, "npu")]
    assert apply_edits(source, edits) == "x = torch.npu.synchronize()\ny = a.npu()\n"


def test_columns_count_characters_not_bytes():
    source = 'print("é"); torch.cuda.init()\n'
    assert apply_edits(source, [TextEdit(1, 19, 1, 23, "npu")]) == 'print("é"); torch.npu.init()\n'


def test_crlf_line_breaks_count_as_one_break_and_stay():
    source = "import torch\r\ntorch.cuda.init()\r\n"
    assert apply_edits(source, [TextEdit(2, 7, 2, 11, "npu")]) == "import torch\r\ntorch.npu.init()\r\n"


def test_an_edit_may_span_lines_and_delete_a_line_break():
    source = "import amp_C\nimport torch\n"
    assert apply_edits(source, [TextEdit(1, 1, 2, 1, "")]) == "import torch\n"


def test_identical_duplicate_edits_apply_once():
    source = "a.cuda()\n"
    edit = TextEdit(1, 3, 1, 7, "npu")
    assert apply_edits(source, [edit, edit]) == "a.npu()\n"


def test_overlapping_edits_are_rejected_with_both_positions():
    with pytest.raises(OverlappingEditsError) as error:
        apply_edits("torch.cuda.init()\n", [TextEdit(1, 1, 1, 11, "torch.npu"), TextEdit(1, 7, 1, 11, "xpu")])
    assert str(error.value) == "the edit at line 1 column 7 to line 1 column 11 overlaps the edit at line 1 column 1 to line 1 column 11"


def test_two_different_insertions_at_one_point_are_rejected():
    with pytest.raises(OverlappingEditsError):
        apply_edits("x\n", [TextEdit(1, 1, 1, 1, "a"), TextEdit(1, 1, 1, 1, "b")])


def test_an_insertion_where_a_replacement_ends_is_not_an_overlap():
    assert apply_edits("ab\n", [TextEdit(1, 1, 1, 2, "A"), TextEdit(1, 2, 1, 2, "-")]) == "A-b\n"


def test_edits_outside_the_text_are_rejected_clearly():
    with pytest.raises(ValueError, match="column 9 is outside line 1 \\(3 characters\\)"):
        apply_edits("abc\n", [TextEdit(1, 9, 1, 10, "x")])
    with pytest.raises(ValueError, match="line 5 is outside the text \\(2 lines\\)"):
        apply_edits("abc\n", [TextEdit(5, 1, 5, 1, "x")])


def test_line_index_maps_positions_both_ways():
    index = LineIndex("ab\r\ncd\re\n")
    assert index.line_count == 4
    assert [index.line_text(line) for line in (1, 2, 3, 4)] == ["ab", "cd", "e", ""]
    assert index.offset(2, 2) == 5
    assert index.position(5) == (2, 2)


def test_newline_style_is_the_first_line_break():
    assert newline_of("a\r\nb\n") == "\r\n"
    assert newline_of("a") == "\n"


def test_diff_edits_change_only_the_tokens_that_differ():
    old = "Dropout(p=0.2, inplace=False)"
    new = "Dropout(keep_prob=0.8, inplace=False)"
    assert diff_edits(old, new, 3, 5) == [TextEdit(3, 13, 3, 14, "keep_prob"), TextEdit(3, 15, 3, 18, "0.8")]


def test_diff_edits_of_equal_texts_are_empty():
    assert diff_edits("f(a)", "f(a)", 1, 1) == []
