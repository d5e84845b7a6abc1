"""Code an Ascend machine never runs: the other branches of an if/elif chain that has its own NPU branch, and a
class's `cuda` method beside its own `npu` method. The npu route reports nothing there (the code already handles
the NPU); a MindSpore port still replaces every branch, so that route keeps its findings.

mmengine chooses its device with `if is_npu_available(): DEVICE = 'npu' elif is_cuda_available(): DEVICE = 'cuda'`
and its collectives with `if backend == 'hccl': ... elif backend == NCCL: torch.cuda.current_device()`; on an NPU
machine the CUDA branch is never taken, so nothing in it needs a change. Session 6 quieted the same shape inside
one expression (`"npu" if ... else "cuda"`, rules/strings.py); this is its statement form.
"""

from __future__ import annotations

import ast
import re

from ascend_migrate.analysis.emit import FindingFactory
from ascend_migrate.analysis.findings import Finding

# Words of a name or string that say Ascend: `is_npu_available()`, `torch.npu.is_available()`, `IS_NPU_AVAILABLE`,
# `is_hccl_backend`, `device == 'npu:0'`, `backend == 'hccl'`, `soc == 'Ascend910B'` (the word begins the string).
_ASCEND_WORDS = frozenset({"npu", "hccl", "ascend"})
# A comparison with these asks whether the code is NOT on the NPU: its branch is not the NPU's.
_NEGATED = (ast.NotEq, ast.NotIn, ast.IsNot)

Position = tuple[int, int]


def without_unreached(findings: list[Finding], statements: list[ast.stmt], factory: FindingFactory) -> list[Finding]:
    """`findings` less those inside code the NPU never runs (the npu route's view of a walked chunk)."""
    if not findings:
        return findings
    spans = [_span(node, factory) for node in _unreached(statements)]
    if not spans:
        return findings
    return [finding for finding in findings
            if not any(start <= (finding.line, finding.column) < end for start, end in spans)]


def _span(node: ast.AST, factory: FindingFactory) -> tuple[Position, Position]:
    line, column, end_line, end_column = factory.span(node)  # type: ignore[arg-type]
    return (line, column), (end_line, end_column)


def _unreached(statements: list[ast.stmt]):
    """The tests and statements of every branch an NPU machine does not take, in `statements` at any depth."""
    continued: set[int] = set()  # `elif` nodes: read with the chain that holds them
    for node in (part for statement in statements for part in ast.walk(statement)):
        if type(node) is ast.If and id(node) not in continued:
            branches, last = _chain(node)
            continued.update(id(test_holder) for test_holder, _ in branches[1:])
            if any(_tests_npu(holder.test) for holder, _ in branches):
                for holder, body in branches:
                    if not _tests_npu(holder.test):
                        yield holder.test
                        yield from body
                yield from last
        elif type(node) is ast.ClassDef:
            methods = {statement.name: statement for statement in node.body
                       if type(statement) is ast.FunctionDef or type(statement) is ast.AsyncFunctionDef}
            if "cuda" in methods and "npu" in methods:
                yield methods["cuda"]


def _chain(head: ast.If) -> tuple[list[tuple[ast.If, list[ast.stmt]]], list[ast.stmt]]:
    """The branches of `if ... elif ... else`: each `If` with its body, and the final else's statements."""
    branches = [(head, head.body)]
    node = head
    while len(node.orelse) == 1 and type(node.orelse[0]) is ast.If:
        node = node.orelse[0]
        branches.append((node, node.body))
    return branches, node.orelse


def _tests_npu(test: ast.expr) -> bool:
    """Whether a branch's test holds when the code runs on the NPU: it asks for the NPU without negating it
    (`is_npu_available()`, `device.type == 'npu'`, `backend in ('hccl', 'nccl')`, `a and is_hccl_backend`)."""
    if isinstance(test, ast.BoolOp):
        return any(_tests_npu(value) for value in test.values)
    if isinstance(test, ast.Compare):
        if any(isinstance(operator, _NEGATED) for operator in test.ops):
            return False
        return any(_names_ascend(operand) for operand in (test.left, *test.comparators))
    if isinstance(test, (ast.Call, ast.Name, ast.Attribute)):
        return _names_ascend(test)
    return False


def _names_ascend(node: ast.expr) -> bool:
    """Whether an expression names Ascend: a name, attribute or string whose words include npu, hccl or ascend."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            words = part.id
        elif isinstance(part, ast.Attribute):
            words = part.attr
        elif isinstance(part, ast.Constant) and isinstance(part.value, str) and len(part.value) < 40:
            words = part.value.split(":", 1)[0]
        else:
            continue
        if _ASCEND_WORDS.intersection(_words(words)):
            return True
    return False


def _words(text: str) -> set[str]:
    """`is_npu_available` → is, npu, available; a word that goes on with digits also counts by its letters
    (`Ascend910B` → ascend910b and ascend)."""
    words = set()
    for word in text.lower().replace(".", "_").split("_"):
        words.add(word)
        letters = _LEADING_LETTERS.match(word)
        if letters:
            words.add(letters.group())
    return words


_LEADING_LETTERS = re.compile("[a-z]+")
