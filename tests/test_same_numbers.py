"""A value reads the same on the site, in its bulletin and in the annex: an Elo rating « 1 991,0 »,
its change « +52,6 », a pool's average « 0,500 », places gained « ▲ 3 » / « = » (one formatting
per kind of value: french.column_value, render/evolution.py), and the annex keeps numbers whose
format shows the sign (« +3 », « = »). Drawn from the example league's real rankings: its site pages
made from the published data, its bulletins rendered from the same report."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest

from reportgen import circuits
from reportgen.render import excel, html
from reportgen.render.ranking import to_spreadsheet_csv
from reportgen.site.pages import Site, page_name
from tests.builders import publish_site_data

# A tournament's page (site/pages.py `event_page_name`), where its table is the first
EVENT = '<table class="sortable ranking"'
TANTRIX_EVENT = "2026/2026-03-14-week-end-tantrix-de-printemps"  # games won with halves (draws)
# (site page, circuit, bulletin of the ranking that page shows, where its table starts, the headings compared)
SAME = [
    ("site/grand-sud-2026.html", "grand-sud", "2026/classement-2026-11-14", '<table class="ranking">', ["Évol."]),
    ("site/tour-de-france-2005.html", "tour-de-france", "2005/classement-final-2005", '<table class="ranking tdf">',
     ["Évol."]),
    ("site/tantrix-2026.html", "tantrix", "2026/classement-elo-2026-10-10", '<table class="ratings top-rows">',
     ["Elo", "Évol.", "Elo TS"]),
    ("site/poules-2026.html", "poules", "2026/2026-10-24-coupe-toussaint/tour-3", "Classement final</h2>",
     ["Moy.", "Points", "Tour"]),
    (f"site/{page_name('tournoi', f'tantrix/{TANTRIX_EVENT}')}", "tantrix", TANTRIX_EVENT, '<table class="tantrix',
     ["TPs", "Gagnées", "Marges"]),
]
CELL = re.compile(r"<t([dh])([^>]*)>(.*?)</t\1>", re.S)


@pytest.fixture(scope="module")
def published(example_scored, example_league, tmp_path_factory):
    """The example league's site pages, made from the data each circuit publishes, and its reports."""
    outputs = publish_site_data(example_league, example_scored, tmp_path_factory.mktemp("same-numbers"))
    pages = Site(outputs, list(circuits.CIRCUITS), example_league.settings.name).pages()
    return pages, example_scored.reports


def ranking_table(page: str, after: str = "") -> dict[str, dict[str, tuple[str, str]]]:
    """The first table of `page` after `after`: each player's cells, (attributes, inner HTML) by the
    heading of their column (the row's heading is the player; tags stripped from his name)."""
    table = page[page.index(after):] if after else page
    table = table[table.index("<table"):table.index("</table>")]
    head, body = table.split("</thead>")
    headings = [re.sub(r"<[^>]+>", "", inner).strip() for _, _, inner in CELL.findall(head)]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = CELL.findall(row)
        player = next(re.sub(r"<[^>]+>", "", inner) for kind, attributes, inner in cells
                      if kind == "h" and 'scope="row"' in attributes)
        rows[player] = {heading: (attributes, inner.strip()) for heading, (_, attributes, inner) in zip(headings, cells)}
    return rows


def evo_class(attributes: str) -> str | None:
    found = re.search(r'class="[^"]*\bevo (\w+)', attributes)
    return found.group(1) if found else None


@pytest.mark.parametrize("site_page, slug, path, table, headings", SAME, ids=[case[1] for case in SAME])
def test_each_value_reads_the_same_on_the_site_and_in_its_bulletin(published, site_page, slug, path, table, headings):
    pages, reports = published
    document = next(d for d in reports[slug].documents if d.path == path)
    bulletin = ranking_table(html.render(document), table)
    site = ranking_table(pages[site_page].decode("utf-8"), EVENT if "tournoi-" in site_page else 'id="classement"')
    both = sorted(set(site) & set(bulletin))
    assert len(both) >= min(10, len(bulletin)), (len(both), len(site), len(bulletin))  # a player hidden aside
    compared = 0
    for player in both:
        for heading in headings:
            (site_attributes, on_site), (bulletin_attributes, in_bulletin) = site[player][heading], bulletin[player][heading]
            assert on_site == in_bulletin, (player, heading)
            assert evo_class(site_attributes) in (None, evo_class(bulletin_attributes)), (player, heading)
            compared += 1
    assert compared == len(both) * len(headings)


