"""The probable-duplicates check finds the names a typo or two apart through the variants the
names share, now made with each pair of places cut once and kept only when two names share them
(ingest/duplicates.py): the same candidates, hence the same warnings, as the way it did it before,
kept here as the reference (leaving letters out level by level, a list for every variant)."""

import datetime as dt
from collections import defaultdict

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.ingest import duplicates
from reportgen.ingest.duplicates import CROWDED, _sharing_a_variant, _variants, probable_duplicates


def old_variants(name: str, letters: int) -> set[str]:
    found = frontier = {name}
    for _ in range(letters):
        frontier = {word[:i] + word[i + 1:] for word in frontier for i in range(len(word))}
        found = found | frontier
    return found


def old_sharing_a_variant(folded, pids, letters, crowded=None):
    buckets: dict[str, list[str]] = defaultdict(list)
    for pid in pids:
        for variant in old_variants(folded[pid], letters):
            buckets[variant].append(pid)
    shared = [group for group in buckets.values() if len(group) > 1]
    return {(a, b) for group in shared if crowded is None or len(group) <= crowded
            for i, a in enumerate(group) for b in group[i + 1:]}


# Few letters, so that names are often a letter or two apart and variants crowded.
NAMES = st.text(alphabet="abé -", max_size=10)


@given(NAMES, st.integers(min_value=1, max_value=2))
def test_a_names_variants_are_those_of_leaving_letters_out_one_by_one(name, letters):
    assert _variants(name, letters) == old_variants(name, letters)


def test_only_one_or_two_letters_left_out_are_asked_for():
    with pytest.raises(ValueError):
        _variants("martin", 3)


@given(st.lists(NAMES, max_size=25), st.integers(min_value=1, max_value=2),
       st.one_of(st.none(), st.integers(min_value=2, max_value=CROWDED)))
def test_the_candidate_pairs_are_the_old_ones(names, letters, crowded):
    folded = {f"p{n}": name for n, name in enumerate(names)}
    assert _sharing_a_variant(folded, folded, letters, crowded) == old_sharing_a_variant(folded, folded, letters, crowded)


LAST = st.text(alphabet="MARTINÉ", min_size=2, max_size=7)
FIRST = st.sampled_from(["Jean", "Jeanne", "Léa", "Lea", "Paul"])
CLUB = st.sampled_from(["", "Nîmes", "Alès", "Uzès"])
ROW = st.tuples(LAST, FIRST, CLUB, st.integers(min_value=0, max_value=3), st.sampled_from(["", "", "L1", "L2"]))


def league_table(rows: list[tuple[str, str, str, int, str]]) -> pd.DataFrame:
    """A circuit's results table as `normalise.results_table` makes it: a row per player per
    tournament, the player known by his name (no licence merges two names here)."""
    records = []
    for n, (last, first, club, tournament, licence) in enumerate(rows):
        name = f"{last} {first}"
        records.append({"event": f"t{tournament}", "date": pd.Timestamp(dt.date(2026, 1, 3 + 7 * tournament)),
                        "player_id": name.casefold(), "player": name, "typed": name, "licence": licence,
                        "club": club, "source_file": f"t{tournament}.xlsx", "source_sheet": "Résultats",
                        "source_cell": f"B{n + 2}"})
    return pd.DataFrame.from_records(records)


@settings(max_examples=60, deadline=None)
@given(st.lists(ROW, max_size=40), st.lists(ROW, max_size=5))
def test_the_warnings_of_a_generated_league_are_those_of_the_old_way(rows, listed_rows):
    """With people listed without a result too (`Event.listed`), some of them with results."""
    table, listed = league_table(rows), league_table(listed_rows)
    found = probable_duplicates(table, listed=listed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duplicates, "_sharing_a_variant", old_sharing_a_variant)  # the old way, for reference
        expected = probable_duplicates(table, listed=listed)
    assert found == expected


def test_a_generated_league_has_names_a_letter_or_two_apart_to_warn_about():
    """The generated leagues above do exercise the check: here, one letter apart in a club and two
    letters apart in the same club are both said."""
    table = league_table([("MARTIN", "Jean", "Nîmes", 0, ""), ("MARTIN", "Jeanne", "Nîmes", 1, ""),
                          ("MATIN", "Paul", "Alès", 0, ""), ("MARTIN", "Paul", "Alès", 1, "")])
    warnings = probable_duplicates(table)
    assert any("MARTIN Jean" in w and "MARTIN Jeanne" in w and "2 lettres, même club" in w for w in warnings)
    assert any("MATIN Paul" in w and "MARTIN Paul" in w and "1 lettre, même club" in w for w in warnings)
