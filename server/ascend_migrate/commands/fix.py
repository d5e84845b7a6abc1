"""`ascend-migrate fix`: see its owner's module docstring once implemented."""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    parser = subparsers.add_parser("fix", help="(being built)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    print("ascend-migrate fix: not available in this build yet")
    return 2
