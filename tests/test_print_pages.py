"""The bulletins as printed pages (WeasyPrint, read back with pdftotext and pypdf): each page's footer
says which bulletin it is and of when, whatever its title holds; a table split across pages leaves at
least four rows on each, its header repeated."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import re
import subprocess
from pathlib import Path

from pypdf import PdfReader

from reportgen.model import Document
from reportgen.render import html, pdf
from reportgen.site import data as site_data
from reportgen.site import figures


def printed(document: Document) -> str:
    """The HTML the document's PDF is rendered from, as the build hands it to WeasyPrint."""
    return html.render_print(document, html.render(document).encode("utf-8")).decode("utf-8")


def page_texts(data: bytes, folder: Path) -> list[str]:
    """Each page's text as poppler lays it out (a footer's two boxes on one line)."""
    path = folder / "bulletin.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    return text.split("\f")[:-1]  # each page ends with a form feed


def footer_lines(data: bytes, folder: Path) -> list[str]:
    """Each page's last line: its footer."""
    return [[line for line in page.splitlines() if line.strip()][-1] for page in page_texts(data, folder)]


def document(scored, slug: str, path: str) -> Document:
    return next(d for d in scored.reports[slug].documents if d.path == path)


# -- the footer -----------------------------------------------------------------------------------

def test_the_running_title_names_the_circuit_the_bulletin_and_its_date_once(example_scored):
    titles = {d.path: html.running_title(d) for report in example_scored.reports.values() for d in report.documents}
    assert titles["2026/classement-2026-11-14"] == \
        "Classement régional Grand Sud · Classement après le tournoi d’Auch du 14 novembre 2026"
    assert titles["2026/masters-2026"] == "Masters Grand Sud · Classement final · 28 novembre 2026"
    assert titles["2005/classement-2005-04-09"] == \
        "Tour de France de Diplomatie · Classement après le tournoi International de Lyon (9 avril 2005)"
    assert titles["2026/classement-final-2026"].endswith("· Classement final de la saison 2026 · 29 novembre 2026") \
        if "2026/classement-final-2026" in titles else True
    assert all(len(title) <= html.RUNNING_TITLE_LENGTH for title in titles.values())


def test_a_club_bulletin_is_not_named_twice_and_a_long_title_is_cut_at_a_word():
    club = Document(path="TLSE", template="club.html.j2", title="Bulletin du club de Toulouse", date=dt.date(2026, 3, 1),
                    context={"circuit": "Toulouse", "title": "Bulletin du club de Toulouse au 1er mars 2026"})
    assert html.running_title(club) == "Bulletin du club de Toulouse au 1er mars 2026"
    long = dataclasses.replace(club, context={"circuit": "Tantrix", "title": "Coupe " + "interminable " * 20})
    cut = html.running_title(long)
    assert len(cut) <= html.RUNNING_TITLE_LENGTH and cut.endswith("interminable…") and cut.startswith("Tantrix · Coupe ")


def test_every_page_says_which_bulletin_of_when_and_its_page_of_how_many(example_scored, tmp_path):
    bulletin = document(example_scored, "grand-sud", "2025/classement-2025-03-08")
    data = pdf.render_pdf(printed(bulletin), bulletin.date)
    footers = footer_lines(data, tmp_path)
    assert len(footers) >= 3
    # the page's links back to the site (base.html.j2) are for a screen: the sheet opens on its masthead
    assert page_texts(data, tmp_path)[0].split()[:4] == ["Ligue", "Grand", "Sud", "des"]
    for number, footer in enumerate(footers, 1):
        # the whole title and the page number on one line: the footer never wraps
        assert footer.split()[:4] == ["Classement", "régional", "Grand", "Sud"], footer
        assert "Classement après le tournoi de Toulouse du 8 mars 2025" in footer, footer
        assert footer.endswith(f"page {number} sur {len(footers)}"), footer


def test_a_title_with_quotes_and_backslashes_prints_as_it_is_in_every_footer(example_scored, tmp_path):
    """A tournament's name is the workbook's: the footer reads it as text (an attribute, not CSS),
    so a quote or a backslash ends no CSS string and escapes nothing."""
    ratings = document(example_scored, "tantrix", "2026/classement-elo-2026-03-14")
    title = 'Coupe "d\'hiver" \\ C:\\Jeux\\"; } @page { content: "x" } \\'
    weird = dataclasses.replace(ratings, context={**ratings.context, "title": title})
    data = pdf.render_pdf(printed(weird), weird.date)
    footers = footer_lines(data, tmp_path)
    for number, footer in enumerate(footers, 1):
        assert f"Tantrix · {title} · 14 mars 2026" in footer, footer
        assert footer.endswith(f"page {number} sur {len(footers)}"), footer


