"""Small inline SVG charts for the HTML report: a donut for a mix, horizontal bars for a ranking, a score ring.

Colours come from CSS classes (the stylesheet owns the palette); every label is escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Slice:
    label: str
    value: int
    css_class: str


def donut(slices: Sequence[Slice], title: str, size: int = 180) -> str:
    """A donut chart of `slices` with the total in the middle."""
    total = sum(item.value for item in slices)
    radius, stroke = size / 2 - 14, 26
    center = size / 2
    circumference = 2 * math.pi * radius
    parts = [
        f'<svg class="chart donut" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<circle class="donut-track" cx="{center}" cy="{center}" r="{radius:.2f}" fill="none" stroke-width="{stroke}"/>',
    ]
    offset = 0.0
    for item in slices:
        if item.value <= 0 or total == 0:
            continue
        length = circumference * item.value / total
        # Each slice is a dashed circle; a 1px gap keeps neighbouring slices apart.
        visible = max(length - 1.0, 0.5) if len(slices) > 1 else length
        parts.append(
            f'<circle class="slice {escape(item.css_class)}" cx="{center}" cy="{center}" r="{radius:.2f}" fill="none" '
            f'stroke-width="{stroke}" stroke-dasharray="{visible:.2f} {circumference - visible:.2f}" '
            f'stroke-dashoffset="{-offset:.2f}" transform="rotate(-90 {center} {center})">'
            f"<title>{escape(item.label)}: {item.value}</title></circle>"
        )
        offset += length
    parts.append(
        f'<text class="donut-total" x="{center}" y="{center - 2}" text-anchor="middle">{total}</text>'
        f'<text class="donut-caption" x="{center}" y="{center + 18}" text-anchor="middle">findings</text></svg>'
    )
    return "".join(parts)


@dataclass(frozen=True)
class Bar:
    label: str
    segments: tuple[Slice, ...]
    note: str = ""
    link: str = ""

    @property
    def total(self) -> int:
        return sum(segment.value for segment in self.segments)


def bars(items: Sequence[Bar], title: str, width: int = 520, label_width: int = 210) -> str:
    """Horizontal stacked bars, longest first as given, each with its total and an optional note."""
    row_height, gap = 22, 8
    height = max(1, len(items)) * (row_height + gap)
    longest = max((item.total for item in items), default=0) or 1
    track = width - label_width - 130  # room after the longest bar for its count and note
    parts = [
        f'<svg class="chart bars" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for row, item in enumerate(items):
        top = row * (row_height + gap)
        label = escape(_shorten(item.label, 34))
        text = (
            f'<text class="bar-label" x="{label_width - 8}" y="{top + row_height * 0.7:.1f}" text-anchor="end">'
            f"<title>{escape(item.label)}</title>{label}</text>"
        )
        parts.append(f'<a href="{escape(item.link)}">{text}</a>' if item.link else text)
        left = float(label_width)
        for segment in item.segments:
            if segment.value <= 0:
                continue
            span = track * segment.value / longest
            parts.append(
                f'<rect class="bar {escape(segment.css_class)}" x="{left:.2f}" y="{top}" width="{span:.2f}" '
                f'height="{row_height}" rx="3"><title>{escape(segment.label)}: {segment.value}</title></rect>'
            )
            left += span
        note = f" · {escape(item.note)}" if item.note else ""
        parts.append(
            f'<text class="bar-value" x="{left + 6:.2f}" y="{top + row_height * 0.7:.1f}">{item.total}{note}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def score_ring(score: int, css_class: str, size: int = 132) -> str:
    """A ring filled to `score` percent with the number in the middle."""
    radius, stroke = size / 2 - 10, 14
    center = size / 2
    circumference = 2 * math.pi * radius
    filled = circumference * max(0, min(100, score)) / 100
    return (
        f'<svg class="chart ring" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" '
        f'aria-label="readiness {score} of 100"><title>Readiness {score} of 100</title>'
        f'<circle class="ring-track" cx="{center}" cy="{center}" r="{radius:.2f}" fill="none" stroke-width="{stroke}"/>'
        f'<circle class="ring-fill {escape(css_class)}" cx="{center}" cy="{center}" r="{radius:.2f}" fill="none" '
        f'stroke-width="{stroke}" stroke-linecap="round" stroke-dasharray="{filled:.2f} {circumference:.2f}" '
        f'transform="rotate(-90 {center} {center})"/>'
        f'<text class="ring-score" x="{center}" y="{center + 9}" text-anchor="middle">{score}</text></svg>'
    )


def _shorten(text: str, limit: int) -> str:
    """Long paths keep their end (the file name), which is what tells them apart."""
    return text if len(text) <= limit else "…" + text[-(limit - 1):]
