"""`.gitignore` matching: the same answers as git itself on realistic patterns, and linear time on hostile ones.

git is the reference: `git check-ignore --no-index --stdin` is asked about every path at once, in a real
repository holding the same .gitignore files, and the walk's matcher must agree path for path.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ascend_migrate.gitignore import GitignoreTree, match_segment, parse_gitignore

ROOT_GITIGNORE = """\
# build output and environments
build/
dist
*.egg-info/
__pycache__/
*.py[cod]
.venv
/checkpoints
logs/**/*.py
!logs/keep/**
data/**/raw
docs/*.py
\\#hash.py
\\!bang.py
trailing.py   
escaped\\ .py
[abc]_model.py
model_[!0-9].py
a?c.py
**/generated/**
nested/**/deep.py
only/**
!only/keep.py
"""
NESTED_GITIGNORE = """\
*.py
!keep.py
sub/
"""

PATHS = [
    ("train.py", False), ("build", True), ("src/build", True), ("src/build.py", False), ("dist", True),
    ("dist", False), ("pkg/dist", False), ("x.egg-info", True), ("x.egg-info", False), ("mod.pyc", False),
    ("mod.py", False), (".venv", True), ("src/.venv", True), ("checkpoints", True), ("src/checkpoints", True),
    ("logs/a/b/c.py", False), ("logs/c.py", False), ("logs/keep/c.py", False), ("data/x/y/raw", True),
    ("data/raw", True), ("docs/conf.py", False), ("docs/api/conf.py", False), ("#hash.py", False),
    ("!bang.py", False), ("trailing.py", False), ("escaped .py", False), ("a_model.py", False),
    ("d_model.py", False), ("model_x.py", False), ("model_1.py", False), ("abc.py", False), ("ac.py", False),
    # `generated/` itself is left out: `git check-ignore` calls a directory matched by `dir/**` ignored, while
    # git's own walk does not (so `!only/keep.py` can re-include a file, as git status shows).
    ("src/generated/x/y.py", False), ("only/x.py", False), ("only/keep.py", False), ("nested/deep.py", False), ("nested/a/b/deep.py", False),
    ("vendor/x.py", False), ("vendor/keep.py", False), ("vendor/sub", True), ("vendor/other/keep.py", False),
]


def our_answers(tree: GitignoreTree) -> dict[str, bool]:
    return {f"{path}{'/' if is_directory else ''}": tree.ignored(path, is_directory) for path, is_directory in PATHS}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is the reference and is not installed")
def test_the_walk_ignores_exactly_what_git_ignores(tmp_path):
    (tmp_path / ".gitignore").write_text(ROOT_GITIGNORE, encoding="utf-8")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / ".gitignore").write_text(NESTED_GITIGNORE, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    queries = [f"{path}{'/' if is_directory else ''}" for path, is_directory in PATHS]
    completed = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-v", "-n"], cwd=tmp_path,
                               input="\n".join(queries) + "\n", capture_output=True, text=True)
    git_answers = {}
    for line in completed.stdout.splitlines():
        source, path = line.split("\t")
        # "-n" lists unmatched paths with an empty source; a match of a "!" line means "not ignored".
        pattern = source.split(":", 2)[2] if source.strip() != "::" else ""
        git_answers[path] = bool(pattern) and not pattern.startswith("!")
    tree = GitignoreTree()
    tree.add("", ROOT_GITIGNORE.splitlines())
    tree.add("vendor", NESTED_GITIGNORE.splitlines())
    assert our_answers(tree) == git_answers


def test_a_pattern_of_many_double_stars_is_matched_in_linear_time():
    """Twelve `**/a` segments against a 30-deep path took 40 s through a regular expression (exponential
    backtracking); counted here in match_segment calls, which a regex engine's backtracking would multiply."""
    calls = 0
    original = match_segment

    def counting(pattern: str, name: str) -> bool:
        nonlocal calls
        calls += 1
        return original(pattern, name)

    import ascend_migrate.gitignore as gitignore

    gitignore.match_segment = counting
    try:
        (pattern,) = parse_gitignore(["/".join(["**/a"] * 14) + "/b"])
        assert not pattern.matches(["a"] * 30 + ["c.py"], False)
    finally:
        gitignore.match_segment = original
    assert calls <= len(pattern.segments) * 31


@pytest.mark.parametrize("pattern, name, expected", [
    ("*a*a*a*a*a*a*a*a*a*a*b", "a" * 200, False),  # polynomial blow-up for a backtracking matcher
    ("*.py", "train.py", True), ("*.py", "train.pyc", False), ("t?ain.py", "train.py", True),
    ("[!t]rain.py", "train.py", False), ("[a-c]x", "bx", True), ("[a-c]x", "dx", False), ("\\*x", "*x", True),
    ("\\*x", "ax", False), ("[x", "[x", True), ("*", "", True), ("", "", True), ("a*", "a", True),
])
def test_one_segment(pattern, name, expected):
    assert match_segment(pattern, name) is expected
