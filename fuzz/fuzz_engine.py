"""Atheris fuzz target: the engine and the fixes on arbitrary bytes, read the way `scan` reads a file.

What must hold for every input: decoding fails only with ValueError; analysis never raises and reports
positions inside the text; when the text parses, every quick fix alone leaves code that parses (or is
refused with FixError) and fix-all leaves code that parses. The input's length picks the target (odd:
mindspore, even: npu). Run it with fuzz/run.sh.
"""

from __future__ import annotations

import ast
import sys

import atheris

with atheris.instrument_imports(include=["ascend_migrate"]):
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.files import decode_source, split_lines
    from ascend_migrate.config import Settings
    from ascend_migrate.fixes import FixError, apply_edits, edits_for, fix_all

TARGETS = (Settings(target="npu"), Settings(target="mindspore"))


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def check(data: bytes) -> None:
    settings = TARGETS[len(data) & 1]
    try:
        source = decode_source(data)
    except ValueError:
        source = data.decode("utf-8", "replace")  # what an editor would hold for such a file
    result = analyze_file(source, "fuzz.py", settings)
    lines = split_lines(source)
    for finding in result.findings:
        if not (1 <= finding.line <= finding.end_line <= len(lines) and finding.column >= 1 and finding.end_column >= 1):
            raise AssertionError(f"finding outside the text: {finding}")
    if not parses(source):
        return
    for finding in result.findings:
        if finding.fix is None:
            continue
        try:
            fixed = apply_edits(source, edits_for(finding.fix, source))
        except FixError:
            continue
        if not parses(fixed):
            raise AssertionError(f"the quick fix for {finding.code} at {finding.line}:{finding.column} breaks the code")
    if not parses(fix_all(source, result.findings, unsafe=True).text):
        raise AssertionError("fix-all breaks the code")


def main() -> None:
    for settings in TARGETS:  # load the knowledge base before the clock starts
        analyze_file("import torch\ntorch.cuda.synchronize()\n", "warm.py", settings)
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
