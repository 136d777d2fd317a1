"""Finding a results table in a sheet: its header row, its columns, its data rows.

Tolerance (docs/formats.md): title rows, logos or blank rows above the header, columns in any order,
extra columns, aliases, blank rows and a totals row below the data.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from functools import cached_property

from reportgen.french import of_person
from reportgen.ingest.text import format_name, nom_and_prenom, normalise_label, split_full_name
from reportgen.ingest.values import BadValue, is_empty, read_cell, shown, text
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.model import Problem, SourceRef, column_letter
from reportgen.problems import EMPTY_FIRST_NAME, MISSING_COLUMN

HEADER_SEARCH_ROWS = 30


@dataclass(frozen=True)
class Column:
    key: str
    header: str  # the canonical header, as docs/formats.md and the generated templates write it
    aliases: tuple[str, ...] = ()

    @cached_property
    def labels(self) -> frozenset[str]:
        """The header and its aliases, normalised once (matching runs for every header cell)."""
        return frozenset(normalise_label(name) for name in (self.header, *self.aliases))


# docs/formats.md, "Aliases".
PLACE = Column("place", "Place", ("Rang", "Classement", "Clt", "Clt.", "Pl", "Position", "Place finale"))
PLACE_DUPLICATE = Column("place_duplicate", "Place duplicate",
                         ("Duplicate", "Rang duplicate", "Clt dup", "Place dup", "Classement duplicate"))
LAST_NAME = Column("last_name", "Nom", ("Nom de famille",))
FIRST_NAME = Column("first_name", "Prénom", ("Prenom",))
PLAYER = Column("player", "Joueur", ("Nom complet", "Participant", "Nom et prénom", "Nom prénom"))
LICENCE = Column("licence", "Licence", ("N° licence", "Numéro de licence", "No licence", "Licence n°"))
CLUB = Column("club", "Club", ())


@dataclass
class Table:
    workbook: Workbook
    sheet: Sheet
    header_row: int
    columns: dict[str, int]  # column key -> 0-based column index
    headers: dict[str, str]  # column key -> header as written in the sheet
    rows: list[int]  # 0-based indices of the data rows

    def has(self, key: str) -> bool:
        return key in self.columns

    def ref(self, row: int, key: str) -> SourceRef:
        """The cell of `row` in the column `key`: what `Workbook.ref` gives, each column's letters and
        header looked up once for the table (a cell located per row and column of every workbook)."""
        letters, header = self._located[key]
        return SourceRef(self.workbook.label, self.sheet.name, f"{letters}{row + 1}", header)

    @cached_property
    def _located(self) -> dict[str, tuple[str, str]]:
        return {key: (column_letter(col), self.headers[key]) for key, col in self.columns.items()}

    def raw(self, row: int, key: str) -> object:
        return self.sheet.value(row, self.columns[key]) if key in self.columns else ""

    def read(self, row: int, key: str, parse, problems: list[Problem], required: bool = True):
        """The parsed value of a cell, or None after recording a located problem."""
        col = self.columns.get(key)
        if col is None:
            return None
        value = self.sheet.value(row, col)  # `raw`, the column looked up once
        # Most cells (a text that is not blank, a number, in a sheet without formulas saved without
        # a value) are parsed at once: nothing for read_cell to refuse before the parse. One that
        # does not parse takes read_cell's way, which parses it again and says why, located.
        if not self.sheet.untrusted_formulas and ((type(value) is str and value.strip())
                                                  or type(value) in (int, float)):
            try:
                return parse(value)
            except BadValue:
                pass
        return read_cell(value, lambda: self.ref(row, key), self.sheet.untrusted_formulas, parse,
                         problems, required, (f"la case « {self.headers[key]} » est vide", "remplissez-la"))

    def read_all(self, key: str, parse, required: bool = True) -> list | None:
        """Every data row's cell of the column `key` parsed, as `read` gives each, when every one is
        a text that is not blank or a number that parses, or (not `required`) a blank: a column of
        the common case in one loop, without `read`'s call and checks per cell (a million cells at
        100x). None when one is not, or when the sheet has formulas saved without a value: the
        caller then reads row by row, each problem located and said in the rows' order."""
        col = self.columns.get(key)
        if col is None:
            return [None] * len(self.rows)
        if self.sheet.untrusted_formulas:
            return None
        cells = self.sheet.rows
        parsed = []
        try:
            for row in self.rows:
                line = cells[row]
                value = line[col] if col < len(line) else ""
                if (type(value) is str and value.strip()) or type(value) is int or type(value) is float:
                    parsed.append(parse(value))
                elif not required and (value is None or type(value) is str):  # blank (`is_empty`), nothing to say
                    parsed.append(None)
                else:
                    return None
        except BadValue:
            return None
        return parsed

    def has_names(self) -> bool:
        return self.has("last_name") or self.has("player")

    def read_name(self, row: int, problems: list[Problem], required: bool = True):
        """(last, first, cell of the name) from `Nom` + `Prénom`, or from a single `Joueur` column
        ("DUPONT Jean", "Jean DUPONT", "Dupont, Jean"); last is None when missing. A `Prénom` left
        empty: the `Nom` told apart as a `Joueur` cell is, when its case says so (`nom_and_prenom`),
        else a warning (`_first_name_empty`)."""
        key = "last_name" if self.has("last_name") else "player"
        if key == "last_name":
            last = self.read(row, "last_name", text, problems, required)
            said = len(problems)
            first = self.read(row, "first_name", text, problems, required=False) or ""
            if last and not first:
                last, first = nom_and_prenom(last, first)
                if not first and len(problems) == said:  # a Prénom refused (a formula...) is said once
                    self._first_name_empty(row, last, problems)
        else:
            full = self.read(row, "player", text, problems, required)
            last, first = split_full_name(full) if full else (None, "")
        return last, first, self.ref(row, key)

    def _first_name_empty(self, row: int, last: str, problems: list[Problem]) -> None:
        """A warning at the `Prénom` cell left blank of a row read as a surname alone, without a
        licence: its player is known by that surname, which two people may share (INTERPRETATIONS.md,
        « who is who »), so two of them typed so would be one. Not a refusal: the row is read as typed
        and its player ranked, until the club gives his first name. A sheet of `Nom` without a `Prénom`
        column (a `Joueur` column under another header) says it at the `Nom` cell."""
        licence = self.has("licence")
        if licence and not is_empty(self.raw(row, "licence")):
            return  # his licence is who he is (ingest/players.py)
        player = format_name(last, "")
        column = {} if self.has("first_name") else {
            "missing": "manque (la feuille n’a pas de colonne « Prénom »)",
            "where_typed": "après son nom dans cette case (ou dans une colonne « Prénom » à ajouter)"}
        problems.append(EMPTY_FIRST_NAME(self.ref(row, "first_name" if self.has("first_name") else "last_name"),
                                         player=player, of_player=of_person(player), **column,
                                         **({"nor_licence": " ni licence", "or_licence": ", ou sa licence"}
                                            if licence else {})))

    def read_names(self) -> list[tuple[str | None, str]] | None:
        """Every data row's (last, first) as `read_name` gives them, when each of their cells reads
        at once (`read_all`) and every `Prénom` is given; None otherwise (then `read_name` row by row
        says each problem, and reads each `Nom` beside an empty `Prénom`)."""
        if self.has("last_name"):
            lasts, firsts = self.read_all("last_name", text), self.read_all("first_name", text, required=False)
            if lasts is None or firsts is None or not all(firsts):
                return None
            return list(zip(lasts, firsts))
        fulls = self.read_all("player", text)
        if fulls is None:
            return None
        return [split_full_name(full) if full else (None, "") for full in fulls]


