"""A Tantrix workbook: `Tournoi` (with `Type`), `Parties` and `Inscrits` (optional), docs/formats.md.

Every value that cannot be read is a located problem in French: an unknown side in `Forfait`, a
player who plays himself, tiles missing on a played game, a time that is not a time…
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reportgen.circuits.base import Reading
from reportgen.circuits.tantrix.points import (
    ALL_PLAY_ALL_DEFAULT,
    DEFAULT,
    KNOCKOUT_DEFAULT,
    PLAYED,
    VANISHED,
    VANISHED_TILES,
    read_time,
)
from reportgen.ingest import values
from reportgen.ingest.tables import PLAYER, Column, Table, required_table
from reportgen.ingest.text import ClosedList, format_name, name_key, nearest_name, normalise_label, split_full_name
from reportgen.ingest.tournament import TournamentSheet, read_name_and_date
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Event, Problem, ResultRow, SourceRef
from reportgen.problems import (
    AMBIGUOUS_PLAYER,
    BAD_VALUE,
    DUPLICATE,
    DUPLICATE_PLAYER,
    EMPTY,
    MISSING_SHEET,
    MISSING_VALUE,
    PAIRING,
    UNKNOWN_PLAYER,
    blocking,
)

GAMES_SHEET = "Parties"
REGISTRATIONS_SHEET = "Inscrits"
KNOCKOUT, ALL_PLAY_ALL = "élimination", "toutes-rondes"
_KINDS = {"elimination": KNOCKOUT, "elimination directe": KNOCKOUT, "knockout": KNOCKOUT, "ko": KNOCKOUT,
          "toutes rondes": ALL_PLAY_ALL, "toutes les rondes": ALL_PLAY_ALL, "tous contre tous": ALL_PLAY_ALL,
          "round robin": ALL_PLAY_ALL}

ROUND = Column("round", "Ronde", ("Tour", "N° ronde", "Round"))
PLAYER_A = Column("player_a", "Joueur A", ())
PLAYER_B = Column("player_b", "Joueur B", ())
TILES_A = Column("tiles_a", "Tuiles A", ("Score A",))
TILES_B = Column("tiles_b", "Tuiles B", ("Score B",))
TIME_A = Column("time_a", "Temps A", ())
TIME_B = Column("time_b", "Temps B", ())
DEFAULTED = Column("default", "Forfait", ("Défaut", "Forfaits", "Par défaut"))
VANISHED_COLUMN = Column("vanished", "Déconnexion", ("Déconnexions", "Partie disparue", "Disparue"))
GAME_COLUMNS = [ROUND, PLAYER_A, PLAYER_B, TILES_A, TILES_B, TIME_A, TIME_B, DEFAULTED, VANISHED_COLUMN]
REQUIRED_GAME_COLUMNS = [ROUND, PLAYER_A, PLAYER_B, TILES_A, TILES_B]
ELO = Column("elo", "Elo", ("Classement Elo", "Cote", "Rating"))
COLOUR_1 = Column("colour_1", "Couleur 1", ("1re couleur", "Première couleur", "Couleur préférée"))
COLOUR_2 = Column("colour_2", "Couleur 2", ("2e couleur", "Deuxième couleur", "Seconde couleur"))
REGISTRATION_COLUMNS = [PLAYER, ELO, COLOUR_1, COLOUR_2]
MAX_TILES = 56  # a Tantrix set has 56 tiles: no line or loop scores more
COLOURS = ("rouge", "jaune", "bleu", "vert")  # rule 5: the four colours of the game


@dataclass(frozen=True)
class GameRow:
    """One row of `Parties` as typed (names as `NOM Prénom`, keys for identity)."""

    line: int  # its order in the sheet
    round: int
    a: str
    b: str
    key_a: str
    key_b: str
    kind: str  # PLAYED, DEFAULT or VANISHED
    tiles: tuple[int, int] | None  # None for a default or a vanished game
    times: tuple[int | None, int | None]  # seconds used, None when not typed (never read when vanished)
    defaulted: int | None  # 0 (A) or 1 (B) for a default
    where: SourceRef  # its `Ronde` cell
    cells: dict[str, SourceRef] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Registration:
    """One row of `Inscrits`: the organiser's seeding figure and the colour preferences (rule 5)."""

    name: str
    key: str
    elo: float | None
    colours: tuple[str | None, str | None]
    where: SourceRef


