"""What the secretary gets: bulletins (HTML, PDF), annexes (XLSX) and CSV, real files read back."""

import datetime as dt
import io
import logging
import re

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from reportgen import french
from reportgen.pipeline import build, load, score
from reportgen.render import html as html_render
from reportgen.render.excel import LINE_HEIGHT, wrapped_lines
from reportgen.render.files import write_atomic
from reportgen.render.pdf import render_pdf
from tests import golden
from tests.builders import TODAY, small_league, write_clubs, write_tournament

# WeasyPrint's notice that it subsets fonts with fontTools for want of HarfBuzz-Subset: an optional
# library (system-packages.txt installs it), not a defect of the document.
OPTIONAL_LIBRARY = "Using fontTools instead of HarfBuzz-Subset"


def weasyprint_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("weasyprint") and not r.getMessage().startswith(OPTIONAL_LIBRARY)]


@pytest.fixture
def built(small_league_built):
    return small_league_built.outputs / "grand-sud"


def test_every_ranking_has_its_bulletin_csv_and_each_season_its_annex(built):
    names = sorted(p.relative_to(built).as_posix() for p in built.rglob("*"))
    stems = ["2025/classement-2025-06-01", "2025/classement-final-2025", "2026/classement-2026-01-10"]
    # One document per ranking (issue 27): 2026 still runs, its final ranking is a CSV only, and its
    # latest dated bulletin is its ranking « à date »; that CSV is named « provisoire » until the end.
    assert names == sorted(["2025", "2026", "publications.json", "site.json",
                            "2025/annexe-grand-sud-2025.xlsx", "2026/annexe-grand-sud-2026.xlsx",
                            "2026/classement-provisoire-2026.csv",
                            *(f"{s}.{ext}" for s in stems for ext in ("html", "pdf", "csv"))])


def test_the_pdf_has_its_pages_text_fonts_and_dates_from_the_inputs(built):
    reader = PdfReader(built / "2026" / "classement-2026-01-10.pdf")
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Classement après les tournois de Carcassonne et de Toulouse du 10 janvier 2026" in text
    assert [f"page {n} sur {len(reader.pages)}" in page.extract_text() for n, page in enumerate(reader.pages, 1)] == [
        True] * len(reader.pages)
    assert "<script>alert(1)</script> Mallory".upper()[:8] in text.upper()
    fonts = {font["/BaseFont"].split("+")[-1] for page in reader.pages
             for font in page["/Resources"]["/Font"].values()}
    assert fonts and all(name.startswith("Inter") for name in fonts)  # only the shipped font, embedded
    for font in (f.get_object() for page in reader.pages for f in page["/Resources"]["/Font"].values()):
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert reader.metadata["/CreationDate"].startswith("D:20260110")


def test_the_pdf_renders_without_any_weasyprint_warning(tmp_path, caplog):
    inputs = small_league(tmp_path / "inputs")
    report = score(load(inputs, TODAY), ["grand-sud"]).reports["grand-sud"]
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        for document in report.documents:
            render_pdf(html_render.render(document), document.date)
    assert weasyprint_warnings(caplog) == []


RENDER_BOTH_WAYS = """
import datetime as dt, hashlib, sys
from weasyprint.pdf import fonts
from reportgen.render.pdf import render_pdf
page, day = open(sys.argv[1], encoding="utf-8").read(), dt.date.fromisoformat(sys.argv[2])
harfbuzz = fonts.harfbuzz_subset is not None and hashlib.sha256(render_pdf(page, day)).hexdigest()
fonts.harfbuzz_subset = None  # WeasyPrint's other path: fontTools subsets the fonts
print(harfbuzz, hashlib.sha256(render_pdf(page, day)).hexdigest())
"""


def test_pdfs_are_byte_identical_from_one_process_to_the_next_with_or_without_harfbuzz_subset(built):
    """Two processes, seconds apart, other hash seeds: the same bytes on each font-subsetting path."""
    import os
    import subprocess
    import sys
    import time

    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", RENDER_BOTH_WAYS, built / "2026" / "classement-2026-01-10.html",
                               "2026-01-10"], capture_output=True, text=True, env=env, timeout=120, check=True)
        runs.append(done.stdout.split())
        time.sleep(1.1)  # fontTools stamps subsets with the clock, to the second, unless told the date
    assert runs[0] == runs[1]
    harfbuzz, fonttools = runs[0]
    assert harfbuzz != "False", "HarfBuzz-Subset is missing: run make (system-packages.txt)"
    assert harfbuzz != fonttools  # two paths really taken


