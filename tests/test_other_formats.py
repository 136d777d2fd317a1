"""Other spreadsheet files (issue « A real season »): calamine reads .ods, .xls and .xlsb as well as
.xlsx, and reportgen reads them all with the same tolerance and messages. The .ods files are written
by odfpy and the .xls files by xlwt (what LibreOffice and old Excel write); the .xlsb is a file Excel
wrote, from calamine's own test files (tests/data, MIT licence)."""

import shutil
import zipfile
from pathlib import Path

import pytest

from reportgen.ingest.discover import discover
from reportgen.ingest.workbook import read_workbooks
from reportgen.pipeline import load, score
from tests.builders import TODAY, write_clubs, write_workbook

DATA = Path(__file__).parent / "data"

TOURNAMENT = {
    "Tournoi": [["Circuit", "grand-sud"], ["Nom", "Tournoi de Foix"], ["Date", "14/03/2026"], ["Club", "Albi"],
                ["Formule", "duplicate"]],
    "Résultats": [["Classement des joueurs"], [], ["Rang", "NOM Prénom", "Licence", "Club"],
                  ["1er", "DUPONT Jean", 1001, "Carcassonne"], ["2e", "MARTIN Paul", "1002", "Albi"],
                  ["3", "DURAND Anne", None, "Toulouse"]],
}


