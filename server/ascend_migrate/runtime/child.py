"""The child process of `ascend-migrate run`: install the watch, run the user's program with runpy, report.

Run as `python -m ascend_migrate.runtime.child PLAN.json`. The plan (written by the parent) holds the program's
argv, the observations file, the step limit and the knowledge base's unsupported names. The last line the child
writes to the observations file is an `end` record: how the program ended. No `end` record means the child
died (killed at the timeout, or a crash in the interpreter).
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import sys
import traceback
from pathlib import Path

WRAPPERS = os.path.join("ascend_migrate", "runtime", "watch.py")
EMULATED_PACKAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emulated")


def main(plan_path: str) -> int:
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    from ascend_migrate.runtime.recorder import Recorder

    recorder = Recorder(Path(plan["observations"]))
    try:
        import torch  # noqa: F401
    except ImportError as error:
        recorder.write({"kind": "end", "outcome": "no-torch", "message": f"{sys.executable} cannot import torch: {error}"})
        return 2
    watch = _install(recorder, plan)
    signal.signal(signal.SIGTERM, _stopped)  # the parent's --timeout: end through the normal path, records kept
    outcome, exit_code = _run_program(plan["argv"], plan.get("module"))
    watch.__exit__(None, None, None)
    for record in watch.shape_records():
        recorder.write(record)
    from ascend_migrate.runtime.watch import steps_done

    recorder.write({"kind": "end", "outcome": outcome, "exit_code": exit_code, "steps": steps_done})
    recorder.close()
    return 0


class Stopped(SystemExit):
    """SIGTERM from the parent (--timeout): a SystemExit, so the program's `except Exception` lets it through."""


def _stopped(signal_number, frame) -> None:
    raise Stopped(0)


def _install(recorder, plan: dict):
    from ascend_migrate.runtime import recorder as calls
    from ascend_migrate.runtime import state, watch

    calls.add_internal_directory(watch.torch_directory())
    sys.path.insert(0, EMULATED_PACKAGES)  # `import torch_npu` finds the emulation (a real torch_npu needs CANN)
    watch.watch_cuda_calls(recorder)
    watch.refuse_data_parallel(recorder)
    watch.refuse_cuda_only_imports(recorder)
    _, unsupported_methods = watch.watch_unsupported(recorder, plan.get("unsupported", []))
    state.after_install.append(lambda: watch.note_capability(recorder))
    watch.count_iterations()
    if plan.get("steps"):
        watch.count_steps(plan["steps"])
    mode = watch.Watch(recorder, unsupported_methods, watch.restrictions_by_name(plan.get("restrictions", [])))
    mode.__enter__()
    state.watching = True
    return mode


def _run_program(argv: list[str], module: str | None) -> tuple[str, int]:
    """Runs the program as `python SCRIPT` or `python -m module` would; returns (outcome, exit code)."""
    from ascend_migrate.runtime.watch import StepsReached

    sys.argv = list(argv)
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.path[0:0] = [os.path.dirname(os.path.abspath(argv[0]))]
            runpy.run_path(argv[0], run_name="__main__")
    except StepsReached:
        return "steps", 0
    except Stopped:
        return "stopped", 0
    except SystemExit as exit:
        code = exit.code
        if code is None or code == 0:
            return "completed", 0
        if not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
        return "exited", code
    except BaseException as error:  # the program's own failure: its traceback, as python would print it
        _print_user_traceback(error)
        return "failed", 1
    return "completed", 0


def _print_user_traceback(error: BaseException) -> None:
    from ascend_migrate.runtime.recorder import is_internal

    frames: list[traceback.FrameSummary] = list(traceback.extract_tb(error.__traceback__))
    while frames and (is_internal(frames[0].filename) or frames[0].filename.endswith("runpy.py")):
        frames = frames[1:]  # the child's and runpy's frames are ours, not the program's
    frames = [frame for frame in frames if not frame.filename.endswith(WRAPPERS)]  # our call-noting wrappers
    print("Traceback (most recent call last):", file=sys.stderr)
    print("".join(traceback.format_list(frames)), end="", file=sys.stderr)
    print("".join(traceback.format_exception_only(type(error), error)), end="", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
