"""The charts of the site and of the bulletins as hand-made SVG (measured against matplotlib in
docs/performance.md: 1000x faster, 20x smaller, the same bytes on every run and machine).

Every text is escaped here and every style is a presentation attribute (no class, no stylesheet):
the same string goes into a site page and into a bulletin, whose PDF WeasyPrint draws from it. The
viewBox scales the chart to its box (up to 640 px on a screen, 150 mm on A4); `width` is the chart's
own size, a unit a pixel, under which a screen never draws it (its labels 10 to 12 px): a phone
scrolls it sideways in its region (templates/chart.html.j2). A season's places are drawn twice, the
second time for a phone, to its width (`NARROW`: its place scale, its latest dates and its names
whole, where scrolled to its end it hid the scale and cut a date at its box's edge)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from typing import Any

from reportgen import french

FONT = 'font-family="Inter, sans-serif"'
MUTED, RULE, INK = "#5d6b7e", "#c9d2de", "#1f3a5f"
# Ten lines told apart without colour: five marker shapes, filled then hollow; the colours
# (Okabe-Ito, safe for colour-blind readers, dark enough on white) only add to them.
COLOURS = ("#0b5394", "#b85c00", "#00734d", "#a3195b", "#5b3f99", "#8a6d00", "#1f3a5f", "#c2410c", "#0e7490", "#6b7280")
SHAPES = ("circle", "square", "triangle", "diamond", "down")


def text(value: object) -> str:
    return escape(str(value), quote=True)


@lru_cache(maxsize=1 << 14)  # a build's charts put the same markers at the same places (`bump_svg`)
def marker(index: int, x: float, y: float, size: float = 4.5) -> str:
    """Line `index`'s marker at (x, y): its shape, filled for the first five, hollow after."""
    colour = COLOURS[index % len(COLOURS)]
    fill = colour if (index // len(SHAPES)) % 2 == 0 else "#ffffff"
    paint = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'
    shape = SHAPES[index % len(SHAPES)]
    s = size
    if shape == "circle":
        return f'<circle cx="{x:g}" cy="{y:g}" r="{s:g}" {paint}/>'
    if shape == "square":
        return f'<rect x="{x - s:g}" y="{y - s:g}" width="{2 * s:g}" height="{2 * s:g}" {paint}/>'
    t = s + 1  # centred on (x, y): its bounding box's middle is the point, as a circle's is
    corners = {"triangle": ((0, -t), (t, t), (-t, t)), "diamond": ((0, -t), (t, 0), (0, t), (-t, 0)),
               "down": ((0, t), (t, -t), (-t, -t))}[shape]
    points = " ".join(f"{x + dx:g},{y + dy:g}" for dx, dy in corners)
    return f'<polygon points="{points}" {paint}/>'


def opening(width: float, height: float, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" role="img" aria-label="{text(label)}" {FONT}>'
            f'<title>{text(label)}</title>')


# -- bump chart: places over the dated rankings of a season ---------------------------------------
BUMP_TOP, ROW = 22, 18


@dataclass(frozen=True)
class Layout:
    """A bump chart's parts left to right, in units: the place scale's room, the plot, the names'
    room (a label starts 12 after the plot, written at `name_size`)."""

    left: float
    plot: float
    names: float
    name_size: int = 12

    @property
    def name_room(self) -> float:
        return self.names - 12 - 4  # from a label's start to the chart's right edge, less a margin


WIDE = Layout(40, 300, 170)  # 510 units: a laptop's (640 px) and the PDF's
# A phone's, 324 units drawn to its width (site.css, bulletin.css: 10 px labels at 320 px, 12 at 390):
# its latest `NARROW_DAYS` dates, 14 units apart at least, its names at 11.
NARROW, NARROW_DAYS = Layout(34, 140, 150, 11), 11
NAME_ROOM = WIDE.name_room
CAP = 20  # places below the 20th share the bottom row (« > 20 »): the top ten stay readable
DAY_SIZE, DAY_ROOM = 11, 46  # the dates under the chart: their font size; a date every 46 units at least
DAY_GAP = 6  # the least blank between two dates written (two spaces at 11): never « 15/1106/12 »


@cache
def _inter(size: int) -> Any:
    """Inter Regular, the font the SVG names, to measure a label (Pillow's basic layout: the same
    widths whether or not the machine has libraqm)."""
    from PIL import ImageFont

    from reportgen.render.html import TEMPLATES

    return ImageFont.truetype(str(TEMPLATES / "fonts" / "Inter-Regular.otf"), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1 << 14)  # a name is at its line's end in each chart it is in (`bump_svg`)
def fitted(label: str, room: float, size: int = 12) -> str:
    """`label` as it fits in `room` units at `size`: cut with « … » when longer (measured at ten
    times the size, for tenths of a unit). A name cut here is whole in the marker's title and in
    the chart's data table."""
    font = _inter(size * 10)
    if font.getlength(label) <= room * 10:
        return label
    while label and font.getlength(label.rstrip() + "…") > room * 10:
        label = label[:-1]
    return label.rstrip() + "…"


def bump_y(place: int) -> float:
    return BUMP_TOP + (min(place, CAP + 1) - 1) * ROW


@lru_cache(maxsize=1 << 10)  # a place's ordinate as a bump chart's points write it
def _written_y(place: int) -> str:
    return f"{bump_y(place):g}"


@lru_cache(maxsize=1 << 14)  # a season's dates are under each of its charts (`written_days`)
def label_width(label: str, size: int = DAY_SIZE) -> float:
    """A label's width in units at `size` (measured in Inter as `fitted` does): a date under a
    chart, a value beside it."""
    return _inter(size * 10).getlength(label) / 10


def written_days(days: Sequence[str], step: float) -> list[int]:
    """The indexes of the dates written under the chart, `step` units apart: one every few from the
    first, as far apart as two of the widest dates need, and the last, the ranking the chart is drawn
    for; the one written before it is dropped when the two would meet (« 15/1106/12 »)."""
    if len(days) < 2:
        return list(range(len(days)))
    need = max(map(label_width, days)) + DAY_GAP  # from a date's middle to the next one's, at least
    spacing = max(1, round(DAY_ROOM / step), math.ceil(need / step))
    written = list(range(0, len(days), spacing))
    last = len(days) - 1
    if written[-1] != last:
        if (last - written[-1]) * step < need:
            written.pop()
        written.append(last)
    return written


def bump_svg(days: Sequence[str], lines: Sequence[tuple[str, Sequence[int | None]]], label: str,
             layout: Layout = WIDE) -> str:
    """`days`: the rankings' short dates, in order; `lines`: (player, his place in each ranking,
    None when absent), in the current ranking's order. A line per player, a marker per place, the
    place 1 on top; the player's current place and name at the line's end. `layout`: `WIDE`, or a
    phone's `NARROW`."""
    worst = max([place for _, places in lines for place in places if place is not None] + [2])
    rows = min(worst, CAP + 1)
    left, plot = layout.left, layout.plot
    step = plot / max(len(days) - 1, 1)
    width, height = left + plot + layout.names, BUMP_TOP + (rows - 1) * ROW + 34
    bottom = BUMP_TOP + (rows - 1) * ROW
    parts = [opening(width, height, label)]
    for place in sorted({1, 5, 10, 15, 20, rows} & set(range(1, rows + 1))):  # the place scale, left
        y = bump_y(place)
        shown = f"&gt; {CAP}" if place > CAP else str(place)
        parts.append(f'<line x1="{left:g}" y1="{y:g}" x2="{left + plot:g}" y2="{y:g}" '
                     f'stroke="{RULE}" stroke-width="0.5"/>'
                     f'<text x="{left - 8:g}" y="{y + 4:g}" text-anchor="end" font-size="11" fill="{MUTED}">'
                     f'{shown}</text>')
    for index in written_days(days, step):
        parts.append(f'<text x="{left + index * step:g}" y="{bottom + 24:g}" text-anchor="middle" '
                     f'font-size="{DAY_SIZE}" fill="{MUTED}">{text(days[index])}</text>')
    # each date's abscissa, written once for the ten lines (and each place's ordinate, `_point`)
    xs = [left + index * step for index in range(len(days))]
    written_xs = [f"{x:g}" for x in xs]
    labels: list[float] = []
    for number, (name, places) in enumerate(lines):
        colour = COLOURS[number % len(COLOURS)]
        points = [(xs[index], bump_y(place), place) for index, place in enumerate(places) if place is not None]
        segment: list[str] = []
        for index, at in enumerate([*places, None]):  # a gap where the player is absent
            if at is not None:
                segment.append(f"{written_xs[index]},{_written_y(at)}")
            elif segment:
                if len(segment) > 1:
                    parts.append(f'<polyline points="{" ".join(segment)}" fill="none" stroke="{colour}" '
                                 'stroke-width="2" stroke-linejoin="round"/>')
                segment = []
        parts.append(f'<g><title>{text(name)}</title>')  # the player's markers, his name on hover
        parts.extend(marker(number, x, y) for x, y, _ in points)
        parts.append("</g>")
        if points:
            # the label at the line's end, moved down from the one above when places are shared
            y = max(points[-1][1], labels[-1] + ROW if labels else 0)
            labels.append(y)
            parts.append(f'<text x="{left + plot + 12:g}" y="{y + 4:g}" font-size="{layout.name_size}" fill="{INK}">'
                         f'{text(fitted(f"{points[-1][2]}. {name}", layout.name_room, layout.name_size))}</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- a value over time (a player's rating) --------------------------------------------------------
# 296 units: a 320 px phone's page less its margins (12 px each side), where the chart, never shrunk,
# is drawn at its own size: 320 units scrolled in its box there, its last date cut at the box's edge.
LINE_WIDTH, LINE_HEIGHT, LINE_LEFT, LINE_PAD = 296, 150, 44, 20
LABEL_SIZE = 11


def values_svg(points: Sequence[tuple[str, float, str]], label: str) -> str:
    """`points`: (short date, value, the value in French) in date order: higher is better, on top.
    Its labels measured (`label_width`) to stay whole in the chart: the values' room on the left as
    wide as the widest needs, the first and last dates moved in from the edges when centred under
    their points they would cross them."""
    values = [value for _, value, _ in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    scale = [(high, points[values.index(high)][2]), (low, points[values.index(low)][2])]
    left = max(LINE_LEFT, math.ceil(max(label_width(shown, LABEL_SIZE) for _, shown in scale) + 7))  # 6 to the line, 1 to the edge
    step = (LINE_WIDTH - left - LINE_PAD) / max(len(points) - 1, 1)
    plot = LINE_HEIGHT - 2 * LINE_PAD - 14

    def y(value: float) -> float:
        return round(LINE_PAD + (high - value) / span * plot, 1)

    coordinates = [(left + index * step, y(value)) for index, value in enumerate(values)]
    parts = [opening(LINE_WIDTH, LINE_HEIGHT, label)]
    for value, shown in scale:
        parts.append(f'<line x1="{left:g}" y1="{y(value):g}" x2="{LINE_WIDTH - LINE_PAD:g}" y2="{y(value):g}" '
                     f'stroke="{RULE}" stroke-width="0.5"/><text x="{left - 6:g}" y="{y(value) + 4:g}" '
                     f'text-anchor="end" font-size="{LABEL_SIZE}" fill="{MUTED}">{text(shown)}</text>')
    if len(coordinates) > 1:
        parts.append('<polyline points="' + " ".join(f"{x:g},{y_:g}" for x, y_ in coordinates)
                     + f'" fill="none" stroke="{INK}" stroke-width="2"/>')
    parts.extend(marker(0, x, y_, 3.5) for x, y_ in coordinates)
    for index in sorted({0, len(points) - 1}):
        half = label_width(points[index][0], LABEL_SIZE) / 2 + 1
        x = round(min(max(coordinates[index][0], half), LINE_WIDTH - half), 1)
        parts.append(f'<text x="{x:g}" y="{LINE_HEIGHT - 8:g}" text-anchor="middle" '
                     f'font-size="{LABEL_SIZE}" fill="{MUTED}">{text(points[index][0])}</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- points by place (a tournament's scale) -------------------------------------------------------
@dataclass(frozen=True)
class ScaleLayout:
    """A scale chart's room in units: left of the plot (its points' labels), the plot, right of it,
    the plot's height, and its labels' size."""

    left: float
    plot: float
    right: float
    height: float
    size: int


SCALE_WIDE = ScaleLayout(40, 520, 20, 170, 10)  # 580 units: a laptop's (640 px) and the PDF's
# A phone's: 296 units, as a rating's (`LINE_WIDTH`), drawn to its width (site.css, bulletin.css): 11 at
# 320 px, 13 at 390; where the wide one, never shrunk on the site, scrolled sideways in its box.
SCALE_NARROW_WIDTH, SCALE_NARROW_HEIGHT = 296, 120
SCALE_GAP = 6  # the least blank between two places written under it (« 1er » and « 4e »)


def scale_narrow(top: str, last: str) -> ScaleLayout:
    """A phone's layout, 296 units wide: the room on the left as wide as the top value needs, on the
    right half the last place's label (centred under the plot's end)."""
    left = math.ceil(label_width(top, LABEL_SIZE) + 7)  # 6 to the axis, 1 to the edge
    right = math.ceil(label_width(last, LABEL_SIZE) / 2 + 1)
    return ScaleLayout(left, SCALE_NARROW_WIDTH - left - right, right, SCALE_NARROW_HEIGHT, LABEL_SIZE)


def _written_places(count: int, step: float, size: int) -> list[int]:
    """The places written under the scale: the first, the 4th and the last, the 4th left out when it
    would meet one of the others (a phone's scale of a large tournament: its places 4 units apart)."""
    places = sorted({1, 4, count} & set(range(1, count + 1)))
    if 4 in places:
        half = {place: label_width(french.ordinal(place), size) / 2 for place in places}
        if any(abs(place - 4) * step < half[place] + half[4] + SCALE_GAP for place in places if place != 4):
            places.remove(4)
    return places


def scale_svg(values: Sequence[float], top: str, label: str, layout: ScaleLayout = SCALE_WIDE) -> str:
    """The points of each place from the first, as a line falling to the right; `top`: the first
    place's points in French, written on the scale. `layout`: `SCALE_WIDE`, or a phone's
    (`scale_narrow`)."""
    width, height, size = layout.plot, layout.height, layout.size
    high = max(values, default=0) or 1
    step = width / max(len(values) - 1, 1)
    points = " ".join(f"{index * step:.1f},{height - value / high * height:.1f}"
                      for index, value in enumerate(values))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="-{layout.left:g} -12 '
             f'{layout.left + width + layout.right:g} {height + 34:g}" width="{layout.left + width + layout.right:g}" '
             f'height="{height + 34:g}" role="img" aria-label="{text(label)}" {FONT}><title>{text(label)}</title>',
             f'<line x1="0" y1="{height:g}" x2="{width:g}" y2="{height:g}" stroke="{RULE}"/>',
             f'<line x1="0" y1="0" x2="0" y2="{height:g}" stroke="{RULE}"/>',
             f'<text x="-6" y="4" text-anchor="end" font-size="{size}" fill="{MUTED}">{text(top)}</text>',
             f'<text x="-6" y="{height:g}" text-anchor="end" font-size="{size}" fill="{MUTED}">0</text>',
             f'<polyline points="{points}" fill="none" stroke="{INK}" stroke-width="2"/>']
    for place in _written_places(len(values), step, size):
        parts.append(f'<text x="{(place - 1) * step:.1f}" y="{height + 16:g}" text-anchor="middle" '
                     f'font-size="{size}" fill="{MUTED}">{french.ordinal(place)}</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- a player's place over a season (his page) ----------------------------------------------------
WIDTH, HEIGHT, PAD = 320, 120, 24


def places_svg(points: list[tuple[str, int]], label: str) -> str:
    """`points`: (date, place) in date order. A polyline with a dot per ranking, the place
    written beside each dot; the scale runs from 1 (top) to the worst place seen. Unlike the others,
    a phone narrower than it shrinks it to its width (its page lays it beside its table): site.css
    draws its labels (class `label`) larger there, never under 10 px at 320 px.
    One per season of each player (28,000 at 100x): its abscissas made once per number of points
    and each date escaped once (`_abscissas`, `_day`)."""
    worst = max([place for _, place in points] + [2])
    xs = _abscissas(len(points))
    ys = [round(PAD + (place - 1) * (HEIGHT - 2 * PAD) / (worst - 1)) for _, place in points]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(label, quote=True)}">',
             f'<line x1="{PAD}" y1="{PAD}" x2="{WIDTH - PAD}" y2="{PAD}" class="axis"/>',
             f'<text x="2" y="{PAD + 4}" class="label">1</text>',
             f'<text x="2" y="{HEIGHT - PAD + 4}" class="label">{worst}</text>']
    if len(points) > 1:
        parts.append('<polyline points="' + " ".join([f"{x},{y}" for x, y in zip(xs, ys)]) + '" class="line"/>')
    parts += [f'<circle cx="{x}" cy="{y}" r="3" class="dot"><title>{_day(day)}\u00a0: {place}</title></circle>'
              for x, y, (day, place) in zip(xs, ys, points)]
    parts.append("</svg>")
    return "".join(parts)  # the template marks it safe: every text in it is escaped here


@cache
def _abscissas(count: int) -> tuple[int, ...]:
    """Where `places_svg` draws each of `count` points, left to right."""
    step = (WIDTH - 2 * PAD) / max(count - 1, 1)
    return tuple(round(PAD + index * step) for index in range(count))


@lru_cache(maxsize=1 << 12)  # a few hundred dates
def _day(day: str) -> str:
    return escape(day)
