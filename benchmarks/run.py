"""Run every benchmark of issue 10 and print a table; the full run also writes benchmarks/RESULTS.md.

    .venv/bin/python benchmarks/run.py            # the full run (corpus from pinned PyPI packages, peers, LSP)
    .venv/bin/python benchmarks/run.py --smoke    # the CI smoke run: small, one repeat, asserts no timing

It measures the `ascend-migrate` installed in the Python that runs it. The corpus and the peers' venvs are
built under benchmarks/.work/ (gitignored) by pip, the only download; nothing else is fetched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpus_module  # noqa: E402
import fix_bench  # noqa: E402
import lsp_bench  # noqa: E402
import machine  # noqa: E402
import scan_bench  # noqa: E402
import startup_bench  # noqa: E402
from report import Table, as_markdown, as_text, megabytes, ratio, seconds, verdict, write_atomically  # noqa: E402
from timing import percentile  # noqa: E402

BENCHMARKS = Path(__file__).resolve().parent
TARGETS = ("npu", "mindspore")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a small run that catches crashes (CI); times nothing against goals")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measurement (default 5)")
    parser.add_argument("--torchfix-repeats", type=int, default=3, help="timed TorchFix runs (default 3)")
    parser.add_argument("--torchfix-lines", type=int, default=25_000, help="lines in the corpus sample for TorchFix")
    parser.add_argument("--skip", action="append", default=[], choices=("scan", "peers", "torchfix", "profile", "lsp", "memory", "startup", "fix"),
                        help="leave a part out (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only; do not rewrite RESULTS.md")
    parser.add_argument("--source", choices=("head", "worktree"), default=None,
                        help="measure the committed HEAD (a snapshot of server/ and mappings/, so edits in progress "
                             "cannot break a run; the default of the full run) or the work tree as it is (smoke default)")
    return parser.parse_args()


def main() -> int:
    arguments = parse_arguments()
    smoke = arguments.smoke
    repeats = 1 if smoke else arguments.repeats
    skip = set(arguments.skip) | ({"peers", "torchfix", "profile"} if smoke else set())
    tables: list[Table] = []
    failures: list[str] = []
    started = time.perf_counter()
    description = machine.describe()
    source = arguments.source or ("worktree" if smoke else "head")
    measured = machine.use_snapshot_of_head(corpus_module.WORK) if source == "head" else machine.project_version()
    print(f"[benchmarks] measuring ascend-migrate at {measured}", file=sys.stderr)
    # A knowledge-base cache of our own, new each run: a cache left by other code (same version number,
    # another schema) must not be measured, and the warm-up runs fill it as a user's first run would.
    kb_cache = corpus_module.WORK / "kb-cache"
    shutil.rmtree(kb_cache, ignore_errors=True)
    os.environ["ASCEND_MIGRATE_CACHE_DIR"] = str(kb_cache)

    def attempt(name: str, action) -> None:
        print(f"[benchmarks] {name} ...", file=sys.stderr, flush=True)
        try:
            action()
        except Exception as error:  # a crash is a result too: keep going, report it, fail at the end
            failures.append(f"{name}: {error}")
            traceback.print_exc()

    if smoke:
        built = corpus_module.build("corpus-smoke", list(corpus_module.SMOKE_REQUIREMENTS), corpus_module.SMOKE_SELECTION)
    else:
        built = corpus_module.build("corpus", corpus_module.read_requirements(corpus_module.CORPUS_REQUIREMENTS),
                                    corpus_module.FULL_SELECTION)
    tools = None if skip >= {"peers", "torchfix", "profile"} else corpus_module.ensure_tools()
    corpus_line = (f"{len(built.files)} files, {built.lines:,} lines, {built.bytes / 1e6:.1f} MB "
                   f"(digest {built.digest}) from " + ", ".join(f"{name} {version}" for name, version in built.packages.items()))
    print(f"[benchmarks] corpus: {corpus_line}", file=sys.stderr)

    if "scan" not in skip:
        attempt("scan throughput", lambda: tables.append(scan_table(built, repeats, tools, "peers" not in skip)))
    if "torchfix" not in skip:
        attempt("TorchFix comparison", lambda: tables.append(
            torchfix_table(built, arguments.torchfix_lines, repeats, arguments.torchfix_repeats, tools)))
    if "lsp" not in skip:
        sizes = (1000,) if smoke else (1000, 5000, 20000)
        attempt("edit latency", lambda: tables.append(latency_table(sizes, places=3 if smoke else 12)))
    if "memory" not in skip:
        attempt("server memory", lambda: tables.append(memory_table(10 if smoke else 200)))
    if "startup" not in skip:
        attempt("start-up", lambda: tables.append(startup_table(repeats, smoke)))
    if "fix" not in skip:
        attempt("fix", lambda: tables.append(fix_bench.fix_table((50, 200) if smoke else (1000, 4000, 16000), repeats)))
    if "profile" not in skip:
        attempt("profile", lambda: tables.extend(profile_tables(built, tools)))

    elapsed = time.perf_counter() - started
    print(as_text(tables))
    for failure in failures:
        print(f"FAILED: {failure}")
    if not smoke and not arguments.no_write:
        text = results_markdown(tables, description, corpus_line, tools, elapsed, failures, measured)
        write_atomically(BENCHMARKS / "RESULTS.md", text)
        print(f"[benchmarks] wrote {BENCHMARKS / 'RESULTS.md'}", file=sys.stderr)
    if smoke:
        write_atomically(corpus_module.WORK / "smoke-results.md", as_markdown(tables))
    state = "FAILED" if failures else "ok"
    print(f"benchmarks {'smoke ' if smoke else ''}{state}: {len(tables)} tables, {len(failures)} failures, {elapsed:.0f} s")
    return 1 if failures else 0


# --- the parts -------------------------------------------------------------------------------------------
def scan_table(built: corpus_module.Corpus, repeats: int, tools: Path | None, peers: bool) -> Table:
    table = Table(f"Scan throughput: {len(built.files)} files, {built.lines:,} lines of real PyTorch code, "
                  f"median of {repeats} runs (one warm-up)",
                  ("command", "wall", "CPU", "× floor (wall)", "lines/s", "notes"))
    floor, parse_only = scan_bench.floor(built, repeats)
    rows = [floor]
    ours: dict[tuple[str, int], scan_bench.ScanMeasurement] = {}
    for target in TARGETS:
        for jobs in (1, 2):
            ours[target, jobs] = scan_bench.ascend_migrate_scan(built, target, jobs, repeats)
            rows.append(ours[target, jobs])
    if peers and tools is not None:
        rows.append(scan_bench.ruff(built, tools, repeats))
        rows.append(scan_bench.ruff_default(built, tools, repeats))
    base = floor.samples.wall_median
    for row in rows:
        wall = row.samples.wall_median
        table.add(row.name, seconds(wall), seconds(row.samples.cpu_median), ratio(wall / base), f"{built.lines / wall:,.0f}", row.detail)
    table.notes.append(f"floor = a fresh `python floor.py` process that reads and ast.parses every file "
                       f"({seconds(parse_only)} of it inside ast.parse); every row is a whole process, start-up included.")
    base_cpu = floor.samples.cpu_median
    for target in TARGETS:
        single = ours[target, 1].samples.wall_median
        double = ours[target, 2].samples.wall_median
        single_cpu = ours[target, 1].samples.cpu_median
        table.notes.append(f"goal, {target}: scan --jobs 1 ≤ 2× floor: {ratio(single / base)} by wall time "
                           f"({ratio(single_cpu / base_cpu)} by CPU time), {verdict(single <= 2 * base)}; "
                           f"--jobs 2 ≥ 1.6× faster than --jobs 1: {ratio(single / double)}, {verdict(single / double >= 1.6)}")
    return table


def torchfix_table(built: corpus_module.Corpus, lines: int, repeats: int, torchfix_repeats: int, tools: Path | None) -> Table:
    sample = corpus_module.subset(built, "corpus-torchfix", lines)
    table = Table(f"TorchFix comparison on a sample of the corpus: {len(sample.files)} files, {sample.lines:,} lines "
                  f"(TorchFix median of {torchfix_repeats} runs, the others of {repeats})",
                  ("command", "wall", "CPU", "× floor (wall)", "notes"))
    floor, _ = scan_bench.floor(sample, repeats)
    rows = [floor] + [scan_bench.ascend_migrate_scan(sample, target, 1, repeats) for target in TARGETS]
    fixer = scan_bench.torchfix(sample, tools, torchfix_repeats)
    rows.append(fixer)
    base = floor.samples.wall_median
    for row in rows:
        table.add(row.name, seconds(row.samples.wall_median), seconds(row.samples.cpu_median),
                  ratio(row.samples.wall_median / base), row.detail)
    for row in rows[1:3]:
        speedup = fixer.samples.wall_median / row.samples.wall_median
        table.notes.append(f"goal: `{row.name}` ≥ 50× faster than TorchFix: {ratio(speedup)}, {verdict(speedup >= 50)}")
    table.notes.append("The sample is whole files chosen by a hash of their path (so the same every run); TorchFix is "
                       "too slow for the whole corpus at several repeats.")
    return table


def latency_table(sizes: tuple[int, ...], places: int) -> Table:
    table = Table("Edit latency through a real LSP connection (didChange → publishDiagnostics of that version)",
                  ("file", "edits", "sync", "open", "p50", "p95", "max", "server CPU p50 / p95", "ast.parse", "p95 / parse",
                   "goal p95 ≤ 0.5× parse"))
    for size in sizes:
        result = lsp_bench.measure_edit_latency(size, places=places)
        if not result.versions_matched:
            table.notes.append(f"{result.lines} lines: the server published diagnostics without a version; "
                               "latency was taken to the next publish for the document")
        share = result.p95 / result.parse_seconds
        table.add(f"{result.lines:,} lines", len(result.latencies), result.sync, seconds(result.open_seconds),
                  seconds(result.p50), seconds(result.p95), seconds(max(result.latencies)),
                  f"{seconds(percentile(result.server_cpu, 0.5))} / {seconds(percentile(result.server_cpu, 0.95))}",
                  seconds(result.parse_seconds),
                  ratio(share), verdict(share <= 0.5))
        by_place: dict[str, list[float]] = {}
        for place, latency in zip(result.places, result.latencies, strict=True):
            by_place.setdefault(place, []).append(latency)
        table.notes.append(f"{result.lines:,} lines, median by place: " + ", ".join(
            f"{place} {seconds(statistics.median(values))} (max {seconds(max(values))})" for place, values in by_place.items()))
    table.notes.append("Edits: at each place a line typed below a statement, its removal, a changed digit or comment, "
                       "and its restoration; one at a time, each waiting for its diagnostics. `open` is the first "
                       "analysis after didOpen. ast.parse is timed in the client process on the same text, 7 times before the edits and once after each (the median of all), so that it follows the machine through the run. "
                       "Server CPU is what all the server's threads ran between the didChange and its diagnostics "
                       "(from /proc schedstat): unlike wall time, other load on the machine does not inflate it.")
    return table


def memory_table(documents: int) -> Table:
    result = lsp_bench.measure_memory(documents)
    table = Table("Server memory (RSS of the server process and any children, from /proc)",
                  ("open documents", "lines each", "RSS after initialize", "RSS with documents", "time to publish all", "goal < 400 MB"))
    table.add(result.documents, f"{result.lines_each:,}", megabytes(result.rss_after_initialize),
              megabytes(result.rss_with_documents), seconds(result.seconds_to_analyse_all),
              verdict(result.rss_with_documents < 400 * 2**20))
    table.notes.append(f"{result.diagnostics} diagnostics published over all documents; documents are distinct "
                       "(different names and numbers), opened all at once.")
    return table


def startup_table(repeats: int, smoke: bool = False) -> Table:
    table = Table(f"Start-up (median of {max(repeats, 3)} fresh processes, one warm-up)", ("what", "time", "goal"))
    count = max(repeats, 3)
    scan_times, lines = startup_bench.scan_one_file(count)
    scan_median = statistics.median(scan_times)
    table.add(f"ascend-migrate scan of one {lines}-line file (JSON to a file)", seconds(scan_median),
              f"< 0.5 s: {verdict(scan_median < 0.5)}")
    starts = lsp_bench.measure_initialize({"ours": lsp_bench.SERVER_COMMAND, "bare": lsp_bench.BARE_PYGLS_COMMAND}, count)
    ours, bare = starts["ours"], starts["bare"]
    wall = statistics.median(run[0] for run in ours.runs)
    cpu = statistics.median(run[1] for run in ours.runs)
    table.add("server: process start → initialize answered", f"{seconds(wall)} (CPU {seconds(cpu)})",
              f"< 0.5 s: {verdict(wall < 0.5)}")
    table.add("the same, first start (writes .pyc files and the generated-code cache)",
              f"{seconds(ours.first[0])} (CPU {seconds(ours.first[1])})", "")
    table.add("a pygls server with no features: process start → initialize answered (the floor without our cache)",
              f"{seconds(statistics.median(run[0] for run in bare.runs))} (CPU {seconds(statistics.median(run[1] for run in bare.runs))})", "")
    if not smoke:
        ours_instructions = startup_bench.initialize_instructions(lsp_bench.SERVER_COMMAND)
        bare_instructions = startup_bench.initialize_instructions(lsp_bench.BARE_PYGLS_COMMAND)
        if ours_instructions is not None and bare_instructions is not None:
            table.add("instructions to answer initialize (and shut down), callgrind: ours / the featureless pygls server",
                      f"{ours_instructions / 1e9:.2f} G / {bare_instructions / 1e9:.2f} G = {ours_instructions / bare_instructions:.2f}×", "")
    table.add("bare `python -c pass` (for reference)", seconds(statistics.median(startup_bench.bare_interpreter(count))), "")
    knowledge_base = startup_bench.knowledge_base_load(count)
    table.add("knowledge base: import kb modules", seconds(knowledge_base["import"]), "")
    table.add(f"knowledge base: load and validate all tables ({knowledge_base['entries']:.0f} entries)",
              seconds(knowledge_base["load"]), "")
    table.add("knowledge base: build the npu and mindspore views", seconds(knowledge_base["index"]), "")
    return table


def profile_tables(built: corpus_module.Corpus, tools: Path | None) -> list[Table]:
    tables = []
    for target in TARGETS:
        prefix = corpus_module.WORK / f"profile-{target}"
        completed = subprocess.run([sys.executable, str(BENCHMARKS / "profile_scan.py"), str(built.directory), target, str(prefix)],
                                   capture_output=True, text=True, check=True)
        profile = json.loads(completed.stdout.strip().splitlines()[-1])
        total = profile["total_own"]
        table = Table(f"Profile of `scan --target {target} --jobs 1` over the corpus (cProfile, in-process; "
                      f"{total:.1f} s under the profiler)", ("function", "calls", "own", "own %", "cumulative"))
        for row in profile["top"][:12]:
            table.add(row["function"], f"{row['calls']:,}", seconds(row["own"]), f"{100 * row['own'] / total:.0f}%",
                      seconds(row["cumulative"]))
        table.notes.append(f"Full listing: benchmarks/.work/profile-{target}.txt; open profile-{target}.prof with pstats or snakeviz.")
        tables.append(table)
    if tools is not None and (tools / "py-spy").exists():
        tables.append(server_profile_table(tools))
    return tables


def server_profile_table(tools: Path, lines: int = 5000, duration: float = 20.0) -> Table:
    """py-spy on the real server process while the latency benchmark's edits are replayed."""
    output = corpus_module.WORK / f"server-profile-{lines}.collapsed"
    completed = subprocess.run([sys.executable, str(BENCHMARKS / "profile_server.py"), str(tools / "py-spy"), str(lines),
                                str(duration), str(output)], capture_output=True, text=True, check=True, cwd=BENCHMARKS)
    profile = json.loads(completed.stdout.strip().splitlines()[-1])
    total = profile["samples"] or 1
    table = Table(f"Where the server spends its time during edits (py-spy on all threads, {lines:,}-line file, "
                  f"{profile['edits']} edits, {profile['samples']} busy samples)", ("function (inclusive)", "share of busy samples"))
    entry_points = ("run (ascend_migrate/commands/serve.py", "<module> (ascend_migrate/__main__.py", "main (ascend_migrate/cli.py")
    shown = 0
    for function, count in profile["inclusive"]:
        interesting = any(part in function for part in ("ascend_migrate/", "cattrs/", "json/", "ast.py", "pygls/"))
        if interesting and not function.startswith(entry_points) and shown < 16:
            table.add(function, f"{100 * count / total:.0f}%")
            shown += 1
    table.notes.append("Own time, top: " + "; ".join(f"{function} {100 * count / total:.0f}%" for function, count in profile["own"][:8]))
    table.notes.append(f"Collapsed stacks: benchmarks/.work/{output.name} (for flamegraph.pl or speedscope).")
    return table


def results_markdown(tables: list[Table], description: dict[str, str], corpus_line: str, tools: Path | None,
                     elapsed: float, failures: list[str], measured: str) -> str:
    versions = machine.versions(tools, measured)
    lines = [
        "# Benchmark results",
        "",
        "Written by `benchmarks/run.py` (see docs/performance.md for what each number means and how to reproduce it).",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, in {elapsed / 60:.0f} minutes.",
        "",
        "## Machine",
        "",
        *(f"- {key}: {value}" for key, value in description.items()),
        f"- load average at end: {machine.load_average()}",
        "",
        "## Versions",
        "",
        *(f"- {key}: {value}" for key, value in versions.items()),
        f"- corpus: {corpus_line}",
        "",
    ]
    if failures:
        lines += ["## Failures", "", *(f"- {failure}" for failure in failures), ""]
    lines += ["## Results", "", as_markdown(tables)]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
