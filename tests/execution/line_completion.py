"""Runs a script as __main__ and writes a mark to stderr when one of its statements has run to its end (the mint
era's `builds` check in test_mindspore_route.py: the model was built before the run stopped).

The script is compiled with one statement added right after the watched one, on the watched statement's last line, so
that no other line moves (tracebacks keep their numbers). The added statement writes the mark the first time control
passes beyond the watched statement normally: never when that statement raised (even if the exception is caught), never
when it was not reached, wherever it is (module level, main(), a method, a loop). Reading the traceback instead cannot
tell: for a script that does everything in main() the outermost frame is the `main()` call at the bottom of the file,
and the function holding the statement is not on the stack any more once it returned. A trace function
(sys.settrace) would see it too, but it runs on every Python call until then: `import mindspore` alone took 0.9 s more
CPU (2.8 s instead of 1.9 s) with an empty one. Pure Python, no mindspore: tests/execution/test_line_completion.py.
"""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

MARKER = "__line_completion_mark__"  # the name the added statement calls, bound in the script's globals


def mark(script: str | Path, line: int) -> str:
    """The line written to stderr once the statement beginning on `line` of `script` ran to its end."""
    return f"line_completion: the statement on line {line} of {Path(script).name} ran to its end"


def watched(source: bytes, script: str, line: int) -> types.CodeType:
    """`source` compiled as `script`, with the call to MARKER added right after the outermost statement that begins on
    `line` (the last of them when several share the line)."""
    tree = ast.parse(source, filename=script)
    for node in ast.walk(tree):  # breadth first: the outermost statement list holding one is found first
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            starting = [index for index, statement in enumerate(statements) if isinstance(statement, ast.stmt) and statement.lineno == line]
            if starting:
                after = statements[starting[-1]]
                call = ast.Expr(ast.Call(ast.Name(MARKER, ast.Load()), [], []), lineno=after.end_lineno, col_offset=0,
                                end_lineno=after.end_lineno, end_col_offset=0)
                statements.insert(starting[-1] + 1, ast.fix_missing_locations(call))
                return compile(tree, script, "exec")
    raise ValueError(f"{script}:{line}: no statement begins on this line (the `builds` text must start a statement)")


def run(script: str, line: int) -> None:
    """Runs `script` as runpy.run_path(script, run_name="__main__") does (sys.modules["__main__"] and sys.argv[0] are
    the script while it runs), writing mark(script, line) to stderr once the statement on `line` has run to its end."""
    code = watched(Path(script).read_bytes(), script, line)
    written = []

    def marker() -> None:
        if not written:
            written.append(True)
            print(mark(script, line), file=sys.stderr, flush=True)

    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=script, __cached__=None, __loader__=None, __package__="", __spec__=None, **{MARKER: marker})
    saved_main, saved_argv0 = sys.modules["__main__"], sys.argv[0]
    sys.modules["__main__"], sys.argv[0] = module, script
    try:
        exec(code, module.__dict__)
    finally:
        sys.modules["__main__"], sys.argv[0] = saved_main, saved_argv0
