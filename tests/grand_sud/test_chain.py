"""A Grand Sud ranking's scoring digest (scoring.py `Chain`): what its published ranking's key and its
bulletin's grid are hashed as (render/cache.py `ranking_key`, `document_key`). Never a stale CSV, site
record or bulletin for it: whenever two leagues give one ranking the same digest, whatever input
changed (a row's name, licence, club or places, a tournament's date, series or club, a setting), its
published rows and its bulletin's rows are the same. One tournament after the last leaves the earlier
rankings' digests alone; the same league gives the same digests in any process."""

import dataclasses
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import event as seen
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.circuits.common import ranking_path
from reportgen.circuits.grand_sud.documents import annex, bulletin_rows, published
from reportgen.circuits.grand_sud.parse import GrandSudRow, GrandSudTournament
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.model import Entry, Event, SourceRef
from reportgen.render import cache
from reportgen.site.public_copies import Masking
from tests.builders import CLUBS, league
from tests.grand_sud.strategies import club_days

# « ALPHA Ùn »: ALPHA Un spelled otherwise, the same player when his licence is written (his name
# as published changes, not his id)
NAMES = [("ALPHA", "Un"), ("ALPHA", "Ùn"), ("BRAVO", "Deux"), ("CHARLIE", "Trois"), ("DELTA", "Quatre")]
ORGANISERS = ["CARC", "TLSE", "MARS"]  # MARS: outside the Grand Sud's départements (hors circuit)
ROW_CLUBS = ["", "CARC", "ALBI"]
LICENCE = {"ALPHA": "111", "BRAVO": "222"}  # a licence is one player's: written on a row or not


@st.composite
def tournaments(draw):
    """Each tournament: [day, organiser, series, formula, rows], each row [last, first, licence, club,
    place duplicate], in final-place order (lists: one input of them is drawn again below)."""
    drawn = []
    for day, organiser in draw(club_days(ORGANISERS, months=6, most=5)):
        names = draw(st.lists(st.sampled_from(NAMES), min_size=1, unique_by=lambda name: name[0]))
        duplicate = draw(st.permutations(range(1, len(names) + 1)))
        rows = [[last, first, draw(st.sampled_from(["", LICENCE.get(last, "")])), draw(st.sampled_from(ROW_CLUBS)),
                 place] for (last, first), place in zip(names, duplicate)]
        drawn.append([day, organiser, draw(st.sampled_from(["", "S1"])), draw(st.sampled_from(["poules", "duplicate"])),
                      rows])
    return drawn


def events(drawn) -> list[Event]:
    """The tournaments, each workbook named by its position unless it gives its name (its date and
    club are its sheets' own, changed without renaming it); a row's final place its position, unless
    the row gives it (a sheet not sorted by place)."""
    found = []
    for number, (day, organiser, series, formula, rows, *name) in enumerate(drawn):
        club = CLUBS.find(organiser)
        label = name[0] if name else f"tournoi-{number}.xlsx"
        results = []
        for index, (last, first, licence, row_club, duplicate, *place) in enumerate(rows):
            final = place[0] if place else index + 1
            results.append(GrandSudRow(entry=Entry(licence, last, first), club=row_club, place=final,
                                       ref=SourceRef(label, "Résultats", f"B{index + 2}"),
                                       place_duplicate=duplicate if formula == "poules" else final))
        found.append(Event(label, f"Tournoi de {club.name}", day, GrandSudTournament(
            club=club, series=series or club.code, formula=formula, location=""), results))
    return found


SETTINGS = {"seeds": st.integers(0, 3), "min_counted_results": st.integers(1, 3), "min_listed_points": st.integers(0, 40),
            "played_counts_non_scoring": st.booleans(), "departements": st.sampled_from([("11", "31"), ("11", "31", "13")])}