def test_a_portrait_page_keeps_a_long_footer_on_one_line(example_scored, tmp_path):
    """The Masters' match sheets print on A4 portrait, the narrowest footer: a title as long as a
    footer prints, in wide capitals, stays on one line beside its page number."""
    sheets = document(example_scored, "masters", "2026/feuilles-de-match-2026")
    title = "FEUILLES DE MATCH DU MASTERS DE MONTPELLIER-MÉDITERRANÉE, WEEK-END DES 28 ET 29 NOVEMBRE, SALLE MUNICIPALE"
    long = dataclasses.replace(sheets, context={**sheets.context, "title": title})
    running = html.running_title(long)
    assert len(running) >= html.RUNNING_TITLE_LENGTH - 12  # near the longest a footer prints
    footers = footer_lines(pdf.render_pdf(printed(long), long.date), tmp_path)
    assert len(footers) > 2
    for number, footer in enumerate(footers, 1):
        assert running in footer and footer.endswith(f"page {number} sur {len(footers)}"), footer


# -- tables across pages --------------------------------------------------------------------------

def pages_of(data: bytes, *words: str) -> list[int]:
    """The page of the PDF each word is first on."""
    texts = [found.extract_text() for found in PdfReader(io.BytesIO(data)).pages]
    return [next(number for number, text in enumerate(texts) if word in text) for word in words]


ROWS = 12
FEW = 4  # the fewest rows of a table a page holds when the table is split (bulletin.css)


def ranking_case(tag: str, height: int, heading: bool) -> tuple[list[str], str]:
    """A ranking as the circuits print it (a heading, or a bulletin's summary line, then the table
    with its header), `height` mm down a new page; its rows' names, first to last."""
    names = [f"Joueur {rank} du cas {tag}." for rank in range(1, ROWS + 1)]
    rows = "".join(f'<tr><td class="rank">{rank}</td><td class="evo same">=</td><th scope="row" class="player">{name}</th>'
                   f'<td class="club">Albi</td><td class="played">2</td><td class="total">{100 - rank}</td></tr>'
                   for rank, name in enumerate(names, 1))
    intro = f"<h2>Classement du cas {tag}.</h2>" if heading else ""
    return names, (f'<div style="break-before: page; height: {height}mm"></div><section class="section">{intro}'
                   '<p class="summary">Résumé</p><div class="scroll fit"><table class="ranking"><thead><tr>'
                   '<th scope="col" class="rank">Pl.</th><th scope="col" class="evo">Évol.</th>'
                   '<th scope="col" class="player">Joueur</th><th scope="col" class="club">Club</th>'
                   '<th scope="col" class="played">Tournois</th><th scope="col" class="total">Total</th></tr></thead>'
                   f"<tbody>{rows}</tbody></table></div></section>")


def few_rows(css: str) -> list[str]:
    """The cases whose ranking leaves fewer than FEW rows on a page: rankings started lower and lower
    on a page of the bulletins' stylesheet `css` (2 mm at a time, less than a row: every place of
    the page's break among its rows, from before its heading to after its last row)."""
    cases = [(f"{height}{'h' if heading else 's'}", *ranking_case(f"{height}{'h' if heading else 's'}", height, heading))
             for heading in (True, False) for height in range(90, 186, 2)]
    page = (f'<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><style>{css}</style></head><body><main>'
            + "".join(section for _, _, section in cases) + "</main></body></html>")
    found = pages_of(pdf.render_pdf(page), *[name for _, names, _ in cases for name in names])
    few = []
    for index, (tag, _, _) in enumerate(cases):
        pages = found[index * ROWS:(index + 1) * ROWS]
        if pages[0] != pages[FEW - 1]:
            few.append(f"{tag}: first rows alone at a page's foot")
        if pages[-1] != pages[-FEW]:
            few.append(f"{tag}: last rows alone at a page's head")
    return few


