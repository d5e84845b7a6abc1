"""Code an Ascend machine never runs: the branches of an if/elif chain after one whose test holds on the NPU, and
those before it that test for another device; a class's `cuda` method beside its own `npu` method. The npu route
reports nothing there (the code already handles the NPU); a MindSpore port still replaces every branch, so that
route keeps its findings.

mmengine chooses its device with `if is_npu_available(): DEVICE = 'npu' elif is_cuda_available(): DEVICE = 'cuda'`
and its collectives with `if backend == 'hccl': ... elif backend == NCCL: torch.cuda.current_device()`; on an NPU
machine the CUDA branch is never taken, so nothing in it needs a change. Session 6 quieted the same shape inside
one expression (`"npu" if ... else "cuda"`, rules/strings.py); this is its statement form.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator

from ascend_migrate.analysis.emit import FindingFactory
from ascend_migrate.analysis.findings import Finding

# Words of a name or string that say Ascend: `is_npu_available()`, `torch.npu.is_available()`, `IS_NPU_AVAILABLE`,
# `is_hccl_backend`, `device == 'npu:0'`, `backend == 'hccl'`, `soc == 'Ascend910B'` (the word begins the string).
_ASCEND_WORDS = frozenset({"npu", "hccl", "ascend"})
# Words of another accelerator or its collective backend: a test for one of them does not hold on an NPU machine.
# The host's words (cpu, gloo, auto, meta) are not among them: an NPU machine may take such a branch.
_OTHER_DEVICE_WORDS = frozenset({"cuda", "gpu", "nccl", "mps", "xpu", "mlu", "cncl", "musa", "mccl", "hip", "rocm",
                                 "xla", "tpu", "hpu", "dipu", "smddp", "nvidia"})
# A comparison with these asks whether the code is NOT on the NPU: its branch is not the NPU's.
_NEGATED = (ast.NotEq, ast.NotIn, ast.IsNot)

Position = tuple[int, int]


def without_unreached(findings: list[Finding], statements: list[ast.stmt], factory: FindingFactory,
                      text: list[str]) -> list[Finding]:
    """`findings` less those inside code the NPU never runs (the npu route's view of a walked chunk whose source
    lines are `text`). Only the statements that hold a finding are read, and none where the text never names Ascend."""
    if not findings or not any(word in line.lower() for line in text for word in _ASCEND_WORDS):
        return findings
    lines = sorted({finding.line for finding in findings})
    offset = factory.line_offset

    def holds_a_finding(statement: ast.stmt) -> bool:
        first = bisect.bisect_left(lines, statement.lineno + offset)
        return first < len(lines) and lines[first] <= (statement.end_lineno or statement.lineno) + offset

    spans = [_span(node, factory) for node in _unreached(_statements_holding(statements, holds_a_finding))]
    if not spans:
        return findings
    return [finding for finding in findings
            if not any(start <= (finding.line, finding.column) < end for start, end in spans)]


def _span(node: ast.AST, factory: FindingFactory) -> tuple[Position, Position]:
    line, column, end_line, end_column = factory.span(node)  # type: ignore[arg-type]
    return (line, column), (end_line, end_column)


def _statements_holding(statements: list[ast.stmt], holds_a_finding) -> Iterator[ast.stmt]:
    """The statements at any depth that hold a finding, each before those inside it (an if before its elif)."""
    pending = list(reversed(statements))
    while pending:
        statement = pending.pop()
        if not holds_a_finding(statement):
            continue
        yield statement
        inner: list[ast.stmt] = []
        for block in ("body", "orelse", "finalbody"):
            inner.extend(getattr(statement, block, ()))
        for holder in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            inner.extend(holder.body)
        pending.extend(reversed(inner))


def _unreached(statements: Iterator[ast.stmt]):
    """The tests and statements of every branch an NPU machine does not take, among `statements`: in an if/elif
    chain with a branch whose test holds whenever the code runs on the NPU, every branch after it, and every
    branch before it whose test asks for another device (which does not hold there)."""
    continued: set[int] = set()  # `elif` nodes: read with the chain that holds them
    for node in statements:
        if type(node) is ast.If and id(node) not in continued:
            branches, last = _chain(node)
            continued.update(id(holder) for holder, _ in branches[1:])
            npu_branch = next((index for index, (holder, _) in enumerate(branches) if _holds_on_npu(holder.test)), None)
            if npu_branch is None:
                continue
            for index, (holder, body) in enumerate(branches):
                if index > npu_branch or (index < npu_branch and _asks_for_another_device(holder.test)):
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


def _holds_on_npu(test: ast.expr) -> bool:
    """Whether a branch's test holds whenever the code runs on the NPU: it asks for the NPU without negating it
    (`is_npu_available()`, `device.type == 'npu'`, `backend in ('hccl', 'nccl')`, `is_hccl_backend or use_cpu`).
    `args.gpu is not None and torch.npu.is_available()` may not hold there: the NPU can fall to a later branch."""
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.Or):
            return any(_holds_on_npu(value) for value in test.values)
        return all(_holds_on_npu(value) for value in test.values)
    return _asks_for(test, _names_ascend)


def _asks_for_another_device(test: ast.expr) -> bool:
    """Whether a branch's test holds only on another device (`is_cuda_available()`, `backend == Backend.NCCL`,
    `device_type == 'cuda'`, `hasattr(torch.backends, 'mps') and torch.backends.mps.is_available()`), so an NPU
    machine does not take it when the chain has an NPU branch of its own."""
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And):
            return any(_asks_for_another_device(value) for value in test.values)
        return all(_asks_for_another_device(value) for value in test.values)
    return _asks_for(test, _names_another_device)


def _asks_for(test: ast.expr, names) -> bool:
    """A positive test (a call, a name, an attribute, or a comparison by ==, in or is) whose parts `names`."""
    if isinstance(test, ast.Compare):
        if any(isinstance(operator, _NEGATED) for operator in test.ops):
            return False
        return any(names(operand) for operand in (test.left, *test.comparators))
    if isinstance(test, (ast.Call, ast.Name, ast.Attribute)):
        return names(test)
    return False


def _names_ascend(node: ast.expr) -> bool:
    """Whether an expression names Ascend: a name, attribute or string whose words include npu, hccl or ascend."""
    return _names(node, _ASCEND_WORDS)


def _names_another_device(node: ast.expr) -> bool:
    return _names(node, _OTHER_DEVICE_WORDS)


def _names(node: ast.expr, wanted: frozenset[str]) -> bool:
    """Whether a name, attribute or string in `node` has one of the `wanted` words."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            words = part.id
        elif isinstance(part, ast.Attribute):
            words = part.attr
        elif isinstance(part, ast.Constant) and isinstance(part.value, str) and len(part.value) < 40:
            words = part.value.split(":", 1)[0]
        else:
            continue
        if wanted.intersection(_words(words)):
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
