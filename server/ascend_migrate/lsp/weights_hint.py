"""The editor's pointer from a `torch.load`/`load_state_dict` finding (MindSpore route) to `weights convert`:
the hover's section and the code action that hands the command to the client (docs/weights.md)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.fixes.families.load_checkpoint import converted_path

WEIGHTS_COMMAND = "ascend-migrate.weightsCommand"
WEIGHTS_APIS = frozenset({"torch.load", "torch.nn.Module.load_state_dict"})
ACTION_TITLE = "Copy the command that converts these weights to a MindSpore checkpoint"
# The literal path of a torch.load call on the finding's line: torch.load("model.pth"), torch.load(f='w.pt').
_LOADED_PATH = re.compile(r"\bload\(\s*(?:f\s*=\s*)?[rRuU]?(?P<quote>['\"])(?P<path>[^'\"\\\n]+)(?P=quote)")
PLACEHOLDER_SOURCE = "WEIGHTS.pth"
PLACEHOLDER_TORCH = "MODEL.py:TorchModel"
PLACEHOLDER_MINDSPORE = "MS_MODEL.py:MindSporeModel"


def applies(api: str, route: str) -> bool:
    return route == "mindspore" and api in WEIGHTS_APIS


def loaded_path(line: str, column: int = 1) -> str | None:
    """The literal weights path loaded on `line` from (1-based) `column` on, when the code names one."""
    match = _LOADED_PATH.search(line, max(0, column - 1))
    return match["path"] if match is not None else None


def commands(source: str | None) -> dict[str, str]:
    """The convert and compare command lines for a weights file (placeholders where the code does not say)."""
    weights = source or PLACEHOLDER_SOURCE
    output = converted_path(weights) or "WEIGHTS.ckpt"
    convert = (f"ascend-migrate weights convert {shlex.quote(weights)} --model {PLACEHOLDER_TORCH} "
               f"--target-model {PLACEHOLDER_MINDSPORE} -o {shlex.quote(output)}")
    compare = (f"ascend-migrate compare --torch {PLACEHOLDER_TORCH} --mindspore {PLACEHOLDER_MINDSPORE} "
               f"--weights {shlex.quote(weights)} --input SHAPE")
    return {"source": weights, "output": output, "convert": convert, "compare": compare}


def hover_section(finding: Finding, line: str, route: str) -> str:
    """Markdown appended to the finding's hover; empty for other findings."""
    if not applies(finding.api, route):
        return ""
    lines = commands(loaded_path(line, finding.column))
    return ("**Convert the weights first** (mindspore.load_checkpoint cannot read a .pth; this runs your model files):\n\n"
            f"```sh\n{lines['convert']}\n```\n\nthen check the port computes the same:\n\n```sh\n{lines['compare']}\n```\n\n"
            "See docs/weights.md (`ascend-migrate weights convert --help`).")


def code_actions(findings: Sequence[Finding], diagnostics: Sequence[types.Diagnostic], lines: Sequence[str], route: str) -> list[types.Command]:
    """One action per weights-loading diagnostic: a bare Command (the protocol allows one among code actions) that the
    client runs; the server answers with the command text. Bare, because a CodeAction holding a command is read back
    as a Command by lsprotocol's own client, which would lose its arguments."""
    actions = []
    for diagnostic in diagnostics:
        data: Any = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        if not applies(str(data.get("api", "")), route):
            continue
        line_number = diagnostic.range.start.line
        line = lines[line_number] if line_number < len(lines) else ""
        finding = next((item for item in findings if item.line == line_number + 1 and item.api == data.get("api")), None)
        source = loaded_path(line, finding.column if finding is not None else 1)
        actions.append(types.Command(title=ACTION_TITLE, command=WEIGHTS_COMMAND, arguments=[{"source": source}]))
    return actions
