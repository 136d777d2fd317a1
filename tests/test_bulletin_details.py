"""Details a secretary noticed in the outputs, each fixed once and kept so."""

import io
import re

import openpyxl

from reportgen.render import excel, html
from reportgen.render.html import TEMPLATES


def test_the_league_name_keeps_its_case_and_the_legend_is_readable():
    css = (TEMPLATES / "bulletin.css").read_text()
    league_rule = re.search(r"\.masthead \.league \{([^}]*)\}", css)[1]
    assert "uppercase" not in league_rule  # « Des Chiffres et des Lettres » is a name
    assert float(re.search(r"\.legend \{[^}]*font-size: ([\d.]+)pt", css)[1]) >= 8


def test_the_site_names_each_regulation_by_its_title(small_league_built):
    page = (small_league_built.outputs / "site" / "grand-sud-2026.html").read_text()
    assert "« Règlement Classement Masters »" in page and "000_33ab" not in page


def test_tournament_names_of_the_example_elide_de_before_a_vowel(example_league):
    names = [e.name for inputs in example_league.circuits.values() for e in inputs.events]
    assert "Tournoi d'Auch" in names
    assert not [name for name in names if re.search(r"\bde [AEIOUYÉaeiouyé]", name)]


def test_the_masters_titles_do_not_repeat_the_masthead(example_scored):
    for document in example_scored.reports["masters"].documents:
        assert "Masters Grand Sud" not in document.title, document.title
        page = html.render(document)
        assert page.count("Masters Grand Sud") == 2  # the <title> and the masthead, once each


def test_the_match_sheets_have_signature_boxes_for_the_players_and_the_referee(example_scored):
    sheets = next(d for d in example_scored.reports["masters"].documents if d.template.endswith("match_sheets.html.j2"))
    page = html.render(sheets)
    assert page.count("Signature de l'arbitre") == 15 and page.count('<td class="signature">') == 15 * 8


def test_the_annex_stores_evolution_as_a_number_of_places(example_scored):
    annex = next(a for a in example_scored.reports["grand-sud"].annexes if a.season == 2026)
    sheet = openpyxl.load_workbook(io.BytesIO(excel.render_annex(annex)))["Classement final"]
    header = [cell.value for cell in sheet[1]]
    values = [row[header.index("Évolution")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert all(isinstance(v, int) or v == "nouveau" for v in values) and any(isinstance(v, int) and v for v in values)
