"""Details a secretary noticed in the outputs, each fixed once and kept so."""

import dataclasses
import io
import re

import openpyxl
from pypdf import PdfReader

from reportgen.render import excel, html, pdf, verification
from reportgen.render.html import TEMPLATES


def test_the_league_name_keeps_its_case_and_the_legend_is_readable():
    css = (TEMPLATES / "bulletin.css").read_text()
    league_rule = re.search(r"\.masthead \.league \{([^}]*)\}", css)[1]
    assert "uppercase" not in league_rule  # « Des Chiffres et des Lettres » is a name
    assert float(re.search(r"\.legend \{[^}]*font-size: ([\d.]+)pt", css)[1]) >= 8


def test_the_league_name_is_set_in_french_typography_in_the_bulletins_and_the_secretary_s_page(example_scored):
    # the secretary's own words, as the site's pages set them (tests/test_site_typography.py): « Sud — »
    # and « Jeux : » never cut before their sign on a phone or in a narrow masthead
    league, typeset = "Ligue Sud — Jeux : Cie", "Ligue Sud\u00a0— Jeux\u00a0: Cie"
    document = example_scored.reports["masters"].documents[0]
    page = html.render(dataclasses.replace(document, context={**document.context, "league": league}))
    assert f'<p class="league">{typeset}</p>' in page
    checked = verification.render_page([], [], league, "3 décembre 2026")
    assert f"<title>{typeset}&nbsp;— vérification" in checked and f'<p class="league">{typeset}</p>' in checked


def test_the_site_names_each_regulation_by_its_title(small_league_built):
    page = (small_league_built.outputs / "site" / "grand-sud-2026.html").read_text()
    assert "<cite>Règlement Classement Masters</cite>" in page and "000_33ab" not in page  # a title, named once


def test_tournament_names_of_the_example_elide_de_before_a_vowel(example_league):
    names = [e.name for inputs in example_league.circuits.values() for e in inputs.events]
    assert "Tournoi d'Auch" in names
    assert not [name for name in names if re.search(r"\bde [AEIOUYÉaeiouyé]", name)]


def test_the_masters_titles_do_not_repeat_the_masthead(example_scored):
    for document in example_scored.reports["masters"].documents:
        assert "Masters Grand Sud" not in document.title, document.title
        page = html.render(document)
        # the <title> and the masthead, once each; and the printed pages' footer (the masthead's
        # data-running), which names the circuit beside the title
        assert re.sub(r' data-running="[^"]*"', "", page).count("Masters Grand Sud") == 2
        assert html.running_title(document).count("Masters Grand Sud") == 1


def test_the_match_sheets_have_signature_boxes_for_the_players_and_the_referee(example_scored):
    sheets = next(d for d in example_scored.reports["masters"].documents if d.template.endswith("match_sheets.html.j2"))
    page = html.render(sheets)
    assert page.count("Signature de l’arbitre") == 15 and page.count('<td class="signature">') == 15 * 8


def test_the_annex_stores_evolution_as_a_number_of_places(example_scored):
    annex = next(a for a in example_scored.reports["grand-sud"].annexes if a.season == 2026)
    sheet = openpyxl.load_workbook(io.BytesIO(excel.render_annex(annex)))["Classement final provisoire"]  # the 2026 season runs
    header = [cell.value for cell in sheet[1]]
    values = [row[header.index("Évolution")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert all(isinstance(v, int) or v == "nouveau" for v in values) and any(isinstance(v, int) and v for v in values)


def pages_of(page: str, *words: str) -> list[int]:
    """The page of the PDF rendered from `page` that each word is first on."""
    texts = [found.extract_text() for found in PdfReader(io.BytesIO(pdf.render_pdf(page))).pages]
    return [next(number for number, text in enumerate(texts) if word in text) for word in words]


# The sections of the bulletins' templates whose heading a line introduces before a table:
# (the line's class, what follows it, « {first} » its first row).
INTRODUCED = {
    "grand-sud tournament": ("summary", '<div class="scroll"><table class="latest"><thead><tr><th>Place</th>'
                             "<th>Joueur</th></tr></thead><tbody><tr><td>1</td><td>{first}</td></tr>"
                             + "<tr><td>2</td><td>Joueur</td></tr>" * 4 + "</tbody></table></div>"),
    "tour-de-france tournament": ("summary", '<div class="scale keep-together"><h3>Barème</h3>'
                                  '<div style="height: 40mm"></div><div class="wide-only"><div class="scroll">'
                                  "<table><tbody><tr><td>{first}</td></tr></tbody></table></div></div>"
                                  '<table class="narrow-only"><tbody><tr><td>1</td></tr></tbody></table></div>'),
    "grand-sud tournaments printed": ("print-tournaments", '<div class="scroll"><table class="tournaments"><thead>'
                                      "<tr><th>Repère</th></tr></thead><tbody><tr><td>{first}</td></tr></tbody>"
                                      "</table></div>"),
}


def test_a_heading_and_its_summary_stay_with_the_table_they_introduce():
    """« Points marqués : Tournoi de Cahors » and its summary were left at a page's foot, their table
    on the next page (grand-sud/2025/classement-2025-11-15.pdf, page 6): h2 kept the summary, nothing
    kept the summary with its table. Each such section, printed lower and lower on a page of the
    bulletins' stylesheet (a page a case), has its heading on the page its table starts on."""
    css = html.environment().get_template("bulletin.css").render()
    cases = []
    for kind, (line, table) in INTRODUCED.items():
        for height in range(150, 186, 2):  # what comes before it; a page's content is 184 mm high
            name = f"{kind} {height}."
            cases.append((f"Titre {name}", f"Premier {name}",
                          f'<div style="break-before: page; height: {height}mm"></div><section class="section">'
                          f'<h2>Titre {name}</h2><p class="{line}">Résumé</p>{table.format(first=f"Premier {name}")}'
                          "</section>"))
    page = (f'<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><style>{css}</style></head><body><main>'
            + "".join(section for _, _, section in cases) + "</main></body></html>")
    found = pages_of(page, *[word for heading, first, _ in cases for word in (heading, first)])
    assert [heading for number, (heading, _, _) in enumerate(cases) if found[2 * number] != found[2 * number + 1]] == []


def test_every_bulletin_of_the_example_is_set_in_french_typography_and_its_stylesheets_untouched(example_scored):
    """The bulletins' own words and reportgen's sentences handed to them (a method's notes, a summary,
    a legend) had 1,300 plain spaces before « : », « ; » or inside « » in the example league (render/html.py
    `Typography`, `typeset`): none now, and never a no-break space in a stylesheet, where
    « !important » after one is no longer CSS (a pool's grey cells would lose their colour)."""
    from tests.test_site_typography import breakable_spaces

    pages = {f"{slug}/{document.path}": html.render(document) for slug, report in example_scored.reports.items()
             for document in report.documents}
    assert len(pages) > 40
    assert {path: found for path, page in pages.items() if (found := breakable_spaces(page.encode("utf-8")))} == {}
    styles = {path: style for path, page in pages.items()
              for style in re.findall(r"<style>(.*?)</style>", page, re.DOTALL) if re.search("[\u00a0\u202f]", style)}
    assert styles == {}
    pools = next(page for path, page in pages.items() if path.endswith("open-automne/tour-1"))
    assert "#c9d2de !important;" in pools and "12 tournois comptés\u00a0: " in pages["grand-sud/2026/classement-2026-03-14"]
