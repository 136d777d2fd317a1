"""The Masters' part of a club's own bulletin (`reportgen mail`): once the Masters is played, the
club's players in its standings; before, the race to it: each of the club's players in the annual
ranking it qualifies from, his place against the 16th (§1: « Les 16 premiers joueurs du classement
annuel ») and the points between them (withdrawals, known only once the Masters workbook is typed,
are not foreseen: the 16th place is the ranking's)."""

from __future__ import annotations

from collections.abc import Mapping

from reportgen import french
from reportgen.circuits.club_sections import Member, default_sections, place, ranking_title
from reportgen.circuits.masters.info import INFO
from reportgen.circuits.masters.schedule import PLAYERS
from reportgen.model import ClubSection, Ranking, RankingRow, Report


def annual_ranking(season: int, reports: Mapping[str, Report]) -> Ranking | None:
    """The latest season ranking of the circuit the Masters qualifies from, for that season."""
    upstream = reports.get(INFO.requires[0])
    rankings = [r for r in upstream.rankings if r.scope.kind == "season" and r.season == season] if upstream else []
    return max(rankings, key=lambda r: (r.date, r.final), default=None)


def gap(row: RankingRow, cut: RankingRow) -> str:
    """The points between a player and the 16th: « +45 », « −30 », « à égalité »."""
    between = row.metrics["points"] - cut.metrics["points"]
    if between == 0:
        return "à égalité"
    return f"+{french.points(between)}" if between > 0 else f"−{french.points(-between)}"


def standing(row: RankingRow) -> str:
    if row.rank <= PLAYERS:
        return f"dans les {PLAYERS}"
    behind = row.rank - PLAYERS
    return f"{french.plural(behind, 'place')} derrière la {PLAYERS}e"


def race(annual: Ranking | None, member: Member) -> tuple[ClubSection, ...]:
    rows = [row for row in annual.rows if member(row)] if annual is not None else []
    if annual is None or not rows:
        return ()
    if len(annual.rows) < PLAYERS:  # fewer players ranked than places: no 16th to measure against
        return (ClubSection(INFO.title, f"Qualification{french.SEPARATOR}{ranking_title(annual)}", ("Place", "Joueur", "Points"),
                            tuple((place(row), row.player, french.points(row.metrics["points"])) for row in rows),
                            f"Moins de {PLAYERS} joueurs au classement annuel : aujourd’hui, chaque place qualifie "
                            "pour le Masters."),)
    cut = annual.rows[PLAYERS - 1]
    return (ClubSection(
        INFO.title, f"Qualification{french.SEPARATOR}{ranking_title(annual)}",
        ("Place", "Joueur", "Points", f"Par rapport à la {PLAYERS}e place", "Écart (points)"),
        tuple((place(row), row.player, french.points(row.metrics["points"]), standing(row), gap(row, cut))
              for row in rows),
        f"Les {PLAYERS} premières places du classement annuel qualifient pour le Masters. {PLAYERS}e place "
        f"aujourd’hui : {cut.player}, {french.points(cut.metrics['points'])} points."),)


def club_sections(season: int, rankings: Mapping[str, Ranking], reports: Mapping[str, Report],
                  member: Member) -> tuple[ClubSection, ...]:
    """The standings once the Masters has one for the season, else the race to it, in the annual
    ranking the club's message reports (the latest one of the season when it reports none)."""
    if INFO.slug in rankings:
        return default_sections(INFO, rankings[INFO.slug], member)
    return race(rankings.get(INFO.requires[0]) or annual_ranking(season, reports), member)
