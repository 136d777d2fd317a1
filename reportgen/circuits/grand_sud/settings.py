"""Grand Sud settings: every reading of a gap in the regulation is one, defaults from INTERPRETATIONS.md."""

from __future__ import annotations

from dataclasses import dataclass

# §1: "départements : 09, 11, 12, 30, 31, 32, 34, 46, 48, 65, 66, 81, 82"
GRAND_SUD_DEPARTEMENTS = ("09", "11", "12", "30", "31", "32", "34", "46", "48", "65", "66", "81", "82")


@dataclass(frozen=True)
class GrandSudSettings:
    # §1: the clubs whose tournaments count, by département.
    departements: tuple[str, ...] = GRAND_SUD_DEPARTEMENTS
    # §1: "Les 16 premiers joueurs d'un classement forment les têtes de série". INTERPRETATIONS:
    # with ties at the last seed place everyone ranked within it is a seed, the count capped at 16.
    seeds: int = 16
    # §3: best ⌊T/2⌋ results. INTERPRETATIONS: at least 1, or nobody is ranked after the first
    # tournament.
    min_counted_results: int = 1
    # §1 tie-break "le moins de tournois": INTERPRETATIONS counts every tournament of the window the
    # player took part in, scoring or not. False counts only the results that earned points.
    played_counts_non_scoring: bool = True
    # INTERPRETATIONS, "Who is listed": players with more than 0 points.
    min_listed_points: int = 1