def _header_label(value: object) -> tuple[str, str]:
    """A cell as typed, and the label it would be as a header."""
    typed = shown(value)
    return typed, normalise_label(typed)


# The header search tries every cell of a sheet's first rows, and the players' names, clubs and
# places there come back in every workbook of a league: each text's shown form and label made once
# (bounded; exact `str` only, as `normalise_label` keeps them), not per cell (fourteenth round).
_header_text = functools.lru_cache(maxsize=1 << 16)(_header_label)
# A number or a date names no column: every column's header and aliases have letters (tested). A
# yes/no cell reads « VRAI » or « FAUX », words: it takes the general way.
_NAMELESS = (int, float, dt.date, dt.datetime)


def find_table(workbook: Workbook, sheet: Sheet, columns: list[Column]) -> Table | None:
    """The row among the first ones that holds the most known headers, and the rows below it."""
    # Which columns each label names, in the order of `columns` (a label of two columns goes to the
    # first one not found yet): one look-up per cell of the first rows.
    by_label: dict[str, list[Column]] = {}
    for column in columns:
        for label in column.labels:
            by_label.setdefault(label, []).append(column)
    best: tuple[int, dict[str, int], dict[str, str]] | None = None
    for row in range(min(HEADER_SEARCH_ROWS, len(sheet.rows))):
        found, written = {}, {}
        for col, value in enumerate(sheet.rows[row]):
            if type(value) is str:  # most cells: a text, blank or not (is_empty's case), then its label
                if not value.strip():
                    continue
                typed, label = _header_text(value)
            elif type(value) in _NAMELESS or is_empty(value):
                continue  # the players' places and licences as numbers, in every row searched
            else:
                typed, label = _header_label(value)
            for column in by_label.get(label, ()):
                if column.key not in found:
                    found[column.key], written[column.key] = col, typed
                    break
        if found and (best is None or len(found) > len(best[1])):
            best = (row, found, written)
    if best is None:
        return None
    header_row, found, written = best
    data_rows = []
    wanted = list(found.values())
    for row in range(header_row + 1, len(sheet.rows)):
        cells = sheet.rows[row]
        size = len(cells)
        for col in wanted:  # a loop, not all() of a generator: once per row of every table
            if col < size and not is_empty(cells[col]):
                break
        else:
            continue  # blank row, or a note beside the table
        first = cells[0] if not is_empty(cells[0]) else next(cell for cell in cells if not is_empty(cell))
        # A number or a date never reads « total », nor does an `Unprintable` (nothing once cleaned):
        # only a text is normalised to be sure.
        if type(first) is str and _header_text(first)[1].startswith("total"):
            continue  # a totals row below the data
        data_rows.append(row)
    return Table(workbook, sheet, header_row, found, written, data_rows)


