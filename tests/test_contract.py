"""The circuit contract: every scored circuit of the registry reads a tiny workbook of its own,
scores it, and every template it declares renders (HTML), with its rankings and annexes.

A new circuit adds its writer here, named after its package (TINY_LEAGUE), or this test fails."""

import datetime as dt
import importlib
import io

import openpyxl
import pytest

from reportgen import circuits
from reportgen.circuits.masters.prepare import prepare
from reportgen.pipeline import load, score
from reportgen.render import excel, html
from reportgen.render.ranking import to_csv, to_json
from tests.builders import CLUBS, players, write_clubs, write_tournament, write_workbook

TODAY = dt.date(2026, 12, 31)
NAMES = players(17)


def grand_sud(inputs):
    write_tournament(inputs, "gs", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])


def masters(inputs):
    """The Masters workbook as `masters prepare` writes it, one match typed."""
    league = load(inputs, TODAY)
    prepared = prepare(2026, score(league, ["grand-sud"]).reports["grand-sud"], [], dt.date(2026, 12, 12),
                       "Albi", league.settings.circuits["masters"])
    assert not prepared.problems
    book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(prepared.change.workbook)))
    book["Matchs"]["E2"], book["Matchs"]["F2"] = 7, 5
    (inputs / "masters").mkdir()
    book.save(inputs / "masters" / "masters-2026.xlsx")


def tour_de_france(inputs):
    write_workbook(inputs / "tdf.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", "Coupe de test"], ["Date", "05/05/2026"]],
        "Résultats": [["Place", "Nom", "Prénom"], *[[place, *name.split(" ")] for place, name in
                                                   enumerate(NAMES[:8], start=1)]]})


def tantrix(inputs):
    write_workbook(inputs / "tantrix.xlsx", {
        "Tournoi": [["Circuit", "tantrix"], ["Nom", "Open de test"], ["Date", "05/05/2026"], ["Type", "toutes-rondes"]],
        "Parties": [["Ronde", "Joueur A", "Joueur B", "Tuiles A", "Tuiles B"], [1, NAMES[0], NAMES[1], 27, 19]]})


def poules(inputs):
    """A final pool of three, as `poules next` writes it, two results typed."""
    three = NAMES[:3]
    write_workbook(inputs / "poules.xlsx", {
        "Tournoi": [["Circuit", "poules"], ["Nom", "Tournoi en ligne de test"], ["Date", "05/05/2026"]],
        "Inscrits": [["Joueur", "Points RON", "Inscription"]] + [[name, 1800 - index, f"0{index + 1}/04/2026 10:00"]
                                                                 for index, name in enumerate(three)],
        "Parties": [["Tour", "Poule", "Blancs", "Noirs", "Résultat", "Phase"]] + [
            [1, "A", white, black, "1-0" if index < 2 else None, "principale"]
            for index, (white, black) in enumerate((w, b) for w in three for b in three if w != b)]})


# Each registered circuit's writer: the function of this module named after its package.
TINY_LEAGUE = {slug: globals()[info.package.rpartition(".")[2]] for slug, info in circuits.REGISTRY.items()
               if info.package.rpartition(".")[2] in globals()}


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    inputs = tmp_path_factory.mktemp("contract") / "inputs"
    write_clubs(inputs)
    for slug in circuits.CIRCUITS:  # registry order: what a circuit requires is written before it
        TINY_LEAGUE[slug](inputs)
    league = load(inputs, TODAY)
    assert league.all_problems() == []
    return league, score(league)


def test_every_scored_circuit_has_a_tiny_league_here():
    assert set(TINY_LEAGUE) == set(circuits.CIRCUITS)


@pytest.mark.parametrize("slug", list(circuits.CIRCUITS))
def test_every_scored_circuit_parses_scores_and_renders_every_template(scored, slug):
    league, result = scored
    assert league.circuits[slug].events and slug not in result.blocked
    report = result.reports[slug]
    info = circuits.REGISTRY[slug]
    assert {document.template for document in report.documents} == set(info.templates)
    for document in report.documents:
        page = html.render(document)
        assert page.startswith("<!DOCTYPE html>") and document.title in page.replace("&#39;", "'")
    assert report.rankings and report.annexes
    for ranking in report.rankings:
        identity = [column.key for column in ranking.identity]  # rank, player (licence, club)
        assert to_csv(ranking).decode().splitlines()[0].split(",")[:len(identity)] == identity
        assert len(to_json(ranking)) > 0 and [row.rank for row in ranking.rows] == sorted(r.rank for r in ranking.rows)
    for annex in report.annexes:
        book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(annex)))
        assert book.sheetnames == [sheet.name for sheet in annex.sheets]


def cut_headers(annex) -> list[str]:
    """The headers of an annex or blank workbook with a word wider than its column: a spreadsheet
    cuts that word over two lines (the header row wraps), « Départe » over « ment ». A column's
    width counts digits; a word's letters, bold, take about as much, narrow ones less: as
    LibreOffice prints them, « Participants » holds in 11 and « Provisoire » in 9, « Département »
    does not in 8 (hence 15 % of slack)."""
    return [f"{sheet.name}: « {column.header} » in {column.width:g}" for sheet in annex.sheets
            for column in sheet.columns if any(len(word) > 1.15 * column.width for word in column.header.split())]


@pytest.mark.parametrize("slug", list(circuits.CIRCUITS))
def test_no_header_word_is_cut_in_a_circuits_annexes_or_blank_workbook(scored, slug):
    _, result = scored
    found = [cut for annex in result.reports[slug].annexes for cut in cut_headers(annex)]
    info = circuits.REGISTRY[slug]
    if info.template:
        module = importlib.import_module(info.template_module)
        found += cut_headers(module.blank_workbook(CLUBS, CLUBS.clubs[0], TODAY))
    assert found == []
