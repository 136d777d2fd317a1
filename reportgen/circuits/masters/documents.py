"""Masters documents: the standings bulletin, the match sheets, the annex, and the results
workbook that `reportgen masters prepare` writes. Plain data only; reportgen.render draws them."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.masters.info import INFO
from reportgen.circuits.masters.metrics import COLUMNS, METRICS
from reportgen.circuits.masters.parse import (
    ANNUAL_RANK,
    MATCH_COLUMNS,
    MATCHES_SHEET,
    NUMBER,
    PARTICIPANT_COLUMNS,
    PARTICIPANTS_SHEET,
    PLAYOFF_LOST,
    REASON,
    WITHDRAWALS_SHEET,
    WITHDRAWN,
    MastersEvent,
    Withdrawal,
)
from reportgen.circuits.masters.schedule import ROUNDS, SCHEDULE, TABLES
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.circuits.masters.standings import Line, Match, Participant, match_points
from reportgen.ingest.tables import FIRST_NAME, LAST_NAME, LICENCE, PLAYER
from reportgen.model import (
    DECIDED_HEADER,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Document,
    InputRule,
    Legend,
    Ranking,
    RankingRow,
    Scope,
    ScopeKind,
    Status,
    headings,
    published_title,
)

TITLE = "Masters Grand Sud"

WITHDRAWAL_ROWS = 30  # the `Désistements` rows given the `Motif` choices (far more than a season needs)
REASON_HELP = (f"Vide ou « {WITHDRAWN} » : le joueur se désiste. « {PLAYOFF_LOST} » : il a perdu le barrage "
               "d’une égalité pour la qualification.")


def stage(rounds_done: int) -> str:
    if rounds_done == ROUNDS:
        return "Classement final"
    if rounds_done == 0:
        return "Participants et ordre des matchs"
    return f"Classement provisoire après le match {rounds_done} sur {ROUNDS}"


def annual_legend(ranking: Ranking, titles: Mapping[str, str], day: dt.date | None = None) -> Legend:
    """What « Classement annuel » gives places in (§1), said wherever the Masters shows them: the
    Grand Sud ranking that qualifies its players, titled as the Grand Sud lists it (`titles`: its
    documents' by path), as of its own date, with its CSV. A player compared them with the Grand
    Sud's latest dated bulletin, whose places are not these (it counts the year before too). `day`:
    a played Masters' date, as of which its ranking is named (it is frozen: what it says never moves
    with a Grand Sud workbook received later)."""
    file = f"{INFO.requires[0]}/{ranking.path}.csv"
    as_of = f"{french.date_long(day)}, jour du Masters" if day else french.date_long(ranking.date)
    return Legend(f"{ANNUAL_RANK.header} : place au classement du Grand Sud qui qualifie pour le Masters, ",
                published_title(ranking, titles), f", au {as_of} (fichier {file}).", file)


def published(event: MastersEvent, lines: list[Line], rounds_done: int, annual: Legend | None = None) -> Ranking:
    """The standings after the last complete match: final once all 15 are in; `annual`, what their
    « Classement annuel » column gives places in."""
    season = event.content.season
    rows = tuple(RankingRow(line.rank, line.participant.player_id, line.participant.name, line.participant.licence,
                            line.participant.club,
                            METRICS.values(line, COLUMNS), tied=line.barrage,
                            decided_by=METRICS.decided(line.decided_by),
                            playoff=line.barrage) for line in lines)
    return Ranking(f"{season}/masters-{season}", Scope(ScopeKind.EVENT, season, event.id, event.name), event.date,
                   Status.FINAL if rounds_done == ROUNDS else Status.PROVISIONAL, COLUMNS, rows, legend=annual)


def _score(match: Match, me: int) -> str:
    mine, theirs = (match.score_a, match.score_b) if match.a == me else (match.score_b, match.score_a)
    return f"{mine}–{theirs}"


def _outcome(match: Match, me: int, settings: MastersSettings) -> str:
    points = match_points(match, settings)[0 if match.a == me else 1]
    return "win" if points == settings.win and match.score_a != match.score_b else (
        "loss" if points == 0 else "draw")


def bulletin(event: MastersEvent, participants: list[Participant], withdrawn: list[tuple[RankingRow, Withdrawal]],
             lines: list[Line],
             matches: list[Match], rounds_done: int, settings: MastersSettings, league: str, annual: Legend,
             warnings: list[str] | None = None) -> Document:
    season = event.content.season
    title = stage(rounds_done)  # the masthead already names the Masters and its season
    by_pair = {frozenset((m.a, m.b)): m for m in matches}
    numbers = [p.number for p in participants]
    cross = []
    for participant in participants:
        cells = []
        for other in numbers:
            match = by_pair.get(frozenset((participant.number, other)))
            if other == participant.number:
                cells.append({"text": "", "kind": "self"})
            elif match is None:
                cells.append({"text": "", "kind": "none"})
            else:
                cells.append({"text": _score(match, participant.number),
                              "kind": _outcome(match, participant.number, settings)})
        cross.append({"number": participant.number, "player": participant.name, "cells": cells})
    rows = [{
        "rank": french.shared_place(line.rank, line.barrage), "number": line.participant.number,
        "player": line.participant.name, "club": line.participant.club, "played": line.played,
        "points": line.points, "tops": line.tops, "defense": line.defense, "attack": line.attack,
        "decided": ", ".join(METRICS.explained(line.decided_by)), "barrage": line.barrage,
        "annual_rank": line.participant.annual_rank,
    } for line in lines]
    barrage = [line.participant.name for line in lines if line.barrage]
    notes = [
        "Qualification (§1) : les 16 premiers du classement final Grand Sud de la saison ; en cas de désistement, "
        "le 17e, puis le 18e… sont invités. Une égalité à la 16e place que les départages du classement laissent "
        + ("se règle aux résultats suivants (2e meilleur résultat, puis 3e…), puis " if settings.qualification_countback
           else "se règle ") + "par un barrage, dont le perdant est inscrit dans « Désistements » (motif « barrage "
        "perdu »). Les numéros 1 à 16 suivent le "
        "classement annuel et fixent l’ordre des matchs (§2).",
        f"Match (§1) : {settings.coups} coups ; victoire {settings.win} points, nul {settings.draw}, défaite 0 ; "
        f"un nul où les deux joueurs ont fait un top à chaque coup (« top-top ») rapporte {settings.top_top_draw} "
        "points à chacun.",
        "Départage (§1) : points, puis tops (le plus), défense = coups concédés aux adversaires (le moins), attaque = "
        "coups pris aux adversaires (le plus), puis match particulier (à trois ou plus : points pris entre eux), "
        "puis classement annuel. Une égalité pour la première place qui survit au match particulier se règle par "
        "un barrage (tirages préparés par séries de 3 coups), joué et non calculé ici.",
    ]
    if 0 < rounds_done < ROUNDS:
        notes.append("Classement provisoire : seuls les matchs dont les 8 tables sont saisies comptent.")
    return Document(
        path=f"{season}/masters-{season}", template="masters/bulletin.html.j2", title=title, date=event.date,
        season=season, events=(event.id,),
        context={"league": league, "circuit": TITLE, "season": season, "title": title,
                 "date": french.date_long(event.date), "location": event.content.location,
                 "summary": (f"{french.plural(rounds_done, 'match joué', 'matchs joués')} sur {ROUNDS}"
                             if rounds_done else "aucun match joué") + " · "
                            f"{len(participants)} participants",
                 "rows": rows, "headings": headings(COLUMNS), "decided_header": DECIDED_HEADER,
                 "numbers": numbers, "cross": cross, "barrage": barrage,
                 # A play-off loser is not « désisté » (INTERPRETATIONS.md, masters): said apart.
                 # Each one's place said as « 1re place », not « 1er » (a man: the league knows no gender).
                 "withdrawn": [{"player": row.player, "rank": french.place(row.rank)}
                               for row, entry in withdrawn if not entry.playoff],
                 "playoff_lost": [{"player": row.player, "rank": french.place(row.rank, row.tied)}
                                  for row, entry in withdrawn if entry.playoff],
                 "left_out_heading": _left_out_heading(withdrawn),
                 # « (17e) »: an invited player's place is past the 16th, never « 1er »
                 "invited": [{"player": p.name, "rank": french.ordinal(p.annual_rank)} for p in participants
                             if p.annual_rank > len(participants)],
                 "show_standings": rounds_done > 0, "notes": notes, "warnings": warnings or [],
                 "annual": dataclasses.asdict(annual),
                 "participants": [{"number": p.number, "player": p.name, "club": p.club,
                                   "rank": p.annual_rank} for p in participants]},  # « 1 », as the match sheets
    )


def _left_out_heading(withdrawn: list[tuple[RankingRow, Withdrawal]]) -> str:
    """The heading over those who would have played: withdrawals, play-off losers, or both."""
    kinds = {entry.playoff for _, entry in withdrawn}
    if kinds == {True}:
        return "Barrage de qualification"
    return "Désistements et barrage de qualification" if True in kinds else "Désistements"


def match_sheets(event: MastersEvent, participants: list[Participant], league: str, annual: Legend) -> Document:
    season = event.content.season
    by_number = {p.number: p for p in participants}
    rounds = [{"number": index + 1, "tables": [
        {"table": table + 1, "a": by_number[a], "b": by_number[b]} for table, (a, b) in enumerate(pairs)]}
        for index, pairs in enumerate(SCHEDULE)]
    title = "Feuilles de match"
    return Document(
        path=f"{season}/feuilles-de-match-{season}", template="masters/match_sheets.html.j2", title=title,
        date=event.date, season=season, events=(event.id,),
        context={"league": league, "circuit": TITLE, "season": season, "title": title,
                 "date": french.date_long(event.date), "location": event.content.location,
                 "participants": [{"number": p.number, "player": p.name, "club": p.club, "rank": p.annual_rank}
                                  for p in participants], "annual": dataclasses.asdict(annual),
                 "rounds": rounds, "schedule": [[f"{a}–{b}" for a, b in pairs] for pairs in SCHEDULE],
                 "tables": list(range(1, TABLES + 1))},
    )


def annex(event: MastersEvent, lines: list[Line], rounds_done: int, participants: list[Participant],
          matches: list[Match], settings: MastersSettings) -> Annex:
    season = event.content.season
    by_pair = {frozenset((m.a, m.b)): m for m in matches}
    names = {p.number: p.name for p in participants}
    cross_rows = [[p.number, p.name, *[
        _score(by_pair[frozenset((p.number, q.number))], p.number) if frozenset((p.number, q.number)) in by_pair
        else None for q in participants]] for p in participants]
    match_rows = []
    for m in sorted(matches, key=lambda m: (m.round, m.table)):
        points = match_points(m, settings)
        match_rows.append([m.round, m.table, names[m.a], names[m.b], m.score_a, m.score_b, m.tops_a, m.tops_b,
                           points[0], points[1]])
    return Annex(
        path=f"{season}/annexe-masters-{season}", title=f"{TITLE} {season}", date=event.date, season=season,
        sheets=[
            common.ranking_sheet(published(event, lines, rounds_done), "Classement"),
            AnnexSheet("Tableau croisé", [AnnexColumn("N°", "int", 5), AnnexColumn("Joueur", "text", 26)]
                       + [AnnexColumn(str(p.number), "text", 6) for p in participants], cross_rows),
            AnnexSheet("Matchs", [
                AnnexColumn("Match", "int", 7), AnnexColumn("Table", "int", 7), AnnexColumn("Joueur A", "text", 26),
                AnnexColumn("Joueur B", "text", 26), AnnexColumn("Score A", "int", 8), AnnexColumn("Score B", "int", 8),
                AnnexColumn("Tops A", "int", 8), AnnexColumn("Tops B", "int", 8), AnnexColumn("Points A", "int", 8),
                AnnexColumn("Points B", "int", 8)], match_rows),
        ],
    )


def results_workbook(season: int, name: str, day: dt.date, location: str, participants: list[Participant],
                     withdrawals: list[Withdrawal], kept: dict[tuple[int, int], tuple], settings: MastersSettings) -> Annex:
    """The Masters workbook in docs/formats.md's canonical layout, pairings filled in, scores blank
    except those already typed (`kept`: (match, table) -> (score A, score B, tops A, tops B))."""
    by_number = {p.number: p for p in participants}
    matches = []
    for round_index, pairs in enumerate(SCHEDULE, start=1):
        for table, (a, b) in enumerate(pairs, start=1):
            matches.append([round_index, table, by_number[a].name, by_number[b].name,
                            *kept.get((round_index, table), (None, None, None, None))])
    first_data_row, last_data_row = 1, len(matches)
    message = f"Un nombre entier de 0 à {settings.coups} (les coups d’un match)."
    return Annex(
        path=f"masters-{season}", title=f"{TITLE} {season} — résultats", date=day,
        sheets=[
            AnnexSheet("Tournoi", [AnnexColumn("Champ", "text", 14), AnnexColumn("Valeur", "auto", 34, grouped=False)], [
                ["Circuit", "masters"], ["Nom", name], ["Date", day], ["Saison", season], ["Lieu", location]]),
            # `Motif` as typed: empty or « désistement » for a withdrawal, « barrage perdu » for a
            # play-off loser, or their other spellings (docs/formats.md).
            AnnexSheet(WITHDRAWALS_SHEET, [AnnexColumn(LAST_NAME.header, "text", 22),
                                           AnnexColumn(FIRST_NAME.header, "text", 18),
                                           AnnexColumn(LICENCE.header, "text", 12), AnnexColumn(REASON.header, "text", 16)],
                       [[w.entry.last_name, w.entry.first_name, w.entry.licence, w.typed] for w in withdrawals],
                       rules=[InputRule(1, 3, WITHDRAWAL_ROWS, 3, REASON_HELP, "list", choices=(WITHDRAWN, PLAYOFF_LOST))]),
            # The participants as qualified today: they stay the Masters' participants whatever the
            # Grand Sud ranking becomes (INTERPRETATIONS.md); `masters prepare` rewrites them.
            AnnexSheet(PARTICIPANTS_SHEET, [AnnexColumn(c.header, "int" if c in (NUMBER, ANNUAL_RANK) else "text",
                                                        26 if c is PLAYER else 12) for c in PARTICIPANT_COLUMNS],
                       [[p.number, p.name, p.licence, p.club, p.annual_rank] for p in participants]),
            AnnexSheet(MATCHES_SHEET, [AnnexColumn(c.header, "int" if i in (0, 1) or i > 3 else "text", 24 if i in (2, 3) else 9)
                                  for i, c in enumerate(MATCH_COLUMNS)], matches,
                       rules=[InputRule(first_data_row, 4, last_data_row, 7, message, "whole", 0, settings.coups,
                                        # blocking: the reader takes no other value (§1, results.py)
                                        blocking=True)]),
        ],
    )