@st.composite
def changed(draw, base):
    """The same league with one input drawn again (often to the same value), or its settings."""
    drawn = [[day, organiser, series, formula, [list(row) for row in rows]]
             for day, organiser, series, formula, rows in base]
    what = draw(st.sampled_from(["row", "tournament", "setting", "added"]))
    settings = GrandSudSettings()
    if what == "row":
        rows = drawn[draw(st.integers(0, len(drawn) - 1))][4]
        row = rows[draw(st.integers(0, len(rows) - 1))]
        field = draw(st.integers(0, 4))
        if field == 0:
            row[0], row[1] = draw(st.sampled_from(NAMES))
            row[2] = ""
        elif field == 2:
            row[2] = draw(st.sampled_from(["", LICENCE.get(row[0], "")]))
        elif field == 3:
            row[3] = draw(st.sampled_from(ROW_CLUBS))
        elif field == 4:  # another place duplicate: swapped with another row's
            other = rows[draw(st.integers(0, len(rows) - 1))]
            row[4], other[4] = other[4], row[4]
        else:  # another final place: the row moved
            rows.insert(draw(st.integers(0, len(rows) - 1)), rows.pop(rows.index(row)))
    elif what == "tournament":
        tournament = drawn[draw(st.integers(0, len(drawn) - 1))]
        field = draw(st.integers(0, 3))
        tournament[field] = draw([st.dates(dt.date(2025, 1, 1), dt.date(2026, 6, 15)), st.sampled_from(ORGANISERS),
                                  st.sampled_from(["", "S1"]), st.sampled_from(["poules", "duplicate"])][field])
    elif what == "setting":
        name = draw(st.sampled_from(sorted(SETTINGS)))
        settings = dataclasses.replace(settings, **{name: draw(SETTINGS[name])})
    else:  # one more tournament, after every other
        drawn.append([dt.date(2026, 12, 1), "CARC", "", "duplicate",
                      [[last, first, "", "", 1 + index] for index, (last, first) in enumerate(NAMES[:2])]])
    if len({(t[0], t[1]) for t in drawn}) < len(drawn) or any(len({row[0] for row in t[4]}) < len(t[4]) for t in drawn):
        return base, GrandSudSettings()  # two workbooks of a club on a day, a player twice in one
    return drawn, settings


@st.composite
def two_leagues(draw):
    base = draw(tournaments())
    return base, draw(changed(base))


def rankings(drawn, settings: GrandSudSettings = GrandSudSettings()):
    return {ranking_path(ranking, closed=True): ranking for ranking in league(events(drawn), settings)[2]}


@settings(deadline=None, max_examples=300)
@given(two_leagues())
def test_the_same_digest_means_the_same_published_ranking_and_bulletin_rows(leagues):
    first, (second, second_settings) = leagues
    before, after = rankings(first), rankings(second, second_settings)
    for path in before.keys() & after.keys():
        one, other = before[path], after[path]
        assert one.digest
        # what a chart reads of a published ranking before its rows are made (data.chart_records)
        rows = published(one, closed=True).rows
        assert [(r.rank, r.player_id, r.player) for r in rows.outline] == \
            [(r.rank, r.player_id, r.player) for r in rows], path
        if one.digest == other.digest:
            seen("same digest")  # the case that matters: its CSV, site record and bulletin taken from disk
            assert published(one, closed=True) == published(other, closed=True), path  # every field (`made_from` aside), every row's
            assert bulletin_rows(one) == bulletin_rows(other), path
            assert one.window == other.window and one.latest == other.latest and one.replaced == other.replaced
        else:
            seen("another digest")


def annexes(drawn, settings: GrandSudSettings = GrandSudSettings()):
    tournaments, points, found = league(events(drawn), settings)
    return {(season, closed): annex(season, [r for r in found if r.season == season], tournaments, points, closed)
            for season in {r.season for r in found} for closed in (True, False)}