def write_ods(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            line = TableRow()
            for value in row:
                if value is None or value == "":
                    cell = TableCell()
                elif isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value)))
                else:
                    cell = TableCell(valuetype="string")
                    cell.addElement(P(text=str(value)))
                line.addElement(cell)
            table.addElement(line)
        document.spreadsheet.addElement(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path


def write_xls(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    for name, rows in sheets.items():
        sheet = book.add_sheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value not in (None, ""):
                    sheet.write(r, c, value)
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(str(path))
    return path


def standings(inputs: Path) -> list[tuple]:
    league = load(inputs, TODAY)
    assert league.all_problems() == [] and league.notices == [], (league.all_problems(), league.notices)
    ranking = score(league, ["grand-sud"]).reports["grand-sud"].rankings[-1]
    return [(row.rank, row.player, row.licence, row.club, row.metrics["points"]) for row in ranking.rows]


@pytest.mark.parametrize("writer, suffix", [(write_ods, ".ods"), (write_xls, ".xls")])
def test_a_tournament_saved_as_ods_or_xls_gives_the_same_ranking_as_the_xlsx(tmp_path, writer, suffix):
    write_clubs(tmp_path / "xlsx")
    write_workbook(tmp_path / "xlsx" / "foix.xlsx", TOURNAMENT)
    write_clubs(tmp_path / "other")
    writer(tmp_path / "other" / f"foix{suffix}", TOURNAMENT)
    expected = standings(tmp_path / "xlsx")
    assert len(expected) == 3 and standings(tmp_path / "other") == expected


@pytest.mark.parametrize("writer, suffix", [(write_ods, ".ods"), (write_xls, ".xls")])
def test_a_mistake_in_an_ods_or_xls_gets_the_same_located_message(tmp_path, writer, suffix):
    broken = {**TOURNAMENT, "Résultats": TOURNAMENT["Résultats"][:4] + [["deux", "MARTIN Paul", "1002", "Albi"]]}
    write_clubs(tmp_path / "xlsx")
    write_workbook(tmp_path / "xlsx" / "foix.xlsx", broken)
    write_clubs(tmp_path / "other")
    writer(tmp_path / "other" / f"foix{suffix}", broken)
    (expected,) = load(tmp_path / "xlsx", TODAY).all_problems()
    (problem,) = load(tmp_path / "other", TODAY).all_problems()
    assert str(problem).startswith(f"foix{suffix}, feuille « Résultats », cellule A5 (colonne « Rang ») : « deux » n’est pas une place")
    assert str(problem).replace(suffix, ".xlsx") == str(expected)


def test_an_xlsb_written_by_excel_is_read():
    folder = DATA
    paths, skipped = discover(folder)
    assert DATA / "calamine-date.xlsb" in paths and skipped == []
    (workbook,), problems = read_workbooks([DATA / "calamine-date.xlsb"], folder)
    assert problems == []
    (sheet,) = workbook.sheets
    assert sheet.name == "Sheet1" and str(sheet.rows[0][0]) == "2021-01-01" and sheet.rows[0][1] == 15


def test_a_csv_is_still_set_aside_with_a_notice(tmp_path):
    write_clubs(tmp_path)
    (tmp_path / "résultats.csv").write_text("Place;Nom\n1;DUPONT\n")
    notices = load(tmp_path, TODAY).notices
    assert any(n.startswith("résultats.csv : ignoré") and ".xlsx" in n for n in notices), notices


# -- hostile files in the other formats -----------------------------------------------------------

def only_problem(tmp_path: Path, name: str) -> str:
    write_clubs(tmp_path)
    (problem,) = load(tmp_path, TODAY).all_problems()
    assert problem.where.path == name
    return str(problem)


def rewrite_content(path: Path, content: bytes) -> None:
    """The same .ods with another content.xml (the package otherwise as odfpy wrote it)."""
    copy = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info, content if info.filename == "content.xml" else source.read(info))
    shutil.move(copy, path)


def content_with(body: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
            f'{body}</office:spreadsheet></office:body></office:document-content>').encode()


def test_an_ods_with_an_entity_declaration_is_refused(tmp_path):
    path = write_ods(tmp_path / "bombe.ods", TOURNAMENT)
    rewrite_content(path, b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>')
    assert "déclarations XML interdites" in only_problem(tmp_path, "bombe.ods")


def test_an_ods_whose_content_is_repeated_a_million_times_is_refused_before_reading(tmp_path):
    path = write_ods(tmp_path / "geant.ods", TOURNAMENT)
    rewrite_content(path, content_with(
        '<table:table table:name="Tournoi"><table:table-row table:number-rows-repeated="1000000">'
        '<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'
        '</table:table-row></table:table>'))
    assert "la feuille « Tournoi » s’étend de A1 à A1000000" in only_problem(tmp_path, "geant.ods")


def test_the_empty_rest_of_a_libreoffice_sheet_is_not_counted(tmp_path):
    """LibreOffice writes a sheet's unused rows as one repeated row: nothing to refuse there."""
    from reportgen.ingest.precheck import inspect

    path = write_ods(tmp_path / "foix.ods", TOURNAMENT)
    rewrite_content(path, content_with(
        '<table:table table:name="Tournoi"><table:table-row><table:table-cell office:value-type="string">'
        '<text:p>Circuit</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16383"/>'
        '</table:table-row><table:table-row table:number-rows-repeated="1048575">'
        '<table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>'))
    assert [sheet.name for sheet in inspect(path).sheets] == ["Tournoi"]


def test_a_formula_an_ods_saved_without_its_value_is_refused_where_it_is(tmp_path):
    path = write_ods(tmp_path / "formule.ods", TOURNAMENT)
    rewrite_content(path, content_with(
        '<table:table table:name="Tournoi">'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Circuit</text:p></table:table-cell>'
        '<table:table-cell office:value-type="string"><text:p>grand-sud</text:p></table:table-cell></table:table-row>'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Nom</text:p></table:table-cell>'
        '<table:table-cell table:formula="of:=CONCAT(&quot;A&quot;)"/></table:table-row></table:table>'))
    from reportgen.ingest.precheck import inspect

    assert inspect(path).untrusted_formula_cells("Tournoi") == {"B2"}


@pytest.mark.parametrize("name, message", [
    ("faux.xls", "le fichier n’est pas un classeur Excel 97-2003 (.xls) lisible"),
    ("faux.ods", "le fichier n’est pas un classeur OpenDocument (.ods) lisible"),
    ("faux.xlsb", "le fichier n’est pas un classeur Excel binaire (.xlsb) lisible"),
])
def test_a_file_that_is_not_what_its_name_says_is_one_located_refusal(tmp_path, name, message):
    (tmp_path / name).write_bytes(b"Place;Nom\n1;DUPONT\n")
    assert message in only_problem(tmp_path, name)


# -- an .ods written by Gnumeric --------------------------------------------------------------------

def test_an_ods_written_by_gnumeric_gives_the_same_ranking_as_its_xlsx_twin(tmp_path):
    """tests/data/gnumeric-foix.md: calamine refuses the file (whitespace between cells); it is
    valid, and read by the second reader."""
    write_clubs(tmp_path / "xlsx")
    write_workbook(tmp_path / "xlsx" / "foix.xlsx", TOURNAMENT)
    write_clubs(tmp_path / "gnumeric")
    shutil.copy(DATA / "gnumeric-foix.ods", tmp_path / "gnumeric" / "foix.ods")
    expected = standings(tmp_path / "xlsx")
    assert len(expected) == 3 and standings(tmp_path / "gnumeric") == expected


def test_calamine_still_refuses_the_gnumeric_ods():
    """The second reader is there for this: when calamine reads it, it can go (tests/data/gnumeric-foix.md)."""
    from python_calamine import CalamineWorkbook

    with pytest.raises(Exception, match="Expecting 'table-cell'"):
        book = CalamineWorkbook.from_path(str(DATA / "gnumeric-foix.ods"))
        for name in book.sheet_names:
            book.get_sheet_by_name(name).to_python()


def test_the_second_ods_reader_reads_what_calamine_reads(tmp_path):
    from python_calamine import CalamineWorkbook

    from reportgen.ingest import ods
    from reportgen.ingest.file_reader import _rows

    path = write_ods(tmp_path / "foix.ods", {**TOURNAMENT, "Autres": [
        [1.5, "deux\nlignes", None, "  espaces  "], [], ["", "", 3]]})
    book = CalamineWorkbook.from_path(str(path))
    expected = [(name, _rows(book.get_sheet_by_name(name).to_python(skip_empty_area=False)))
                for name in book.sheet_names]
    assert [(name, _rows(rows)) for name, rows, _ in ods.read(path)] == expected


def test_an_ods_calamine_refuses_whose_values_are_not_values_is_damaged(tmp_path):
    path = write_ods(tmp_path / "abime.ods", TOURNAMENT)
    rewrite_content(path, content_with(
        '<table:table table:name="Tournoi"><table:table-row>\n'
        '<table:table-cell office:value-type="float" office:value="beaucoup"><text:p>x</text:p></table:table-cell>\n'
        '</table:table-row></table:table>'))
    assert "le fichier est endommagé" in only_problem(tmp_path, "abime.ods")
