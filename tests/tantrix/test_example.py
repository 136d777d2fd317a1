"""The example league's Tantrix events: what they promise, their reviewed standings and rating list
(golden files), an independent reference that reads the workbooks itself, the command line, and
the documents (bulletins, annex) they give."""

from __future__ import annotations

import csv
import datetime as dt
import html as markup
import io
import json
import math
import re
import subprocess
import sys
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from statistics import NormalDist

import openpyxl
import pytest

from reportgen import french
from reportgen.circuits.tantrix.documents import event_bulletin, list_bulletin
from reportgen.circuits.tantrix.points import DEFAULT, VANISHED
from reportgen.circuits.tantrix.scoring import score_events
from reportgen.circuits.tantrix.settings import TantrixSettings
from reportgen.circuits.tantrix.standings import HEAD_TO_HEAD, WINS
from reportgen.render import excel, html
from reportgen.render.ranking import to_json
from tests import golden

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "league"
WEEKEND, CUP = "Week-end Tantrix de printemps", "Coupe Tantrix d'automne"
REPORTGEN = str(Path(sys.executable).parent / "reportgen")


@pytest.fixture(scope="module")
def scored(example_league):
    found = example_league.circuits["tantrix"]
    return score_events(found.results, found.events, TantrixSettings())


@pytest.fixture(scope="module")
def report(example_scored):
    return example_scored.reports["tantrix"]


def event(scored, name):
    return next(result for result in scored.events if result.event.name == name)


def test_the_example_events_show_everything_the_circuit_handles(scored):
    weekend, cup = event(scored, WEEKEND), event(scored, CUP)
    assert weekend.event.content.kind == "toutes-rondes" and cup.event.content.kind == "élimination"
    for result in (weekend, cup):  # a default in each
        assert any(game.row.kind == DEFAULT for game in result.games.games)
    # A player with three defaults, left out of the weekend's standings; his played games are rated.
    assert [weekend.games.names[p] for p in weekend.games.left_out] == ["DUPUY Frédéric"]
    left = weekend.games.left_out[0]
    assert weekend.games.defaults_lost[left] == 3 and weekend.changes[left].games == 4
    assert left not in [line.player for line in weekend.lines]
    # A time penalty (typed 15:42 in an Excel time cell, and 16 whole minutes) and a vanished game.
    assert sorted(p for game in weekend.games.games for p in game.scored.penalties if p) == [1, 2]
    assert [game.scored.tiles for game in weekend.games.games if game.row.kind == VANISHED] == [(23, 23)]
    # A tie on TPs decided by the tied players' own game.
    tied = [line for line in weekend.lines if line.decided_by == [HEAD_TO_HEAD]]
    assert len(tied) == 2 and tied[0].tps == tied[1].tps and not any(line.playoff for line in weekend.lines)
    # The knockout: 3-game matches paired from its seeding list (1-8, 4-5, 2-7, 3-6), one match level on
    # TPs but won on games.
    assert all(len(match.games) == 3 for match in cup.matches)
    seeds = [seed.player for seed in cup.seeds]
    quarters = [{match.a, match.b} for match in cup.matches if match.round == 1]
    assert quarters == [{seeds[0], seeds[7]}, {seeds[3], seeds[4]}, {seeds[1], seeds[6]}, {seeds[2], seeds[5]}]
    level = [match for match in cup.matches if match.tps[0] == match.tps[1]]
    assert len(level) == 1 and level[0].decided_by == WINS and level[0].winner is not None
    assert [line.rank for line in cup.lines] == [1, 2, 3, 3, 5, 5, 5, 5]
    # Colours drawn from the registrations, with the seed of each event.
    assert all(result.draw_seed and any(pair.drawn for pair in result.colours) for result in (weekend, cup))


@pytest.mark.parametrize("name, file", [(WEEKEND, "standings-week-end-de-printemps"),
                                        (CUP, "standings-coupe-d-automne")])
def test_each_event_s_standings_match_the_reviewed_golden_file(report, name, file):
    ranking = next(r for r in report.rankings if r.scope.kind == "event" and r.scope.name == name)
    golden.check(f"tantrix/{file}.json", to_json(ranking).decode(), as_json=True)


