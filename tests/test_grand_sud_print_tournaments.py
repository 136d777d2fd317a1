"""Issue 27, tenth round: a Grand Sud bulletin whose table of tournaments (years N−1 and N: the
counted ones, the editions they replaced, those outside the circuit) is longer than the circuit's
`bulletin_tournaments` lists, in its PDF, the counted tournaments only, and one line saying where the
others are, without the sentences on each same-year replacement (circuits/common.py
print_tournaments). Its HTML page keeps the whole table; the default (300) prints the example league
as before."""

from __future__ import annotations

import html
import re

from pypdf import PdfReader

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.render import html as render
from reportgen.render import pdf as pdf_render
from tests.builders import event, players, report

# the name's cell may hold its status for a phone (a `narrow-only` span, grand-sud/bulletin.html.j2)
ROW = re.compile(r'<tr><td>([^<]*)</td><td>([^<]*)</td><td>(.*?)</td>.*?<td class="(status-\w+)">([^<]*)</td></tr>')


def tournaments_table(page: str) -> list[tuple[str, str]]:
    """The table of tournaments' rows: (label, status)."""
    table = page[page.index('<table class="tournaments">'):]
    table = table[:table.index("</table>")]
    return [(html.unescape(label), html.unescape(status)) for label, _, _, _, status in ROW.findall(table)]


def season_with_replacements():
    """Carcassonne and Toulouse each hold three tournaments of one series in 2026 (each replaces the
    one before: a same-year replacement), Albi one: three counted, four replaced, seven listed."""
    names = players(6)
    days = {"CARC": ["2026-01-10", "2026-02-07", "2026-03-07"], "TLSE": ["2026-01-17", "2026-02-14", "2026-03-14"],
            "ALBI": ["2026-01-24"]}
    return [event(day, club, names[index:] + names[:index]) for index, (club, dates) in enumerate(days.items())
            for day in dates]


def test_a_long_table_of_tournaments_prints_the_counted_ones_and_the_page_keeps_them_all():
    documents = [d for d in report(season_with_replacements(), GrandSudSettings(bulletin_tournaments=4)).documents
                 if "tournaments" in d.context]
    latest = documents[-1]
    page = render.render(latest).encode("utf-8")
    printed = render.render_print(latest, page).decode("utf-8")
    whole, short = tournaments_table(page.decode("utf-8")), tournaments_table(printed)
    assert len(whole) == 7 and sum(status == "compté" for _, status in whole) == 3
    assert short == [row for row in whole if row[1] == "compté"]  # the counted ones, in the table's order
    line = latest.context["print_tournaments"]["line"]
    assert line == ("Ce bulletin imprimé liste les 3 tournois comptés. Les 4 autres tournois de la période "
                    "(éditions remplacées par une plus récente, tournois hors circuit) sont sur la page HTML de ce "
                    "bulletin et dans la feuille « Tournois » de l’annexe Excel de chaque saison.")
    line = french.typography(line)  # as the page sets it (render/html.py `typeset`)
    assert line in html.unescape(printed) and line not in html.unescape(page.decode("utf-8"))
    # the sentences on each same-year replacement: on the page, not in the print
    assert latest.context["replacements"] and all(
        sentence in html.unescape(page.decode("utf-8")) and sentence not in html.unescape(printed)
        for sentence in map(french.typography, latest.context["replacements"]))
    # the ranking itself is printed whole
    assert printed.count('<tr class="') == page.decode("utf-8").count('<tr class="')
    # an earlier bulletin whose table fits prints from its page
    first = documents[0]
    assert first.context["print_tournaments"] is None
    first_page = render.render(first).encode("utf-8")
    assert render.render_print(first, first_page) is first_page


def test_the_default_prints_the_whole_table():
    for document in report(season_with_replacements()).documents:
        if "tournaments" in document.context:
            assert document.context["print_tournaments"] is None
    assert common.print_tournaments(300, 3, 300) is None and common.print_tournaments(301, 3, 300) is not None
    assert common.print_tournaments(301, 301, 300) is None  # nothing to leave out
    assert "Le 1 autre tournoi de la période" in common.print_tournaments(4, 3, 3)["line"]


def test_a_short_table_renders_to_pdf(tmp_path):
    """One real PDF (WeasyPrint): its text has the line and the counted tournaments only."""
    document = [d for d in report(season_with_replacements(), GrandSudSettings(bulletin_tournaments=4)).documents
                if "tournaments" in d.context][-1]
    printed = render.render_print(document, render.render(document).encode("utf-8"))
    path = tmp_path / "bulletin.pdf"
    path.write_bytes(pdf_render.render_pdf(printed.decode("utf-8"), document.date))
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    assert "liste les 3 tournois comptés" in text and "remplacé par l'édition" not in text