def test_a_pdf_page_looks_like_a_landscape_a4_bulletin(built, tmp_path):
    """The first page as an image (poppler's pdftoppm): A4 landscape, white margins, ink inside."""
    import subprocess

    from PIL import Image

    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", "-singlefile",
                    built / "2025" / "classement-final-2025.pdf", tmp_path / "page"], check=True)
    image = Image.open(tmp_path / "page.png").convert("L")
    width, height = image.size
    assert abs(width / height - 297 / 210) < 0.02
    dark = [(x, y) for x in range(width) for y in range(height) if image.getpixel((x, y)) < 100]
    assert len(dark) > width * height // 100  # text and rules, not a blank page
    margin = width // 40
    assert all(margin <= x < width - margin for x, _ in dark)  # nothing printed into the side margins


def test_a_long_ranking_repeats_its_header_and_numbers_its_pages(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    players = [[place, f"JOUEUR{chr(65 + place // 26)}{chr(65 + place % 26)}", "Un", "", ""] for place in range(1, 61)]
    write_tournament(inputs, "grand", results=players)
    report = score(load(inputs, TODAY), ["grand-sud"]).reports["grand-sud"]
    reader = PdfReader(__import__("io").BytesIO(render_pdf(html_render.render(report.documents[0]))))
    pages = [page.extract_text() for page in reader.pages]
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert f"page {number} sur {len(pages)}" in text
    assert all("Joueur" in text and "Total" in text for text in pages[:2])  # header row on each page


def test_the_pdf_fetcher_reads_nothing_outside_the_templates(tmp_path, caplog):
    """A page that asks for a file outside templates/ as an attachment and as images, and for a
    URL: the PDF has none of them. The PDF's streams are compressed, so its bytes prove nothing: the
    check reads what a reader would see (every page's text, every embedded file, every image
    XObject), and a control rendering, where the same files are allowed, shows it finds them."""
    import io

    from PIL import Image

    secret = tmp_path / "secret.txt"
    secret.write_text("CONFIDENTIEL-42")
    picture = Image.new("RGB", (4, 4))
    picture.putdata([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)] * 4)
    picture.save(tmp_path / "secret.png")
    page = (f'<html><head><link rel="attachment" href="file://{secret}"></head><body>'
            f'<img src="file://{tmp_path / "secret.png"}"><img src="file://{secret}">'
            f'<img src="http://127.0.0.1:9/x.png"><p>ok</p>{{control}}</body></html>')

    def contents(data: bytes) -> tuple[str, list[bytes], list[bytes]]:
        reader = PdfReader(io.BytesIO(data))
        text = "\n".join(page.extract_text() for page in reader.pages)
        attached = [content for contents in reader.attachments.values() for content in contents]
        images = [image.image.convert("RGB").tobytes() for page in reader.pages for image in page.images]
        return text, attached, images

    with caplog.at_level(logging.ERROR, logger="weasyprint"):
        text, attached, images = contents(render_pdf(page.replace("{control}", "")))
        # Control: the secret's folder is the allowed one, and the page's text names the secret.
        control = contents(render_pdf(page.replace("{control}", "<p>CONFIDENTIEL-42</p>"), templates=tmp_path))
    assert "ok" in text and "CONFIDENTIEL-42" not in text
    assert attached == [] and images == []  # the page has no legitimate attachment or image
    control_text, control_attached, control_images = control
    assert "CONFIDENTIEL-42" in control_text
    assert any(b"CONFIDENTIEL-42" in content for content in control_attached)
    assert picture.tobytes() in control_images


def test_names_from_workbooks_are_escaped_in_html(built):
    page = (built / "2026" / "classement-2026-01-10.html").read_text()
    assert "<script" not in page.lower() and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.lower()


