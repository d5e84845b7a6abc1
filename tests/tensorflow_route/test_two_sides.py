"""tools/two_sides.py: what the TensorFlow battery and the page check share (their `run` command, the error text of
a refused call, the seeding of a side's random draws)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tools import tensorflow_battery, tensorflow_page_check
from tools.two_sides import command_line, error_text, seed


def test_error_text_takes_the_first_line_with_a_letter_or_a_preferred_one():
    error = RuntimeError("\n----\nFor 'Abs', the input is refused\n  on CPU: no kernel for int8\n")
    assert error_text(error, 200) == "RuntimeError: For 'Abs', the input is refused"
    assert error_text(error, 200, ("on CPU",)) == "RuntimeError: on CPU: no kernel for int8"
    assert error_text(error, 7) == "RuntimeError: For 'Ab"
    assert error_text(ValueError(""), 10) == "ValueError: "


def test_both_tools_take_the_shared_run_command(tmp_path, monkeypatch):
    monkeypatch.setattr(tensorflow_battery, "run", lambda side, names: {"side": side, "names": names})
    monkeypatch.setattr(tensorflow_battery, "_entries", lambda knowledge_base: [])
    assert tensorflow_battery.main(["run", "--side", "mindspore", "--output", str(tmp_path / "out.json")]) == 0
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == '{"side": "mindspore", "names": []}'
    # the page check's MindSpore side reads what the TensorFlow side wrote
    assert tensorflow_page_check.main(["run", "--side", "mindspore", "--output", str(tmp_path)]) == 2
    for tool in (tensorflow_battery, tensorflow_page_check):
        with pytest.raises(SystemExit):
            tool.main(["run", "--side", "torch", "--output", str(tmp_path)])


def test_the_run_command_line():
    parser, commands = command_line("a check")
    commands.add_parser("compare")
    arguments = parser.parse_args(["run", "--side", "tensorflow", "--output", "/tmp/x"])
    assert (arguments.command, arguments.side, arguments.output) == ("run", "tensorflow", Path("/tmp/x"))


def test_a_seeded_mindspore_side_draws_the_same_numbers_each_time():
    numpy = pytest.importorskip("numpy")
    seed("mindspore")  # MindSpore's initializers take their seeds from numpy's global generator
    first = numpy.random.randint(0, 1 << 30, 4)
    seed("mindspore")
    assert (numpy.random.randint(0, 1 << 30, 4) == first).all()
