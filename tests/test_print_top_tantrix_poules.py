"""Issue 27: a Tantrix bulletin (an event's standings, the rating list) and a pool tournament's final
ranking print at most `bulletin_rows` rows in PDF, then the line saying where the whole list is, as
the Grand Sud's and Tour de France's do (tests/test_one_document_per_ranking.py); the HTML page keeps
every row. One mechanism: circuits/common.py print_top, templates/print_top.*.j2, and the HTML rendered
to PDF holding the top rows only (render/html.py render_print)."""

from __future__ import annotations

import datetime as dt
import io
import re

import pandas as pd
from pypdf import PdfReader

from reportgen.circuits.base import Reading
from reportgen.circuits.poules.circuit import CIRCUIT as POULES
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.tantrix import documents as tantrix
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.ingest.directories import ClubDirectory
from reportgen.model import Document
from reportgen.pipeline import load, score
from reportgen.render import html, pdf
from tests.poules.test_builders import TODAY as POULES_TODAY
from tests.poules.test_builders import Tour
from tests.tantrix.test_workbooks import TODAY as TANTRIX_TODAY
from tests.tantrix.test_workbooks import round_robin, scored, write_event

PLAYERS = ("MOREAU Lucie", "FAURE Stéphane", "GARCIA Luis", "ROUX Anne")
# Everyone meets everyone; the first named wins by more each time: MOREAU, FAURE, GARCIA, ROUX.
GAMES = round_robin(*[(PLAYERS[a], PLAYERS[b], 30 + a, 20 - b) for a in range(4) for b in range(a + 1, 4)])


def printed(document: Document) -> str:
    """The HTML the document's PDF is rendered from, as the build hands it to WeasyPrint."""
    return html.render_print(document, html.render(document).encode("utf-8")).decode("utf-8")


def pdf_text(document: Document) -> str:
    data = pdf.render_pdf(printed(document), document.date)
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages))


def top_rows(page: str) -> int:
    """The rows of the table marked `top-rows` (templates/print_top.css.j2)."""
    table = page[page.index('top-rows">'):]
    body = table[:table.index("</table>")]
    return body[body.index("<tbody>"):].count("<tr")


def printed_once_less(whole: Document, top: Document, shown: list[str], hidden: list[str]) -> None:
    """The top's PDF names each hidden player once less than the whole's (his row of the list; he
    stays in the other tables), each shown player as often. WeasyPrint is handed the top rows only;
    the page keeps them all, and a list printed whole is its page."""
    assert top_rows(printed(top)) == len(shown) and top_rows(html.render(top)) == len(shown) + len(hidden)
    assert printed(whole) == html.render(whole)
    full, cut = pdf_text(whole), pdf_text(top)
    assert top.context["print_top"]["line"] in cut and top.context["print_top"]["line"] not in full
    for name in shown:
        assert cut.count(name) == full.count(name), name
    for name in hidden:
        assert cut.count(name) == full.count(name) - 1, name


def test_tantrix_settings_from_reportgen_toml_cut_the_event_and_the_rating_list(tmp_path):
    inputs = tmp_path / "inputs"
    write_event(inputs, "Open", GAMES)
    (inputs / "reportgen.toml").write_text("[circuits.tantrix]\nbulletin_rows = 2\n", encoding="utf-8")
    league = load(inputs, TANTRIX_TODAY)
    assert league.all_problems() == []
    documents = score(league, ["tantrix"]).reports["tantrix"].documents
    assert [d.template for d in documents] == ["tantrix/bulletin.html.j2", "tantrix/ratings.html.j2"]
    event, ratings = documents
    assert event.context["print_top"]["line"] == (
        "Ce bulletin imprimé donne les 2 premiers des 4 joueurs classés. Le classement complet est dans le "
        "fichier 2026-03-14-open.csv, sur la page HTML de ce bulletin et dans l’annexe Excel de la saison.")
    assert ratings.context["print_top"]["rows"] == 2
    assert "classement-elo-" in ratings.context["print_top"]["line"]
    for document in documents:
        page = html.render(document)
        assert document.context["print_top"]["line"].replace("'", "&#39;") in page  # as Jinja escapes it
        assert all(name in page for name in PLAYERS)  # the page: everyone


def test_a_tantrix_rating_list_pdf_prints_its_top_rows(tmp_path):
    inputs = tmp_path / "inputs"
    write_event(inputs, "Open", GAMES)
    result = scored(inputs)
    ratings = result.lists[0]
    whole = tantrix.list_bulletin(ratings, TantrixSettings(), "Ligue")
    top = tantrix.list_bulletin(ratings, TantrixSettings(bulletin_rows=2), "Ligue")
    assert whole.context["print_top"] is None
    ranked = [row["player"] for row in whole.context["rows"]]
    printed_once_less(whole, top, ranked[:2], ranked[2:])


def test_a_pool_tournament_s_final_ranking_pdf_prints_its_top_rows():
    tour = Tour(8)
    tour.next()
    tour.play()
    tour.next(dt.date(2026, 9, 19))
    tour.play()
    reading = Reading(ClubDirectory(), POULES_TODAY, "Ligue d'échecs")

    def final(settings: PoulesSettings) -> Document:
        report = POULES.score(pd.DataFrame(), [tour.event()], settings, reading, {})
        return next(d for d in report.documents if d.context["final"])

    whole, top = final(PoulesSettings()), final(PoulesSettings(bulletin_rows=3))
    assert whole.context["print_top"] is None
    assert top.context["print_top"]["line"] == (
        "Ce bulletin imprimé donne les 3 premiers des 8 joueurs classés. Le classement complet est dans le "
        "fichier classement.csv, sur la page HTML de ce bulletin et dans l’annexe Excel du tournoi.")
    ranked = [row["player"] for row in whole.context["final"]]
    printed_once_less(whole, top, ranked[:3], ranked[3:])
