"""render/table_sheet.py makes an annex's rows its quick way and XlsxWriter's bytes: every annex of
the example league, both blank workbooks and any cells hypothesis makes are written both ways
(`TableSheet`, and XlsxWriter's own worksheet, public writers and rows) and compared byte for byte.
A new XlsxWriter that writes a cell or a row otherwise fails here before an annex changes."""

from __future__ import annotations

import datetime as dt
import importlib
import io
import math

import openpyxl
import pytest
import xlsxwriter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xlsxwriter.worksheet import Worksheet
from xlsxwriter.xmlwriter import XMLwriter

from reportgen import circuits
from reportgen.ingest.directories import ClubDirectory
from reportgen.model import Annex, AnnexColumn, AnnexSheet
from reportgen.render import excel, table_sheet


class XlsxWritersOwn(table_sheet.TableSheet):
    """The same worksheet written by XlsxWriter alone: each cell by its public writers, each row
    as it writes rows."""

    _write_rows = Worksheet._write_rows
    _calculate_spans = Worksheet._calculate_spans

    def add_row(self, row, cells):
        for col, value, cell_format in cells:
            if isinstance(value, str):
                self.write_string(row, col, value, cell_format)
            elif isinstance(value, dt.datetime):
                self.write_datetime(row, col, value, cell_format)
            else:
                self.write_number(row, col, value, cell_format)