@settings(deadline=None, max_examples=200)
@given(two_leagues())
def test_the_same_annex_key_means_the_same_annex(leagues):
    """A season's annex keyed by its rankings' digests and its points table in place of its two large
    sheets' rows (cache.annex_key): whenever two leagues give it the same key, whatever input changed,
    every sheet of it is the same, its rows made."""
    first, (second, second_settings) = leagues
    before, after = annexes(first), annexes(second, second_settings)
    for season in before.keys() & after.keys():  # each season's annex, closed and not
        one, other = before[season], after[season]
        assert one.made_from is not None and one.made_from.value is one.sheets
        if cache.annex_key(one) == cache.annex_key(other):
            seen("same annex key")
            assert [(s.name, s.columns, list(s.rows)) for s in one.sheets] == \
                [(s.name, s.columns, list(s.rows)) for s in other.sheets], season
        else:
            seen("another annex key")


def test_a_result_s_cell_moved_changes_the_annex_key_alone():
    """A title row inserted above a workbook's results: every result read one row lower. The
    rankings read the same (their digests stay), but the annex's « Source » column names the new
    cells: its points table's digest (scoring/digests.py `frame_digest`) changes its key."""
    def lowered(event):
        return dataclasses.replace(event, results=[
            dataclasses.replace(row, ref=dataclasses.replace(row.ref, cell=f"B{int(row.ref.cell[1:]) + 1}"))
            for row in event.results])

    def season_annex(found_events):
        tournaments, points, found = league(found_events)
        return found, annex(2026, [r for r in found if r.season == 2026], tournaments, points)

    base = events(BASE)
    before, one = season_annex(base)
    after, other = season_annex([*base[:2], lowered(base[2])])
    assert [r.digest for r in before] == [r.digest for r in after]
    assert cache.annex_key(one) != cache.annex_key(other)
    sources = [[row[-1] for row in annex_.sheets[2].rows] for annex_ in (one, other)]
    assert sources[0] != sources[1] and "feuille « Résultats », cellule B3" in " ".join(sources[1])


BASE = [[dt.date(2025, 11, 8), "CARC", "", "duplicate", [["DELTA", "Quatre", "", "", 1], ["CHARLIE", "Trois", "", "", 2]]],
        [dt.date(2026, 1, 10), "CARC", "", "poules", [["ALPHA", "Un", "111", "ALBI", 2], ["BRAVO", "Deux", "222", "", 1],
                                                       ["CHARLIE", "Trois", "", "", 3]]],
        [dt.date(2026, 2, 7), "TLSE", "", "duplicate", [["BRAVO", "Deux", "", "CARC", 1], ["ALPHA", "Un", "111", "", 2]]]]


def _set(tournament: int, row: int | None, field: int, value: object):
    def change(drawn):
        (drawn[tournament][4][row] if row is not None else drawn[tournament])[field] = value
    return change


def _swap_rows(drawn):
    rows = drawn[1][4]
    rows[0], rows[1] = rows[1], rows[0]


def _swap_places(drawn):  # the rows where they were, their final places swapped (not their duplicate's)
    first, second = drawn[1][4][:2]
    first.append(2)
    second.append(1)


def _renamed(drawn):  # the same workbook under another name: its results name another tournament
    drawn[2].append("renomme.xlsx")


def _no_licence(drawn):  # ALPHA Un's licence written nowhere: another player id
    drawn[1][4][0][2] = drawn[2][4][1][2] = ""


INPUTS = {  # each input a ranking reads, changed so that the 2026 final ranking as published changes
    "a row's place duplicate": _set(1, 0, 4, 3), "a row's final place": _swap_places, "the rows' order": _swap_rows,
    "a row's club": _set(2, 0, 3, "ALBI"), "a player's licence (his id)": _no_licence,
    "a licensed player's spelling": _set(2, 1, 1, "Ùn"),
    "a tournament's date": _set(2, None, 0, dt.date(2025, 12, 6)), "a tournament's organiser": _set(2, None, 1, "MARS"),
    "a tournament's series": _set(2, None, 2, "CARC"), "a workbook's name": _renamed, "a tournament's formula": _set(1, None, 3, "duplicate"),
}


