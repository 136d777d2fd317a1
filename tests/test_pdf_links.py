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


def test_a_link_that_climbs_above_the_templates_folder_stays_as_its_page_writes_it(tmp_path):
    """`_relative` took the link back from what WeasyPrint made of it, joined to the templates
    folder: a link climbing more folders than that folder is deep (reportgen installed near /)
    lost its extra « ../ » there (`file:///grand-sud/…`), and the PDF linked a file that is not
    beside it. The page's link is kept as written, wherever the templates are."""
    html, day = masters_match_sheets_html()
    climbs = "../" * (len(tmp_path.parts) + 2)  # more than the templates folder below is deep
    html = html.replace('href="../../grand-sud/', f'href="{climbs}grand-sud/')
    moved = tmp_path / "templates"
    shutil.copytree(TEMPLATES, moved, symlinks=True)
    assert links(render_pdf(html, day, moved)) == [f"{climbs}grand-sud/2026/classement-final-2026.csv"]


def as_an_earlier_version_made_it(outputs, path: str) -> None:
    """A Masters PDF and its HTML page as reportgen made them before its links were kept relative
    (render/pdf.py `POST_PROCESSING`): the link joined to the templates folder's path on the machine,
    the page and the manifest's record carrying that version's render fingerprint, the build's state
    of another version (its code fingerprint no longer this one's)."""
    import hashlib
    import json

    import weasyprint

    from reportgen.render import html as html_render
    from reportgen.render import pdf

    earlier = html_render.render_fingerprint().replace(f" post-processing {pdf.POST_PROCESSING}", "")
    page = outputs / "masters" / f"{path}.html"
    text = page.read_text(encoding="utf-8").replace(html_render.render_fingerprint(), earlier)
    page.write_text(text, encoding="utf-8")
    made = weasyprint.HTML(string=text, base_url=str(TEMPLATES) + "/",
                           url_fetcher=pdf._fetcher_class()(TEMPLATES)).write_pdf(pdf_variant=pdf.VARIANT)
    (outputs / "masters" / f"{path}.pdf").write_bytes(made)
    manifest = outputs / "masters" / "publications.json"
    published = json.loads(manifest.read_text(encoding="utf-8"))
    published["pdfs"][f"{path}.pdf"] = {"html": hashlib.sha256(text.encode("utf-8")).hexdigest(), "render": earlier,
                                        "pdf": hashlib.sha256(made).hexdigest()}
    manifest.write_text(json.dumps(published, ensure_ascii=False, indent=1), encoding="utf-8")
    shutil.rmtree(outputs / ".reportgen")


def test_a_masters_pdf_an_earlier_version_made_with_its_machine_path_is_made_again(tmp_path):
    """A Masters PDF published before links were kept relative held the templates folder's path
    (file:///…/grand-sud/2026/…csv) until its HTML changed: a PDF is made again only when its HTML or
    the render fingerprint changes, and neither did. The fingerprint carries the version of reportgen's
    own work on a PDF: the next build makes it again, its link relative."""
    from reportgen.pipeline import build
    from tests import test_contract
    from tests.builders import write_clubs

    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    inputs.mkdir()
    write_clubs(inputs)
    test_contract.grand_sud(inputs)
    test_contract.masters(inputs)
    assert build(inputs, outputs, test_contract.TODAY).ok
    sheets = outputs / "masters" / "2026" / "feuilles-de-match-2026.pdf"
    csv = ["../../grand-sud/2026/classement-provisoire-2026.csv"] * 2  # its « Classement annuel », twice
    assert links(sheets.read_bytes()) == csv
    as_an_earlier_version_made_it(outputs, "2026/feuilles-de-match-2026")
    assert all(link.startswith("file:///") for link in links(sheets.read_bytes()))  # the machine's path
    assert build(inputs, outputs, test_contract.TODAY).ok
    assert links(sheets.read_bytes()) == csv
