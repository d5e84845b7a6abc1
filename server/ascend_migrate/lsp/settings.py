"""The server's settings: the editor's (initializationOptions, workspace/configuration) merged with pyproject.toml.

By default the project's `[tool.ascend-migrate]` wins over the editor (`configurationPreference`
`filesystemFirst`); `editorFirst` reverses that and `filesystemOnly` ignores the editor's analysis settings.
A bad value never replaces the last good settings: it is reported once and ignored.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ascend_migrate.config import SETTING_KEYS, ConfigError, Settings, apply_overrides, find_pyproject, settings_from_pyproject
from ascend_migrate.taxonomy import ROUTES

logger = logging.getLogger("ascend_migrate.lsp")

CONFIGURATION_SECTION = "ascendMigrate"
PREFERENCES = ("filesystemFirst", "editorFirst", "filesystemOnly")
LOG_LEVELS = ("error", "warning", "info", "debug")
# Settings for the server itself rather than the analysis.
SERVER_KEYS = ("configurationPreference", "logLevel")


def _spellings(key: str) -> tuple[str, str, str]:
    parts = key.split("-")
    return key, key.replace("-", "_"), parts[0] + "".join(part.title() for part in parts[1:])


ANALYSIS_KEYS = {spelling for key in SETTING_KEYS for spelling in _spellings(key)}


class ServerOptions:
    """What the editor told the server, validated; the last good value of each part is kept."""

    def __init__(self) -> None:
        self.analysis: dict[str, Any] = {}
        self.preference = "filesystemFirst"
        self.log_level: str | None = None  # None: the level given on the command line


def settings_section(options: Any) -> dict[str, Any]:
    """The `ascendMigrate` settings inside initializationOptions or a didChangeConfiguration payload."""
    if not isinstance(options, dict):
        return {}
    for key in (CONFIGURATION_SECTION, "settings"):
        if isinstance(options.get(key), dict):
            return options[key]
    return options


class SettingsManager:
    """Gives the `Settings` for a file; thread-safe (the analysis worker asks too)."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self._report = report  # shows a message to the user; called once per distinct problem
        self._lock = threading.Lock()
        self._reported: set[str] = set()
        self.options = ServerOptions()
        self.target_override: str | None = None
        self._editor_settings = Settings()  # defaults + editor analysis settings (validated)
        # directory → its pyproject (or None); pyproject → the last good Settings read from it
        self._pyproject_for_directory: dict[Path, Path | None] = {}
        self._from_file: dict[Path, Settings] = {}
        self._read_cache: dict[tuple[Path, Settings], Settings] = {}
        # workspace folder → its own editor analysis settings (multi-root workspaces), validated
        self._folders: dict[Path, tuple[dict[str, Any], Settings]] = {}

    def forget_folders(self) -> None:
        with self._lock:
            self._folders.clear()

    def forget_folder(self, folder: Path) -> None:
        with self._lock:
            self._folders.pop(folder, None)

    def update_editor(self, raw: Any, folder: Path | None = None) -> bool:
        """Take new editor settings (for one workspace folder, or for all); False (and one message) when
        something in them is invalid. Server settings (configurationPreference, logLevel) are global only."""
        section = settings_section(raw)
        analysis = {}
        unknown = []
        for key, value in section.items():
            if key in SERVER_KEYS:
                continue
            if key not in ANALYSIS_KEYS:
                unknown.append(key)
                continue
            if value is None or (key == "select" and value == []):
                continue  # an editor's "not set"
            analysis[key] = value
        if unknown:
            logger.debug("ignoring settings this server does not know: %s", ", ".join(sorted(unknown)))
        problems = []
        preference = section.get("configurationPreference", self.options.preference) or "filesystemFirst"
        if preference not in PREFERENCES:
            problems.append(f"configurationPreference must be one of {list(PREFERENCES)}, got {preference!r}")
        log_level = section.get("logLevel", self.options.log_level)
        if log_level is not None and log_level not in LOG_LEVELS:
            problems.append(f"logLevel must be one of {list(LOG_LEVELS)}, got {log_level!r}")
        try:
            editor_settings = apply_overrides(Settings(), analysis, "editor settings")
        except ConfigError as error:
            problems.append(f"{error.key}: {str(error).split(': ', 2)[-1]}")
        if problems:
            self.report_once("Invalid ascend-migrate settings (the previous settings stay in use): " + "; ".join(problems))
            return False
        with self._lock:
            if folder is not None:
                self._folders[folder] = (analysis, editor_settings)
                return True
            self.options.analysis = analysis
            self.options.preference = preference
            self.options.log_level = log_level
            self._editor_settings = editor_settings
        return True

    def set_target(self, target: str) -> None:
        if target not in ROUTES:
            raise ValueError(f"target must be one of {list(ROUTES)}, got {target!r}")
        with self._lock:
            self.target_override = target

    def forget_files(self) -> None:
        """Forget what was read from pyproject.toml files (one changed, or appeared)."""
        with self._lock:
            self._pyproject_for_directory.clear()
            self._read_cache.clear()
            self._reported.clear()  # a file that is broken again deserves a message again

    def for_path(self, path: str | Path | None) -> Settings:
        """The settings for a file (or a directory) at `path`; None for a document with no file."""
        with self._lock:
            preference = self.options.preference
            editor_settings = self._editor_settings
            analysis = dict(self.options.analysis)
            target_override = self.target_override
            folders = dict(self._folders)
        if path and folders:
            absolute = Path(path)
            inside = [folder for folder in folders if folder == absolute or folder in absolute.parents]
            if inside:
                analysis, editor_settings = folders[max(inside, key=lambda folder: len(folder.parts))]
                analysis = dict(analysis)
        pyproject = self._pyproject(Path(path)) if path else None
        if pyproject is None:
            settings = Settings() if preference == "filesystemOnly" else editor_settings
        elif preference == "filesystemFirst":
            settings = self._read(pyproject, editor_settings) or editor_settings
        elif preference == "editorFirst":
            from_file = self._read(pyproject, Settings())
            settings = apply_overrides(from_file, analysis, "editor settings") if from_file else editor_settings
        else:
            settings = self._read(pyproject, Settings()) or Settings()
        if target_override is not None:
            settings = replace(settings, target=target_override)
        return settings

    def _pyproject(self, path: Path) -> Path | None:
        directory = path if path.is_dir() else path.parent
        with self._lock:
            if directory in self._pyproject_for_directory:
                return self._pyproject_for_directory[directory]
        found = find_pyproject(directory) if directory.is_absolute() else None
        with self._lock:
            self._pyproject_for_directory[directory] = found
        return found

    def _read(self, pyproject: Path, base: Settings) -> Settings | None:
        """Settings from the file on top of `base`; when the file is invalid, the last good ones (or None).

        Read once until `forget_files`: this runs before every analysis, that is on every keystroke.
        """
        with self._lock:
            cached = self._read_cache.get((pyproject, base))
        if cached is not None:
            return cached
        try:
            settings = settings_from_pyproject(pyproject, base)
        except (ConfigError, OSError) as error:
            self.report_once(f"{error} (ascend-migrate keeps the last good settings)")
            with self._lock:
                return self._from_file.get(pyproject)
        with self._lock:
            self._from_file[pyproject] = settings
            self._read_cache[(pyproject, base)] = settings
        return settings

    def report_once(self, message: str) -> None:
        """Log `message` and show it to the user, once until the settings files change."""
        with self._lock:
            if message in self._reported:
                return
            self._reported.add(message)
        logger.warning("%s", message)
        self._report(message)
