"""The charts (issue 24): the top ten's places over a season's dated rankings (site/figures.py, drawn
by site/chart.py) are the rankings' places, drawn the same bytes every time, with every name
escaped, the table beside them giving the same numbers; the season page and the bulletin of the
same ranking carry the same SVG; a season page with its chart is a good page in Chromium; on a
phone (320 to 390 px) a season's places are drawn to its width, the place scale, the latest dates and
the names whole, a laptop's as before."""

import datetime as dt
import re
from pathlib import Path

import pytest
from defusedxml import ElementTree
from hypothesis import given
from hypothesis import strategies as st

from reportgen.site import chart, figures
from tests.browser import check_page

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & Cie'


def record(date, rows, kind="season", status="provisional", season=2026):
    """A ranking as site.json keeps it; `rows`: (player id, place) in place order."""
    return {"path": f"{season}/classement-{date}", "kind": kind, "season": season, "date": date, "status": status,
            "rows": [{"id": pid, "player": f"Joueur {pid}" if pid != "h" else HOSTILE, "rank": place,
                      "tied": False, "club": "", "values": {}} for pid, place in rows]}


RECORDS = [
    record("2026-01-10", [("a", 1), ("b", 2), ("c", 3)]),
    record("2026-02-07", [("b", 1), ("a", 2), ("h", 3), ("c", 25)]),
    record("2026-03-14", [("h", 1), ("a", 2), ("c", 3), ("b", 4)]),
    record("2025-12-06", [("c", 1)], season=2025),  # another season: not drawn
    record("2026-03-14", [("a", 1)], kind="event"),  # a tournament: not drawn
]


def center(element) -> float:
    """The y of a marker: its shapes are centred on their point (a polygon by its bounding box)."""
    tag = element.tag.removeprefix(SVG)
    if tag == "circle":
        return float(element.get("cy"))
    if tag == "rect":
        return float(element.get("y")) + float(element.get("height")) / 2
    ys = [float(point.split(",")[1]) for point in element.get("points").split()]
    return (min(ys) + max(ys)) / 2


def drawn(svg: str) -> dict[str, list[float]]:
    """Each player's markers (the group titled with his name), as the y of each."""
    root = ElementTree.fromstring(svg)
    return {group.find(f"{SVG}title").text: [center(shape) for shape in group if shape.tag != f"{SVG}title"]
            for group in root.iter(f"{SVG}g")}


def test_the_bump_chart_draws_the_places_of_each_dated_ranking_of_the_season():
    figure = figures.bump(RECORDS, RECORDS[2])
    markers = drawn(figure["svg"])
    # the current order; a place below the 20th on the bottom row; absent: no marker
    assert markers == {HOSTILE: [chart.bump_y(3), chart.bump_y(1)],
                       "Joueur a": [chart.bump_y(1), chart.bump_y(2), chart.bump_y(2)],
                       "Joueur c": [chart.bump_y(3), chart.bump_y(21), chart.bump_y(3)],
                       "Joueur b": [chart.bump_y(2), chart.bump_y(1), chart.bump_y(4)]}
    assert chart.bump_y(1) < chart.bump_y(2) < chart.bump_y(20) < chart.bump_y(25) == chart.bump_y(21)
    labels = [text.text for text in ElementTree.fromstring(figure["svg"]).iter(f"{SVG}text")]
    assert ["10/01", "07/02", "14/03"] == [label for label in labels if re.fullmatch(r"\d\d/\d\d", label)]
    # the hostile name is too long for the labels' room: cut, and whole in its markers' title
    assert f"1. {HOSTILE}"[:12] + "…" in [label[:12] + label[-1] for label in labels]
    assert "4. Joueur b" in labels and "> 20" in labels


def written_dates(svg: str) -> list[tuple[float, float, str]]:
    """The dates under a bump chart (its only centred texts): each one's left and right edges, as
    Inter at its font size measures it, and its text."""
    found = []
    for element in ElementTree.fromstring(svg).iter(f"{SVG}text"):
        if element.get("text-anchor") == "middle":
            x, half = float(element.get("x")), chart._inter(round(float(element.get("font-size")) * 10)).getlength(element.text) / 20
            found.append((x - half, x + half, element.text))
    return found


