"""The knowledge base in memory: every table loaded once per process, and per-route views for the engine.

A `RouteView` is what the engine reads: the entries that apply to one route and one pair of versions,
keyed the way the engine looks them up (qualified name, method name, import prefix, string literal).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from ascend_migrate.kb import cache
from ascend_migrate.kb.aliases import NameAliases
from ascend_migrate.kb.errors import KnowledgeBaseError
from ascend_migrate.kb.schema import Entry
from ascend_migrate.kb.versions import parse_version

MAPPINGS_ENVIRONMENT_VARIABLE = "ASCEND_MIGRATE_MAPPINGS"


def default_mappings_directory() -> Path:
    """mappings/ inside the installed package (wheel), else beside server/ in a source checkout."""
    override = os.environ.get(MAPPINGS_ENVIRONMENT_VARIABLE)
    if override:
        return Path(override)
    return _packaged_mappings_directory()


@lru_cache(maxsize=1)
def _packaged_mappings_directory() -> Path:  # once per process: a scan asks for every file
    package_directory = Path(__file__).resolve().parent.parent
    installed = package_directory / "mappings"
    if installed.is_dir():
        return installed
    return package_directory.parent.parent / "mappings"


@dataclass
class RouteView:
    """The entries for one route and one pair of versions, indexed for the engine's look-ups."""

    route: str
    by_name: dict[str, list[Entry]] = field(default_factory=dict)
    by_method: dict[str, list[Entry]] = field(default_factory=dict)
    by_import: dict[str, list[Entry]] = field(default_factory=dict)
    by_string: dict[str, list[Entry]] = field(default_factory=dict)
    definitions: dict[str, list[Entry]] = field(default_factory=dict)  # method name → entries
    patterns: dict[str, list[Entry]] = field(default_factory=dict)  # pattern name → entries
    # Public names of the source frameworks (module → names) that count as "known" for ms-unsupported.
    inventory: frozenset[str] = frozenset()
    # name entries with `condition: prefix`, by their api (they match every name below it)
    by_prefix: dict[str, list[Entry]] = field(default_factory=dict)
    # first segments of every name the view can match: a reference rooted elsewhere is skipped at once
    roots: frozenset[str] = frozenset()
    # the names one API is exported under, and the name entries under their canonical spelling when the
    # table spells them otherwise (`tensorflow.reduce_mean` is found as `tensorflow.math.reduce_mean`)
    aliases: NameAliases = field(default_factory=NameAliases)
    by_canonical_name: dict[str, list[Entry]] = field(default_factory=dict)
    # name → an entry of this route for the same name that another target version has (`torch.triu` has only a
    # mint row, from 2.5): "no equivalent" would be false for such a name, only "none recorded for this version"
    other_versions: dict[str, Entry] = field(default_factory=dict)

    def name_entries(self, qualified: str) -> tuple[list[Entry] | None, str]:
        """The name entries for `qualified` as written, else for its canonical spelling; and that spelling."""
        entries = self.by_name.get(qualified)
        if entries is not None:
            return entries, qualified
        canonical = self.aliases.canonical(qualified)
        return self.by_name.get(canonical) or self.by_canonical_name.get(canonical), canonical

    def prefix_entries(self, qualified: str) -> list[Entry]:
        """Entries of the longest `condition: prefix` api that `qualified` lies below."""
        if not self.by_prefix:
            return []
        end = qualified.rfind(".")
        while end > 0:
            found = self.by_prefix.get(qualified[:end])
            if found:
                return found
            end = qualified.rfind(".", 0, end)
        return []

    def import_entries(self, module: str) -> list[Entry]:
        """Entries for `module` or its nearest listed parent package (`apex.optimizers` → `apex`)."""
        parts = module.split(".")
        for length in range(len(parts), 0, -1):
            found = self.by_import.get(".".join(parts[:length]))
            if found:
                return found
        return []