def test_a_ranking_split_across_pages_leaves_four_rows_on_each():
    css = html.environment().get_template("bulletin.css").render()
    rules = ("tbody > tr:nth-child(-n+3):not(:last-child) { break-after: avoid; }",
             "tbody > tr:nth-last-child(-n+3) { break-before: avoid; }")
    assert all(rule in css for rule in rules)
    # the cases reach both defects without these two rules: they test what the rules fix
    without = few_rows(css.replace(rules[0], "").replace(rules[1], ""))
    assert any("foot" in case for case in without) and any("head" in case for case in without), without
    assert few_rows(css) == []


def short_table_cases(css: str, followed: bool) -> list[tuple[int, int]]:
    """For each short table (one to three rows, lower and lower on a page of the bulletins'
    stylesheet `css`, a page a case), with its legend below it, `followed` by another heading and
    its short table or not: whether its heading is printed on the page its case starts on, 0, or
    the next, 1; and whether its legend is on the page of its heading, 0, or the next, 1."""
    sections = []
    for rows in (1, 2, 3):
        for height in range(130, 186, 3):
            tag = f"{rows}-{height}"
            table = "".join(f"<tr><td>{rank}</td><th scope=\"row\">Joueur {rank}</th></tr>" for rank in range(1, rows + 1))
            after = (f'<h2>Suite {tag}.</h2><p class="summary">Résumé</p><table><tbody><tr><td>1</td></tr></tbody></table>'
                     '<p class="legend">Légende</p>') if followed else ""
            sections.append(f'<div style="break-before: page; height: {height}mm">Cas {tag}.</div><h2>Court {tag}.</h2>'
                            f'<p class="summary">Résumé</p><table><thead><tr><th>Place</th><th>Joueur</th></tr></thead>'
                            f'<tbody>{table}</tbody></table><p class="legend">Note {tag}.</p>{after}')
    page = (f'<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><style>{css}</style></head><body><main>'
            + "".join(sections) + "</main></body></html>")
    tags = [f"{rows}-{height}." for rows in (1, 2, 3) for height in range(130, 186, 3)]
    found = pages_of(pdf.render_pdf(page), *[word for tag in tags for word in (f"Cas {tag}", f"Court {tag}", f"Note {tag}")])
    return [(heading - start, note - heading) for start, heading, note in zip(found[::3], found[1::3], found[2::3])]


def test_a_short_table_is_not_held_to_what_follows_it():
    """A club's Masters table of three rows went to page 2 with the tournaments' heading and table
    after it (clubs/2026/AUCH.pdf), where it fitted at the foot of page 1: its last row's `break-after:
    avoid` was the table's. A short table starts on the page it would start on alone; its legend (a
    club's Masters race: « Les 16 premières places du classement annuel qualifient pour le Masters. ») stays with it."""
    css = html.environment().get_template("bulletin.css").render()
    alone = short_table_cases(css, followed=False)
    assert {heading for heading, _ in alone} == {0, 1}  # the cases reach the foot of a page
    assert short_table_cases(css, followed=True) == alone
    assert {note for _, note in alone} == {0}


def words(text: str) -> str:
    """`text` with its spaces, no-break ones too, one space each."""
    return " ".join(text.split())


def test_a_tournament_s_points_leave_no_row_or_two_alone_at_a_page_s_head(example_scored, tmp_path):
    """grand-sud/2026/classement-2026-11-14.pdf broke the 29 rows of « Points marqués : Tournoi d'Auch »
    after the 27th, leaving the 28th and 29th alone at the head of page 8 under the table's header.
    Printed as the build prints it (with its chart of places), each of its pages holds four of its
    rows at least, under its header, the first with its heading; the ranking's 148 rows still run
    over pages, their header on each."""
    report = example_scored.reports["grand-sud"]
    bulletin = next(d for d in figures.charted(report.documents, site_data.chart_records(report))
                    if d.path == "2026/classement-2026-11-14")
    pages = [[words(line) for line in text.splitlines()]
             for text in page_texts(pdf.render_pdf(printed(bulletin), bulletin.date), tmp_path)]
    auch = bulletin.context["latest"][0]
    assert auch["name"] == "Tournoi d'Auch" and len(auch["rows"]) == 29
    starts = [f"{row['place']} {row['place_duplicate']} {row['player']} " for row in auch["rows"]]
    on = [next(number for number, lines in enumerate(pages) if any(line.startswith(start) for line in lines))
          for start in starts]
    counts = {number: on.count(number) for number in sorted(set(on))}
    assert min(counts.values()) >= FEW, counts
    heading = next(number for number, lines in enumerate(pages) if any(line.startswith(f"Points marqués : {auch['name']}")
                                                                       for line in lines))
    assert heading == on[0]
    assert all(any(line.startswith("Place Place dupl. Joueur Points dupl. Points finale Total") for line in pages[number])
               for number in counts)
    ranking = [number for number, lines in enumerate(pages)
               if any(line.startswith("Pl. Évol. Joueur Club Tournois Total") for line in lines)]
    assert len(ranking) >= 5 and ranking == list(range(len(ranking))), ranking



