"""The tests' reading of Excel's data validation (tests/excel_validation.py), on rules written to a
real workbook and read back, as the template tests read them."""

import datetime as dt

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from tests.excel_validation import covering, refusals, satisfies


@pytest.fixture
def book(tmp_path):
    """A workbook with one rule of each kind on column A..G, a list of a range on H, saved and reloaded."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Saisie"
    lists = book.create_sheet("Clubs du comité")
    for row, name in enumerate(["Nom", "Albi", "Nîmes"], start=1):
        lists.cell(row, 2, name)
    rules = [
        DataValidation("whole", operator="between", formula1="1", formula2="999", allow_blank=True, sqref="A2:A10"),
        DataValidation("decimal", operator="greaterThan", formula1="0", sqref="B2:B10"),
        DataValidation("list", formula1='"poules,duplicate"', allow_blank=True, sqref="C2:C10"),
        DataValidation("date", operator="between", formula1="36526", formula2="73415", sqref="D2:D10"),
        DataValidation("textLength", operator="lessThanOrEqual", formula1="5", sqref="E2:E10"),
        DataValidation("whole", operator="notBetween", formula1="10", formula2="20", sqref="F2:F10"),
        DataValidation(None, sqref="G2:G10", prompt="Facultatif."),
        DataValidation("list", formula1="'Clubs du comité'!$B$2:$B$3", sqref="H2:H10"),
    ]
    for rule in rules:
        sheet.add_data_validation(rule)
    book.save(tmp_path / "rules.xlsx")
    return openpyxl.load_workbook(tmp_path / "rules.xlsx")


def verdict(book, coordinate, value):
    sheet = book["Saisie"]
    [rule] = covering(sheet, coordinate)
    return satisfies(rule, value, sheet)


@pytest.mark.parametrize(("cell", "value", "accepted"), [
    ("A2", 3, True), ("A2", 3.0, True), ("A2", 999, True), ("A2", 0, False), ("A2", 1000, False),
    ("A2", 2.5, False), ("A2", "3", False), ("A2", True, False), ("A2", None, True),
    ("B2", 0.5, True), ("B2", 0, False), ("B2", "1,5", False), ("B2", None, False),
    ("C2", "poules", True), ("C2", "Poules", True), ("C2", "tout en duplicate", False), ("C2", "", True),
    ("D2", dt.datetime(2026, 3, 14), True), ("D2", dt.date(1999, 12, 31), False), ("D2", "14/03/2026", False),
    ("D2", 46095, True),
    ("E2", "DUPON", True), ("E2", "DUPONT", False), ("E2", 12345, True), ("E2", 123456, False),
    ("F2", 9, True), ("F2", 15, False), ("F2", 21, True),
    ("G2", "n'importe quoi", True), ("G2", 0, True),
    ("H2", "albi", True), ("H2", "Nîmes", True), ("H2", "Nom", False), ("H2", "Toulouse", False),
])
def test_a_value_is_accepted_as_excel_would(book, cell, value, accepted):
    assert verdict(book, cell, value) is accepted


def test_a_cell_is_covered_by_the_rules_of_its_range_only(book):
    sheet = book["Saisie"]
    assert [rule.type for rule in covering(sheet, "A10")] == ["whole"]
    assert covering(sheet, "A11") == [] and covering(sheet, "A1") == []
    assert refusals(sheet, "A3", 0) == ["Saisie!A3 = 0: whole between 1 999 (stop)"]


def test_a_bound_it_cannot_evaluate_is_never_taken_for_a_pass():
    rule = DataValidation("whole", operator="between", formula1="$Z$1", formula2="10", sqref="A1")
    with pytest.raises(NotImplementedError):
        satisfies(rule, 5)
    with pytest.raises(NotImplementedError):
        satisfies(DataValidation("custom", formula1="ISNUMBER(A1)", sqref="A1"), 5)
