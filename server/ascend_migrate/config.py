"""Settings: the one place where pyproject.toml, CLI flags and editor settings merge.

Precedence, lowest first: built-in defaults, `[tool.ascend-migrate]` in the nearest pyproject.toml, then
the overrides of the caller (CLI flags, or the editor's settings). Every bad value is a `ConfigError` that
names the file (or source) and the key.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ascend_migrate.taxonomy import CATEGORIES, CONFIDENCES, ROUTES, SEVERITIES, SEVERITY_RANK, is_code_selector

DEFAULT_TORCH_VERSION = "2.8"
DEFAULT_MINDSPORE_VERSION = "2.10"
DEFAULT_TENSORFLOW_VERSION = "2.6"
# Names that are never source: version-control and cache folders, installed packages. Virtual environments
# and build output are recognised by what they hold (workspace.py), not by a name like `env` or `build` that
# a real package can have.
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "site-packages", "dist-packages",
)


# `fail-on = "required"` (the default): exit 1 on what the code cannot run on the target without. On the
# MindSpore route that is every finding (no torch or TensorFlow name runs there), on the npu route the CUDA
# renames, what NPU does not support and CUDA-only libraries, but not the performance advice (NPU-affine
# replacements, dynamic shapes). A finding whose severity was turned down to hint never fails the run.
FAIL_ON_REQUIRED = "required"
FAIL_ON_CHOICES = (FAIL_ON_REQUIRED, *SEVERITIES)
REQUIRED_CATEGORIES = frozenset({
    "ms-equivalent", "ms-differs", "ms-unsupported", "ms-structure", "npu-rename", "npu-unsupported", "third-party",
})


def is_required(finding) -> bool:
    """Whether the code cannot run on its target until this finding is dealt with."""
    return finding.category in REQUIRED_CATEGORIES and finding.severity != "hint"


def fails_run(finding, fail_on: str) -> bool:
    """Whether `finding` makes `scan` exit 1 under the `fail-on` setting."""
    if fail_on == FAIL_ON_REQUIRED:
        return is_required(finding)
    return SEVERITY_RANK[finding.severity] <= SEVERITY_RANK[fail_on]


class ConfigError(ValueError):
    """A setting that cannot be used. `source` is the file or origin, `key` the setting."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        super().__init__(f"{source}: {key}: {message}")


@dataclass(frozen=True, slots=True)
class Settings:
    target: str = "npu"
    torch_version: str = DEFAULT_TORCH_VERSION
    mindspore_version: str = DEFAULT_MINDSPORE_VERSION
    tensorflow_version: str = DEFAULT_TENSORFLOW_VERSION
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    # (glob pattern relative to the project root, codes) pairs
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    min_confidence: str = "heuristic"
    # Report tensor-only code shapes (boolean-mask indexing, transpose-reshape) on receivers not known to be torch
    # tensors: off by default, since NumPy arrays and dicts look the same (issue 15).
    untyped_receivers: bool = False
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    # category → severity overrides
    severity: tuple[tuple[str, str], ...] = ()
    fail_on: str = FAIL_ON_REQUIRED
    follow_symlinks: bool = False
    respect_gitignore: bool = True
    # the directory `per_path_ignores` and `exclude` are relative to (where the pyproject.toml is)
    project_root: str = ""
    config_file: str = ""

    def all_excludes(self) -> tuple[str, ...]:
        return (self.exclude or DEFAULT_EXCLUDE) + self.extend_exclude


# key in pyproject / editor settings → (Settings field, converter)
def _string_choice(choices: tuple[str, ...]):
    def convert(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"must be one of {list(choices)}, got {value!r}")
        return value

    return convert


def _version(value: Any) -> str:
    from ascend_migrate.kb.versions import parse_version

    text = str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None
    if text is None:
        raise ValueError(f"must be a version like \"2.8\", got {value!r}")
    parse_version(text)
    return text


# Settings are written by hand: far larger lists or patterns are an attack or an accident, and every file's
# analysis (every keystroke in the editor) pays for them, so they are refused with the limit named.
MAX_SETTING_ITEMS = 1000
MAX_PATTERN_CHARACTERS = 1000


def _string_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"must be a list of strings, got {_abridged(value)}")
    _check_size(value)
    return tuple(value)


def _check_size(items) -> None:
    if len(items) > MAX_SETTING_ITEMS:
        raise ValueError(f"has {len(items)} entries; at most {MAX_SETTING_ITEMS} are accepted")
    for item in items:
        if len(item) > MAX_PATTERN_CHARACTERS:
            raise ValueError(f"{_abridged(item)} is {len(item)} characters long; at most {MAX_PATTERN_CHARACTERS} are accepted")


def _abridged(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} characters)"


def _codes(value: Any) -> tuple[str, ...]:
    codes = _string_list(value)
    for code in codes:
        if not is_code_selector(code):
            raise ValueError(f"{code!r} is not a code, a code prefix, a category or ALL")
    return codes


