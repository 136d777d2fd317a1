"""Issue 27's decisions on pages: one document per ranking (a season's final bulletin once it is
over or closed), a PDF bulletin prints at most `bulletin_rows` rows, a first `make` says what it
installs. (A played Masters is frozen: tests/test_republished.py.)"""

import csv
import datetime as dt
import hashlib
import html
import io
import json
import re
import shutil
from pathlib import Path

import openpyxl
from pypdf import PdfReader

from reportgen.circuits import common
from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml
from reportgen.model import Messages
from reportgen.pipeline import build, load, score
from reportgen.render import html as render
from reportgen.render import pdf
from tests.builders import TODAY, write_tournament
from tests.conftest import EXAMPLE_INPUTS

ROOT = Path(__file__).resolve().parents[1]


def built_with(league, said: list[str]):
    result = build(league.inputs, league.outputs, TODAY, progress=Messages(said.append))
    assert result.ok, result.problems
    return result


def test_a_new_tournament_renders_one_pdf_and_the_running_season_has_no_final_bulletin(small_league_copy):
    write_tournament(small_league_copy.inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI")
    said: list[str] = []
    built_with(small_league_copy, said)
    assert "1 PDF à produire" in said  # the new dated bulletin, nothing else
    season = small_league_copy.outputs / "grand-sud" / "2026"
    assert sorted(p.name for p in season.iterdir()) == [
        "annexe-grand-sud-2026.xlsx", "classement-2026-01-10.csv", "classement-2026-01-10.html",
        "classement-2026-01-10.pdf", "classement-2026-03-01.csv", "classement-2026-03-01.html",
        "classement-2026-03-01.pdf", "classement-provisoire-2026.csv"]  # the final ranking « à date »: a CSV


def test_a_closed_season_gets_its_final_bulletin(small_league_copy):
    (small_league_copy.inputs / SEASONS_FILE).write_bytes(seasons_toml({2026: dt.date(2026, 11, 20)}))
    said: list[str] = []
    built_with(small_league_copy, said)
    assert "1 PDF à produire" in said  # the final bulletin
    page = (small_league_copy.outputs / "grand-sud" / "2026" / "classement-final-2026.html").read_text()
    assert "Classement final de la saison 2026" in page
    assert (small_league_copy.outputs / "grand-sud" / "2026" / "classement-final-2026.pdf").is_file()


def season_files(outputs: Path, season: int) -> list[str]:
    """The Grand Sud's files of a season, its public copies' too, relative to the circuit's folder."""
    circuit = outputs / "grand-sud"
    return sorted(path.relative_to(circuit).as_posix() for folder in (circuit / str(season),
                  circuit / "public" / str(season)) if folder.is_dir() for path in folder.iterdir())


def test_the_open_season_s_ranking_is_named_provisional_until_the_season_is_over(small_league_copy, monkeypatch):
    """In March a club opening `classement-final-2026.csv` reads it as the final ranking: while the
    season runs, that ranking (the year's tournaments only) is `classement-provisoire-2026`, on disk,
    in its public copy, on the site and in its data; `classement-final-2026` once the season is over
    or closed, and the provisional one removed then."""
    from reportgen.render import pdf as pdf_render
    from tests.builders import write_workbook
    from tests.test_incremental_build import stand_in
    from tests.test_public_copies import HEADER

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    # a player shown by his initials: the rankings have public copies, which the site links
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [HEADER, ["1001", "DUPONT", "Jean", "Carcassonne", "",
                                                                  "initiales"]]})
    built_with(small_league_copy, [])
    files = season_files(outputs, 2026)
    assert "2026/classement-provisoire-2026.csv" in files and "public/2026/classement-provisoire-2026.csv" in files
    assert not [name for name in files if "classement-final" in name]
    assert [name for name in season_files(outputs, 2025) if "classement-final" in name] == [
        "2025/classement-final-2025.csv", "2025/classement-final-2025.html", "2025/classement-final-2025.pdf",
        "public/2025/classement-final-2025.csv", "public/2025/classement-final-2025.html",
        "public/2025/classement-final-2025.pdf"]  # a season over keeps its final name
    season_page = (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    assert 'href="../grand-sud/public/2026/classement-provisoire-2026.csv"' in season_page
    data = (outputs / "grand-sud" / "site.json").read_text(encoding="utf-8")
    assert '"2026/classement-provisoire-2026"' in data and "classement-final-2026" not in data
    # The season closed: the final name, its bulletin, and the provisional files gone, copies too.
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({2026: dt.date(2026, 11, 20)}))
    built_with(small_league_copy, [])
    files = season_files(outputs, 2026)
    assert not [name for name in files if "classement-provisoire" in name]
    assert {f"{folder}2026/classement-final-2026.{kind}" for folder in ("", "public/")
            for kind in ("csv", "html", "pdf")} <= set(files)
    season_page = (outputs / "site" / "grand-sud-2026.html").read_text(encoding="utf-8")
    assert 'href="../grand-sud/public/2026/classement-final-2026.csv"' in season_page
    assert "classement-provisoire" not in season_page
    assert "classement-provisoire" not in (outputs / "grand-sud" / "site.json").read_text(encoding="utf-8")


