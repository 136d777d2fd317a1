"""The probable-duplicates check (ingest/duplicates.py) takes what it needs of a league's rows at
once (numpy over the rows, each pair of a player and a club or of a licence and a name once, only
the licences typed with two names put in order), where it went through every row in Python: the
same facts, hence the same notices in the same order, as that way, kept here as the reference."""

import datetime as dt
from collections import defaultdict

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.ingest import duplicates
from reportgen.ingest.duplicates import (
    _licence_spellings,
    _players,
    players_tournament_cells,
    probable_duplicates,
    tournament_cells,
)
from reportgen.ingest.text import name_key
from reportgen.model import SourceRef

CELLS = ("event", "source_file", "source_sheet", "source_cell")


# -- the way it was, row by row ------------------------------------------------------------------

def old_players(ordered: pd.DataFrame) -> duplicates.Players:
    names, seen, clubs, licences = {}, {}, defaultdict(set), {}
    for pid, name, club, licence in zip(*(ordered[column].tolist() for column in (
            "player_id", "player", "club", "licence"))):
        names[pid] = name
        seen.setdefault(pid, len(seen))
        if club:
            clubs[pid].add(club)
        if licence:
            licences[pid] = licence
    return duplicates.Players(names, seen, clubs, licences)


def old_licence_spellings(table: pd.DataFrame, spelled: dict[str, str]):
    licensed = table[table["licence"] != ""].sort_values(["date", "source_file", "source_cell"], kind="stable")
    spellings = defaultdict(dict)
    for licence, typed, file, sheet, cell in zip(*(licensed[column].tolist() for column in (
            "licence", "typed", "source_file", "source_sheet", "source_cell"))):
        key = name_key(typed)
        spellings[licence].setdefault(spelled.get(key, key), (typed, file, sheet, cell))
    return {licence: found for licence, found in spellings.items() if len(found) > 1}


def old_tournament_cells(rows: pd.DataFrame) -> dict[str, str]:
    cells: dict[str, str] = {}
    for event, file, sheet, cell in zip(*(rows[column].tolist() for column in CELLS)):
        cells.setdefault(event, str(SourceRef(file, sheet, cell)))
    return cells


def old_players_tournament_cells(rows: pd.DataFrame) -> dict[str, dict[str, str]]:
    return {pid: old_tournament_cells(mine) for pid, mine in rows.groupby("player_id", sort=False)}


# -- generated leagues ---------------------------------------------------------------------------

# Few players, names a letter or two apart or the same words in another order, each player's rows
# in several spellings, clubs and licences (a licence typed with two names), tournaments of a day
# in several files and rows not in the order typed: every fact the check takes from the rows.
NAMES = ["MARTIN Jean", "MARTIN Jeanne", "MATIN Jean", "JEAN Martin", "MARTÍN Jean", "DURAND Léa", "DURANT Lea"]
ROW = st.fixed_dictionaries({
    "player_id": st.sampled_from(["L:1", "L:2", "N:martin jean", "N:durand lea", "N:jean martin"]),
    "player": st.sampled_from(NAMES), "typed": st.sampled_from(NAMES),
    "club": st.sampled_from(["", "Nîmes", "Alès"]), "licence": st.sampled_from(["", "", "L1", "L2", "L3"]),
    "day": st.integers(min_value=0, max_value=2), "file": st.sampled_from(["a.xlsx", "b.xlsx", "c.xlsx"]),
    "sheet": st.sampled_from(["Résultats", "Feuil1"]), "row": st.integers(min_value=2, max_value=12)})
SPELLED = st.dictionaries(st.sampled_from([name_key(name) for name in NAMES]),
                          st.sampled_from([name_key(name) for name in NAMES]), max_size=3)
DECIDED = st.sets(st.frozensets(st.sampled_from([name_key(name) for name in NAMES]), min_size=2, max_size=2),
                  max_size=2)


def table_of(rows: list[dict]) -> pd.DataFrame:
    """A circuit's results table as `normalise.results_table` makes it (its columns, not its order)."""
    return pd.DataFrame.from_records([
        {"event": f"{row['day']}-{row['file']}", "date": pd.Timestamp(dt.date(2026, 1, 3 + 7 * row["day"])),
         "player_id": row["player_id"], "player": row["player"], "typed": row["typed"], "licence": row["licence"],
         "club": row["club"], "source_file": f"{row['day']}-{row['file']}", "source_sheet": row["sheet"],
         "source_cell": f"B{row['row']}"} for row in rows],
        columns=["event", "date", "player_id", "player", "typed", "licence", "club", *CELLS[1:]])


def in_order(table: pd.DataFrame) -> pd.DataFrame:
    return table.sort_values(["date", "source_file"], kind="stable")


def test_a_missing_club_is_no_club():
    """pd.factorize's default code -1 for a missing club indexed the last club: « a » played for
    Nîmes alone and was said to have played for Alès too (a wrong « même club » notice), and a
    table with every club missing divided by zero (review). A missing club is no club, as an
    empty cell (the tables give "" today; pandas 3 turns a None into NaN)."""
    for missing in (None, float("nan")):
        ordered = pd.DataFrame({"player_id": ["a", "b", "b"], "player": ["A", "B", "B"],
                                "club": ["Nîmes", missing, "Alès"], "licence": ["", "", ""]})
        assert dict(_players(ordered).clubs) == {"a": {"Nîmes"}, "b": {"Alès"}}
    nowhere = pd.DataFrame({"player_id": ["a", "b"], "player": ["A", "B"], "club": [None, None], "licence": ["", ""]})
    assert dict(_players(nowhere).clubs) == {}


