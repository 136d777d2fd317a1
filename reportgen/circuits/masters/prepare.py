"""`reportgen masters prepare`: from the final Grand Sud ranking and the withdrawals, the 16
participants and the Masters workbook with all 120 pairings, as a proposed change to inputs/.
Scores already typed are carried to their match's new row (players in the new order); a change of
participants that would lose a typed score is refused rather than lose it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from reportgen.circuits.masters import documents
from reportgen.circuits.masters.parse import MATCHES_SHEET, MastersEvent
from reportgen.circuits.masters.results import final_ranking, participants
from reportgen.circuits.masters.schedule import PLAYERS, SCHEDULE, TABLES
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Participant
from reportgen.ingest.text import name_key
from reportgen.model import Cell, InputChange, Problem, Report, SourceRef

# The typed columns of `Matchs` (score A, score B, tops A, tops B), and the same with A and B swapped.
TYPED = (4, 5, 6, 7)
SWAPPED = (5, 4, 7, 6)


@dataclass
class Prepared:
    change: InputChange | None = None  # the workbook to write (None when there are problems)
    participants: list[Participant] = field(default_factory=list)
    kept: int = 0  # matches whose typed scores were kept
    problems: list[Problem] = field(default_factory=list)


def prepare(season: int, grand_sud: Report, existing: list[MastersEvent], day: dt.date | None, location: str | None,
            settings: MastersSettings) -> Prepared:
    result = Prepared()
    mine = [event for event in existing if event.content.season == season]
    if len(mine) > 1:
        result.problems.append(Problem(SourceRef(mine[1].id), f"plusieurs classeurs du Masters {season} : "
                                       + ", ".join(e.id for e in mine), "gardez-en un seul"))
        return result
    event = mine[0] if mine else None
    # INTERPRETATIONS.md: the ranking in force on the Masters' date qualifies; a later tournament changes nobody.
    final = final_ranking(grand_sud, season, event.content.season_ref if event else SourceRef("--season"),
                          day or (event.date if event else None))
    if isinstance(final, Problem):
        result.problems.append(final)
        return result
    withdrawals = event.content.withdrawals if event else []
    result.participants, result.problems = participants(final, withdrawals)
    if len(result.participants) < PLAYERS:
        result.problems.append(Problem(SourceRef("--season"), f"le classement final {season} ne compte que "
                                       f"{len(result.participants)} joueurs disponibles, il en faut {PLAYERS}",
                                       "vérifiez --season et la feuille « Désistements » du classeur du Masters, et "
                                       "que tous les tournois Grand Sud de la saison sont dans inputs/"))
    day = day or (event.date if event else None)
    if day is None:
        result.problems.append(Problem(SourceRef("--date"), "la date du Masters est inconnue",
                                       "indiquez-la avec --date jj/mm/aaaa"))
    if result.problems or day is None:  # an unknown day is one of the problems
        return result
    kept, moved = _kept_scores(event, result.participants, result.problems) if event else ({}, [])
    if result.problems:
        return result
    result.kept = len(kept)
    name = event.name if event else f"Masters Grand Sud {season}"
    place = location if location is not None else (event.content.location if event else "")
    workbook = documents.results_workbook(season, name, day, place, result.participants, withdrawals, kept, settings)
    result.change = InputChange(event.id if event else f"masters/masters-{season}.xlsx", workbook, tuple(moved))
    return result


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
            problems.append(Problem(row.where, f"le match {row.round}, table {row.table} n'existe pas",
                                    f"corrigez le numéro du match (1 à {len(SCHEDULE)}) ou de la table (1 à "
                                    f"{len(SCHEDULE[0])})"))
            continue
        a, b = (by_number[n] for n in SCHEDULE[row.round - 1][row.table - 1])
        typed = (name_key(row.player_a), name_key(row.player_b))
        old_row = int("".join(ch for ch in row.where.cell or "" if ch.isdigit())) - 1
        new_row = (row.round - 1) * TABLES + row.table  # row 0 is the header
        if typed == (name_key(a.name), name_key(b.name)):
            kept[row.round, row.table] = (row.score_a, row.score_b, row.tops_a, row.tops_b)
            moved += [((MATCHES_SHEET, old_row, old), (MATCHES_SHEET, new_row, old)) for old in TYPED]
        elif typed == (name_key(b.name), name_key(a.name)):
            kept[row.round, row.table] = (row.score_b, row.score_a, row.tops_b, row.tops_a)
            moved += [((MATCHES_SHEET, old_row, old), (MATCHES_SHEET, new_row, new)) for old, new in zip(TYPED, SWAPPED)]
        else:
            problems.append(Problem(row.where, f"le score déjà saisi de {row.player_a} – {row.player_b} serait "
                                    f"perdu : avec les participants d'aujourd'hui, ce match oppose {a.name} à {b.name}",
                                    "annulez le désistement, ou effacez d'abord les scores concernés",
                                    code="would-overwrite"))
    return kept, moved
