"""Grand Sud rankings to documents: bulletins (plain template context), annexes and standings."""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from operator import itemgetter
from typing import Any

import pandas as pd

from reportgen import french, model
from reportgen.circuits import common
from reportgen.circuits.grand_sud.listing import FORMULA_LABELS, Listing, short_label
from reportgen.circuits.grand_sud.metrics import COLUMNS, METRICS
from reportgen.circuits.grand_sud.scoring import Ranking, Tournament
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.model import (
    Annex,
    AnnexColumn,
    AnnexSheet,
    Column,
    Deferred,
    Document,
    MadeFrom,
    RankingRow,
    ResultColumn,
    Scope,
    ScopeKind,
    Status,
    headings,
)
from reportgen.scoring.digests import frame_digest


def ranking_title(ranking: Ranking, tournaments: dict[str, Tournament]) -> str:
    if ranking.final:  # a bulletin once the season is over (circuit.py)
        return common.final_title(ranking.season)
    places = [french.de(tournaments[tid].event.content.club.name) for tid in ranking.latest]
    joined = " et ".join([", ".join(places[:-1]), places[-1]] if len(places) > 1 else places)
    noun = "les tournois" if len(places) > 1 else "le tournoi"
    return f"Classement après {noun} {joined} du {french.date_long(ranking.date)}"


def replacement_notice(first: Tournament, second: Tournament, players: list[str]) -> str:
    """The same, said by `check` and `build`, with the players of the first who lose its points."""
    return (f"grand-sud : {second.id} (« {second.event.name} », {french.date_long(second.date)}) "
            + _replaces(first, players, f"{first.id} (« {first.event.name} », {french.date_long(first.date)})"))


def replacement_note(first: Tournament, players: list[str]) -> str:
    """The same, of the second's workbook, to the club that sent it (`Report.replaces`, `reportgen
    inbox`): the first named by its name and day, never by its path in the secretary's inputs/."""
    return _replaces(first, players, f"le tournoi « {first.event.name} » du {french.date_long(first.date)}")


def _replaces(first: Tournament, players: list[str], named: str) -> str:
    lost = ""
    if players:
        lost = (f" ; {french.plural(len(players), 'joueur')} du premier, absent{'s' if len(players) > 1 else ''} "
                f"du second, en perd{'ent' if len(players) > 1 else ''} les points : {french.listed(players, 12)}")
    return (f"remplace {named}, deuxième tournoi de la "
            f"série {first.series} en {first.date.year} : seul le dernier de l’année compte (§1){lost}. "
            "S’il s’agit de deux tournois distincts, donnez à l’un une « Série » à lui, dans sa feuille « Tournoi »")


# The site's page of a tournament of a club outside the départements (§1): why it has no ranking
# (its words before « : » mark it in the season's list and on its card: site/sources.py `note_mark`)
OUTSIDE = french.typography("Hors circuit : ce tournoi ne compte pas pour le classement régional (club hors des "
                            "départements du Grand Sud, §1).")


def methodology(settings: GrandSudSettings, ranking: Ranking) -> list[str]:
    departements = ", ".join(settings.departements)
    notes = [
        f"Tournois pris en compte : tournois individuels des clubs des départements {departements} (§1). "
        "Les tournois d’autres clubs sont listés « hors circuit ».",
        "Points d’un tournoi (§2.1) : points de la place au duplicate + points de la place finale, selon le "
        "nombre de têtes de série présentes ; seuls les 32 premiers marquent. Tournoi tout en duplicate (§2.2) : "
        "la place finale compte dans les deux tableaux.",
        f"Têtes de série présentes : les joueurs du tournoi classés dans les {settings.seeds} premiers du "
        f"classement en vigueur avant sa date (ex aequo compris, {settings.seeds} au plus) ; les tournois "
        "du même jour sont simultanés (§1).",
        "Chaque série de tournois (un club, ou la série indiquée) compte sa dernière édition de l’année en cours "
        "ou de l’année précédente : une édition remplace la précédente, points et participants (§1).",
        f"Total (§3) : pour T tournois comptés, les meilleurs résultats de chaque joueur, au nombre de "
        f"T/2 arrondi à l’entier inférieur et au moins {settings.min_counted_results}. Égalité (§1) : le moins de tournois joués, puis le meilleur résultat, "
        "sinon place partagée (5=).",
    ]
    if ranking.final:
        notes.append("Classement final (§1) : seuls les tournois de l’année comptent ; ses "
                     f"{settings.seeds} premiers sont qualifiés pour le Masters Grand Sud.")
    return notes