@dataclass(frozen=True)
class TantrixTournament:
    kind: str  # KNOCKOUT or ALL_PLAY_ALL
    location: str
    games: list[GameRow]
    registrations: list[Registration]  # empty without an `Inscrits` sheet
    has_registrations: bool


@dataclass(frozen=True, kw_only=True)
class TantrixRow(ResultRow):
    """A player of the event (one row per player, where his name first appears)."""

    key: str  # his name key inside the event: games name him by it


TantrixEvent = Event[TantrixTournament]


KIND_FIX = "écrivez « toutes-rondes » (chacun rencontre chacun) ou « élimination »"  # refused or left empty


def _kind(value: object) -> str:
    label = normalise_label(values.text(value))
    if label in _KINDS:
        return _KINDS[label]
    raise values.BadValue(f"« {values.shown(value)} » n’est pas un type de tournoi Tantrix", KIND_FIX)


def _tiles(value: object) -> int:
    return values.whole_number_between(value, 0, MAX_TILES,
                                       "{number} tuiles : un score va de {low} à {high} (les tuiles d’un jeu)",
                                       "corrigez le score en tuiles")


def _elo(value: object) -> float:
    try:
        number = values.decimal_number(value)
    except values.BadValue:  # a text, a date, a time, a yes/no...
        raise values.BadValue(f"« {values.shown(value)} » n’est pas un classement Elo",
                              "écrivez un nombre, par exemple 1850, ou laissez vide") from None
    if not 0 <= number <= 4000:
        raise values.BadValue(f"« {values.shown(value)} » n’est pas un classement Elo plausible",
                              "écrivez un nombre entre 0 et 4000, ou laissez vide")
    return number


def _colour(choices: tuple[str, ...]):
    by_label = {normalise_label(colour): colour for colour in choices}

    def parse(value: object) -> str:
        label = normalise_label(values.text(value))
        if label in by_label:
            return by_label[label]
        raise values.BadValue(f"« {values.shown(value)} » n’est pas une couleur de Tantrix",
                              "écrivez l’une de : " + ", ".join(choices))
    return parse


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading, problems: list[Problem]) -> TantrixEvent | None:
    found: list[Problem] = []
    name, day = read_name_and_date(sheet, reading.today, found)
    kind = sheet.read("type", _kind, found, fill=KIND_FIX)
    location = sheet.read("lieu", values.text, found, required=False) or ""
    registrations, has_registrations, entrants = _registrations(workbook, found)
    games = _games(workbook, found, kind, entrants)
    problems.extend(found)
    if blocking(found):  # a warning alone refuses nothing, as in every circuit's parse
        return None
    rows: dict[str, TantrixRow] = {}
    for game in games:
        for typed, key, cell in ((game.a, game.key_a, "player_a"), (game.b, game.key_b, "player_b")):
            if key not in rows:
                last, first = split_full_name(typed)
                rows[key] = TantrixRow(entry=Entry("", last, first), ref=game.cells[cell], key=key)
    listed = [TantrixRow(entry=Entry("", *split_full_name(registration.name)), ref=registration.where,
                         key=registration.key) for registration in registrations if registration.key not in rows]
    content = TantrixTournament(kind=kind, location=location, games=games, registrations=registrations,
                                has_registrations=has_registrations)
    return Event(id=workbook.label, name=name, date=day, content=content, results=list(rows.values()), listed=listed)


