"""The toy circuit's season ranking, its bulletin and its annex, as plain data."""

from __future__ import annotations

import pandas as pd

from reportgen.circuits.common import ranking_sheet
from reportgen.french import date_long, points
from reportgen.model import Annex, Column, Document, Ranking, RankingRow, Scope, Status, headings
from tests.toy_circuit.info import INFO

COLUMNS = (Column("points", "Points"), Column("played", "Tournois", short="T."))


def ranking(season: int, played: pd.DataFrame, final: bool) -> Ranking:
    """Most points first; equal points share a place (ordered by name)."""
    latest = played.sort_values("date").groupby("player_id").last()
    totals = played.groupby("player_id")["points"].sum()
    counts = played.groupby("player_id").size()
    order = sorted(totals.index, key=lambda pid: (-totals[pid], latest.loc[pid, "player"]))
    rows = []
    for index, pid in enumerate(order):
        rank = index + 1 if index == 0 or totals[pid] != totals[order[index - 1]] else rows[-1].rank
        tied = sum(totals == totals[pid]) > 1
        rows.append(RankingRow(rank, pid, latest.loc[pid, "player"], "", latest.loc[pid, "club"],
                               {"points": int(totals[pid]), "played": int(counts[pid])}, tied=tied))
    return Ranking(f"{season}/classement-{season}", Scope("season", season), played["date"].max().date(),
                   Status.FINAL if final else Status.PROVISIONAL, COLUMNS, tuple(rows))


def bulletin(ranking: Ranking, league: str) -> Document:
    title = f"Classement {'final' if ranking.final else 'au ' + date_long(ranking.date)}"
    context = {"circuit": INFO.title, "season": ranking.season, "league": league, "title": title,
               "headings": headings(COLUMNS),
               "rows": [{"rank": f"{row.rank}{'=' if row.tied else ''}", "player": row.player, "club": row.club,
                         "points": points(row.metrics["points"]), "played": row.metrics["played"]}
                        for row in ranking.rows]}
    return Document(ranking.path, INFO.templates[0], title, ranking.date, context, ranking.season)


def annex(ranking: Ranking) -> Annex:
    return Annex(f"{ranking.season}/annexe-{ranking.season}", f"{INFO.title} {ranking.season}", ranking.date,
                 [ranking_sheet(ranking, "Classement")], ranking.season)
