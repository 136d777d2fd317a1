"""A circuit's part of a club's own bulletin (`reportgen mail`): its players in the circuit's
ranking, as plain French text (`ClubSection`), which the renderer draws without knowing the circuit.

A circuit may give its own part with `club_sections` on its `CIRCUIT` (the Masters: the race to the
16th place before it is played); the others get `default_sections`: place, player, points,
evolution and the results that counted, from the ranking the club's message reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from reportgen import french
from reportgen.circuits import CircuitInfo, common
from reportgen.model import ClubSection, Column, Document, Ranking, RankingRow, Report

Member = Callable[[RankingRow], bool]  # the row is one of the club's players


def figure_column(ranking: Ranking, figure: str = "") -> Column | None:
    """The column given after each player's place: the circuit's `mail_figure` when the ranking has
    it, else its first numeric column (a Tantrix event's TPs, a rating list's Elo), else none."""
    numeric = [c for c in ranking.columns if c.key == figure] + [c for c in ranking.columns if c.kind in ("int", "number")]
    return numeric[0] if numeric else None


def figure(value: Any, column: Column) -> str:
    """A player's figure as the bulletin and the site write it (an Elo rating « 1 991,0 »)."""
    return "" if value is None or value == "" else french.column_value(value, column)


def evolution(value: Any) -> str:
    """Places gained as a club reads them: +3, −2 (a real minus sign), =, nouveau (french.evolution,
    the site's and the bulletins' words: a bulletin draws them ▲ 3, ▼ 2)."""
    return french.evolution(value)


def place(row: RankingRow) -> str:
    """« 1re », « 116e ex aequo » under « Place », as the clubs' mails write it: « 1er » said the
    player is a man (the league knows no gender)."""
    return french.place(row.rank, row.tied, noun=False)


def counted_results(row: RankingRow) -> str:
    """« 120 + 95 + 80 »: the results that make the points (all of them, « ; »-separated, when
    which ones count is not known)."""
    shown = [french.points(result) for result in row.results]
    if not row.counts:
        return " ; ".join(shown)
    return " + ".join(text for text, counts in zip(shown, row.counts) if counts)


def ranking_title(ranking: Ranking, circuit: str = "") -> str:
    """The ranking's name under its circuit's title in a club's bulletin: its event's (a Tantrix or
    pool tournament's), unless that name only says the circuit again (« Masters Grand Sud 2026 »
    under « Masters Grand Sud »); else whether it is final or of a date."""
    if ranking.scope.name and not (circuit and ranking.scope.name.startswith(circuit)):
        return ranking.scope.name
    return "Classement final" if ranking.final else f"Classement au {french.date_long(ranking.date)}"


def evolution_since(ranking: Ranking, documents: Iterable[Document]) -> str:
    """The ranking its « Évolution » compares with, as the ranking's own bulletin names it (its
    document's `evolution_since`, when its circuit gives one: the Grand Sud's « depuis le classement
    au 24 octobre 2026 »), else « depuis le classement précédent », as the others' bulletins say.
    `documents`: its circuit's (a club's bulletin), or its bulletin's alone (a club's mail)."""
    since = next((d.context.get("evolution_since") for d in documents if d.path == ranking.path), None)
    return since or common.SINCE_PREVIOUS


def default_sections(info: CircuitInfo, ranking: Ranking | None, member: Member,
                     since: str = common.SINCE_PREVIOUS) -> tuple[ClubSection, ...]:
    """The club's players in `ranking`: place, player, the circuit's figure, evolution (when the
    ranking has one: what it is `since` said right under the table, `evolution_since`), the results
    that counted (when its rows carry them)."""
    rows = [row for row in ranking.rows if member(row)] if ranking is not None else []
    if ranking is None or not rows:
        return ()
    score = figure_column(ranking, info.mail_figure)
    moves = any(column.key == "evolution" for column in ranking.columns)
    results = any(row.results for row in rows)
    # « Points » for points, as the messages say; another figure under its own heading (TPs, Elo).
    heading = "Points" if score is not None and score.key == "points" else score.short or score.header if score else ""
    headers = ("Place", "Joueur") + ((heading,) if score else ()) \
        + (("Évolution",) if moves else ()) + (("Résultats retenus",) if results else ())
    lines = tuple((place(row), row.player) + ((figure(row.metrics.get(score.key), score),) if score else ())
                  + ((evolution(row.metrics.get("evolution", "")),) if moves else ())
                  + ((counted_results(row),) if results else ()) for row in rows)
    note = f"Évolution : places gagnées (+) ou perdues (−) {since}." if moves else ""
    return (ClubSection(info.title, ranking_title(ranking, info.title), headers, lines, note),)


def club_sections(circuit: Any, season: int, rankings: Mapping[str, Ranking], reports: Mapping[str, Report],
                  member: Member) -> tuple[ClubSection, ...]:
    """The circuit's part of a club's bulletin for `season`: its own `club_sections(season, rankings,
    reports, member)` when it has one (`rankings`: the ranking each circuit's message reports, by
    slug; `reports`: every circuit's, for one that reads another's), else `default_sections` of its
    ranking in `rankings`."""
    own = getattr(circuit, "club_sections", None)
    if own is not None:
        return tuple(own(season, rankings, reports, member))
    ranking = rankings.get(circuit.info.slug)
    report = reports.get(circuit.info.slug)
    since = evolution_since(ranking, report.documents if report is not None else ()) if ranking is not None else ""
    return default_sections(circuit.info, ranking, member, since)
