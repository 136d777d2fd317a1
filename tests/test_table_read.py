"""A results table's cell read at once when nothing can refuse it before its parse
(`Table.read`'s quick way) gives what `read_cell` gives: the same value, the same located
problems, for every kind of cell, in sheets with and without formulas saved without a value."""

import datetime as dt
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reportgen.ingest.tables import LAST_NAME, LICENCE, PLACE, find_table
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
