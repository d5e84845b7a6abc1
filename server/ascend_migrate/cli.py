"""The `ascend-migrate` command line: a dispatcher over the commands in `ascend_migrate.commands`.

Each command module has `register(subparsers)` and `run(arguments) -> int`, and imports what it needs
inside `run`, so that `--help` and `--version` stay instant.
Exit codes: 0 clean, 1 a finding that --fail-on names (or a failed check), 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from ascend_migrate import __version__
from ascend_migrate.commands import compare, fix, kb, migrate, run, scan, serve, weights

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


def _unknown_arguments(parser: _Parser, arguments: argparse.Namespace, unknown: list[str]) -> None:
    """Exit 2 with the usage of the command the arguments were given to (not the top-level one), and the
    option meant when one is a typo of it (`scan --traget`: did you mean --target?)."""
    import difflib

    command_parser = parser.command_parsers.get(arguments.command, parser)
    action_parsers = getattr(command_parser, "action_parsers", {})  # `kb lookup --jsno`: the action's own parser
    command_parser = action_parsers.get(getattr(arguments, "kb_command", None), command_parser)
    options = [option for action in command_parser._actions for option in action.option_strings]
    hints = []
    for argument in unknown:
        close = difflib.get_close_matches(argument.split("=", 1)[0], options, n=1, cutoff=0.6) if argument.startswith("-") else []
        if close:
            hints.append(f"; did you mean {close[0]}?" if len(unknown) == 1 else f"; {argument}: did you mean {close[0]}?")
    command_parser.error(f"unrecognized arguments: {' '.join(unknown)}{''.join(hints)}")


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command_parsers: Mapping[str, argparse.ArgumentParser] = {}  # name → a command's parser (top level only)

    def error(self, message: str) -> NoReturn:  # argparse exits 2 on usage errors: keep that, without a traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> _Parser:
    parser = _Parser(
        prog="ascend-migrate",
        description="Find and fix what must change to run PyTorch or TensorFlow code on Huawei Ascend, "
        "by porting to MindSpore (--target mindspore) or with torch_npu (--target npu).",
    )
    parser.add_argument("--version", action="version", version=f"ascend-migrate {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in (scan, fix, migrate, kb, run, serve, weights, compare):
        command.register(subparsers)
    parser.command_parsers = subparsers.choices  # name → the command's parser, for its usage on a typo
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments, unknown = parser.parse_known_args(argv)
    if unknown:
        _unknown_arguments(parser, arguments, unknown)
    if arguments.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return arguments.run(arguments)
    except KeyboardInterrupt:
        print("ascend-migrate: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN
