"""Pool tournament settings: every reading of a gap in the regulation (001_bd00e4ad95b2e633.txt) is
one, with the defaults INTERPRETATIONS.md gives."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.config import setting


@dataclass(frozen=True)
class PoulesSettings:
    # Art. VII: « 14 jours pour les parties principales, 2 jours pour les éventuelles parties de
    # barrages »: the deadline the notices give, counted from the day a game is launched.
    main_phase_days: int = setting(14, minimum=1, maximum=365)
    barrage_days: int = setting(2, minimum=1, maximum=365)
    # Art. IV's list of tie-breaks is missing; « cas I » of Art. IX (ties settled by barrage games)
    # is read by INTERPRETATIONS.md as the ties that decide qualification (the 2nd/3rd boundary of a
    # pool that is not the final one) and the tie for first place of the final pool. Every other
    # tie, and a tie left after barrages, goes to registration order.
    barrage_for_qualification: bool = True
    barrage_for_first_place: bool = True
    # INTERPRETATIONS.md (final ranking): the points and games of a forfeited player are the games
    # of his pool against non-forfeit players, all lost. False: he is listed with no game at all.
    forfeit_games_count: bool = True
    # issue 27: a PDF bulletin prints at most this many rows of the final ranking, then one line saying
    # where the whole ranking is (CSV, the HTML page, the annex), as the Grand Sud's (circuits/common.py
    # print_top). 300 prints any regional league whole.
    bulletin_rows: int = setting(300, minimum=1)
    # Art. XI's cancellation at 2 players who have not forfeited (restored at 3) is the regulation's
    # own number, not a setting (tournament.CANCELLED_AT).
