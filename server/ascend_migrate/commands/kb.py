"""`ascend-migrate kb`: see its owner's module docstring once implemented."""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    parser = subparsers.add_parser("kb", help="(being built)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    print("ascend-migrate kb: not available in this build yet")
    return 2
