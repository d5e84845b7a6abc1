"""The rule families. Each module reads the walker's resolved view of one node and emits findings:
names (qualified references), methods (attributes on typed receivers, method definitions), strings (device,
backend and environment-variable literals in their roles), imports (third-party modules), patterns (keyword
arguments with no counterpart, calls of a certain shape, boolean-mask indexing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ascend_migrate.analysis.emit import FindingFactory, Span
from ascend_migrate.analysis.findings import Finding
from ascend_migrate.kb.index import RouteView


@dataclass
class RuleContext:
    view: RouteView
    factory: FindingFactory
    route: str
    findings: list[Finding] = field(default_factory=list)
    _reported: set[tuple[Span, str]] = field(default_factory=set)
    walker: Any = None  # the walker feeding these rules, for rules that ask about the enclosing scope
    in_annotation: bool = False  # the walk is inside a type annotation (which runs nothing)

    def add(self, finding: Finding | None) -> None:
        if finding is None:
            return
        key = ((finding.line, finding.column, finding.end_line, finding.end_column), finding.code)
        if key in self._reported:
            return
        self._reported.add(key)
        self.findings.append(finding)

    def reset(self) -> None:
        """Start a new chunk: findings and de-duplication are per chunk."""
        self.findings = []
        self._reported = set()
