"""A PDF links another published file as its HTML page does, relative to itself (render/pdf.py
`_relative`): the Masters' « Classement annuel » names the Grand Sud's CSV. WeasyPrint resolved the
link against the templates folder, so the PDF held that folder's path on the machine
(`file:///work/grand-sud/2026/…`, a link to nothing) and its bytes changed with where reportgen was
installed: same inputs, other bytes."""

from __future__ import annotations

import datetime as dt
import io
import shutil

from pypdf import PdfReader

from reportgen.circuits.masters import documents
from reportgen.circuits.masters.parse import MastersSheet
from reportgen.circuits.masters.standings import Participant
from reportgen.model import Event, Legend, SourceRef
from reportgen.render.html import TEMPLATES, render
from reportgen.render.pdf import render_pdf


def masters_match_sheets_html() -> tuple[str, dt.date]:
    people = [Participant(n, f"id{n}", f"JOUEUR{n:02} Anne", "", "Carcassonne", n) for n in range(1, 17)]
    event = Event("masters/masters-2026.xlsx", "Masters", dt.date(2026, 11, 28),
                  MastersSheet(2026, SourceRef("masters/masters-2026.xlsx"), "Carcassonne", [], [], []))
    annual = Legend("Classement annuel : place au classement ", "Classement final de la saison 2026", ".",
                    "grand-sud/2026/classement-final-2026.csv")
    document = documents.match_sheets(event, people, "Ligue de test", annual)
    return render(document), document.date


def links(pdf: bytes) -> list[str]:
    return [annotation.get_object()["/A"]["/URI"] for page in PdfReader(io.BytesIO(pdf)).pages
            for annotation in page.get("/Annots") or [] if "/A" in annotation.get_object()]


def test_a_pdf_links_the_grand_sud_csv_as_its_page_does_whereever_the_templates_are(tmp_path):
    html, day = masters_match_sheets_html()
    assert 'href="../../grand-sud/2026/classement-final-2026.csv"' in html
    here = render_pdf(html, day)
    moved = tmp_path / "ailleurs" / "reportgen" / "templates"
    shutil.copytree(TEMPLATES, moved, symlinks=True)
    elsewhere = render_pdf(html, day, moved)
    assert links(here) == ["../../grand-sud/2026/classement-final-2026.csv"]
    assert elsewhere == here
