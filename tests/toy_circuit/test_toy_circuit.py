"""The proof that a circuit is its folder: the toy circuit of this folder, registered as a plug-in,
goes through the real commands (build, check, standings, mail, archive) like a built-in one, and
no module of reportgen names it."""

import dataclasses
import email
import email.policy
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from reportgen import circuits, clock
from reportgen.cli import app
from tests.builders import write_clubs, write_workbook
from tests.toy_circuit.info import INFO

ROOT = Path(__file__).resolve().parents[2]
YEAR = clock.today().year - 1  # a season over: its ranking is final


@pytest.fixture
def registered():
    circuits.register(INFO)
    yield INFO
    circuits.unregister(INFO.slug)


def write_tournament(inputs: Path, name: str, day: str, results: list[list[object]]) -> None:
    write_workbook(inputs / INFO.slug / f"{name}.xlsx", {
        "Tournoi": [["Circuit", INFO.slug], ["Nom", f"Tournoi de {name}"], ["Date", day], ["Allées", 4]],
        "Quilles": [["Place", "Nom", "Prénom", "Club"], *results]})


@pytest.fixture
def league(tmp_path, registered):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "albi", f"14/03/{YEAR}", [[1, "AMAR", "Ali", "ALBI"], [2, "BRUN", "Léa", "TLSE"],
                                                       [3, "COSTE", "Jean", "ALBI"]])
    write_tournament(inputs, "toulouse", f"11/04/{YEAR}", [[1, "BRUN", "Léa", "TLSE"], [2, "AMAR", "Ali", "ALBI"],
                                                           [3, "COSTE", "Jean", "ALBI"]])
    (inputs / "reportgen.toml").write_text('[mail]\nhost = "127.0.0.1"\nport = 2525\nsecurity = "none"\n'
                                           'sender = "Ligue <secretariat@example.org>"\n', encoding="utf-8")
    return tmp_path


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_the_toy_circuit_goes_through_every_command(league):
    inputs, outputs, archive = (str(league / name) for name in ("inputs", "outputs", "archive"))
    where = ["--inputs", inputs, "--archive", archive]

    built = run("build", *where, "--outputs", outputs, "--quiet")
    assert built.exit_code == 0, built.stderr
    folder = league / "outputs" / INFO.slug / str(YEAR)
    assert {p.name for p in folder.iterdir()} == {f"classement-{YEAR}.html", f"classement-{YEAR}.pdf",
                                                  f"classement-{YEAR}.csv", f"annexe-{YEAR}.xlsx"}
    assert "BRUN Léa" in (folder / f"classement-{YEAR}.html").read_text(encoding="utf-8")
    annex = openpyxl.load_workbook(folder / f"annexe-{YEAR}.xlsx")
    assert [[c.value for c in row][:4] for row in annex["Classement"].iter_rows(max_row=2)][1][:2] == [1, "AMAR Ali"]

    checked = run("check", *where, "--outputs", outputs)
    assert checked.exit_code == 0 and "2 tournois lus, aucun problème." in checked.stdout

    standings = run("standings", INFO.slug, *where, "--format", "csv")
    # AMAR 10 + 8 and BRUN 8 + 10 share the first place (ordered by name), COSTE 6 + 6.
    assert standings.exit_code == 0
    lines = standings.stdout.splitlines()
    assert lines[0].startswith("rank,player") and "points" in lines[0]
    assert [line.split(",")[:2] for line in lines[1:]] == [["1", "AMAR Ali"], ["1", "BRUN Léa"], ["3", "COSTE Jean"]]

    mailed = run("mail", *where, "--outputs", outputs)
    assert mailed.exit_code == 0, mailed.stderr
    draft = league / "outputs" / "mail" / str(YEAR) / "ALBI.eml"
    message = email.message_from_bytes(draft.read_bytes(), policy=email.policy.default)
    text = next(part for part in message.walk() if part.get_content_type() == "text/plain").get_content()
    assert "AMAR Ali, 18 points" in text and "COSTE Jean, 12 points" in text and "BRUN" not in text
    # The club's own bulletin, the toy's part by the default (its circuit gives no club_sections).
    assert [a.get_filename() for a in message.iter_attachments()][-1] == f"bulletin-ALBI-{YEAR}.pdf"
    assert (league / "outputs" / "clubs" / str(YEAR) / "ALBI.pdf").is_file()

    archived = run("archive", "--season", str(YEAR), *where, "--outputs", outputs)
    assert archived.exit_code == 0, archived.stderr
    copied = league / "archive" / str(YEAR) / "v1"
    assert (copied / "outputs" / INFO.slug / str(YEAR) / f"classement-{YEAR}.pdf").is_file()
    assert (copied / "inputs" / INFO.slug / "albi.xlsx").is_file()
    verified = run("archive", "verify", "--archive", archive)
    assert verified.exit_code == 0, verified.stderr


def test_no_module_of_reportgen_names_the_toy_circuit():
    words = (INFO.slug, INFO.package.rpartition(".")[2])
    named = [path for path in (ROOT / "reportgen").rglob("*.py") if any(word in path.read_text() for word in words)]
    assert named == []


def test_a_tournoi_field_that_clashes_is_refused_when_the_circuit_registers(registered):
    # Two circuits may give a field the same key: each workbook's fields are its circuit's.
    other = dataclasses.replace(INFO, slug="quilles-bis", package="tests.quilles_bis")
    circuits.register(other)
    circuits.unregister(other.slug)
    clash = dataclasses.replace(other, fields=(("allees", ("Allées",)), ("ville", ("Ville",))))  # Ville: the Lieu
    with pytest.raises(RuntimeError):
        circuits.register(clash)
    with pytest.raises(RuntimeError):
        circuits.register(INFO)  # registered already
    assert other.slug not in circuits.REGISTRY


def test_an_installed_package_adds_its_circuit_through_an_entry_point(tmp_path):
    """The standard plug-in seam: a distribution declaring `reportgen.circuits` entry points."""
    metadata = tmp_path / "site" / "reportgen_quilles-0.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: reportgen-quilles\nVersion: 0\n")
    (metadata / "entry_points.txt").write_text(f"[{circuits.PLUGINS}]\n{INFO.slug} = tests.toy_circuit.info:INFO\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "reportgen", "circuits"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{INFO.slug:16} {INFO.title}" in done.stdout
