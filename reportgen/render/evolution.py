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
from reportgen.model import Move, move

# The arrow each move shows (its `Move` is the cell's CSS class) and the words said of it.
_ARROWS = {Move.UP: "▲", Move.DOWN: "▼", Move.SAME: "="}
_SAID = {Move.UP: "gagnée", Move.DOWN: "perdue"}


@lru_cache(maxsize=1 << 10)  # a handful of distinct moves in a whole league
def _cell(value: str) -> Markup:
    moved = french.moved(value)
    kind = move(moved)
    if kind == Move.NEW:
        return Markup(escape(value))
    if kind == Move.SAME:
        return Markup(f'<span aria-hidden="true">{_ARROWS[Move.SAME]}</span><span class="sr-only">même place</span>')
    places = abs(int(moved or 0))
    many = "s" if places > 1 else ""
    return Markup(f'<span aria-hidden="true">{_ARROWS[kind]}</span> {places}'
                  f'<span class="sr-only"> place{many} {_SAID[kind]}{many}</span>')


def cell(value: Any) -> Markup:
    """The inside of an evolution's cell: « ▲ 3 » and the words a screen reader says."""
    return _cell(french.evolution(value))
