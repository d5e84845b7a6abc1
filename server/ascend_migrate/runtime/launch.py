"""Starting the child that runs the user's program (parent side, no torch): the command line, the timeout."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.runtime.report import RunOutcome, read_observations

SERVER_DIRECTORY = str(Path(__file__).resolve().parents[2])  # holds the ascend_migrate package
_PYTHON = re.compile(r"python[0-9.]*(\.exe)?$")


class ProgramError(ValueError):
    """The program after `--` cannot be run as given (a usage error, exit 2)."""


@dataclass(frozen=True)
class Program:
    interpreter: str
    argv: list[str]  # sys.argv as the program sees it (argv[0]: the script, or the module's name)
    module: str | None = None


def parse_program(words: list[str]) -> Program:
    """`python SCRIPT ARGS...` or `python -m MODULE ARGS...` (any python interpreter; `python` means this one)."""
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise ProgramError("no program to run: give `-- python SCRIPT [ARGS...]` or `-- python -m MODULE [ARGS...]`")
    interpreter, rest = words[0], words[1:]
    if not _PYTHON.search(os.path.basename(interpreter)):
        raise ProgramError(f"the program must start with a python interpreter (python SCRIPT ...), not {interpreter!r}")
    if os.sep in interpreter:
        if not os.access(interpreter, os.X_OK):
            raise ProgramError(f"{interpreter}: no such interpreter")
    else:
        interpreter = sys.executable  # `python`, `python3`: the interpreter ascend-migrate runs in
    if not rest:
        raise ProgramError("no script after the interpreter: give `python SCRIPT` or `python -m MODULE`")
    if rest[0] == "-m":
        if len(rest) < 2:
            raise ProgramError("-m needs a module name")
        return Program(interpreter, [rest[1], *rest[2:]], module=rest[1])
    if rest[0].startswith("-"):
        raise ProgramError(f"interpreter option {rest[0]} is not supported: give `python SCRIPT` or `python -m MODULE`")
    if not Path(rest[0]).is_file():
        raise ProgramError(f"{rest[0]}: no such script")
    return Program(interpreter, [str(Path(rest[0]).resolve()), *rest[1:]])


@dataclass
class ChildResult:
    records: list[dict]
    outcome: RunOutcome
    timed_out: bool
    returncode: int | None


def run_child(program: Program, *, steps: int | None, timeout: float | None, unsupported: list[str],
              quiet_stdout: bool, restrictions: list[dict] | None = None) -> ChildResult:
    """Runs the program under the emulation in a child process; its output goes to ours (stdout to stderr when
    the report owns stdout)."""
    with tempfile.TemporaryDirectory(prefix="ascend-migrate-run-") as directory:
        observations = Path(directory) / "observations.jsonl"
        plan_path = Path(directory) / "plan.json"
        plan = {"argv": program.argv, "module": program.module, "observations": str(observations), "steps": steps,
                "unsupported": unsupported, "restrictions": restrictions or []}
        plan_path.write_text(json.dumps(plan), encoding="utf-8")
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, (SERVER_DIRECTORY, environment.get("PYTHONPATH"))))
        command = [program.interpreter, "-m", "ascend_migrate.runtime.child", str(plan_path)]
        process = subprocess.Popen(command, env=environment, stdin=None,
                                   stdout=sys.stderr.fileno() if quiet_stdout else None, start_new_session=True)
        timed_out = False
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(process)
            returncode = None
        except KeyboardInterrupt:
            _kill(process)
            raise
        records, outcome = read_observations(observations)
    return ChildResult(records, outcome, timed_out, returncode)


def _kill(process: subprocess.Popen, grace: float = 5.0) -> None:
    """SIGTERM first (the child then writes its shape records and its end), SIGKILL after `grace` seconds;
    to the whole process group: the program's own children too (DataLoader workers)."""
    import signal

    for signal_number, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
        try:
            os.killpg(process.pid, signal_number)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