def test_the_annex_reads_back_with_its_values_text_names_and_print_settings(built):
    book = openpyxl.load_workbook(built / "2026" / "annexe-grand-sud-2026.xlsx")
    # the 2026 season runs: its final ranking so far is « provisoire », as the site and `standings` say
    assert book.sheetnames == ["Classement final provisoire", "Tournois", "Points", "Historique des places"]
    final = book["Classement final provisoire"]
    assert [c.value for c in book["Historique des places"][1]][-1] == "Final provisoire"
    rows = [[cell.value for cell in row] for row in final.iter_rows()]
    # the ranking's own columns, as in the CSV
    assert rows[0] == ["Place", "Joueur", "Licence", "Club", "Total", "Tournois joués", "Meilleur résultat",
                       "Évolution", "Tête de série"]
    names = {row[1]: row for row in rows[1:]}
    hacker = next(cell for row in final.iter_rows(min_row=2) for cell in row if cell.value == "=SOMME(A1:A9) Hacker")
    assert hacker.data_type == "s"  # text, never a formula
    # 1st, 2nd at the duplicate, 2 seeds present (MARTIN and DUPONT, from the final ranking of 2025)
    assert names["MARTIN Paul"] == [1, "MARTIN Paul", "1002", "Albi", 520 + 55, 1, 575, 0, "oui"]
    assert final.freeze_panes == "A2" and final.auto_filter.ref.startswith("A1:")
    assert final.print_title_rows == "$1:$1" and final.page_setup.orientation == "landscape"
    # each date of the place history in a column wide enough for it (« 24/01/2026 », not wrapped)
    history = book["Historique des places"]
    dates = [cell for cell in next(history.iter_rows(max_row=1)) if cell.column > 1]
    assert dates and all(history.column_dimensions[cell.column_letter].width > len(str(cell.value)) for cell in dates)
    # a header row as high as its longest header wraps: « Compté au classement final » takes three lines
    # in its column of the points (LibreOffice's print cut its last word at two), the final ranking's two
    assert book["Points"].row_dimensions[1].height == 3 * LINE_HEIGHT
    assert final.row_dimensions[1].height == 2 * LINE_HEIGHT
    # fit to one page wide (fitToWidth defaults to 1), as many pages tall as needed
    assert final.sheet_properties.pageSetUpPr.fitToPage and final.page_setup.fitToHeight == 0
    tournaments = [[c.value for c in row] for row in book["Tournois"].iter_rows(min_row=2)]
    assert [(t[0].date(), t[9]) for t in tournaments] == [
        (dt.date(2026, 1, 10), "oui"), (dt.date(2026, 1, 10), "oui"), (dt.date(2026, 2, 7), "hors circuit")]
    points = [[c.value for c in row] for row in book["Points"].iter_rows(min_row=2)]
    assert ["MARTIN Paul", 1, 2, 2, 575] == [points[0][2], points[0][5], points[0][6], points[0][7], points[0][10]]
    # where each result was read, said as everywhere else, on one line of its column
    assert points[0][12] == "2026-01-10-carcassonne.xlsx, feuille « Résultats », cellule B2"
    assert book["Points"].row_dimensions[2].height in (None, LINE_HEIGHT)


@pytest.mark.parametrize("header, width, lines", [
    ("Pour les têtes de série", 11, 3), ("Classement Elo", 10, 2), ("Compté au classement final", 12, 3),
    ("Département", 8, 2),  # a word longer than its column is cut, as a spreadsheet does
    ("Joueurs", 8, 1), ("24/01/2026", 11, 1), ("", 8, 1)])
def test_an_annex_header_wraps_into_the_lines_a_spreadsheet_shows(header, width, lines):
    # as LibreOffice laid out each of these headers in the example league's annexes
    assert wrapped_lines(header, width) == lines


