"""Places gained as HTML, one markup for a bulletin's evolution cell (templates/macros.html.j2,
`evolution_cell`) and the site's (site/pages.py `table`): the bulletins' « ▲ 3 », « ▼ 2 », « = »,
« nouveau » (INTERPRETATIONS: +3 is shown ▲3), the arrow hidden from a screen reader, which says
« 3 places gagnées ». Made from the evolution's value as a ranking holds it (« +3 », "-2", "0",
« nouveau ») or as the site's data writes it (french.evolution: « −2 », « = »): the same cell."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from reportgen import french

# The CSS class of each move (circuits/common.py `Move`'s words), the arrow shown and the words said.
UP, DOWN, SAME, NEW = "up", "down", "same", "new"
_ARROWS = {UP: "▲", DOWN: "▼", SAME: "="}
_SAID = {UP: "gagnée", DOWN: "perdue"}


def kind(value: Any) -> str:
    """« up », « down », « same » or « new » (nothing known: a newcomer)."""
    moved = french.moved(value)
    return NEW if moved is None else UP if moved > 0 else DOWN if moved < 0 else SAME


@lru_cache(maxsize=1 << 10)  # a handful of distinct moves in a whole league
def _cell(value: str) -> Markup:
    move = kind(value)
    if move == NEW:
        return Markup(escape(value))
    if move == SAME:
        return Markup(f'<span aria-hidden="true">{_ARROWS[SAME]}</span><span class="sr-only">même place</span>')
    places = abs(int(french.moved(value) or 0))
    many = "s" if places > 1 else ""
    return Markup(f'<span aria-hidden="true">{_ARROWS[move]}</span> {places}'
                  f'<span class="sr-only"> place{many} {_SAID[move]}{many}</span>')


def cell(value: Any) -> Markup:
    """The inside of an evolution's cell: « ▲ 3 » and the words a screen reader says."""
    return _cell(french.evolution(value))
