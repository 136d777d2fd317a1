"""Tour de France rankings to documents: bulletins, season annex, standings (plain data)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from reportgen import french, model
from reportgen.circuits import common
from reportgen.circuits.tour_de_france.metrics import COLUMNS, METRICS, points_number
from reportgen.circuits.tour_de_france.scoring import Ranking, Row, Scored
from reportgen.circuits.tour_de_france.settings import TourDeFranceSettings
from reportgen.ingest.text import strip_accents
from reportgen.model import (
    RANK_AND_PLAYER,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Column,
    Document,
    RankingRow,
    ResultColumn,
    Scope,
    ScopeKind,
    Status,
    headings,
)

CIRCUIT = "Tour de France de Diplomatie"


@lru_cache(maxsize=8192)
def points_text(value: Fraction | float) -> str:
    """Whole points as such, shares and halves to the hundredth: 292,5; 2 323,75; 183,33.

    Kept by value: a tournament's points are printed again in every later ranking of its season
    (19 rankings at 1x, 8,550 calls for about a tenth as many values). Equal values print the same
    (Fraction(1, 2) and 0.5 are one key, and one text)."""
    return french.points(float(Fraction(value)))


def evolution(row: Row) -> dict[str, str]:
    """INTERPRETATIONS: places gained, the previous place minus the place now (▲3, +3: up three);
    absent before = new."""
    return common.evolution(row.previous_rank, row.rank)


def status(tournament: Scored, settings: TourDeFranceSettings) -> str:
    if not tournament.counts:
        return f"moins de {settings.min_participants} participants : ne compte pas"
    if tournament.small:
        return f"moins de {settings.small_tournament_below} joueurs : barème standard (cas particulier du règlement)"
    return "compte"


def short_code(tournament: Scored) -> str:
    """Four capitals for a column header: Louvain-la-Neuve -> LOUV (the date tells two apart)."""
    letters = [c for c in strip_accents(tournament.event.content.location or tournament.event.name) if c.isalpha()]
    return "".join(letters[:4]).upper()


def ranking_title(ranking: Ranking, by_id: dict[str, Scored]) -> str:
    if ranking.final:  # a bulletin once the season is over (circuit.py)
        return common.final_title(ranking.season)
    names = [french.the(by_id[tid].event.name) for tid in ranking.latest]
    return f"Classement après {' et '.join(names)} ({french.date_long(ranking.date)})"


def bulletin(ranking: Ranking, by_id: dict[str, Scored], settings: TourDeFranceSettings, league: str,
             closed: bool) -> Document:
    """`closed`: its season is over or closed (`common.ranking_path`)."""
    path = common.ranking_path(ranking, closed)
    season_tournaments = [by_id[tid] for tid in ranking.tournaments]
    counted = [t for t in season_tournaments if t.counts]
    title = ranking_title(ranking, by_id)
    rows = []
    # One read-only cell per value for the whole bulletin: the template only reads them, and the
    # source key pickles without memo (the same bytes as a dict per cell).
    absent = {"text": "", "kind": "absent", "title": ""}
    full: dict[Fraction | float, dict[str, str]] = {}
    for row in ranking.rows:
        cells = []
        for tournament in counted:
            if tournament.id not in row.results:
                cells.append(absent)
                continue
            points, factor = row.results[tournament.id]
            if factor == 1:
                cell = full.get(points)
                if cell is None:
                    cell = full[points] = {"text": points_text(points), "kind": "full", "title": ""}
                cells.append(cell)
            else:
                cells.append({"text": points_text(points * Fraction(factor).limit_denominator()), "kind": "reduced",
                              "title": f"{points_text(points)} × {french.number(factor * 100)} %"})
        rows.append({"rank": french.shared_place(row.rank, row.tied), "evolution": evolution(row),
                     "player": row.player, "played": row.played, "total": points_text(row.total), "cells": cells})
    tournaments = [{
        "code": f"{short_code(t)} {t.event.date.day:02d}/{t.event.date.month:02d}",
        "date": french.date_short(t.event.date), "name": t.event.name, "location": t.event.content.location,
        "participants": t.participants, "ranked": len(t.results), "value": french.number(t.value) if t.value is not None else "—",
        "status": status(t, settings), "counts": t.counts, "small": t.small,
    } for t in season_tournaments]
    latest = []
    for tid in ranking.latest:
        t = by_id[tid]
        latest.append({
            "name": t.event.name, "date": french.date_long(t.event.date), "participants": t.participants,
            "value": french.number(t.value) if t.value is not None else None, "status": status(t, settings),
            "rows": [{"place": place, "player": name, "points": points_text(points)}
                     for _, name, place, points in t.results] if t.counts else [],
            "scale": [{"place": index + 1, "points": french.number(p)} for index, p in enumerate(t.scale)],
            "excluded": t.excluded, "scale_values": list(t.scale),
        })
    factors = [", ".join(f"{french.number(f * 100)} %" for f in settings.factors(k)) for k in range(1, 6)]
    notes = [
        "Valeur d’un tournoi (points du vainqueur) selon les participants physiques N : "
        + ", ".join(f"{n} → {french.number(v)}" for n, v in settings.value_anchors)
        + f", proportionnelle entre ces points, +{settings.points_per_extra_player} par joueur au-delà de "
        f"{settings.value_anchors[-1][0]} ; moins de {settings.min_participants} participants : le tournoi ne compte pas.",
        f"Points par place : 2e = {french.number(settings.ratio * 100)} % du 1er, 3e = {french.number(settings.ratio * 100)} % "
        "du 2e ; les suivants en quatre quarts, le premier quart parmi les plus petits : son premier marque "
        f"{french.number(settings.ratio * 100)} % du 3e, le premier du deuxième quart {settings.second_quarter_points}, "
        "un (n+1)e virtuel 0, en ligne droite entre ces points ; les plus grands écarts entre les mieux classés. "
        "Les ex aequo se partagent les points des places qu’ils occupent ; les joueurs hors classement sont retirés "
        "avant le calcul.",
        "Total de la saison : résultats du meilleur au moins bon, multipliés par "
        + " ; ".join(f"{k} résultat{'s' if k > 1 else ''} : {f}" for k, f in enumerate(factors, start=1))
        + " (le tableau du règlement manque ; lecture de ses deux exemples). En italique : résultat réduit.",
        f"Tournois de moins de {settings.small_tournament_below} joueurs : « traités de manière particulière » sans "
        "précision dans le règlement ; le barème standard s’applique et ils sont signalés.",
    ]
    return Document(
        path=path, template="tour-de-france/bulletin.html.j2", title=title, date=ranking.date,
        season=ranking.season, events=tuple(ranking.latest),
        context={"league": league, "circuit": CIRCUIT, "season": ranking.season, "title": title,
                 "final": ranking.final, "date": french.date_long(ranking.date),
                 "summary": f"{french.plural(len(counted), 'tournoi compté', 'tournois comptés')} · "
                            f"{french.plural(len(rows), 'joueur classé', 'joueurs classés')}",
                 "columns": [{"label": short_code(t), "day": f"{t.event.date.day:02d}/{t.event.date.month:02d}",
                              "title": t.event.name} for t in counted],
                 "rows": rows, "headings": headings(COLUMNS), "tournaments": tournaments, "latest": latest,
                 # the points-by-place scale of its latest tournament that counts: the season page's chart
                 "scale": next(({"title": t["name"], "values": t["scale_values"]}
                                for t in reversed(latest) if t["rows"]), None),
                 "notes": notes,
                 "print_top": common.print_top(len(rows), settings.bulletin_rows, path.rpartition("/")[2] + ".csv")},
    )


# A tournament's page on the site (Report.event_columns): the points each player earned there, shared
# by ex aequo, before the season's coefficients, as its bulletin's table of the tournament heads them.
EARNED = Column("points", "Points", "number")
# What a player the organiser left out of the ranking earned: nothing, said in the words his bulletin
# (« hors classement : … » under the tournament's name) and the annex's « Résultats » sheet use. His
# place is empty wherever it is shown, as the annex's: he has none (parse.py `ranking_places`).
OUT_OF_RANKING = "hors classement"


def result_columns(scored: list[Scored]) -> dict[str, tuple[ResultColumn, ...]]:
    """Each tournament's points by player id (`EARNED`), by event id, `OUT_OF_RANKING` for a player out of
    its ranking: only a tournament that counts (one under the minimum of participants earns nothing:
    its page says why, `event_notes`)."""
    return {t.id: (ResultColumn(EARNED, {**{player_id: points_number(points) for player_id, _, _, points in t.results},
                                         **dict.fromkeys(t.excluded_ids, OUT_OF_RANKING)}),)
            for t in scored if t.counts}


def event_notes(scored: list[Scored], settings: TourDeFranceSettings) -> dict[str, str]:
    """What the page of a tournament that does not count says of it, as its bulletin's list of
    tournaments says it."""
    said = french.typography(f"Moins de {settings.min_participants} participants : ce tournoi ne compte pas "
                             "pour le classement.")
    return {t.id: said for t in scored if not t.counts}


def published(ranking: Ranking, closed: bool) -> model.Ranking:
    """`closed`: its season is over or closed (`common.ranking_path`)."""
    rows = tuple(RankingRow(row.rank, row.player_id, row.player, "", "",
                            METRICS.values(row, COLUMNS), tied=row.tied)
                 for row in ranking.rows)
    # No licence nor club: the circuit's workbooks have none (its rows leave them empty), so its
    # ranking has no such columns, and neither have its CSV, JSON and annex.
    return model.Ranking(common.ranking_path(ranking, closed), Scope(ScopeKind.SEASON, ranking.season), ranking.date,
                         Status.FINAL if ranking.final else Status.PROVISIONAL, COLUMNS, rows,
                         identity=RANK_AND_PLAYER)


def annex(season: int, final: Ranking, shown: model.Ranking, scored: list[Scored],
          settings: TourDeFranceSettings, closed: bool) -> Annex:
    """`shown`: the final ranking as published (`published`), its first sheet, named « provisoire »
    while the season runs (`closed`: it is over or closed)."""
    mine = [t for t in scored if t.event.date.year == season]
    tournament_rows = [[t.event.date, t.event.name, t.event.content.location, t.participants, len(t.results),
                        t.value, status(t, settings), t.id] for t in mine]
    factors = {row.player_id: row.results for row in final.rows}
    result_rows = []
    for t in mine:
        for player_id, name, place, points in t.results:
            counted = factors.get(player_id, {}).get(t.id)
            result_rows.append([t.event.date, t.event.name, name, place, points_number(points) if t.counts else None,
                                counted[1] if counted else None,
                                points_number(points * Fraction(counted[1]).limit_denominator()) if counted else None])
        for name in t.excluded:
            result_rows.append([t.event.date, t.event.name, name, None, None, None, OUT_OF_RANKING])
    scales = [[t.event.name, place, points] for t in mine if t.counts for place, points in enumerate(t.scale, 1)]
    return Annex(
        path=f"{season}/annexe-tour-de-france-{season}", title=f"{CIRCUIT} {season}", date=final.date, season=season,
        sheets=[
            common.ranking_sheet(shown, common.final_sheet(closed)),
            AnnexSheet("Tournois", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 34), AnnexColumn("Lieu", "text", 18),
                AnnexColumn("Participants", "int", 11), AnnexColumn("Classés", "int", 9), AnnexColumn("Valeur", "int", 9),
                AnnexColumn("Statut", "text", 40), AnnexColumn("Fichier", "text", 42)], tournament_rows),
            AnnexSheet("Résultats", [
                AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 30), AnnexColumn("Joueur", "text", 26),
                AnnexColumn("Place", "int", 7), AnnexColumn("Points", "number", 9),
                AnnexColumn("Coefficient", "number", 10), AnnexColumn("Points comptés", "auto", 12)], result_rows),
            AnnexSheet("Barèmes", [AnnexColumn("Tournoi", "text", 34), AnnexColumn("Place", "int", 7),
                                   AnnexColumn("Points", "int", 9)], scales),
        ],
    )
