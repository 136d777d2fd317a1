"""What the secretary sees opening the example league's annexes: the files read back with openpyxl,
and printed by LibreOffice (in French, as hers is) to PDF, whose text is read with pdftotext. `make
test` installs LibreOffice (system-packages.txt): without it these tests fail and say so."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from openpyxl.utils.cell import range_boundaries

from reportgen.render.excel import LINE_HEIGHT, render_annex, text_lines


def annex_of(scored, circuit: str, season: int):
    return next(annex for annex in scored.reports[circuit].annexes if annex.season == season)


def printed(data: bytes, folder: Path) -> list[str]:
    """The pages LibreOffice prints of an .xlsx (French settings, a profile of its own, the
    machine's fonts), as text."""
    if not shutil.which("soffice"):
        pytest.fail("LibreOffice is not installed: run make test (it installs the tests' packages of system-packages.txt)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "annexe.xlsx").write_bytes(data)
    # the machine's fonts, as a secretary's LibreOffice has them: not those a PDF of reportgen's
    # may use, which render/fonts.py gives this process (FONTCONFIG_FILE) once a bulletin is printed
    french = {**{name: value for name, value in os.environ.items() if name != "FONTCONFIG_FILE"},
              "LC_ALL": "fr_FR.UTF-8", "LANG": "fr_FR.UTF-8"}
    subprocess.run(["soffice", f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(folder), str(folder / "annexe.xlsx")],
                   check=True, capture_output=True, env=french, timeout=180)
    text = subprocess.run(["pdftotext", "-layout", str(folder / "annexe.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")[:-1]


@pytest.fixture(scope="module")
def tantrix(example_scored, tmp_path_factory):
    """The Tantrix annex of 2026: its bytes and its printed pages."""
    data = render_annex(annex_of(example_scored, "tantrix", 2026))
    return data, printed(data, tmp_path_factory.mktemp("tantrix-annex"))


def test_an_annex_numbers_its_pages_as_the_bulletins_do(tantrix):
    # « page 1/16 » where the bulletins' PDFs say « page 1 sur 9 »
    data, pages = tantrix
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert {sheet.oddFooter.right.text for sheet in book.worksheets} == {"page &P sur &N"}
    assert f"page 1 sur {len(pages)}" in pages[0] and f"page {len(pages)} sur {len(pages)}" in pages[-1]


@pytest.fixture(scope="module")
def grand_sud(example_scored, tmp_path_factory):
    """The Grand Sud annex of 2026 (the reviewer's « page 1/16 »): its bytes and its printed pages."""
    data = render_annex(annex_of(example_scored, "grand-sud", 2026))
    return data, printed(data, tmp_path_factory.mktemp("grand-sud-annex"))


def sheet_xml(data: bytes) -> dict[str, str]:
    """Each sheet's XML by its name (XlsxWriter writes the sheets as sheet1.xml, sheet2.xml… in order)."""
    names = openpyxl.load_workbook(io.BytesIO(data), read_only=True).sheetnames
    with zipfile.ZipFile(io.BytesIO(data)) as files:
        return {name: files.read(f"xl/worksheets/sheet{n}.xml").decode() for n, name in enumerate(names, start=1)}


def columns_in(sqref: str) -> set[int]:
    """The columns (1-based) of whole-column ranges « C1:D1048576 F1:F1048576 »."""
    found = set()
    for part in sqref.split():
        low, _, high, last_row = range_boundaries(part)
        assert last_row == 1_048_576, part
        found.update(range(low, high + 1))
    return found


def test_a_licence_or_a_departement_is_text_excel_does_not_flag_as_a_number(grand_sud, tantrix):
    # « 0123 » stays « 0123 »: text on purpose, which Excel marked with a green triangle in each cell
    # (« nombre stocké sous forme de texte »), every licence of the rankings and the points, every
    # département of the tournaments
    for data in (grand_sud[0], tantrix[0]):
        book = openpyxl.load_workbook(io.BytesIO(data))
        for name, xml in sheet_xml(data).items():
            headers = {cell.value: cell.column for cell in book[name][1]}
            found = re.findall(r'<ignoredErrors><ignoredError sqref="([^"]+)" numberStoredAsText="1"/></ignoredErrors>',
                               xml)
            ignored = columns_in(found[0]) if found else set()
            for header in ("Licence", "Département", "Joueur", "Club"):
                assert header not in headers or headers[header] in ignored, (name, header)
            for header in ("Place", "Total", "Points", "Date", "Classement Elo"):  # numbers and dates: flagged as ever
                assert headers.get(header) not in ignored, (name, header)
            # where the schema puts it, after the print settings: Excel refuses a file otherwise
            assert not found or xml.index("</headerFooter>") < xml.index("<ignoredErrors>")
    book = openpyxl.load_workbook(io.BytesIO(grand_sud[0]))
    assert "Licence" in [cell.value for cell in book["Points"][1]]
    assert "Département" in [cell.value for cell in book["Tournois"][1]]
    # LibreOffice opens it and prints the licences as they are
    licence = book.worksheets[0]["C2"].value
    assert book.worksheets[0]["C1"].value == "Licence" and licence.isdigit()
    assert any(f" {licence} " in page for page in grand_sud[1])


def test_a_percentage_prints_with_a_narrow_no_break_space_before_its_sign(tantrix):
    # « 33,0% » in the sheet « Évolution Elo », where the rating list's bulletin prints « 33,0 % »
    # (french.typography: a narrow no-break space before « % »); the cell keeps its fraction
    data, pages = tantrix
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Évolution Elo"]
    scores = [row[6] for row in sheet.iter_rows(min_row=2)]
    assert sheet["G1"].value == "Score" and 0.33 in [cell.value for cell in scores]
    [page] = [page for page in pages if "Tantrix 2026 — Évolution Elo" in page]
    assert sheet["G2"].number_format == '#,##0.0"\u202f"%_)'
    # printed « 33,0 % » (pdftotext reads the narrow space as a space), never « 33,0% »
    assert re.search(r"\b33,0\s%", page) and not re.search(r"\d%", page)


def test_a_tantrix_time_is_a_duration_printed_as_the_bulletin_prints_it(example_league, tantrix):
    # « Temps A » / « Temps B » (« 12:19 ») were texts: the secretary could not sort or sum them.
    # Now a duration (Excel's time: a fraction of a day), shown minutes and seconds as before.
    data, pages = tantrix
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Parties"]
    headers = [cell.value for cell in sheet[1]]
    games = [event.content for event in example_league.circuits["tantrix"].events]
    typed = sorted(time for content in games for game in content.games for time in game.times if time is not None)
    written = []
    for header in ("Temps A", "Temps B"):
        for (cell,) in sheet.iter_rows(min_row=2, min_col=headers.index(header) + 1, max_col=headers.index(header) + 1):
            if cell.value is not None:
                assert isinstance(cell.value, dt.timedelta) and cell.number_format == "[m]:ss_)"
                written.append(round(cell.value.total_seconds()))
    assert typed and sorted(written) == typed
    # LibreOffice prints each as the bulletin does: « 12:19 », minutes and seconds
    printed_times = [time for page in pages if "— Parties" in page for time in re.findall(r"\b\d{1,2}:\d\d\b", page)]
    assert sorted(printed_times) == sorted(f"{time // 60}:{time % 60:02d}" for time in typed)


def lines_printed(texts: list[tuple[str, float]], folder: Path) -> list[int]:
    """The lines LibreOffice prints each text on, alone in a wrapping cell of its column's width (a
    row high enough for all, a mark below it in the next column to tell the rows apart)."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    wrap = book.add_format({"text_wrap": True, "valign": "top"})
    widths = sorted({width for _, width in texts})
    for width in widths:
        sheet = book.add_worksheet(f"{width:g}")
        sheet.set_column(0, 0, width, wrap)
        sheet.set_paper(8)  # A3: the widest column on its page, unscaled
        for row, (text, _) in enumerate(t for t in texts if t[1] == width):
            sheet.set_row(row, 150)
            sheet.write_string(row, 0, text, wrap)
            sheet.write_string(row, 1, "▲")
    book.close()
    counts, lines = [], 0
    for line in "\f".join(printed(buffer.getvalue(), folder)).splitlines():
        if line.strip() == "▲":
            counts.append(lines)
            lines = 0
        elif line.strip():
            lines += 1
    order = [text for width in widths for text in texts if text[1] == width]
    assert len(counts) == len(order)
    return [counts[order.index(text)] for text in texts]


def test_a_row_is_one_line_high_when_libreoffice_prints_its_text_on_one_line(example_scored, tantrix, tmp_path):
    # « Classements »: rows 2-3 were two lines high, though LibreOffice prints « départagé aux TPs
    # marqués entre eux » on one line in its column 30 wide (30.28 digits: counted as 35 letters of
    # 0.87 digit, it was taken to wrap); a player left out, « hors classement : 3 parties perdues par
    # forfait (règle 7) »,
    # on the two lines LibreOffice prints it on in its column 24 wide (counted below)
    data, _ = tantrix
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Classements"]
    rows = {row[0].row: [cell.value for cell in row] for row in sheet.iter_rows(min_row=2)}
    shared = [number for number, values in rows.items() if "départage aux TPs marqués entre eux" in values]
    left_out = [number for number, values in rows.items()
                if "hors classement : 3 parties perdues par forfait (règle 7)" in values]
    assert shared == [2, 3] and len(left_out) == 1
    assert all(sheet.row_dimensions[number].height is None for number in shared)
    assert sheet.row_dimensions[left_out[0]].height == 2 * LINE_HEIGHT
    # every text of the example's Tantrix annex, in its column's width, and texts about a line long
    # (a few letters less, a few more), printed on as many lines as `text_lines` counts
    annex = annex_of(example_scored, "tantrix", 2026)
    texts = sorted({(str(value), column.width) for spec in annex.sheets for row in spec.rows
                    for column, value in zip(spec.columns, row) if column.kind == "text" and value not in (None, "")})
    sentence = "départage aux TPs marqués entre eux, hors classement : 3 parties perdues par forfait (règle 7)"
    texts += [(sentence[:length], width) for width in (8, 12, 24, 30) for length in range(int(width) - 2, int(width) + 8)]
    texts += [("moins de 12 joueurs : barème standard (cas particulier du règlement)", 40),
              ("ROUSSEAU-MARTIN Jean-Baptiste", 12), ("Anticonstitutionnellement", 9)]
    assert lines_printed(texts, tmp_path) == [text_lines(text, width) for text, width in texts]
