"""What the secretary sees opening the example league's annexes: the files read back with openpyxl,
and printed by LibreOffice (in French, as hers is) to PDF, whose text is read with pdftotext."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from reportgen.render.excel import render_annex

pytestmark = pytest.mark.skipif(not (shutil.which("soffice") and shutil.which("pdftotext")),
                                reason="LibreOffice and poppler-utils print the annexes")


def annex_of(scored, circuit: str, season: int):
    return next(annex for annex in scored.reports[circuit].annexes if annex.season == season)


def printed(data: bytes, folder: Path) -> list[str]:
    """The pages LibreOffice prints of an .xlsx (French settings, a profile of its own), as text."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "annexe.xlsx").write_bytes(data)
    french = {**os.environ, "LC_ALL": "fr_FR.UTF-8", "LANG": "fr_FR.UTF-8"}
    subprocess.run(["soffice", f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(folder), str(folder / "annexe.xlsx")],
                   check=True, capture_output=True, env=french, timeout=180)
    text = subprocess.run(["pdftotext", "-layout", str(folder / "annexe.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")[:-1]


@pytest.fixture(scope="module")
def tantrix(example_scored, tmp_path_factory):
    """The Tantrix annex of 2026: its bytes and its printed pages."""
    data = render_annex(annex_of(example_scored, "tantrix", 2026))
    return data, printed(data, tmp_path_factory.mktemp("tantrix-annex"))


def test_an_annex_numbers_its_pages_as_the_bulletins_do(tantrix):
    # « page 1/16 » where the bulletins' PDFs say « page 1 sur 9 »
    data, pages = tantrix
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert {sheet.oddFooter.right.text for sheet in book.worksheets} == {"page &P sur &N"}
    assert f"page 1 sur {len(pages)}" in pages[0] and f"page {len(pages)} sur {len(pages)}" in pages[-1]
