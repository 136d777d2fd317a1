"""`poules`'s implementation: its workbooks parsed and scored (what it is: info.py)."""

from __future__ import annotations

import dataclasses

import pandas as pd

from reportgen import french
from reportgen.circuits.base import Reading
from reportgen.circuits.common import slug, suffixed
from reportgen.circuits.poules import documents, notices
from reportgen.circuits.poules.domain import PoulesEvent
from reportgen.circuits.poules.info import INFO
from reportgen.circuits.poules.parse import parse as parse_workbook
from reportgen.circuits.poules.paths import event_folder
from reportgen.circuits.poules.ranking import tournament_ranking
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.tournament import CANCELLED, NOT_STARTED, replay
from reportgen.model import Report, in_sheet

UNADDRESSED_LISTED = 12


class Poules:
    info = INFO
    Settings = PoulesSettings

    parse = staticmethod(parse_workbook)  # the workbook, read by its parse.py

    def score(self, results: pd.DataFrame, events: list[PoulesEvent], settings: PoulesSettings,
              reading: Reading, upstream: dict[str, Report]) -> Report:
        report = Report()
        folders: set[str] = set()
        for event in sorted(events, key=lambda e: (e.date, e.id)):
            event = printed_names(event, results)
            folder = event_folder(event.id, event.date.year)
            if folder in folders:  # two workbooks of one name in different folders
                folder = f"{event.date.year}/{slug(event.id.rsplit('.', 1)[0])}"
            if folder in folders:  # still one: long paths whose slugs, cut at 60 characters, meet
                folder = suffixed(folder, event.id)
            folders.add(folder)
            tournament = replay(event.content, event.date, settings)
            if tournament.problems:
                report.problems += tournament.problems
                continue
            if tournament.status == NOT_STARTED:
                # what its workbook shows, as the home page and calendrier.ics say it (« inscriptions
                # reçues »): it said « n’a pas commencé » while they said « en cours »
                report.notices.append(f"{event.id} : le classeur du tournoi « {event.name} » ne contient que ses "
                                      f"inscriptions ; « reportgen poules next --event \"{event.name}\" » écrit les "
                                      "poules du tour 1")
                continue
            ranking = tournament_ranking(tournament)
            ids = player_ids(event, results)
            published = documents.published(event, tournament, ranking, folder, ids)
            report.rankings.append(published)
            if pending := documents.pending(tournament):
                report.pending[event.id] = pending
            if tournament.status == CANCELLED:
                report.cancelled.add(event.id)
            report.documents += [documents.bulletin(event, tournament, index, ranking, folder, reading.league,
                                                    settings) for index in range(len(tournament.rounds))]
            report.annexes.append(documents.annex(event, tournament, published, folder))
            report.messages += notices.messages(tournament, event.name, folder, reading.league, settings, ranking)
            # Every registrant gets notices (round 1 at least): those without an address are listed.
            without = [p.name for p in event.content.registrants if not p.email]
            if without:
                report.notices.append(f"{event.id} : les avis aux joueurs sans adresse dans la "
                                      f"{in_sheet('Inscrits', column='Email')} sont écrits sans destinataire : "
                                      f"{french.listed(without, UNADDRESSED_LISTED)}")
        return report


def printed_names(event: PoulesEvent, results: pd.DataFrame) -> PoulesEvent:
    """The event with each registrant named as the league prints him (joueurs.xlsx, best spelling)."""
    if results.empty:
        return event
    mine = results[results["event"] == event.id]
    names = dict(zip(mine["source_cell"], mine["player"]))
    registrants = tuple(dataclasses.replace(r, name=names.get(r.ref.cell, r.name)) for r in event.content.registrants)
    return dataclasses.replace(event, content=dataclasses.replace(event.content, registrants=registrants))


def player_ids(event: PoulesEvent, results: pd.DataFrame) -> dict[str, str]:
    if results.empty:
        return {}
    mine = results[results["event"] == event.id]
    ids = dict(zip(mine["source_cell"], mine["player_id"]))
    return {r.key: ids[r.ref.cell] for r in event.content.registrants if r.ref.cell in ids}


CIRCUIT = Poules()