def _per_path_ignores(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of glob → list of codes, got {_abridged(value)}")
    _check_size(list(value))
    return tuple((pattern, _codes(codes)) for pattern, codes in value.items())


def _severity_map(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of category → severity, got {value!r}")
    pairs = []
    for category, severity in value.items():
        if category not in CATEGORIES:
            raise ValueError(f"{category!r} is not a category; expected one of {list(CATEGORIES)}")
        pairs.append((category, _string_choice(SEVERITIES)(severity)))
    return tuple(pairs)


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return value


SETTING_KEYS: dict[str, tuple[str, Any]] = {
    "target": ("target", _string_choice(ROUTES)),
    "torch-version": ("torch_version", _version),
    "mindspore-version": ("mindspore_version", _version),
    "tensorflow-version": ("tensorflow_version", _version),
    "select": ("select", _codes),
    "ignore": ("ignore", _codes),
    "per-path-ignores": ("per_path_ignores", _per_path_ignores),
    "min-confidence": ("min_confidence", _string_choice(CONFIDENCES)),
    "exclude": ("exclude", _string_list),
    "extend-exclude": ("extend_exclude", _string_list),
    "severity": ("severity", _severity_map),
    "fail-on": ("fail_on", _string_choice(FAIL_ON_CHOICES)),
    "untyped-receivers": ("untyped_receivers", _boolean),
    "follow-symlinks": ("follow_symlinks", _boolean),
    "respect-gitignore": ("respect_gitignore", _boolean),
}
# Editors spell keys in camelCase (`minConfidence`); pyproject in kebab-case; Python in snake_case.
_ALIASES = {}
for _key in SETTING_KEYS:
    _parts = _key.split("-")
    _ALIASES[_parts[0] + "".join(part.title() for part in _parts[1:])] = _key
    _ALIASES[_key.replace("-", "_")] = _key


def apply_overrides(settings: Settings, overrides: dict[str, Any], source: str) -> Settings:
    """`settings` with `overrides` applied; keys may be kebab-case, camelCase or snake_case."""
    changes: dict[str, Any] = {}
    for raw_key, value in overrides.items():
        if value is None:
            continue
        key = _ALIASES.get(raw_key, raw_key)
        if key not in SETTING_KEYS:
            raise ConfigError(source, raw_key, f"unknown setting; known settings are {sorted(SETTING_KEYS)}")
        field_name, convert = SETTING_KEYS[key]
        try:
            changes[field_name] = convert(value)
        except ValueError as error:
            raise ConfigError(source, raw_key, str(error)) from None
    return replace(settings, **changes)


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that configures ascend-migrate, or tries to.

    That is one with a [tool.ascend-migrate] table, one with a misspelt table of ours ([tool.ascend_migrate]),
    or one that names us but is not valid TOML: `settings_from_pyproject` then says what is wrong and where,
    instead of the scan running on defaults as if the file were not there.
    """
    directory = start if start.is_dir() else start.parent
    for candidate_directory in (directory, *directory.parents):
        candidate = candidate_directory / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if "migrat" not in text.lower():  # most projects have no table of ours: spare parsing theirs
                continue
            tomllib = _toml()
            try:
                data = tomllib.loads(text)
            except (tomllib.TOMLDecodeError, RecursionError):
                if _NAMES_US.search(text):
                    return candidate
                continue
            tool = data.get("tool")
            if isinstance(tool, dict) and (TABLE in tool or _misspelt_tables(tool)):
                return candidate
    return None


TABLE = "ascend-migrate"
_NAMES_US = re.compile(r"ascend[-_. ]?migrate", re.IGNORECASE)


def _misspelt_tables(tool: dict) -> list[str]:
    """The keys of [tool] that are our table's name misspelt: another separator or case, a dotted form
    ([tool.ascend.migrate]) or a letter or two off. Tables of other tools are never that close."""
    names = [key for key in tool if key != TABLE]
    names += [f"{key}.{inner}" for key, value in tool.items() if isinstance(value, dict) for inner in value]
    import difflib

    wanted = "ascendmigrate"
    misspelt = []
    for name in names:
        squeezed = re.sub(r"[-_. ]", "", name.lower())
        if squeezed == wanted or difflib.SequenceMatcher(None, squeezed, wanted).ratio() >= 0.9:
            misspelt.append(name)
    return misspelt


def load_settings(start: Path, overrides: dict[str, Any] | None = None, base: Settings | None = None) -> Settings:
    """Defaults, then the nearest pyproject.toml's [tool.ascend-migrate], then `overrides`."""
    settings = base or Settings()
    pyproject = find_pyproject(start.resolve())
    if pyproject is not None:
        settings = settings_from_pyproject(pyproject, settings)
    if overrides:
        settings = apply_overrides(settings, overrides, "command line")
    return settings


def settings_from_pyproject(pyproject: Path, base: Settings | None = None) -> Settings:
    tomllib = _toml()
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(pyproject), "[tool.ascend-migrate]", f"not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(str(pyproject), "[tool.ascend-migrate]", f"not valid UTF-8: {error.reason} at byte {error.start}") from None
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        raise ConfigError(str(pyproject), "[tool.ascend-migrate]", "not valid TOML: nested too deeply") from None
    tool = data.get("tool", {})
    misspelt = _misspelt_tables(tool) if isinstance(tool, dict) else []
    if misspelt:
        raise ConfigError(str(pyproject), f"[tool.{misspelt[0]}]", f"ascend-migrate reads only [tool.{TABLE}]; "
                          f"rename this table to [tool.{TABLE}]")
    table = tool.get(TABLE, {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(str(pyproject), "tool.ascend-migrate", "must be a table")
    settings = apply_overrides(base or Settings(), table, f"{pyproject} [tool.ascend-migrate]")
    return replace(settings, project_root=str(pyproject.parent), config_file=str(pyproject))


__all__ = ["ConfigError", "Settings", "apply_overrides", "load_settings", "settings_from_pyproject"]


def _toml():
    """The TOML parser, imported on first use: its import compiles regular expressions that a server answering
    `initialize`, or `ascend-migrate --help`, never needs."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib
