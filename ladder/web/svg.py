"""The rating-history chart as inline SVG, drawn on the server so it shows without JavaScript.

Points are (match id, rating after, in milli-points), oldest first. The x axis counts the bot's
rated matches (the first shown point is match number `first`); the y axis has round Elo ticks far
enough apart that their labels never overlap. Hovering a point shows its <title>; clicking it opens
the match. Only numbers and fixed words go into the markup, so nothing needs escaping beyond what
`markupsafe.escape` does for the URLs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from ladder.ranking.ratings import INITIAL_RATING, MILLI, to_points

WIDTH, HEIGHT = 640, 220
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 14, 12, 40
MAX_POINTS = 400  # a long history is thinned evenly; the last point is always kept
MAX_TICKS = 6  # per axis: 11 px labels need about 30 px (y) and 40 px (x) between them
NICE = (1, 2, 5)


def _thin(points: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = len(points) / (MAX_POINTS - 1)
    picked = [points[int(i * step)] for i in range(MAX_POINTS - 1)]
    return [*picked, points[-1]]


def nice_step(span: float, most: int = MAX_TICKS) -> int:
    """The smallest 1-2-5 step giving at most `most` ticks over `span` (a whole number, >= 1)."""
    scale = 1
    while True:
        for n in NICE:
            if span / (n * scale) <= most - 1:
                return n * scale
        scale *= 10


def ticks(low: float, high: float, most: int = MAX_TICKS) -> list[int]:
    """Round values inside [low, high], evenly spaced, at most `most` of them."""
    step = nice_step(max(high - low, 1), most)
    first = -(-int(low) // step) * step  # the first multiple of step at or above low
    return list(range(first, int(high) + 1, step))


def rating_chart(points: Sequence[tuple[int, int]], match_url: Callable[[int], str], *, first: int = 1,
                 start: int = INITIAL_RATING) -> Markup:
    """An SVG line of ratings over the bot's rated matches, from `start` (the rating before match
    number `first`; the initial rating for a whole history)."""
    if not points:
        return Markup('<p class="muted">No rated matches yet: the chart starts with the first one.</p>')
    numbered = [(first + i, match_id, rating) for i, (match_id, rating) in enumerate(points)]
    shown = _thin(numbered)
    line_points = [(first - 1, start)] + [(n, r) for n, _, r in shown]
    ratings = [r for _, r in line_points]
    low, high = min(ratings), max(ratings)
    margin = max((high - low) // 10, 5 * MILLI)
    low, high = low - margin, high + margin
    x_low, x_high = first - 1, first - 1 + len(points)
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(n: float) -> float:
        return PAD_LEFT + plot_w * (n - x_low) / max(x_high - x_low, 1)

    def y(r: float) -> float:
        return PAD_TOP + plot_h * (high - r) / (high - low)

    bottom = HEIGHT - PAD_BOTTOM
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="Rating history over {len(points)} rated matches">',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{PAD_LEFT}" y2="{bottom}"/>',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{bottom}" x2="{WIDTH - PAD_RIGHT}" y2="{bottom}"/>',
    ]
    if low < INITIAL_RATING < high:
        base = y(INITIAL_RATING)
        parts.append(f'<line class="base" x1="{PAD_LEFT}" y1="{base:.1f}" x2="{WIDTH - PAD_RIGHT}" y2="{base:.1f}"/>')
    for value in ticks(to_points(low), to_points(high)):
        ty = y(value * MILLI)
        parts.append(f'<line class="tick" x1="{PAD_LEFT - 4}" y1="{ty:.1f}" x2="{PAD_LEFT}" y2="{ty:.1f}"/>'
                     f'<text class="y" x="{PAD_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{value}</text>')
    for number in ticks(x_low, x_high):
        tx = x(number)
        parts.append(f'<line class="tick" x1="{tx:.1f}" y1="{bottom}" x2="{tx:.1f}" y2="{bottom + 4}"/>'
                     f'<text class="x" x="{tx:.1f}" y="{bottom + 16}" text-anchor="middle">{number}</text>')
    parts += [
        f'<text x="{PAD_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle">rated match number</text>',
        '<polyline class="line" points="' + " ".join(f"{x(n):.1f},{y(r):.1f}" for n, r in line_points) + '"/>',
    ]
    for number, match_id, rating in shown:
        url = escape(match_url(int(match_id)))
        parts.append(
            f'<a href="{url}"><circle class="dot" cx="{x(number):.1f}" cy="{y(rating):.1f}" r="3">'
            f"<title>rated match {number} (#{int(match_id)}): {round(to_points(rating))}</title></circle></a>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def measure_chart(points: Sequence[tuple[int, float]], marks: Sequence[tuple[int, str]],
                  match_url: Callable[[int], str], *, label: str, percent: bool = False) -> Markup:
    """One scorecard measure over the bot's last matches (each point pools a few matches, see
    services/scorecard_views.py), with a dashed line and a label where each version starts."""
    if not points:
        return Markup("")
    scale = 100.0 if percent else 1.0
    values = [v * scale for _, v in points]
    low, high = min(values), max(values)
    margin = max((high - low) / 10, 0.5 if percent or high - low < 5 else 1.0)
    low, high = low - margin, high + margin
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    last = max(len(points) - 1, 1)

    def x(i: float) -> float:
        return PAD_LEFT + plot_w * i / last

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (high - v) / (high - low)

    bottom = HEIGHT - PAD_BOTTOM
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)} over its last {len(points)} matches">',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{PAD_LEFT}" y2="{bottom}"/>',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{bottom}" x2="{WIDTH - PAD_RIGHT}" y2="{bottom}"/>',
    ]
    step = nice_step(max(high - low, 1e-9)) if high - low >= 5 else None
    tick_values = ticks(low, high) if step else [round(low + (high - low) * k / 4, 2) for k in range(1, 4)]
    for value in tick_values:
        ty = y(value)
        parts.append(f'<line class="tick" x1="{PAD_LEFT - 4}" y1="{ty:.1f}" x2="{PAD_LEFT}" y2="{ty:.1f}"/>'
                     f'<text class="y" x="{PAD_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{value:g}</text>')
    for index, name in marks:
        mx = x(index)
        parts.append(f'<line class="base" x1="{mx:.1f}" y1="{PAD_TOP}" x2="{mx:.1f}" y2="{bottom}"/>'
                     f'<text class="x" x="{mx + 3:.1f}" y="{PAD_TOP + 10}">{escape(name)}</text>')
    parts += [
        f'<text x="{PAD_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle">{escape(label)}, '
        f'its last {len(points)} matches</text>',
        '<polyline class="line" points="' + " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values)) + '"/>',
    ]
    for i, ((match_id, _raw), v) in enumerate(zip(points, values, strict=True)):
        url = escape(match_url(int(match_id)))
        parts.append(f'<a href="{url}"><circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="2">'
                     f"<title>match #{int(match_id)}: {v:.3g}{'%' if percent else ''}</title></circle></a>")
    parts.append("</svg>")
    return Markup("".join(parts))
