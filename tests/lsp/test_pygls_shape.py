"""pygls' private parts the transport relies on are still there, with the parameters it passes; and only
the transport touches them. A pygls upgrade that changes them fails here, by name, before it fails in use."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter

import ascend_migrate.lsp as lsp_package
from ascend_migrate.lsp import transport

LSP_DIRECTORY = Path(lsp_package.__file__).parent


def _resolve(where: str):
    """`pygls.protocol.JsonRPCProtocol` → the class: the longest importable module, then attributes."""
    parts = where.split(".")
    for split in range(len(parts), 0, -1):
        module_name, names = ".".join(parts[:split]), parts[split:]
        try:
            value = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in names:
            value = getattr(value, name)
        return value
    raise ImportError(where)


def _instance_attributes() -> dict[str, set[str]]:
    """The attributes a real server and its protocol carry once constructed."""
    server = LanguageServer("shape", "0", protocol_cls=LanguageServerProtocol)
    return {
        "pygls.protocol.JsonRPCProtocol": set(vars(server.protocol)) | set(dir(type(server.protocol))),
        "pygls.server.JsonRPCServer": set(vars(server)) | set(dir(type(server))),
        "pygls.progress.Progress": set(vars(server.work_done_progress)),
    }


@pytest.mark.parametrize("where,name,parameters", transport.RELIED_ON, ids=[f"{where}.{name}" for where, name, _ in transport.RELIED_ON])
def test_every_private_part_the_transport_relies_on_is_still_there(where, name, parameters):
    owner = _resolve(where)
    attributes = _instance_attributes().get(where)
    if parameters is None:
        assert attributes is not None and name in attributes, f"pygls no longer has {where}.{name}"
        return
    function = getattr(owner, name, None)
    assert function is not None, f"pygls no longer has {where}.{name}"
    found = tuple(inspect.signature(function).parameters)
    assert found == parameters, f"pygls changed {where}.{name}{found}; the transport calls it as {parameters}"


def test_the_transport_uses_no_private_pygls_name_it_does_not_declare():
    tree = ast.parse((LSP_DIRECTORY / "transport.py").read_text(encoding="utf-8"))
    own = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and re.fullmatch(r"_[a-z]\w*", node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in ("os", "sys"))}
    overridden = {name for _, name, _ in transport.RELIED_ON}
    assert used - own - overridden == set(), "declare these in transport.RELIED_ON (and check them here)"


def test_no_other_server_module_reaches_into_pygls_internals():
    offenders = []
    for path in sorted(LSP_DIRECTORY.rglob("*.py")):
        if path.name == "transport.py":
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in (r"\bprotocol\._\w+", r"\bpygls\.(io_|protocol|capabilities|server)\b", r"\bself\._(server|stop_event|thread_pool)\b",
                        r"\.msg_id\b", r"work_done_progress\.tokens"):
            offenders += [f"{path.relative_to(LSP_DIRECTORY)}: {match.group()}" for match in re.finditer(pattern, text)]
    assert offenders == []


def test_our_protocol_still_builds_on_pygls():
    protocol = transport.AscendMigrateProtocol(LanguageServer("shape", "0"), default_converter())
    assert protocol.cancellation_event(1) is not None
