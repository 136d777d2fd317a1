"""The public site never names a player who chose otherwise (issue 24, « Personal data »): every
bulletin, CSV and annex the site links that names a player who chose `initiales` or `non` has a
public copy, which the site links and `reportgen publish` uploads; the whole documents stay in
outputs/<circuit>/ for the clubs, and `reportgen mail` attaches them. Real files read back: HTML and
CSV as text, PDF through pdftotext, XLSX through openpyxl."""

from __future__ import annotations

import html
import io
import posixpath
import re
import shutil
import subprocess
from email import message_from_bytes, policy
from pathlib import Path

import openpyxl
import pytest
from markupsafe import Markup, escape

from reportgen.delivery.publish import site_files
from reportgen.model import Document
from reportgen.site.public_copies import Masking
from tests import test_delivery_mail as mail_tests
from tests.builders import TODAY, write_workbook

HEADER = ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Publication"]
FULL_NAMES = ("DUPONT Jean", "MARTIN Paul")  # initiales, non


def text_of(path: Path) -> str:
    """What a reader of the file sees, whatever its kind."""
    if path.suffix == ".pdf":
        return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
    if path.suffix == ".xlsx":
        book = openpyxl.load_workbook(path, read_only=True)
        return "\n".join(" ".join(str(cell) for cell in row if cell is not None)
                         for sheet in book.worksheets for row in sheet.iter_rows(values_only=True))
    return path.read_bytes().decode("utf-8-sig")


def with_choices(source, root: Path, rows: list[list[str]]) -> Path:
    """A copy of a built league with this joueurs.xlsx, built again (its PDFs reused when unchanged)."""
    from reportgen.pipeline import build

    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(source, folder), root / folder)
    write_workbook(root / "inputs" / "joueurs.xlsx", {"Joueurs": [HEADER, *rows]})
    result = build(root / "inputs", root / "outputs", TODAY)
    assert result.ok, result.problems
    return root / "outputs"


@pytest.fixture(scope="module")
def private(small_league_built, tmp_path_factory) -> Path:
    """The small league with DUPONT Jean shown as initials and MARTIN Paul left out of the site."""
    return with_choices(small_league_built, tmp_path_factory.mktemp("copies"), [
        ["1001", "DUPONT", "Jean", "Carcassonne", "", "initiales"], ["1002", "MARTIN", "Paul", "Albi", "", "non"],
        ["", "DURAND", "Anne", "Toulouse", "", ""]])


def image_alts(outputs: Path, uploaded) -> dict[str, str]:
    """Each share image's name -> the texts it draws, as the pages that show it say them (checked
    against the full names with the pages' own text)."""
    alts: dict[str, str] = {}
    for path in uploaded:
        if path.endswith(".html"):
            page = (outputs / path).read_text(encoding="utf-8")
            image = re.search(r'<meta property="og:image" content="[^"]*?([^/"]+\.png)">', page)
            alt = re.search(r'<meta property="og:image:alt" content="([^"]*)">', page)
            if image and alt:
                alts[image.group(1)] = alt.group(1)
    return alts


def test_no_file_publish_would_upload_names_them_in_full(private):
    uploaded = site_files(private)
    kinds = {Path(path).suffix for path in uploaded}
    assert {".html", ".pdf", ".csv", ".xlsx", ".js"} <= kinds
    for path in uploaded:
        if path.startswith("fonts/") or path == "favicon.ico":  # the shipped font files, the site's icon: no text
            continue
        if path.endswith(".png"):  # a share image draws the texts its page's og:image:alt says
            assert image_alts(private, uploaded)[Path(path).name], path
            continue
        assert Path(path).suffix in (".html", ".pdf", ".csv", ".xlsx", ".js", ".css", ".svg", ".ics", ".json"), path
        text = text_of(private / path)
        for name in FULL_NAMES:
            assert name not in text, (path, name)
    copies = [path for path in uploaded if "/public/" in path]
    assert {Path(path).suffix for path in copies} == {".html", ".pdf", ".csv", ".xlsx"}
    for path in copies:  # shown as the site shows them, the others as they are
        text = text_of(private / path)
        assert "joueur non publié" in text or "D. J." in text, path
    annex = text_of(private / "grand-sud/public/2026/annexe-grand-sud-2026.xlsx")
    assert "D. J." in annex and "joueur non publié" in annex and "DURAND Anne" in annex
    # nor by their licence numbers, which name them again in the federation's lists
    for path in copies:
        if path.endswith((".csv", ".xlsx")):
            assert "1001" not in text_of(private / path) and "1002" not in text_of(private / path), path


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    from tests import sshd as sshd_server

    yield from sshd_server.start(tmp_path_factory.mktemp("sshd"))


def test_published_to_a_real_sftp_server_the_site_names_them_nowhere(private, sshd, tmp_path):
    from tests import sshd as sshd_server
    from tests.test_publish_sftp import League

    shutil.copytree(private, tmp_path / "outputs")
    league = League(tmp_path / "inputs", tmp_path / "outputs", tmp_path / "server" / "www",
                    sshd.known_hosts(tmp_path / "known_hosts"))
    league.inputs.mkdir()
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote),
                    key=str(sshd.client_key), known_hosts=str(league.known_hosts), timeout=10)
    ran = league.publish()
    assert ran.code == 0, ran.stderr
    online = [path for path in sorted(league.remote.rglob("*")) if path.is_file() and "fonts" not in path.parts]
    assert any(path.suffix == ".pdf" and "public" in path.parts for path in online)
    for path in online:  # a share image draws what its page's og:image:alt says, checked there
        if path.name != ".reportgen-site.json" and path.suffix not in (".png", ".ico"):  # the site's icon: no text
            assert not any(name in text_of(path) for name in FULL_NAMES), path
    assert not (league.remote / "grand-sud" / "2026" / "classement-2026-01-10.pdf").exists()


def test_the_whole_documents_stay_for_the_clubs_and_are_never_uploaded(private):
    whole = [private / "grand-sud" / "2026" / f"classement-2026-01-10.{kind}" for kind in ("html", "pdf", "csv")]
    whole.append(private / "grand-sud" / "2026" / "annexe-grand-sud-2026.xlsx")
    uploaded = site_files(private)
    for path in whole:
        text = text_of(path)
        assert all(name in text for name in FULL_NAMES), path
        assert path.relative_to(private).as_posix() not in uploaded
    # The ranking is not changed by hiding a name: the same places and points, line for line (their
    # licence numbers left blank).
    whole_csv = text_of(whole[2]).splitlines()
    public_csv = text_of(private / "grand-sud/public/2026/classement-2026-01-10.csv").splitlines()
    assert len(whole_csv) == len(public_csv)
    for full, public in zip(whole_csv, public_csv):
        for name, shown, licence in zip(FULL_NAMES, ("D. J.", "joueur non publié"), ("1001", "1002")):
            full = full.replace(f"{name};{licence};", f"{shown};;")
        assert full == public


def test_the_site_links_the_public_copies(private):
    season = (private / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    home = (private / "index.html").read_text(encoding="utf-8")
    for kind in ("html", "pdf", "csv"):
        assert f'href="../grand-sud/public/2026/classement-2026-01-10.{kind}"' in season
        assert f'href="../grand-sud/2026/classement-2026-01-10.{kind}"' not in season
    assert 'href="../grand-sud/public/2026/annexe-grand-sud-2026.xlsx"' in season
    assert 'href="grand-sud/public/2026/classement-2026-01-10.html"' in home
    for page in [private / "index.html", *(private / "site").glob("*.html")]:  # every link resolves
        for link in page.read_text(encoding="utf-8").split('href="')[1:]:
            target = link.split('"', 1)[0]
            if target.startswith(("../grand-sud", "grand-sud")):
                assert (page.parent / target).is_file(), (page.name, target)


def test_a_public_pdf_draws_the_initials_with_the_shipped_font(private):
    pdf = private / "grand-sud/public/2026/classement-2026-01-10.pdf"
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Inter" in fonts
    text = text_of(pdf)
    assert "D. J." in text and "joueur non publié" in text and "DURAND Anne" in text


def test_mail_still_attaches_the_whole_bulletins(private, tmp_path):
    from tests.conftest import Built

    for folder in ("inputs", "outputs"):
        shutil.copytree(private.parent / folder, tmp_path / folder)
    league = Built(tmp_path / "inputs", tmp_path / "outputs", None)
    mail_tests.set_clubs(league.inputs, mail_tests.CLUBS)
    ran = mail_tests.mail_command(league, tmp_path / "archive", process=True)
    assert ran.returncode == 0, ran.stderr
    attached, own = [], []  # the rankings' bulletins; each club's own bulletin (its players only)
    for draft in sorted((league.outputs / "mail" / "2026").glob("*.eml")):
        message = message_from_bytes(draft.read_bytes(), policy=policy.default)
        for part in message.iter_attachments():
            pdf = tmp_path / part.get_filename()
            pdf.write_bytes(part.get_content())
            (own if pdf.name.startswith("bulletin-") else attached).append(text_of(pdf))
    assert attached and all(all(name in text for name in FULL_NAMES) for text in attached)
    assert own and not any("joueur non publié" in text or "D. J." in text for text in own)
    assert all(any(name in text for text in own) for name in FULL_NAMES)


def test_with_every_player_shown_no_copy_is_made_and_the_site_links_the_documents(small_league_built, tmp_path):
    outputs = small_league_built.outputs
    assert not (outputs / "grand-sud" / "public").exists()
    assert '"public"' not in (outputs / "grand-sud" / "publications.json").read_text(encoding="utf-8")
    season = (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    assert 'href="../grand-sud/2026/classement-2026-01-10.pdf"' in season and "/public/" not in season
    assert "grand-sud/2026/classement-2026-01-10.pdf" in site_files(outputs)
    # A directory where everyone chose `oui` renders nothing more: no PDF, no copy.
    from reportgen.pipeline import build

    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(small_league_built, folder), tmp_path / folder)
    write_workbook(tmp_path / "inputs" / "joueurs.xlsx", {"Joueurs": [
        HEADER, ["1001", "DUPONT", "Jean", "Carcassonne", "", "oui"], ["1002", "MARTIN", "Paul", "Albi", "", ""]]})
    result = build(tmp_path / "inputs", tmp_path / "outputs", TODAY)
    assert result.ok and not any(path.suffix == ".pdf" for paths in result.rendered.values() for path in paths)
    assert not (tmp_path / "outputs" / "grand-sud" / "public").exists()


def test_a_choice_changed_back_removes_the_copies(private, tmp_path):
    from reportgen.pipeline import build

    for folder in ("inputs", "outputs"):
        shutil.copytree(private.parent / folder, tmp_path / folder)
    (tmp_path / "inputs" / "joueurs.xlsx").unlink()
    assert build(tmp_path / "inputs", tmp_path / "outputs", TODAY).ok
    assert not [p for p in (tmp_path / "outputs" / "grand-sud").rglob("*") if p.is_file() and "public" in p.parts]
    assert "/public/" not in (tmp_path / "outputs" / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")


# -- the mapping itself ---------------------------------------------------------------------------

def test_a_masking_s_fingerprint_is_all_it_does_and_nothing_else():
    """A public copy's key holds the masking's fingerprint: each name with its public form and each
    licence, in any order given; another choice (initials for « non »), another name or licence,
    another fingerprint."""
    one = Masking({"DUPONT Jean": "J. D.", "MARTIN Paul": "joueur non publié"}, ["1001", "1002"])
    assert one.fingerprint == Masking({"MARTIN Paul": "joueur non publié", "DUPONT Jean": "J. D."},
                                      ["1002", "1001"]).fingerprint
    assert one.fingerprint == Masking({"DUPONT Jean": "J. D.", "MARTIN Paul": "joueur non publié",
                                       "DURAND Anne": "DURAND Anne"}, ["1001", "1002", ""]).fingerprint  # shown as is
    for other in (Masking({"DUPONT Jean": "joueur non publié", "MARTIN Paul": "joueur non publié"}, ["1001", "1002"]),
                  Masking({"DUPONT Jean": "J. D."}, ["1001", "1002"]),
                  Masking({"DUPONT Jean": "J. D.", "MARTIN Paul": "joueur non publié"}, ["1001"])):
        assert other.fingerprint != one.fingerprint


def test_a_dict_met_twice_in_a_document_is_masked_alike_and_the_whole_left_as_it_was():
    """A bulletin's cells are read-only dicts shared by many rows (masked once per document, by
    identity): each place that holds one gets the masked dict, whatever the key it stands under, and
    the whole document keeps its own."""
    shared = {"text": "forfait de DUPONT Jean", "licence": "1001"}
    other = {"text": "12", "kind": "counted"}
    rows = [{"player": "MARTIN Paul", "cells": [shared, other, shared]}, {"player": "DURAND Anne", "cells": [other, shared]}]
    document = Document("2026/b", "t.html.j2", "t", TODAY, {"rows": rows, "note": shared})
    masking = Masking({"DUPONT Jean": "J. D.", "MARTIN Paul": "joueur non publié"}, ["1001"])
    copy = masking.document(document)
    assert copy is not None and copy.path == "public/2026/b"
    masked = {"text": "forfait de J. D.", "licence": ""}
    assert copy.context["rows"] == [{"player": "joueur non publié", "cells": [masked, other, masked]},
                                    {"player": "DURAND Anne", "cells": [other, masked]}]
    assert copy.context["note"] == masked and copy.context["rows"][1]["cells"][0] is other
    assert document.context["rows"] is rows and rows[0]["cells"][0] is shared == {"text": "forfait de DUPONT Jean",
                                                                                  "licence": "1001"}
    assert masking.document(document).context == copy.context  # masked again alike, nothing kept between


def test_a_hidden_name_cut_to_a_chart_s_room_is_masked_too():
    """A chart's label cut with « … » (site/chart.py `fitted`, tighter on a phone's drawing) is no
    whole name: « 10. LAMBERT Anne-Sop… » was left in a public copy whose player chose initials."""
    from reportgen.site.chart import fitted

    masking = Masking({"LAMBERT Anne-Sophie": "L. A.-S.", "O'NEIL Ann": "O. A."})
    labels = [fitted("10. LAMBERT Anne-Sophie", room) for room in (60, 90, 110)] + [fitted("10. O'NEIL Ann", 60)]
    assert all(label.endswith("…") for label in labels)  # each cut, at several rooms
    svg = Markup("".join(f"<text>{escape(label)}</text>" for label in labels) + "<text>LAMY Joël</text><text>LEROY…</text>")
    masked = masking.text(svg)
    assert isinstance(masked, Markup) and "LAMBERT" not in masked and "NEIL" not in masked
    assert masked.count("L. A.-S.") == 3 and masked.count("O. A.") == 1
    assert "<text>LAMY Joël</text><text>LEROY…</text>" in masked  # other names, cut or not, as they are
    assert masking.text(Markup("<text>LEROY…</text>")) == "<text>LEROY…</text>"


def test_masking_replaces_whole_names_in_every_text_and_leaves_the_rest_as_it_is():
    masking = Masking({"MARTIN Paul": "joueur non publié", "DUPONT Jean": "D. J.", "O'NEIL Ann": "O. A."})
    context = {"rows": [{"player": "MARTIN Paul", "points": 12}, {"player": "MARTIN Pauline", "points": 3},
                        {"player": "MARTIN Paul-Henri", "points": 1}],
               "note": "forfait de DUPONT Jean (règle 7)", "svg": Markup("<text>O&#39;NEIL Ann</text>"),
               "other": ("DURAND Anne",)}
    document = Document("2026/b", "b.html.j2", "Bulletin", TODAY, context, 2026)
    copy = masking.document(document)
    assert copy is not None and copy.path == "public/2026/b"
    assert copy.context["rows"] == [{"player": "joueur non publié", "points": 12},
                                    {"player": "MARTIN Pauline", "points": 3},
                                    {"player": "MARTIN Paul-Henri", "points": 1}]
    assert copy.context["note"] == "forfait de D. J. (règle 7)"
    assert copy.context["svg"] == Markup("<text>O. A.</text>") and isinstance(copy.context["svg"], Markup)
    assert copy.context["other"] is context["other"]  # untouched parts are the same objects
    assert document.context["rows"][0]["player"] == "MARTIN Paul"  # the whole document is left whole
    assert masking.document(Document("2026/c", "b.html.j2", "Bulletin", TODAY, {"player": "DURAND Anne"})) is None
    assert not Masking({}) and Masking({}).document(document) is None


def test_a_name_after_an_elided_de_takes_the_de_its_public_form_needs():
    # « forfait d’IMBERT Inès » (french.of_person) hidden: « forfait de joueur non publié », never
    # « d’joueur »; initials keep the elision they need (« d’I. I. »), in text and markup alike
    masking = Masking({"IMBERT Inès": "joueur non publié", "ANDRÉ Luc": "A. L.", "DUPONT Jean": "J. D."})
    assert masking.text("forfait d’IMBERT Inès ; forfait d’ANDRÉ Luc ; forfait de DUPONT Jean") == \
        "forfait de joueur non publié ; forfait d’A. L. ; forfait de J. D."
    assert masking.text(Markup("<td>forfait d’IMBERT Inès</td>")) == Markup("<td>forfait de joueur non publié</td>")
    assert masking.text("IMBERT Inès, d’IMBERT Inès") == "joueur non publié, de joueur non publié"


def test_a_chart_in_a_public_copy_shows_the_names_as_the_site_does():
    """The bump chart (site/chart.py, names escaped by the standard library) inside a bulletin."""
    from reportgen.site.chart import bump_svg

    svg = Markup(bump_svg(["10/01", "14/03"], [("O'NEIL Ann", [2, 1]), ("DURAND Anne", [1, 2])], "Place"))
    assert "O&#x27;NEIL Ann" in svg
    copy = Masking({"O'NEIL Ann": "O. A."}).document(
        Document("2026/b", "b.html.j2", "Bulletin", TODAY, {"bump": {"svg": svg, "caption": "Place"}}, 2026))
    assert copy is not None
    masked = copy.context["bump"]["svg"]
    assert "NEIL" not in masked and "O. A." in masked and "DURAND Anne" in masked and isinstance(masked, Markup)


def test_masking_blanks_their_licence_where_the_data_says_licence_and_nowhere_else():
    from reportgen.model import Annex, AnnexColumn, AnnexSheet

    masking = Masking({"MARTIN Paul": "joueur non publié"}, licences={"1002"})
    sheet = AnnexSheet("Classement", [AnnexColumn("Joueur"), AnnexColumn("Licence"), AnnexColumn("Points")],
                       [["MARTIN Paul", "1002", "1002"], ["DURAND Anne", "1003", "12"]])
    copy = masking.annex(Annex("2026/annexe", "Annexe", TODAY, [sheet], 2026))
    assert copy is not None and copy.path == "public/2026/annexe"
    assert copy.sheets[0].rows == [["joueur non publié", "", "1002"], ["DURAND Anne", "1003", "12"]]
    assert copy.sheets[0].rows[1] is sheet.rows[1]
    context = masking.value({"rows": [{"player": "MARTIN Paul", "licence": "1002", "points": "1002"}]})
    assert context == {"rows": [{"player": "joueur non publié", "licence": "", "points": "1002"}]}


def test_the_example_league_where_everyone_is_shown_makes_no_copy(example_league):
    from reportgen.pipeline.building import _masking

    assert not example_league.public.choices and not _masking(example_league)


@pytest.fixture(scope="module")
def every_circuit(tmp_path_factory):
    """The contract's tiny league of every circuit, its first player left out, its second by initials."""
    from reportgen import circuits
    from reportgen.pipeline import load, score
    from tests import test_contract as contract
    from tests.builders import write_clubs

    inputs = tmp_path_factory.mktemp("every-circuit") / "inputs"
    write_clubs(inputs)
    for slug in circuits.CIRCUITS:
        contract.TINY_LEAGUE[slug](inputs)
    hidden, initials = (name.split(" ") for name in contract.NAMES[:2])
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [HEADER, ["", *hidden, "", "", "non"],
                                                         ["", *initials, "", "", "initiales"]]})
    league = load(inputs, contract.TODAY)
    assert league.all_problems() == []
    return league, score(league), contract.NAMES[:2]


