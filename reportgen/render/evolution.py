"""Places gained as HTML, one markup for a bulletin's evolution cell (templates/macros.html.j2,
`evolution_cell`) and the site's (site/pages.py `table`): the bulletins' « ▲ 3 », « ▼ 2 », « = »,
« nouveau » (INTERPRETATIONS: +3 is shown ▲3), the arrow hidden from a screen reader, which says
« 3 places gagnées »; the same in words for a club's mail (`said`), or shown alone in its table (`shown`). Made from the evolution's value
as a ranking holds it (« +3 », "-2", "0", « nouveau ») or as the site's data writes it
(french.evolution: « −2 », « = »): the same cell."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from reportgen import french
from reportgen.model import Move, move

# The arrow each move shows (its `Move` is the cell's CSS class) and the words said of it.
_ARROWS = {Move.UP: "▲", Move.DOWN: "▼", Move.SAME: "="}
_SAID = {Move.UP: "gagnée", Move.DOWN: "perdue"}
_SAME = "même place"


@lru_cache(maxsize=1 << 10)  # a handful of distinct moves in a whole league
def _cell(value: str) -> Markup:
    kind, written, places = _move(value)
    if kind == Move.NEW:
        return Markup(escape(written))
    if kind == Move.SAME:
        return Markup(f'<span aria-hidden="true">{_ARROWS[Move.SAME]}</span><span class="sr-only">{_SAME}</span>')
    return Markup(f'<span aria-hidden="true">{_ARROWS[kind]}</span> {places}'
                  f'<span class="sr-only"> {_places(kind, places)}</span>')


def _places(kind: Move, places: int) -> str:
    """« places gagnées », « place perdue »: the words after the number of places moved."""
    many = "s" if places > 1 else ""
    return f"place{many} {_SAID[kind]}{many}"


def cell(value: Any) -> Markup:
    """The inside of an evolution's cell: « ▲ 3 » and the words a screen reader says."""
    return _cell(french.evolution(value))  # its argument hashable for the cache: the site's text


def _move(value: Any) -> tuple[Move, str, int]:
    """The move, the evolution as the site writes it (« nouveau », « −2 ») and the places moved."""
    shown = french.evolution(value)
    moved = french.moved(shown)
    kind = move(moved)
    return kind, shown, abs(int(moved or 0)) if kind in (Move.UP, Move.DOWN) else 0


def shown(value: Any) -> str:
    """An evolution as a cell shows it to the eye, its words left to a legend: « ▲ 3 », « ▼ 2 », « = »,
    « nouveau ». A club's mail's table (templates/mail/club-html.j2), where no style can hide words for
    a screen reader alone: « ▼ 2 places perdues » took two or three lines of a phone's 390 px, each
    row as tall; the legend under it says what ▲ and ▼ are, as the bulletin's does."""
    kind, written, places = _move(value)
    if kind == Move.NEW:
        return written
    return _ARROWS[kind] if kind == Move.SAME else f"{_ARROWS[kind]} {places}"


def said(value: Any) -> tuple[str, str]:
    """An evolution in words, as the site's cell reads: its arrow (none but for a move up or down)
    and « 3 places gagnées », « 2 places perdues », « même place », « nouveau ». A club's mail
    says it so in its plain text (templates/mail/club-text.j2): « évolution : −2 » right after
    « 1 695 points » read like points."""
    kind, written, places = _move(value)
    if kind == Move.NEW:
        return "", written
    if kind == Move.SAME:
        return "", _SAME
    return _ARROWS[kind], f"{places} {_places(kind, places)}"