def test_the_forms_are_the_regulation_s(published):
    """What each kind reads like (INTERPRETATIONS: ratings with one decimal, +3 shown ▲3; docs/poules.md:
    averages with three decimals), on the site's pages."""
    pages, _ = published
    tantrix = ranking_table(pages["site/tantrix-2026.html"].decode("utf-8"), 'id="classement"')
    assert {row["Elo"][1] for row in tantrix.values()} >= {"1\u202f991,0", "2\u202f052,8"}
    changes = {row["Évol."][1] for row in tantrix.values()}
    assert "+52,6" in changes and "\u221269,0" in changes and not {c for c in changes if c[:1].isdigit()}
    poules = ranking_table(pages["site/poules-2026.html"].decode("utf-8"), 'id="classement"')
    assert {"0,500", "0,750"} <= {row["Moy."][1] for row in poules.values()}
    grand_sud = ranking_table(pages["site/grand-sud-2026.html"].decode("utf-8"), 'id="classement"')
    moves = {evo_class(row["Évol."][0]): row["Évol."][1] for row in grand_sud.values()}
    assert moves["same"] == '<span aria-hidden="true">=</span><span class="sr-only">même place</span>'
    assert re.fullmatch(r'<span aria-hidden="true">▲</span> \d+<span class="sr-only"> places? gagnées?</span>', moves["up"])


def test_games_won_read_with_a_half_and_sort_by_their_number(published):
    """Tantrix's games won, a draw ½ (rule 10): « 2½ » on the site as in the bulletin, never
    « 2,5 »; site.js would read « 2½ » as 2 and « ½ » as a word: each cell gives its number."""
    pages, _ = published
    event = ranking_table(pages[f"site/{page_name('tournoi', f'tantrix/{TANTRIX_EVENT}')}"].decode("utf-8"), EVENT)
    wins = {row["Gagnées"] for row in event.values()}
    shown = {inner for _, inner in wins}
    assert "4½" in shown and not {text for text in shown if "," in text}
    for attributes, inner in wins:
        sort = float(re.search(r'data-sort="([^"]+)"', attributes).group(1))
        assert sort == int(inner.rstrip("½") or 0) + (0.5 if inner.endswith("½") else 0), inner


def annex_column(annex_bytes: bytes, sheet: str, heading: str) -> list[openpyxl.cell.Cell]:
    book = openpyxl.load_workbook(io.BytesIO(annex_bytes))
    found = book[sheet]
    column = [c.value for c in found[1]].index(heading) + 1
    return [found.cell(row, column) for row in range(2, found.max_row + 1)]


def test_an_evolution_in_the_annex_is_a_number_shown_with_its_sign(published):
    """The secretary sorts the column: numbers, not texts; its number format shows « +3 », « -2 »,
    « = » (a rating's change with its decimal), and « nouveau » stays a text."""
    _, reports = published
    annex = next(a for a in reports["grand-sud"].annexes if a.season == 2026)
    cells = annex_column(excel.render_annex(annex), "Classement final provisoire", "Évolution")  # 2026 runs
    values = [c.value for c in cells]
    assert 3 in values and -2 in values and 0 in values
    for cell in cells:
        if isinstance(cell.value, str):
            assert cell.value == "nouveau"
        else:
            assert type(cell.value) is int and cell.number_format == '+#,##0_);-#,##0_);"="_)'
    tantrix = next(a for a in reports["tantrix"].annexes if a.season == 2026)
    change = annex_column(excel.render_annex(tantrix), "Classement Elo", "Évolution")
    assert 52.6 in [c.value for c in change]
    assert {c.number_format for c in change if c.value is not None} == {'+#,##0.0_);-#,##0.0_);"="_)'}
    rating = annex_column(excel.render_annex(tantrix), "Classement Elo", "Classement Elo")
    assert {c.number_format for c in rating} == {"#,##0.0_)"} and 1991 in [c.value for c in rating]