# A tournament of the window the player did not play: most cells of a bulletin. The contexts are
# read-only data, so every such cell is this one dict.
ABSENT = {"text": "", "kind": "absent"}


@functools.lru_cache(maxsize=1 << 12, typed=True)
def _number(value: int) -> str:
    """A bulletin's points as printed: the same few hundred values fill tens of thousands of cells.
    Typed: 3 and 3.0 are not one key, so a text never depends on which came first in the process
    (a bulletin's source key hashes its grid's numbers, not these texts: cache.document_key)."""
    return french.number(value)


@functools.lru_cache(maxsize=1 << 13, typed=True)
def _cell(value: int, counted: bool) -> dict[str, str]:
    """A result's cell, read-only as ABSENT: one dict per value and kind, not one per player and
    tournament of every bulletin (fewer objects made, and fewer for the cycle collector to go through)."""
    return {"text": _number(value), "kind": "counted" if counted else "dropped"}


def result_labels(window: list[Tournament]) -> list[str]:
    """How a printed bulletin without the grid (`bulletin_columns`) names each tournament of the
    window, in the grid's order: its club's code (« ALB 120 »), with its day when the window has
    two of that club (a club with two series: « ALB 24/01 120 », as the table of tournaments names
    it)."""
    codes = Counter(t.event.content.club.code for t in window)
    return [short_label(t) if codes[t.event.content.club.code] > 1 else t.event.content.club.code for t in window]


