"""Excel's data validation applied to a value, for the tests of the workbooks reportgen writes for
people to type into (`reportgen template`, `masters prepare`, `poules next`).

What Excel checks when a value is typed into a cell with a `DataValidation` (openpyxl's reading of
the file's <dataValidation>):
- `allow_blank` (« Ignorer si vide »): an empty cell passes;
- `whole`: a number with no decimals (a date is a number to Excel: its serial); `decimal`: any number;
  `date` and `time`: a number too (a date's serial, a time's fraction of a day), never text;
  `textLength`: the length of the value as text; each compared to `formula1` (and `formula2`) by
  `operator` (`between` when none is written);
- `list`: one of the items, compared ignoring case as Excel does: a quoted comma-separated list
  (`"a,b"`) or a range of the workbook (`Clubs!$A$2:$A$8`, `$A$2:$A$8` on the cell's own sheet);
- no type (`None`, « Tout »): anything, the rule is only input help.
A bound that is a formula (a cell reference, a function) is not evaluated: NotImplementedError, so
that a test never passes on a rule this helper does not understand.
"""

from __future__ import annotations

import datetime as dt
import operator
import re

from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

EPOCH = dt.datetime(1899, 12, 30)  # Excel's day 0 (with 1900's fictitious 29 February before day 61)

_COMPARE = {
    "equal": operator.eq, "notEqual": operator.ne, "greaterThan": operator.gt, "lessThan": operator.lt,
    "greaterThanOrEqual": operator.ge, "lessThanOrEqual": operator.le,
}
_REFERENCE = re.compile(r"^=?(?:(?:'(?P<quoted>(?:[^']|'')+)'|(?P<sheet>[^!'\"]+))!)?(?P<range>\$?[A-Z]+\$?\d+(?::\$?[A-Z]+\$?\d+)?)$")


def covering(sheet: Worksheet, coordinate: str) -> list[DataValidation]:
    """The sheet's validations whose cells include `coordinate` (e.g. "B3")."""
    return [rule for rule in sheet.data_validations.dataValidation if coordinate in rule.sqref]


def number(value: object) -> float | None:
    """The value as Excel holds it in a cell, if it is a number: a date or a time is one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dt.datetime):
        return (value - EPOCH) / dt.timedelta(days=1)
    if isinstance(value, dt.date):
        return float((value - EPOCH.date()).days)
    if isinstance(value, dt.time):
        return (value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6) / 86400
    return None


def text(value: object) -> str:
    """The value as Excel shows it with the General format (a whole number without ".0")."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _bound(formula: str | None) -> float:
    if formula is None:
        raise ValueError("a bound is missing")
    raw = formula.lstrip("=")
    try:
        return float(raw)
    except ValueError:
        raise NotImplementedError(f"a bound that is a formula: {formula}") from None


def _items(rule: DataValidation, sheet: Worksheet | None) -> list[object]:
    source = rule.formula1 or ""
    if source.startswith('"') and source.endswith('"'):
        return list(source[1:-1].split(","))
    match = _REFERENCE.match(source)
    if not match or sheet is None:
        raise NotImplementedError(f"a list that is neither quoted nor a range: {source}")
    name = match["quoted"].replace("''", "'") if match["quoted"] else match["sheet"]
    target = sheet.parent[name] if name else sheet
    min_col, min_row, max_col, max_row = range_boundaries(match["range"].replace("$", ""))
    if min_col != max_col and min_row != max_row:
        raise ValueError(f"a list from a range of more than one row and column (Excel refuses it): {source}")
    return [cell.value for row in target.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col,
                                                    max_col=max_col) for cell in row if cell.value is not None]


def _same(typed: object, item: object) -> bool:
    """Excel compares a typed value to a list's item ignoring case; a number to a number."""
    if number(typed) is not None and number(item) is not None:
        return number(typed) == number(item)
    if number(typed) is not None and isinstance(item, str):
        try:
            return number(typed) == float(item)
        except ValueError:
            return False
    if number(typed) is not None or number(item) is not None:
        return False  # a number is not the text of an item
    return text(typed).casefold() == text(item).casefold()


def satisfies(rule: DataValidation, value: object, sheet: Worksheet | None = None) -> bool:
    """Whether Excel accepts `value` typed into a cell of `rule` (`sheet`: the cell's sheet, for a
    list taken from a range)."""
    if value is None or value == "":
        return bool(rule.allow_blank) or rule.type in (None, "none")
    kind = rule.type
    if kind in (None, "none"):
        return True
    if kind == "custom":
        raise NotImplementedError(f"a custom formula: {rule.formula1}")
    if kind == "list":
        return any(_same(value, item) for item in _items(rule, sheet))
    if kind == "textLength":
        measured: float | None = float(len(text(value)))
    else:
        measured = number(value)
        if measured is None:
            return False  # text, or a boolean, is never a number, a date or a time to Excel
        if kind == "whole" and not measured.is_integer():
            return False
        if kind == "time" and not 0 <= measured < 1:
            return False
        if kind not in ("whole", "decimal", "date", "time"):
            raise NotImplementedError(f"a validation of type {kind}")
    assert measured is not None
    how = rule.operator or "between"
    if how in ("between", "notBetween"):
        low, high = _bound(rule.formula1), _bound(rule.formula2)
        inside = low <= measured <= high
        return inside if how == "between" else not inside
    return bool(_COMPARE[how](measured, _bound(rule.formula1)))


def refusals(sheet: Worksheet, coordinate: str, value: object) -> list[str]:
    """Each validation covering the cell that refuses `value`, said for an assertion message."""
    return [f"{sheet.title}!{coordinate} = {value!r}: {rule.type} {rule.operator or ''} {rule.formula1} "
            f"{rule.formula2 or ''} ({rule.errorStyle or 'stop'})"
            for rule in covering(sheet, coordinate) if not satisfies(rule, value, sheet)]
