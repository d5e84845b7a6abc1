"""The `ascend-migrate` command line: a dispatcher over the commands in `ascend_migrate.commands`.

Each command module has `register(subparsers)` and `run(arguments) -> int`, and imports what it needs
inside `run`, so that `--help` and `--version` stay instant.
Exit codes: 0 clean, 1 findings at or above --fail-on (or a failed check), 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ascend_migrate import __version__
from ascend_migrate.commands import fix, kb, scan, serve

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 on usage errors: keep that, without a traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ascend-migrate",
        description="Find and fix what must change to run PyTorch or TensorFlow code on Huawei Ascend, "
        "by porting to MindSpore (--target mindspore) or with torch_npu (--target npu).",
    )
    parser.add_argument("--version", action="version", version=f"ascend-migrate {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in (scan, fix, kb, serve):
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
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
