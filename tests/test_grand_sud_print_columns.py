"""Issue 27, tenth round: a Grand Sud bulletin whose window has more tournaments than the circuit's
`bulletin_columns` prints, in its PDF, one column « Résultats retenus » in place of a column per
tournament (circuits/common.py print_columns, templates/grand-sud/results.j2); its HTML page,
the CSV and the annex keep the grid and every result. The default (30) prints the example league as
before: tests/test_print_html.py and the byte comparisons of docs/performance.md."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from reportgen import french
from reportgen.circuits import common
from reportgen.circuits.grand_sud.settings import GrandSudSettings
from reportgen.pipeline import build
from reportgen.render import html as render
from reportgen.render import pdf as pdf_render
from tests.builders import CLUBS, TODAY, event, players, report, small_league, write_tournament

HEADER = '<th scope="col" class="results">Résultats retenus</th>'
CELL = re.compile(r'<td class="results">(.*?)</td>', re.S)
RESULT = re.compile(r'<span class="(counted|dropped)">(.*?)</span>')


def number(text: str) -> int:
    """A bulletin's points as printed (« 1 086 », a narrow no-break space between thousands)."""
    return int(re.sub(r"\D", "", text))


def ranking_table(page: str) -> str:
    table = page[page.index('<table class="ranking">'):]
    return table[:table.index("</table>")]


def printed_results(page: str) -> list[list[tuple[str, str, int]]]:
    """Each printed row's results: (kind, label, points), in the order printed."""
    rows = []
    for cell in CELL.findall(ranking_table(page)):
        found = []
        for kind, text in RESULT.findall(cell):
            label, _, points = html.unescape(text).rpartition(" ")
            found.append((kind, label, number(points)))
        rows.append(found)
    return rows


def window_league(clubs: list[str], fields: list[list[int]]):
    """A season of tournaments at `clubs` (in date order), the i-th played by the players `fields[i]`
    (indices into one list of names) in that order of places."""
    names = players(max((max(field) for field in fields if field), default=0) + 1)
    return [event(f"2026-{1 + index // 4:02d}-{1 + 7 * (index % 4):02d}", club, [names[i] for i in field])
            for index, (club, field) in enumerate(zip(clubs, fields, strict=True)) if field]


def check_compact(document, limit: int) -> None:
    """The document's page keeps the grid; its print HTML has the one column, each row's counted
    results adding up to its total, in the grid's order, its dropped results after them."""
    columns, rows = document.context["columns"], document.context["rows"]
    page = render.render(document).encode("utf-8")
    printed = render.render_print(document, page).decode("utf-8")
    grid = ranking_table(page.decode("utf-8"))
    assert grid.count('class="t"') == len(columns) and HEADER not in grid
    if len(columns) <= limit:
        assert document.context["print_columns"] is None and render.render_print(document, page) is page
        return
    labels = document.context["print_columns"]["labels"]
    assert len(labels) == len(columns)
    table = ranking_table(printed)
    assert table.count(HEADER) == 1 and 'class="t"' not in table and 'class="pts' not in table
    line = french.typography(document.context["print_columns"]["line"])  # as the page sets it (render/html.py)
    assert line in html.unescape(printed) and line not in html.unescape(page.decode("utf-8"))
    results = printed_results(printed)
    assert len(results) == len(rows)
    for row, shown in zip(rows, results, strict=True):
        played = [(cell["kind"], labels[index], number(cell["text"]))
                  for index, cell in enumerate(row["cells"]) if cell["kind"] != "absent"]
        # the counted ones in the grid's order, then the dropped ones, each as the grid has it
        assert shown == [r for r in played if r[0] == "counted"] + [r for r in played if r[0] == "dropped"]
        assert sum(points for kind, _, points in shown if kind == "counted") == number(row["total"])


def test_a_wide_window_prints_each_player_s_results_and_the_page_keeps_the_grid():
    names = players(8)
    events = [event("2026-01-10", "CARC", names), event("2026-01-17", "TLSE", names[::-1]),
              event("2026-01-24", "ALBI", names[:5]), event("2026-01-31", "MTPL", names[3:]),
              event("2026-02-07", "CARC", names[:4], series="CARC-B"), event("2026-02-14", "PERP", names[1:6])]
    documents = [d for d in report(events, GrandSudSettings(bulletin_columns=3)).documents if "columns" in d.context]
    assert len(documents[-1].context["columns"]) == 6
    for document in documents:
        check_compact(document, 3)
    # Two tournaments of one club in the window (two series) are told apart by their day, as the
    # table of tournaments names them; the others by their club's code alone.
    assert documents[-1].context["print_columns"]["labels"] == [
        "CARC 10/01", "TLSE", "ALBI", "MTPL", "CARC 07/02", "PERP"]
    line = documents[-1].context["print_columns"]["line"]
    assert line.startswith("Ce bulletin imprimé donne pour chaque joueur ses résultats")
    assert "grille des 6 tournois comptés" in line and "page HTML de ce bulletin" in line