def test_every_circuit_s_documents_have_public_copies_that_name_them_nowhere(every_circuit):
    from reportgen import circuits
    from reportgen.pipeline.building import _masking
    from reportgen.render import excel, html
    from reportgen.render.ranking import to_spreadsheet_csv

    league, scored, names = every_circuit
    masking = _masking(league)
    for slug in circuits.CIRCUITS:
        report = scored.reports[slug]
        texts: list[tuple[str, str]] = []
        whole = [html.render(d) for d in report.documents] + [to_spreadsheet_csv(r).decode() for r in report.rankings]
        assert any(names[0] in text and names[1] in text for text in whole), slug  # the clubs' copies: whole
        for document in report.documents:
            copy = masking.document(document)
            texts.append((document.path, html.render(copy if copy else document)))
        for ranking in report.rankings:
            copy = masking.ranking(ranking)
            texts.append((ranking.path, to_spreadsheet_csv(copy if copy else ranking).decode("utf-8-sig")))
        for annex in report.annexes:
            copy = masking.annex(annex)
            book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(copy if copy else annex)))
            texts.append((annex.path, "\n".join(str(cell) for sheet in book.worksheets
                                                for row in sheet.iter_rows(values_only=True) for cell in row)))
        for path, text in texts:
            assert names[0] not in text and names[1] not in text, (slug, path)
        assert any("joueur non publié" in text for _, text in texts), slug


