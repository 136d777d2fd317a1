"""Invariants of the Grand Sud ranking, over random leagues (hypothesis)."""

import datetime as dt
import random

from hypothesis import assume, given, settings
from hypothesis import event as seen
from hypothesis import strategies as st

from reportgen import french
from reportgen.circuits.club_sections import counted_results
from reportgen.circuits.grand_sud.documents import published
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.model import Event
from reportgen.site import data
from tests.builders import event, league, players, results
from tests.grand_sud.reference import reference_rankings
from tests.grand_sud.strategies import club_days

POOL = [f"{name} Un" for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF",
                                   "HOTEL", "INDIA", "JULIETT", "KILO", "LIMA", "MIKE", "NOVEMBER")]
LARGE_POOL = players(40)
CLUBS = ["CARC", "TLSE", "ALBI", "MTPL", "PERP", "NIME", "MARS"]


@st.composite
def tournaments(draw, years=(2025, 2026)):
    events = []
    for day, club in draw(club_days(CLUBS, years, months=4)):
        field = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=len(POOL), unique=True))
        formula = draw(st.sampled_from(["poules", "duplicate"]))
        duplicate = draw(st.permutations(range(1, len(field) + 1))) if formula == "poules" else None
        events.append(event(day.isoformat(), club, field, formula, list(duplicate) if duplicate else None))
    return events


def shuffled(events: list[Event], seed: int) -> list[Event]:
    rng = random.Random(seed)
    copies = []
    for original in events:
        rows = list(original.results)
        rng.shuffle(rows)
        copies.append(Event(original.id, original.name, original.date, original.content, rows))
    rng.shuffle(copies)
    return copies


def table(rankings):
    return [(r.season, r.date, r.final, [(row.rank, row.player_id, row.total, row.played) for row in r.rows])
            for r in rankings]


@settings(deadline=None)
@given(tournaments(), st.integers(0, 10**6))
def test_shuffling_rows_or_files_changes_nothing(events, seed):
    assert table(league(events)[2]) == table(league(shuffled(events, seed))[2])


@settings(deadline=None)
@given(tournaments())
def test_a_total_never_exceeds_the_sum_of_results_and_equals_it_within_the_counted_number(events):
    _, _, rankings = league(events)
    for ranking in rankings:
        for row in ranking.rows:
            all_points = sum(row.points.values())
            assert row.total <= all_points
            if row.played <= ranking.counted_results:
                assert row.total == all_points
            assert row.total == sum(sorted(row.points.values(), reverse=True)[:ranking.counted_results])


@settings(deadline=None)
@given(tournaments(years=(2026,)), st.lists(st.sampled_from(POOL), min_size=1, max_size=8, unique=True),
       st.booleans())
def test_adding_a_latest_tournament_of_a_new_series_in_the_same_year_never_lowers_a_total(events, field, same_day):
    last = max(e.date for e in events)
    day = last if same_day else last + dt.timedelta(days=7)
    newcomer = event(day.isoformat(), "CARC", field, series="NOUVELLE-SERIE")
    newcomer.id = "zz-nouveau.xlsx"
    dated = [r for r in league(events)[2] if not r.final]
    assume(dated)  # at least one Grand Sud tournament before the new one
    before = dated[-1]
    after = [r for r in league(events + [newcomer])[2] if not r.final][-1]
    totals = {row.player_id: row.total for row in after.rows}
    for row in before.rows:
        assert totals.get(row.player_id, 0) >= row.total


@settings(deadline=None)
@given(tournaments())
def test_ranks_are_competition_ranks(events):
    for ranking in league(events)[2]:
        keys = [(-row.total, row.played, -row.best) for row in ranking.rows]
        assert keys == sorted(keys)
        for index, row in enumerate(ranking.rows):
            assert row.rank == 1 + sum(1 for key in keys if key < keys[index])
            assert row.tied == (keys.count(keys[index]) > 1)


def as_published(rankings):
    return [(r.season, r.date, r.final, sorted((row.rank, row.player_id, row.total) for row in r.rows)) for r in rankings]


@settings(deadline=None)
@given(tournaments())
def test_the_ranking_agrees_with_a_naive_reference_implementation(events):
    assert as_published(league(events)[2]) == reference_rankings(results(events), events)


@st.composite
def large_tournaments(draw):
    """Tournaments of up to 40 players: from the 33rd place, a result of 0 points (§2.1's tables
    stop at 32 places), which may be among the best ⌊T/2⌋ a player's total counts."""
    events = []
    for day, club in draw(club_days(CLUBS, (2026,), months=4, most=5)):
        field = draw(st.permutations(LARGE_POOL))[:draw(st.sampled_from([3, 12, 33, 36, 40]))]
        events.append(event(day.isoformat(), club, field))
    return events


@settings(deadline=None)
@given(st.one_of(tournaments(), large_tournaments()), st.integers(1, 3))
def test_what_the_site_and_a_club_s_bulletin_say_counted_is_what_the_scoring_counted(events, least):
    """Each result a player's page marks « oui » or « non » (site.json's `results`), and the sum a
    club's bulletin writes (« 580 + 340 + 0 »), are those the scoring counted (`Row.counted`): a 0
    among his best ⌊T/2⌋ counts, and of equal points the one the scoring kept, never a prefix of
    them adding up to his total (a trailing 0 read as not counted, reviewer, 43rd round)."""
    settings_ = GrandSudSettings(min_counted_results=least)
    for ranking in league(events, settings_)[2]:
        shown = published(ranking, closed=True)
        record = data.ranking_record(shown, {})
        for scored, row, line in zip(ranking.rows, shown.rows, record["rows"], strict=True):
            marks = {record["events"][index]: counted for _, counted, index in line["results"]}
            assert marks == {event: event in scored.counted for event in scored.points}, (ranking.date, row.player)
            assert sum(points for points, counts in zip(row.results, row.counts) if counts) == scored.total
            assert counted_results(row) == " + ".join(french.points(scored.points[e]) for e in row.events
                                                      if e in scored.counted)
            zeros = [e for e in scored.counted if scored.points[e] == 0]
            seen("a 0 that counts" if zeros else "no 0 that counts")
            if len(set(scored.points.values())) < len(scored.points):
                seen("equal points")