# -- a Tour de France tournament's points, in three columns ---------------------------------------

POINTS_ROW = re.compile(r"^\d+ (.+?) [\d\u202f,]+$")  # « 12 MARTIN Aurélie 1 143 »


def points_columns(data: bytes, players: set[str]) -> list[tuple[int, list[str]]]:
    """Each column of a tournament's points as the PDF prints it, in reading order: its page and its
    players (of `players`), a column starting under its header « Place Joueur Points »."""
    columns: list[tuple[int, list[str]]] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages):
        runs: list[str] = []
        page.extract_text(visitor_text=lambda text, *_: runs.append(text.strip()))
        for text in runs:
            if text == "Place Joueur Points":
                columns.append((number, []))
            elif (found := POINTS_ROW.match(text)) and found[1] in players and columns and columns[-1][0] == number:
                columns[-1][1].append(found[1])
    return [column for column in columns if column[1]]


def few_in_columns(data: bytes, tournament: dict) -> list[str]:
    """What is wrong with a tournament's points as printed: places out of order, or a page holding
    part of them with fewer than FEW rows in a column."""
    players = [row["player"] for row in tournament["rows"]]
    columns = points_columns(data, set(players))
    if [player for _, names in columns for player in names] != players:
        return [f"{tournament['name']}: places out of order or missing"]
    pages = {number for number, _ in columns}
    return [f"{tournament['name']}: {len(names)} rows in a column of page {number + 1} "
            f"{[len(n) for p, n in columns if p == number]}" for number, names in columns
            if len(pages) > 1 and len(names) < FEW]


def test_a_tour_de_france_tournament_s_points_leave_four_rows_a_column_on_each_page(example_scored, tmp_path):
    """A tournament's points in three columns (a Tour de France bulletin's latest tournaments):
    WeasyPrint fills a page's columns to its foot whatever the rows' break rules say. The example's
    bulletin of 7 May 2005 printed its 19 players as 6, 6, 5 then 2 alone at the next page's head,
    10 June's 100 as 30, 30, 30 then 4, 4, 2, 9 July's 42 as 11, 11, 11 then 3, 3, 3; a table started
    lower on a page ended it with 2 rows a column. Now a tournament's points are never split
    across pages, in blocks of at most 45 places (each as even as can be), moved whole to the next page
    when they do not fit. The example's bulletins, printed as the build prints them, and one of
    tournaments of 13 to 140 players one after another (each starting elsewhere on its page): every
    tournament printed over several pages holds four rows at least in each column of each page,
    its places in order."""
    documents = {d.path: d for d in example_scored.reports["tour-de-france"].documents}
    found = []
    for path in ("2005/classement-2005-05-07", "2005/classement-2005-06-10", "2005/classement-2005-07-09"):
        bulletin = documents[path]
        data = pdf.render_pdf(printed(bulletin), bulletin.date)
        found += [f"{path} {said}" for tournament in bulletin.context["latest"] for said in few_in_columns(data, tournament)]
    model = documents["2005/classement-2005-06-10"]
    shape = model.context["latest"][0]
    latest = [{**shape, "name": f"Tournoi {count}", "rows": [
        {"place": place, "player": f"ESSAI{count}X{place:03d} Joueur", "points": str(2000 - place)}
        for place in range(1, count + 1)]} for count in (13, 19, 42, 100, 27, 60, 140, 33, 75, 16, 48, 90, 23)]
    long = dataclasses.replace(model, context={**model.context, "latest": latest})
    data = pdf.render_pdf(printed(long), long.date)
    found += [said for tournament in latest for said in few_in_columns(data, tournament)]
    assert found == []
    # the tournaments run over pages: over several of them, one of 140 players among them
    assert len({number for number, _ in points_columns(data, {row["player"] for row in latest[6]["rows"]})}) >= 2

# -- a round's pools, two by two ------------------------------------------------------------------