def test_the_rating_list_matches_the_reviewed_golden_file(report):
    lists = [r for r in report.rankings if r.scope.kind == "ratings"]
    assert [r.date for r in lists] == [dt.date(2026, 3, 14), dt.date(2026, 10, 10)]
    golden.check("tantrix/ratings-2026-10-10.json", to_json(lists[-1]).decode(), as_json=True)


# -- an independent reference: the workbooks read with openpyxl, the rules typed again ------------------

def key(name: str) -> str:
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    return " ".join(sorted(plain.replace(",", " ").lower().split()))


def seconds(value) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.time):  # Excel keeps a typed 15:42 as 15 h 42: minutes and seconds
        return value.hour * 60 + value.minute if value.hour else value.minute * 60 + value.second
    if isinstance(value, (int, float)):
        return int(value) * 60
    minutes, secs = str(value).split(":")
    return int(minutes) * 60 + int(secs)


def winner_tps(margin: int) -> Decimal:
    if margin == 0:
        return Decimal(10)
    value = Decimal(12 + 4 / 3 * math.sqrt(margin)).quantize(Decimal("0.1"), ROUND_HALF_UP)
    return min(value, Decimal(20))


def read(path: Path) -> tuple[dict, list[dict]]:
    book = openpyxl.load_workbook(path)
    fields = {str(row[0]).rstrip(" :"): row[1] for row in book["Tournoi"].iter_rows(values_only=True)}
    rows = list(book["Parties"].iter_rows(values_only=True))
    top = next(i for i, row in enumerate(rows) if row[0] == "Ronde")
    games = []
    for row in rows[top + 1:]:
        ronde, a, b, ta, tb, time_a, time_b, default, vanished = (list(row) + [None] * 9)[:9]
        knockout = fields["Type"] == "élimination"
        game = {"round": ronde, "a": key(a), "b": key(b), "rated": True}
        if vanished == "oui":
            game.update(tiles=(23, 23), tps=(Decimal(10), Decimal(10)))
        elif default:
            win = (50, 14, Decimal(20), Decimal(0)) if knockout else (35, 15, Decimal(18), Decimal(2))
            first = default == "B"
            game.update(tiles=win[:2] if first else win[1::-1], tps=win[2:] if first else win[:1:-1], rated=False)
        else:
            best = winner_tps(abs(ta - tb))
            tps = [best, 20 - best] if ta >= tb else [20 - best, best]
            for side, used in enumerate((seconds(time_a), seconds(time_b))):
                late = max(0, used // 60 - 14) if used is not None else 0
                tps[side] -= late
                tps[1 - side] += late
            tps[0] = min(Decimal(20), max(Decimal(0), tps[0]))
            game.update(tiles=(ta, tb), tps=(tps[0], 20 - tps[0]))
        game["wins"] = (2, 0) if (default == "B" or (not default and game["tiles"][0] > game["tiles"][1])) else \
            (0, 2) if (default == "A" or game["tiles"][0] < game["tiles"][1]) else (1, 1)
        games.append(game)
    return fields, games


def reference_standings(games: list[dict]) -> dict[str, tuple[float, int, float]]:
    lost = {}
    for game in games:
        if not game["rated"]:
            loser = game["a"] if game["wins"][0] == 0 else game["b"]
            lost[loser] = lost.get(loser, 0) + 1
    out = {player for player, count in lost.items() if count > 2}
    totals: dict[str, list] = {}
    for game in games:
        if game["a"] in out or game["b"] in out:
            continue
        for side, player in enumerate((game["a"], game["b"])):
            line = totals.setdefault(player, [Decimal(0), 0, 0])
            line[0] += game["tps"][side]
            line[1] += 1
            line[2] += game["wins"][side]
    return {player: (float(tps), count, wins / 2) for player, (tps, count, wins) in totals.items()}


def reference_ratings(events: list[tuple[dict, list[dict]]]) -> dict[str, tuple[float, int]]:
    ratings: dict[str, tuple[float, int]] = {}
    for _, games in sorted(events, key=lambda e: (e[0]["Date"], e[0]["Nom"])):
        played: dict[str, list] = {}
        for game in games:
            if game["rated"]:
                played.setdefault(game["a"], []).append((game["b"], game["tps"][0]))
                played.setdefault(game["b"], []).append((game["a"], game["tps"][1]))
        before = {p: ratings.get(p, (1850.0, 0)) for p in played}
        new = {}
        for player, results in played.items():
            g = len(results)
            f = min(0.99, max(0.01, float(sum(tps for _, tps in results)) / (20 * g)))
            perf = sum(before[o][0] for o, _ in results) / g + 565.7 * NormalDist().inv_cdf(f)
            w = min(before[player][1], 36)
            new[player] = ((w * before[player][0] + g * perf) / (w + g), g)
        shift = sum(g * (before[p][0] - r) for p, (r, g) in new.items()) / sum(g for _, g in new.values())
        ratings.update({p: (r + shift, before[p][1] + g) for p, (r, g) in new.items()})
    return ratings


def test_the_goldens_agree_with_the_independent_reference():
    events = [read(path) for path in sorted((EXAMPLE / "tantrix").glob("*.xlsx"))]
    for fields, games in events:
        expected = reference_standings(games)
        name = "standings-" + ("week-end-de-printemps" if fields["Type"] == "toutes-rondes" else "coupe-d-automne")
        rows = json.loads((golden.FOLDER / "tantrix" / f"{name}.json").read_text())["rows"]
        assert {key(row["player"]): (row["tps"], row["games"], row["wins"]) for row in rows} == expected
        tps = [row["tps"] for row in rows]
        if fields["Type"] == "toutes-rondes":
            assert tps == sorted(tps, reverse=True)
    expected_ratings = reference_ratings(events)
    rows = json.loads((golden.FOLDER / "tantrix" / "ratings-2026-10-10.json").read_text())["rows"]
    assert {key(row["player"]): (row["rating"], row["games"]) for row in rows} == {
        player: (round(rating, 1), games) for player, (rating, games) in expected_ratings.items()}
    assert [row["provisional"] for row in rows] == ["oui" if row["games"] < 36 else "non" for row in rows]


# -- the command line --------------------------------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([REPORTGEN, *args, "--inputs", str(EXAMPLE)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT / "tests")


def test_standings_tantrix_event_as_csv_on_the_example_league():
    result = run("standings", "tantrix", "--event", WEEKEND, "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:5] == ["rank", "player", "tps", "games", "wins"]
    golden_rows = json.loads((golden.FOLDER / "tantrix" / "standings-week-end-de-printemps.json").read_text())["rows"]
    assert [(int(r[0]), r[1], float(r[2]), int(r[3]), float(r[4])) for r in rows[1:]] == [
        (g["rank"], g["player"], g["tps"], g["games"], g["wins"]) for g in golden_rows]
    assert all(r[2] == f"{float(r[2]):.1f}" for r in rows[1:])  # one decimal
    assert "DUPUY Frédéric" not in result.stdout  # left out for his defaults
    cup = run("standings", "tantrix", "--event", "coupe tantrix d'AUTOMNE", "--format", "csv")
    assert cup.returncode == 0 and [r[0] for r in csv.reader(io.StringIO(cup.stdout))][1:] == \
        ["1", "2", "3", "3", "5", "5", "5", "5"]


def test_ratings_tantrix_as_csv_on_the_example_league():
    result = run("ratings", "tantrix", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:5] == ["rank", "player", "rating", "games", "provisional"]
    golden_rows = json.loads((golden.FOLDER / "tantrix" / "ratings-2026-10-10.json").read_text())["rows"]
    assert [(int(r[0]), r[1], float(r[2]), int(r[3]), r[4]) for r in rows[1:]] == [
        (g["rank"], g["player"], g["rating"], g["games"], g["provisional"]) for g in golden_rows]
    assert {r[4] for r in rows[1:]} <= {"oui", "non"}


# -- the documents ----------------------------------------------------------------------------------

def test_the_report_has_a_bulletin_per_event_a_rating_list_per_date_and_an_annex(report):
    assert sorted(d.template for d in report.documents) == ["tantrix/bulletin.html.j2"] * 2 + \
        ["tantrix/ratings.html.j2"] * 2
    book = openpyxl.load_workbook(io.BytesIO(excel.render_annex(report.annexes[0])))
    assert book.sheetnames == ["Parties", "Classements", "Classement Elo", "Évolution Elo", "Têtes de série"]
    assert book["Parties"].max_row == 1 + 28 + 21
    assert [c.value for c in book["Classement Elo"][1]][:5] == ["Place", "Joueur", "Classement Elo",
                                                                 "Parties classées", "Provisoire"]


def test_a_rating_list_names_its_events_as_a_sentence_does(scored):
    """« après la Coupe Tantrix d'automne », as the other circuits write « après le tournoi d'Auch »:
    it read « après Coupe Tantrix d'automne »."""
    summaries = [list_bulletin(ratings, TantrixSettings(), "Ligue").context["summary"] for ratings in scored.lists]
    assert [summary.split(" · ")[0] for summary in summaries] == [f"après le {WEEKEND}", f"après la {CUP}"]


def test_the_annex_shows_each_score_as_the_rating_list_prints_it(scored, report):
    """« Évolution Elo », « Score »: the fraction f in the cell, shown as a percentage with one
    decimal, the same as the rating list's bulletin (it showed « 0,6 » for « 62,2 % »)."""
    printed = {(event_rows["name"], row["player"]): row["score"] for ratings in scored.lists
               for event_rows in list_bulletin(ratings, TantrixSettings(), "Ligue").context["events"]
               for row in event_rows["rows"]}
    sheet = openpyxl.load_workbook(io.BytesIO(excel.render_annex(report.annexes[0])))["Évolution Elo"]
    header = [c.value for c in sheet[1]]
    column = header.index("Score")
    rows = list(sheet.iter_rows(min_row=2))
    assert len(rows) == len(printed) > 0
    assert {row[column].number_format for row in rows} == {'#,##0.0"\u202f"%_)'}  # « 62,2 % »
    assert all(0 < row[column].value < 1 for row in rows)
    shown = {(row[header.index("Tournoi")].value, row[header.index("Joueur")].value):
             french.number(100 * row[column].value, 1) + " %" for row in rows}
    assert shown == printed


def test_the_bulletins_say_the_tie_breaks_the_left_out_player_and_the_seed(scored):
    settings = TantrixSettings()
    weekend = html.render(event_bulletin(event(scored, WEEKEND), settings, "Ligue"))
    assert "départage aux TPs marqués entre eux" in weekend and "Tableau croisé" in weekend
    assert "DUPUY Frédéric a perdu 3 parties par forfait" in weekend
    assert "<h3>Hors classement (règle 7)</h3>" in weekend
    assert "<li>DUPUY Frédéric\u00a0: 3 parties perdues par forfait</li>" in weekend
    assert f"Graine du tirage\u00a0: <strong>{event(scored, WEEKEND).draw_seed}</strong>" in weekend
    assert "partie disparue\u00a0: nul 23-23" in weekend and "−2" in weekend
    cup = html.render(event_bulletin(event(scored, CUP), settings, "Ligue"))
    assert "Ronde\u00a03\u00a0— finale" in cup and "Décidé aux parties gagnées (TPs à égalité)" in cup
    assert "forfait de" in cup
    ratings = html.render(list_bulletin(scored.lists[-1], settings, "Ligue"))
    assert "évolution depuis la liste du 14\u00a0mars 2026" in ratings and "provisoire" in ratings


def test_each_round_s_games_are_printed_on_one_page(report):
    """The PDF broke the spring event's sixth round and the cup's second between two pages (three
    games on one, the fourth on the next): each round is a group of rows kept on one page, the
    table's header repeated above it. A game is found on the page holding both its players' names
    on one line."""
    from pypdf import PdfReader

    from reportgen.render import pdf

    split = {}
    for document in (d for d in report.documents if d.template == "tantrix/bulletin.html.j2"):
        page = html.render(document)
        assert page.count('<tbody class="round">') == len(document.context["rounds"])
        texts = [p.extract_text().splitlines() for p in PdfReader(io.BytesIO(pdf.render_pdf(page))).pages]
        for played in document.context["rounds"]:
            pages = {number for game in played["games"] for number, lines in enumerate(texts)
                     if any(game["a"] in line and game["b"] in line for line in lines)}
            assert pages, (document.path, played["number"])
            if len(pages) > 1:
                split[document.path, played["number"]] = pages
    assert split == {}


def test_what_the_tantrix_texts_say_of_a_player_agrees_with_no_gender(scored, report):
    """The league does not know its players' genders: what a Tantrix bulletin, annex or site page
    says of a player is worded without agreement. The spring bulletin said « DUPUY Frédéric a perdu 3
    parties par forfait : il est écarté du classement » (reviewer, 43rd round), a knockout's stages
    « éliminé à la ronde 1 », « qualifié après la ronde 1 », a tie « départagé aux tuiles marquées »,
    the annex « écarté : 3 forfaits »."""
    from tests.poules.test_notices import GENDERED

    weekend = html.render(event_bulletin(event(scored, WEEKEND), TantrixSettings(), "Ligue"))
    alert = weekend[weekend.index('<p class="alert">DUPUY'):].split("</p>")[0]
    assert alert.replace("\n", " ") == (
        '<p class="alert">DUPUY Frédéric a perdu 3 parties par forfait, ce qui l’écarte du classement, et ses parties '
        'n’y comptent pas pour ses adversaires (règle 7)\u202f; ses 4 parties jouées comptent pour le classement Elo.')
    said = [alert]
    for ranking in report.rankings:  # each row's stage and tie-break, each player left out and why
        said += [str(value) for row in ranking.rows for value in (*row.metrics.values(), *row.decided_by)
                 if isinstance(value, str)]
        said += [out.why for out in ranking.left_out]
    for annex in report.annexes:
        said += [value for sheet in annex.sheets for row in sheet.rows for value in row if isinstance(value, str)]
    assert "hors classement : 3 parties perdues par forfait (règle 7)" in said
    assert {"élimination à la ronde 1", "départage aux TPs marqués entre eux"} <= set(said)
    assert [text for text in said if GENDERED.search(text) or re.search(r"\b(?:il|elle)\b", text)] == []


def test_the_annex_says_why_a_player_is_left_out_as_the_bulletin_and_the_site_say_it(report):
    """The annex's « Classements » sheet said « hors classement : 3 forfaits (règle 7) » where the
    bulletin lists DUPUY Frédéric with « 3 parties perdues par forfait » and his site page's line
    « hors classement : 3 parties perdues par forfait (règle 7) » (rule 7: « perd plus de deux parties
    par défaut »): one wording, the annex read back from its file."""
    from reportgen.render.excel import render_annex

    why = [(out.player, out.why) for ranking in report.rankings for out in ranking.left_out]
    assert why == [("DUPUY Frédéric", "hors classement : 3 parties perdues par forfait (règle 7)")]
    [annex] = report.annexes
    book = openpyxl.load_workbook(io.BytesIO(render_annex(annex)))
    sheet = book["Classements"]
    header = [cell.value for cell in sheet[1]]
    rows = [dict(zip(header, (cell.value for cell in row))) for row in sheet.iter_rows(min_row=2)]
    said = [(row[header[3]], value) for row in rows for value in row.values()
            if isinstance(value, str) and "hors classement" in value]
    assert said == why
    assert not any("forfaits (règle 7)" in str(cell.value) for ws in book for line in ws.iter_rows() for cell in line)
    pages = [" ".join(markup.unescape(re.sub(r"<[^>]+>", " ", html.render(d))).split())
             for d in report.documents if d.template == "tantrix/bulletin.html.j2"]
    assert sum("DUPUY Frédéric : 3 parties perdues par forfait" in page for page in pages) == 1
