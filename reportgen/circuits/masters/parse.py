"""A Masters workbook: `Tournoi`, `Désistements` (optional) and `Matchs` (docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from reportgen.circuits.base import Reading
from reportgen.french import date_long
from reportgen.ingest import values
from reportgen.ingest.tables import (
    CLUB,
    FIRST_NAME,
    LAST_NAME,
    LICENCE,
    PLAYER,
    Column,
    Table,
    find_table,
    required_table,
)
from reportgen.ingest.text import normalise_label
from reportgen.ingest.tournament import SHEET as TOURNAMENT_SHEET
from reportgen.ingest.tournament import TournamentSheet
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.model import Entry, Event, Problem, SourceRef
from reportgen.problems import FUTURE_DATE, MISSING_SHEET, MISSING_VALUE, blocking

WITHDRAWALS_SHEET = "Désistements"
MATCHES_SHEET = "Matchs"
PARTICIPANTS_SHEET = "Participants"
NUMBER = Column("number", "N°", ("Numéro", "No"))
ANNUAL_RANK = Column("annual_rank", "Classement annuel", ("Place au classement annuel",))
PARTICIPANT_COLUMNS = [NUMBER, PLAYER, LICENCE, CLUB, ANNUAL_RANK]
ROUND = Column("round", "Match", ("Ronde", "Tour", "N° match"))
TABLE = Column("table", "Table", ())
PLAYER_A = Column("player_a", "Joueur A", ())
PLAYER_B = Column("player_b", "Joueur B", ())
SCORE_A = Column("score_a", "Score A", ())
SCORE_B = Column("score_b", "Score B", ())
TOPS_A = Column("tops_a", "Tops A", ("Top A",))
TOPS_B = Column("tops_b", "Tops B", ("Top B",))
MATCH_COLUMNS = [ROUND, TABLE, PLAYER_A, PLAYER_B, SCORE_A, SCORE_B, TOPS_A, TOPS_B]

# `Désistements` says why a qualified player does not play (optional column, empty: a withdrawal).
# INTERPRETATIONS.md (masters): a tie at the 16th place still level after countback is settled by a
# play-off whose loser is recorded here; he did not withdraw, and the bulletin must not say he did.
REASON = Column("reason", "Motif", ("Raison", "Cause"))
WITHDRAWN = "désistement"
PLAYOFF_LOST = "barrage perdu"
REASONS = {normalise_label(typed): reason for reason, spellings in (
    (WITHDRAWN, ("désistement", "désisté", "désistée", "se désiste", "s'est désisté", "s'est désistée")),
    (PLAYOFF_LOST, ("barrage perdu", "barrage", "perdu au barrage", "perdue au barrage", "a perdu le barrage",
                    "perdant du barrage", "perdante du barrage", "perdant barrage", "perdante barrage",
                    "non qualifié (barrage)", "non qualifiée (barrage)")),
) for typed in spellings}
WITHDRAWAL_COLUMNS = [LAST_NAME, FIRST_NAME, PLAYER, LICENCE, REASON]


@dataclass(frozen=True)
class Withdrawal:
    entry: Entry
    where: SourceRef
    reason: str = WITHDRAWN  # WITHDRAWN or PLAYOFF_LOST
    # The `Motif` cell as typed (« Désisté », « Barrage perdu »…): `prepare` writes it back as it is,
    # never rewriting a value the secretary typed (render/inputs.py refuses to lose one).
    typed: object = None

    @property
    def playoff(self) -> bool:
        """Not qualified after losing the play-off for the last places (INTERPRETATIONS.md)."""
        return self.reason == PLAYOFF_LOST


@dataclass(frozen=True)
class MatchRow:
    """One row of `Matchs` as typed; scores None when the match is not played yet."""

    round: int
    table: int
    player_a: str
    player_b: str
    score_a: int | None
    score_b: int | None
    tops_a: int
    tops_b: int
    where: SourceRef  # the row (its "Match" cell)
    cells: dict[str, SourceRef]  # column key -> cell, for messages about one value

    @property
    def played(self) -> bool:
        return self.score_a is not None


@dataclass(frozen=True)
class Recorded:
    """A participant as `masters prepare` recorded him in the workbook: he plays whatever the Grand
    Sud ranking becomes later (INTERPRETATIONS.md)."""

    number: int
    name: str
    licence: str
    club: str
    annual_rank: int
    where: SourceRef


@dataclass(frozen=True)
class MastersSheet:
    """A Masters workbook's content: its season, the withdrawals and the matches as typed."""

    season: int  # the year of the annual ranking that qualifies the players (§1)
    season_ref: SourceRef
    location: str
    withdrawals: list[Withdrawal]
    matches: list[MatchRow]
    participants: list[Recorded]  # empty in a workbook prepared before they were recorded
    # Where `Tournoi` has its fields' values (key -> cell), and its first row after them: what
    # `masters prepare` rewrites there, in place, when --date or --lieu change them.
    fields: dict[str, SourceRef] = field(default_factory=dict)
    fields_end: int = 0