def _table(workbook: Workbook, name: str, columns: list[Column], required: list[Column], what: str,
           found: list[Problem]) -> Table | None:
    sheet = workbook.sheet(name)
    assert sheet is not None
    return required_table(workbook, sheet, columns, required,
                          f"ajoutez une ligne d’en-têtes au-dessus des {what} : " + " | ".join(c.header for c in columns),
                          found, typed_by_hand=True)


def _player(table: Table, row: int, key: str, found: list[Problem],
            entrants: dict[str, str] | None = None, listed: ClosedList | None = None) -> tuple[str, str] | None:
    """(NOM Prénom, name key) of the player a cell names, or None after a problem. With the
    event's entrants (`Inscrits`, key -> name), a closed list: the entrant the name designates,
    word order aside when only one entrant has its words (INTERPRETATIONS.md, « who is who »);
    a name two entrants could be is refused, and so is one no entrant has (docs/formats.md: the
    games name the entrants; a misspelt entrant would be a new player, rated and seeded apart),
    with the entrant nearest to it. Without entrants, the player typed."""
    typed = table.read(row, key, values.text, found)
    if not typed:
        return None
    last, first = split_full_name(typed)
    if not name_key(last, first):
        found.append(BAD_VALUE(table.ref(row, key), message=f"« {typed} » n’est pas un nom de joueur",
                               fix="écrivez le joueur sous la forme NOM Prénom"))
        return None
    if entrants and listed:
        candidates = listed.designated(name_key(last, first))
        if len(candidates) == 1:
            return entrants[candidates[0]], candidates[0]
        if candidates:
            names = " ou ".join(f"« {entrants[c]} »" for c in candidates)
            found.append(AMBIGUOUS_PLAYER(table.ref(row, key), player=f"« {typed} »", candidates=names,
                                          among=f"feuille {REGISTRATIONS_SHEET}", fix=f"écrivez le nom tel qu’il "
                                          f"figure dans la feuille {REGISTRATIONS_SHEET}"))
            return None
        near = nearest_name(typed, entrants.values())
        found.append(UNKNOWN_PLAYER(table.ref(row, key), player=f"« {typed} »",
                                    among=f"dans la feuille {REGISTRATIONS_SHEET}, qui liste les joueurs du tournoi",
                                    fix=f"vouliez-vous dire « {near} » ? Sinon inscrivez le joueur dans la feuille "
                                    f"{REGISTRATIONS_SHEET}" if near else "écrivez le nom tel qu’il figure dans la "
                                    f"feuille {REGISTRATIONS_SHEET}, ou inscrivez le joueur"))
        return None
    return format_name(last, first), name_key(last, first)


