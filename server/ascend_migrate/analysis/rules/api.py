"""The declared rule API: the events a rule can handle, the one context a rule sees, and how a rule declares itself.

A rule module declares `RULE = Rule(name, hooks={EVENT: handler, ...}, matchers=..., flags=..., leaves_alone=...)`.
The walker reads those declarations once per module it analyses and calls each handler directly while it visits
(one pass; no rule walks the tree). A handler's first argument is always the `RuleContext`; the walker itself
is never handed to a rule.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ascend_migrate.analysis.emit import FindingFactory, Span
from ascend_migrate.analysis.findings import Finding
from ascend_migrate.analysis.symbols import TypeSystem
from ascend_migrate.kb.index import RouteView

# --- events: what the walker offers, and what each handler receives after the context ----------------------
IMPORT = "import"  # (node: ast.Import | ast.ImportFrom), before its names are bound
REFERENCE = "reference"  # (qualified: str, node, call: ast.Call | None, root: str | None): a name rooted in an import
ATTRIBUTE = "attribute"  # (node: ast.Attribute, receiver_type: str | None, call, intermediate: str): not rooted in an import;
# intermediate is the attribute read on this one (`synchronize` for `.cuda` in `x.cuda.synchronize()`), WRITTEN_IN_PLACE
# when the attribute's value is written in place (`p.data[:] = v`, `p.data *= v`), else ""
WRITTEN_IN_PLACE = "<written in place>"  # no identifier: never an attribute's name
CALL = "call"  # (node: ast.Call), after its callee and arguments were visited
BINARY_OPERATION = "binary-operation"  # (node: ast.BinOp), after both operands
COMPARE = "compare"  # (node: ast.Compare)
SUBSCRIPT = "subscript"  # (node: ast.Subscript), load or store
STRING = "string"  # (node: ast.Constant) holding a str, outside docstrings
DICT = "dict"  # (node: ast.Dict)
ASSIGNMENT = "assignment"  # (targets: list[ast.expr], value: ast.expr): `=` and annotated `=`
FUNCTION_DEFINITION = "function-definition"  # (node: ast.FunctionDef | ast.AsyncFunctionDef), before its body
METHOD_DEFINITION = "method-definition"  # (node, class_type: "local:Name"): a function defined in a class body
CLASS_DEFINITION = "class-definition"  # (node: ast.ClassDef), before its body
LOOP = "loop"  # (node: ast.For | ast.AsyncFor), after its body
FORMATTED_VALUE = "formatted-value"  # (node: ast.FormattedValue): an f-string's `{value:spec}`, after its parts

EVENTS = (IMPORT, REFERENCE, ATTRIBUTE, CALL, BINARY_OPERATION, COMPARE, SUBSCRIPT, STRING, DICT, ASSIGNMENT,
          FUNCTION_DEFINITION, METHOD_DEFINITION, CLASS_DEFINITION, LOOP, FORMATTED_VALUE)

Handler = Callable[..., None]


@dataclass(frozen=True)
class Matcher:
    """A code shape named by `match: pattern` entries (`condition: rms-norm`): called on `event` only when the
    route's view has entries under its name. `called` narrows a CALL matcher to calls whose callee ends in one
    of those identifiers (`rsqrt` for `torch.rsqrt(...)`, `view` for `x.view(...)`): one dictionary lookup per
    call for all of them. One handler may serve several names (it is installed once)."""

    event: str
    handler: Handler
    called: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Example:
    """A realistic snippet for one route. A line the rule must flag ends in `# expect: CODE` (codes separated by
    commas); every other line must carry no finding of the codes the example is about (its expected codes and
    `codes`). The same snippet thus says what is flagged and what is left alone."""

    route: str
    source: str
    codes: tuple[str, ...] = ()
    mindspore_version: str | None = None  # the MindSpore target the snippet is analysed for (None: the default)


@dataclass(frozen=True)
class Rule:
    name: str
    hooks: Mapping[str, Handler] = field(default_factory=dict)
    matchers: Mapping[str, Matcher] = field(default_factory=dict)  # pattern name → matcher
    flags: tuple[Example, ...] = ()  # code the rule must flag
    leaves_alone: tuple[Example, ...] = ()  # code the rule must leave alone (no `# expect:`; `codes` say which)
    # The routes the rule acts on (empty: every route). A rule of one route is not installed on the other, so the
    # walker does not call it on every event only for it to return (the npu route walks the most code).
    routes: frozenset[str] = frozenset()
    # The frameworks whose code the rule reads (module roots, TENSORFLOW): not installed for a module whose text names
    # none of them (mentioned_frameworks), so a PyTorch file is not walked through the Keras rules (empty: every file).
    frameworks: frozenset[str] = frozenset()


class RuleContext:
    """Everything a rule may ask while the walker visits one chunk: the knowledge base (`view`), the resolved
    program (`qualified_name`, `infer`, `lookup`, `names_of_type`, `module_imports`, `types`), whether the walk
    is inside an annotation (`in_annotation`) or only compares a name (`compared_only`), and `add` to report a finding. The resolution functions are the walker's own, bound once (`resolve_with`), so a rule's
    question costs what the walker's would."""

    qualified_name: Callable[[Any], str | None]  # `torch.nn.Linear` for `nn.Linear`; None unless rooted in an import
    infer: Callable[[Any], str | None]  # an expression's type ("torch.Tensor", "local:Net", ...) when known
    lookup: Callable[[str], Any]  # what a name means here: ("import", "torch"), ("value", type), ... or None
    names_of_type: Callable[[str], list[str]]  # variables of the innermost function whose type derives from a base
    assigned_values: Callable[[str], list[Any]]  # string-shaped values assigned to a local name so far (this chunk)
    assigned_dicts: Callable[[str], list[Any]]  # what built the dict a local name holds so far (walker.assigned_dicts)

    def __init__(self, view: RouteView, factory: FindingFactory, route: str, types: TypeSystem) -> None:
        self.view = view
        self.factory = factory
        self.route = route
        self.types = types
        self.in_annotation = False  # the walk is inside a type annotation (which runs nothing)
        self.compared_only = False  # inside an isinstance argument, a dict key or a comparison operand
        self.findings: list[Finding] = []
        self._reported: set[tuple[Span, str]] = set()
        self._module_scope: Callable[[], dict] = dict
        self.reads_from: int | None = None  # see read_earlier_lines
        self.reads_later = False  # see read_later_lines
        # Fixes a rule worked out from an enclosing node (a class) for calls the walk reaches later, by the call's span.
        self.planned: dict[Span, Any] = {}
        # Findings that hold only if no chunk uses a name (rules/unused_torch_imports.py), as (name, first line, last
        # line, finding): ModuleAnalysis.findings decides once every chunk was walked.
        self.unused_candidates: list = []

    def resolve_with(self, resolver: Any) -> None:
        """Bind the resolution functions of the walker that feeds this context."""
        self.qualified_name = resolver.qualified_name
        self.infer = resolver.infer
        self.lookup = resolver.lookup
        self.names_of_type = resolver.names_of_type
        self.assigned_values = resolver.assigned_values
        self.assigned_dicts = resolver.assigned_dicts
        self._module_scope = lambda: resolver.scopes[0]

    def module_imports(self) -> Iterable[str]:
        """The qualified names the module imports at its top level (so far, plus what the pre-pass found)."""
        return (value for kind, value in self._module_scope().values() if kind == "import")

    def report_pattern(self, name: str, node: Any, confidence: str = "exact") -> None:
        """One finding per entry of pattern `name`, spanning `node`."""
        entries = self.view.patterns.get(name)
        if not entries:
            return
        factory = self.factory
        span = factory.span(node)
        for entry in entries:
            self.add(factory.finding(entry, span, confidence, api=entry.api))

    def add(self, finding: Finding | None) -> None:
        if finding is None:
            return
        key = ((finding.line, finding.column, finding.end_line, finding.end_column), finding.code)
        if key in self._reported:
            return
        self._reported.add(key)
        self.findings.append(finding)

    def read_earlier_lines(self, first_line: int) -> None:
        """Say that this chunk's findings were computed from the module's text from `first_line` on (statements
        of earlier chunks): an incremental analysis then walks it again after an edit there."""
        self.reads_from = first_line if self.reads_from is None else min(self.reads_from, first_line)

    def read_later_lines(self) -> None:
        """Say that this chunk's findings were computed from the module's text after it too (whether the file
        computes in float64): an incremental analysis then walks it again after an edit anywhere below."""
        self.reads_later = True

    def reset(self) -> None:
        """Start a new chunk: findings and de-duplication are per chunk."""
        self.findings = []
        self._reported = set()
        self.reads_from = None
        self.reads_later = False
        self.planned = {}
        self.unused_candidates = []