def test_the_last_date_is_written_and_the_one_before_it_dropped_when_the_two_would_meet():
    # the reviewer's « 15/1106/12 » (Grand Sud 2025) and « 10/0917/09 » (Tour de France 2005)
    grand_sud = ["25/01", "15/02", "08/03", "29/03", "19/04", "31/05", "14/06", "20/09", "11/10", "25/10", "15/11", "06/12"]
    tour = ["19/03", "09/04", "23/04", "07/05", "14/05", "21/05", "10/06", "25/06", "02/07", "09/07", "10/09", "17/09"]
    for days, shown in ((grand_sud, ["25/01", "08/03", "19/04", "14/06", "11/10", "06/12"]),
                        (tour, ["19/03", "23/04", "14/05", "10/06", "02/07", "17/09"])):
        assert [day for _, _, day in written_dates(chart.bump_svg(days, [("A", [1] * len(days))], "x"))] == shown


@given(st.lists(st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)), min_size=1, max_size=150, unique=True))
def test_the_dates_written_under_a_bump_chart_never_overlap(dates):
    """Any number of dated rankings, whatever their days: the dates written keep a blank between
    them and stay inside the chart, and the last (the ranking drawn) is always written."""
    days = [f"{date:%d/%m}" for date in sorted(dates)]
    svg = chart.bump_svg(days, [("A", [1] * len(days))], "x")
    written = written_dates(svg)
    assert written[-1][2] == days[-1]
    assert written[0][0] >= 0 and written[-1][1] <= float(ElementTree.fromstring(svg).get("width"))
    for (_, right, _), (left, _, _) in zip(written, written[1:]):
        assert left - right >= chart.DAY_GAP - 0.01  # the x written to 6 digits


def test_the_table_beside_the_chart_gives_the_same_places():
    figure = figures.bump(RECORDS, RECORDS[2])
    assert figure["table"]["columns"] == ["10/01", "07/02", "14/03"]
    assert [(row["head"], row["cells"]) for row in figure["table"]["rows"]] == [
        (HOSTILE, ["—", "3", "1"]), ("Joueur a", ["1", "2", "2"]), ("Joueur c", ["3", "25", "3"]),
        ("Joueur b", ["2", "1", "4"])]
    # the table's numbers are the markers' places
    for row in figure["table"]["rows"]:
        assert drawn(figure["svg"])[row["head"]] == [chart.bump_y(int(cell)) for cell in row["cells"] if cell != "—"]


def test_the_chart_is_the_same_bytes_every_time_and_escapes_every_name():
    first = figures.bump(RECORDS, RECORDS[2])["svg"]
    assert first == figures.bump([dict(r) for r in RECORDS], RECORDS[2])["svg"]
    assert "<script>" not in first and "&lt;script&gt;" in first
    assert ElementTree.fromstring(first).get("aria-label").startswith("Place des 4 premiers du classement")
    # the site shows a player by his initials or not at all: its own names, the same drawing
    hidden = figures.bump(RECORDS, RECORDS[2], lambda row: "joueur non publié" if row["id"] == "h" else row["player"])
    assert HOSTILE not in hidden["svg"].replace("&lt;", "<") and "joueur non publié" in hidden["svg"]


def test_a_name_too_long_for_the_chart_is_cut_with_an_ellipsis_and_kept_whole_in_its_title():
    long = "DE LA FONTAINE-MARTIN Jean-Christophe"
    records = [{**r, "rows": [{**row, "player": long} if row["id"] == "a" else row for row in r["rows"]]}
               for r in RECORDS]
    svg = figures.bump(records, records[2])["svg"]
    labels = [element.text for element in ElementTree.fromstring(svg).iter(f"{SVG}text")
              if element.text and element.text[0].isdigit() and ". " in element.text]
    cut = next(label for label in labels if label.startswith("2. "))
    assert cut.endswith("…") and long.startswith(cut.removeprefix("2. ").removesuffix("…"))
    assert chart._inter(120).getlength(cut) <= chart.NAME_ROOM * 10  # within the chart's right edge
    assert long in drawn(svg)  # whole on hover
    # a name that fits is drawn as it is
    assert chart.fitted("1. LAMBERT Anne-Sophie", chart.NAME_ROOM) == "1. LAMBERT Anne-Sophie"


