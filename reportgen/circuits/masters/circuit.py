"""`masters`'s implementation: its workbooks parsed and scored (what it is: info.py)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import pandas as pd

from reportgen.circuits.base import Reading
from reportgen.circuits.masters import club, documents
from reportgen.circuits.masters.info import INFO
from reportgen.circuits.masters.parse import WITHDRAWALS_SHEET, MastersEvent, Withdrawal
from reportgen.circuits.masters.parse import parse as parse_workbook
from reportgen.circuits.masters.results import (
    check,
    complete_rounds,
    final_ranking,
    qualify,
    recorded_participants,
    withdrawn_ids,
)
from reportgen.circuits.masters.schedule import PLAYERS, ROUNDS
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Participant, standings
from reportgen.model import Ranking, RankingRow, Report, SourceRef
from reportgen.problems import DUPLICATE, TOO_FEW


class Masters:
    info = INFO
    Settings = MastersSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py
    club_sections = staticmethod(club.club_sections)  # a club's bulletin: the race to the 16th place

    def score(self, results: pd.DataFrame, events: list[MastersEvent], settings: MastersSettings,
              reading: Reading, upstream: dict[str, Report]) -> Report:
        report = Report()
        grand_sud = upstream[INFO.requires[0]]
        titles = {document.path: document.title for document in grand_sud.documents}  # as it lists its rankings
        by_season: dict[int, list[MastersEvent]] = defaultdict(list)
        for event in sorted(events, key=lambda e: e.id):
            by_season[event.content.season].append(event)
        for season, found in sorted(by_season.items()):
            for extra in found[1:]:
                report.problems.append(DUPLICATE(extra.content.season_ref,
                                                 message=f"un autre classeur du Masters {season} "
                                                 f"existe déjà ({found[0].id})",
                                                 fix="gardez un seul classeur par saison"))
            event = found[0]
            warnings: list[str] = []
            if event.content.participants:  # they stand; the final ranking of today is only compared
                final = final_ranking(grand_sud, season, event.content.season_ref, problems=report.problems)
                if final is None:
                    continue
                players, problems, warnings = recorded_participants(final, event.content, settings)
            else:  # a workbook typed by hand, or prepared before participants were recorded
                final = final_ranking(grand_sud, season, event.content.season_ref, event.date,
                                      problems=report.problems)
                if final is None:
                    continue
                qualified = qualify(final, event.content.withdrawals, settings,
                                    SourceRef(event.id, WITHDRAWALS_SHEET))
                players, problems = qualified.participants, qualified.problems
                report.notices += [f"{event.id} : {notice}" for notice in qualified.notices]
            if len(players) < PLAYERS and not problems:
                problems.append(TOO_FEW(event.content.season_ref, message=f"le classement final {season} ne compte que "
                                        f"{len(players)} joueurs disponibles, il en faut {PLAYERS}",
                                        fix="vérifiez la saison et la feuille « Désistements », et que tous les "
                                        "tournois Grand Sud de la saison sont dans inputs/"))
            if problems:
                report.problems.extend(problems)
                continue
            matches, problems = check(event.content.matches, players, settings)
            if problems:
                report.problems.extend(problems)
                continue
            done = complete_rounds(matches)
            counted = [m for m in matches if m.round <= done]
            lines = standings(players, counted, settings, final=done == ROUNDS)
            # Those `Désistements` names who would have played: not a player left out by a tie at
            # the 16th place (INTERPRETATIONS.md), nor one a later Grand Sud ranking lifts.
            # Each with his `Motif`: a play-off loser did not withdraw, the bulletin says which.
            gone = withdrawn_ids(final, event.content.withdrawals, [])
            # Played (issue 27): its documents say its workbook only, whatever the Grand Sud ranking
            # becomes; the warning that it moved is the build's notice alone.
            frozen = done == ROUNDS and bool(event.content.participants)
            withdrawn = frozen_withdrawn(final, gone, players) if frozen else [
                (row, gone[row.player_id]) for row in final.rows
                if row.player_id in gone and row.player_id not in {p.player_id for p in players}
                and row.rank <= max(p.annual_rank for p in players)]
            # What « Classement annuel » gives places in: the ranking in force on the Masters' date
            # (INTERPRETATIONS.md), as of its date; played, the season's as of the Masters' own day.
            # Its problems were said above (qualified from it), or the recorded participants stand without it;
            # asked only of one not played (qualified by hand, `final` is already the one of its day).
            if frozen:
                annual = documents.annual_legend(final, titles, event.date)
            else:
                annual = documents.annual_legend(in_force_on(grand_sud, event, final) if event.content.participants
                                                 else final, titles)
            report.notices += [f"{event.id} : {warning}" for warning in warnings]
            report.documents.append(documents.bulletin(event, players, withdrawn, lines, counted, done, settings,
                                                       reading.league, annual, [] if frozen else warnings))
            report.documents.append(documents.match_sheets(event, players, reading.league, annual))
            report.annexes.append(documents.annex(event, lines, done, players, matches, settings))
            report.rankings.append(documents.published(event, lines, done, annual))
        return report


def in_force_on(grand_sud: Report, event: MastersEvent, final: Ranking) -> Ranking:
    """The Grand Sud ranking in force on the Masters' day (INTERPRETATIONS.md), else `final`: what
    the « Classement annuel » of one not played yet gives places in. Its problems were said, or the
    recorded participants stand without it."""
    return final_ranking(grand_sud, event.content.season, event.content.season_ref, event.date,
                         problems=[]) or final


def frozen_withdrawn(final: Ranking, gone: dict[str, Withdrawal], players: list[Participant]
                     ) -> list[tuple[RankingRow, Withdrawal]]:
    """The withdrawn a played Masters lists, at the places they held when it was prepared: the
    places its participants' recorded annual ranks leave free (today's ranks move with every later
    Grand Sud tournament, which must not re-render a Masters once played). A play-off loser keeps
    today's row (rare: his place is the 16th, shared)."""
    taken = {p.player_id for p in players}
    rows = [row for row in final.rows if row.player_id in gone and row.player_id not in taken]
    ranks = {p.annual_rank for p in players}
    free = iter(rank for rank in range(1, max(ranks, default=0) + 1) if rank not in ranks)
    listed = []
    for row in rows:
        if gone[row.player_id].playoff:
            listed.append((row, gone[row.player_id]))
            continue
        place = next(free, None)
        if place is not None:
            listed.append((replace(row, rank=place, tied=False), gone[row.player_id]))
    return listed


CIRCUIT = Masters()