class KnowledgeBase:
    """All tables of a mappings directory. Load with `KnowledgeBase.load()`; it is cached per directory."""

    _cache: dict[Path, KnowledgeBase] = {}
    _lock = threading.Lock()

    def __init__(self, entries: list[Entry], inventory: dict[str, list[str]], directory: Path,
                 aliases: NameAliases | None = None) -> None:
        self.entries = entries
        self.inventory = inventory
        self.directory = directory
        self.aliases = aliases or NameAliases()
        self._views: dict[tuple, RouteView] = {}

    @classmethod
    def load(cls, directory: Path | None = None) -> KnowledgeBase:
        directory = directory or default_mappings_directory()
        cached = cls._cache.get(directory)  # by the path as given too: a scan asks once per file
        if cached is not None:
            return cached
        resolved = directory.resolve()
        with cls._lock:
            cached = cls._cache.get(resolved)
            if cached is None:
                cached = cls._cache[resolved] = cls.from_directory(resolved)
            cls._cache[directory] = cached
            return cached

    @classmethod
    def from_directory(cls, directory: Path) -> KnowledgeBase:
        if not directory.is_dir():
            raise KnowledgeBaseError(directory, None, "the mappings directory does not exist")
        paths = sorted(directory.glob("*.yaml"))
        digest = cache.tables_digest(paths)
        cached = cache.load(digest)
        if cached is not None:
            cached_entries, cached_inventory, cached_aliases = cached
            return cls(cached_entries, cached_inventory, directory, cached_aliases)
        from ascend_migrate.kb.loader import load_table_parts  # yaml: only when the tables changed since the cache

        entries: list[Entry] = []
        inventory: dict[str, list[str]] = {}
        alias_groups: list[list[str]] = []
        module_aliases: dict[str, str] = {}
        for path in paths:
            parts = load_table_parts(path)
            entries.extend(parts.entries)
            for module, names in parts.inventory.items():
                inventory.setdefault(module, []).extend(names)
            alias_groups.extend(parts.aliases)
            module_aliases.update(parts.module_aliases)
        _refuse_duplicates(entries, directory)
        aliases = NameAliases.build(alias_groups, module_aliases)
        cache.store(digest, (entries, inventory, aliases))
        return cls(entries, inventory, directory, aliases)

    @cached_property
    def by_key(self) -> dict[str, Entry]:
        return {entry.key: entry for entry in self.entries}

    @cached_property
    def _inventory_names(self) -> frozenset[str]:
        return frozenset(f"{module}.{name}" for module, names in self.inventory.items() for name in names)

    def view(self, route: str, torch_version: str, target_version: str, tensorflow_version: str = "2.6") -> RouteView:
        """The entries that apply to `route` for these versions.

        `source_versions` of an entry is read against the TensorFlow version for TensorFlow and Keras APIs
        and against the torch version for everything else; `target_versions` against the MindSpore version.
        """
        view = self._views.get((route, torch_version, target_version, tensorflow_version))
        if view is not None:  # asked for by the same texts: once per file of a scan
            return view
        key = (route, parse_version(torch_version), parse_version(target_version), parse_version(tensorflow_version))
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = self._build_view(*key)
        self._views[(route, torch_version, target_version, tensorflow_version)] = view
        return view

    def _build_view(
        self, route: str, torch_version: tuple[int, ...], target_version: tuple[int, ...], tensorflow_version: tuple[int, ...]
    ) -> RouteView:
        view = RouteView(route=route, inventory=self._inventory_names, aliases=self.aliases)
        for entry in self.entries:
            if entry.route != route:
                continue
            source_version = tensorflow_version if entry.api.startswith(("tensorflow", "keras")) else torch_version
            if not entry.source_versions.contains(source_version):
                continue
            if not entry.target_versions.contains(target_version):
                if entry.match == "name" and entry.target:
                    view.other_versions.setdefault(entry.api, entry)
                continue
            if entry.match == "name":
                if entry.condition == "prefix":
                    view.by_prefix.setdefault(entry.api, []).append(entry)
                view.by_name.setdefault(entry.api, []).append(entry)
            elif entry.match == "method":
                view.by_method.setdefault(entry.method_name, []).append(entry)
            elif entry.match == "import":
                view.by_import.setdefault(entry.api, []).append(entry)
            elif entry.match == "string":
                view.by_string.setdefault(entry.api, []).append(entry)
            elif entry.match == "definition":
                view.definitions.setdefault(entry.method_name, []).append(entry)
            elif entry.match == "pattern":
                view.patterns.setdefault(entry.condition or entry.api, []).append(entry)
        for api, found in view.by_name.items():
            canonical = self.aliases.canonical(api)
            if canonical != api and canonical not in view.by_name:
                view.by_canonical_name.setdefault(canonical, []).extend(found)
        view.roots = frozenset(
            name.split(".", 1)[0] for name in (*view.by_name, *view.inventory)
        ) | self.aliases.roots
        return view

    def lookup(self, name: str) -> list[Entry]:
        """Every entry whose api is `name`, or starts with `name` when it ends with a dot or `*` (for search)."""
        if name.endswith("*") or name.endswith("."):
            prefix = name.rstrip("*")
            return [entry for entry in self.entries if entry.api.startswith(prefix)]
        return [entry for entry in self.entries if entry.api == name]


def _refuse_duplicates(entries: list[Entry], directory: Path) -> None:
    seen: dict[tuple, Entry] = {}
    for entry in entries:
        identity = (entry.api, entry.route, entry.match, entry.condition, entry.receiver,
                    entry.source_versions.text, entry.target_versions.text)
        earlier = seen.get(identity)
        if earlier is not None:
            raise KnowledgeBaseError(
                directory / f"{entry.table}.yaml",
                entry.line,
                f"duplicate entry for {entry.api!r} (route {entry.route}, match {entry.match}, versions "
                f"{entry.source_versions}/{entry.target_versions}); the first is {earlier.table}.yaml:{earlier.line}",
            )
        seen[identity] = entry
