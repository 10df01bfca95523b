"""``--plot FILE.svg``: each bot's rating (μ, with a band of ± σ) against the games it played.

Written by hand as a small SVG (no plotting library): lines, a band, axes with a few ticks and
a legend, readable in any browser.
"""

from __future__ import annotations

import math
from html import escape

from shipwreck.arena.ratings import Rating

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
WIDTH, HEIGHT = 760, 420
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 30, 46


def _ticks(lo: float, hi: float, want: int = 6) -> list[float]:
    """Round numbers spanning ``lo``..``hi``."""
    span = hi - lo or 1.0
    raw = span / want
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * step:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def svg(history: dict[str, list[Rating]], title: str) -> str:
    """The chart of ``history`` (each bot's rating after each of its games) as SVG text."""
    most = max([len(h) for h in history.values()] + [1])
    start = Rating()  # every line starts at a newcomer's rating
    values = [
        v for h in [[start], *history.values()] for r in h for v in (r.mu - r.sigma, r.mu + r.sigma)
    ]
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.05 or 1.0
    lo, hi = lo - pad, hi + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: float) -> float:
        return LEFT + plot_w * n / most

    def y(v: float) -> float:
        return TOP + plot_h * (hi - v) / (hi - lo)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{LEFT}" y="18" font-size="14">{escape(title)}</text>',
    ]
    for v in _ticks(lo, hi):
        out.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}"'
            ' stroke="#ddd"/>'
            f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>'
        )
    for n in _ticks(0, most):
        out.append(
            f'<text x="{x(n):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{n:g}</text>'
        )
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none"'
        ' stroke="#444"/>'
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">games played'
        "</text>"
        f'<text transform="translate(14 {TOP + plot_h / 2}) rotate(-90)"'
        ' text-anchor="middle">rating μ (band: ± σ)</text>'
    )
    for i, (name, h) in enumerate(history.items()):
        colour = COLOURS[i % len(COLOURS)]
        points = [(0, start)] + list(enumerate(h, 1))
        upper = " ".join(f"{x(n):.1f},{y(r.mu + r.sigma):.1f}" for n, r in points)
        lower = " ".join(f"{x(n):.1f},{y(r.mu - r.sigma):.1f}" for n, r in reversed(points))
        line = " ".join(f"{x(n):.1f},{y(r.mu):.1f}" for n, r in points)
        last = h[-1] if h else start
        out.append(
            f"<g><title>{escape(name)}: {escape(last.shown())}</title>"
            f'<polygon points="{upper} {lower}" fill="{colour}" fill-opacity="0.15"/>'
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/></g>'
        )
        ly = TOP + 10 + 18 * i
        out.append(
            f'<line x1="{WIDTH - RIGHT + 12}" x2="{WIDTH - RIGHT + 32}" y1="{ly}" y2="{ly}"'
            f' stroke="{colour}" stroke-width="3"/>'
            f'<text x="{WIDTH - RIGHT + 38}" y="{ly + 4}">{escape(name)} {last.mu:.1f}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
