"""The bulletins' listing of tournaments, made once for all of them (listing.py), says for every
ranking what a listing worked out for that ranking alone says: the old way, written out here as a
reference (sort the whole history, keep years N−1 and N up to the date, work out each status)."""

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen import french
from reportgen.circuits.grand_sud.listing import Listing, replacement_line
from reportgen.circuits.grand_sud.scoring import window
from tests.builders import event, league
from tests.grand_sud.strategies import club_days

CLUBS = ["CARC", "TLSE", "ALBI", "MARS"]  # MARS: outside the Grand Sud's départements (hors circuit)
POOL = ["A Un", "B Deux", "C Trois", "D Quatre"]


@st.composite
def history(draw):
    """Tournaments over three years, some of one series twice a year (a same-year replacement)."""
    events = []
    for day, club in draw(club_days(CLUBS, (2024, 2025, 2026), most=9)):
        series = draw(st.sampled_from([None, "S1"]))
        events.append(event(day.isoformat(), club, draw(st.lists(st.sampled_from(POOL), min_size=1, unique=True)),
                            series=series))
    return events


def reference_rows(ranking, tournaments):
    """The listing of one ranking as each bulletin used to work it out."""
    _, replaced = window(list(tournaments.values()), ranking.date, ranking.final)
    until = dt.date(ranking.season, 12, 31) if ranking.final else ranking.date
    first_year = ranking.season if ranking.final else ranking.season - 1
    listed, lines = [], []
    for tournament in sorted(tournaments.values(), key=lambda t: (t.date, t.id)):
        if tournament.date > until or tournament.date.year < first_year:
            continue
        if tournament.id in ranking.window:
            status = "compté"
        elif not tournament.eligible:
            status = "hors circuit"
        elif tournament.id in replaced:
            by = tournaments[replaced[tournament.id]]
            status = f"remplacé par l’édition du {french.date_short(by.date)}"
            if by.date.year == tournament.date.year:
                status += " (même année, §1)"
                lines.append(replacement_line(tournament, by))
        else:
            continue
        listed.append((tournament.id, status, tournament.id in ranking.window))
    return listed, lines


@settings(deadline=None, max_examples=40)
@given(history())
def test_one_listing_for_every_bulletin_says_what_each_ranking_alone_would(events):
    tournaments, _, rankings = league(events)
    shared = Listing(tournaments)
    for ranking in rankings:
        rows, lines = shared.rows(ranking)
        expected, expected_lines = reference_rows(ranking, tournaments)
        assert [(row["label"], row["status"], row["counted"]) for row in rows] == \
            [(f"{tournaments[tid].event.content.club.code} {tournaments[tid].date:%d/%m}", status, counted)
             for tid, status, counted in expected]
        assert lines == expected_lines
        assert (rows, lines) == Listing(tournaments).rows(ranking)  # what is shared is what a fresh one makes


def test_a_same_year_edition_is_said_replaced_on_every_bulletin_that_lists_it():
    events = [event("2026-02-01", "CARC", ["A Un"], series="S1"), event("2026-05-01", "TLSE", ["B Deux"], series="S1"),
              event("2026-06-01", "ALBI", ["C Trois"])]
    tournaments, _, rankings = league(events)
    shared = Listing(tournaments)
    later = [r for r in rankings if r.date >= dt.date(2026, 5, 1)]
    assert len(later) == 3  # 1 May, 1 June, final
    for ranking in later:
        rows, lines = shared.rows(ranking)
        assert [row["status"] for row in rows][0] == "remplacé par l’édition du 01/05/2026 (même année, §1)"
        assert len(lines) == 1 and lines[0].startswith("« ")
