"""Arguments shared by the commands that analyse code (scan, fix), and their conversion to Settings."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

from ascend_migrate.config import FAIL_ON_CHOICES
from ascend_migrate.taxonomy import CONFIDENCES, ROUTES


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", choices=ROUTES, help="the migration route (default: from pyproject.toml, else npu)")
    parser.add_argument("--torch-version", metavar="VERSION", help="the PyTorch version the code is written for (default 2.8)")
    parser.add_argument("--mindspore-version", metavar="VERSION", help="the MindSpore version to port to (default 2.10)")
    parser.add_argument("--tensorflow-version", metavar="VERSION", help="the TensorFlow version the code is written for (default 2.6)")
    parser.add_argument("--select", metavar="CODES", help="comma-separated codes, code prefixes or categories to report")
    parser.add_argument("--ignore", metavar="CODES", help="comma-separated codes, code prefixes or categories to leave out")
    parser.add_argument("--min-confidence", choices=CONFIDENCES, help="report only findings at least this sure")
    parser.add_argument("--exclude", metavar="GLOBS", help="comma-separated globs to skip (replaces the defaults)")
    parser.add_argument("--extend-exclude", metavar="GLOBS", help="comma-separated globs to skip besides the defaults")
    parser.add_argument("--config", metavar="PYPROJECT", type=Path, help="read settings from this pyproject.toml")
    parser.add_argument("--fail-on", choices=FAIL_ON_CHOICES,
                        help="exit 1 on a finding at least this severe; 'required' (the default): on what the code "
                        "cannot run on the target without (every MindSpore finding; on npu, all but the performance advice)")


def settings_from_arguments(arguments: argparse.Namespace, paths: list[Path]):
    """Settings for this run, or raises ConfigError. The pyproject is the one given, else the nearest above the first path."""
    from ascend_migrate.config import Settings, apply_overrides, load_settings, settings_from_pyproject

    overrides = {
        "target": arguments.target,
        "torch-version": arguments.torch_version,
        "mindspore-version": arguments.mindspore_version,
        "tensorflow-version": arguments.tensorflow_version,
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
        settings = apply_overrides(settings, overrides, "command line")
    else:
        start = paths[0] if paths else Path.cwd()
        settings = load_settings(start, overrides)
    return _with_source_tables(settings, arguments)


def _with_source_tables(settings, arguments: argparse.Namespace):
    """`settings` looking up the knowledge-base table that answers for its versions; a note on stderr when that
    is not the exact release asked for, a ConfigError naming the setting when no table answers."""
    from dataclasses import replace

    from ascend_migrate.config import ConfigError
    from ascend_migrate.kb.source_tables import resolve_versions
    from ascend_migrate.kb.versions import VersionRangeError

    try:
        torch_version, notes = resolve_versions(settings.target, settings.torch_version, settings.tensorflow_version)
    except VersionRangeError as error:
        key = "tensorflow-version" if str(error).startswith("TensorFlow") else "torch-version"
        if getattr(arguments, key.replace("-", "_")) is not None:
            raise ConfigError("command line", f"--{key}", str(error)) from None
        raise ConfigError(f"{settings.config_file} [tool.ascend-migrate]", key, str(error)) from None
    for note in notes:
        print(f"ascend-migrate: warning: {note}", file=sys.stderr)
    return replace(settings, torch_version=torch_version)


def missing_path(paths: list[Path]) -> Path | None:
    """The first of `paths` that does not exist: a typo in a CI script must fail, not scan nothing."""
    import os

    return next((path for path in paths if not os.path.lexists(path)), None)


def named_file_failed(paths: list[Path], errors) -> bool:
    """Whether a file named on the command line (not found in a directory) could not be read or is of a kind
    that is not analysed: its error entry makes the run fail, so it is never reported as clean."""
    named = {path.resolve() for path in paths if not path.is_dir()}
    return any(Path(error.path).resolve() in named for error in errors if error.line is None)


def print_error(message: str) -> None:
    print(f"ascend-migrate: error: {message}", file=sys.stderr)


@contextmanager
def termination_as_interrupt():
    """SIGTERM handled like Ctrl-C while files are written (`fix --write`, `migrate`), so the run ends through its
    normal path (temporary files removed, what was written said) instead of dying wherever it is."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (fix called from a test runner's worker): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
