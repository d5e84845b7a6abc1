"""The mint era's `builds` check (line_completion.py) on small pure-Python scripts: the mark is written only when the
model's statement ran to its end, wherever the script stops. No mindspore needed."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tests.execution.line_completion import mark, run

BUILDS = "model = Net("  # as a PROGRAMS row names it: the start of the line

# A script that does everything in main(), as most corpus programs do. STOP is replaced by `raise RuntimeError(...)` at
# one of three places: before the model, inside its constructor, after it.
IN_MAIN = """\
class Net:
    def __init__(self):
        self.layers = [1, 2]  # STOP-constructor


def main():
    data = [3, 4]  # STOP-before
    model = Net()
    print(len(model.layers) + len(data))  # STOP-after


if __name__ == "__main__":
    main()
"""


def script_stopping(tmp_path: Path, source: str, where: str) -> Path:
    marker = f"  # STOP-{where}"
    lines = [line.replace(marker, "; raise RuntimeError('The kernel Arange unregistered.')") if marker in line
             else re.sub(r"  # STOP-\w+", "", line) for line in source.splitlines()]
    script = tmp_path / "main.py"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return script


def builds_line(script: Path) -> int:
    return next(number for number, line in enumerate(script.read_text().splitlines(), 1) if line.strip().startswith(BUILDS))


def outermost_frame(stderr: str, script: Path) -> int:
    """What the check used to read: the outermost traceback frame in the script."""
    return int(re.findall(rf'File "[^"]*{script.name}", line (\d+)', stderr)[0])


def run_watched(script: Path) -> subprocess.CompletedProcess:
    """The script run under line_completion.run as mint_on_cpu.py runs it, in a fresh interpreter."""
    program = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import line_completion; " \
              f"line_completion.run({str(script)!r}, {builds_line(script)})"
    return subprocess.run([sys.executable, "-c", program], cwd=script.parent, capture_output=True, text=True, timeout=60)


def test_a_stop_before_the_model_in_main_is_caught(tmp_path) -> None:
    script = script_stopping(tmp_path, IN_MAIN, "before")
    result = run_watched(script)
    assert "The kernel Arange unregistered" in result.stderr
    # The outermost frame (the `main()` call at the bottom) lies below the model's line: the old check passed this run.
    assert outermost_frame(result.stderr, script) > builds_line(script)
    assert mark(script, builds_line(script)) not in result.stderr


def test_a_stop_inside_the_model_constructor_is_caught(tmp_path) -> None:
    script = script_stopping(tmp_path, IN_MAIN, "constructor")
    result = run_watched(script)
    assert "The kernel Arange unregistered" in result.stderr
    assert mark(script, builds_line(script)) not in result.stderr


def test_a_stop_after_the_model_is_marked_built(tmp_path) -> None:
    script = script_stopping(tmp_path, IN_MAIN, "after")
    result = run_watched(script)
    assert "The kernel Arange unregistered" in result.stderr
    assert result.stderr.count(mark(script, builds_line(script))) == 1
    # Tracebacks keep the file's line numbers: the stop is reported on the line that raised.
    assert re.search(rf'File "[^"]*main.py", line {builds_line(script) + 1}, in main', result.stderr)


def test_a_caught_failure_of_the_model_is_not_marked_built(tmp_path) -> None:
    script = tmp_path / "main.py"
    script.write_text(textwrap.dedent("""\
        class Net:
            def __init__(self):
                raise RuntimeError("no kernel")


        for attempt in range(3):
            try:
                model = Net()
            except RuntimeError:
                pass
        raise RuntimeError("The kernel Arange unregistered.")
        """), encoding="utf-8")
    result = run_watched(script)
    assert "The kernel Arange unregistered" in result.stderr
    assert mark(script, builds_line(script)) not in result.stderr


def test_a_model_built_in_a_loop_over_several_lines_is_marked_once(tmp_path) -> None:
    script = tmp_path / "main.py"
    script.write_text(textwrap.dedent("""\
        import sys


        class Net:
            def __init__(self, width, depth):
                self.size = width * depth


        models = []
        for width in (1, 2):
            model = Net(
                width,
                depth=3)
            models.append(model)
        print(sys.argv[0].endswith("main.py"), __name__, [model.size for model in models])
        """), encoding="utf-8")
    result = run_watched(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True __main__ [3, 6]\n"
    assert result.stderr.count(mark(script, builds_line(script))) == 1


def test_a_line_that_starts_no_statement_is_a_clear_error(tmp_path) -> None:
    script = tmp_path / "main.py"
    script.write_text("model = Net(\n    1)\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"main.py:2: no statement begins on this line"):
        run(str(script), 2)
