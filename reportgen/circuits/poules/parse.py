"""A pool tournament workbook: `Tournoi`, `Inscrits`, `Parties` and `Forfaits` (docs/formats.md).

Every cell is checked here, each bad one a located French problem; whether the pools and games are
the ones the rules give is checked when the tournament is replayed (tournament.py).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from reportgen.circuits.base import Reading
from reportgen.circuits.poules.domain import (
    BARRAGE,
    MAIN,
    Forfeit,
    Game,
    Layout,
    PoulesEvent,
    PoulesTournament,
    RawSheet,
    Registrant,
)
from reportgen.circuits.poules.structure import LETTERS, PoolNames, pool_index, pool_names
from reportgen.french import date_long, of_person
from reportgen.ingest import values
from reportgen.ingest.tables import FIRST_NAME, LAST_NAME, PLAYER, Column, Table, required_table
from reportgen.ingest.text import ClosedList, format_name, name_key, nearest_name, normalise_label, split_full_name
from reportgen.ingest.tournament import TournamentSheet
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, ResultRow, SourceRef
from reportgen.problems import (
    AMBIGUOUS_PLAYER,
    BAD_VALUE,
    DUPLICATE,
    DUPLICATE_PLAYER,
    EMPTY,
    FUTURE_DATE,
    MISSING_SHEET,
    UNKNOWN_PLAYER,
    blocking,
)

REGISTRANTS_SHEET, GAMES_SHEET, FORFEITS_SHEET = "Inscrits", "Parties", "Forfaits"

RON = Column("ron", "Points RON", ("RON", "Points", "Classement RON"))
REGISTERED = Column("registered", "Inscription", ("Horodate", "Horodatage", "Date d'inscription", "Inscrit le",
                                                  "Date et heure d'inscription"))
EMAIL = Column("email", "Email", ("E-mail", "Courriel", "Mail", "Adresse électronique"))
ROUND = Column("round", "Tour", ("Ronde", "N° tour"))
POOL = Column("pool", "Poule", ("Groupe",))
WHITE = Column("white", "Blancs", ("Blanc", "Joueur blancs", "Joueur avec les blancs"))
BLACK = Column("black", "Noirs", ("Noir", "Joueur noirs", "Joueur avec les noirs"))
RESULT = Column("result", "Résultat", ("Score", "Résultat de la partie"))
PHASE = Column("phase", "Phase", ())
LAUNCHED = Column("launched", "Lancement", ("Lancée le", "Lancé le", "Début", "Date de lancement"))
SANCTION = Column("sanction", "Sanction", ())
REHABILITATED = Column("rehabilitated", "Réhabilité", ("Réhabilitation", "Blanchi"))
DAY = Column("day", "Date", ("Date du forfait", "Prononcé le"))
REGISTRANT_COLUMNS = [PLAYER, LAST_NAME, FIRST_NAME, RON, REGISTERED, EMAIL]
GAME_COLUMNS = [ROUND, POOL, WHITE, BLACK, RESULT, PHASE, LAUNCHED]
FORFEIT_COLUMNS = [PLAYER, LAST_NAME, FIRST_NAME, ROUND, SANCTION, REHABILITATED, DAY]
# The columns `poules next` writes in a new `Parties` sheet, in this order.
WRITTEN_COLUMNS = [ROUND, POOL, WHITE, BLACK, RESULT, PHASE, LAUNCHED]

RESULT_FIX = ("écrivez 1-0 (les Blancs gagnent), 0-1 (les Noirs gagnent) ou ½-½ (nulle), "
              "ou laissez la case vide tant que la partie n’est pas jouée")


@dataclass(frozen=True, kw_only=True)
class PoulesRow(ResultRow):
    """A registrant, as the results table of the league knows him."""

    ron: float


# -- cell parsers -----------------------------------------------------------------------------------

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", ":": "-"})


def result(value: object) -> str:
    """1-0, 0-1, ½-½ (also 1/2-1/2, 0,5-0,5, spaces and dashes of any kind)."""
    if isinstance(value, (int, float, dt.date)) or isinstance(value, bool):
        raise values.BadValue(f"« {values.shown(value)} » n’est pas un résultat", RESULT_FIX)
    text = "".join(str(value).split()).translate(_DASHES)
    for half in ("1/2", "0,5", "0.5", ".5"):
        text = text.replace(half, "½")
    if text in ("1-0", "0-1", "½-½"):
        return text
    raise values.BadValue(f"« {values.shown(value)} » n’est pas un résultat", RESULT_FIX)


def phase(value: object) -> str:
    label = normalise_label(values.shown(value))
    if label in ("", "principale", "principal", "main", "poule"):
        return MAIN
    if label in ("barrage", "barrages"):
        return BARRAGE
    raise values.BadValue(f"« {values.shown(value)} » n’est pas une phase",
                          "écrivez principale (ou laissez vide) ou barrage")


def decimal(value: object) -> float:
    """RON points: a number, possibly with decimals."""
    return values.decimal_number(value, "écrivez les points RON, par exemple 1850,5")


_MOMENT = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:\s+(?:à\s*)?(\d{1,2})[:h](\d{2})(?::(\d{2}))?)?$")
_ISO_MOMENT = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")


def moment(value: object) -> dt.datetime:
    """A registration time: an Excel date and time, `02/09/2026 18:42`, `2026-09-02 18:42:05`, or a day."""
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 1 <= value < 2_958_466:
        start = dt.datetime.combine(values.EXCEL_EPOCH, dt.time())
        return start + dt.timedelta(seconds=round(float(value) * 86400))
    raw = " ".join(str(value).split())
    try:
        if match := _MOMENT.match(raw):
            day, month, year, hour, minute, second = match.groups()
            return dt.datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0))
        if match := _ISO_MOMENT.match(raw):
            year, month, day, hour, minute, second = match.groups()
            return dt.datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0))
    except ValueError:
        raise values.BadValue(f"« {values.shown(value)} » n’est pas une date et heure qui existe",
                              "vérifiez le jour, le mois et l’heure (jj/mm/aaaa hh:mm)") from None
    raise values.BadValue(f"« {values.shown(value)} » n’est pas une date et heure d’inscription",
                          "écrivez jj/mm/aaaa hh:mm, par exemple 02/09/2026 18:42")


_ADDRESS = re.compile(r"^[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:.]+$")


def email(value: object) -> str:
    text = values.text(value)
    if not _ADDRESS.match(text):
        raise values.BadValue(f"« {values.shown(value)} » n’est pas une adresse électronique",
                              "écrivez une seule adresse, par exemple prenom.nom@exemple.fr, ou laissez vide")
    return text


def round_number(value: object) -> int:
    return values.whole_number_between(value, 1, None, "le tour {number} n’existe pas", "les tours commencent à 1",
                                       not_whole="écrivez le numéro du tour : 1, 2, 3…")


def pool_reader(names: PoolNames) -> Callable[[object], int]:
    """A `Poule` cell -> its 0-based index; the fix shows the sheet's own pool names."""
    def pool(value: object) -> int:
        index = pool_index(values.text(value))
        if index is None:
            shown = ", ".join(values.shown(names.written(i)) for i in range(3))
            raise values.BadValue(f"« {values.shown(value)} » n’est pas un nom de poule",
                                  f"écrivez le nom de la poule : {shown}…")
        return index
    return pool


