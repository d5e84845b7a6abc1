"""A comparison as text, JSON, or one self-contained HTML page with a per-layer chart (inline SVG, no network)."""

from __future__ import annotations

import html
import json
import math
from typing import TYPE_CHECKING, Any

from ascend_migrate.weights.naming import problem_lines
from ascend_migrate.weights.numbers import Difference

if TYPE_CHECKING:  # only the values are read here
    from ascend_migrate.weights.compare import Comparison


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def _line(item: Difference) -> str:
    verdict = "ok  " if item.passed else "DIFF"
    if item.max_absolute is None:
        return f"  {verdict} {item.name}: {item.note or 'not comparable'} (PyTorch {list(item.torch_shape)}, MindSpore {list(item.mindspore_shape)})"
    return (f"  {verdict} {item.name}: max abs {_number(item.max_absolute)}, max rel {_number(item.max_relative)}, "
            f"cosine {item.cosine:.6f}")


def to_text(comparison: Comparison) -> str:
    tolerance = comparison.tolerance
    lines = [f"compare {comparison.kind} (equal when max abs <= {tolerance.absolute:g} + {tolerance.relative:g} * max|PyTorch|)"]
    lines += [f"input {text}" for text in comparison.inputs]
    if comparison.parameter_map is not None:
        lines += problem_lines(comparison.parameter_map)
        if not comparison.parameter_map.complete and comparison.kind == "models":
            lines.append("not run: the weights do not map completely onto the MindSpore model (see above; --map FILE adds names)")
    for title, items in (("outputs", comparison.outputs), ("parameters", comparison.parameters), ("layers", comparison.layers),
                         ("gradients", comparison.gradients)):
        if items:
            lines.append(f"{title}:")
            lines += [_line(item) for item in items]
    lines += [f"not compared: {text}" for text in comparison.not_compared]
    first = comparison.first_diverging_layer
    if first is not None:
        lines.append(f"first diverging layer: {first.name} (max abs {_number(first.max_absolute)})")
    lines.append("result: " + ("the same within tolerance" if comparison.passed else "DIFFERENT"))
    return "\n".join(lines) + "\n"


def to_json(comparison: Comparison) -> str:
    first = comparison.first_diverging_layer
    data: dict[str, Any] = {
        "kind": comparison.kind,
        "passed": comparison.passed,
        "tolerance": {"absolute": comparison.tolerance.absolute, "relative": comparison.tolerance.relative},
        "inputs": comparison.inputs,
        "outputs": [item.to_json() for item in comparison.outputs],
        "layers": [item.to_json() for item in comparison.layers],
        "first_diverging_layer": None if first is None else first.name,
        "gradients": [item.to_json() for item in comparison.gradients],
        "parameters": [item.to_json() for item in comparison.parameters],
        "not_compared": comparison.not_compared,
        "map": None if comparison.parameter_map is None else comparison.parameter_map.to_json(),
    }
    return json.dumps(data, indent=2, allow_nan=False, default=str) + "\n"


def to_html(comparison: Comparison) -> str:
    """One page: the verdict, a bar per layer (log10 of its max abs difference, the tolerance as a line), the tables."""
    items = comparison.layers or comparison.parameters or comparison.outputs
    chart = _chart(items, comparison.tolerance.absolute)
    first = comparison.first_diverging_layer
    rows = "".join(
        f"<tr class={'ok' if item.passed else 'bad'}><td>{html.escape(item.name)}</td><td>{_number(item.max_absolute)}</td>"
        f"<td>{_number(item.max_relative)}</td><td>{'-' if item.cosine is None else f'{item.cosine:.6f}'}</td>"
        f"<td>{'ok' if item.passed else 'DIFF'}</td></tr>"
        for item in comparison.outputs + comparison.layers + comparison.gradients + comparison.parameters
    )
    problems = "".join(f"<li>{html.escape(line)}</li>" for line in (
        (problem_lines(comparison.parameter_map) if comparison.parameter_map else []) + [f"not compared: {text}" for text in comparison.not_compared]))
    verdict = "the same within tolerance" if comparison.passed else "DIFFERENT"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ascend-migrate compare</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}
td:first-child{{text-align:left}}tr.bad{{background:#fdd}}.bar{{fill:#4a8}}.bar.bad{{fill:#d44}}</style></head><body>
<h1>compare {html.escape(comparison.kind)}: {verdict}</h1>
<p>Equal when max abs &le; {comparison.tolerance.absolute:g} + {comparison.tolerance.relative:g} &times; max|PyTorch|.
{'First diverging layer: <b>' + html.escape(first.name) + '</b>.' if first else ''}</p>
{chart}
<table><tr><th>compared</th><th>max abs</th><th>max rel</th><th>cosine</th><th></th></tr>{rows}</table>
{'<ul>' + problems + '</ul>' if problems else ''}
</body></html>
"""


def _chart(items: list[Difference], tolerance: float) -> str:
    """Bars of log10(max abs difference) from 1e-12 up; the dashed line is the absolute tolerance."""
    if not items:
        return ""
    floor, height, bar = -12.0, 160, 14

    def level(value: float | None) -> float:
        if value is None or math.isinf(value):
            return 2.0  # off the chart: not comparable
        return max(floor, math.log10(value)) if value > 0 else floor

    top = max(2.0, max(level(item.max_absolute) for item in items))

    def y(value: float) -> float:
        return height - (value - floor) / (top - floor) * height

    bars = "".join(
        f'<rect class="bar{"" if item.passed else " bad"}" x="{index * bar}" y="{y(level(item.max_absolute)):.1f}" width="{bar - 2}" '
        f'height="{height - y(level(item.max_absolute)):.1f}"><title>{html.escape(item.name)}: {_number(item.max_absolute)}</title></rect>'
        for index, item in enumerate(items)
    )
    line = y(math.log10(tolerance)) if tolerance > 0 else height
    width = max(200, len(items) * bar)
    return (f'<svg width="{width}" height="{height + 4}" role="img" aria-label="max absolute difference per layer (log scale)">'
            f'{bars}<line x1="0" x2="{width}" y1="{line:.1f}" y2="{line:.1f}" stroke="#333" stroke-dasharray="4"/></svg>')