def test_no_chart_for_a_single_dated_ranking_or_a_tournament():
    assert figures.bump(RECORDS, RECORDS[0]) is None  # the first of its season
    assert figures.bump(RECORDS, RECORDS[3]) is None
    assert figures.bump(RECORDS, RECORDS[4]) is None


def test_the_final_ranking_of_a_date_stands_for_that_date():
    final = record("2026-02-07", [("a", 1), ("b", 2)], status="final")
    final["path"] = "2026/classement-provisoire-2026"  # the season runs: a dated ranking comes after it
    later = record("2026-03-14", [("a", 1), ("b", 2)])
    figure = figures.bump([RECORDS[0], RECORDS[1], final, later], later)
    assert [row["cells"] for row in figure["table"]["rows"]] == [["1", "1", "1"], ["2", "2", "2"]]
    assert figures.bump([RECORDS[0], RECORDS[1], final], RECORDS[1])["table"]["rows"][0]["cells"] == ["2", "1"]


def test_a_rating_history_draws_higher_ratings_higher():
    figure = figures.values([("2026-03-14", 1500.0, "1 500"), ("2026-10-10", 1512.5, "1 512,5")],
                            "Classement Elo de X", "Classement Elo")
    root = ElementTree.fromstring(figure["svg"])
    first, second = (float(c.get("cy")) for c in root.iter(f"{SVG}circle"))
    assert second < first
    assert [row["cells"] for row in figure["table"]["rows"]] == [["1 500"], ["1 512,5"]]
    assert figures.values([("2026-03-14", 1500.0, "1 500")], "x", "y") is None
    assert figures.number("1\u202f512,5") == 1512.5 and figures.number("−4") == -4 and figures.number("") is None


def svgs(page: str) -> list[str]:
    return re.findall(r"<svg .*?</svg>", page, re.S)


@pytest.fixture(scope="module")
def charted(tmp_path_factory):
    """The small league with a third dated Grand Sud ranking in 2026 (its 2026-02-07 tournament is
    outside the circuit): its bulletin and its season page have a chart, with the hostile name."""
    from reportgen.pipeline import build
    from tests.builders import TODAY, small_league, write_tournament

    root = tmp_path_factory.mktemp("charted")
    inputs = small_league(root / "inputs")
    write_tournament(inputs, "2026-03-14-albi", day="14/03/2026", club="ALBI", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "<script>alert(1)</script>", "Mallory", "", "Toulouse"],
        [3, "MARTIN", "Paul", "1002", "Albi"]])
    assert build(inputs, root / "outputs", TODAY).ok
    return root / "outputs"


