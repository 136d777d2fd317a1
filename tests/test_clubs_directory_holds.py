"""A blocking problem of clubs.xlsx holds back only the circuits whose workbooks name clubs (the Grand
Sud and the Masters: `CircuitInfo.needs_clubs`). The Tour de France, Tantrix and the pool
tournaments name none: they still build and publish (README: « A circuit with any problem publishes
nothing new: its previous outputs stay as they were, the other circuits still build »)."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from reportgen import circuits
from reportgen.pipeline import build, load, score
from reportgen.render.index import MANIFEST
from tests.builders import TODAY, write_workbook
from tests.conftest import EXAMPLE_INPUTS
from tests.test_incremental_build import stub_pdfs  # noqa: F401  (a fixture)

NAMING_CLUBS = ["grand-sud", "masters"]
NAMING_NONE = ["tour-de-france", "poules", "tantrix"]


def break_clubs(inputs: Path) -> None:
    """The example league's clubs.xlsx with its `Code` header mistyped: no club can be read."""
    book = openpyxl.load_workbook(inputs / "clubs.xlsx")
    book["Clubs"]["A1"] = "Codes"
    book.save(inputs / "clubs.xlsx")


@pytest.fixture
def league(tmp_path) -> Path:
    inputs = tmp_path / "inputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    break_clubs(inputs)
    return inputs


def test_the_registry_says_which_circuits_name_clubs():
    assert [slug for slug, info in circuits.REGISTRY.items() if info.needs_clubs] == NAMING_CLUBS


def test_a_broken_club_directory_holds_back_the_circuits_that_name_clubs_only(league):
    found = load(league, TODAY)
    [problem] = found.all_problems()
    assert problem.where.path == "clubs.xlsx" and problem.blocking
    scored = score(found)
    assert sorted(scored.blocked) == sorted(NAMING_CLUBS)
    assert all(scored.blocked[slug] == [problem] for slug in NAMING_CLUBS)
    assert sorted(scored.reports) == sorted(NAMING_NONE)


def test_a_calendar_naming_clubs_blocks_nothing_more_while_the_directory_is_broken(league):
    """Every club of calendrier.xlsx is « inconnu » while clubs.xlsx cannot be read: not said (the
    directory's problem is the cause, said once), and the calendar's problems would hold back every
    circuit."""
    write_workbook(league / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["14/03/2026", "tantrix", "TLSE", "", ""],
        ["14/11/2026", "grand-sud", "AUCH", "", ""]]})
    found = load(league, TODAY)
    assert [p.where.path for p in found.all_problems()] == ["clubs.xlsx"]
    assert sorted(score(found).reports) == sorted(NAMING_NONE)
    assert [entry.club for entry in found.calendar if entry.date.isoformat() == "2026-11-14"] == ["AUCH"]


def test_the_build_publishes_the_circuits_that_name_no_club(league, tmp_path, stub_pdfs):  # noqa: F811
    outputs = tmp_path / "outputs"
    result = build(league, outputs, TODAY)
    assert not result.ok and [p.where.path for p in result.problems] == ["clubs.xlsx"]
    assert sorted(result.blocked) == sorted(NAMING_CLUBS)
    assert sorted(result.published) == sorted(NAMING_NONE)
    assert all((outputs / slug / MANIFEST).is_file() for slug in NAMING_NONE)
    assert not any((outputs / slug).exists() for slug in NAMING_CLUBS)
    page = (outputs / "verification.html").read_text("utf-8")
    assert "1 problème à corriger" in page
    assert ("ne publie rien de nouveau pour « Classement régional Grand Sud » et « Masters Grand Sud »"
            in page.replace("\u202f", " ").replace("\xa0", " "))