def test_an_annex_row_is_as_high_as_its_longest_text_wraps_and_a_number_keeps_room_on_its_right():
    # As LibreOffice printed the Tour de France's tournaments: its « Statut » cut by the next column
    # until it wrapped, and wrapped over the next row until its row was high enough (LibreOffice
    # grows no row as it opens a file); a pool's average touched the next column's text (« 0.667A »).
    from reportgen.model import Annex, AnnexColumn, AnnexSheet
    from reportgen.render.excel import render_annex

    status = "moins de 12 joueurs : barème standard (cas particulier du règlement)"
    sheet = AnnexSheet("Tournois", [AnnexColumn("Valeur", "int", 9), AnnexColumn("Statut", "text", 40),
                                    AnnexColumn("Moyenne", "number", 9, 3), AnnexColumn("Poule", "text", 7)],
                       [[871, status, 0.667, "A"], [1214, "compte", 1.0, "B"]])
    # a field's year without a thousands separator (it showed « 2,026 »), a count of points with one
    fields = AnnexSheet("Tournoi", [AnnexColumn("Champ", "text", 14), AnnexColumn("Valeur", "auto", 34, grouped=False),
                                    AnnexColumn("Points", "auto", 9)], [["Saison", 2026, 1214], ["Coefficient", 0.5, 2.5],
                                                                        ["Total", 0.75, 2323.75]])
    annex = Annex("a", "Essai", dt.date(2026, 3, 14), [sheet, fields])
    book = openpyxl.load_workbook(io.BytesIO(render_annex(annex)))
    cells = book["Tournois"]
    assert cells["B2"].value == status and cells["B2"].alignment.wrap_text
    assert cells.row_dimensions[2].height == 2 * LINE_HEIGHT and cells.row_dimensions[3].height is None
    assert [cells[ref].number_format for ref in ("A2", "C2")] == ["#,##0_)", "#,##0.000_)"]
    assert [book["Tournoi"][ref].number_format for ref in ("B2", "B3", "C2", "C3")] == [
        "0_)", "0.0_)", "#,##0_)", "#,##0.0_)"]
    # a quarter as its bulletin prints it (« 2 323,75 », french.points): never rounded to « 2 323,8 »
    assert [book["Tournoi"][ref].number_format for ref in ("B4", "C4")] == ["0.00_)", "#,##0.00_)"]


def test_a_tour_de_france_annex_shows_each_total_as_its_bulletin_and_csv(example_scored):
    # A season total of 2 323,75 (results counted at 50 % or 75 %) was shown « 2 323,8 » in the
    # annex and a whole one « 6 910,0 »; the bulletin and the CSV write « 2 323,75 » and « 6 910 ».
    from reportgen.render.excel import render_annex

    [annex] = example_scored.reports["tour-de-france"].annexes
    book = openpyxl.load_workbook(io.BytesIO(render_annex(annex)))
    shown = {}
    for sheet, header in (("Classement final", "Total"), ("Résultats", "Points comptés")):
        cells = book[sheet]
        column = next(c.column for c in cells[1] if c.value == header)
        shown[sheet] = {(cell.value, cell.number_format) for (cell,) in
                        cells.iter_rows(min_row=2, min_col=column, max_col=column) if isinstance(cell.value, float)}
        assert shown[sheet], sheet
    quarters = {(value, fmt) for found in shown.values() for value, fmt in found if value * 4 % 2}
    assert quarters and {fmt for _, fmt in quarters} == {"#,##0.00_)"}
    assert {fmt for found in shown.values() for value, fmt in found if value.is_integer()} <= {"#,##0_)"}


def test_an_annex_percent_column_keeps_the_fraction_and_shows_a_percentage():
    # A Tantrix score in the annex: an « auto » column showed 0.622 as « 0,6 » where the bulletin
    # prints « 62,2 % »; a `percent` column keeps the fraction in the cell (a formula may use it)
    # and shows it as a percentage with the column's decimals.
    from reportgen.model import Annex, AnnexColumn, AnnexSheet
    from reportgen.render.excel import render_annex

    columns = [AnnexColumn("Joueur", "text", 26), AnnexColumn("Score", "number", 8, 1, percent=True),
               AnnexColumn("Performance", "number", 11)]
    sheet = AnnexSheet("Évolution Elo", columns, [["DUPUY Frédéric", 0.622, 1912.4], ["MARTIN Paul", 0.01, 1500.0],
                                                  ["ROUX Anne", 1, 2000.0]])
    book = openpyxl.load_workbook(io.BytesIO(render_annex(Annex("a", "Essai", dt.date(2026, 3, 14), [sheet]))))
    cells = book["Évolution Elo"]
    assert [cells[f"B{row}"].value for row in (2, 3, 4)] == [0.622, 0.01, 1]
    # « 62,2 % » as French writes it: a narrow no-break space before the sign (it showed « 62,2% »)
    assert {cells[f"B{row}"].number_format for row in (2, 3, 4)} == {'#,##0.0"\u202f"%_)'}
    assert cells["C2"].number_format == "#,##0.0_)"  # the other numbers as they were


