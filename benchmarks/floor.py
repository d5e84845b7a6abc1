"""The floor for any Python scanner: read and `ast.parse` every .py file under a directory, in one process.

Run as its own process so its time is comparable with a whole `ascend-migrate scan` (interpreter start-up
included). Prints one JSON line: files, lines and the seconds spent in ast.parse alone.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import time


def main(directory: str) -> None:
    files = lines = 0
    parse_seconds = 0.0
    for parent, directories, names in os.walk(directory):
        directories.sort()
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(parent, name), "rb") as handle:
                data = handle.read()
            started = time.perf_counter()
            ast.parse(data)
            parse_seconds += time.perf_counter() - started
            files += 1
            lines += data.count(b"\n")
    print(json.dumps({"files": files, "lines": lines, "parse_seconds": parse_seconds}))


if __name__ == "__main__":
    main(sys.argv[1])
