"""An archived copy has no site, yet its HTML bulletins keep the navigation they were published with
(« Accueil » to outputs/index.html, « Saison 2026 » to outputs/site/<circuit>-2026.html): the archive
writes its contents pages at those paths (delivery/archive_contents.py), so that every link of every
archived page leads to a file of its copy, the bulletins' bytes unchanged, the pages recorded and
verified like every archived file."""

from __future__ import annotations

import re
import shutil
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from reportgen.delivery import archive as archiving
from reportgen.delivery import archive_layout, database
from tests.browser import check_page
from tests.builders import TODAY
from tests.conftest import EXAMPLE_INPUTS
from tests.test_delivery_archive import (
    MOMENT,
    archive_command,
    correct_an_address,
    forget_contents,
    sha256sum_check,
    verify_command,
)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value is not None]


def dead_links(copy: Path) -> list[str]:
    """Every href and src of every HTML page of the copy (and every url() of their stylesheets)
    that names no file of the copy: « page: link »."""
    dead = []
    for page in sorted(copy.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        parser = _Links()
        parser.feed(text)
        for link in parser.found + re.findall(r'url\("?([^")]+)"?\)', text):
            parts = urlsplit(link)
            if not parts.scheme and not parts.path:
                continue  # « #top »: the page itself
            target = (page.parent / unquote(parts.path)).resolve()
            if parts.scheme or not target.is_file() or not target.is_relative_to(copy.resolve()):
                dead.append(f"{page.relative_to(copy).as_posix()}: {link}")
    return dead


def contents_rows(archive: Path) -> list[tuple[str, str, str]]:
    connection = sqlite3.connect(archive / "league.sqlite")
    found = [tuple(row) for row in connection.execute(
        "SELECT a.folder, f.path, f.circuit FROM archived_file f JOIN archive a ON a.id = f.archive_id "
        "WHERE f.kind = 'contents' ORDER BY a.folder, f.path")]
    connection.close()
    return found


def test_every_link_of_an_archived_copy_leads_to_a_file_of_the_copy(small_league_copy, tmp_path, browser):
    archive = tmp_path / "archive"
    for season in ("2025", "2026"):
        done = archive_command(small_league_copy, archive, "--season", season)
        assert done.returncode == 0, done.stderr
    for season, bulletin in (("2025", "classement-final-2025"), ("2026", "classement-2026-01-10")):
        copy = archive / season / "v1"
        assert dead_links(copy) == []
        # what was published, byte for byte: the bulletin still says « Accueil » › « Saison … »
        page = copy / "outputs" / "grand-sud" / season / f"{bulletin}.html"
        assert page.read_bytes() == (small_league_copy.outputs / "grand-sud" / season / f"{bulletin}.html").read_bytes()
        assert (f'<a href="../../index.html">Accueil</a> › <a href="../../site/grand-sud-{season}.html">Saison '
                f'{season}</a>') in page.read_text(encoding="utf-8")
        for contents in (copy / "outputs" / "index.html", copy / "outputs" / "site" / f"grand-sud-{season}.html"):
            shown = contents.read_text(encoding="utf-8")
            assert f'href="{"../" if "site" in contents.parts else ""}grand-sud/{season}/{bulletin}.pdf"' in shown
            assert not contents.stat().st_mode & 0o222  # read-only, as every archived file
    index = (archive / "2026" / "v1" / "outputs" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in index and "<h1>Archive de la saison 2026</h1>" in index
    assert "<title>Archive de la saison 2026 (copie v1)&nbsp;— Ligue" in index
    assert "<title>Classement régional Grand Sud 2026&nbsp;— archive de la saison 2026 (copie v1)&nbsp;— Ligue" in (
        (archive / "2026" / "v1" / "outputs" / "site" / "grand-sud-2026.html").read_text(encoding="utf-8"))
    assert re.search(r"<h2>Classement régional Grand Sud</h2>\s*<h3>Bulletins</h3>", index)
    # the title and date the circuit published each file under, its formats linked
    assert re.search(r'<th scope="row">Classement après les tournois de Carcassonne et de Toulouse du 10\xa0janvier '
                     r'2026</th><td class="date">10\xa0janvier 2026</td><td class="files"><a href="grand-sud/2026/'
                     r'classement-2026-01-10.html">HTML<span class="sr-only">', index), index
    assert 'href="grand-sud/2026/annexe-grand-sud-2026.xlsx">XLSX' in index
    assert 'href="grand-sud/2026/classement-provisoire-2026.csv">CSV' in index
    season_page = archive / "2026" / "v1" / "outputs" / "site" / "grand-sud-2026.html"
    assert '<a href="../index.html">Accueil</a> › <span aria-current="page">Saison 2026</span>' in (
        season_page.read_text(encoding="utf-8"))

    # recorded, listed in the manifest, verified like every archived file
    assert contents_rows(archive) == [
        ("2025/v1", "outputs/index.html", ""), ("2025/v1", "outputs/site/grand-sud-2025.html", "grand-sud"),
        ("2026/v1", "outputs/index.html", ""), ("2026/v1", "outputs/site/grand-sud-2026.html", "grand-sud")]
    assert sha256sum_check(archive / "2026").returncode == 0
    verified = verify_command(archive)
    assert verified.returncode == 0 and verified.stdout.startswith("32 fichiers archivés intacts"), verified.stderr

    # pages a secretary reads: French, titled, with headings; axe finds nothing at a phone's width or a laptop's
    for page in (archive / "2026" / "v1" / "outputs" / "index.html", season_page):
        check_page(browser, page, archive / "2026" / "v1" / "outputs")


def test_contents_pages_are_written_once_with_their_copy_and_say_its_reason_escaped(small_league_copy, tmp_path):
    """The same copy gives the same bytes; archiving again with nothing changed writes nothing (the
    pages, which say the copy's moment, are not the season's content); a later copy has pages of its
    own, its reason (the secretary's words) escaped, the earlier copy's left as they were."""
    first, second = tmp_path / "first", tmp_path / "second"
    for archive in (first, second):
        archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026, "", TODAY, MOMENT)
    pages = ("outputs/index.html", "outputs/site/grand-sud-2026.html")
    for page in pages:
        assert (first / "2026" / "v1" / page).read_bytes() == (second / "2026" / "v1" / page).read_bytes()
    before = {page: (first / "2026" / "v1" / page).read_bytes() for page in pages}
    again = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, first, 2026, "", TODAY,
                                     MOMENT.replace(year=2027))
    assert again.unchanged and not (first / "2026" / "v2").exists()

    correct_an_address(small_league_copy.inputs)
    reason = "<script>alert(1)</script> & « adresse » corrigée"
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, first, 2026, reason, TODAY,
                                    MOMENT.replace(day=21))
    assert done.version == 2
    assert {page: (first / "2026" / "v1" / page).read_bytes() for page in pages} == before
    index = (first / "2026" / "v2" / "outputs" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in index
    assert ("Copie v2, archivée le 21\xa0décembre 2026&nbsp;: &lt;script&gt;alert(1)&lt;/script&gt; &amp; "
            "«\xa0adresse\xa0» corrigée") in index
    assert dead_links(first / "2026" / "v2") == []
    assert verify_command(first).returncode == 0


def test_a_copy_archived_before_its_contents_pages_is_kept_as_it_is_and_its_database_upgraded(small_league_copy,
                                                                                             tmp_path):
    """A season archived by a reportgen of schema 7 (no contents pages, `contents` refused by the
    CHECK): the database is upgraded with its rows, the frozen copy gets nothing written into it
    (its bulletins' « Accueil » and « Saison » still lead nowhere, as they did) and verifies; the
    next copy, after a correction, holds its pages."""
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    forget_contents(archive)
    copy = archive / "2026" / "v1"
    files = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    connection = sqlite3.connect(archive / "league.sqlite")
    before = [tuple(row) for row in connection.execute("SELECT * FROM archived_file ORDER BY path")]
    connection.close()
    assert len(before) == 15 and verify_command(archive).stdout.startswith("15 fichiers archivés intacts")

    same = archive_command(small_league_copy, archive, "--season", "2026")
    assert same.returncode == 0 and "déjà archivée à l’identique" in same.stderr, same.stderr
    assert not (archive / "2026" / "v2").exists()
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == files
    assert dead_links(copy) == ["outputs/grand-sud/2026/classement-2026-01-10.html: ../../index.html",
                                "outputs/grand-sud/2026/classement-2026-01-10.html: ../../site/grand-sud-2026.html"]
    connection = sqlite3.connect(archive / "league.sqlite")
    assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
    assert [tuple(row) for row in connection.execute("SELECT * FROM archived_file ORDER BY path")] == before
    connection.close()
    assert verify_command(archive).stdout.startswith("15 fichiers archivés intacts")

    correct_an_address(small_league_copy.inputs)
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026,
                                    "adresse du club de Carcassonne corrigée", TODAY, MOMENT)
    assert (done.version, done.unchanged) == (2, False)
    assert dead_links(archive / "2026" / "v2") == []
    assert contents_rows(archive) == [("2026/v2", "outputs/index.html", ""),
                                      ("2026/v2", "outputs/site/grand-sud-2026.html", "grand-sud")]
    assert verify_command(archive).stdout.startswith("32 fichiers archivés intacts")