def test_the_default_prints_the_grid_and_the_pdf_is_rendered_from_the_page():
    names = players(4)
    events = [event(f"2026-0{month}-10", club, names) for month, club in enumerate(["CARC", "TLSE", "ALBI"], 1)]
    for document in report(events).documents:
        assert document.context["print_columns"] is None
        page = render.render(document).encode("utf-8")
        assert render.render_print(document, page) is page
    assert common.print_columns(["A"] * 30, 30) is None and common.print_columns(["A"] * 31, 30) is not None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["CARC", "TLSE", "ALBI", "MTPL", "PERP", "NIME"]),
                          st.lists(st.integers(0, 9), min_size=0, max_size=9, unique=True)),
                min_size=1, max_size=8),
       st.integers(1, 4))
def test_any_league_s_printed_results_add_up_to_its_totals(tournaments, limit):
    events = window_league([club for club, _ in tournaments], [field for _, field in tournaments])
    if not events:
        return
    for document in report(events, GrandSudSettings(bulletin_columns=limit)).documents:
        if "columns" in document.context:
            check_compact(document, limit)


@pytest.fixture
def handed(monkeypatch) -> dict[str, str]:
    """The HTML each stand-in PDF was rendered from, by PDF path's bytes."""
    pages: dict[str, str] = {}

    def one(page: str, day=None, templates=None) -> bytes:
        key = f"%PDF-1.7 stand-in {len(pages)}"
        pages[key] = page
        return key.encode()

    monkeypatch.setattr(pdf_render, "render_pdf", one)
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [one(p) for p, _ in pages])
    return pages


def test_a_build_prints_the_column_in_its_pdfs_only(tmp_path, handed):
    """The same league built with the default and with `bulletin_columns = 2`: the same HTML pages,
    CSV and annexes; only the PDFs of the bulletins of more than two tournaments differ, rendered from
    the one column."""
    inputs = small_league(tmp_path / "inputs")
    write_tournament(inputs, "2026-02-14-nimes", day="14/02/2026", club="NIME", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "L'ÉCUYER & <i>fils</i>", "Zoé", "", "Nîmes"]])
    assert build(inputs, tmp_path / "grid", TODAY).ok
    grid_pdfs = {path.relative_to(tmp_path / "grid"): handed[path.read_text()]
                 for path in (tmp_path / "grid").rglob("*.pdf")}
    (inputs / "reportgen.toml").write_text("[circuits.grand-sud]\nbulletin_columns = 2\n", encoding="utf-8")
    assert build(inputs, tmp_path / "compact", TODAY).ok
    folder, compact = tmp_path / "grid" / "grand-sud", tmp_path / "compact" / "grand-sud"
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".html", ".csv", ".xlsx"):
            assert path.read_bytes() == (compact / path.relative_to(folder)).read_bytes(), path
    changed = 0
    for path in sorted(compact.rglob("*.pdf")):
        name = path.relative_to(tmp_path / "compact")
        printed, page = handed[path.read_text()], (path.with_suffix(".html")).read_text(encoding="utf-8")
        columns = ranking_table(page).count('class="t"')
        if columns > 2:
            changed += 1
            assert HEADER in printed and 'class="t"' not in ranking_table(printed)
            assert printed != grid_pdfs[name] == page
            # names from workbooks are data: Mallory's of the small league, and this one
            # (as the reader writes them, surnames in capitals)
            assert "<SCRIPT>" not in printed and "&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt; Mallory" in printed
            assert "<I>" not in printed
            assert ("L&#39;ÉCUYER &amp; &lt;I&gt;FILS&lt;/I&gt; Zoé" in printed) == ("CUYER" in page)
        else:
            assert printed == grid_pdfs[name]
    assert changed


def test_a_compact_bulletin_renders_to_pdf(tmp_path):
    """One real PDF of the one column (WeasyPrint): its text says the column and the line."""
    names = players(6)
    events = [event(f"2026-01-{day:02d}", club, names[shift:] + names[:shift])
              for shift, (day, club) in enumerate([(10, "CARC"), (17, "TLSE"), (24, "ALBI"), (31, "MTPL")])]
    document = next(d for d in reversed(report(events, GrandSudSettings(bulletin_columns=2)).documents)
                    if "columns" in d.context)
    printed = render.render_print(document, render.render(document).encode("utf-8"))
    path = tmp_path / "bulletin.pdf"
    path.write_bytes(pdf_render.render_pdf(printed.decode("utf-8"), document.date))
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Résultats retenus" in text and "TLSE" in text and "au lieu de la grille" in text
    assert {club.code for club in CLUBS.clubs} >= set(document.context["print_columns"]["labels"])