def pool_headings(data: bytes, folder: Path) -> list[tuple[int, str, float, float]]:
    """Each « Poule X » heading of a cross table as printed: its page, its letter, where it starts
    (left, top, in points)."""
    path = folder / "round.pdf"
    path.write_bytes(data)
    boxes = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True,
                           timeout=60).stdout
    found, page = [], -1
    words = re.findall(r'<page |<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', boxes)
    for (left, top, text), following in zip(words, [*words[1:], ("", "", "")]):
        if not text:  # a page's start
            page += 1
        elif text == "Poule" and re.fullmatch(r"[A-Z]", following[2]) and float(following[1]) == float(top):
            found.append((page, following[2], float(left), float(top)))
    return found


def status_headers(data: bytes, folder: Path) -> tuple[float, list[float]]:
    """The pages' width and where each cross table's last header, « Statut », starts on its page."""
    path = folder / "round.pdf"
    path.write_bytes(data)
    boxes = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True,
                           text=True, check=True, timeout=60).stdout
    width = float(re.search(r'<page width="([\d.]+)"', boxes)[1])
    return width, [float(left) for left in re.findall(r'<word xMin="([\d.]+)"[^>]*>Statut</word>', boxes)]


def test_a_round_s_pools_are_printed_two_by_two_in_reading_order(example_scored, tmp_path):
    """A round's cross tables, two side by side: A and B on one line, C and D on the next, each pool
    whole with all its players. They were set in CSS columns (A and B in the left one), which
    WeasyPrint balanced by laying the pools out again and again: this round's PDF cost four times a
    bulletin of its size. The next round's pools, listed under « Poules du tour 2 », are not cross
    tables (`[:4]`)."""
    bulletin = document(example_scored, "poules", "2026/2026-09-05-open-automne/tour-1")
    data = pdf.render_pdf(printed(bulletin), bulletin.date)
    headings = pool_headings(data, tmp_path)[:4]
    assert [letter for _, letter, _, _ in headings] == ["A", "B", "C", "D"]
    (page_a, _, left_a, top_a), (page_b, _, left_b, top_b), (page_c, _, left_c, top_c), (_, _, left_d, top_d) = headings
    assert page_a == page_b == page_c == 0
    assert top_a == top_b < top_c == top_d and left_a == left_c < left_b == left_d
    text = "\n".join(page_texts(data, tmp_path))
    assert all(row["player"] in text for pool in bulletin.context["pools"] for row in pool["rows"])
    # a pool alone on its row (the final's) keeps half of it, as each of two does: stretched to the
    # whole row, its cross table was twice as wide as the others
    final = document(example_scored, "poules", "2026/2026-09-05-open-automne/tour-3")
    assert len(final.context["pools"]) == 1
    width, lefts = status_headers(data, tmp_path)
    assert len(lefts) == 4 and max(lefts) > width / 2 > min(lefts)  # two columns
    assert status_headers(pdf.render_pdf(printed(final), final.date), tmp_path)[1] == [min(lefts)]


# -- a table's header ------------------------------------------------------------------------------

def header_font_sizes(document: Document, table_class: str) -> dict[str, float]:
    """The font size WeasyPrint lays each header cell of the first `table_class` table out in."""
    import weasyprint

    pdf.use_project_fonts(pdf.TEMPLATES / "fonts")
    laid = weasyprint.HTML(string=printed(document), base_url=str(pdf.TEMPLATES) + "/",
                           url_fetcher=pdf._fetcher_class()(pdf.TEMPLATES)).render()
    sizes: dict[str, float] = {}

    def walk(box, inside: bool) -> None:
        inside = inside or table_class in (box.element.get("class", "").split() if box.element is not None
                                           and box.element_tag == "table" else [])
        if inside and box.element_tag == "th" and type(box).__name__ == "TableCellBox":
            text = "".join(child.text for child in box.descendants() if hasattr(child, "text"))
            sizes.setdefault(text.strip(), box.style["font_size"])
        for child in getattr(box, "children", []):
            walk(child, inside)

    for page in laid.pages:
        walk(page._page_box, False)
    return sizes


def test_a_pool_table_s_headers_are_all_one_size(example_scored):
    """The status column's smaller text is its cells', not its header's (« Statut » was set smaller
    than « Moy. » beside it)."""
    sizes = header_font_sizes(document(example_scored, "poules", "2026/2026-09-05-open-automne/tour-3"), "pool-table")
    assert {"Moy.", "Statut"} <= sizes.keys()
    assert len(set(sizes.values())) == 1, sizes
