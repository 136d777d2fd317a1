"""`reportgen masters prepare`: from the final Grand Sud ranking and the withdrawals, the 16
participants and the Masters workbook with all 120 pairings, as a proposed change to inputs/.
Scores already typed are carried to their match's new row (players in the new order); a change of
participants that would lose a typed score is refused rather than lose it.

An existing workbook is edited in place: only the program's own cells (the `Participants` rows,
the players and scores of `Matchs`, the date and place of `Tournoi` when --date or --lieu change
them) are written; the secretary's other cells, formats and sheets stay as she made them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from reportgen.circuits.masters import documents
from reportgen.circuits.masters.parse import (
    MATCH_COLUMNS,
    MATCHES_SHEET,
    PARTICIPANTS_SHEET,
    WITHDRAWALS_SHEET,
    MastersEvent,
)
from reportgen.circuits.masters.results import final_ranking, identify, qualify
from reportgen.circuits.masters.schedule import PLAYERS, SCHEDULE, TABLES
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Participant
from reportgen.ingest.tournament import SHEET as TOURNAMENT_SHEET
from reportgen.model import (
    Annex,
    Cell,
    InputChange,
    Problem,
    Report,
    SheetEdit,
    SourceRef,
    cell_name,
    cell_position,
)
from reportgen.problems import (
    AMBIGUOUS_PLAYER,
    BAD_VALUE,
    DUPLICATE,
    LAYOUT,
    MISSING_DATE,
    QUALIFICATION_TIE,
    TOO_FEW,
    WOULD_OVERWRITE,
)

# The typed columns of `Matchs` (score A, score B, tops A, tops B), and the same with A and B swapped.
COMMAND = "masters prepare"  # what rewrites the sheets in place, named when one is rearranged
TYPED = (4, 5, 6, 7)
SWAPPED = (5, 4, 7, 6)


@dataclass
class Prepared:
    # The workbook to write: None when there are problems, but for a tie at the 16th place with no
    # workbook yet (then one to record the play-off in).
    change: InputChange | None = None
    participants: list[Participant] = field(default_factory=list)
    kept: int = 0  # matches whose typed scores were kept
    problems: list[Problem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # a tie at the 16th place that countback settled


def prepare(season: int, grand_sud: Report, existing: list[MastersEvent], day: dt.date | None, location: str | None,
            settings: MastersSettings) -> Prepared:
    result = Prepared()
    mine = [event for event in existing if event.content.season == season]
    if len(mine) > 1:
        result.problems.append(DUPLICATE(SourceRef(mine[1].id), message=f"plusieurs classeurs du Masters {season} : "
                                         + ", ".join(e.id for e in mine), fix="gardez-en un seul"))
        return result
    event = mine[0] if mine else None
    # INTERPRETATIONS.md: the ranking in force on the Masters' date qualifies; a later tournament changes nobody.
    final = final_ranking(grand_sud, season, event.content.season_ref if event else SourceRef("--season"),
                          day or (event.date if event else None), problems=result.problems)
    if final is None:
        return result
    withdrawals = event.content.withdrawals if event else []
    path = event.id if event else f"masters/masters-{season}.xlsx"
    qualified = qualify(final, withdrawals, settings, SourceRef(path, WITHDRAWALS_SHEET))
    result.participants, result.problems, result.notices = qualified.participants, qualified.problems, qualified.notices
    if len(result.participants) < PLAYERS:
        result.problems.append(TOO_FEW(SourceRef("--season"), message=f"le classement final {season} ne compte que "
                                       f"{len(result.participants)} joueurs disponibles, il en faut {PLAYERS}",
                                       fix="vérifiez --season et la feuille « Désistements » du classeur du Masters, "
                                       "et que tous les tournois Grand Sud de la saison sont dans inputs/"))
    day = day or (event.date if event else None)
    if day is None:
        result.problems.append(MISSING_DATE(SourceRef("--date")))
    if day is not None and event is None and result.problems and all(p.code == QUALIFICATION_TIE.code for p in result.problems):
        # INTERPRETATIONS.md: a tie at the 16th place is settled by a play-off that the secretary
        # records in `Désistements`; with no workbook yet, she gets one to type it in.
        result.change = _to_settle(season, day, location or "", result.participants, settings, path)
        result.problems = [replace(p, fix=p.fix + " ; ce classeur n’existait pas : « masters prepare » vient de "
                                   "le créer, avec une feuille « Désistements » vide (les matchs y seront écrits ensuite)")
                           for p in result.problems]
    if result.problems or day is None:  # an unknown day is one of the problems
        return result
    if event:
        result.problems += _moved_cells(event)
    kept, moved = _kept_scores(event, result.participants, result.problems) if event else ({}, [])
    if result.problems:
        return result
    result.kept = len(kept)
    name = event.name if event else f"Masters Grand Sud {season}"
    place = location if location is not None else (event.content.location if event else "")
    workbook = documents.results_workbook(season, name, day, place, result.participants, withdrawals, kept, settings)
    if event is None:
        result.change = InputChange(f"masters/masters-{season}.xlsx", workbook, tuple(moved))
    else:
        result.change = InputChange(event.id, workbook, tuple(moved), _edits(event, workbook, moved, day, place))
    return result


def _to_settle(season: int, day: dt.date, location: str, provisional: list[Participant], settings: MastersSettings,
               path: str) -> InputChange:
    """The Masters workbook before its participants are known: `Tournoi`, an empty `Désistements`,
    `Matchs` with its header only (parse reads it as a Masters workbook not prepared yet). The
    next `prepare` completes it."""
    full = documents.results_workbook(season, f"Masters Grand Sud {season}", day, location, provisional, [], {},
                                      settings)
    sheets = [sheet if sheet.name != MATCHES_SHEET else replace(sheet, rows=[], rules=[])
              for sheet in full.sheets if sheet.name != PARTICIPANTS_SHEET]
    return InputChange(path, replace(full, sheets=sheets))


def _moved_cells(event: MastersEvent) -> list[Problem]:
    """`prepare` rewrites `Participants` and `Matchs` in place, cell by cell, in the layout it gives
    them (a match per row, match 1 table 1 on row 2, columns A to H): a sheet rearranged since
    would have the wrong cells rewritten, so it is refused, with its first moved cell."""
    for index, recorded in enumerate(event.content.participants, start=1):
        if recorded.where.cell != cell_name(index, 0):
            return [LAYOUT(recorded.where, sheet="Participants", command=COMMAND, layout="N° en colonne A, le n° 1 en ligne 2…",
                           fix="remettez-la dans cette disposition, ou supprimez la feuille : prepare la récrira")]
    for match in event.content.matches:
        row = (match.round - 1) * TABLES + match.table
        for col, column in enumerate(MATCH_COLUMNS):
            if match.cells[column.key].cell != cell_name(row, col):
                return [LAYOUT(match.cells[column.key], sheet="Matchs", command=COMMAND, layout="Match, Table, Joueur A, Joueur B, "
                               "Score A, Score B, Tops A, Tops B en colonnes A à H, un match par ligne dans l’ordre, "
                               "le match 1 table 1 en ligne 2", fix="remettez-la dans cette disposition")]
    return []


def _edits(event: MastersEvent, workbook: Annex, moved: list[tuple[Cell, Cell]], day: dt.date,
           place: str) -> tuple[SheetEdit, ...]:
    """What `prepare` writes into the existing workbook: the data cells of the sheets that are the
    program's (`Participants`, `Matchs`: players, and the typed scores where their match now is),
    header rows untouched; in `Tournoi`, only a date or a place that changed (a missing `Lieu`
    row is added below the fields)."""
    sheets = {sheet.name: sheet for sheet in workbook.sheets}
    staying = {(row, col) for (_, row, col), (_, new_row, new_col) in moved if (row, col) == (new_row, new_col)}
    edits = [SheetEdit(name, tuple((row, col, value) for row, values in enumerate(sheets[name].rows, start=1)
                                   for col, value in enumerate(values)
                                   if name != MATCHES_SHEET or (row, col) not in staying),  # a typed score stays as typed
                       rules=tuple(sheets[name].rules))
             for name in (PARTICIPANTS_SHEET, MATCHES_SHEET)]
    cells: list[tuple[int, int, object]] = []
    appended: list[tuple[object, ...]] = []
    fields = event.content.fields
    if day != event.date and fields.get("date") and fields["date"].cell:
        cells.append((*cell_position(fields["date"].cell or ""), day))
    if place != event.content.location:
        where = fields.get("lieu")
        if where is not None and where.cell:
            cells.append((*cell_position(where.cell), place))
        else:
            value_col = cell_position(fields["date"].cell or "B1")[1] if fields.get("date") else 1
            appended.append(tuple([None] * (value_col - 1) + ["Lieu", place]))
    if cells or appended:
        edits.append(SheetEdit(TOURNAMENT_SHEET, tuple(cells), tuple(appended), event.content.fields_end))
    return tuple(edits)


def _kept_scores(event: MastersEvent, players: list[Participant],
                 problems: list[Problem]) -> tuple[dict[tuple[int, int], tuple], list[tuple[Cell, Cell]]]:
    """(match, table) -> (score A, score B, tops A, tops B) of the typed matches in the new order,
    and where each typed cell goes (its match's row of the schedule, A and B as the pairing says)."""
    by_number = {p.number: p for p in players}
    kept = {}
    moved: list[tuple[Cell, Cell]] = []
    for row in event.content.matches:
        if not row.played:
            continue
        if not (1 <= row.round <= len(SCHEDULE) and 1 <= row.table <= len(SCHEDULE[0])):
            problems.append(BAD_VALUE(row.where, message=f"le match {row.round}, table {row.table} n’existe pas",
                                      fix=f"corrigez le numéro du match (1 à {len(SCHEDULE)}) ou de la table (1 à "
                                      f"{len(SCHEDULE[0])})"))
            continue
        a, b = (by_number[n] for n in SCHEDULE[row.round - 1][row.table - 1])
        # The typed names are read as `check` reads them (word order aside against the closed list).
        unread: list[Problem] = []
        typed = tuple(player.number if player else None
                      for player in (identify(players, row, side, unread) for side in ("player_a", "player_b")))
        old_row = int("".join(ch for ch in row.where.cell or "" if ch.isdigit())) - 1
        new_row = (row.round - 1) * TABLES + row.table  # row 0 is the header
        if typed == (a.number, b.number):
            kept[row.round, row.table] = (row.score_a, row.score_b, row.tops_a, row.tops_b)
            moved += [((MATCHES_SHEET, old_row, old), (MATCHES_SHEET, new_row, old)) for old in TYPED]
        elif typed == (b.number, a.number):
            kept[row.round, row.table] = (row.score_b, row.score_a, row.tops_b, row.tops_a)
            moved += [((MATCHES_SHEET, old_row, old), (MATCHES_SHEET, new_row, new)) for old, new in zip(TYPED, SWAPPED)]
        elif any(problem.code == AMBIGUOUS_PLAYER.code for problem in unread):
            problems += [problem for problem in unread if problem.code == AMBIGUOUS_PLAYER.code]
        else:
            problems.append(WOULD_OVERWRITE(row.where,
                                            message=f"le score déjà saisi de {row.player_a} – {row.player_b} serait "
                                            f"perdu : avec les participants d’aujourd’hui, ce match oppose {a.name} à {b.name}",
                                            fix="annulez le désistement, ou effacez d’abord les scores concernés"))
    return kept, moved
