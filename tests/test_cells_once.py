"""What reading a cell now works out once gives what working it out each time gave: a text
cell's cleaned text and a label's normalised form (kept by text, bounded), a text cell as shown in
messages, a place typed as text read once, a totals row looked for among texts only, a cell's name
from its column's letters made once."""

import datetime as dt
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reportgen.ingest.tables import LAST_NAME, PLACE, find_table
from reportgen.ingest.text import Unprintable, clean_spaces, clean_text, normalise_label, strip_accents
from reportgen.ingest.values import _PLACE, BadValue, is_empty, place, shown, text, whole_number
from reportgen.ingest.workbook import Sheet, Workbook
from reportgen.model import cell_name

# Spaces of every kind, typographic dashes and apostrophes, control characters, accents.
TEXTS = st.text(alphabet=" \u00a0\u2009\t\n–—’'-aéÉz1\x00\x1b\u200b\ufb01", max_size=12)


def old_shown(value: object) -> str:
    if isinstance(value, bool):
        return "VRAI" if value else "FAUX"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() != dt.time():
        return value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, (dt.datetime, dt.date)):
        return value.strftime("%d/%m/%Y")
    return clean_text(str(value)).strip()


def old_text(value: object) -> str:
    if is_empty(value):
        return ""
    return clean_spaces(old_shown(value))


@given(TEXTS)
def test_a_text_cell_reads_as_it_did_the_first_time_and_the_next(value):
    assert text(value) == old_text(value)
    assert text(value) == old_text(value)  # the second time from the cache
    assert shown(value) == old_shown(value)


def test_other_cells_take_the_general_way():
    assert text(Unprintable()) == "" and not is_empty(Unprintable())
    assert [text(value) for value in (12345, 12345.0, 1.5, dt.date(2026, 3, 14))] == \
        ["12345", "12345", "1.5", "14/03/2026"]


def test_a_cell_is_named_by_its_column_letters_and_row_wherever_it_is():
    workbook = Workbook(Path("t.xlsx"), "t.xlsx", [])
    for row, col in ((0, 0), (6, 1), (99, 25), (9, 26), (0, 63), (0, 64), (4, 701), (4, 702)):
        assert workbook.ref(None, row, col).cell == cell_name(row, col)
    assert workbook.ref(None, 6, 1).cell == "B7" and workbook.ref(None, 0, 702).cell == "AAA1"


def test_a_label_is_the_same_whether_normalised_before_or_not_and_whatever_the_type():
    """Texts are normalised once and kept: a number or a yes/no cell is never given the entry of
    a text, nor of another number that hashes alike (1, 1.0 and True)."""
    assert [normalise_label(value) for value in (True, 1, 1.0, "1", "True")] == ["true", "1", "1 0", "1", "true"]
    assert [normalise_label(value) for value in ("True", "1", 1.0, 1, True)] == ["true", "1", "1 0", "1", "true"]
    assert normalise_label("Prénom :") == normalise_label("Prénom :") == "prenom"


def test_a_totals_row_is_set_aside_whatever_its_first_cell_and_numbers_never_are():
    rows = [["Place", "Nom"], [1.0, "A"], ["2e", "B"], [3, "C"], [Unprintable(), "D"],
            ["Tôtal :", 4], ["", "TOTAL"], [True, "E"]]
    sheet = Sheet("Résultats", rows)
    table = find_table(Workbook(Path("t.xlsx"), "t.xlsx", [sheet]), sheet, [PLACE, LAST_NAME])
    assert table is not None and table.rows == [1, 2, 3, 4, 7]


def old_place(value: object) -> tuple[int, bool]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number, tied = whole_number(value), False
    else:
        match = _PLACE.match(strip_accents(str(value)).strip().casefold())
        if not match:
            raise BadValue(f"« {old_shown(value)} » n’est pas une place",
                           "écrivez un nombre : 1, 2, 3… (ou 1er, 2e, 3 ex)")
        number, tied = int(match["n"]), bool(match["tie1"] or match["tie2"])
    if number < 1:
        raise BadValue(f"la place {number} n’existe pas", "les places commencent à 1")
    return number, tied


def outcome(read, value):
    try:
        return read(value)
    except BadValue as bad:
        return ("refusé", bad.message, bad.fix)


PLACES = st.one_of(st.text(alphabet="0123 =erèeEmixaquoé.-\u00a0", max_size=8),
                   st.sampled_from(["1er", "2e", "3ème", "=4", "5 ex aequo", "0", "1re", "X"]),
                   st.integers(min_value=-2, max_value=300), st.booleans(),
                   st.just(dt.date(2026, 3, 14)))


@given(PLACES)
def test_a_place_reads_as_it_did_the_first_time_and_the_next(value):
    assert outcome(place, value) == outcome(old_place, value)
    assert outcome(place, value) == outcome(old_place, value)  # the second time from the cache