def test_the_published_csv_follows_the_french_excel_convention(built):
    """`;`, French headings, UTF-8 with a BOM (Excel reads accents right only then), CRLF, « oui »."""
    data = (built / "2026" / "classement-provisoire-2026.csv").read_bytes()
    assert data.startswith("\ufeff".encode("utf-8"))
    lines = data.decode("utf-8-sig").split("\r\n")
    assert lines[0] == "Place;Joueur;Licence;Club;Total;Tournois joués;Meilleur résultat;Évolution;Tête de série"
    assert lines[1] == "1;MARTIN Paul;1002;Albi;575;1;575;0;oui"
    assert lines[-1] == ""  # every line ends with CRLF


def test_half_points_have_a_decimal_comma_in_the_published_csv():
    from reportgen.model import Column, Ranking, RankingRow, Scope, Status
    from reportgen.render.ranking import to_csv, to_spreadsheet_csv

    ranking = Ranking("x", Scope("season", 2026), dt.date(2026, 3, 1), Status.PROVISIONAL,
                      (Column("points", "Points", "number"),),
                      (RankingRow(1, "p", "=DUPONT Jean", "", "Albi", {"points": 3743.5}),))
    assert to_spreadsheet_csv(ranking).decode("utf-8-sig").splitlines()[1] == "1;'=DUPONT Jean;;Albi;3743,5"
    assert to_csv(ranking).decode().splitlines()[1] == "1,'=DUPONT Jean,,Albi,3743.5,False"  # scripts: plain CSV


_CELLS = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(max_size=6), st.sampled_from(["-3", "+2", "=SOMME(A1)", "@x", "3=", "nouveau"]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_CELLS, _CELLS, _CELLS, st.booleans(), st.text(max_size=6)), max_size=6))
def test_each_cell_of_the_published_csv_is_written_by_the_french_rule(rows):
    """The published CSV's fast path (a plain int written as it is, thirteenth round) gives each
    cell what `_french_cell` gives the ranking's record: every kind of value, in columns with and
    without decimals."""
    import csv
    import io

    from reportgen.model import Column, Ranking, RankingRow, Scope, Status
    from reportgen.render.ranking import _french_cell, to_spreadsheet_csv

    columns = (Column("points", "Points", "number"), Column("moyenne", "Moyenne", "number", decimals=2),
               Column("autre", "Autre", "text"), Column("tete", "Tête", "bool"),
               Column("evolution", "Évolution", "evolution"),  # a whole number there is signed: « +3 »
               Column("marge", "Marge", "int", signed=True))  # and in a `signed` column: « +13 »
    ranking = Ranking("x", Scope("season", 2026), dt.date(2026, 3, 1), Status.PROVISIONAL, columns,
                      tuple(RankingRow(rank, "p", player, "", "Albi",
                                       {"points": points, "moyenne": mean if not isinstance(mean, str) else 1.5,
                                        "autre": other, "tete": seed, "evolution": points, "marge": points})
                            for points, mean, other, seed, player in rows
                            for rank in [points if isinstance(points, int) else 1]))
    written = list(csv.reader(io.StringIO(to_spreadsheet_csv(ranking).decode("utf-8-sig"), newline=""), delimiter=";"))
    expected = [["" if cell is None else str(cell) for cell in (_french_cell(value, column)
                 for value, column in zip(record.values(), ranking.all_columns))] for record in ranking.records()]
    assert written[1:] == expected


def normalised(page: str) -> str:
    """The HTML without its inlined stylesheet (reviewed on its own), without the content of its
    render fingerprint (it names the machine's libraries: HarfBuzz's version, whether
    HarfBuzz-Subset is installed; test_packaging.py checks it), and with one tag per line."""
    page = re.sub(r"<style>.*?</style>", "<style>…</style>", page, flags=re.S)
    page = re.sub(r'<meta name="reportgen-render" content="[^"]*">', '<meta name="reportgen-render" content="…">', page)
    return re.sub(r">\s*<", ">\n<", page).strip() + "\n"


@pytest.mark.parametrize("name", ["2026/classement-2026-01-10.html", "2025/classement-final-2025.html"])
def test_html_matches_the_reviewed_golden_file(built, name):
    golden.check(f"grand-sud/{name.replace('/', '-')}", normalised((built / name).read_text()))