def test_the_season_s_ranking_takes_its_final_name_when_its_year_is_over(small_league_copy):
    def paths(today: dt.date) -> list[str]:
        report = score(load(small_league_copy.inputs, today), ["grand-sud"]).reports["grand-sud"]
        return [r.path for r in report.rankings if "classement-2" not in r.path]

    assert paths(dt.date(2026, 12, 31)) == ["2025/classement-final-2025", "2026/classement-provisoire-2026"]
    assert paths(dt.date(2027, 1, 1)) == ["2025/classement-final-2025", "2026/classement-final-2026"]


def tour_de_france(tmp_path: Path, settings: str = "") -> Path:
    inputs = tmp_path / "inputs"
    shutil.copytree(EXAMPLE_INPUTS / "tour-de-france", inputs / "tour-de-france")
    if settings:
        (inputs / "reportgen.toml").write_text(settings, encoding="utf-8")
    return inputs


def test_the_tour_de_france_season_bulletin_waits_for_the_season_end(tmp_path):
    inputs = tour_de_france(tmp_path)

    def documents(today: dt.date) -> list[tuple[str, str]]:
        report = score(load(inputs, today), ["tour-de-france"]).reports["tour-de-france"]
        seasonal = [r.path for r in report.rankings if "classement-2005-" not in r.path]  # its CSV, always
        assert seasonal == [f"2005/classement-{'final' if today.year > 2005 else 'provisoire'}-2005"]
        return [(d.path, d.title) for d in report.documents if d.path == seasonal[0]]

    assert documents(dt.date(2005, 12, 20)) == []  # after its last tournament (3 December), before the year's end
    assert documents(dt.date(2006, 1, 2)) == [("2005/classement-final-2005", "Classement final de la saison 2005")]


def test_the_tour_de_france_season_s_ranking_is_named_provisional_until_the_season_is_over(tmp_path, monkeypatch):
    """The Tour de France published its season's ranking as `classement-saison-2005` while the
    season ran and after: named as the Grand Sud's, it is `classement-provisoire-2005` until the
    season is over or closed (its CSV, the site's links and data), then `classement-final-2005`
    with its bulletin, the provisional files gone."""
    from reportgen.render import pdf as pdf_render
    from tests.test_incremental_build import stand_in

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])
    inputs, outputs = tour_de_france(tmp_path), tmp_path / "outputs"
    circuit = outputs / "tour-de-france"

    def built(day: dt.date, name: str, files: list[str]) -> str:
        """Built on `day`: the season's files but its dated bulletins, its site page's links to the
        season's ranking and its data's paths name it `name` alone; the season page returned."""
        assert build(inputs, outputs, day).ok
        assert sorted(p.name for p in (circuit / "2005").iterdir() if not p.name.startswith("classement-2005-")) == \
            ["annexe-tour-de-france-2005.xlsx", *files]
        page = (outputs / "site" / "tour-de-france-2005.html").read_text(encoding="utf-8")
        assert f'href="../tour-de-france/2005/classement-{name}-2005.csv"' in page
        data = (circuit / "site.json").read_text(encoding="utf-8")
        assert f'"2005/classement-{name}-2005"' in data
        for other in {"provisoire", "final", "saison"} - {name}:
            assert f"classement-{other}-2005" not in page + data
        # the annex's first sheet says it as the Grand Sud's does (it said « Classement » either way)
        annex = openpyxl.load_workbook(circuit / "2005" / "annexe-tour-de-france-2005.xlsx", read_only=True)
        assert annex.sheetnames[0] == {"provisoire": "Classement final provisoire", "final": "Classement final"}[name]
        annex.close()
        return page

    page = built(dt.date(2005, 12, 20), "provisoire", ["classement-provisoire-2005.csv"])
    assert "Classement final provisoire de la saison 2005 (tournois de 2005 seulement)" in page
    final = [f"classement-final-2005.{kind}" for kind in ("csv", "html", "pdf")]
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({2005: dt.date(2005, 12, 10)}))  # closed early
    page = built(dt.date(2005, 12, 20), "final", final)
    assert "Classement final de la saison 2005" in page and "provisoire de la saison 2005" not in page
    bulletin = (circuit / "2005" / "classement-final-2005.html").read_text(encoding="utf-8")
    assert '<p class="subtitle">Classement final de la saison 2005</p>' in bulletin
    (inputs / SEASONS_FILE).write_bytes(seasons_toml({}))  # opened again: provisional again
    built(dt.date(2005, 12, 20), "provisoire", ["classement-provisoire-2005.csv"])
    built(dt.date(2006, 1, 2), "final", final)  # its year over


