"""Proposed changes to inputs/ (render/inputs.py): a value typed where the secretary types is
never lost, whatever the circuit that proposes the change says."""

import datetime as dt

import openpyxl

from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputChange, InputRule
from reportgen.render.inputs import apply

COLUMNS = [AnnexColumn("Match", "int"), AnnexColumn("Joueur", "text"), AnnexColumn("Score", "int")]
RULE = InputRule(1, 2, 2, 2, "Un score de 0 à 12.", "whole", 0, 12)


def change(rows, moved=()) -> InputChange:
    sheet = AnnexSheet("Matchs", COLUMNS, rows, rules=[RULE])
    return InputChange("masters/m.xlsx", Annex("m", "M", dt.date(2026, 12, 12), [sheet]), moved)


def type_score(path, cell, value):
    book = openpyxl.load_workbook(path)
    book["Matchs"][cell] = value
    book.save(path)


def test_a_new_workbook_is_written(tmp_path):
    assert apply(change([[1, "A", None], [2, "B", None]]), tmp_path) == []
    assert (tmp_path / "masters" / "m.xlsx").exists()


def test_a_change_that_would_erase_a_typed_value_writes_nothing_and_says_where(tmp_path):
    apply(change([[1, "A", None], [2, "B", None]]), tmp_path)
    path = tmp_path / "masters" / "m.xlsx"
    type_score(path, "C3", 7)
    before = path.read_bytes()
    problems = apply(change([[1, "B", None], [2, "A", None]]), tmp_path)
    assert [str(p) for p in problems] == ["masters/m.xlsx, feuille « Matchs », cellule C3 : la valeur saisie « 7 » serait effacée — "
                                          "effacez-la d’abord vous-même si elle est fausse"]
    assert path.read_bytes() == before


def test_a_typed_value_the_change_carries_elsewhere_is_kept_there(tmp_path):
    apply(change([[1, "A", None], [2, "B", None]]), tmp_path)
    path = tmp_path / "masters" / "m.xlsx"
    type_score(path, "C3", 7)
    assert apply(change([[2, "B", 7], [1, "A", None]], moved=((("Matchs", 2, 2), ("Matchs", 1, 2)),)), tmp_path) == []
    assert openpyxl.load_workbook(path)["Matchs"]["C2"].value == 7


def test_cells_outside_the_typed_blocks_are_the_programs_to_rewrite(tmp_path):
    apply(change([[1, "A", None], [2, "B", None]]), tmp_path)
    path = tmp_path / "masters" / "m.xlsx"
    type_score(path, "B2", "Z")  # a player's name: written by reportgen, not typed by the secretary
    assert apply(change([[1, "C", None], [2, "B", None]]), tmp_path) == []
    assert openpyxl.load_workbook(path)["Matchs"]["B2"].value == "C"


def test_a_workbook_read_from_another_format_is_never_overwritten_with_xlsx_bytes(tmp_path):
    """A pool tournament kept in LibreOffice's .ods: `poules next` cannot write an .xlsx under its name."""
    ods = change([[1, "A", None]])
    ods = InputChange("poules/open.ods", ods.workbook)
    (tmp_path / "poules").mkdir()
    (tmp_path / "poules" / "open.ods").write_bytes(b"the club's file")
    (problem,) = apply(ods, tmp_path)
    assert str(problem) == ("poules/open.ods : reportgen n’écrit que des classeurs .xlsx, pas des .ods — ouvrez-le "
                            "dans Excel ou LibreOffice, enregistrez-le au format .xlsx, retirez l’ancien fichier de "
                            "inputs/, puis relancez la commande")
    assert (tmp_path / "poules" / "open.ods").read_bytes() == b"the club's file"


def test_a_workbook_open_in_a_spreadsheet_or_read_only_is_never_written(tmp_path):
    """Issue 26, item 9: `poules next` and `masters prepare` write through the same guard as `players merge`."""
    import pytest

    from reportgen.render.workbook_file import WorkbookBusy

    apply(change([[1, "A", None], [2, "B", None]]), tmp_path)
    path = tmp_path / "masters" / "m.xlsx"
    before = path.read_bytes()
    (path.parent / ".~lock.m.xlsx#").write_text("secrétaire,poste,01.12.2026 10:00,", encoding="utf-8")
    with pytest.raises(WorkbookBusy, match=r"m\.xlsx est ouvert dans Excel ou LibreOffice"):
        apply(change([[1, "C", None], [2, "B", None]]), tmp_path)
    (path.parent / ".~lock.m.xlsx#").unlink()
    path.chmod(0o444)
    with pytest.raises(WorkbookBusy, match=r"m\.xlsx est en lecture seule"):
        apply(change([[1, "C", None], [2, "B", None]]), tmp_path)
    assert path.read_bytes() == before


def test_a_formula_the_change_does_not_touch_keeps_its_value(tmp_path):
    apply(change([[1, "A", None], [2, "B", None]]), tmp_path)
    path = tmp_path / "masters" / "m.xlsx"
    book = openpyxl.load_workbook(path)
    book["Matchs"]["E1"] = "=2*21"
    book.calculation.fullCalcOnLoad = False  # as Excel saves it
    book.save(path)
    import zipfile

    data = {info: zipfile.ZipFile(path).read(info) for info in zipfile.ZipFile(path).infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as written:  # the value Excel computed
        for info, content in data.items():
            written.writestr(info, content.replace(b"<f>2*21</f><v />", b"<f>2*21</f><v>42</v>"))
    assert openpyxl.load_workbook(path, data_only=True)["Matchs"]["E1"].value == 42
    assert apply(change([[1, "C", None], [2, "B", None]]), tmp_path) == []
    assert openpyxl.load_workbook(path)["Matchs"]["E1"].value == "=2*21"
    assert openpyxl.load_workbook(path, data_only=True)["Matchs"]["E1"].value == 42