def _games(workbook: Workbook, found: list[Problem], event_kind: str | None,
           entrants: dict[str, str] | None = None) -> list[GameRow]:
    """The games of `Parties`; `entrants` (`Inscrits`, name key -> name), the closed list its
    players come from."""
    elsewhere = len(found)  # the `Tournoi` and `Inscrits` sheets' problems: an empty sheet is said with them
    if workbook.sheet(GAMES_SHEET) is None:
        found.append(MISSING_SHEET(workbook.ref(), sheet=GAMES_SHEET, present=workbook.present(),
                                   fix="ajoutez la feuille des parties : "
                                   + " | ".join(c.header for c in GAME_COLUMNS)))
        return []
    table = _table(workbook, GAMES_SHEET, GAME_COLUMNS, REQUIRED_GAME_COLUMNS, "parties", found)
    if table is None:
        return []
    games: list[GameRow] = []
    entrants = entrants or {}
    listed = ClosedList(entrants)
    for line, row in enumerate(table.rows):
        local: list[Problem] = []
        number = table.read(row, "round", values.whole_number, local)
        if number is not None and number < 1:
            local.append(BAD_VALUE(table.ref(row, "round"), message=f"la ronde {number} n’existe pas",
                                   fix="les rondes se numérotent à partir de 1"))
        a = _player(table, row, "player_a", local, entrants, listed)
        b = _player(table, row, "player_b", local, entrants, listed)
        if a and b and a[1] == b[1]:
            local.append(BAD_VALUE(table.ref(row, "player_b"), message=f"{a[0]} joue contre lui-même",
                                   fix="corrigez l’un des deux joueurs de la partie"))
        before = len(local)
        vanished = bool(table.read(row, "vanished", values.yes_no, local, required=False))
        defaulted = _defaulted(table, row, a, b, local)
        unsure = len(local) > before  # what kind of game it is cannot be read: its tiles are not judged
        if vanished and defaulted is not None:
            local.append(BAD_VALUE(table.ref(row, "default"),
                                   message="une partie disparue (Déconnexion = oui) ne peut pas "
                                   "être aussi perdue par forfait",
                                   fix="gardez l’un des deux : Forfait ou Déconnexion"))
        kind = VANISHED if vanished else DEFAULT if defaulted is not None else PLAYED
        tiles_a = table.read(row, "tiles_a", _tiles, local, required=False)
        tiles_b = table.read(row, "tiles_b", _tiles, local, required=False)
        tiles = None
        if kind == PLAYED and not unsure:
            for key, value in (("tiles_a", tiles_a), ("tiles_b", tiles_b)):
                if value is None and not _has_problem(local, table.ref(row, key)):
                    local.append(MISSING_VALUE(table.ref(row, key),
                                               message="les tuiles de la partie ne sont pas saisies",
                                               fix="saisissez le score en tuiles des deux joueurs ; pour un forfait, "
                                               "indiquez A ou B dans « Forfait »"))
            if tiles_a is not None and tiles_b is not None:
                tiles = (tiles_a, tiles_b)
        elif kind != PLAYED and (tiles_a is not None or tiles_b is not None) and event_kind is not None:
            fixed = _fixed_tiles(kind, defaulted, event_kind == KNOCKOUT)
            if (tiles_a, tiles_b) != fixed:
                what = ("une partie disparue est un nul 23-23 (règle 3)" if kind == VANISHED else
                        f"un forfait se compte {fixed[0]}-{fixed[1]} en tuiles (règle 7)")
                local.append(BAD_VALUE(table.ref(row, "tiles_a"), message=f"des tuiles sont saisies, mais {what}",
                                       fix="effacez les tuiles de cette ligne, ou corrigez Forfait / Déconnexion"))
        times: tuple[int | None, int | None] = (None, None)
        if kind == PLAYED:  # a default has no times, a vanished game's are not read (rule 3)
            times = (table.read(row, "time_a", read_time, local, required=False),
                     table.read(row, "time_b", read_time, local, required=False))
        found.extend(local)
        if local or number is None or a is None or b is None:
            continue
        games.append(GameRow(line=line, round=number, a=a[0], b=b[0], key_a=a[1], key_b=b[1], kind=kind,
                             tiles=tiles, times=times, defaulted=defaulted, where=table.ref(row, "round"),
                             cells={c.key: table.ref(row, c.key) for c in GAME_COLUMNS if table.has(c.key)}))
    _check_rounds(games, event_kind, found)
    if not games and len(found) == elsewhere:
        found.append(EMPTY(workbook.ref(workbook.sheet(GAMES_SHEET)), nothing="aucune partie", rows="les parties"))
    return games


def _fixed_tiles(kind: str, defaulted: int | None, knockout: bool) -> tuple[int, int]:
    if kind == VANISHED:
        return VANISHED_TILES, VANISHED_TILES
    win, lose = (KNOCKOUT_DEFAULT if knockout else ALL_PLAY_ALL_DEFAULT)[:2]
    return (lose, win) if defaulted == 0 else (win, lose)


