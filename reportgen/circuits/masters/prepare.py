"""`reportgen masters prepare`: from the final Grand Sud ranking and the withdrawals, the 16
participants and the Masters workbook with all 120 pairings. Scores already typed are kept; a
change of participants that would move a typed score is refused rather than lose it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from reportgen.circuits.masters import documents
from reportgen.circuits.masters.parse import MastersEvent
from reportgen.circuits.masters.results import final_ranking, participants
from reportgen.circuits.masters.schedule import PLAYERS, SCHEDULE
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Participant
from reportgen.ingest.text import name_key
from reportgen.model import Annex, Problem, Report, SourceRef


@dataclass
class Prepared:
    path: str = ""  # where to write the workbook, relative to inputs/
    workbook: Annex | None = None
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
    final, problem = final_ranking(grand_sud, season, event.content.season_ref if event else SourceRef("--season"))
    if problem:
        result.problems.append(problem)
        return result
    withdrawals = event.content.withdrawals if event else []
    result.participants, result.problems = participants(final, withdrawals)
    if len(result.participants) < PLAYERS:
        result.problems.append(Problem(SourceRef("--season"), f"le classement final {season} ne compte que "
                                       f"{len(result.participants)} joueurs disponibles, il en faut {PLAYERS}"))
    day = day or (event.date if event else None)
    if day is None:
        result.problems.append(Problem(SourceRef("--date"), "la date du Masters est inconnue",
                                       "indiquez-la avec --date jj/mm/aaaa"))
    if result.problems:
        return result
    kept = _kept_scores(event, result.participants, result.problems) if event else {}
    if result.problems:
        return result
    result.kept = len(kept)
    result.path = event.id.removesuffix(".xlsx") if event else f"masters/masters-{season}"
    name = event.name if event else f"Masters Grand Sud {season}"
    place = location if location is not None else (event.content.location if event else "")
    result.workbook = documents.results_workbook(season, name, day, place, result.participants, withdrawals, kept,
                                                 settings)
    return result


def _kept_scores(event: MastersEvent, players: list[Participant], problems: list[Problem]) -> dict:
    """(match, table) -> (score A, score B, tops A, tops B) of the typed matches, in the new order."""
    by_number = {p.number: p for p in players}
    kept = {}
    for row in event.content.matches:
        if not row.played:
            continue
        if not (1 <= row.round <= len(SCHEDULE) and 1 <= row.table <= len(SCHEDULE[0])):
            problems.append(Problem(row.where, f"le match {row.round}, table {row.table} n'existe pas"))
            continue
        a, b = (by_number[n] for n in SCHEDULE[row.round - 1][row.table - 1])
        typed = (name_key(row.player_a), name_key(row.player_b))
        if typed == (name_key(a.name), name_key(b.name)):
            kept[row.round, row.table] = (row.score_a, row.score_b, row.tops_a, row.tops_b)
        elif typed == (name_key(b.name), name_key(a.name)):
            kept[row.round, row.table] = (row.score_b, row.score_a, row.tops_b, row.tops_a)
        else:
            problems.append(Problem(row.where, f"le score déjà saisi de {row.player_a} – {row.player_b} serait "
                                    f"perdu : avec les participants d'aujourd'hui, ce match oppose {a.name} à {b.name}",
                                    "annulez le désistement, ou effacez d'abord les scores concernés",
                                    code="would-overwrite"))
    return kept
