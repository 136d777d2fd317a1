"""The site's long tables' lines as HTML made here rather than line by line in Jinja (issue 27): a
player's page has one line per dated ranking he is in (73,087 lines at 10x), a tournament's, season's
or club's page one per player of its ranking (`ranking_row`, the `ranking` macro's rows), a player's
results and places of each season (`results`, `places`, the tables beside his charts), a club's
tournaments (`event_item`, twelfth round: each made once, however many clubs list it), and Jinja's
per-line cost (the `loop`, an attribute lookup and an escape per cell) was most of what those pages
cost. The bytes are those the templates' loops gave (tests/test_site_lines.py renders both and
compares): each value escaped as autoescape does (markupsafe), the same markup, the same indentation
and newlines.

What every player's line of one ranking shares (its date, kind, title and link, made short for a
phone) is made once per ranking (`head`), then each player's line adds his place, value and club
(`line`), each escaped once per build whatever the number of lines it is on (`_escaped`: places,
clubs and values repeat). A date, and a title that may hold one, is escaped with its day and month
kept on one line (`_dated`, french.day_month_kept), as the templates' `dates` filter keeps those
they print.

A player's results and places (`head`, `line`, `results`) say each cell's role (`ROW`, `CELL`,
`ROW_HEADER`): on a phone site.css lays each row out on two lines (a grid, no longer a table's
display), and the roles keep it a table for a screen reader. A player's name keeps each hyphenated
word of it on one line while it fits (`player_name`: « Jean-François », not « Jean- » over « François »),
its text unchanged. Above a table whose columns a phone hides, the notice naming them (`hidden_columns`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from reportgen import french
from reportgen.model import move
from reportgen.render import evolution as drawn

SECONDARY = ' class="secondary"'  # hidden on a phone: a column, a title's date (`head`)
_CLASS = ' class="'
# A player's tables' roles, said by each row and cell: the same as a table's own, kept when a
# phone lays the rows out as a grid (site.css), which leaves a browser free to forget them.
ROW, CELL, ROW_HEADER = '<tr role="row">', '<td role="cell"', '<th scope="row" role="rowheader">'
HYPHENATED = re.compile(r"\S+-\S+")  # a word with a hyphen (« Jean-François », « J.-F. »)
# A box of its own (site.css `.kept`: inline-block), rather than `nowrap`: whole when it fits, broken within (at
# its hyphen first) when longer than its heading or, on a phone held upright, its column, as `nowrap` never is:
# « DUPONT-CASTELNAU-LABASTIDE » widened a phone's ranking and player's page past its width
KEPT = r'<span class="kept">\g<0></span>'
# The same in a mail (no stylesheet: an inline style): « DUPONT-CASTELNAU » beside « 137e ex aequo » widened a
# phone's mail past its width (templates/mail/club-html.j2)
INLINE_BOX = '<span style="display: inline-block">{}</span>'  # a mail's box of its own: an inline style
KEPT_INLINE = INLINE_BOX.format(r"\g<0>")


# How a document's title ends with its date (the circuits' titles: « Classement après le tournoi
# d'Albi du 14 février 2026 », « … (9 avril 2005) », « Classement Elo au 14 mars 2026 »).
DATED = (" du {}", " au {}", " ({})")


def says(title: str, kind: str) -> bool:
    """Whether a title starts with its kind's words (« Classement après … », « Tournoi de Bordeaux »,
    « Classement Elo au … »): « Classement : Classement après … » took a line of a phone's row to
    say it twice. « Tournoi : Classement final », « Classement Elo : Classement au … » keep theirs."""
    start = title[:len(kind)]
    return start.casefold() == kind.casefold() and not title[len(kind):len(kind) + 1].isalnum()


def dated(title: str, day: str) -> str:
    """A title's ending that only repeats its line's date (« du 24 janvier 2026 »), or nothing."""
    for form in DATED:
        ending = form.format(day)
        if title.endswith(ending) and len(title) > len(ending):
            return ending
    return ""


def head(day: str, kind: str, title: str, url: str | None, sort: str) -> str:
    """The start of a line, up to the opening of its place's cell: the same for every player. `sort`:
    what its date sorts by (site/days.py `sort_key`: « 14 mars 2026 » would sort by its day).

    Short on a phone, each line there two or three lines tall rather than six: its kind only when
    its title does not say it (`says`), and the title's date, the one of the line's date column,
    hidden there (`secondary`; a laptop shows the document's whole title)."""
    said = f"{escape(kind)}&nbsp;: " if kind and not says(title, kind) else ""
    ending = dated(title, day)
    name = (f'{_dated(title[:-len(ending)])}<span{SECONDARY}>{_dated(ending)}</span>' if ending
            else _dated(title))
    shown = f'<a href="{escape(url)}">{name}</a>' if url else name
    return f'    {ROW}{CELL} data-sort="{escape(sort)}">{_dated(day)}</td>{ROW_HEADER}{said}{shown}</th>{CELL}>'


@lru_cache(maxsize=1 << 16, typed=True)  # bounded: a long-lived process builds many leagues
def _escaped(value: Any) -> str:
    return str(escape(value))


@lru_cache(maxsize=1 << 14, typed=True)  # a few hundred dates and a few thousand titles at 100x
def _dated(value: Any) -> str:
    # escaped first: markup stays markup, and escaping leaves a date's digits, spaces and words as they are
    return french.day_month_kept(str(escape(value)))


@lru_cache(maxsize=1 << 16, typed=True)  # a name is on many rows: each ranking's, his results'
def player_name(value: Any, kept: str = KEPT) -> str:
    """A player's name escaped, each word of it with a hyphen (« Jean-François ») kept on one line
    while it fits (`kept`: a page's `KEPT`, or a mail's `KEPT_INLINE`): a phone broke it at its hyphen,
    « Jean- » over « François ». Markup around the word, never a character in it (a no-break hyphen
    would change what is searched, copied and compared)."""
    escaped = str(escape(value))
    return HYPHENATED.sub(kept, escaped) if "-" in escaped else escaped


def line(start: str, rank: Any, value: Any, club: Any) -> str:
    """One line: its ranking's `head`, then the player's place, value and club (None: no such
    column, none of his lines naming one), each escaped."""
    shown = "" if club is None else f'{CELL} class="secondary">{_escaped(club)}</td>'
    return f'{start}{_escaped(rank)}</td>{CELL}>{_escaped(value)}</td>{shown}</tr>\n'


@lru_cache(maxsize=1 << 10)  # a handful of distinct moves on all the pages
def evolution(value: str) -> tuple[Markup, str]:
    """An evolution's cell as a bulletin draws it (render/evolution.py: « ▲ 3 » and the words a
    screen reader says), and its attributes: its class (the bulletins' colours) and the number it
    sorts by (site.js cannot read « ▲ 3 » as one; « nouveau » sorts after the numbers)."""
    moved = french.moved(value)
    sort = "" if moved is None else f' data-sort="{moved}"'
    return drawn.cell(value), f' class="evo {move(moved)}"{sort}'


@lru_cache(maxsize=1 << 8)  # a handful of kinds of cells
def _opening(main: bool, attributes: str) -> str:
    """A cell's opening tag: a column hidden on a phone is `secondary` too, beside a class its
    attributes give (a number's `num`)."""
    if main:
        return f"<td{attributes}>"
    if attributes.startswith(_CLASS):
        return f'<td class="secondary {attributes[len(_CLASS):]}>'
    return f"<td{SECONDARY}{attributes}>"


def ranking_row(here: str, sort: Any, rank: Any, player: Any, url: str | None,
                cells: Iterable[tuple[Any, bool, str | None, str]]) -> str:
    """One row of a ranking's table (`templates/site/macros.html.j2`): place, player (linked to his
    page when the site shows it), then each cell (value, main, link, its own attributes already
    escaped: an evolution's, `evolution`; a number's class and its `data-sort`) with `here` before
    each link."""
    who = f'<a href="{_escaped(here)}{_escaped(url)}">{player_name(player)}</a>' if url else player_name(player)
    shown = "".join([_cell(here, value, main, link, attributes) for value, main, link, attributes in cells])
    return f'    <tr><td data-sort="{_escaped(sort)}">{_escaped(rank)}</td><th scope="row">{who}</th>{shown}</tr>\n'


@lru_cache(maxsize=1 << 14, typed=True)  # 295 distinct cells among the 490,000 of the tournaments' pages at 100x
def _cell(here: str, value: Any, main: bool, link: str | None, attributes: str) -> str:
    """A cell of `ranking_row`, made once however many rows have it (points, clubs, moves repeat);
    typed: a value 1 and True, or a Markup and its text as a str, are told apart."""
    shown = f'<a href="{_escaped(here)}{_escaped(link)}">{_escaped(value)}</a>' if link else _escaped(value)
    return f"{_opening(main, attributes)}{shown}</td>"


def event_item(day: str, circuit: str, title: str, url: str) -> str:
    """A tournament in a club's list of those its players played (`templates/site/club.html.j2`): the
    same on every club's page that lists it (pages of outputs/site/, links relative to it), so made
    once per tournament (at 100x, 100 clubs listing most of 4,000 tournaments each)."""
    return f'<li>{_dated(day)} · {escape(circuit)}&nbsp;: <a href="{escape(url)}">{_dated(title)}</a></li>'


COUNTED = {None: "—", True: "oui", False: "non (hors des meilleurs résultats)"}  # as the template said them


def results(scores: Iterable[tuple[Any, Any, Any, str | None, Any, bool | None]]) -> Markup:
    """A player's results of a season, the rows of his page's results table on one line as its loop
    made them: each its tournament (the key its date sorts by, its date, its name, linked to its
    page when there is one: site/player_page.py `PlayerPages.results`), its points and whether they
    count (site/data.py `counted`)."""
    return Markup("".join(
        f'{ROW}{CELL} data-sort="{_escaped(sort)}">{_dated(day)}</td>{ROW_HEADER}'
        + (f'<a href="{_escaped(url)}">{_dated(title)}</a>' if url else _dated(title))
        + f"</th>{CELL}>{_escaped(points)}</td>{CELL}>{COUNTED[None if counted is None else bool(counted)]}</td></tr>"
        for sort, day, title, url, points, counted in scores))


def places(points: Iterable[tuple[str, Any]]) -> Markup:
    """A player's place on each date of a season (the data under his page's chart), its table's rows."""
    return Markup("".join(f"<tr><td>{_dated(day)}</td><td>{_escaped(place)}</td></tr>" for day, place in points))


@lru_cache(maxsize=1 << 8)  # a few sets of columns on all the pages
def hidden_columns(names: tuple[str, ...]) -> Markup:
    """What a phone held upright hides of a table (its `secondary` columns, site.css), said just above
    it as the bulletins say it (« Sur un écran étroit, des colonnes sont masquées »), naming them by
    their whole headings, and how to see them: turned, a phone shows every column, the table scrolling
    in its own box when wider than it (a 568 x 320 one too, where it named the columns and at most a
    CSV file: a Grand Sud tournament has none, and the page nothing else that gives them). Nothing
    when it hides none. A tournament's 17th above its 18th with fewer points read as a mistake while
    nothing said that « Place au duplicate » was hidden."""
    if not names:
        return Markup("")
    said, them = ("des colonnes sont masquées", "les") if len(names) > 1 else ("une colonne est masquée", "la")
    return Markup(f'<p class="hidden-columns">Sur un écran étroit, {said}&nbsp;: {escape(", ".join(names))}. '
                  f'Tournez le téléphone pour {them} voir.</p>\n')


def table_body(lines: Iterable[str]) -> Markup:
    """The lines as the template inserts them between `<tbody>` and `</tbody>` (already escaped)."""
    return Markup("".join(lines))