MastersEvent = Event[MastersSheet]


def _season(value: object) -> int:
    return values.whole_number_between(value, 2000, 2100, "« {typed} » n’est pas une saison",
                                       "écrivez l’année, par exemple 2026")


def _count(value: object) -> int:
    return values.whole_number_between(value, 0, None, "« {typed} » est négatif",
                                       "un score ou un nombre de tops est positif")


def _reason(value: object) -> str:
    reason = REASONS.get(normalise_label(values.text(value)))
    if reason is None:
        raise values.BadValue(f"« {values.shown(value)} » n’est pas un motif reconnu",
                              f"écrivez « {WITHDRAWN} » (ou laissez la case vide) pour un joueur qui se désiste, "
                              f"« {PLAYOFF_LOST} » pour le perdant d’un barrage de qualification")
    return reason


def parse(workbook: Workbook, sheet: TournamentSheet, reading: Reading, problems: list[Problem]) -> MastersEvent | None:
    found: list[Problem] = []
    name = sheet.read("nom", values.text, found)
    day = sheet.read("date", values.date, found)
    season = sheet.read("saison", _season, found)
    location = sheet.read("lieu", values.text, found, required=False) or ""
    withdrawals = _withdrawals(workbook, found)
    matches = _matches(workbook, found)
    recorded = _participants(workbook, found)
    if day and day > reading.today and any(match.played for match in matches):
        # Prepared ahead of the day, the workbook has a future date; results cannot.
        found.append(FUTURE_DATE(sheet.ref("date"), typed="des scores sont saisis mais ", event="du Masters",
                                 day=date_long(day)))
    problems.extend(found)
    if blocking(found):  # a warning alone (an empty Prénom) refuses nothing
        return None
    tournament = workbook.sheet(TOURNAMENT_SHEET)
    content = MastersSheet(season=season, season_ref=sheet.ref("saison"), location=location,
                           withdrawals=withdrawals, matches=matches, participants=recorded,
                           fields={key: ref for key, (_, ref) in sheet.values.items()},
                           fields_end=len(tournament.rows) if tournament else 0)
    return Event(id=workbook.label, name=name, date=day, content=content)


def _withdrawals(workbook: Workbook, found: list[Problem]) -> list[Withdrawal]:
    sheet = workbook.sheet(WITHDRAWALS_SHEET)
    if sheet is None:
        return []  # optional: nobody withdrew
    table = find_table(workbook, sheet, WITHDRAWAL_COLUMNS)
    if table is None:
        return []  # an empty sheet
    withdrawals = []
    for row in table.rows:
        licence = table.read(row, "licence", values.text, found, required=False) or ""
        if table.has_names():
            last, first, where = table.read_name(row, found, required=not licence)
        else:
            last, first, where = "", "", table.ref(row, "licence")
        # Empty, or no such column (a workbook written before it existed): a withdrawal. A value
        # refused is a problem in `found`, which the workbook's reading returns.
        reason = table.read(row, "reason", _reason, found, required=False) or WITHDRAWN
        if last or licence:
            withdrawals.append(Withdrawal(Entry(licence, last or "", first), where, reason,
                                          table.raw(row, "reason") if table.has("reason") else None))
    return withdrawals


