"""Tantrix metrics, each declared once: an event's standings (rule 10) and the rating list (rules
12 and 13). Their keys are the CSV and JSON keys scripts read (`reportgen standings tantrix
--event`, `reportgen ratings tantrix`) and the names of the tie-break chain's steps.

Two sets, because the rating list's `games` (rated games) is not an event's `games` (games
played, defaults included): each set has each key once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportgen.circuits import common
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.scoring.metrics import ColumnKind, Metric, Metrics


def tps_value(tenths: int) -> float:
    """TPs kept in tenths, as published (31.4)."""
    return round(tenths / 10, 1)


@dataclass(frozen=True)
class TantrixMetric(Metric[Any]):
    """A metric of an event's standings; `in_match`: how a knockout match it decided is said
    (rule 10 a: TPs, then games won, then tiles, else a play-off)."""

    in_match: str = ""


# -- an event's standings (records: `standings.Line`) ------------------------------------------------

# TPs to the tenth (rule 9): « 18,0 » wherever shown, as « 17,3 » is
TPS = TantrixMetric("tps", "TPs", lambda line: tps_value(line.tps), ColumnKind.NUMBER, 8, decimals=1,
                    in_match="aux TPs")
GAMES = TantrixMetric("games", "Parties", lambda line: line.games, width=8)
# games won, a draw ½ (rule 10): « 2½ » wherever shown, the CSV's and the annex's 2.5 aside
WINS = TantrixMetric("wins", "Gagnées", lambda line: common.from_halves(line.wins), ColumnKind.NUMBER, 8, halves=True,
                     decided="départage aux parties gagnées", in_match="aux parties gagnées (TPs à égalité)")
STAGE = TantrixMetric("stage", "Parcours", lambda line: line.stage, ColumnKind.TEXT, 26)
# the sum of a player's margins, signed (« +13 », « −4 ») wherever shown, the CSV's and the annex's number aside
MARGIN = TantrixMetric("margin", "Marges", lambda line: line.margin, width=8, signed=True,
                       decided="départage à la somme des marges")
TILES = TantrixMetric("tiles", "Tuiles", lambda line: line.tiles, width=8, decided="départage aux tuiles marquées",
                      in_match="aux tuiles (TPs et parties gagnées à égalité)")
PLAYOFF = TantrixMetric("playoff", "Barrage", lambda line: line.playoff, ColumnKind.BOOL, 8,
                        decided="barrage à jouer (règle 10)", in_match="barrage à jouer (règle 10 a)")
# Rule 10 b): computed within the tied group, never a column.
HEAD_TO_HEAD = TantrixMetric("head_to_head", "TPs entre eux", decided="départage aux TPs marqués entre eux")

EVENT = Metrics(TPS, GAMES, WINS, STAGE, MARGIN, TILES, PLAYOFF, HEAD_TO_HEAD)
# `reportgen standings tantrix --event NAME`: rank, player, then exactly these first (scripts read them).
EVENT_COLUMNS = EVENT.columns(TPS, GAMES, WINS, MARGIN, TILES, PLAYOFF)
KNOCKOUT_COLUMNS = EVENT.columns(TPS, GAMES, WINS, STAGE, MARGIN, TILES, PLAYOFF)


# -- the rating list (records: `Rated`) -------------------------------------------------------------

@dataclass(frozen=True)
class Rated:
    """A row of a rating list with the settings its provisional status and seeding value read."""

    row: Any  # scoring.ListRow
    settings: TantrixSettings


# INTERPRETATIONS: the rating list shows ratings with one decimal (« 1 991,0 »), wherever it is shown.
RATING = Metric[Rated]("rating", "Classement Elo", lambda r: round(r.row.rating.value, 1), ColumnKind.NUMBER, 10,
                       short="Elo", decimals=1)
RATED_GAMES = Metric[Rated]("games", "Parties classées", lambda r: r.row.rating.games, width=9, short="Parties")
PROVISIONAL = Metric[Rated]("provisional", "Provisoire",
                            lambda r: "oui" if r.row.rating.provisional(r.settings) else "non", ColumnKind.TEXT, 9)
# The rating's change since the previous list, an evolution: « +52,6 », « −4,0 », « = », « nouveau » (None).
CHANGE = Metric[Rated]("change", "Évolution", lambda r: round(r.row.rating.value - r.row.previous.value, 1)
                       if r.row.previous else None, ColumnKind.EVOLUTION, 9, short="Évol.", decimals=1)
# The rating the seeding reads (rule 13: a provisional one reduced), headed by what it holds: « Pour les
# têtes de série » read as a list's title, « Têtes de série » over ratings as a column of names.
SEEDING = Metric[Rated]("seeding", "Elo pour les têtes de série", lambda r: round(r.row.rating.seeding(r.settings), 1),
                        ColumnKind.NUMBER, 11, short="Elo TS", decimals=1)

RATINGS = Metrics(RATING, RATED_GAMES, PROVISIONAL, CHANGE, SEEDING)
# `reportgen ratings tantrix`: rank, player, then exactly these first.
RATING_COLUMNS = RATINGS.columns(RATING, RATED_GAMES, PROVISIONAL, CHANGE, SEEDING)