def test_same_inputs_give_byte_identical_outputs(small_league_built, built, tmp_path):
    # the same workbooks, byte for byte (openpyxl dates each file it writes, and the manifest records
    # the hash of each workbook a publication was made from), in another folder
    inputs = tmp_path / "inputs"
    __import__("shutil").copytree(small_league_built.inputs, inputs)
    build(inputs, tmp_path / "again", TODAY)
    again = tmp_path / "again" / "grand-sud"
    files = sorted(p.relative_to(built) for p in built.rglob("*.*"))
    assert files == sorted(p.relative_to(again) for p in again.rglob("*.*"))
    for name in files:
        assert (built / name).read_bytes() == (again / name).read_bytes(), name


def test_a_second_build_rewrites_nothing(small_league_built, small_league_copy):
    # html, pdf, csv; the final CSV of 2026; annexes; manifest, site data
    assert len(small_league_built.result.published["grand-sud"]) == 3 * 3 + 1 + 2 + 2
    assert build(small_league_copy.inputs, small_league_copy.outputs, TODAY).published["grand-sud"] == []


def test_a_circuit_with_a_broken_file_publishes_nothing_new(small_league_copy):
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    circuit = outputs / "grand-sud"
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in circuit.rglob("*.*")}
    write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI")  # a valid new tournament
    write_tournament(inputs, "2026-03-08-nimes", day="le 8", club="NIME")  # and a broken one
    result = build(inputs, outputs, TODAY)
    assert result.blocked == ["grand-sud"] and not result.ok
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in circuit.rglob("*.*")} == before


def test_atomic_write_replaces_whole_files_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "bulletin.html"
    assert write_atomic(target, b"one")
    assert not write_atomic(target, b"one")  # unchanged: not rewritten
    assert write_atomic(target, b"two") and target.read_bytes() == b"two"
    with pytest.raises(TypeError):
        write_atomic(target, "not bytes")  # a failure mid-write keeps the old file
    assert target.read_bytes() == b"two" and [p.name for p in tmp_path.iterdir()] == ["bulletin.html"]


def test_every_template_of_the_example_league_renders_without_a_weasyprint_warning(example_scored, caplog):
    scored = example_scored
    documents = {}
    for report in scored.reports.values():
        for document in report.documents:  # the smallest document of each template
            current = documents.get(document.template)
            if current is None or len(html_render.render(document)) < len(html_render.render(current)):
                documents[document.template] = document
    assert set(documents) == {"grand-sud/bulletin.html.j2", "masters/bulletin.html.j2",
                              "masters/match_sheets.html.j2", "tour-de-france/bulletin.html.j2",
                              "poules/bulletin.html.j2", "tantrix/bulletin.html.j2", "tantrix/ratings.html.j2"}
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        for document in documents.values():
            reader = PdfReader(__import__("io").BytesIO(render_pdf(html_render.render(document), document.date)))
            fonts = {f.get_object()["/BaseFont"].split("+")[-1] for page in reader.pages
                     for f in page["/Resources"]["/Font"].values()}
            assert all(name.startswith("Inter") for name in fonts), (document.template, fonts)
    assert weasyprint_warnings(caplog) == []


def test_the_masters_printed_name_the_file_of_the_annual_ranking_their_places_are_in(example_scored):
    """A PDF links nothing a reader can follow (a club's mail attaches it alone): the Masters' bulletin
    and match sheets name the Grand Sud ranking of their « Classement annuel » and its file."""
    for document in example_scored.reports["masters"].documents:
        reader = PdfReader(io.BytesIO(render_pdf(html_render.render(document), document.date)))
        text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
        assert ("« Classement final provisoire de la saison 2026 (tournois de 2026 seulement) », au 28 novembre 2026, "
                "jour du Masters (fichier grand-sud/2026/classement-provisoire-2026.csv)") in text, document.template