def test_a_second_build_renders_no_copy_again(private, tmp_path):
    from reportgen.pipeline import build
    from reportgen.pipeline.state import FOLDER, STATE

    for folder in ("inputs", "outputs"):
        shutil.copytree(private.parent / folder, tmp_path / folder)
    before = {p: p.read_bytes() for p in (tmp_path / "outputs" / "grand-sud" / "public").rglob("*") if p.is_file()}
    (tmp_path / "outputs" / FOLDER / STATE).unlink()  # no shortcut: the league is read, scored and laid out
    result = build(tmp_path / "inputs", tmp_path / "outputs", TODAY)
    assert result.ok and not result.unchanged
    assert result.rendered["grand-sud"] == [] and result.published["grand-sud"] == []
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("damage", ["edited", "deleted"])
def test_a_public_copy_known_by_its_key_but_damaged_is_masked_again(private, tmp_path, damage):
    """A copy the last build made from the same whole file and names is taken by its key without
    masking; edited or deleted by hand, it is made again, from the whole document masked now: never
    the whole document under the copy's name."""
    from reportgen.pipeline import build

    for folder in ("inputs", "outputs"):
        shutil.copytree(private.parent / folder, tmp_path / folder)
    public = tmp_path / "outputs" / "grand-sud" / "public" / "2026"
    damaged = [public / "classement-2026-01-10.html", public / "classement-2026-01-10.csv",
               public / "annexe-grand-sud-2026.xlsx"]
    before = {path: path.read_bytes() for path in damaged}
    for path in damaged:
        if damage == "edited":
            path.write_bytes(path.read_bytes() + b" ")
        else:
            path.unlink()
    result = build(tmp_path / "inputs", tmp_path / "outputs", TODAY)
    assert result.ok and not result.unchanged
    assert {path: path.read_bytes() for path in damaged} == before
    for path in damaged:
        assert not any(name in text_of(path) for name in FULL_NAMES), path