def test_print_top_only_beyond_the_limit():
    assert common.print_top(300, 300, "x.csv") is None
    beyond = common.print_top(4512, 300, "classement-2026-03-14.csv")
    assert beyond is not None and beyond["rows"] == 300
    assert beyond["line"] == ("Ce bulletin imprimé donne les 300 premiers des 4\u202f512 joueurs classés. Le "
                              "classement complet est dans le fichier classement-2026-03-14.csv, sur la page HTML "
                              "de ce bulletin et dans l’annexe Excel de la saison.")


def test_a_tour_de_france_bulletin_prints_its_top_rows(tmp_path):
    inputs = tour_de_france(tmp_path, "[circuits.tour-de-france]\nbulletin_rows = 3\n")
    report = score(load(inputs, TODAY), ["tour-de-france"]).reports["tour-de-france"]
    long = [d for d in report.documents if len(d.context["rows"]) > 3]
    assert long and all(d.context["print_top"]["rows"] == 3 for d in long)
    assert all(d.context["print_top"] is None for d in report.documents if len(d.context["rows"]) <= 3)
    # WeasyPrint is handed the top 3 rows (render/html.py render_print); the page keeps them all.
    document = long[0]
    page = render.render(document)
    printed = render.render_print(document, page.encode("utf-8")).decode("utf-8")
    assert ranking_rows(printed) == 3 and ranking_rows(page) == len(document.context["rows"])
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(
        io.BytesIO(pdf.render_pdf(printed, document.date))).pages))
    assert document.context["print_top"]["line"] in text
    assert all(row["player"] in text for row in document.context["rows"][:3])  # (the others: in the latest tables)


def test_a_grand_sud_pdf_prints_the_top_rows_and_the_html_keeps_them_all(small_league_copy):
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    with open(inputs / "reportgen.toml", "a", encoding="utf-8") as settings:
        settings.write("\n[circuits.grand-sud]\nbulletin_rows = 2\n")
    # A tournament of one player: the bulletin's « latest tournament » section names him alone.
    write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI",
                     results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    built_with(small_league_copy, [])
    season = outputs / "grand-sud" / "2026"
    with open(season / "classement-2026-03-01.csv", encoding="utf-8-sig", newline="") as file:
        # a name that starts like a formula is neutralised in the CSV (a leading apostrophe)
        ranked = [row[1].removeprefix("'") for row in list(csv.reader(file, delimiter=";"))[1:]]
    assert len(ranked) > 2
    page = (season / "classement-2026-03-01.html").read_text(encoding="utf-8")
    ranking = page[page.index('<table class="ranking">'):page.index("</table>")]
    assert all(html.escape(name) in ranking for name in ranked)  # the page: everyone
    line = f"Ce bulletin imprimé donne les 2 premiers des {len(ranked)} joueurs classés."
    assert line in page
    text = re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(season / "classement-2026-03-01.pdf").pages))
    assert line in text and "classement-2026-03-01.csv" in text
    assert all(name in text for name in ranked[:2])
    assert not [name for name in ranked[2:] if name in text and name != "MARTIN Paul"]
    # The PDF was rendered from the top rows only, as its manifest records; the page's hash beside.
    proof = json.loads((outputs / "grand-sud" / "publications.json").read_bytes())["pdfs"]["2026/classement-2026-03-01.pdf"]
    assert proof["page"] == hashlib.sha256(page.encode("utf-8")).hexdigest() != proof["html"]


def ranking_rows(page: str) -> int:
    """The rows of a bulletin's ranking table (its heading's aside)."""
    table = page[page.index('<table class="ranking'):]
    return table[:table.index("</table>")].count("<tr") - 1


def test_a_first_make_says_each_install_step():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("$(STAMP): pyproject.toml"):].split("\n\n")[0].splitlines()[1:]
    steps = [index for index, line in enumerate(recipe) if "pip install" in line or "-m venv" in line]
    assert len(steps) == 3
    for index in steps:
        assert recipe[index - 1].lstrip().startswith('@echo "') and " / " in recipe[index - 1]  # French / English
    dependencies = next(line for line in recipe if "-e '.[test]'" in line)
    assert "--quiet" not in dependencies  # pip shows what it collects and installs
    script = (ROOT / "scripts" / "system-packages.sh").read_text(encoding="utf-8")
    assert script.count('echo "  apt-get') == 2