def test_each_input_a_ranking_reads_changes_its_digest():
    """What the property above draws, each input once: dropped from `Chain`, the results (their
    points, names, clubs), the tournaments' names and series, or the settings, fail here. A
    tournament's date, whether it counts and the players' ids are read too; here each also changes
    what is read after it (the day of a ranking, a name, a licence), and they stay: a club's
    départements or a merge in joueurs.xlsx change them alone."""
    def final(drawn, settings=GrandSudSettings()):
        return rankings(drawn, settings)["2026/classement-final-2026"]

    before = final(BASE)
    for name, change in INPUTS.items():
        drawn = [[day, organiser, series, formula, [list(row) for row in rows]]
                 for day, organiser, series, formula, rows in BASE]
        change(drawn)
        after = final(drawn)
        assert published(after, closed=True) != published(before, closed=True), name  # the input matters
        assert after.digest != before.digest, name
    # (`played_counts_non_scoring` changes nothing here: every result scores; the settings are read whole)
    for name, value in {"seeds": 0, "min_counted_results": 2, "min_listed_points": 500, "departements": ("11",)}.items():
        after = final(BASE, dataclasses.replace(GrandSudSettings(), **{name: value}))
        assert published(after, closed=True) != published(before, closed=True), name
        assert after.digest != before.digest, name


def test_a_later_tournament_leaves_the_earlier_rankings_keys_alone():
    base = [[dt.date(2026, 1, 10), "CARC", "", "duplicate", [["ALPHA", "Un", "", "", 1], ["BRAVO", "Deux", "", "", 2]]],
            [dt.date(2026, 2, 7), "TLSE", "", "duplicate", [["BRAVO", "Deux", "", "", 1], ["CHARLIE", "Trois", "", "", 2]]]]
    later = [*base, [dt.date(2026, 3, 1), "CARC", "S1", "duplicate", [["CHARLIE", "Trois", "", "", 1]]]]
    before, after = rankings(base), rankings(later)
    kept = {path for path in before if cache.ranking_key(published(before[path], closed=True)) == cache.ranking_key(
        published(after[path], closed=True))}
    assert kept == {"2026/classement-2026-01-10", "2026/classement-2026-02-07"}  # not the final one
    assert {path for path in before if before[path].digest == after[path].digest} == kept


def test_a_ranking_is_keyed_by_its_digest_and_a_public_copy_by_its_rows():
    drawn = [[dt.date(2026, 1, 10), "CARC", "", "duplicate", [["ALPHA", "Un", "", "", 1], ["BRAVO", "Deux", "", "", 2]]]]
    whole = published(rankings(drawn)["2026/classement-2026-01-10"], closed=False)
    assert whole.made_from is not None and whole.made_from.value is whole.rows
    by_rows = dataclasses.replace(whole, made_from=None)
    assert cache.ranking_key(whole) != cache.ranking_key(by_rows)  # the two kinds of key never meet
    copy = Masking({"ALPHA Un": "joueur non publié"}).ranking(whole)
    assert copy is not None and copy.made_from is whole.made_from  # passed through, not masked
    assert cache.ranking_key(copy) == cache.ranking_key(dataclasses.replace(copy, made_from=None))
    assert cache.ranking_key(copy) != cache.ranking_key(dataclasses.replace(whole, path=copy.path))


ROOT = Path(__file__).resolve().parents[2]  # where `tests` is imported from
DIGESTS = """
import datetime as dt
from tests.grand_sud.test_chain import rankings
drawn = [[dt.date(2025, 11, 8), "TLSE", "", "poules", [["ALPHA", "Un", "111", "ALBI", 2], ["BRAVO", "Deux", "", "", 1]]],
         [dt.date(2026, 1, 10), "CARC", "", "duplicate", [["BRAVO", "Deux", "", "CARC", 1], ["DELTA", "Quatre", "", "", 2]]]]
print(sorted((path, ranking.digest) for path, ranking in rankings(drawn).items()))
"""


def test_the_same_league_gives_the_same_digests_in_any_process():
    """Nothing in a digest depends on the process's string hashing (no set pickled)."""
    found = {subprocess.run([sys.executable, "-c", DIGESTS], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT).stdout for seed in ("1", "2", "3")}
    assert len(found) == 1 and "classement-2026-01-10" in found.pop()
