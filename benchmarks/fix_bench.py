"""`ascend-migrate fix --diff` on files with N fixes in one statement and N fixes over N statements.

The time of `fix` must grow linearly with the number of fixes, wherever they are. Each file is generated
here (a realistic mix of what `fix` changes) and fixed in a fresh process; beside the whole command, a
probe times `fix_all` alone (the fixes room's share; the rest is analysis, start-up and the diff).
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from corpus import WORK
from report import Table, seconds
from timing import Samples, run_once, run_timed

DIRECTORY = WORK / "fix"

# What one fix looks like in each file, by target: the npu route mixes a plain rename edit, a device
# string (a plain edit) and a method rename, and adds `import torch_npu`; the mindspore route renames
# the callee and a keyword (`call-arguments`, a libcst rewrite of each call), adds `import mindspore` and
# `from mindspore import mint`, and removes `import torch` once nothing uses it.
ELEMENTS = {
    "npu": ("torch.cuda.synchronize()", 'torch.device("cuda:0")', "x.cuda()"),
    # Only entries whose fix the numeric battery ran count as safe (issue 16): glu's keyword renames and abs.
    "mindspore": ("torch.nn.functional.glu(input=x, dim=0)", "torch.abs(x)", "torch.nn.functional.glu(x, dim=-1)"),
}
# What each element looks like once fixed, to count that every fix was applied.
FIXED = {
    "npu": ("torch.npu.synchronize()", 'torch.device("npu:0")', "x.npu()"),
    "mindspore": ("mindspore.ops.glu(x=x, axis=0)", "mint.abs(x)", "mindspore.ops.glu(x, axis=-1)"),
}
LAYOUTS = ("one statement", "N statements")

PROBE = r"""
import json, sys, time
from pathlib import Path
from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_all
path, target, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
source = Path(path).read_text(encoding="utf-8")
findings = analyze_file(source, path, Settings(target=target)).findings
times = []
for _ in range(repeats):
    started = time.process_time()
    result = fix_all(source, findings)
    times.append(time.process_time() - started)
print(json.dumps({"seconds": times, "applied": len(result.applied), "changes": len(result.changes)}))
"""


@dataclass
class FixMeasurement:
    """`fix --diff` on one generated file, and `fix_all` alone on its first pass."""

    target: str
    layout: str
    fixes: int
    samples: Samples
    fix_all_seconds: float  # CPU seconds of one fix_all call, median


def generate(target: str, layout: str, count: int) -> Path:
    """A file with `count` fixable expressions: all in one list on one line, or one per statement."""
    elements = ELEMENTS[target]
    expressions = [elements[number % len(elements)] for number in range(count)]
    header = "import torch\n\nx = torch.ones(2)\n"
    if layout == "one statement":
        body = "values = [" + ", ".join(expressions) + "]\n"
    else:
        body = "".join(f"value_{number} = {expression}\n" for number, expression in enumerate(expressions))
    path = DIRECTORY / f"{target}-{layout.replace(' ', '-')}-{count}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + body, encoding="utf-8")
    return path


def measure(target: str, layout: str, count: int, repeats: int) -> FixMeasurement:
    path = generate(target, layout, count)
    diff = path.with_suffix(".diff")
    command = [sys.executable, "-m", "ascend_migrate", "fix", str(path), "--target", target, "--diff"]
    samples, _ = run_timed(command, repeats, ok_statuses=(1,), cwd=DIRECTORY, stdout_path=diff)
    added = [line for line in diff.read_text(encoding="utf-8").splitlines() if line.startswith("+") and not line.startswith("+++")]
    fixed = sum(line.count(text) for line in added for text in FIXED[target])
    if fixed != count:
        raise RuntimeError(f"fix --diff of {path.name} fixed {fixed} of its {count} expressions")
    _, _, output = run_once([sys.executable, "-c", PROBE, str(path), target, str(repeats)], cwd=DIRECTORY)
    probe = json.loads(output)
    if probe["applied"] < count:
        raise RuntimeError(f"fix_all applied {probe['applied']} fixes to {path.name}, expected at least {count}")
    return FixMeasurement(target, layout, count, samples, statistics.median(probe["seconds"]))


def fix_table(sizes: tuple[int, ...], repeats: int) -> Table:
    """The `fix` part of benchmarks/run.py: every target and layout at every size, with the cost per fix."""
    repeats = min(repeats, 3)
    table = Table(f"`ascend-migrate fix --diff` with N fixes in one statement (one line) and over N statements "
                  f"(median of {repeats} runs, one warm-up)",
                  ("target", "layout", "fixes", "wall", "CPU", "CPU ms per fix", "CPU ms per added fix", "fix_all CPU",
                   "fix_all µs per fix"))
    for target in ("npu", "mindspore"):
        for layout in LAYOUTS:
            previous: FixMeasurement | None = None
            for count in sizes:
                row = measure(target, layout, count, repeats)
                cpu = row.samples.cpu_median
                added = "" if previous is None else \
                    f"{1000 * (cpu - previous.samples.cpu_median) / (count - previous.fixes):.3f}"
                table.add(target, layout, f"{count:,}", seconds(row.samples.wall_median), seconds(cpu),
                          f"{1000 * cpu / count:.3f}", added, seconds(row.fix_all_seconds),
                          f"{1e6 * row.fix_all_seconds / count:.0f}")
                previous = row
    table.notes.append("CPU ms per added fix = (CPU at this size − CPU at the size above) / (fixes added): the same at "
                       "every size when the time grows linearly (CPU time, as other load on a shared machine inflates "
                       "wall time). The command's time includes start-up, two analyses (the fix pass, and the pass "
                       "that finds nothing left) and the diff; fix_all is the fixes room alone on the first pass, "
                       "in-process (median of the same number of calls).")
    table.notes.append("npu: a rename, a device string and a method rename per three fixes, plus `import torch_npu`; "
                       "mindspore: a callee and keyword rewrite (libcst) per fix, two added imports and `import torch` "
                       "removed. Files are generated in benchmarks/.work/fix/.")
    return table
