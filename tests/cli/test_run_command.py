"""`ascend-migrate run` without torch: usage errors say what is wrong (exit 2), and the parent never imports torch."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def _run(*arguments: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascend_migrate", "run", *arguments], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((), "no program to run"),
        (("--", "ls", "-l"), "must start with a python interpreter"),
        (("--", "python"), "no script after the interpreter"),
        (("--", "python", "missing.py"), "missing.py: no such script"),
        (("--", "python", "-c", "pass"), "interpreter option -c is not supported"),
        (("--", "python", "-m"), "-m needs a module name"),
        (("--steps", "0", "--", "python", "x.py"), "expected a positive whole number"),
        (("--timeout", "soon", "--", "python", "x.py"), "expected a positive number of seconds"),
        (("--shape-report", "nowhere", "--", "python", "x.py"), "--shape-report nowhere: not a directory"),
    ],
)
def test_usage_errors_exit_2_with_a_message(tmp_path, arguments, message):
    (tmp_path / "x.py").write_text("pass\n", encoding="utf-8")
    completed = _run(*arguments, cwd=tmp_path)
    assert completed.returncode == 2
    assert message in completed.stderr
    assert "Traceback" not in completed.stderr
    assert not (tmp_path / "msft_dynamic_shape_analysis_report.csv").exists()


def _interpreter_without_torch() -> str | None:
    import os

    for interpreter in (sys.executable, os.path.join(sys.base_prefix, "bin", "python3")):
        probe = subprocess.run([interpreter, "-c", "import torch"], capture_output=True, timeout=60)
        if probe.returncode != 0:
            return interpreter
    return None


def test_an_interpreter_without_torch_is_a_usage_error(tmp_path):
    interpreter = _interpreter_without_torch()
    if interpreter is None:
        pytest.skip("every interpreter here has torch")
    (tmp_path / "train.py").write_text("print('never runs')\n", encoding="utf-8")
    completed = _run("--", interpreter, "train.py", cwd=tmp_path)
    assert completed.returncode == 2
    assert "cannot import torch" in completed.stderr and "never runs" not in completed.stdout


def test_the_command_and_the_parent_side_never_import_torch():
    code = textwrap.dedent("""
        import sys
        import ascend_migrate.cli, ascend_migrate.commands.run
        import ascend_migrate.runtime.launch, ascend_migrate.runtime.report, ascend_migrate.runtime.plan
        import ascend_migrate.runtime.surface
        ascend_migrate.cli.build_parser()
        print(sorted(name for name in sys.modules if name == "torch" or name.startswith("torch.")))
    """)
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "[]"
