"""The one atomic writer: whole or nothing, the file's mode kept, no temporary file left behind."""

import os
import stat

import pytest

from ascend_migrate.files import split_lines, split_lines_keeping_ends, write_atomically


def _leftovers(directory):
    return sorted(name for name in os.listdir(directory) if name.endswith(".tmp"))


def test_an_existing_file_is_replaced_and_keeps_its_mode(tmp_path):
    target = tmp_path / "train.py"
    target.write_text("old\n")
    target.chmod(0o751)
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert _leftovers(tmp_path) == []


def test_a_new_file_gets_the_mode_of_any_new_file(tmp_path):
    previous = os.umask(0o027)
    try:
        write_atomically(tmp_path / "reports" / "scan.json", [b"{", b"}"])
    finally:
        os.umask(previous)
    written = tmp_path / "reports" / "scan.json"
    assert written.read_bytes() == b"{}"
    assert stat.S_IMODE(written.stat().st_mode) == 0o640


def test_a_failure_while_writing_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "train.py"
    target.write_text("old\n")

    def parts():
        yield b"half of the new"
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, parts())
    assert target.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_a_special_file_is_written_into_not_replaced(tmp_path):
    write_atomically(tmp_path.__class__(os.devnull), b"discarded")
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def test_lines_end_only_where_python_ends_them():
    text = "a\r\nb\x0cc\rd\u2028e\nf"
    assert split_lines(text) == ["a", "b\x0cc", "d\u2028e", "f"]
    assert split_lines_keeping_ends(text) == ["a\r\n", "b\x0cc\r", "d\u2028e\n", "f"]
    assert "".join(split_lines_keeping_ends(text)) == text
    assert split_lines("a\n") == ["a", ""] and split_lines_keeping_ends("a\n") == ["a\n", ""]


def test_a_given_mode_is_the_mode_whatever_the_umask_and_the_old_file(tmp_path):
    cache = tmp_path / "kb.pickle"
    cache.write_bytes(b"old")
    cache.chmod(0o664)
    previous = os.umask(0o002)
    try:
        write_atomically(cache, b"new", mode=0o600)
    finally:
        os.umask(previous)
    assert cache.read_bytes() == b"new" and stat.S_IMODE(cache.stat().st_mode) == 0o600


def test_a_file_changed_meanwhile_is_left_alone(tmp_path):
    target = tmp_path / "train.py"
    target.write_text("old\n")

    def someone_saves_an_edit():
        target.write_text("the user's edit\n")
        return False

    assert write_atomically(target, b"fixed\n", still_current=someone_saves_an_edit) is False
    assert target.read_text() == "the user's edit\n"
    assert _leftovers(tmp_path) == []
    assert write_atomically(target, b"fixed\n", still_current=lambda: True) is True
    assert target.read_text() == "fixed\n"
