"""Arguments shared by the commands that analyse code (scan, fix), and their conversion to Settings."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_migrate.taxonomy import CONFIDENCES, ROUTES, SEVERITIES


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", choices=ROUTES, help="the migration route (default: from pyproject.toml, else npu)")
    parser.add_argument("--torch-version", metavar="VERSION", help="the PyTorch version the code is written for (default 2.8)")
    parser.add_argument("--mindspore-version", metavar="VERSION", help="the MindSpore version to port to (default 2.10)")
    parser.add_argument("--select", metavar="CODES", help="comma-separated codes, code prefixes or categories to report")
    parser.add_argument("--ignore", metavar="CODES", help="comma-separated codes, code prefixes or categories to leave out")
    parser.add_argument("--min-confidence", choices=CONFIDENCES, help="report only findings at least this sure")
    parser.add_argument("--exclude", metavar="GLOBS", help="comma-separated globs to skip (replaces the defaults)")
    parser.add_argument("--extend-exclude", metavar="GLOBS", help="comma-separated globs to skip besides the defaults")
    parser.add_argument("--config", metavar="PYPROJECT", type=Path, help="read settings from this pyproject.toml")
    parser.add_argument("--fail-on", choices=SEVERITIES, help="exit 1 when a finding is at least this severe (default error)")


def settings_from_arguments(arguments: argparse.Namespace, paths: list[Path]):
    """Settings for this run, or raises ConfigError. The pyproject is the one given, else the nearest above the first path."""
    from ascend_migrate.config import Settings, apply_overrides, load_settings, settings_from_pyproject

    overrides = {
        "target": arguments.target,
        "torch-version": arguments.torch_version,
        "mindspore-version": arguments.mindspore_version,
        "select": arguments.select,
        "ignore": arguments.ignore,
        "min-confidence": arguments.min_confidence,
        "exclude": arguments.exclude,
        "extend-exclude": arguments.extend_exclude,
        "fail-on": arguments.fail_on,
    }
    if arguments.config is not None:
        if not arguments.config.is_file():
            from ascend_migrate.config import ConfigError

            raise ConfigError(str(arguments.config), "--config", "no such file")
        settings = settings_from_pyproject(arguments.config, Settings())
        return apply_overrides(settings, overrides, "command line")
    start = paths[0] if paths else Path.cwd()
    return load_settings(start, overrides)


def print_error(message: str) -> None:
    print(f"ascend-migrate: error: {message}", file=sys.stderr)
