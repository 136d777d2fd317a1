"""`read_workbooks` given the sheets of files read before (`known`, from the read cache): those
files are not read again, the others are, and a known entry of a file no longer listed is left
out, whatever the number of files (which are now looked up in one set, not in a set per file)."""

from pathlib import Path

import xlsxwriter

from reportgen.ingest.workbook import Sheet, read_workbooks


def write_workbook(path: Path, name: str) -> None:
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Résultats").write_row(0, 0, ["Nom", name])
    book.close()


def test_known_files_are_taken_as_known_the_others_read_and_the_unlisted_left_out(tmp_path):
    read, known_file, gone = tmp_path / "lu.xlsx", tmp_path / "connu.xlsx", tmp_path / "parti.xlsx"
    write_workbook(read, "DUPONT")
    known_file.write_bytes(b"not a workbook: read, it would be refused")
    known = {known_file: (10, [Sheet("Résultats", [["Nom", "MARTIN"]])]),
             gone: (10, [Sheet("Résultats", [["Nom", "DURAND"]])])}
    workbooks, problems = read_workbooks([read, known_file], tmp_path, known)
    assert problems == []
    assert [(wb.label, wb.sheets[0].rows[0][1]) for wb in workbooks] == [("lu.xlsx", "DUPONT"), ("connu.xlsx", "MARTIN")]
