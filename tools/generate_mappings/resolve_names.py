"""Reads qualified names on stdin (one a line) and prints JSON {name: true/false}: whether each resolves.

Run it with an interpreter that has the package installed; it imports the longest importable module prefix
and follows getattr for the rest, the same check `ascend-migrate kb verify` makes. Standard library only.
"""

from __future__ import annotations

import importlib
import json
import sys
import warnings
from pathlib import Path


def resolves(name: str) -> bool:
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:length]))
        except Exception:  # not a module at this length, or it fails to import here: try a shorter prefix
            continue
        for attribute in parts[length:]:
            try:
                value = getattr(value, attribute)
            except Exception:
                return False
        return True
    return False


def main() -> int:
    warnings.simplefilter("ignore")
    names = [line.strip() for line in sys.stdin if line.strip()]
    json.dump({name: resolves(name) for name in names}, sys.stdout, indent=0, sort_keys=True)
    return 0


if __name__ == "__main__":
    # Run as a script, this folder comes first on sys.path, and its modules (tensorflow_rows, numeric, ...)
    # must not shadow the packages being inspected.
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main())
