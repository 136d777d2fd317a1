"""The reviewed golden standings of the Masters and the Tour de France, checked against naive
reference implementations written from the regulations (tests/masters/reference.py,
tests/tour_de_france/reference.py) that read the example workbooks themselves: a wrong golden file
can no longer be "reviewed" into the suite. And the golden files' own guard: never rewritten on CI."""

import datetime as dt
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from tests.masters import reference as reference_masters
from tests.tour_de_france import reference as reference_tour_de_france

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "examples" / "league"
GOLDEN = ROOT / "tests" / "golden"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def as_golden_number(value: Fraction) -> int | float:
    """The golden files' precision: whole points as integers, shares to the hundredth."""
    return value.numerator if value.denominator == 1 else round(float(value), 2)


# --- Tour de France -------------------------------------------------------------------------------

def test_the_tour_de_france_scale_gives_the_regulations_own_examples():
    """Regulation 004, « Comment sont marqués les points ? »: 19 participants -> 1143, 100 -> 1816,
    under 7 no count; 17 players: 4th 556, 7th 300, 17th 27 (a virtual 18th at 0), gaps larger first;
    « Comment les points des différentes étapes s'additionnent-ils ? »: 360, 140, 30 -> 515 and
    360, 190, 140, 30 -> 705. The reference must reproduce the text before it judges a golden file."""
    ref = reference_tour_de_france
    assert [ref.tournament_value(n) for n in (6, 7, 14, 19, 84, 100)] == [None, 700, 1000, 1143, 1800, 1816]
    scale = ref.points_by_place(ref.tournament_value(17), 17)
    assert scale[:7] == [1086, 869, 695, 556, 470, 385, 300] and scale[-1] == 27
    assert [a - b for a, b in zip(scale[6:], scale[7:] + [0])] == [28, 28, 28] + [27] * 8
    assert ref.season_total([Fraction(30), Fraction(360), Fraction(140)]) == 515
    assert ref.season_total([Fraction(v) for v in (360, 190, 140, 30)]) == 705


def test_the_tour_de_france_2005_golden_agrees_with_the_naive_reference():
    """Every row of tests/golden/tour-de-france/standings-season-2005.json (rank, player, points to
    the golden's precision, tournaments played, evolution) equals the ranking the reference computes
    from inputs/tour-de-france/ with regulation 004: tournament value from the physical participants
    (under 7: no count), points by place over the ranked players (excluded players dropped, the places
    below moving up; 80 % steps, four quarters, 300 for the first of the second quarter, straight lines
    with the larger gaps first), ex aequo sharing the places they cover, the season total with the
    worst of three or more results at 50 % (INTERPRETATIONS.md), equal totals sharing a place.
    Evolution: the place in the ranking after the previous date minus the place now (+ is a gain)."""
    expected = golden("tour-de-france/standings-season-2005.json")
    tournaments = reference_tour_de_france.read_tournaments(INPUTS / "tour-de-france")
    assert len(tournaments) == 18 and any(not t.counts for t in tournaments)
    assert any(r.excluded for t in tournaments for r in t.results)
    dates = sorted({t.date for t in tournaments if t.date.year == 2005})
    final = reference_tour_de_france.season_ranking(tournaments, 2005, dates[-1])
    before = reference_tour_de_france.season_ranking(tournaments, 2005, dates[-2])

    def evolution(key, line):
        if key not in before:
            return "nouveau"
        moved = before[key].rank - line.rank
        return f"{moved:+d}" if moved else "0"

    mine = sorted((line.rank, line.player, as_golden_number(line.points), line.played, evolution(key, line))
                  for key, line in final.items())
    rows = expected["rows"]
    theirs = sorted((r["rank"], r["player"], r["points"], r["played"], r["evolution"]) for r in rows)
    assert (expected["season"], expected["date"], expected["final"]) == (2005, dates[-1].isoformat(), True)
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)  # listed best first
    assert theirs == mine


# --- Masters ----------------------------------------------------------------------------------------

def test_the_masters_2026_golden_agrees_with_the_naive_reference():
    """Every row and column of tests/golden/masters/standings-final-2026.json equals what the
    reference computes from inputs/masters/masters-2026.xlsx. Regulation 000, « Règlement Tournoi
    Masters de fin de saison »: §1 participants (the first 16 of the final Grand Sud ranking — the
    reviewed golden one — who did not withdraw, the 17th stepping in), §2 every typed pairing is the
    schedule's for its match and table, §1 points (win 2, draw 1, top-top draw 2 each), tops, defense
    (opponents' scores, less is better), attack (own scores), head-to-head re-applied to smaller
    groups still level (INTERPRETATIONS.md), the annual ranking, a barrage only for first place."""
    expected = golden("masters/standings-final-2026.json")
    annual = golden("grand-sud/standings-final-2026.json")
    assert annual["final"] and annual["season"] == 2026
    masters = reference_masters.read_masters(INPUTS / "masters" / "masters-2026.xlsx", annual["rows"])
    assert masters.matches_complete == 15 and {p.played for p in masters.players.values()} == {15}
    assert (expected["season"], expected["date"], expected["final"]) == (
        masters.season, masters.date.isoformat(), True)
    assert expected["rows"] == reference_masters.standings(masters, final=True)


def test_the_masters_reference_reapplies_the_head_to_head_to_a_smaller_group_still_level():
    """INTERPRETATIONS.md (masters): four players level on points, tops, defense and attack; against
    each other 1 and 2 made 4 points, 3 and 4 made 2; then 1 beat 2 and 3 beat 4. Re-applied, the
    head-to-head orders all four (1, 2, 3, 4); applied once, {1, 2} and {3, 4} would go to the annual
    ranking. The example Masters has only a two-player tie, where both readings agree, so this pins
    the reference's reading on its own."""
    players = {n: reference_masters.Player(n, f"P{n}", "", "", annual_rank=10 - n) for n in (1, 2, 3, 4)}
    for winner, loser in ((1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (4, 1)):
        players[winner].earned[loser] = reference_masters.WIN
        players[loser].earned[winner] = reference_masters.LOSS
    for player in players.values():
        player.points, player.tops, player.defense, player.attack, player.played = 20, 50, 80, 90, 15
    blocks = reference_masters.head_to_head(list(players.values()))
    assert [[p.number for p in block] for block in blocks] == [[1], [2], [3], [4]]
    masters = reference_masters.Masters(2026, dt.date(2026, 11, 28), players, 15)
    assert [row["number"] for row in reference_masters.standings(masters)] == [1, 2, 3, 4]


# --- The golden files' guard ---------------------------------------------------------------------

def import_golden(**variables: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "REPORTGEN_UPDATE_GOLDEN")} | variables
    return subprocess.run([sys.executable, "-c", "import tests.golden"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_updating_the_golden_files_is_refused_on_ci():
    """tests/golden.py: REPORTGEN_UPDATE_GOLDEN=1 with CI set fails at import, with the reason;
    either one alone is accepted (a developer updates, a CI run compares)."""
    refused = import_golden(CI="true", REPORTGEN_UPDATE_GOLDEN="1")
    assert refused.returncode != 0
    assert "REPORTGEN_UPDATE_GOLDEN=1 is refused when CI is set" in refused.stderr
    assert import_golden(CI="true").returncode == 0
    assert import_golden(REPORTGEN_UPDATE_GOLDEN="1").returncode == 0
    assert import_golden(CI="", REPORTGEN_UPDATE_GOLDEN="1").returncode == 0
