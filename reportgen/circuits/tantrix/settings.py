"""Tantrix settings: every reading of a gap in the regulation is one, defaults from
INTERPRETATIONS.md (regulation 002_11ac65aff3900169.txt, « Tournois de Tantrix sur Internet »)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.config import setting


@dataclass(frozen=True)
class TantrixSettings:
    # Rule 10 c): a tie that survives the TPs scored among the tied players is a play-off (« jeu
    # décisif ») when it concerns « une qualification, la première place en finale, un prix »; the
    # regulation does not say which places qualify or win a prize. The places that matter (1 = first
    # place); a tied group covering any of them is left to a play-off, shown and not decided.
    playoff_places: tuple[int, ...] = setting((1,), minimum=1)
    # Rule 7: « si quelqu'un perd plus de deux parties par défaut pendant un tournoi, on ne tiendra
    # pas compte des résultats de ces parties »: more than this many defaults lost leaves a player
    # out of the standings (his games and his opponents' games against him), listed apart.
    max_defaults: int = setting(2, minimum=0)
    # Rules 2 and 9: 15 minutes per player; at 15:00 used, one TP moves to the opponent, one more
    # per whole minute beyond (15:59 → 1, 16:00 → 2).
    time_limit_minutes: int = setting(15, minimum=1, maximum=59)
    # Rule 12 (INTERPRETATIONS.md): the rating method. The league average a newcomer starts from.
    rating_start: float = setting(1850.0, minimum=0)
    # The spread of a rating difference (s.d. 400 per player: 400·√2 = 565.7).
    rating_spread: float = setting(565.7, minimum=1)
    # G: the weight of a rating is min(games rated so far, G); "provisoire" while fewer games.
    established_games: int = setting(36, minimum=1)
    # f = TPs / (20·games) is clipped to [clip, 1 − clip] so that Φ⁻¹ stays finite.
    score_clip: float = setting(0.01, minimum=0.0001, maximum=0.49)
    # Rule 13 and INTERPRETATIONS.md: for seeding, a provisional rating loses this much times
    # (G − games) / G.
    seeding_reduction: float = setting(200.0, minimum=0)
    # Rule 13: a player without a rating is seeded « sur la somme des rankings du lobby »: the
    # organiser types that figure in the `Elo` column of `Inscrits`. When true, a player with no
    # rated game yet is seeded by it (as typed); otherwise, and when it is blank, by the starting
    # rating reduced as any provisional rating.
    seed_unrated_from_inscrits: bool = True
    # issue 27: a PDF bulletin prints at most this many rows of an event's standings or of the
    # rating list, then one line saying where the whole list is (CSV, the HTML page, the annex), as
    # the Grand Sud's (circuits/common.py print_top). 300 prints any regional league whole.
    bulletin_rows: int = setting(300, minimum=1)