def test_the_published_csv_keeps_plain_numbers_with_the_column_s_decimals(published):
    """The CSV a secretary opens keeps numbers a spreadsheet reads (no « = », no thousands
    separator, a plain minus): a rating with its one decimal, as the bulletin shows it; an evolution
    as its bulletin says it, with its sign: a place gained « +3 » as the evolution column always
    wrote it, a rating's change « +52,6 » (it was « 52,6 »), a newcomer « nouveau » (it was empty)."""
    _, reports = published
    ranking = next(r for r in reports["tantrix"].rankings if r.path == "2026/classement-elo-2026-10-10")
    rows = list(csv.DictReader(io.StringIO(to_spreadsheet_csv(ranking).decode("utf-8-sig")), delimiter=";"))
    assert {"1991,0", "2052,8"} <= {row["Classement Elo"] for row in rows}
    changes = {row["Évolution"] for row in rows}
    assert {"+52,6", "-69,0"} <= changes and all(change[0] in "+-" or change in ("0,0", "nouveau") for change in changes)
    first = next(r for r in reports["tantrix"].rankings if r.path == "2026/classement-elo-2026-03-14")
    rows = list(csv.DictReader(io.StringIO(to_spreadsheet_csv(first).decode("utf-8-sig")), delimiter=";"))
    assert rows and {row["Évolution"] for row in rows} == {"nouveau"}  # the first list: every player new
    season = next(r for r in reports["grand-sud"].rankings if r.path == "2026/classement-2026-11-14")
    moves = {row["Évolution"] for row in csv.DictReader(
        io.StringIO(to_spreadsheet_csv(season).decode("utf-8-sig")), delimiter=";")}
    assert {"+3", "-2", "0"} <= moves and "=" not in moves


def test_the_published_csv_writes_a_tantrix_margin_with_its_sign_as_the_bulletin_does(published):
    """A Tantrix event's « Marges » read « +13 » in its bulletin and « 13 » in its CSV: the CSV writes
    it with its sign, in a number a spreadsheet reads (« -4 », a plain minus; « 0 »: « = » would start a
    formula); `standings --format csv`, for scripts, keeps the plain number."""
    from reportgen.circuits.tantrix.texts import margin_text
    from reportgen.render.ranking import to_csv

    _, reports = published
    ranking = next(r for r in reports["tantrix"].rankings if r.path == TANTRIX_EVENT)
    rows = list(csv.DictReader(io.StringIO(to_spreadsheet_csv(ranking).decode("utf-8-sig")), delimiter=";"))
    written = [row["Marges"] for row in rows]
    said = [margin_text(row.value("margin")).replace("\u2212", "-") for row in ranking.rows]  # the bulletin's
    assert written == said and any(m.startswith("+") for m in written) and any(m.startswith("-") for m in written)
    plain = [row["margin"] for row in csv.DictReader(io.StringIO(to_csv(ranking).decode("utf-8")))]
    assert plain == [str(row.value("margin")) for row in ranking.rows] and not any(m.startswith("+") for m in plain)


def test_a_pool_tournament_s_round_reached_reads_as_its_bulletin_names_it_and_sorts_by_its_number(published):
    """« finale », « tour 2 » on the site as in the bulletin (never « 3 »); the published CSV keeps
    the round's number, which sorts the site's column (« finale » after « tour 2 »)."""
    pages, reports = published
    poules = ranking_table(pages["site/poules-2026.html"].decode("utf-8"), 'id="classement"')
    rounds = {inner: float(re.search(r'data-sort="([^"]+)"', attributes).group(1))
              for attributes, inner in (row["Tour"] for row in poules.values())}
    assert rounds["finale"] == 3 and rounds["tour\u00a02"] == 2 and set(rounds) <= {"finale", "tour\u00a01", "tour\u00a02"}
    ranking = next(r for r in reports["poules"].rankings if r.path == "2026/2026-10-24-coupe-toussaint/classement")
    rows = list(csv.DictReader(io.StringIO(to_spreadsheet_csv(ranking).decode("utf-8-sig")), delimiter=";"))
    assert {"3", "2"} <= {row["Tour atteint"] for row in rows}


def test_margins_read_with_their_sign(published):
    """Tantrix's margins (rule 10's tie-break), a difference: « +13 », « −4 », as its bulletin has
    always printed them, on the site too (which printed « 13 »)."""
    pages, _ = published
    event = ranking_table(pages[f"site/{page_name('tournoi', f'tantrix/{TANTRIX_EVENT}')}"].decode("utf-8"), EVENT)
    shown = [inner for _, inner in (row["Marges"] for row in event.values())]
    assert any(re.fullmatch(r"\+\d+", text) for text in shown) and any(re.fullmatch(r"−\d+", text) for text in shown)
    assert all(re.fullmatch(r"[+−]\d+|0", text) for text in shown), shown