NAME_COLUMNS = "« Nom » et « Prénom » (ou « Joueur »)"  # what a table without players' names lacks


def required_table(workbook: Workbook, sheet: Sheet, columns: list[Column], required: list[Column], fix: str,
                   found: list[Problem], names: bool = False, typed_by_hand: bool = False) -> Table | None:
    """The table of `columns` in `sheet` when it has the `required` ones (and, with `names`, the
    players' names: `Nom` and `Prénom`, or `Joueur`); else one located problem listing every column
    missing (all of them when no header row is found), with `fix`, and None. `typed_by_hand`: a sheet
    the club lays out itself, whose header row, when there is one, is told the columns to add to it
    (`fix` says to add a header row: not what a sheet that has one lacks)."""
    table = find_table(workbook, sheet, columns)
    missing = [f"« {column.header} »" for column in required if not (table and table.has(column.key))]
    if names and not (table and table.has_names()):
        missing.append(NAME_COLUMNS)
    if table is None or missing:
        if table is not None and typed_by_hand:
            many = len(missing) > 1 or (names and not table.has_names())
            fix = (f"ajoutez {'les colonnes' if many else 'la colonne'} {', '.join(missing)} à cette ligne "
                   f"d’en-têtes et {'remplissez-les' if many else 'remplissez-la'}")
        found.append(MISSING_COLUMN(workbook.ref(sheet, table.header_row if table else 0, 0),
                                    message="colonne introuvable : " + ", ".join(missing), fix=fix))
        return None
    return table
