"""How the judged sample was drawn (run by hand, never by the tests): findings of `scan --format json` drawn at
random per code, each cut down to a short excerpt that still gives the finding.

    python tests/precision/judged/draw.py SCAN.json ROOT LABEL ROUTE PER_CODE SEED > drawn.json

ROOT is the directory the scan ran on (only findings under it are drawn), LABEL names the package and version
("torchvision 0.29.1"). An excerpt is the file's module-level imports that it uses, the headers of the classes and functions
around the finding (other enclosing blocks become `if True:`), the assignments of the names the finding's
statement reads earlier in its function, and the statement itself, with its original line breaks. A drawn
finding whose excerpt does not give the same code at the same place again is replaced by another draw. The
verdicts were then written by hand into findings.jsonl (verdict, status, one-line reason).
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

_HEADERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)


def _chain(tree: ast.Module, line: int) -> list[ast.AST]:
    """The statements enclosing `line`, outermost first, ending with the innermost statement on it."""
    chain: list[ast.AST] = []
    body: list[ast.AST] = list(tree.body)
    while True:
        found = None
        for statement in body:
            if isinstance(statement, ast.stmt) and statement.lineno <= line <= (statement.end_lineno or statement.lineno):
                found = statement
                break
        if found is None:
            return chain
        chain.append(found)
        inner: list[ast.AST] = []
        for field in ("body", "orelse", "finalbody"):
            inner.extend(getattr(found, field, []) or [])
        for handler in getattr(found, "handlers", []) or []:
            inner.extend(handler.body)
        for case in getattr(found, "cases", []) or []:
            inner.extend(case.body)
        if not inner or not any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in inner if isinstance(s, ast.stmt)):
            return chain
        body = inner


def excerpt(source: str, line: int) -> tuple[str, int] | None:
    """The excerpt and the finding's line in it, or None."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    out: list[str] = []
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            out.extend(lines[statement.lineno - 1:statement.end_lineno])
        elif isinstance(statement, ast.Try) and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in statement.body):
            out.extend(lines[statement.lineno - 1:statement.end_lineno])
    chain = _chain(tree, line)
    if not chain:
        return None
    target = chain[-1]
    if isinstance(target, _HEADERS + _BLOCKS) and target.lineno != line:
        return None  # the finding is on a header line of a block that holds more: too long to excerpt
    used = {node.id for node in ast.walk(target) if isinstance(node, ast.Name)}
    used |= {node.value.attr for node in ast.walk(target) if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)}
    depth_indent = ""
    for enclosing in chain[:-1]:
        indent = " " * enclosing.col_offset
        if isinstance(enclosing, _HEADERS):
            first_body = enclosing.body[0].lineno
            header = lines[enclosing.lineno - 1:first_body - 1]
            while header and not header[-1].rstrip().endswith(":"):  # a docstring or comment line after the colon
                header.pop()
            if not header:
                return None
            out.extend(header)
            depth_indent = " " * enclosing.body[0].col_offset
            # assignments earlier in this body to names the statement reads (types come from them)
            for statement in enclosing.body:
                if statement.lineno >= target.lineno:
                    break
                if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                    names = {node.id for t in targets for node in ast.walk(t) if isinstance(node, ast.Name)}
                    names |= {t.attr for t in targets if isinstance(t, ast.Attribute)}
                    if names & used and (statement.end_lineno or statement.lineno) - statement.lineno < 4:
                        out.extend(lines[statement.lineno - 1:statement.end_lineno])
        else:
            out.append(f"{indent}if True:")
            depth_indent = indent + "    "
    start, end = target.lineno, target.end_lineno or target.lineno
    if end - start > 6:
        return None
    statement_lines = lines[start - 1:end]
    shift = target.col_offset - len(depth_indent) if chain[:-1] else target.col_offset
    if shift < 0:
        return None
    finding_line = len(out) + 1 + (line - start)
    out.extend(text[shift:] if text[:shift].strip() == "" else text for text in statement_lines)
    return "\n".join(out) + "\n", finding_line


def used_imports_only(text: str, line: int) -> tuple[str, int]:
    """The excerpt without the import statements whose names it does not use (the finding's line moves up)."""
    lines = text.splitlines()
    tree = ast.parse(text)
    imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom, ast.Try))]
    end = max((s.end_lineno or s.lineno for s in imports), default=0)
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(lines[end:])))
    dropped: set[int] = set()
    for statement in imports:
        inner = statement.body if isinstance(statement, ast.Try) else [statement]
        names = [alias.asname or (alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name)
                 for node in inner if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names]
        if not any(name in words for name in names):
            dropped.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    kept = [text_line for number, text_line in enumerate(lines, 1) if number not in dropped]
    return "\n".join(kept) + "\n", line - len(dropped)


def main(argv: list[str]) -> int:
    scan_path, root, label, route, per_code, seed = argv
    prefix = str(Path(root).resolve()) + "/"
    findings = [f for f in json.loads(Path(scan_path).read_text())["findings"]
                if f["severity"] != "hint" and f["path"].startswith(prefix)]
    by_code: dict[str, list[dict]] = defaultdict(list)
    for finding in findings:
        by_code[finding["code"]].append(finding)
    generator = random.Random(int(seed))
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "server"))
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings
    from ascend_migrate.kb.index import KnowledgeBase
    knowledge_base = KnowledgeBase.load()
    settings = Settings(target=route)
    drawn = []
    for code in sorted(by_code):
        pool = by_code[code][:]
        generator.shuffle(pool)
        taken = 0
        for finding in pool:
            if taken >= int(per_code):
                break
            path = Path(finding["path"])
            made = excerpt(path.read_text(encoding="utf-8"), finding["line"])
            if made is None:
                continue
            text, line = used_imports_only(*made)
            again = analyze_file(text, path.name, settings, knowledge_base).findings
            if not any(f.code == code and f.line == line and f.api == finding["api"] and f.severity != "hint" for f in again):
                continue
            relative = finding["path"][len(prefix):]
            drawn.append({"source": f"{label}: {relative}:{finding['line']}", "route": route, "code": code,
                          "api": finding["api"], "line": line, "file": path.name, "excerpt": text,
                          "message": finding["message"]})
            taken += 1
    json.dump(drawn, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
