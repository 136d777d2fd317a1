"""A results table's cell read at once when nothing can refuse it before its parse
(`Table.read`'s quick way) gives what `read_cell` gives: the same value, the same located
problems, for every kind of cell, in sheets with and without formulas saved without a value; a
whole column read in one loop (`Table.read_all`) gives what reading each cell gives, and the Grand
Sud's sheets read so give the rows and problems that reading them row by row gives."""

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.circuits.grand_sud import parse as gs_parse
from reportgen.ingest.tables import CLUB, LAST_NAME, LICENCE, PLACE, find_table
from reportgen.ingest.text import Unprintable
from reportgen.ingest.values import place, read_cell, text, whole_number
from reportgen.ingest.workbook import Sheet, Workbook

CELLS = st.one_of(st.sampled_from(["", " ", "\u00a0", "1er", "2e", "=3", "3 ex", "abc", " 12 ", "total", "-1",
                                   "0", "1.5", Unprintable(), None, True, False]),
                  st.integers(-3, 40), st.floats(-2, 40, allow_nan=False), st.dates(dt.date(2020, 1, 1)),
                  st.text(max_size=6))
PARSERS = [place, text, whole_number]


@given(st.lists(st.tuples(CELLS, CELLS), min_size=1, max_size=8), st.booleans(), st.sampled_from(PARSERS),
       st.booleans())
def test_a_cell_reads_as_read_cell_reads_it(rows, formulas, parse, required):
    sheet = Sheet("Résultats", [["Place", "Licence"], *[list(row) for row in rows]],
                  untrusted_formulas={"A2", "B3"} if formulas else set())
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [sheet])
    table = find_table(workbook, sheet, [PLACE, LICENCE])
    assert table is not None
    for row in table.rows:
        for key in ("place", "licence"):
            quick, general = [], []
            value = table.read(row, key, parse, quick, required)
            expected = read_cell(sheet.value(row, table.columns[key]), lambda: table.ref(row, key),
                                 sheet.untrusted_formulas, parse, general, required,
                                 (f"la case « {table.headers[key]} » est vide", "remplissez-la"))
            assert (value, type(value), quick) == (expected, type(expected), general)


@given(st.integers(0, 3), st.integers(0, 800), st.integers(0, 5000))
def test_a_tables_cell_is_located_as_the_workbook_locates_it(blank_rows, first_column, row_offset):
    """`Table.ref`, each column's letters looked up once for the table, names the cell
    `Workbook.ref` names (past column 64 and AZ too)."""
    header = [""] * first_column + ["Place", "Nom", "Licence"]
    sheet = Sheet("Résultats", [[""]] * blank_rows + [header, [""] * first_column + [1, "Dupont", "12"]])
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [sheet])
    table = find_table(workbook, sheet, [PLACE, LAST_NAME, LICENCE])
    assert table is not None
    for key in ("place", "last_name", "licence"):
        for row in (*table.rows, row_offset):
            assert table.ref(row, key) == workbook.ref(sheet, row, table.columns[key], table.headers[key])


@given(st.lists(st.tuples(CELLS, CELLS, CELLS), min_size=1, max_size=8), st.booleans(), st.sampled_from(PARSERS),
       st.booleans(), st.booleans())
def test_a_column_read_whole_is_each_cell_read_or_nothing(rows, formulas, parse, required, has_club):
    """`Table.read_all` gives each data row's `read`, and only when no `read` of the column says a
    problem (else None: the caller reads row by row); a column the table lacks reads None each."""
    header = ["Place", "Licence", "Club"] if has_club else ["Place", "Licence"]
    sheet = Sheet("Résultats", [header, *[list(row) for row in rows]],
                  untrusted_formulas={"A2", "B3"} if formulas else set())
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [sheet])
    table = find_table(workbook, sheet, [PLACE, LICENCE, CLUB])
    assert table is not None
    for key in ("place", "licence", "club"):
        problems: list = []
        each = [table.read(row, key, parse, problems, required) for row in table.rows]
        whole = table.read_all(key, parse, required)
        if whole is not None:
            assert problems == [] and [(value, type(value)) for value in whole] == [(v, type(v)) for v in each]
        else:
            assert problems or formulas or any(type(v) not in (str, int, float) and v is not None
                                               for v in (sheet.value(row, table.columns[key]) for row in table.rows))


# sheets whose every cell reads (read whole), and sheets of any cells (most of them read row by row)
NAME = st.sampled_from(["DUPONT Jean", "Jean DUPONT", "Dupont, Jean", "MARTIN", "é", "12", 12345, 7.0])
PLACE_TYPED = st.one_of(st.integers(1, 6), st.sampled_from(["1er", "2e", "3 ex", "4=", 2.0]))
READ_WHOLE = st.tuples(NAME, st.one_of(NAME, st.just("")), PLACE_TYPED, PLACE_TYPED, st.one_of(NAME, st.just("")))
ANY = st.tuples(st.one_of(NAME, CELLS), CELLS, st.one_of(PLACE_TYPED, CELLS), CELLS, CELLS)


@given(st.one_of(st.lists(READ_WHOLE, min_size=1, max_size=8), st.lists(ANY, min_size=1, max_size=8)), st.booleans(),
       st.sampled_from(["poules", "duplicate"]), st.sampled_from([False, False, False, True]))
def test_a_grand_sud_sheet_read_whole_gives_what_reading_it_row_by_row_gives(rows, one_name_column, formula,
                                                                            formulas):
    """The Grand Sud's results read column by column (`_read_whole`) when every cell reads at once,
    else row by row: the same rows and the same problems, in the same order, as row by row always."""
    names = ["Joueur", "Club"] if one_name_column else ["Nom", "Prénom"]
    sheet = Sheet(gs_parse.RESULTS_SHEET, [["Place", "Place duplicate", *names, "Licence"],
                                           *[[place, duplicate, name, other, licence]
                                             for name, other, place, duplicate, licence in rows]],
                  untrusted_formulas={"C2"} if formulas else set())
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [sheet])
    quick: list = []
    rows_read = gs_parse._results(workbook, formula, quick)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gs_parse, "_read_whole", lambda table, keys: None)
        general: list = []
        assert (rows_read, quick) == (gs_parse._results(workbook, formula, general), general)
