"""`fix --diff` builds its diff from the edits: the same text as difflib's where difflib aligns well, a small
diff where difflib cannot align (a long file of equal lines), and always one that `patch` applies."""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.files import split_lines_keeping_ends
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.unified_diff import unified_diff

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))


def fixed(source: str, target: str = "npu", unsafe: bool = True):
    return fix_until_stable(source, lambda text: analyze_file(text, "program.py", Settings(target=target)).findings, unsafe)


def difflib_diff(old: str, new: str) -> str:
    def lines(text):
        parts = split_lines_keeping_ends(text)
        return parts if parts[-1] else parts[:-1]

    out = difflib.unified_diff(lines(old), lines(new), fromfile="a/program.py", tofile="b/program.py")
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in out)


def our_diff(result) -> str:
    return "".join(unified_diff(result.source, result.text, result.edits(), "a/program.py", "b/program.py"))


def patched(tmp_path: Path, old: str, diff: str) -> str:
    target = tmp_path / "program.py"
    target.write_bytes(old.encode("utf-8"))
    (tmp_path / "fix.diff").write_bytes(diff.encode("utf-8"))
    subprocess.run(["patch", "-s", "-p1", "-i", "fix.diff"], cwd=tmp_path, check=True)
    return target.read_bytes().decode("utf-8")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
@pytest.mark.parametrize("target", ["npu", "mindspore"])
def test_the_diff_of_an_example_is_difflibs(example, target):
    result = fixed(example.read_text(encoding="utf-8"), target)
    assert our_diff(result) == difflib_diff(result.source, result.text)  # both empty where nothing changed (keras on npu)
    assert result.changed or (target, example.name) == ("npu", "keras_classifier.py")


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs the patch program")
@pytest.mark.parametrize("ending", ["\n", "\r\n"])
@pytest.mark.parametrize("final_break", [True, False])
def test_a_long_file_of_equal_lines_gets_a_small_diff_that_patch_applies(tmp_path, ending, final_break):
    lines = ["import torch", "torch.cuda.synchronize()", *["x = 1"] * 20_000, "torch.cuda.synchronize()"]
    source = ending.join(lines) + (ending if final_break else "")
    result = fixed(source)
    ours = our_diff(result)
    assert ours.count("\n") < 40  # three hunks of a few lines, not 20,000 removed and added
    assert len(difflib_diff(result.source, result.text)) > 100 * len(ours)  # what difflib printed
    assert patched(tmp_path, result.source, ours) == result.text


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs the patch program")
def test_edits_that_join_and_remove_lines_give_a_diff_patch_applies(tmp_path):
    from ascend_migrate.fixes.text import TextEdit, apply_edits

    old = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n" * 3
    edits = [TextEdit(1, 6, 2, 1, " + "), TextEdit(4, 1, 5, 1, ""), TextEdit(15, 1, 15, 6, "E = 5\nF = 6")]
    new = apply_edits(old, edits)
    diff = "".join(unified_diff(old, new, edits, "a/program.py", "b/program.py"))
    assert patched(tmp_path, old, diff) == new
