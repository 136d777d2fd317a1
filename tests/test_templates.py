"""Blank workbooks for the clubs (`reportgen template`): lists, input help, the club list, an
example; filled in as a club would, they pass `reportgen check` with no problem."""

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from reportgen import circuits
from reportgen.ingest.directories import Club, ClubDirectory
from tests.builders import write_clubs
from tests.excel_validation import covering, refusals

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def template(tmp_path, circuit, *options, club: bool = True) -> Path:
    """`reportgen template` through the real CLI, with the league's clubs (`club=False`: the
    inputs' own directory, already written)."""
    inputs = tmp_path / "inputs"
    if club:
        write_clubs(inputs)
    done = subprocess.run([REPORTGEN, "template", circuit, *options, "--inputs", str(inputs),
                           "--outputs", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return next((tmp_path / "out" / "modeles").iterdir())


def test_the_grand_sud_workbook_has_lists_help_the_clubs_and_an_example(tmp_path):
    path = template(tmp_path, "grand-sud", "--club", "CARC")
    assert path.name == "modele-grand-sud-carc.xlsx"
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Tournoi", "Résultats", "Exemple", "Clubs"]
    fields = {row[0]: row[1] for row in book["Tournoi"].iter_rows(min_row=2, values_only=True)}
    assert fields["Circuit"] == "grand-sud" and fields["Club"] == "CARC" and fields["Lieu"] == "Carcassonne"
    checks = {str(v.sqref): (v.type, v.formula1, v.prompt) for v in book["Résultats"].data_validations.dataValidation}
    assert checks["A2:A301"][:2] == ("whole", "1") and checks["E2:E301"] == (
        "list", "Clubs!$B$2:$B$8", "Le club du joueur, tel que l’annuaire le nomme.")
    formule = next(v for v in book["Tournoi"].data_validations.dataValidation if str(v.sqref) == "B7")
    assert formule.type == "list" and formule.formula1 == '"poules,duplicate"'
    assert [c.value for c in book["Exemple"][2]] == [1, "DUPONT", "Jean", "12345", "Carcassonne", 3]
    assert book["Clubs"].max_row == 8  # the header and the league's 7 clubs


WITH_TEMPLATES = [slug for slug, info in circuits.REGISTRY.items() if info.template]


@pytest.mark.parametrize("circuit", WITH_TEMPLATES)
def test_a_club_given_is_in_its_blank_workbook_not_in_its_file_name_alone(tmp_path, circuit):
    """`template tour-de-france --club CARC` wrote modele-tour-de-france-carc.xlsx with nothing of
    Carcassonne in it (its Lieu empty, --club silently ignored): what a workbook is comes from its
    `Tournoi` sheet, never its file name. Each circuit's fills its club's cell, else its Lieu."""
    path = template(tmp_path, circuit, "--club", "CARC")
    assert path.name == f"modele-{circuit}-carc.xlsx"
    fields = {row[0]: row[1] for row in openpyxl.load_workbook(path)["Tournoi"].iter_rows(min_row=2, values_only=True)}
    assert fields.get("Club") == "CARC" or fields.get("Lieu") == "Carcassonne", fields
    if circuit == "tour-de-france":
        assert fields["Lieu"] == "Carcassonne"

# What an organiser types in each circuit's `Tournoi` sheet (the rest stays as the template wrote it):
# a new circuit with a blank workbook must say here what its organisers type.
TYPED = {
    "grand-sud": {"Nom": "Tournoi d'essai", "Date": dt.datetime(2026, 3, 14), "Club": "ALBI",
                  "Série": "printemps", "Formule": "poules", "Lieu": "Albi"},
    "tour-de-france": {"Nom": "Tournoi d'essai", "Date": dt.datetime(2026, 3, 14), "Lieu": "Lyon",
                       "Participants": 12},
}


def refused(book: openpyxl.Workbook, cells: list[tuple[str, str, object]]) -> list[str]:
    """Each (sheet, cell, value) typed that a validation of the workbook refuses, as Excel applies it."""
    return [message for sheet, coordinate, value in cells for message in refusals(book[sheet], coordinate, value)]


def fill(book: openpyxl.Workbook, circuit: str, fields: dict[str, object] | None = None) -> list[tuple[str, str, object]]:
    """Type the circuit's `Tournoi` values (`fields`: other ones) and the `Exemple` sheet's rows into
    the blank sheets, as an organiser would; the cells typed."""
    assert circuit in TYPED, f"say in TYPED what an organiser of {circuit} types in its Tournoi sheet"
    typed = []
    for label, value in {**TYPED[circuit], **(fields or {})}.items():
        row = next(r for r in range(2, book["Tournoi"].max_row + 1) if book["Tournoi"].cell(r, 1).value == label)
        book["Tournoi"].cell(row, 2).value = value
        typed.append(("Tournoi", f"B{row}", value))
    example, results = book["Exemple"], book["Résultats"]
    assert [c.value for c in example[1]] == [c.value for c in results[1]]  # the same columns
    for cells in example.iter_rows(min_row=2):
        for cell in cells:
            results[cell.coordinate].value = cell.value
            typed.append(("Résultats", cell.coordinate, cell.value))
    return typed


def prefilled(book: openpyxl.Workbook) -> list[tuple[str, str, object]]:
    """Every value the template itself wrote in a cell that has a validation."""
    return [(sheet.title, cell.coordinate, cell.value) for sheet in book for row in sheet.iter_rows() for cell in row
            if cell.value is not None and covering(sheet, cell.coordinate)]


@pytest.mark.parametrize("circuit", WITH_TEMPLATES)
def test_the_example_and_a_typed_tournament_satisfy_every_validation_and_pass_check(tmp_path, circuit):
    path = template(tmp_path, circuit)
    book = openpyxl.load_workbook(path)
    typed = fill(book, circuit)
    assert len(typed) > len(TYPED[circuit]) and refused(book, typed) == []
    book.save(tmp_path / "inputs" / "essai.xlsx")
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "1 tournoi lu, aucun problème." in done.stdout


@pytest.mark.parametrize("options", [(), ("--club", "CARC")])
@pytest.mark.parametrize("circuit", WITH_TEMPLATES)
def test_what_a_template_writes_in_its_typed_cells_is_valid(tmp_path, circuit, options):
    book = openpyxl.load_workbook(template(tmp_path, circuit, *options))
    cells = prefilled(book)
    assert ("Tournoi", "B2", circuit) in cells  # at least the circuit, under its list
    assert refused(book, cells) == []


@pytest.mark.parametrize("circuit", WITH_TEMPLATES)
def test_a_template_never_blocks_typing(tmp_path, circuit):
    """The readers take more than a list or a range says (a club's code or name, « 1er », a date
    typed as text): a value outside a rule is a warning the organiser can pass, and `check` says
    what is wrong with it. Text cells take any text."""
    book = openpyxl.load_workbook(template(tmp_path, circuit))
    rules = [rule for sheet in book for rule in sheet.data_validations.dataValidation]
    assert rules and {rule.errorStyle for rule in rules if rule.type} == {"warning"}
    assert refused(book, [("Tournoi", "B3", "Le « Grand » tournoi, 2ᵉ édition"), ("Résultats", "B2", "O'BRIEN"),
                          ("Résultats", "C40", "Jean-Éric")]) == []


def test_a_grand_sud_template_without_a_directory_offers_no_empty_club_list(tmp_path):
    """With no clubs.xlsx, a list of the `Clubs` sheet's rows would be a list of nothing (or of its
    header): every club typed would be refused. The club cells are input help only."""
    (tmp_path / "inputs").mkdir()
    done = subprocess.run([REPORTGEN, "template", "grand-sud", "--inputs", str(tmp_path / "inputs"),
                           "--outputs", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    book = openpyxl.load_workbook(tmp_path / "out" / "modeles" / "modele-grand-sud.xlsx")
    typed = fill(book, "grand-sud")
    assert ("Résultats", "E2", "Carcassonne") in typed and refused(book, typed) == []
    assert not any(rule.type == "list" and "Clubs!" in (rule.formula1 or "")
                   for sheet in book for rule in sheet.data_validations.dataValidation)


def test_the_grand_sud_example_names_a_club_of_the_league(tmp_path):
    """A league without Carcassonne: the example's club is one its list offers, not a refused one."""
    inputs = tmp_path / "inputs"
    write_clubs(inputs, ClubDirectory([Club("BEZ", "Béziers", "34"), Club("SETE", "Sète", "34")]))
    book = openpyxl.load_workbook(template(tmp_path, "grand-sud", club=False))
    assert [book["Exemple"][f"E{row}"].value for row in (2, 3, 4)] == ["Béziers", "Sète", "Béziers"]
    typed = fill(book, "grand-sud", {"Club": "BEZ"})
    assert ("Tournoi", "B5", "BEZ") in typed and refused(book, typed) == []


def test_a_circuit_without_a_blank_workbook_says_which_have_one(tmp_path):
    done = subprocess.run([REPORTGEN, "template", "masters", "--inputs", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and "grand-sud, tour-de-france" in done.stderr


def test_the_help_names_what_has_a_blank_workbook_as_the_refusal_does():
    """The help sent to « reportgen circuits », which lists the Masters, Tantrix and pool tournaments
    too, all refused (« pas de classeur à remplir pour « tantrix » ; circuits : grand-sud,
    tour-de-france »): it names the values accepted, from the registry as the refusal does."""
    helped = subprocess.run([REPORTGEN, "template", "--help"], capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    words = " ".join(helped.stdout.replace("│", " ").split())
    assert helped.returncode == 0 and "reportgen circuits" not in words
    assert f"Le circuit du tournoi ({', '.join(WITH_TEMPLATES)}), ou « calendrier » pour le calendrier de la " \
           "ligue." in words


@pytest.mark.parametrize(("circuit", "then"), [
    ("grand-sud", "à envoyer au club qui organise le tournoi ; une fois rempli, déposez-le dans {inputs} (dans le "
                  "sous-dossier de votre choix) : « make » le lit là"),
    ("calendrier", "une fois rempli, enregistrez-le sous le nom {inputs}/calendrier.xlsx : « make » et « reportgen "
                   "remind » le lisent là"),
])
def test_a_blank_workbook_written_says_where_it_goes_once_filled(tmp_path, circuit, then):
    """It said where it was written (outputs/modeles/) alone: nobody told the secretary that the
    calendar must become inputs/calendrier.xlsx, where `remind` and the build look for it, nor that
    a club's workbook goes back into inputs/."""
    write_clubs(tmp_path / "inputs")
    done = subprocess.run([REPORTGEN, "template", circuit, "--inputs", str(tmp_path / "inputs"), "--outputs",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.splitlines() == [
        f"classeur à remplir écrit : {tmp_path / 'out' / 'modeles' / f'modele-{circuit}.xlsx'}",
        then.format(inputs=tmp_path / "inputs")]


def test_without_outputs_the_blank_calendar_goes_to_the_current_folder_s_outputs_and_says_it_whole(tmp_path):
    """As every command, `template calendrier` reads ./inputs and writes ./outputs by default (README:
    `make` builds any league into ./outputs), but it said « outputs/modeles/modele-calendrier.xlsx »:
    with --inputs naming another league's folder, not which outputs/. It says both folders whole."""
    league, elsewhere = tmp_path / "ligue", tmp_path / "ailleurs"
    write_clubs(league / "inputs")
    elsewhere.mkdir()
    for cwd, options, inputs in ((league, [], league / "inputs"),
                                 (elsewhere, ["--inputs", str(league / "inputs")], league / "inputs")):
        done = subprocess.run([REPORTGEN, "template", "calendrier", *options], cwd=cwd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        written = cwd / "outputs" / "modeles" / "modele-calendrier.xlsx"
        assert openpyxl.load_workbook(written).sheetnames == ["Calendrier", "Exemple", "Clubs"]
        assert done.stderr.splitlines() == [
            f"classeur à remplir écrit : {written}",
            f"une fois rempli, enregistrez-le sous le nom {inputs / 'calendrier.xlsx'} : « make » et « reportgen "
            "remind » le lisent là"]


@pytest.mark.parametrize("circuit", ["grand-sud", "calendrier"])
def test_a_club_s_bad_address_is_a_warning_that_does_not_stop_a_blank_workbook(tmp_path, circuit):
    """A warning blocks nothing (README): the blank workbook is written, the warning said."""
    inputs = tmp_path / "inputs"
    book = openpyxl.load_workbook(write_clubs(inputs))
    book["Clubs"]["D2"] = "contact carc.example.org"
    book.save(inputs / "clubs.xlsx")
    done = subprocess.run([REPORTGEN, "template", circuit, "--inputs", str(inputs), "--outputs",
                           str(tmp_path / "outputs")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "1 avertissement" in done.stderr and "« contact carc.example.org »" in done.stderr
    assert (tmp_path / "outputs" / "modeles" / f"modele-{circuit}.xlsx").is_file()


def test_a_club_code_of_no_club_is_a_mistyped_command_said_alone(tmp_path):
    """`template grand-sud --club XXXX` exited 1, as for workbooks to correct, after clubs.xlsx's
    warnings: a code of no club is a mistyped command (README: exit 2), that line alone, with the
    codes there are; nothing written."""
    inputs = tmp_path / "inputs"
    book = openpyxl.load_workbook(write_clubs(inputs))
    book["Clubs"]["D2"] = "contact carc.example.org"  # a warning, said when a workbook is written
    book.save(inputs / "clubs.xlsx")
    done = subprocess.run([REPORTGEN, "template", "grand-sud", "--club", "XXXX", "--inputs", str(inputs), "--outputs",
                           str(tmp_path / "outputs")], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"le club « XXXX » n’est pas dans {inputs / 'clubs.xlsx'} ; codes : CARC, TLSE, "
                                        "ALBI, MTPL, PERP, NIME, MARS"]
    assert not (tmp_path / "outputs").exists()