def test_a_public_bulletin_opens_in_a_browser_like_the_whole_one(private, browser):
    """Its fonts are found one folder deeper (outputs/fonts), nothing is fetched from elsewhere."""
    from tests.browser import check_page

    bulletin = private / "grand-sud/public/2026/classement-2026-01-10.html"
    fonts = [part.split('"', 1)[0] for part in bulletin.read_text(encoding="utf-8").split('url("')[1:]]
    assert fonts and all((bulletin.parent / font).resolve() == (private / "fonts" / Path(font).name).resolve()
                         and (bulletin.parent / font).is_file() for font in fonts)
    check_page(browser, bulletin, private)
    check_page(browser, private / "site/grand-sud-2026.html", private)


# What a page links or draws from: a link's or an image's address, a share image's (relative without
# [site] url), a font of its inlined stylesheet.
LINKED = re.compile(r'(?:href|src)="([^"]*)"|<meta property="og:image" content="([^"]*)"|url\(([^)]*)\)')


def dead_links(outputs: Path) -> list[tuple[str, str]]:
    """Each relative address of each page `reportgen publish` would upload (the site's pages, the
    bulletins and their public copies) that names no file it uploads: (page, address)."""
    uploaded = site_files(outputs)
    dead = []
    for path in sorted(uploaded):
        if not path.endswith(".html"):
            continue
        for found in LINKED.findall((outputs / path).read_text(encoding="utf-8")):
            address = html.unescape("".join(found)).strip("'\"").split("#")[0].split("?")[0]
            if address and not re.match(r"[a-z][a-z0-9+.-]*:", address):  # https:, webcal:, data:, mailto:
                if posixpath.normpath(posixpath.join(posixpath.dirname(path), address)) not in uploaded:
                    dead.append((path, address))
    return dead