def test_the_masters_and_tour_de_france_annexes_read_back(example_scored):
    from reportgen.render.excel import render_annex

    scored = example_scored
    masters = scored.reports["masters"].annexes[0]
    book = openpyxl.load_workbook(__import__("io").BytesIO(render_annex(masters)))
    assert book.sheetnames == ["Classement", "Tableau croisé", "Matchs"]
    assert book["Matchs"].max_row == 121 and book["Tableau croisé"].max_row == 17
    standings = [[c.value for c in row] for row in book["Classement"].iter_rows(min_row=2)]
    assert [row[0] for row in standings] == list(range(1, 17))
    tdf = scored.reports["tour-de-france"].annexes[0]
    book = openpyxl.load_workbook(__import__("io").BytesIO(render_annex(tdf)))
    # its season is over: its ranking is final, as the Grand Sud's annex names it
    assert book.sheetnames == ["Classement final", "Tournois", "Résultats", "Barèmes"]
    tournaments = [[c.value for c in row] for row in book["Tournois"].iter_rows(min_row=2)]
    assert len(tournaments) == 18 and any(row[5] is None and "ne compte pas" in row[6] for row in tournaments)
    utrecht = [row for row in tournaments if row[2] == "Utrecht"][0]
    assert (utrecht[3], utrecht[5]) == (100, 1816)


def test_the_site_links_every_publication_and_every_link_resolves(built):
    """The home page and the site's pages (reportgen/site/) link each bulletin, CSV and annex."""
    outputs = built.parent
    linked = set()
    for page in [outputs / "index.html", *(outputs / "site").glob("*.html")]:
        for link in re.findall(r'href="([^#"][^"]*)"', page.read_text()):  # not « #contenu », the skip link
            target = (page.parent / link).resolve()
            assert target.is_file(), (page.name, link)
            linked.add(target.relative_to(outputs.resolve()).as_posix())
    published = {p.relative_to(outputs).as_posix() for p in outputs.rglob("*")
                 if p.suffix in (".html", ".pdf", ".csv", ".xlsx") and p.parent != outputs
                 and p.parent.name != "site"}
    assert published and published <= linked


def test_the_index_says_when_a_circuit_kept_its_previous_publications(small_league_copy):
    write_tournament(small_league_copy.inputs, "casse", day="le 8", club="NIME")
    build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    page = (small_league_copy.outputs / "site" / "grand-sud-2026.html").read_text()
    assert "Des classeurs sont à corriger" in page and "classement-2026-01-10.pdf" in page


def test_the_secretary_s_page_lists_the_problems_and_notices_of_the_last_build(small_league_copy):
    """What the terminal said reaches the page the secretary opens (verification.html, not linked
    from the public site): each problem located, each notice (here a file set aside), names escaped
    as data."""
    write_tournament(small_league_copy.inputs, "casse", day="le 8", club="NIME")
    (small_league_copy.inputs / "<b>notes.csv").write_text("x")
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    page = (small_league_copy.outputs / "verification.html").read_text()
    assert "à corriger" in page and "À savoir" in page
    problem = result.problems[0]
    assert problem.where.path == "casse.xlsx" and "<h2>casse.xlsx</h2>" in page
    assert str(__import__("markupsafe").escape(french.typography(problem.message))) in page  # its no-break spaces
    assert "&lt;b&gt;notes.csv\u00a0: ignoré" in page and "<b>notes" not in page
    assert "verification.html" not in (small_league_copy.outputs / "index.html").read_text()
    # fixed: the next build says nothing of them any more
    (small_league_copy.inputs / "casse.xlsx").unlink()
    (small_league_copy.inputs / "<b>notes.csv").unlink()
    build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    page = (small_league_copy.outputs / "verification.html").read_text()
    assert "casse.xlsx" not in page and "ignoré" not in page and "aucun problème" in page


def test_names_in_chinese_print_in_the_pdf_rather_than_as_empty_boxes(tmp_path, caplog):
    """Inter has no CJK glyphs: a fallback font installed with the system packages
    (fonts-wqy-microhei, system-packages.txt) draws them; WeasyPrint warns of each .notdef glyph."""
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI", results=[
        [1, "王", "伟", "", "Albi"], [2, "李", "娜", "", "Albi"], [3, "ИВАНОВ", "Иван", "", "Albi"],
        [4, "محمد", "علي", "", "Albi"], [5, "כהן", "משה", "", "Albi"]])
    report = score(load(inputs, TODAY), ["grand-sud"]).reports["grand-sud"]
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = render_pdf(html_render.render(report.documents[0]), report.documents[0].date)
    assert weasyprint_warnings(caplog) == []
    assert "王 伟" in "".join(page.extract_text() for page in PdfReader(__import__("io").BytesIO(data)).pages)