def test_a_missing_licence_is_none_as_an_empty_cell():
    """Rows whose licence is missing are no licence typed with two names (review:
    `use_na_sentinel=False` made the missing licences one licence, typed « DUPONT » and « MARTIN »)."""
    rows = [{"day": day, "file": "a", "player_id": pid, "player": name, "typed": typed, "licence": licence,
             "club": "Albi", "sheet": "Résultats", "row": 2 + day}
            for day, (pid, name, typed, licence) in enumerate([
                ("p1", "DUPONT Jean", "DUPONT Jean", None), ("p2", "MARTIN Paul", "MARTIN Paul", float("nan")),
                ("p3", "DURAND Anne", "DURAND Anne", "1003"), ("p3", "DURAND Anne", "DURAND Anne", "1003")])]
    assert dict(_licence_spellings(table_of(rows), {})) == {}


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, min_size=1, max_size=30))
def test_each_players_facts_are_those_of_the_row_by_row_loop(rows):
    """Names (the last typed, in the order of the players' first results, which is `seen`'s),
    clubs and licences (the last typed)."""
    ordered = in_order(table_of(rows))
    found, expected = _players(ordered), old_players(ordered)
    assert list(found.names.items()) == list(expected.names.items())
    assert list(found.seen.items()) == list(expected.seen.items())
    assert dict(found.clubs) == dict(expected.clubs) and found.licences == expected.licences


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, max_size=30), SPELLED)
def test_the_licences_typed_with_two_names_are_those_of_every_licensed_row_in_order(rows, spelled):
    found = _licence_spellings(table_of(rows), spelled)
    expected = old_licence_spellings(table_of(rows), spelled)
    assert [(licence, list(names.items())) for licence, names in sorted(found.items())] == \
        [(licence, list(names.items())) for licence, names in sorted(expected.items())]


@settings(max_examples=100, deadline=None)
@given(st.lists(ROW, max_size=30))
def test_the_cells_of_each_tournament_are_those_of_each_players_rows_in_turn(rows):
    ordered = in_order(table_of(rows))
    assert {pid: list(cells.items()) for pid, cells in players_tournament_cells(ordered).items()} == \
        {pid: list(cells.items()) for pid, cells in old_players_tournament_cells(ordered).items()}
    # `players merge` and `distinct` ask it of all the rows of a name, whatever their players.
    assert list(tournament_cells(ordered).items()) == list(old_tournament_cells(ordered).items())


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, max_size=30), st.lists(ROW, max_size=4), DECIDED, SPELLED)
def test_the_notices_of_a_generated_league_are_those_of_the_row_by_row_way(rows, listed_rows, decided, spelled):
    """Every notice, in its order: the pairs, then the licences (not cut after LISTED)."""
    table, listed = table_of(rows), table_of(listed_rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duplicates, "LISTED", 1000)
        found = probable_duplicates(table, decided, listed, spelled=spelled)
        for name, old in (("_players", old_players), ("_licence_spellings", old_licence_spellings),
                          ("players_tournament_cells", old_players_tournament_cells)):
            patch.setattr(duplicates, name, old)  # the old way, for reference
        expected = probable_duplicates(table, decided, listed, spelled=spelled)
    assert found == expected


def test_a_licence_typed_with_two_names_names_each_where_first_typed_in_the_order_typed():
    """Hand-checked, the rows not in the order typed: L1 is typed « DURAND Léa » in the later file
    first (B5), then « DURANT Lea » in the earlier one (B9, then B3 of the same day's later file);
    each name is said with its first cell by date and file, the earlier file first. L2, one name
    typed twice, is not asked about."""
    rows = [dict(player_id="L:1", player="DURAND Léa", typed="DURAND Léa", club="Nîmes", licence="L1", day=1,
                 file="b.xlsx", sheet="Résultats", row=5),
            dict(player_id="L:1", player="DURAND Léa", typed="DURANT Lea", club="Nîmes", licence="L1", day=1,
                 file="b.xlsx", sheet="Résultats", row=3),
            dict(player_id="L:1", player="DURAND Léa", typed="DURANT Lea", club="Nîmes", licence="L1", day=1,
                 file="a.xlsx", sheet="Résultats", row=9),
            dict(player_id="L:2", player="MARTIN Jean", typed="MARTIN Jean", club="Alès", licence="L2", day=0,
                 file="a.xlsx", sheet="Résultats", row=2),
            dict(player_id="L:2", player="MARTIN Jean", typed="MARTIN Jean", club="Alès", licence="L2", day=2,
                 file="a.xlsx", sheet="Résultats", row=4)]
    assert probable_duplicates(table_of(rows)) == [
        "la licence L1 est donnée à DURANT Lea (1-a.xlsx, feuille « Résultats », cellule B9) et à DURAND Léa "
        "(1-b.xlsx, feuille « Résultats », cellule B5) : vérifiez la licence ou le nom"]
    # Two spellings joueurs.xlsx gives one player are one name: nothing to ask.
    assert probable_duplicates(table_of(rows), spelled={name_key("DURANT Lea"): name_key("DURAND Léa")}) == []