@pytest.fixture(scope="module", params=["in-the-masters", "grand-sud-only"])
def every_circuit_built(request, tmp_path_factory) -> Path:
    """The contract's tiny league of every circuit built, its 17th player (the Grand Sud's last, not
    in the Masters' 16) left out of the site, and its second shown by initials, or not."""
    from reportgen import circuits
    from reportgen.pipeline import build
    from tests import test_contract as contract
    from tests.builders import write_clubs

    root = tmp_path_factory.mktemp("every-circuit-built")
    inputs = root / "inputs"
    write_clubs(inputs)
    for slug in circuits.CIRCUITS:
        contract.TINY_LEAGUE[slug](inputs)
    rows = [["", *contract.NAMES[16].split(" "), "", "", "non"]]
    if request.param == "in-the-masters":
        rows.append(["", *contract.NAMES[1].split(" "), "", "", "initiales"])
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [HEADER, *rows]})
    result = build(inputs, root / "outputs", contract.TODAY)
    assert result.ok, result.problems
    return root / "outputs"


def test_every_address_of_every_uploaded_page_names_an_uploaded_file(every_circuit_built, private):
    """A Masters bulletin linked the Grand Sud ranking its « Classement annuel » gives places in,
    the whole CSV (« ../../grand-sud/2026/classement-provisoire-2026.csv »), which is never uploaded
    once a player of it hides his name: only its public copy is. Dead online, from the Masters'
    public copy when a player of the Masters hides too, from the whole bulletin uploaded otherwise.
    Every page uploaded, bulletins and their copies included, links only files uploaded; the
    bulletin uploaded links the Grand Sud's copy and names it for print, the whole one kept for the
    clubs the whole CSV."""
    assert dead_links(every_circuit_built) == []
    assert dead_links(private) == []
    uploaded = site_files(every_circuit_built)
    assert "grand-sud/public/2026/classement-provisoire-2026.csv" in uploaded
    assert "masters/public/2026/masters-2026.html" in uploaded and "masters/2026/masters-2026.html" not in uploaded
    public = (every_circuit_built / "masters/public/2026/masters-2026.html").read_text(encoding="utf-8")
    assert 'href="../../../grand-sud/public/2026/classement-provisoire-2026.csv"' in public
    assert "(fichier grand-sud/public/2026/classement-provisoire-2026.csv)" in public
    whole = (every_circuit_built / "masters/2026/masters-2026.html").read_text(encoding="utf-8")
    assert 'href="../../grand-sud/2026/classement-provisoire-2026.csv"' in whole
    season = (every_circuit_built / "site/masters-2026.html").read_text(encoding="utf-8")
    assert 'href="../masters/public/2026/masters-2026.html"' in season
    assert "(fichier grand-sud/public/2026/classement-provisoire-2026.csv)" in season  # as it links it
