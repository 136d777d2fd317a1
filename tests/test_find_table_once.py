"""`find_table` with each text's shown form and label made once (fourteenth round) finds the table
the cell-by-cell search found (kept below as the reference): the same header row, columns, headers
as written and data rows, whatever the cells (texts blank or not, control characters, totals rows,
numbers, dates, yes/no cells, `Unprintable`), searched twice so that the second search is served by
what the first one kept."""

import datetime as dt
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.ingest.tables import (
    CLUB,
    FIRST_NAME,
    HEADER_SEARCH_ROWS,
    LAST_NAME,
    LICENCE,
    PLACE,
    PLACE_DUPLICATE,
    PLAYER,
    find_table,
)
from reportgen.ingest.text import Unprintable, normalise_label
from reportgen.ingest.values import is_empty, shown
from reportgen.ingest.workbook import Sheet, Workbook

COLUMNS = [PLACE, PLACE_DUPLICATE, LAST_NAME, FIRST_NAME, PLAYER, LICENCE, CLUB]


def old_find_table(sheet: Sheet, columns) -> tuple | None:
    by_label: dict = {}
    for column in columns:
        for label in column.labels:
            by_label.setdefault(label, []).append(column)
    best = None
    for row in range(min(HEADER_SEARCH_ROWS, len(sheet.rows))):
        found, written = {}, {}
        for col, value in enumerate(sheet.rows[row]):
            if is_empty(value):
                continue
            typed = shown(value)
            for column in by_label.get(normalise_label(typed), ()):
                if column.key not in found:
                    found[column.key], written[column.key] = col, typed
                    break
        if found and (best is None or len(found) > len(best[1])):
            best = (row, found, written)
    if best is None:
        return None
    header_row, found, written = best
    data_rows = []
    for row in range(header_row + 1, len(sheet.rows)):
        cells = sheet.rows[row]
        if all(col >= len(cells) or is_empty(cells[col]) for col in found.values()):
            continue
        first = next(cell for cell in cells if not is_empty(cell))
        if isinstance(first, str) and normalise_label(shown(first)).startswith("total"):
            continue
        data_rows.append(row)
    return header_row, found, written, data_rows


HEADERS = ["Place", "Clt.", "PLACE DUPLICATE", " Nom ", "Prénom :", "Joueur", "Licence n°", "Club", "Rang",
           "Total", "TOTAUX", " total général", "Nom\x00", "Cl\u200bub"]
CELLS = st.one_of(st.sampled_from(HEADERS), st.sampled_from(["", " ", "\u00a0", "\t", "DUPONT", "1er"]),
                  st.text(alphabet=" aéT\x1b\u200b", max_size=6), st.integers(0, 40), st.floats(0, 40),
                  st.booleans(), st.none(), st.just(dt.date(2026, 3, 14)), st.just(Unprintable()))


@settings(max_examples=300)
@given(st.lists(st.lists(CELLS, max_size=8), max_size=12))
def test_the_table_found_is_the_one_the_cell_by_cell_search_found(rows):
    sheet = Sheet("Résultats", rows)
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [sheet])
    for _ in range(2):
        table = find_table(workbook, sheet, COLUMNS)
        found = None if table is None else (table.header_row, table.columns, table.headers, table.rows)
        assert found == old_find_table(sheet, COLUMNS)


def test_a_totals_row_and_a_header_written_oddly():
    sheet = Sheet("Résultats", [["Classement provisoire"], [" Clt. ", "NOM", "prénom", "Club"], [1, "DUPONT", "Jean", "CARC"],
                                ["", "", ""], [Unprintable(), "MARTIN", "Luc"], [" Total général ", 2]])
    table = find_table(Workbook(Path("t.xlsx"), "t.xlsx", [sheet]), sheet, COLUMNS)
    assert (table.header_row, table.headers["place"], table.rows) == (1, "Clt.", [2, 4])


def test_no_column_is_named_by_a_number_or_a_date():
    """`find_table` passes over the numbers and dates of the rows it searches for a header: every
    column's header and aliases, in every circuit, have a letter once normalised."""
    import gc

    from reportgen import circuits
    from reportgen.ingest.tables import Column

    for slug in circuits.CIRCUITS:
        circuits.REGISTRY[slug]  # each circuit's modules imported, their columns with them
    columns = [item for item in gc.get_objects() if isinstance(item, Column)]
    assert len(columns) > len(COLUMNS)
    for column in columns:
        assert all(any(char.isalpha() for char in label) for label in column.labels), column
