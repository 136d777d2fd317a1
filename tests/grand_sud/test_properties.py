"""Invariants of the Grand Sud ranking, over random leagues (hypothesis)."""

import datetime as dt
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reportgen.model import Event
from tests.builders import event, league, results
from tests.grand_sud.reference import reference_rankings
from tests.grand_sud.strategies import club_days

POOL = [f"{name} Un" for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF",
                                   "HOTEL", "INDIA", "JULIETT", "KILO", "LIMA", "MIKE", "NOVEMBER")]
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