# -- the workbook -----------------------------------------------------------------------------------

def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading, problems: list[Problem]) -> PoulesEvent | None:
    found: list[Problem] = []
    name = sheet.read("nom", values.text, found)
    day = sheet.read("date", values.date, found)
    location = sheet.read("lieu", values.text, found, required=False) or ""
    registrants, rows, named = _registrants(workbook, found)
    games, layout, names = _games(workbook, named, found)
    forfeits = _forfeits(workbook, named, found)
    if day and day > reading.today and any(game.result for game in games):
        found.append(FUTURE_DATE(sheet.ref("date"), typed="des résultats sont saisis mais ", day=date_long(day)))
    problems.extend(found)
    if blocking(found):  # a warning alone (a registrant's empty Prénom) refuses nothing
        return None
    content = PoulesTournament(location=location, registrants=tuple(registrants), games=tuple(games),
                               forfeits=tuple(forfeits), layout=layout, pool_names=names)
    return Event(id=workbook.label, name=name, date=day, content=content, results=rows)


def _table(workbook: Workbook, name: str, columns: list[Column], required: list[Column], fix: str,
           found: list[Problem], names: bool = True) -> Table | None:
    sheet = workbook.sheet(name)
    if sheet is None:
        return None
    return required_table(workbook, sheet, columns, required, fix, found, names)