def earned_rows(points: pd.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """Each tournament's players who earned points, by place, as a bulletin lists its latest
    tournaments: put together once for every bulletin (a tournament is the latest of one or two)."""
    scoring = points[points["points"] > 0]
    listed: dict[str, list[dict[str, Any]]] = {}
    columns = ("event", "place", "place_duplicate", "player", "duplicate_points", "final_points", "points")
    for event, place, place_duplicate, player, duplicate, final, total in zip(
            *(scoring[column].tolist() for column in columns)):
        listed.setdefault(event, []).append({
            "place": int(place), "place_duplicate": int(place_duplicate), "player": player,
            "duplicate": french.number(duplicate), "final": french.number(final), "total": french.number(total)})
    for rows in listed.values():
        rows.sort(key=lambda row: row["place"])  # a place is given once in a tournament (parse refuses ties)
    return listed


# A tournament's page on the site (Report.event_columns): the points each player earned there (§2.1,
# the bulletin's « Total » of its « derniers tournois »; 0 beyond the 32nd), the one a phone shows,
# and, for a « duplicate + poules » tournament, his place in the duplicate phase they are partly
# from (in a tournament « tout en duplicate » it is his place again: not repeated).
EARNED = Column("points", "Points marqués au tournoi", short="Points")
PLACE_DUPLICATE = Column("place_duplicate", "Place au duplicate", short="Place dupl.")


def result_columns(points: pd.DataFrame, tournaments: dict[str, Tournament]) -> dict[str, tuple[ResultColumn, ...]]:
    """Each scored tournament's columns on its site page (`EARNED`, `PLACE_DUPLICATE`), by event id,
    from the points table (`score_league`'s) in one pass over its columns as lists: no pandas group
    per tournament (4,000 at 100x)."""
    earned: dict[str, dict[str, int]] = {}
    placed: dict[str, dict[str, int]] = {}
    in_pools = {tid for tid, t in tournaments.items() if t.event.content.formula == "poules"}
    columns = ("event", "player_id", "points", "place_duplicate")
    for event, player_id, total, place_duplicate in zip(*(points[column].tolist() for column in columns)):
        found = earned.get(event)
        if found is None:
            found = earned[event] = {}
            if event in in_pools:
                placed[event] = {}
        found[player_id] = total
        if event in placed:
            placed[event][player_id] = place_duplicate
    return {event: (ResultColumn(EARNED, values),
                    *((ResultColumn(PLACE_DUPLICATE, placed[event]),) if event in placed else ()))
            for event, values in earned.items()}


def bulletin_rows(ranking: Ranking) -> tuple[list[dict[str, Any]], tuple[object, ...]]:
    """A bulletin's rows, and what they are made from, which `bulletin` records (`MadeFrom`) for
    its source key when the ranking's scoring digest is not known (`_made_from`): a few values per
    player (his place, previous place, name, club, tournaments played, total, seed, and the
    window's column, points and counted flag of each result), not his cell for each tournament of
    the window (most of them empty: 2,800 players times 94 tournaments at 100x). Each row is made
    from its line of `grid` alone, so that equal grids give equal rows. No set in `grid`: its
    pickle must not depend on the process's string hashing."""
    width = len(ranking.window)
    column_of = {tid: index for index, tid in enumerate(ranking.window)}
    lines = []
    rows = []
    for row in ranking.rows:
        counted = row.counted
        played = tuple([(column_of[tid], value, tid in counted) for tid, value in row.points.items()])
        line = (row.rank, row.tied, row.previous_rank, row.player, row.club, row.played, row.total, row.seed, played)
        lines.append(line)
        rows.append(_row(width, *line))
    return rows, (width, tuple(lines))


def _row(width: int, rank: int, tied: bool, previous_rank: int | None, player: str, club: str, played: int,
         total: int, seed: bool, results: tuple[tuple[int, int, bool], ...]) -> dict[str, Any]:
    """A bulletin's row from its line of the grid alone: one cell per tournament of the window (tens
    of thousands per bulletin), filled from the tournaments the player played."""
    cells = [ABSENT] * width
    for column, value, counted in results:
        cells[column] = _cell(value, counted)
    return {
        # INTERPRETATIONS: places gained, the previous place minus the place now (▲3, +3: up
        # three); absent before = new
        "rank": french.shared_place(rank, tied), "evolution": common.evolution(previous_rank, rank),
        "player": player, "club": club, "played": played, "total": _number(total), "seed": seed, "cells": cells,
    }


def bulletin(ranking: Ranking, listing: Listing, earned: dict[str, list[dict[str, Any]]],
             settings: GrandSudSettings, league: str, closed: bool) -> Document:
    """`listing`: the league's tournaments (one for every bulletin); `earned`: each tournament's rows
    of points (earned_rows(points)); `closed`: its season is over or closed (`common.ranking_path`)."""
    tournaments = listing.tournaments
    path = common.ranking_path(ranking, closed)
    counted = [tournaments[tid] for tid in ranking.window]
    title = ranking_title(ranking, tournaments)
    rows: list[dict[str, Any]] | Deferred
    if ranking.digest:
        # made only if the bulletin is rendered: its key is its ranking's digest (`_made_from`)
        rows = Deferred(lambda: bulletin_rows(ranking)[0], len(ranking.rows))
        made_from = _made_from(rows, ranking)
    else:
        rows, grid = bulletin_rows(ranking)
        made_from = MadeFrom("rows", rows, grid)
    tournament_rows, replacements = listing.rows(ranking)
    latest = []
    for tid in ranking.latest:
        tournament = tournaments[tid]
        latest.append({
            "name": tournament.event.name, "date": french.date_long(tournament.date),
            "club": tournament.event.content.club.name,
            "players": french.plural(len(tournament.event.results), "joueur"),
            "seeds": french.plural(tournament.seeds, "tête de série présente", "têtes de série présentes"),
            "formula": FORMULA_LABELS[tournament.event.content.formula],
            "rows": earned.get(tid, []),
        })
    return Document(
        path=path, template="grand-sud/bulletin.html.j2", title=title, date=ranking.date,
        season=ranking.season, events=tuple(ranking.latest),
        made_from=made_from,
        context={
            "league": league, "circuit": "Classement régional Grand Sud", "season": ranking.season,
            "title": title, "final": ranking.final, "date": french.date_long(ranking.date),
            "counted_count": len(counted), "counted_results": ranking.counted_results,
            "summary": (f"{french.plural(len(counted), 'tournoi compté', 'tournois comptés')} : "
                        f"{french.plural(ranking.counted_results, 'meilleur résultat retenu', 'meilleurs résultats retenus')} "
                        f"par joueur · {french.plural(len(rows), 'joueur classé', 'joueurs classés')}"),
            # A tournament of the year before (still in the window) says its year, on a line of its own:
            # « 15/11/25 » on one line overflowed its narrow column into the next one's date.
            "columns": [{"code": t.event.content.club.code, "day": f"{t.date.day:02d}/{t.date.month:02d}",
                         "year": str(t.date.year) if t.date.year != ranking.season else "",
                         "title": f"{t.event.name}, {french.date_long(t.date)}"} for t in counted],
            "rows": rows, "headings": headings(COLUMNS), "tournaments": tournament_rows, "latest": latest,
            "notes": methodology(settings, ranking), "seeds": settings.seeds, "replacements": replacements,
            "evolution_since": evolution_since(ranking, tournaments),
            "print_top": common.print_top(len(rows), settings.bulletin_rows, path.rpartition("/")[2] + ".csv"),
            "print_columns": common.print_columns(result_labels(counted), settings.bulletin_columns),
            "print_tournaments": common.print_tournaments(len(tournament_rows), len(counted),
                                                          settings.bulletin_tournaments),
        },
    )


def evolution_since(ranking: Ranking, tournaments: dict[str, Tournament]) -> str:
    """The ranking its « Évolution » column compares with (the regulation: « l’évolution de la place par
    rapport au classement précédent »), named: the final ranking counts the season's tournaments alone
    and follows the last dated one, which also counted the year before's; a player's « ▼40 » there is
    no result lost, and the bulletin says which ranking it was."""
    previous = ranking.previous
    if previous is None:
        return common.SINCE_PREVIOUS
    if previous.final:
        return f"depuis le classement final {previous.season}"
    since = f"depuis le classement au {french.date_long(previous.date)}"
    earlier = sorted({tournaments[tid].date.year for tid in previous.window} - {ranking.season})
    if ranking.final and earlier:
        return f"{since}, qui comptait aussi les tournois de {french.joined([str(year) for year in earlier])}"
    return since


def _best_first(points: dict[str, int]) -> list[tuple[str, int]]:
    """A player's (tournament, points), best first; among equal points in the order scoring gave
    them (a stable sort): the one it counted first."""
    return sorted(points.items(), key=itemgetter(1), reverse=True)


def published(ranking: Ranking, closed: bool) -> model.Ranking:
    """The ranking as it is published (CSV, annex, `reportgen standings`) and read by the Masters;
    `closed`: its season is over or closed (`common.ranking_path`).
    Its rows made when first read, when its scoring digest keys it (`_made_from`): a rebuild writes
    again the CSV and site record of the rankings a new tournament changes, and reads the others'
    places only (their chart: the scoring rows as `Deferred.outline`)."""
    rows: tuple[RankingRow, ...] | Deferred
    if ranking.digest:
        rows = Deferred(lambda: published_rows(ranking), len(ranking.rows), outline=ranking.rows)
    else:
        rows = published_rows(ranking)
    return model.Ranking(
        path=common.ranking_path(ranking, closed), scope=Scope(ScopeKind.SEASON, ranking.season), date=ranking.date,
        status=Status.FINAL if ranking.final else Status.PROVISIONAL, columns=COLUMNS,
        rows=rows,
        # INTERPRETATIONS.md: at a change of year, the final ranking of the year before is in force.
        in_force_from=dt.date(ranking.season + 1, 1, 1) if ranking.final else None,
        made_from=_made_from(rows, ranking))


def published_rows(ranking: Ranking) -> tuple[RankingRow, ...]:
    """A published ranking's rows."""
    # What is the same for every row looked up once per ranking: the metrics, and `decided_by` in
    # words (a handful of distinct chains among thousands of rows).
    values, decided = METRICS.values_of(COLUMNS), functools.cache(METRICS.decided)
    return tuple(RankingRow(row.rank, row.player_id, row.player, row.licence, row.club,
                            values(row), tied=row.tied, decided_by=decided(row.decided_by),
                            # every result of the window he played, best first: the Masters' countback
                            # when a tie is left at its 16th place (INTERPRETATIONS.md, masters)
                            results=tuple(points for _, points in played),
                            events=tuple(event for event, _ in played),  # the site names each result's tournament
                            counts=tuple(event in row.counted for event, _ in played))  # as scored, 0s too
                 for row in ranking.rows for played in (_best_first(row.points),))


def _made_from(part: object, ranking: Ranking) -> MadeFrom | None:
    """`part` (a published ranking's rows, a bulletin's) as made from the ranking alone: its
    scoring digest, when known (scoring.py `Chain`); None otherwise."""
    return MadeFrom("rows", part, ("grand-sud ranking", ranking.digest)) if ranking.digest else None


def annex(season: int, rankings: list[Ranking], tournaments: dict[str, Tournament],
          points: pd.DataFrame, closed: bool = True, final_published: model.Ranking | None = None) -> Annex:
    """The season's Excel annex: final ranking, tournaments, every result, place history. While the
    season runs (`closed` false) its final ranking is « provisoire », as the site and `standings`
    say: it counts the year's tournaments only (§1), not the latest dated bulletin's window.

    When every ranking of the season has its scoring digest, the rows of its two large sheets (every
    result, the place history: 100,000 and 2,800 rows a season at 100x) are made only if the annex
    is written again (`Deferred`), its key hashing what they are made from (`made_from`): the
    season's rankings' digests and the season's points table. The tournaments' sheet, with their
    names, and the final ranking's are keyed as themselves: `final_published`, the final ranking as
    the circuit published it (its rows made once, for its CSV and this sheet), or made here."""
    final = next(r for r in rankings if r.final)
    seasonal = [t for t in sorted(tournaments.values(), key=lambda t: (t.date, t.id)) if t.date.year == season]
    tournament_rows = [[t.date, t.event.name, t.event.content.club.name, t.event.content.club.departement,
                        t.series, FORMULA_LABELS[t.event.content.formula], t.event.content.location,
                        len(t.event.results), t.seeds if t.eligible else None,
                        "oui" if t.id in final.window else ("hors circuit" if not t.eligible else "non"),
                        t.id] for t in seasonal]
    season_points = points.loc[points["date"].dt.year == season, list(POINT_COLUMNS)].sort_values(
        ["date", "event", "place"])
    point_rows: list[list[Any]] | Deferred
    history_rows: list[list[Any]] | Deferred
    source = None
    if all(ranking.digest for ranking in rankings):
        point_rows = Deferred(lambda: _point_rows(season_points, tournaments, final), len(season_points))
        history_rows = Deferred(lambda: _history_rows(rankings, final), None)
        source = ("grand-sud annex", closed, tuple(ranking.digest for ranking in rankings),
                  frame_digest(season_points))
    else:
        point_rows, history_rows = _point_rows(season_points, tournaments, final), _history_rows(rankings, final)
    history_headers = [(("Final" if closed else "Final provisoire") if r.final else french.date_short(r.date))
                       for r in rankings]
    sheets = [
        common.ranking_sheet(final_published or published(final, closed), common.final_sheet(closed)),
        AnnexSheet("Tournois", [
            AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 30), AnnexColumn("Club", "text", 18),
            # wide enough for « Département » whole in its header, and a series' code such as
            # « TLSE-printemps » (its club's and the tournament's), which a narrower column cut
            AnnexColumn("Département", "text", 12), AnnexColumn("Série", "text", 15),
            AnnexColumn("Formule", "text", 18), AnnexColumn("Lieu", "text", 16),
            AnnexColumn("Joueurs", "int", 8), AnnexColumn("Têtes de série présentes", "int", 10),
            AnnexColumn("Compté au classement final", "text", 12), AnnexColumn("Fichier", "text", 36)],
            tournament_rows),
        AnnexSheet("Points", [
            AnnexColumn("Date", "date", 11), AnnexColumn("Tournoi", "text", 28), AnnexColumn("Joueur", "text", 26),
            AnnexColumn("Licence", "text", 10), AnnexColumn("Club", "text", 18), AnnexColumn("Place", "int", 7),
            AnnexColumn("Place duplicate", "int", 9), AnnexColumn("Têtes de série", "int", 8),
            AnnexColumn("Points duplicate", "int", 9), AnnexColumn("Points finale", "int", 9),
            AnnexColumn("Points", "int", 8), AnnexColumn("Compté au classement final", "text", 11),
            # « 2026/2026-01-24-carcassonne.xlsx, feuille « Résultats », cellule B123 » on one line (a longer
            # file name wraps, its row as high as its lines)
            AnnexColumn("Source", "text", 58)], point_rows),
        # a date's column as wide as the other sheets' dates: at 8, its header « 24/01/2026 »
        # wrapped into « 24/01/20 » over « 26 » (the header row wraps its texts)
        AnnexSheet("Historique des places", [AnnexColumn("Joueur", "text", 26)]
                   + [AnnexColumn(h, "int", max(11, len(h) + 1)) for h in history_headers], history_rows),
    ]
    return Annex(path=f"{season}/annexe-grand-sud-{season}", title=f"Classement régional Grand Sud {season}",
                 date=final.date, season=season, sheets=sheets,
                 made_from=MadeFrom("sheets", sheets, source) if source is not None else None)


