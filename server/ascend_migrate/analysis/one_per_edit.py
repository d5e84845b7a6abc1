"""One finding per edit: findings on the same span, or inside a keyword argument another finding is about, become one.

`torch.zeros(3, device=x.device)` on the MindSpore route is one edit (the device argument goes), not an MS104 on
`device=` plus an MS205 on `x.device`. The most actionable finding wins (the keyword's own when it has a fix, else the
more severe, then one with a fix, then one with a suggestion); the other's text stays as a second sentence of the message,
and the more severe severity is kept. Findings on one span that ask for different actions (different fixes, or a fix and
advice without one) stay two.
"""

from __future__ import annotations

import dataclasses

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.taxonomy import SEVERITY_RANK


def one_per_edit(findings: list[Finding]) -> list[Finding]:
    """`findings` sorted by position (a chunk's), with covered findings merged into the one that covers them."""
    if len(findings) < 2:
        return findings
    merged: list[Finding] = []
    for finding in findings:
        index = len(merged) - 1
        while index >= 0 and merged[index].line == finding.line:
            joined = _joined(merged[index], finding)
            if joined is not None:
                merged[index] = joined
                break
            index -= 1
        else:
            merged.append(finding)
    return merged


def _joined(first: Finding, second: Finding) -> Finding | None:
    """The one finding for both when one edit serves both, else None."""
    if first.end_line != first.line or second.end_line != second.line:
        return None
    if (first.column, first.end_column) == (second.column, second.end_column):
        if (first.fix is None) != (second.fix is None) or (first.fix is not None and second.fix is not None and first.fix.edits != second.fix.edits):
            # Two actions on one name: `torch.optim.AdamW(fused=True)` is both "drop fused=True" (a restriction)
            # and "use NpuFusedAdamW" (an affinity fix); each stays, with its own hover and action.
            return None
        return _merge(*((first, second) if _rank(first) >= _rank(second) else (second, first)))
    if first.column <= second.column and second.end_column <= first.end_column:
        outer, inner = first, second
    elif second.column <= first.column and first.end_column <= second.end_column:
        outer, inner = second, first
    else:
        return _device_move(first, second)
    if not _is_keyword_finding(outer):
        return None
    # Removing or rewriting the keyword argument replaces the text of the inner finding with it.
    if outer.fix is not None or _rank(outer) >= _rank(inner):
        return _merge(outer, inner)
    return _merge(inner, outer)


def _device_move(first: Finding, second: Finding) -> Finding | None:
    """`x.to("cuda")` on the MindSpore route: the device move and its device string are one edit (the move goes)."""
    if first.code == second.code and first.api.endswith(".to") and second.api.startswith("'") and second.column > first.column:
        return _merge(first, second)
    return None


def _is_keyword_finding(finding: Finding) -> bool:
    """A finding about a keyword argument (`torch.zeros(device=...)`): its edit rewrites or removes the whole argument."""
    return finding.api.endswith("=...)")


def _rank(finding: Finding) -> tuple[int, bool, bool]:
    """The more severe first (a restriction warning is not absorbed into an affinity hint), then a fix, then advice."""
    return -SEVERITY_RANK[finding.severity], finding.fix is not None, bool(finding.suggestion)


def _merge(winner: Finding, other: Finding) -> Finding:
    severity = min((winner.severity, other.severity), key=SEVERITY_RANK.__getitem__)
    message = f"{winner.message.rstrip('. ')}. Also {other.code} ({other.api}): {other.message}"
    suggestion = winner.suggestion or other.suggestion
    return dataclasses.replace(winner, severity=severity, message=message, suggestion=suggestion)
