"""Which ranking holds on a given day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from reportgen.model import Ranking


def ranking_in_force(rankings: Iterable[Ranking], day: dt.date) -> Ranking | None:
    """The ranking that holds on `day`: the latest to have taken effect by then.

    A ranking takes effect on its date, or on its `in_force_from` (the Grand Sud's final ranking
    holds from 1 January of the next year until the new season's first ranking). On a day when
    several take effect, the newer season holds; a season's ranking after its last date and its final
    ranking of that same date hold the same results, and the one after the date says which date."""
    started = [ranking for ranking in rankings if ranking.effective <= day]
    return max(started, key=lambda r: (r.effective, r.season, not r.final, r.date), default=None)