def test_the_season_page_and_its_bulletin_carry_the_same_chart(charted):
    outputs = charted
    season = (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    bulletin = (outputs / "grand-sud" / "2026" / "classement-2026-03-14.html").read_text(encoding="utf-8")
    assert len(svgs(season)) == 2 and svgs(season) == svgs(bulletin)  # a laptop's and a phone's (`narrow`)
    for svg in svgs(season):
        assert "&lt;script&gt;" in svg.lower() and "<script>alert" not in svg
    assert not svgs((outputs / "grand-sud" / "2026" / "classement-2026-01-10.html").read_text(encoding="utf-8"))
    # the table of the same places beside it
    assert season.count('<table class="chart-data">') == 1 and "<summary>Les données du graphique</summary>" in season


@pytest.mark.parametrize("page", ["site/grand-sud-2026.html", "grand-sud/2026/classement-2026-03-14.html"])
def test_a_page_with_a_chart_is_a_good_web_page(page, browser, charted):  # noqa: F811
    outputs = charted
    seen = check_page(browser, outputs / page, outputs)  # no console error, axe clean, no sideways scroll
    assert seen[390].scroll_width <= 390
    # the chart drawn (a phone's) no smaller than its own size (its labels readable), in a region on screen
    shown = browser.pages[390].evaluate("""() => { const svg = Array.from(document.querySelectorAll('svg.chart')).find(s => s.getClientRects().length);
      return [svg.getBoundingClientRect().width, svg.width.baseVal.value, svg.closest('.scroll').getBoundingClientRect().right]; }""")
    assert shown[0] >= shown[1] > 0 and shown[2] <= 390


# Each chart of a figure as drawn (not one a phone or a laptop hides): its name, its smallest label (its
# font size times the chart's scale on screen), its width, and the scrolling region it is in (its role,
# name, tab stop, whether it scrolls).
CHARTS = r"""() => Array.from(document.querySelectorAll('figure.figure svg.chart')).filter(svg => svg.getClientRects().length)
  .map(svg => {
  const region = svg.closest('.scroll');
  const sizes = Array.from(svg.querySelectorAll('text'), t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {name: svg.getAttribute('aria-label'), smallest: Math.min(...sizes), width: svg.getBoundingClientRect().width,
          region: region.className, role: region.getAttribute('role'), label: region.getAttribute('aria-label'),
          tabindex: region.getAttribute('tabindex'), scrolls: region.scrollWidth > region.clientWidth};
})"""
# A season's bump chart on the site and in its bulletin, a tournament's scale (the widest chart,
# its labels the smallest: 10 units).
CHART_PAGES = ["site/grand-sud-2026.html", "grand-sud/2026/classement-2026-11-14.html", "site/tour-de-france-2005.html"]


@pytest.mark.parametrize("page", CHART_PAGES)
def test_a_chart_s_labels_read_on_a_small_phone(page, browser, example_site):  # noqa: F811
    """Shrunk to a 320 px screen, a chart's labels were drawn at 5 to 6 px: a phone shows each chart
    drawn to its width (a season's places, a tournament's scale: `narrow`), its labels 10 px or more,
    in its own region, which scrolls nothing, nor the page (a tournament's scale, 580 units, scrolled
    sideways there: test_a_tour_de_france_scale_fits_a_phone_every_label_whole)."""
    found = browser.look(example_site / page, example_site, 320, audit=False)
    tab = browser.pages[320]
    assert found.scroll_width <= 320
    charts = tab.evaluate(CHARTS)
    assert charts
    for shown in charts:
        assert shown["smallest"] >= 9.5, shown
        # a Tab stop on the site only while it scrolls (site.js); a bulletin, without a script, keeps it
        stop = "0" if not page.startswith("site/") else None
        assert (shown["region"], shown["role"], shown["tabindex"]) == ("scroll", "region", stop) and shown["label"]
        assert not shown["scrolls"], shown


# Each chart a reader sees (the one drawn, of a figure's), its texts as drawn: each text, its anchor,
# its size on screen, and whether it lies whole in its region's box on screen (« in »), wholly outside
# it (« out »: scrolled away) or across its edge (« cut »: « 0/06 » for « 10/06 »).
SEEN_CHARTS = r"""() => Array.from(document.querySelectorAll('figure.figure svg.chart')).filter(svg => svg.getClientRects().length)
  .map(svg => {
    const box = svg.closest('.scroll').getBoundingClientRect();
    const left = Math.max(box.left, 0), right = Math.min(box.right, document.documentElement.clientWidth);
    return {label: svg.getAttribute('aria-label'), texts: Array.from(svg.querySelectorAll('text'), t => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, anchor: t.getAttribute('text-anchor'), size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
              at: r.right <= left + 0.5 || r.left >= right - 0.5 ? 'out' : r.left >= left - 0.5 && r.right <= right + 0.5 ? 'in' : 'cut'};
    })};
  })"""
# A season's places (the Grand Sud's, the Tour de France's nineteen dates, the Tantrix ratings' two), on
# its season page and in its bulletin.
SEASON_CHARTS = {"site/grand-sud-2026.html": "14/11", "grand-sud/2026/classement-2026-11-14.html": "14/11",
                 "site/tour-de-france-2005.html": "03/12", "tour-de-france/2005/classement-final-2005.html": "03/12",
                 "site/tantrix-2026.html": "10/10", "tantrix/2026/classement-elo-2026-10-10.html": "10/10"}


@pytest.mark.parametrize("width", [390, 375, 320])
@pytest.mark.parametrize("page", SEASON_CHARTS)
def test_a_season_s_places_chart_shows_its_scale_names_and_dates_whole_on_a_phone(page, width, browser, example_site):  # noqa: F811
    """It opened scrolled to its end, its names in view (its legend), the place scale out of view and a
    date cut at the box's edge (« 0/06 » for « 10/06 » in the Tour de France's), the Tantrix's first
    date out of view: a phone draws it to its width, every text whole, the scale, the names and the
    latest date among them, its labels 10 px or more; the page never wider than the phone."""
    found = browser.look(example_site / page, example_site, width, audit=False)
    assert found.scroll_width <= width
    charts = browser.pages[width].evaluate(SEEN_CHARTS)
    places = [chart for chart in charts if chart["label"].startswith("Place des ")]
    assert len(places) == 1, charts
    texts = places[0]["texts"]
    assert [t for t in texts if t["at"] != "in"] == [], (page, width)
    scale = [t["text"] for t in texts if t["anchor"] == "end"]
    names = [t["text"] for t in texts if re.match(r"\d+\. ", t["text"])]
    days = [t["text"] for t in texts if re.fullmatch(r"\d\d/\d\d", t["text"])]
    assert scale[:3] == ["1", "5", "10"] or scale == ["1", "5", "8"], scale
    assert len(names) == (8 if "tantrix" in page else 10) and days[-1] == SEASON_CHARTS[page], (names, days)
    if "tantrix" in page:
        assert days == ["14/03", "10/10"]
    assert min(t["size"] for t in texts) >= 10, texts
    for seen in charts:  # a tournament's scale beside it: its axis in view, no text cut
        assert all(t["at"] == "in" for t in seen["texts"] if t["anchor"] == "end"), seen
        assert not [t for t in seen["texts"] if t["at"] == "cut"], seen


@pytest.mark.parametrize("page", CHART_PAGES)
def test_a_laptop_draws_a_chart_across_its_box_as_before(page, browser, example_site):  # noqa: F811
    """The phone's floor changes nothing wider: the chart fills its box up to 640 px, unscrolled, every
    text whole (a season's places: its scale, dates and names), on the left of its box."""
    browser.look(example_site / page, example_site, 1280, audit=False)
    tab = browser.pages[1280]
    for shown in tab.evaluate(CHARTS):
        assert shown["width"] == 640 and not shown["scrolls"], shown
    for seen in tab.evaluate(SEEN_CHARTS):
        assert all(t["at"] == "in" for t in seen["texts"]), seen
    assert tab.evaluate("""Array.from(document.querySelectorAll('figure.figure svg.chart')).filter(svg => svg.getClientRects().length)
      .every(svg => svg.getBoundingClientRect().left === svg.closest('.scroll').getBoundingClientRect().left)""")


def test_the_scale_chart_draws_each_place_s_points():
    figure = figures.scale([100, 80, 64, 30, 0], "Tournoi <b>")
    root = ElementTree.fromstring(figure["svg"])
    line = next(root.iter(f"{SVG}polyline")).get("points").split()
    heights = [chart.SCALE_WIDE.height - float(point.split(",")[1]) for point in line]
    assert heights == [chart.SCALE_WIDE.height * value / 100 for value in (100, 80, 64, 30, 0)]
    assert [t.text for t in root.iter(f"{SVG}text")] == ["100", "0", "1er", "4e", "5e"]
    assert root.get("aria-label") == "Points selon la place\u00a0: Tournoi <b>"  # escaped in the bytes, whole once read
    assert [(row["head"], row["cells"]) for row in figure["table"]["rows"]][:2] == [("1er", ["100"]), ("2e", ["80"])]


def test_the_tour_de_france_season_page_draws_the_charts_of_its_bulletins(example_site):
    season = (example_site / "site" / "tour-de-france-2005.html").read_text(encoding="utf-8")
    folder = example_site / "tour-de-france" / "2005"
    final = (folder / "classement-final-2005.html").read_text(encoding="utf-8")
    latest = (folder / "classement-2005-12-03.html").read_text(encoding="utf-8")  # its latest tournament's scale
    # a season's places, a tournament's scale: each for a laptop and for a phone
    bump_chart, narrow_chart, scale_chart, narrow_scale = svgs(season)
    assert bump_chart in svgs(final) and narrow_chart in svgs(final)
    assert "Points selon la place\u00a0: DipLyon III" in scale_chart
    assert scale_chart in svgs(latest) and narrow_scale in svgs(latest)  # the same bytes


@pytest.mark.parametrize("count", [1, 2, 5, 12, 40, 140])
def test_a_phone_s_scale_chart_keeps_every_label_whole_inside_it(count):
    """A phone's scale is 296 units, as a rating's: each label, measured in Inter as the chart measures
    it, lies inside its viewBox; the places written under it never meet (« 4e » left out where it
    would touch « 1er » or the last); the wide one, a laptop's and the PDF's, is as it was."""
    from reportgen.site.chart import LABEL_SIZE, SCALE_GAP, SCALE_NARROW_WIDTH, label_width

    values = [1000 * 0.97 ** place for place in range(count)]
    figure = figures.scale(values, "Championnat")
    root = ElementTree.fromstring(figure["narrow"]["svg"])
    left, _, width, _ = map(float, root.get("viewBox").split())
    assert width == SCALE_NARROW_WIDTH and root.get("width") == "296"
    spans = []
    for label in root.iter(f"{SVG}text"):
        size, x = label_width(label.text, LABEL_SIZE), float(label.get("x"))
        start = {"end": x - size, "middle": x - size / 2}[label.get("text-anchor")]
        assert left <= start and start + size <= left + width, (label.text, start, start + size)
        if label.get("text-anchor") == "middle":
            spans.append((start, start + size))
    assert all(after[0] - before[1] >= SCALE_GAP for before, after in zip(spans, spans[1:])), spans
    wide = ElementTree.fromstring(figure["svg"])
    assert wide.get("viewBox") == "-40 -12 580 204" and wide.get("width") == "580"


def test_a_tantrix_player_page_draws_his_rating_history_beside_its_table(example_site):
    import json

    lists = [r for r in json.loads((example_site / "tantrix" / "site.json").read_text(encoding="utf-8"))["rankings"]
             if r["kind"] == "ratings"]
    row = lists[-1]["rows"][0]
    ratings = [next(r["values"]["rating"] for r in found["rows"] if r["id"] == row["id"]) for found in lists]
    pages = [p.read_text(encoding="utf-8") for p in (example_site / "site").glob("joueur-*.html")]
    page = next(p for p in pages if f"Classement Elo de {row['player']}" in p)
    chart_svg = next(s for s in svgs(page) if "Classement Elo de" in s)
    assert len(list(ElementTree.fromstring(chart_svg).iter(f"{SVG}circle"))) == len(lists) >= 2
    table = page[page.index("Classement Elo de"):]
    assert all(f"<td>{rating}</td>" in table for rating in ratings)


def test_archiving_a_season_keeps_its_bulletin_with_its_chart(charted, tmp_path):
    """`archive` renders the season's latest bulletin again (delivery/published.py) and requires the
    bytes outputs/ holds: with the same chart."""
    from tests.test_delivery_mail import cli

    archive = tmp_path / "archive"
    done = cli("archive", "--inputs", str(charted.parent / "inputs"), "--outputs", str(charted),
               "--archive", str(archive), "--season", "2026")
    assert done.returncode == 0, done.stdout + done.stderr
    kept = archive / "2026" / "v1" / "outputs" / "grand-sud" / "2026" / "classement-2026-03-14.html"
    assert svgs(kept.read_text(encoding="utf-8")) and kept.read_bytes() == (
        charted / "grand-sud" / "2026" / "classement-2026-03-14.html").read_bytes()


def test_each_bulletin_gets_from_charted_the_chart_bump_draws_for_it_alone():
    """`charted` makes each ranking's places once for all the bulletins of its season: the same
    charts as `bump` for each bulletin alone."""
    from reportgen.model import Document

    documents = [Document(r["path"], "t.html.j2", "t", dt.date.fromisoformat(r["date"]), {}) for r in RECORDS[:3]]
    found = figures.charted(documents, RECORDS[:4])
    assert [d.context.get("bump") for d in found] == [None, figures.bump(RECORDS[:4], RECORDS[1]),
                                                     figures.bump(RECORDS[:4], RECORDS[2])]
    assert found[2].context["bump"]["table"]["rows"][0]["cells"] == ["—", "3", "1"]  # h: absent on 10 January


def test_the_bulletins_charts_from_chart_records_are_those_of_the_site_s_records(example_scored):
    """`data.chart_records` (what the build gives `charted`): for every circuit of the example league,
    the same charts, to the byte, as the site's whole records (`ranking_record`) give."""
    from reportgen.site import data

    drawn = 0
    for report in example_scored.reports.values():
        titles = {document.path: document.title for document in report.documents}
        whole = [data.ranking_record(ranking, titles) for ranking in report.rankings]
        found = figures.charted(report.documents, data.chart_records(report))
        assert found == figures.charted(report.documents, whole)
        drawn += sum(bool(document.context.get("bump")) for document in found)
    assert drawn > 10


def test_a_rating_chart_s_labels_stay_whole_inside_it():
    """A rating's labels, measured in Inter as the chart measures them, lie inside its viewBox: its
    last date, centred under its point, crossed the right edge on a 320 px phone (site.css never
    shrinks the chart), and a rating of four figures the left one. The chart fits that phone's page
    (296 px between its margins), where it scrolled."""
    from reportgen.site.chart import LABEL_SIZE, LINE_WIDTH, label_width

    assert LINE_WIDTH <= 320 - 2 * 12
    for points in ([("14/03", 1548.9, "1 548,9"), ("10/10", 2000.2, "2\u202f000,2")],
                   [("01/01/2026", -12.5, "−12,5"), ("31/12/2026", 10000.0, "10\u202f000,0")]):
        root = ElementTree.fromstring(chart.values_svg(points, "Classement Elo de X"))
        width = float(root.get("viewBox").split()[2])
        assert width == LINE_WIDTH
        for label in root.iter(f"{SVG}text"):
            size, x = label_width(label.text, LABEL_SIZE), float(label.get("x"))
            start = {"end": x - size, "middle": x - size / 2}[label.get("text-anchor")]
            assert 0 <= start and start + size <= width, (label.text, start, start + size)


# A tournament's scale as drawn (the one shown, of its two): each text, its size on screen and whether it
# lies whole in the window, and whether its region (on the site) scrolls.
SCALES = r"""() => Array.from(document.querySelectorAll('svg.chart')).filter(svg => svg.getClientRects().length
    && svg.getAttribute('aria-label').startsWith('Points selon la place'))
  .map(svg => {
    const region = svg.closest('.scroll'), right = document.documentElement.clientWidth;
    return {scrolls: region ? region.scrollWidth > region.clientWidth : false, width: svg.getBoundingClientRect().width,
            texts: Array.from(svg.querySelectorAll('text'), t => {
              const r = t.getBoundingClientRect();
              return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                      whole: r.left >= -0.5 && r.right <= right + 0.5};
            })};
  })"""


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("page", ["site/tour-de-france-2005.html", "tour-de-france/2005/classement-2005-12-03.html"])
def test_a_tour_de_france_scale_fits_a_phone_every_label_whole(page, width, browser, example_site):  # noqa: F811
    """A tournament's scale, 580 units, scrolled sideways on a 390 px phone's season page (the site
    never shrinks a chart there), and its bulletin shrank it, its labels 6 px. A phone shows it drawn
    to its width (296 units, as a rating's): nothing scrolls, every label whole and 10 px or more, the
    first place's points and the places under it; a laptop the wide one, as before. axe clean."""
    found = browser.look(example_site / page, example_site, width, audit=False)
    assert found.scroll_width <= width
    scales = browser.pages[width].evaluate(SCALES)
    assert scales, page
    for scale in scales:
        assert not scale["scrolls"] and scale["width"] <= width, scale
        assert all(t["whole"] and t["size"] >= 10 for t in scale["texts"]), scale
        assert [t["text"] for t in scale["texts"]][2] == "1er", scale
    browser.look(example_site / page, example_site, 1280, audit=False)
    assert browser.pages[1280].evaluate("""Array.from(document.querySelectorAll('svg.chart')).filter(svg => svg.getClientRects().length
      && svg.getAttribute('aria-label').startsWith('Points selon la place')).map(svg => svg.getAttribute('width'))""") == ["580"]
    seen = browser.look(example_site / page, example_site, width, f"tour-de-france-scale-{Path(page).stem}")
    assert not seen.violations and not seen.console, seen
