"""Instructions per incremental edit: a file analysed once, then N one-line edits re-analysed as the language server
does (analysis/incremental.analyze_document with the previous analysis and the edit), run under callgrind twice
(N=0 and N=EDITS) so the difference divided by EDITS is the cost of one edit, start-up and the first analysis
excluded. Prints a digest of the last analysis's findings, so two versions of the code can be shown to agree.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/incremental_edit_bench.py FILE 0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/incremental_edit_bench.py FILE 40

The edit types a character at the end of a comment line inside a function's body and takes it back (two edits), so
the text alternates between two states and each edit re-walks one chunk (no import or binding changes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from ascend_migrate.analysis.incremental import analyze_document  # noqa: E402
from ascend_migrate.analysis.line_edits import LineEdit  # noqa: E402
from ascend_migrate.config import Settings  # noqa: E402
from ascend_migrate.kb.index import KnowledgeBase  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("edits", type=int)
    parser.add_argument("--target", default="mindspore", choices=("mindspore", "npu"))
    arguments = parser.parse_args()
    text = arguments.file.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    # the edited line: the last indented statement line of the file (inside a function), where a user types
    number = max(index for index, line in enumerate(lines, 1) if line.startswith("        ") and line.strip()
                 and not line.strip().startswith(("#", '"', "'")) and line.rstrip().endswith(")"))
    settings = Settings(target=arguments.target)
    knowledge_base = KnowledgeBase.load()
    path = str(arguments.file)
    analysis = analyze_document(text, path, settings, knowledge_base=knowledge_base)
    edit = LineEdit(number, number, number)
    for step in range(arguments.edits):
        edited = list(lines)
        if step % 2 == 0:
            edited[number - 1] = edited[number - 1].rstrip("\n") + "  # x\n"
        analysis = analyze_document("".join(edited), path, settings, previous=analysis, edit=edit, knowledge_base=knowledge_base)
    findings = [[finding.line, finding.column, finding.code, finding.message] for finding in analysis.findings]
    digest = hashlib.sha256(json.dumps(findings).encode()).hexdigest()[:16]
    print(f"{len(findings)} findings, digest {digest}, line {number} edited {arguments.edits} times")
    return 0


if __name__ == "__main__":
    sys.exit(main())