def both_ways(annex: Annex, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    quick = excel.render_annex(annex)
    with monkeypatch.context() as patched:
        patched.setattr(excel, "TableSheet", XlsxWritersOwn)
        own = excel.render_annex(annex)
    return quick, own


def test_every_annex_of_the_example_league_is_xlsxwriters_own_bytes(example_scored, monkeypatch):
    annexes = [annex for report in example_scored.reports.values() for annex in report.annexes]
    assert all(report.annexes for report in example_scored.reports.values())  # every circuit's
    for annex in annexes:
        quick, own = both_ways(annex, monkeypatch)
        assert quick == own, annex.path


def test_the_blank_workbooks_are_xlsxwriters_own_bytes(monkeypatch):
    templates = [info for info in circuits.REGISTRY.values() if info.template]
    assert templates
    for info in templates:
        blank = importlib.import_module(info.template_module).blank_workbook(ClubDirectory(), None, dt.date(2026, 11, 29))
        quick, own = both_ways(blank, monkeypatch)
        assert quick == own, info.slug


def test_the_quick_way_is_the_one_taken(monkeypatch):
    """An annex's numbers, dates and texts are made by `TableSheet` itself, not by XlsxWriter's
    general cell writers (which the comparisons above would not tell apart): those write only
    its header row."""
    general = []
    for name in ("_xml_number_element", "_xml_string_element"):
        original = getattr(XMLwriter, name)
        monkeypatch.setattr(XMLwriter, name, lambda self, *args, _original=original, _name=name:
                            general.append(_name) or _original(self, *args))
    columns = [AnnexColumn("Nom"), AnnexColumn("Points", "int"), AnnexColumn("Date", "date")]
    annex = Annex("a", "A", dt.date(2026, 3, 1), [AnnexSheet("S", columns, [["Ana", 3, dt.date(2026, 1, 2)]])])
    excel.render_annex(annex)
    assert general == ["_xml_string_element"] * 3  # the 3 headers
    general.clear()
    both_ways(annex, monkeypatch)  # then XlsxWriter's own way: its writers reached for each cell too
    assert sorted(general) == ["_xml_number_element"] * 2 + ["_xml_string_element"] * (3 + 4)


def written(worksheet_class: type, fill, **options) -> bytes:
    """A workbook of one sheet of `worksheet_class` filled by `fill(book, sheet)`."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True, **options})
    book.set_properties({"created": dt.datetime(2026, 1, 1)})
    fill(book, book.add_worksheet("S", worksheet_class))
    book.close()
    return buffer.getvalue()


def test_cells_and_rows_xlsxwriter_writes_itself_are_its_own_bytes():
    """A cell with no format of its own (its column's or row's applies), a boolean, a blank, a
    formula, XlsxWriter's rows of attributes only, and rows given to `add_row` that XlsxWriter must
    write (out of order, without a format, beyond the sheet's last row): its own bytes."""
    def fill(book, sheet):
        bold = book.add_format({"bold": True})
        sheet.set_column(1, 1, 12, book.add_format({"num_format": "0.00"}))
        sheet.set_row(3, 20, bold)
        sheet.set_row(40, 30)
        sheet.write_number(1, 1, 2.5)
        sheet.write_string(2, 1, "sans format")
        sheet.write_number(3, 0, 7)
        sheet.write_boolean(4, 0, True, bold)
        sheet.write_blank(5, 0, None, bold)
        sheet.write_formula(6, 0, "=1+1", bold, 2)
        sheet.write_datetime(7, 0, dt.datetime(2026, 3, 4, 10, 30), bold)
        sheet.add_row(20, [(0, "après", bold), (3, 4.5, bold)])
        sheet.add_row(18, [(2, "avant la dernière", bold)])  # before the last row made
        sheet.add_row(21, [(0, "sans format", None), (1, 3, bold)])
        sheet.add_row(22, [(1, dt.datetime(2026, 5, 6), bold)])
        sheet.add_row(1_048_576, [(0, "hors de la feuille", bold)])  # dropped, as XlsxWriter drops it

    assert written(table_sheet.TableSheet, fill) == written(XlsxWritersOwn, fill)


def test_a_number_that_is_no_number_is_xlsxwriters_to_say():
    """NaN or an infinity: XlsxWriter's TypeError, or with its `nan_inf_to_errors` its error cells."""
    def fill(book, sheet):
        sheet.add_row(1, [(0, "avant", book.add_format()), (1, math.nan, book.add_format()),
                          (2, -math.inf, book.add_format())])

    with pytest.raises(TypeError, match="NAN/INF"):
        written(table_sheet.TableSheet, fill)
    assert written(table_sheet.TableSheet, fill, nan_inf_to_errors=True) == \
        written(XlsxWritersOwn, fill, nan_inf_to_errors=True)


def test_a_row_made_then_written_by_xlsxwriter_is_refused():
    """A row is made by `add_row` or stored by XlsxWriter's writers, never both: written, one would
    hide the other's cells."""
    def fill(book, sheet):
        bold = book.add_format({"bold": True})
        sheet.add_row(2, [(0, "fait", bold)])
        sheet.write_string(2, 1, "ajouté", bold)

    with pytest.raises(ValueError, match="row 3"):
        written(table_sheet.TableSheet, fill)


def test_cells_are_given_left_to_right():
    def fill(book, sheet):
        plain = book.add_format()
        sheet.add_row(1, [(2, "c", plain), (1, "b", plain)])

    with pytest.raises(ValueError, match="left to right"):
        written(table_sheet.TableSheet, fill)


TEXTS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
NUMBERS = st.one_of(st.integers(-10**15, 10**15), st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([0.1, -0.0, 1e-300, 1.7976931348623157e308, 2 / 3, 1e16, 123456789.123456789]))
MOMENTS = st.one_of(st.dates(dt.date(1900, 3, 1), dt.date(9999, 12, 31)),
                    st.datetimes(dt.datetime(1900, 3, 1), dt.datetime(9999, 12, 31)))
VALUES = st.one_of(st.none(), st.just(""), TEXTS, NUMBERS, MOMENTS, st.booleans())
KINDS = st.sampled_from(["text", "int", "number", "auto", "date"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(KINDS, min_size=1, max_size=6), data=st.data())
def test_any_cells_are_xlsxwriters_own_bytes(kinds, data, monkeypatch):
    columns = [AnnexColumn(f"C{index}", kind, width=data.draw(st.integers(4, 30)),
                           decimals=data.draw(st.none() | st.integers(0, 4)), grouped=data.draw(st.booleans()))
               for index, kind in enumerate(kinds)]
    rows = data.draw(st.lists(st.lists(VALUES, min_size=len(kinds), max_size=len(kinds)), max_size=12))
    annex = Annex("a", "Annexe", dt.date(2026, 3, 1), [AnnexSheet("Feuille", columns, rows)])
    quick, own = both_ways(annex, monkeypatch)
    assert quick == own


def test_what_the_quick_way_writes_reads_back(monkeypatch):
    """The cells read back as written (openpyxl): a text stays a text (« =1+1 » too), a number its
    value, a date its day."""
    rows = [["=1+1", 1086, 2 / 3, dt.date(2026, 3, 14), "  espacé "], ["Zoé\u00a0Ñ", -0.0, 1e16, None, ""]]
    columns = [AnnexColumn("Nom"), AnnexColumn("Points", "int"), AnnexColumn("Moyenne", "auto"),
               AnnexColumn("Date", "date"), AnnexColumn("Note")]
    quick, _ = both_ways(Annex("a", "A", dt.date(2026, 3, 14), [AnnexSheet("S", columns, rows)]), monkeypatch)
    sheet = openpyxl.load_workbook(io.BytesIO(quick))["S"]
    assert [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2)] == [
        ["=1+1", 1086, pytest.approx(2 / 3), dt.datetime(2026, 3, 14), "  espacé "],
        ["Zoé\u00a0Ñ", 0, 1e16, None, None]]
    assert sheet["A2"].data_type == "s"  # « =1+1 » a text, not a formula
