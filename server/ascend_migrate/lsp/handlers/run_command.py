"""workspace/executeCommand `ascend-migrate.run`: the runtime check (`ascend-migrate run`, docs/runtime-check.md) of a
program in the workspace, started by the editor; it runs the user's code, so only when the client asks."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest

from ascend_migrate.lsp.handlers.arguments import named
from ascend_migrate.lsp.handlers.workspace_scan import workspace_roots
from ascend_migrate.lsp.server import AscendMigrateServer

RUN = "ascend-migrate.run"
USAGE_ERROR = 2  # `run`'s exit status for a usage error (no report): the message is the answer


def register(server: AscendMigrateServer) -> None:
    @server.command(RUN)
    async def run(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        """{"program": ["python", "train.py", ...], "steps": N, "timeout": seconds} → {"status", "report"}."""
        return await _run(ls, named(arguments, ("program", "steps", "timeout"), RUN))


def command_line(values: dict[str, Any]) -> list[str]:
    """The `ascend-migrate run` command line for the command's arguments (refused with a message when malformed)."""
    program = values.get("program")
    if not isinstance(program, list) or not program or not all(isinstance(part, str) and part for part in program):
        raise JsonRpcInvalidParams(message=f"{RUN}: `program` must be a non-empty list of strings "
                                           f"(e.g. [\"python\", \"train.py\"]), got {program!r}")
    options: list[str] = []
    for name in ("steps", "timeout"):
        value = values.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0 or (name == "steps" and value != int(value)):
            raise JsonRpcInvalidParams(message=f"{RUN}: `{name}` must be a positive {'integer' if name == 'steps' else 'number'}, "
                                               f"got {value!r}")
        options += [f"--{name}", str(int(value)) if name == "steps" else str(value)]
    return [sys.executable, "-m", "ascend_migrate", "run", *options, "--format", "json", "--", *program]


async def _run(server: AscendMigrateServer, values: dict[str, Any]) -> dict[str, Any]:
    command = command_line(values)
    roots = workspace_roots(server)
    if not roots:
        raise JsonRpcInvalidRequest(message=f"{RUN}: no workspace folder to run the program in")
    process = await asyncio.create_subprocess_exec(*command, cwd=roots[0], stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await process.communicate()
    errors = stderr.decode("utf-8", "replace")
    if process.returncode == USAGE_ERROR:
        raise JsonRpcInvalidParams(message=f"{RUN}: {errors.strip() or 'usage error'}")
    try:
        report = json.loads(stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise JsonRpcInternalError(message=f"{RUN}: `ascend-migrate run` exited {process.returncode} without a report: "
                                           f"{errors.strip()[-2000:]}") from None
    # The program's own output and traceback (status 3) go to stderr: its tail is part of the answer
    return {"status": process.returncode, "report": report, "stderr": errors[-4000:]}
