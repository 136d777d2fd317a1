"""Grand Sud settings: every reading of a gap in the regulation is one, defaults from INTERPRETATIONS.md."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportgen.circuits.grand_sud.tables import MAX_SEEDS
from reportgen.config import setting

# §1: "départements : 09, 11, 12, 30, 31, 32, 34, 46, 48, 65, 66, 81, 82"
GRAND_SUD_DEPARTEMENTS = ("09", "11", "12", "30", "31", "32", "34", "46", "48", "65", "66", "81", "82")
# As the club directory writes them (ingest/directories.py): 09, 31, 2A, 971.
_DEPARTEMENT = re.compile(r"^(?:\d{2,3}|2A|2B)$")


def departement_codes(codes: tuple[str, ...]) -> str | None:
    wrong = [code for code in codes if not _DEPARTEMENT.match(code)]
    if wrong:
        return (f"« {wrong[0]} » n’est pas un numéro de département tel que l’annuaire des clubs l’écrit "
                "(deux chiffres comme « 09 », trois pour l’outre-mer, « 2A » ou « 2B »)")
    return None


@dataclass(frozen=True)
class GrandSudSettings:
    # §1: the clubs whose tournaments count, by département.
    departements: tuple[str, ...] = setting(GRAND_SUD_DEPARTEMENTS, min_length=1, check=departement_codes)
    # §1: "Les 16 premiers joueurs d'un classement forment les têtes de série". INTERPRETATIONS:
    # with ties at the last seed place everyone ranked within it is a seed, the count capped at 16.
    # §2.1's tables have a column for 0 to 16 seeds present: no more can be scored.
    seeds: int = setting(16, minimum=0, maximum=MAX_SEEDS)
    # §3: best ⌊T/2⌋ results. INTERPRETATIONS: at least 1, or nobody is ranked after the first
    # tournament.
    min_counted_results: int = setting(1, minimum=1)
    # §1 tie-break "le moins de tournois": INTERPRETATIONS counts every tournament of the window the
    # player took part in, scoring or not. False counts only the results that earned points.
    played_counts_non_scoring: bool = True
    # INTERPRETATIONS, "Who is listed": players with more than 0 points. 0 lists every player.
    min_listed_points: int = setting(1, minimum=0)
    # issue 27: a PDF bulletin prints at most this many rows of its ranking, then one line saying
    # where the whole ranking is (CSV, the HTML page, the annex): a federation's ranking of thousands
    # of players is hundreds of pages. 300 prints any regional league whole.
    bulletin_rows: int = setting(300, minimum=1)
    # issue 27, tenth round: a PDF bulletin whose window counts more tournaments than this prints, in
    # place of a column per tournament, one column « Résultats retenus » (each counted result's club
    # code and points), then a line saying where the grid is (the HTML page, the annex). The
    # regulation says nothing of a bulletin's layout: this is the team's reading, made a setting, as
    # `bulletin_rows`. A window has at most one column per club's series: 30 prints the grid of the
    # example league and of a regional league of 30 clubs, as before.
    bulletin_columns: int = setting(30, minimum=1)
    # issue 27, tenth round: a PDF bulletin whose table of tournaments (years N−1 and N: the counted
    # ones, the editions they replaced, those outside the circuit) is longer than this lists the
    # counted tournaments only, then a line saying where the others are (the HTML page, the annex's
    # « Tournois » sheet), without the sentences on each same-year replacement. The regulation says
    # nothing of a bulletin's layout: the team's reading, made a setting, as `bulletin_rows`. 300
    # prints the example league's table (about 30 rows) whole; a federation whose clubs hold twenty
    # tournaments a year lists 4,000, 430 of its bulletin's 447 pages.
    bulletin_tournaments: int = setting(300, minimum=1)