def _name(table: Table, row: int, found: list[Problem]) -> tuple[str | None, SourceRef]:
    """NOM Prénom of the row (a `Joueur` column, or `Nom` and `Prénom`), and its cell."""
    last, first, where = table.read_name(row, found)
    return (format_name(last, first) if last else None), where


def _registrants(workbook: Workbook,
                 found: list[Problem]) -> tuple[list[Registrant], list[PoulesRow], dict[str, str]]:
    """The registrants in registration order, their results rows, and every name listed (key -> name,
    a row with a bad cell included: the games that name him are not refused for it)."""
    elsewhere = len(found)  # the `Tournoi` sheet's problems: an empty sheet is said with them, in one answer
    if workbook.sheet(REGISTRANTS_SHEET) is None:
        found.append(MISSING_SHEET(workbook.ref(), sheet=REGISTRANTS_SHEET, present=workbook.present(),
                                   fix="ajoutez la feuille des inscrits (Joueur, Points RON, Inscription, Email)"))
        return [], [], {}
    table = _table(workbook, REGISTRANTS_SHEET, REGISTRANT_COLUMNS, [RON, REGISTERED],
                   "ajoutez une ligne d’en-têtes Joueur, Points RON, Inscription (et Email) au-dessus des inscrits",
                   found)
    if table is None:
        return [], [], {}
    read: list[tuple[dt.datetime, int, str, float, str, SourceRef]] = []
    seen: dict[str, str] = {}
    named: dict[str, str] = {}
    for row in table.rows:
        local: list[Problem] = []
        name, where = _name(table, row, local)
        ron = table.read(row, "ron", decimal, local)
        registered = table.read(row, "registered", moment, local)
        address = table.read(row, "email", email, local, required=False) or ""
        found.extend(local)
        if name is None:
            continue
        key = name_key(name)
        if key in seen:
            found.append(DUPLICATE_PLAYER(where, player=name, first=seen[key]))
            continue
        seen[key] = where.cell or ""
        named[key] = name
        if not blocking(local):
            read.append((registered, row, name, ron, address, where))
    if not read and len(found) == elsewhere:
        found.append(EMPTY(workbook.ref(table.sheet), nothing="aucun inscrit"))
    registrants, rows = [], []
    for order, (registered, _, name, ron, address, where) in enumerate(sorted(read, key=lambda r: (r[0], r[1]))):
        registrants.append(Registrant(name_key(name), name, ron, registered, order, address, where))
        last, first = split_full_name(name)
        rows.append(PoulesRow(entry=Entry("", last, first), ref=where, ron=ron))
    return registrants, rows, named


def _player(table: Table, row: int, key: str, known: dict[str, str], listed: ClosedList,
            found: list[Problem]) -> str | None:
    """The registrant a cell names, or None after a problem."""
    typed = table.read(row, key, values.text, found)
    if not typed:
        return None
    return _registrant(typed, known, listed, table.ref(row, key), found)


def _registrant(typed: str, known: dict[str, str], listed: ClosedList, where: SourceRef,
                found: list[Problem]) -> str | None:
    """The registrant's key `typed` designates (accents and case aside; word order aside when only
    one registrant has those words: INTERPRETATIONS.md, « who is who », `Inscrits` being a closed
    list), or None after a problem: nobody, or several registrants with those words."""
    candidates = listed.designated(name_key(typed))
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        names = " ou ".join(f"« {known[key]} »" for key in candidates)
        found.append(AMBIGUOUS_PLAYER(where,
                                      player=f"« {typed} »", candidates=names, among=f"feuille {REGISTRANTS_SHEET}",
                                      fix=f"écrivez le nom tel qu’il figure dans la feuille {REGISTRANTS_SHEET}"))
    else:
        found.append(_unknown_player(typed, known, where))
    return None


