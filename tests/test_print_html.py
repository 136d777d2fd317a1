"""Issue 27: the PDF of a bulletin whose ranking is longer than its circuit's `bulletin_rows` is
rendered from an HTML that holds only the rows it prints (render/html.py `render_print`): WeasyPrint
never parses nor styles the others. The page published keeps every row; the manifest proves each PDF
by the HTML it was rendered from (and keeps the page's hash, render/changes.py); a build with
nothing changed renders no PDF, nor the top rows' HTML of a source unchanged; a public copy (site/public_copies.py) is printed the same way.
PDFs here are stand-ins, a pure function of the HTML handed to WeasyPrint: the real PDFs are read
back in tests/test_one_document_per_ranking.py and tests/test_print_top_tantrix_poules.py."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from reportgen.pipeline import build
from reportgen.render import html
from reportgen.render import pdf as pdf_render
from tests.builders import TODAY, small_league, write_workbook

LIMIT = 2
LINE = f"Ce bulletin imprimé donne les {LIMIT} premiers des"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ranking_rows(page: str) -> int:
    """The rows of a Grand Sud bulletin's ranking table."""
    table = page[page.index('<table class="ranking">'):]
    return table[:table.index("</table>")].count("<tr>") - 1  # its heading's row aside


@pytest.fixture
def handed(monkeypatch) -> dict[str, str]:
    """Each HTML handed to WeasyPrint, by hash; the PDF a stand-in naming that hash."""
    pages: dict[str, str] = {}

    def one(page: str, day=None, templates=None) -> bytes:
        pages[sha(page.encode("utf-8"))] = page
        return b"%PDF-1.7 stand-in " + sha(page.encode("utf-8")).encode()

    monkeypatch.setattr(pdf_render, "render_pdf", one)
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [one(p) for p, _ in pages])
    return pages


def long_league(root: Path) -> Path:
    """The small league printing 2 rows of each ranking, DUPONT Jean shown as initials on the site."""
    inputs = small_league(root / "inputs")
    (inputs / "reportgen.toml").write_text(f"[circuits.grand-sud]\nbulletin_rows = {LIMIT}\n", encoding="utf-8")
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Publication"],
        ["1001", "DUPONT", "Jean", "Carcassonne", "", "initiales"]]})
    return inputs


def proofs(outputs: Path) -> dict[str, dict[str, str]]:
    return json.loads((outputs / "grand-sud" / "publications.json").read_bytes())["pdfs"]


def test_a_long_ranking_s_pdf_is_rendered_from_its_top_rows_and_its_page_keeps_them_all(tmp_path, handed):
    inputs, outputs = long_league(tmp_path), tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    folder = outputs / "grand-sud"
    manifest = json.loads((folder / "publications.json").read_bytes())
    long = sorted(path for path in folder.rglob("*.html") if LINE in path.read_text(encoding="utf-8"))
    copies = [path for path in long if path.relative_to(folder).parts[0] == "public"]
    assert copies and len(copies) < len(long)  # the public copies too (DUPONT Jean as « D. J. »)
    assert len(manifest["pdfs"]) == len(list(folder.rglob("*.pdf")))
    for path in long:
        page = path.read_bytes()
        proof = manifest["pdfs"][path.with_suffix(".pdf").relative_to(folder).as_posix()]
        printed = handed[proof["html"]]  # the HTML the PDF was rendered from, as the manifest says
        assert path.with_suffix(".pdf").read_bytes().endswith(proof["html"].encode())
        assert proof["page"] == sha(page) != proof["html"]
        assert ranking_rows(page.decode("utf-8")) > LIMIT == ranking_rows(printed)
        assert LINE in printed
        # The same page, its ranking's rows beyond the top aside.
        cut = re.compile(r'<table class="ranking">.*?</table>', re.S)
        assert cut.sub("", printed) == cut.sub("", page.decode("utf-8"))
    assert any("D. J." in handed[manifest["pdfs"][path.with_suffix(".pdf").relative_to(folder).as_posix()]["html"]]
               for path in copies)
    # A bulletin printed whole: its PDF from its very page, which the record names once.
    short = [path for path in folder.rglob("*.html") if path not in long]
    for path in short:
        proof = manifest["pdfs"][path.with_suffix(".pdf").relative_to(folder).as_posix()]
        assert proof["html"] == sha(path.read_bytes()) and "page" not in proof


def test_a_rebuild_reuses_the_pdfs_of_long_rankings_and_gives_a_full_build_s_bytes(tmp_path, handed, monkeypatch):
    inputs, outputs = long_league(tmp_path), tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    first = proofs(outputs)
    handed.clear()
    laid_out: list[str] = []  # the long rankings whose top rows' HTML is rendered (the real renderer, counted)
    real = html.render_print

    def counted(document, page, *args):  # type: ignore[no-untyped-def]
        if document.context.get("print_top"):
            laid_out.append(document.path)
        return real(document, page, *args)

    monkeypatch.setattr(html, "render_print", counted)
    with open(inputs / "reportgen.toml", "a", encoding="utf-8") as settings:
        settings.write("# une ligne de commentaire\n")  # a build that runs, and changes no document
    result = build(inputs, outputs, TODAY)
    # No PDF rendered again; a long ranking's proven by its source key, its top rows not even laid out.
    assert result.ok and not result.unchanged and handed == {}
    assert laid_out == []
    assert proofs(outputs) == first and all("source" in proof for proof in first.values() if "page" in proof)
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert proofs(fresh) == first
    assert {p.relative_to(fresh): p.read_bytes() for p in fresh.rglob("*.pdf")} == \
        {p.relative_to(outputs): p.read_bytes() for p in outputs.rglob("*.pdf")}
    # A long ranking's PDF edited by hand: its source key alone does not prove it, it is rendered again.
    name = next(name for name, proof in sorted(first.items()) if "page" in proof)
    (outputs / "grand-sud" / name).write_bytes(b"%PDF-1.7 edited")
    handed.clear()
    assert build(inputs, outputs, TODAY).ok
    assert list(handed) == [first[name]["html"]] and proofs(outputs) == first


def test_a_pdf_recorded_from_the_whole_page_is_rendered_again_from_its_top_rows(tmp_path, handed):
    """A manifest written before the PDF printed the top rows only (its record: the page's hash) does
    not prove the PDF: it is rendered again, from the top rows."""
    inputs, outputs = long_league(tmp_path), tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    manifest_path = outputs / "grand-sud" / "publications.json"
    manifest = json.loads(manifest_path.read_bytes())
    name, proof = next((name, proof) for name, proof in sorted(manifest["pdfs"].items()) if "page" in proof)
    manifest["pdfs"][name] = {"html": proof["page"], "render": proof["render"], "pdf": proof["pdf"]}
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    handed.clear()
    with open(inputs / "reportgen.toml", "a", encoding="utf-8") as settings:
        settings.write("# une ligne de commentaire\n")
    assert build(inputs, outputs, TODAY).ok
    assert list(handed) == [proof["html"]]
    assert json.loads(manifest_path.read_bytes())["pdfs"][name] == proof
