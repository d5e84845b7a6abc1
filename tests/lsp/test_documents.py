"""The document store's line-wise edits and the column conversions, checked against plain string edits."""

from __future__ import annotations

from hypothesis import given, settings, strategies

from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.lsp.documents import Document, Position, line_content, split_lines
from ascend_migrate.lsp.positions import UTF8, UTF16, UTF32, index_at_units, units_before

PIECES = strategies.sampled_from(["a", "b", " ", "\n", "\r", "\r\n", "é", "中", "😀", "\t", "\f"])
TEXTS = strategies.lists(PIECES, max_size=25).map("".join)


def offset(lines: list[str], position: Position) -> int:
    return sum(len(line) for line in lines[:position.line]) + position.character


@strategies.composite
def edits(draw, lines: list[str]):
    def position() -> Position:
        line = draw(strategies.integers(0, len(lines) - 1))
        return Position(line, draw(strategies.integers(0, len(line_content(lines[line])))))

    first, second = sorted([position(), position()], key=lambda item: (item.line, item.character))
    return first, second, draw(TEXTS.filter(lambda text: len(text) <= 8))


@settings(max_examples=150, deadline=None)
@given(TEXTS, strategies.data())
def test_line_wise_changes_equal_string_changes_and_the_line_edit_covers_them(text, data):
    document = Document("file:///t.py", "/t.py", text, 1)
    document.take_pending()
    original = list(document.lines)
    for _ in range(data.draw(strategies.integers(1, 4))):
        start, end, new_text = data.draw(edits(document.lines))
        expected = document.text[:offset(document.lines, start)] + new_text + document.text[offset(document.lines, end):]
        document.apply_change(start, end, new_text)
        assert document.text == expected
        assert document.lines == split_lines(expected)
    edit = document.pending_edit
    assert original[:edit.start_line - 1] == document.lines[:edit.start_line - 1]  # the engine's 1-based lines
    assert original[edit.old_end_line:] == document.lines[edit.new_end_line:]


def test_only_lf_crlf_and_cr_end_lines():
    assert split_lines("a\fb\r\nc\rd\ne\u2028f") == ["a\fb\r\n", "c\r", "d\n", "e\u2028f"]
    assert split_lines("x\n") == ["x\n", ""]


def test_a_carriage_return_meeting_a_line_feed_joins_two_lines():
    document = Document("file:///t.py", "/t.py", "a\r\nb\n", 1)
    document.apply_change(Position(0, 1), Position(1, 0), "\r")  # replace "\r\n" with "\r": still one break
    assert document.lines == ["a\r", "b\n", ""]
    document.apply_change(Position(1, 0), Position(1, 1), "\n")  # "a\r" + "\n": now one CRLF break
    assert document.lines == ["a\r\n", "\n", ""]


def test_changes_give_the_engine_1_based_line_edits_composed_until_taken():
    document = Document("file:///a.py", "/a.py", "zero\none\ntwo\nthree\n", 1)
    # Line 1 (0-based) becomes three lines; the engine counts from 1: line 2 became lines 2..4.
    assert document.apply_change(Position(1, 0), Position(1, 3), "a\nb\nc") == LineEdit(2, 2, 4)
    # Then the last line of the new text (0-based 5, old 0-based 3) is edited.
    assert document.apply_change(Position(5, 0), Position(5, 5), "THREE") == LineEdit(6, 6, 6)
    assert document.take_pending() == (LineEdit(2, 4, 6), True)
    assert document.take_pending() == (None, False)


def test_columns_in_each_encoding():
    line = '    标记 = "🚀中文"; torch.cuda.synchronize()'
    index = line.index("torch")
    assert (units_before(line, index, UTF16), units_before(line, index, UTF8), units_before(line, index, UTF32)) == (17, 27, 16)
    for encoding in (UTF8, UTF16, UTF32):
        assert index_at_units(line, units_before(line, index, encoding), encoding) == index


def test_a_position_inside_a_character_or_past_the_line_is_clamped():
    line = "a😀b"
    assert index_at_units(line, 2, UTF16) == 1  # between the two halves of the surrogate pair
    assert index_at_units(line, 3, UTF8) == 1  # inside the emoji's four bytes
    assert index_at_units(line, 99, UTF16) == 3
    document = Document("file:///t.py", "/t.py", "ab\ncd", 1)
    assert document.position_from_client(0, 7, UTF16) == (Position(0, 2), False)
    assert document.position_from_client(5, 0, UTF16) == (Position(1, 2), False)
    assert document.position_from_client(1, 1, UTF16) == (Position(1, 1), True)
