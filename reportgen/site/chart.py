"""A player's place over a season as a small hand-made SVG (deterministic bytes, no library), the
first place at the top. The page gives the same points as a table beside it for screen readers."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, PAD = 320, 120, 24


def places_svg(points: list[tuple[str, int]], label: str) -> str:
    """`points`: (short date, place) in date order. A polyline with a dot per ranking, the place
    written beside each dot; the scale runs from 1 (top) to the worst place seen."""
    worst = max([place for _, place in points] + [2])
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def y(place: int) -> int:
        return round(PAD + (place - 1) * (HEIGHT - 2 * PAD) / (worst - 1))

    coordinates = [(round(PAD + index * step), y(place)) for index, (_, place) in enumerate(points)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(label, quote=True)}">',
             f'<line x1="{PAD}" y1="{PAD}" x2="{WIDTH - PAD}" y2="{PAD}" class="axis"/>',
             f'<text x="2" y="{PAD + 4}" class="label">1</text>',
             f'<text x="2" y="{HEIGHT - PAD + 4}" class="label">{worst}</text>']
    if len(coordinates) > 1:
        parts.append('<polyline points="' + " ".join(f"{x},{y_}" for x, y_ in coordinates) + '" class="line"/>')
    for (x, y_), (day, place) in zip(coordinates, points):
        parts.append(f'<circle cx="{x}" cy="{y_}" r="3" class="dot"><title>{escape(day)} : {place}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)  # the template marks it safe: every text in it is escaped here