def _unknown_player(typed: str, known: dict[str, str], where: SourceRef) -> Problem:
    """A name no registrant has, with the registered name nearest to it if one is close."""
    near = nearest_name(typed, known.values())
    fix = (f"vouliez-vous dire « {near} » ?" if near
           else "écrivez le nom tel qu’il figure dans la feuille Inscrits, ou inscrivez le joueur")
    return UNKNOWN_PLAYER(where, player=f"« {typed} »", among=f"dans la feuille {REGISTRANTS_SHEET}", fix=fix)


def _games(workbook: Workbook, known: dict[str, str],
           found: list[Problem]) -> tuple[list[Game], Layout, PoolNames]:
    """The games, the sheets as read, and how the `Poule` column names the pools."""
    sheets = tuple(RawSheet(s.name, tuple(tuple(row) for row in s.rows)) for s in workbook.sheets)
    sheet = workbook.sheet(GAMES_SHEET)
    empty = Layout(sheets, "", 0, {}, 0)
    if sheet is None:
        return [], empty, LETTERS
    table = _table(workbook, GAMES_SHEET, GAME_COLUMNS, [ROUND, POOL, WHITE, BLACK, RESULT],
                   "écrivez les poules avec « reportgen poules next » (colonnes Tour, Poule, Blancs, Noirs, "
                   "Résultat, Phase)", found, names=False)
    if table is None:
        return [], empty, LETTERS
    end = max((index + 1 for index, row in enumerate(sheet.rows) if any(not values.is_empty(c) for c in row)),
              default=table.header_row + 1)
    layout = Layout(sheets, sheet.name, table.header_row, dict(table.columns), max(end, table.header_row + 1))
    games = []
    listed = ClosedList(known)
    names = pool_names(table.raw(row, "pool") for row in table.rows)
    pool = pool_reader(names)
    for row in table.rows:
        local: list[Problem] = []
        number = table.read(row, "round", round_number, local)
        index = table.read(row, "pool", pool, local)
        white = _player(table, row, "white", known, listed, local)
        black = _player(table, row, "black", known, listed, local)
        outcome = table.read(row, "result", result, local, required=False)
        stage = table.read(row, "phase", phase, local, required=False) or MAIN
        launched = table.read(row, "launched", values.date, local, required=False)
        if white and white == black:
            local.append(BAD_VALUE(table.ref(row, "black"), message=f"{known[white]} joue contre lui-même",
                                   fix="corrigez les joueurs de la partie"))
        found.extend(local)
        if local or number is None or index is None or white is None or black is None:
            continue
        games.append(Game(number, index, white, black, outcome, stage, launched, row,
                          {key: table.ref(row, key) for key in table.columns}))
    return games, layout, names


def _forfeits(workbook: Workbook, known: dict[str, str], found: list[Problem]) -> list[Forfeit]:
    if workbook.sheet(FORFEITS_SHEET) is None:
        return []  # optional: nobody forfeited
    table = _table(workbook, FORFEITS_SHEET, FORFEIT_COLUMNS, [ROUND],
                   "ajoutez une ligne d’en-têtes Joueur, Tour, Sanction, Réhabilité au-dessus des forfaits", found)
    if table is None:
        return []
    forfeits: list[Forfeit] = []
    seen: dict[tuple[str, int, bool], str] = {}
    listed = ClosedList(known)
    for row in table.rows:
        local: list[Problem] = []
        name, where = _name(table, row, local)
        number = table.read(row, "round", round_number, local)
        sanction = bool(table.read(row, "sanction", values.yes_no, local, required=False))
        rehabilitated = bool(table.read(row, "rehabilitated", values.yes_no, local, required=False))
        day = table.read(row, "day", values.date, local, required=False)
        player = _registrant(name, known, listed, where, local) if name is not None else None
        found.extend(local)
        if blocking(local) or player is None or number is None:
            continue
        if (player, number, rehabilitated) in seen:
            found.append(DUPLICATE(where, message=f"ce forfait {of_person(known[player])} au tour {number} est déjà en "
                                   f"{seen[player, number, rehabilitated]}", fix="supprimez le doublon"))
            continue
        seen[player, number, rehabilitated] = where.cell or ""
        forfeits.append(Forfeit(player, number, sanction, rehabilitated, day, where, table.ref(row, "round")))
    return forfeits
