"""A cache of the code that attrs and cattrs generate, so the language server starts without recompiling it.

Importing `lsprotocol.types` defines about 570 attrs classes, and attrs writes the source of their
`__init__`, `__repr__`, `__eq__`... and passes it to `compile()`; cattrs does the same for the functions that
structure the `initialize` request. On the development machines that compiling is about half of the
server's start-up (0.17-0.23 s of 0.33-0.46 s for `import lsprotocol.types`), and it produces the same code
objects every time. This module puts a caching `compile` into the namespaces of `attr._make` and
`cattrs.gen` (the two modules whose generated code is compiled): a code object is taken from the cache when
the same source, file name and mode were compiled before under the same interpreter and library versions,
and compiled (and remembered) otherwise. What the libraries do with the code is untouched.

Exactness: `compile()` called without flags inherits the `__future__` features of the module that calls it,
so the cache compiles with exactly the features of the module it stands in for. The cache file is keyed by
the interpreter (bytecode changes between versions) and its optimisation level, and every entry by a digest
of the mode, file name, flags and full source, so a new attrs or cattrs that generates other code simply
misses. A cache that cannot be read, or a call the cache does not understand, falls back to the real
`compile`. When it is written, it keeps only the entries this process used, so it never grows stale.

The file lives beside the knowledge base's cache (`kb.cache.cache_directory()`, so ASCEND_MIGRATE_CACHE_DIR
applies, and an empty value turns it off) and is written atomically when new code was compiled. Its code runs
as attrs' methods, so it is read under the same rule as that cache: only a file no other user could have
written (`kb.cache.open_private`).
"""

from __future__ import annotations
import __future__

import builtins
import hashlib
import marshal
import sys
from pathlib import Path
from types import CodeType, ModuleType

_FORMAT = 1


class GeneratedCodeCache:
    """Code objects by a digest of (mode, file name, source); `compile` is the stand-in for the builtin."""

    def __init__(self, path: Path | None, known: dict[bytes, CodeType]) -> None:
        self.path = path
        self.known = known
        self.used: dict[bytes, CodeType] = {}
        self.added = 0

    def compiler_for(self, module: ModuleType):
        """A `compile` that behaves as the builtin does when `module` calls it without flags."""
        inherited = _future_flags(module)

        def compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **unknown):  # noqa: A001
            if flags or dont_inherit or optimize != -1 or unknown or not isinstance(source, str):
                flags |= 0 if dont_inherit else inherited
                return builtins.compile(source, filename, mode, flags, True, optimize, **unknown)
            key = hashlib.blake2b(f"{mode}\0{filename}\0{inherited}\0{source}".encode(), digest_size=16).digest()
            code = self.known.get(key)
            if code is None:
                code = builtins.compile(source, filename, mode, inherited, True)
                self.known[key] = code
                self.added += 1
            self.used[key] = code
            return code

        return compile

    def save(self) -> bool:
        """Write the cache if anything was compiled since it was read; False when it could not be written."""
        if self.path is None or not self.added:
            return True
        from ascend_migrate.kb.cache import make_private_directory

        if not make_private_directory(self.path.parent):
            return False
        try:
            from ascend_migrate.files import write_atomically

            write_atomically(self.path, marshal.dumps(self.used), mode=0o600)  # owner-only: see kb.cache.open_private
        except (OSError, ValueError):
            return False  # a read-only home is no reason to fail; the next start compiles again
        self.added = 0
        return True


def install() -> GeneratedCodeCache:
    """Read the cache and put its `compile` into attrs' and cattrs' generators (before lsprotocol is imported)."""
    path = cache_path()
    cache = GeneratedCodeCache(path, _read(path) if path is not None else {})
    try:
        import attr._make
        import cattrs.gen
    except ImportError:
        return cache
    for module in (attr._make, cattrs.gen):
        # Only where the module calls the builtin by its plain name: any other shape is left alone.
        if "compile" not in module.__dict__:
            module.__dict__["compile"] = cache.compiler_for(module)
    return cache


def cache_path() -> Path | None:
    from ascend_migrate.kb.cache import cache_directory

    directory = cache_directory()
    if directory is None:
        return None
    identity = f"{_FORMAT}:{sys.version}:{sys.implementation.cache_tag}:{sys.flags.optimize}"
    return directory / f"generated-code-{hashlib.sha256(identity.encode()).hexdigest()[:20]}.marshal"


def _read(path: Path) -> dict[bytes, CodeType]:
    from ascend_migrate.kb.cache import open_private

    try:
        handle = open_private(path)
        if handle is None:
            return {}
        with handle:
            known = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(known, dict):
        return {}
    return {key: code for key, code in known.items() if isinstance(key, bytes) and isinstance(code, CodeType)}


def _future_flags(module: ModuleType) -> int:
    """The compiler flags of the `from __future__ import ...` statements at the top of `module`."""
    flags = 0
    for name in __future__.all_feature_names:
        feature = getattr(__future__, name)
        if name in module.__dict__ and module.__dict__[name] is feature:
            flags |= feature.compiler_flag
    return flags