def _prepared_table(workbook: Workbook, sheet: Sheet, columns: list[Column], required: list[Column],
                    found: list[Problem]) -> Table | None:
    """A sheet `masters prepare` writes, with its `required` columns; a located problem otherwise."""
    return required_table(workbook, sheet, columns, required, "produisez le classeur avec « reportgen masters prepare »",
                          found)


def _participants(workbook: Workbook, found: list[Problem]) -> list[Recorded]:
    sheet = workbook.sheet(PARTICIPANTS_SHEET)
    if sheet is None:
        return []
    required = [c for c in PARTICIPANT_COLUMNS if c is not LICENCE and c is not CLUB]
    table = _prepared_table(workbook, sheet, PARTICIPANT_COLUMNS, required, found)
    if table is None:
        return []
    recorded = []
    for row in table.rows:
        local: list[Problem] = []
        number = table.read(row, "number", values.whole_number, local)
        name = table.read(row, "player", values.text, local)
        annual = table.read(row, "annual_rank", values.whole_number, local)
        licence = table.read(row, "licence", values.text, local, required=False) or ""
        club = table.read(row, "club", values.text, local, required=False) or ""
        found.extend(local)
        if not local and number is not None and name and annual is not None:
            recorded.append(Recorded(number, name, licence, club, annual, table.ref(row, "number")))
    return recorded


def _matches(workbook: Workbook, found: list[Problem]) -> list[MatchRow]:
    sheet = workbook.sheet(MATCHES_SHEET)
    if sheet is None:
        found.append(MISSING_SHEET(workbook.ref(), sheet=MATCHES_SHEET, present=workbook.present(),
                                   fix="produisez le classeur avec « reportgen masters prepare »"))
        return []
    table = _prepared_table(workbook, sheet, MATCH_COLUMNS, MATCH_COLUMNS, found)
    if table is None:
        return []
    matches = []
    for row in table.rows:
        local: list[Problem] = []
        number = table.read(row, "round", values.whole_number, local)
        board = table.read(row, "table", values.whole_number, local)
        player_a = table.read(row, "player_a", values.text, local)
        player_b = table.read(row, "player_b", values.text, local)
        said = len(local)
        scores = [table.read(row, key, _count, local, required=False) for key in ("score_a", "score_b")]
        unreadable = len(local) > said  # a score typed but not a number: said as such, not as « un seul »
        tops = [table.read(row, key, _count, local, required=False) for key in ("tops_a", "tops_b")]
        typed = [value is not None for value in scores]
        if any(typed) and not all(typed) and not unreadable:
            blank = "score_b" if typed[0] else "score_a"
            local.append(MISSING_VALUE(table.ref(row, blank), message="un seul des deux scores est saisi",
                                       fix="saisissez les deux scores du match, ou aucun"))
        if not any(typed) and any(value is not None for value in tops):
            local.append(MISSING_VALUE(table.ref(row, "score_a"), message="des tops sont saisis mais pas les scores",
                                       fix="saisissez les scores du match"))
        found.extend(local)
        if local:
            continue
        matches.append(MatchRow(
            round=number, table=board, player_a=player_a, player_b=player_b,
            score_a=scores[0], score_b=scores[1],
            tops_a=tops[0] or 0, tops_b=tops[1] or 0,  # blank tops in a played match: none made
            where=table.ref(row, "round"), cells={c.key: table.ref(row, c.key) for c in MATCH_COLUMNS},
        ))
    return matches