TENSORFLOW = frozenset({"tensorflow", "keras"})  # tf_keras's code names keras too
_FRAMEWORK_WORDS = tuple(sorted(TENSORFLOW))


def mentioned_frameworks(lines: Iterable[str]) -> frozenset[str]:
    """The frameworks of TENSORFLOW a module's text names anywhere (an import, a string, a comment): a word in the
    text, so a function-level import counts too. Rules of other frameworks are installed for every module."""
    found = {word for line in lines for word in _FRAMEWORK_WORDS if word in line}
    return frozenset(found)


def build_hooks(rules: Iterable[Rule], active_patterns: Mapping[str, object], route: str | None = None,
                frameworks: frozenset[str] | None = None) -> dict[str, tuple[Handler, ...]]:
    """Each event's handlers, in the order of `rules`: every declared hook of the rules acting on `route` (all
    rules when None) and on a module that names `frameworks` (all rules when None), and the matchers whose pattern
    name has entries in this view (`active_patterns`). CALL matchers with callees share one handler per rule that
    looks the callee up once."""
    hooks: dict[str, list[Handler]] = {event: [] for event in EVENTS}
    installed: set[int] = set()
    for rule in rules:
        if route is not None and rule.routes and route not in rule.routes:
            continue
        if frameworks is not None and rule.frameworks and not rule.frameworks & frameworks:
            continue
        for event, handler in rule.hooks.items():
            if event not in hooks:
                raise ValueError(f"rule {rule.name!r} declares unknown event {event!r}; events are {list(EVENTS)}")
            hooks[event].append(handler)
        by_callee: dict[str, list[Handler]] = {}
        for name, matcher in rule.matchers.items():
            if matcher.event not in hooks:
                raise ValueError(f"matcher {name!r} of rule {rule.name!r} declares unknown event {matcher.event!r}")
            if name not in active_patterns or id(matcher.handler) in installed:
                continue
            installed.add(id(matcher.handler))
            if matcher.called:
                for callee in matcher.called:
                    by_callee.setdefault(callee, []).append(matcher.handler)
            else:
                hooks[matcher.event].append(matcher.handler)
        if by_callee:
            hooks[CALL].append(_call_by_callee({callee: tuple(handlers) for callee, handlers in by_callee.items()}))
    return {event: tuple(handlers) for event, handlers in hooks.items()}


def _call_by_callee(table: dict[str, tuple[Handler, ...]]) -> Handler:
    def on_call(context: RuleContext, node: ast.Call) -> None:
        func = node.func
        handlers = table.get(func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else "")
        if handlers:
            for handler in handlers:
                handler(context, node)
    return on_call
