"""Profile one in-process `workspace.scan` of a corpus with cProfile; print the top functions as JSON.

Usage: python profile_scan.py CORPUS_DIRECTORY TARGET OUTPUT_PREFIX. Writes OUTPUT_PREFIX.prof (for
snakeviz or pstats) and OUTPUT_PREFIX.txt (the top 40 by own time and by cumulative time).
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import sys
from pathlib import Path


def main(corpus: str, target: str, prefix: str) -> None:
    from ascend_migrate.config import Settings
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.workspace import scan

    KnowledgeBase.load()  # start-up is measured elsewhere; this profile is about the per-file work
    settings = Settings(target=target)
    profiler = cProfile.Profile()
    profiler.enable()
    result = scan([Path(corpus)], settings, jobs=1, relative_to=Path(corpus))
    profiler.disable()
    profiler.dump_stats(prefix + ".prof")
    text = io.StringIO()
    statistics = pstats.Stats(profiler, stream=text)
    statistics.sort_stats("tottime").print_stats(40)
    statistics.sort_stats("cumulative").print_stats(40)
    Path(prefix + ".txt").write_text(text.getvalue())
    rows = []
    total = sum(entry[2] for entry in statistics.stats.values())  # type: ignore[attr-defined]
    for (filename, line, function), (_, calls, own, cumulative, _) in statistics.stats.items():  # type: ignore[attr-defined]
        rows.append({"function": f"{_short(filename)}:{line}({function})", "calls": calls, "own": own, "cumulative": cumulative})
    rows.sort(key=lambda row: row["own"], reverse=True)
    print(json.dumps({"total_own": total, "files": result.files_scanned, "findings": len(result.findings), "top": rows[:15]}))


def _short(filename: str) -> str:
    for marker in ("/ascend_migrate/", "/lib/python3"):
        if marker in filename:
            return filename[filename.index(marker) + 1:]
    return filename


if __name__ == "__main__":
    main(*sys.argv[1:4])
