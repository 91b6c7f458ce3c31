"""The rating-history chart as inline SVG, drawn on the server so it shows without JavaScript.

Points are (match id, rating after, in milli-points). Hovering a point shows its <title>; clicking
it opens the match. Only numbers and fixed words go into the markup, so nothing needs escaping
beyond what `markupsafe.escape` does for the URLs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from ladder.ratings import INITIAL_RATING, MILLI

WIDTH, HEIGHT = 640, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 12, 24
MAX_POINTS = 400  # a long history is thinned evenly; the last point is always kept


def _thin(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = len(points) / (MAX_POINTS - 1)
    picked = [points[int(i * step)] for i in range(MAX_POINTS - 1)]
    return [*picked, points[-1]]


def rating_chart(points: Sequence[tuple[int, int]], match_url: Callable[[int], str]) -> Markup:
    """An SVG line of ratings over the bot's rated matches, oldest first, starting at the initial rating."""
    if not points:
        return Markup('<p class="muted">No rated matches yet: the chart starts with the first one.</p>')
    shown = _thin(points)
    ratings = [INITIAL_RATING] + [r for _, r in shown]
    low, high = min(ratings), max(ratings)
    margin = max((high - low) // 10, 5 * MILLI)
    low, high = low - margin, high + margin
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + plot_w * i / max(len(ratings) - 1, 1)

    def y(r: int) -> float:
        return PAD_TOP + plot_h * (high - r) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    base = y(INITIAL_RATING)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="Rating history over {len(points)} rated matches">',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{PAD_LEFT}" y2="{HEIGHT - PAD_BOTTOM}"/>',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{HEIGHT - PAD_BOTTOM}" x2="{WIDTH - PAD_RIGHT}" '
        f'y2="{HEIGHT - PAD_BOTTOM}"/>',
        f'<line class="base" x1="{PAD_LEFT}" y1="{base:.1f}" x2="{WIDTH - PAD_RIGHT}" y2="{base:.1f}"/>',
        f'<text x="{PAD_LEFT - 6}" y="{PAD_TOP + 4}" text-anchor="end">{round(high / MILLI)}</text>',
        f'<text x="{PAD_LEFT - 6}" y="{HEIGHT - PAD_BOTTOM}" text-anchor="end">{round(low / MILLI)}</text>',
        f'<text x="{PAD_LEFT - 6}" y="{base + 4:.1f}" text-anchor="end">{INITIAL_RATING // MILLI}</text>',
        f'<text x="{WIDTH - PAD_RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{len(points)} rated matches</text>',
        f'<polyline class="line" points="{line}"/>',
    ]
    for i, (match_id, rating) in enumerate(shown, start=1):
        url = escape(match_url(int(match_id)))
        parts.append(
            f'<a href="{url}"><circle class="dot" cx="{x(i):.1f}" cy="{y(rating):.1f}" r="3">'
            f"<title>match {int(match_id)}: {round(rating / MILLI)}</title></circle></a>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))
