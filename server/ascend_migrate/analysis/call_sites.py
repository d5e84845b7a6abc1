"""Parameter types of a program's module-level functions, from every call of them in the file (a small, conservative
call-site inference): a parameter is a tensor when each call passes a tensor to it.

The walk records per chunk what it defines, calls and otherwise uses (`Walker.function_records`); after the module
is walked, `parameter_hints` reads those records and the engine walks the chunks that define a hinted function again
with those parameters typed (engine.walk_with_parameter_hints). Nothing is inferred for a function defined twice,
used other than by a call (passed, stored, decorated with), called with `*args`/`**kwargs`, or never called, nor
in a module that is not a program (a library's functions may be called from elsewhere with anything).
"""

from __future__ import annotations

from ascend_migrate.analysis.symbols import TENSOR

Hints = dict[str, frozenset[str]]
STARRED = "*"  # an argument passed as *args or **kwargs in a call record: which parameter it reaches is not known


def parameter_hints(records_per_chunk, is_program: bool) -> Hints:
    """name → the parameters every call of the module-level function `name` passes a tensor to."""
    if not is_program:
        return {}
    definitions: dict[str, tuple] = {}
    calls: dict[str, list[tuple]] = {}
    excluded: set[str] = set()
    for records in records_per_chunk:
        for record in records:
            kind, name = record[0], record[1]
            if kind == "def":
                if name in definitions:
                    excluded.add(name)  # defined twice: which one a call reaches depends on when it runs
                definitions[name] = record
            elif kind == "call":
                calls.setdefault(name, []).append(record)
            else:
                excluded.add(name)
    hints: Hints = {}
    for name, (_, _, positional, keyword_only) in definitions.items():
        if name in excluded or name not in calls:
            continue
        tensors = frozenset(parameter for index, parameter in enumerate((*positional, *keyword_only))
                            if all(_passed(call, index if index < len(positional) else None, parameter) == TENSOR
                                   for call in calls[name]))
        if tensors:
            hints[name] = tensors
    return hints


def _passed(call: tuple, position: int | None, parameter: str) -> str | None:
    """The type a call passes to `parameter` (at `position` when positional); None when unknown or not passed."""
    _, _, arguments, keywords = call
    if STARRED in arguments or any(keyword == STARRED for keyword, _ in keywords):
        return None
    if position is not None and position < len(arguments):
        return arguments[position]
    return next((value for keyword, value in keywords if keyword == parameter), None)


def hints_for(records, hints: Hints) -> tuple:
    """The hints that apply to the functions these records define, as a comparable tuple (sorted)."""
    return tuple(sorted((record[1], tuple(sorted(hints[record[1]]))) for record in records
                        if record[0] == "def" and record[1] in hints))