def test_every_link_of_the_example_leagues_archived_seasons_leads_to_a_file_of_its_copy(tmp_path, monkeypatch):
    """The example league built whole (every circuit; its PDFs stand-ins: no link is in a PDF, and
    WeasyPrint's minute would be the test's) and each of its seasons archived: the Masters' legend
    links the Grand Sud ranking's CSV of its copy, every bulletin's navigation a contents page; the
    bulletins are those published, and the archive verifies."""
    from reportgen.pipeline import build
    from reportgen.render import pdf as pdf_render
    from tests.test_incremental_build import stand_in

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])

    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    assert build(inputs, outputs, TODAY).ok
    for season in (2005, 2025, 2026):
        archiving.archive_season(inputs, outputs, archive, season, "", TODAY, MOMENT)
    copies = sorted(archive.glob("*/v1"))
    assert [copy.parent.name for copy in copies] == ["2005", "2025", "2026"]
    masters = archive / "2026" / "v1" / "outputs" / "masters" / "2026" / "masters-2026.html"
    assert 'href="../../grand-sud/2026/classement-provisoire-2026.csv"' in masters.read_text(encoding="utf-8")
    for copy in copies:
        assert dead_links(copy) == []
        # every file of the copy's outputs/ but its contents pages is the one published, byte for byte
        for page in (copy / "outputs").rglob("*"):
            inner = page.relative_to(copy / "outputs").as_posix()
            if page.is_file() and inner != "index.html" and not inner.startswith("site/"):
                assert page.read_bytes() == (outputs / inner).read_bytes(), inner
    assert sorted(p.relative_to(archive / "2026" / "v1").as_posix()
                  for p in (archive / "2026" / "v1" / "outputs" / "site").iterdir()) == [
        "outputs/site/grand-sud-2026.html", "outputs/site/masters-2026.html", "outputs/site/poules-2026.html",
        "outputs/site/tantrix-2026.html"]
    verified = verify_command(archive)
    assert verified.returncode == 0, verified.stderr
    for copy in copies:
        manifest, _ = archive_layout.read_manifest((copy.parent / "SHA256SUMS").read_text(encoding="utf-8"))
        assert f"{copy.name}/outputs/index.html" in manifest
