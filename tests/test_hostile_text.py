"""Hostile text in workbooks (issue 13): formula injection in the CSV, control characters, names in
other scripts. One league holds every hostile name of a valid tournament (built once: its two new
bulletins are rendered once); a refused case is a build of its own that must leave the outputs as
they were."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import openpyxl
import pytest

from reportgen.pipeline import build
from reportgen.render.ranking import spreadsheet_safe
from tests.builders import TODAY
from tests.test_hostile_files import raw_workbook, refused, snapshot, text_cell, tournament_sheet

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def cell(value: object) -> str:
    if isinstance(value, int):
        return f"<c><v>{value}</v></c>"
    # OOXML writes a control character as _xHHHH_: how Excel keeps ESC or BEL typed in a cell.
    text = escape(str(value))
    text = "".join(f"_x{ord(c):04X}_" if ord(c) < 32 or ord(c) == 0x7f else c for c in text)
    return text_cell(None, text)


def results_sheet(players: list[tuple[str, str]]) -> str:
    header = ["Place", "Nom", "Prénom", "Licence", "Club"]
    lines = [header] + [[place, last, first, "", "Albi"] for place, (last, first) in enumerate(players, 1)]
    return "".join(f"<row>{''.join(cell(value) for value in line)}</row>" for line in lines)


def hostile_tournament(players: list[tuple[str, str]], day: str = "01/03/2026") -> bytes:
    return raw_workbook({"Tournoi": tournament_sheet(day), "Résultats": results_sheet(players)})


HOSTILE = [
    ("=1+1", "Formule"),
    ("@SUM(1+1)", "Arobase"),
    ('=HYPERLINK("http://example.org/?"&A1,"Cliquez")', "Lien"),
    ("+2+3", "Plus"),
    ("-2+3", "Moins"),
    ("ИВАНОВ", "Иван"),
    ("王", "伟"),
    ("李", "娜"),
    ("محمد", "علي"),
    ("כהן", "משה"),
    ("DU\x00RAND", "Zo\x1bé\x07"),  # NUL, ESC and BEL inside a name
    ("DUPONT 🎲", "Un"),
    ("DUPONT 🃏", "Un"),
    ("\u200fDUPONT", "Jean"),  # a right-to-left mark: still DUPONT Jean (licence 1001 elsewhere)
]


@pytest.fixture(scope="module")
def hostile_league(small_league_built, tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-text")
    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(small_league_built, folder), root / folder)
    (root / "inputs" / "2026-03-01-albi.xlsx").write_bytes(hostile_tournament(HOSTILE))
    result = build(root / "inputs", root / "outputs", TODAY)
    assert result.ok and not result.blocked, result.problems
    return root


def csv_rows(path: Path) -> list[dict[str, str]]:
    """A published CSV (French Excel convention: `;`, BOM, French headings), by column key."""
    keys = {"Place": "rank", "Joueur": "player", "Licence": "licence", "Club": "club", "Tournois joués": "played",
            "Évolution": "evolution"}
    rows = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig")), delimiter=";")
    return [{keys.get(heading, heading): value for heading, value in row.items()} for row in rows]


# -- formula injection -----------------------------------------------------------------------------

def test_names_that_start_like_a_formula_are_text_in_the_published_csv(hostile_league):
    rows = csv_rows(hostile_league / "outputs" / "grand-sud" / "2026" / "classement-2026-03-01.csv")
    players = [row["player"] for row in rows]
    for expected in ["'=1+1 Formule", "'@SUM(1+1) Arobase", "'=HYPERLINK(\"HTTP://EXAMPLE.ORG/?\"&A1,\"CLIQUEZ\") Lien",
                     "'+2+3 Plus", "'-2+3 Moins"]:
        assert expected in players, players
    assert not [p for p in players if p.startswith(("=", "+", "-", "@", "\t", "\r"))]
    # numbers are data: the evolution column keeps its signs (DUPONT Jean lost 4 places)
    evolutions = {row["player"]: row["evolution"] for row in rows}
    assert evolutions["DUPONT Jean"] == "-4"
    assert all(re.fullmatch(r"nouveau|0|[+-]\d+", value) for value in evolutions.values()), evolutions


@pytest.mark.parametrize("value, expected", [
    ("=1+1", "'=1+1"), ("@SUM(1+1)", "'@SUM(1+1)"), ("+33 6", "'+33 6"), ("-Moins", "'-Moins"),
    ("\tTab", "'\tTab"), ("\rRetour", "'\rRetour"), ('=HYPERLINK("x","y")', '\'=HYPERLINK("x","y")'),
    ("-3", "-3"), ("+2", "+2"), ("-1,5", "-1,5"), ("0", "0"), ("nouveau", "nouveau"), (-3, -3), (12.5, 12.5),
    ("DUPONT Jean", "DUPONT Jean"), ("", ""),
])
def test_owasp_csv_neutralisation(value, expected):
    assert spreadsheet_safe(value) == expected


def test_standings_as_csv_are_neutralised_too(hostile_league, tmp_path):
    done = subprocess.run([REPORTGEN, "standings", "grand-sud", "--season", "2026", "--format", "csv", "--inputs",
                           str(hostile_league / "inputs")], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    players = [row["player"] for row in csv.DictReader(io.StringIO(done.stdout))]
    assert "'=1+1 Formule" in players and not [p for p in players if p.startswith(("=", "+", "-", "@"))]


def test_the_annex_keeps_the_names_as_text(hostile_league):
    book = openpyxl.load_workbook(hostile_league / "outputs" / "grand-sud" / "2026" / "annexe-grand-sud-2026.xlsx")
    names = {c.value: c.data_type for row in book["Classement final provisoire"].iter_rows(min_row=2) for c in row[1:2]}
    assert names["=1+1 Formule"] == "s" and names["@SUM(1+1) Arobase"] == "s"


# -- control characters ----------------------------------------------------------------------------

def test_control_characters_reach_no_output(hostile_league):
    outputs = hostile_league / "outputs"
    for path in outputs.rglob("*"):
        if path.suffix in (".html", ".csv", ".json"):
            assert not CONTROL.search(path.read_bytes()), path
        elif path.suffix == ".xlsx":
            with __import__("zipfile").ZipFile(path) as archive:
                for name in archive.namelist():
                    assert not CONTROL.search(archive.read(name)), (path, name)
                    assert b"_x001B_" not in archive.read(name) and b"_x0007_" not in archive.read(name)
    # poppler's pdftotext (pypdf cannot read the fallback fonts of the other scripts' names)
    text = subprocess.run(["pdftotext", outputs / "grand-sud" / "2026" / "classement-2026-03-01.pdf", "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "DURAND Zoé" in text and "ИВАНОВ Иван" in text
    assert not re.search(r"[\x00-\x08\x0b\x0e-\x1f\x7f]", text)  # form feeds separate pages
    assert "DURAND Zoé" in (outputs / "grand-sud" / "2026" / "classement-2026-03-01.html").read_text()


def test_an_escape_sequence_quoted_in_a_message_is_harmless(small_league_copy):
    """`\\e[2J\\e]0;TITRE\\a` would clear the screen and set the window title when quoted."""
    data = raw_workbook({"Tournoi": tournament_sheet(day="_x001B_[2J_x001B_]0;TITRE_x0007_"),
                         "Résultats": results_sheet([("DUPONT", "Jean")])})
    problems = refused(small_league_copy, "2026-03-01-albi.xlsx", data)
    assert problems == ["2026-03-01-albi.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : « [2J]0;TITRE » n’est pas une date "
                        "— écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026"]


def test_a_file_name_with_a_newline_forges_no_line(small_league_copy, tmp_path):
    name = "2026-03-01-albi\n  - faux problème.xlsx"
    data = hostile_tournament([("DUPONT", "Jean")], day="le 1er")
    problems = refused(small_league_copy, name, data)
    assert problems == ["2026-03-01-albi\\n  - faux problème.xlsx, feuille « Tournoi », cellule B3 (champ « Date ») : « le 1er » "
                        "n’est pas une date — écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026"]
    done = subprocess.run([REPORTGEN, "check", "--inputs", str(small_league_copy.inputs)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1
    listed = [line for line in done.stderr.splitlines() if line.startswith("  - ")]
    assert listed == ["  - " + problems[0]]


@pytest.mark.parametrize("name", ["\x1b\x07", "\x00", "\u200f\u200e", "\x1b[\x07"[:1] + "\x7f"],
                         ids=["esc-bel", "nul", "bidi-marks", "esc-del"])
def test_a_name_made_only_of_control_characters_is_refused(small_league_copy, name):
    data = hostile_tournament([("DUPONT", "Jean"), (name, "")])
    problems = refused(small_league_copy, "2026-03-01-albi.xlsx", data)
    assert problems == ["2026-03-01-albi.xlsx, feuille « Résultats », cellule B3 (colonne « Nom ») : la case ne contient que des "
                        "caractères invisibles (caractères de contrôle) — effacez-la et tapez la valeur, ou "
                        "laissez-la vide"]


# -- names in other scripts ----------------------------------------------------------------------

def test_names_in_other_scripts_are_distinct_players(hostile_league):
    rows = csv_rows(hostile_league / "outputs" / "grand-sud" / "2026" / "classement-provisoire-2026.csv")
    played = {row["player"]: row["played"] for row in rows}
    for player in ["ИВАНОВ Иван", "王 伟", "李 娜", "محمد علي", "כהן משה", "DUPONT 🎲 Un", "DUPONT 🃏 Un"]:
        assert played.get(player) == "1", (player, sorted(played))


def test_a_right_to_left_mark_does_not_make_another_player(hostile_league):
    rows = csv_rows(hostile_league / "outputs" / "grand-sud" / "2026" / "classement-provisoire-2026.csv")
    duponts = [row for row in rows if "Jean" in row["player"] and "DUPONT" in row["player"]]
    assert [(row["player"], row["licence"]) for row in duponts] == [("DUPONT Jean", "1001")]
    assert not [row for row in rows if "\u200f" in row["player"]]


def test_the_hostile_league_is_published_whole_and_the_next_build_rewrites_nothing(hostile_league):
    before = snapshot(hostile_league / "outputs")
    assert build(hostile_league / "inputs", hostile_league / "outputs", TODAY).published["grand-sud"] == []
    assert snapshot(hostile_league / "outputs") == before


def test_the_league_name_from_the_settings_loses_its_control_characters(tmp_path):
    from reportgen.pipeline import load
    from tests.builders import TODAY, write_clubs, write_tournament

    write_clubs(tmp_path)
    write_tournament(tmp_path, "t")
    (tmp_path / "reportgen.toml").write_text('[league]\nname = "Ligue\\u001b[2J du \\u0007Sud"\n', encoding="utf-8")
    assert load(tmp_path, TODAY).settings.name == "Ligue[2J du Sud"


def test_file_names_made_from_names_never_meet():
    """A Tantrix event or a pool tournament named in another script gets a file name of its own
    (before: every name without a Latin letter was « tournoi »: the second bulletin replaced the first)."""
    from reportgen.circuits.common import slug

    assert slug("Coupe d’été") == slug("Coupe d'été") == "coupe-d-ete"
    assert slug("王伟杯") != slug("李娜杯") and slug("王伟杯").isalnum()