def _check_rounds(games: list[GameRow], event_kind: str | None, found: list[Problem]) -> None:
    """In a round each player has one opponent: one game in an all-play-all, the games of his
    match in a knockout (all the games of the same two players in one round)."""
    opponent: dict[tuple[int, str], tuple[str, GameRow]] = {}
    for game in games:
        said = False
        for me, name, other in ((game.key_a, game.a, game.key_b), (game.key_b, game.b, game.key_a)):
            seen = opponent.setdefault((game.round, me), (other, game))
            if seen[1] is game or said:
                continue
            first = seen[1].where.cell
            if seen[0] != other:
                found.append(PAIRING(game.where,
                                     message=f"{name} a déjà un autre adversaire à la ronde {game.round} "
                                     f"(en {first})", fix="corrigez la ronde ou les joueurs de la partie"))
                said = True
            elif event_kind == ALL_PLAY_ALL:
                found.append(DUPLICATE(game.where,
                                       message=f"cette partie de la ronde {game.round} est déjà saisie en {first}",
                                       fix="supprimez la ligne en double, ou corrigez la ronde"))
                said = True


def _has_problem(problems: list[Problem], where: SourceRef) -> bool:
    return any(problem.where == where for problem in problems)


def _defaulted(table: Table, row: int, a: tuple[str, str] | None, b: tuple[str, str] | None,
               found: list[Problem]) -> int | None:
    """The side that defaulted: `A` or `B` (the player's name is understood too), none when blank."""
    typed = table.read(row, "default", values.text, found, required=False)
    if not typed:
        return None
    label = normalise_label(typed)
    if label in ("a", "joueur a"):
        return 0
    if label in ("b", "joueur b"):
        return 1
    # The game's two players are a closed list (INTERPRETATIONS.md, « who is who »).
    sides = [side[1] for side in (a, b) if side]
    chosen = ClosedList(sides).find(name_key(typed))
    if a and chosen == a[1]:
        return 0
    if b and chosen == b[1]:
        return 1
    found.append(BAD_VALUE(table.ref(row, "default"),
                           message=f"« {typed} » ne désigne ni le joueur A ni le joueur B",
                           fix="écrivez A ou B : le côté du joueur qui a perdu par forfait (vide sinon)"))
    return None


def _registrations(workbook: Workbook, found: list[Problem]) -> tuple[list[Registration], bool, dict[str, str]]:
    """The rows of `Inscrits` read whole, whether the sheet is there, and every entrant it names (name
    key -> name), his row read whole or not: a row refused for its Elo or its colours is said once,
    not again in each of its player's games."""
    sheet = workbook.sheet(REGISTRATIONS_SHEET)
    if sheet is None:
        return [], False, {}
    table = _table(workbook, REGISTRATIONS_SHEET, REGISTRATION_COLUMNS, [PLAYER], "inscrits", found)
    if table is None:
        return [], True, {}
    colour = _colour(COLOURS)
    registrations: list[Registration] = []
    entrants: dict[str, str] = {}
    seen: dict[str, tuple[str | None, str]] = {}  # name key -> its cell, its name
    for row in table.rows:
        local: list[Problem] = []
        player = _player(table, row, "player", local)
        if player is not None:
            entrants.setdefault(player[1], player[0])
        elo = table.read(row, "elo", _elo, local, required=False)
        first = table.read(row, "colour_1", colour, local, required=False)
        second = table.read(row, "colour_2", colour, local, required=False)
        if first and second and first == second:
            local.append(BAD_VALUE(table.ref(row, "colour_2"),
                                   message=f"la deuxième couleur est la première ({first})",
                                   fix="choisissez une autre deuxième couleur, ou laissez vide"))
        if second and values.is_empty(table.raw(row, "colour_1")):
            local.append(MISSING_VALUE(table.ref(row, "colour_1"), message="une deuxième couleur sans première",
                                       fix="indiquez d’abord la couleur préférée"))
        if player and player[1] in seen:
            cell, name = seen[player[1]]
            local.append(DUPLICATE_PLAYER(table.ref(row, "player"), player=name, first=cell))
        found.extend(local)
        if local or player is None:
            continue
        seen[player[1]] = (table.ref(row, "player").cell, player[0])
        registrations.append(Registration(player[0], player[1], elo, (first, second), table.ref(row, "player")))
    return registrations, True, entrants