# The points table's columns the « Points » sheet reads, in its rows' order.
POINT_COLUMNS = ("date", "event", "player", "licence", "club", "place", "place_duplicate", "seeds",
                 "duplicate_points", "final_points", "points", "player_id", "source_file", "source_sheet",
                 "source_cell")


def _point_rows(season_points: pd.DataFrame, tournaments: dict[str, Tournament], final: Ranking) -> list[list[Any]]:
    """The « Points » sheet's rows: every result of the season, whether the final ranking counts it."""
    counted_final = {(row.player_id, tid) for row in final.rows for tid in row.counted}
    return [[day.date(), tournaments[event].event.name, player, licence, club, int(place), int(place_duplicate),
             int(seeds), int(duplicate), int(final_points), int(total),
             "oui" if (player_id, event) in counted_final else "non", _source(file, sheet, cell)]
            for (day, event, player, licence, club, place, place_duplicate, seeds, duplicate, final_points, total,
                 player_id, file, sheet, cell) in zip(*(season_points[column].tolist() for column in POINT_COLUMNS))]


def _source(file: str, sheet: str, cell: str) -> str:
    """Where a result was read, as the secretary is told everywhere else (« 2026/a.xlsx, feuille
    « Résultats », cellule B35 »): read, not pasted (Excel's « 'Résultats'!B35 » names no file)."""
    return f"{file}, {model.in_sheet(sheet, model.cells_said(cell))}"


def _history_rows(rankings: list[Ranking], final: Ranking) -> list[list[Any]]:
    """The « Historique des places » sheet's rows: each player's place in each ranking of the season,
    in the final ranking's order (then by name)."""
    history_players: dict[str, str] = {}
    for ranking in rankings:
        for row in ranking.rows:
            history_players.setdefault(row.player_id, row.player)
    by_rank = [ranking.rank_of() for ranking in rankings]
    final_rank = final.rank_of()
    order = sorted(history_players, key=lambda pid: (final_rank.get(pid, 10**6), history_players[pid]))
    return [[history_players[pid], *[ranks.get(pid) for ranks in by_rank]] for pid in order]
