"""Archived seasons on the website (issue 24): a season that has left inputs/ (and is no longer
read back for the next one) stays on the players' pages and gets its season page, from
`archive/league.sqlite` (delivery/site_archive.py)."""

import datetime as dt
import html
import json
import os
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from reportgen import circuits
from reportgen.delivery.site_archive import archived_rankings
from reportgen.render.index import MANIFEST
from reportgen.site import data
from reportgen.site.pages import Site, page_name
from reportgen.site.publish import publish
from tests.browser import check_page
from tests.builders import TODAY, write_clubs, write_tournament, write_workbook
from tests.test_delivery_mail import cli
from tests.test_site import other_seasons
from tests.test_site_typography import breakable_spaces


def test_an_archived_season_no_longer_published_stays_on_the_site(small_league_copy, tmp_path):
    league, archive = small_league_copy, tmp_path / "archive"
    done = cli("archive", "--season", "2025", "--inputs", str(league.inputs), "--outputs", str(league.outputs),
               "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    archived = archived_rankings(archive)
    published = [r for r in data.read(league.outputs / "grand-sud") if r["season"] == 2025 and not r.get("no_csv")]
    rankings = [r for r in archived["grand-sud"] if not r["path"].startswith("tournoi/")]  # the tournaments: below
    assert [[(row["rank"], row["id"], row["player"]) for row in r["rows"]] for r in rankings] == [
        [(row["rank"], row["id"], row["player"]) for row in r["rows"]] for r in published]
    assert rankings[-1]["title"] == "Classement final de la saison 2025"

    later = later_outputs(league.outputs, tmp_path, 2025)
    without = Site(later, list(circuits.CIRCUITS), "Ligue").pages()
    assert "site/grand-sud-2025.html" not in without
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived=archived).pages()
    season = pages["site/grand-sud-2025.html"].decode("utf-8")
    assert "LÉGER Zoé" in season and "Classement final de la saison 2025" in season and "../grand-sud/2025/" not in season
    # the archived season and the running one link each other; without the archive, 2026 has no other
    assert other_seasons(season) == [("grand-sud-2026.html", "2026")]
    assert other_seasons(pages["site/grand-sud-2026.html"].decode("utf-8")) == [("grand-sud-2025.html", "2025")]
    assert other_seasons(without["site/grand-sud-2026.html"].decode("utf-8")) is None
    # what it says of its bulletins in French typing (« archivés : », its colon never starting a line)
    assert "Les bulletins de cette saison sont archivés" in season and breakable_spaces(pages["site/grand-sud-2025.html"]) == []
    leger = pages[f"site/{page_name('joueur', 'L:1004')}"].decode("utf-8")
    assert "saison 2025" in leger and 'href="None"' not in leger
    assert "saison 2025" not in without[f"site/{page_name('joueur', 'L:1004')}"].decode("utf-8")


def later_outputs(outputs, tmp_path, season, slug="grand-sud"):
    """outputs/ as a later build leaves it once `season` of `slug` is neither in inputs/ nor read back."""
    later = tmp_path / "later"
    shutil.copytree(outputs, later)
    manifest = json.loads((later / slug / MANIFEST).read_text(encoding="utf-8"))
    manifest["documents"] = [d for d in manifest["documents"] if d["season"] != season]
    manifest["annexes"] = [a for a in manifest["annexes"] if a["season"] != season]
    (later / slug / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    kept = [r for r in data.read(later / slug) if r["season"] != season]
    (later / slug / data.DATA).write_text(json.dumps({"rankings": kept}), encoding="utf-8")
    return later


@pytest.fixture(scope="module")
def four_tournaments(tmp_path_factory):
    """A 2025 season of four Grand Sud tournaments (the best two count, §3), archived, and a 2026 one."""
    from reportgen.pipeline import build

    root = tmp_path_factory.mktemp("four-tournaments")
    inputs = root / "inputs"
    write_clubs(inputs)
    a, b, c = (["DUPONT", "Jean", "1001", "Carcassonne"], ["MARTIN", "Paul", "1002", "Albi"],
               ["LÉGER", "Zoé", "1004", "Albi"])
    for day, club, order in (("01/03/2025", "ALBI", (a, b, c)), ("05/04/2025", "CARC", (b, c, a)),
                             ("10/05/2025", "TLSE", (c, a, b)), ("14/06/2025", "MTPL", (a, c, b))):
        write_tournament(inputs, f"2025-{day[3:5]}-{day[:2]}-x", day=day, club=club,
                         results=[[place, *player] for place, player in enumerate(order, 1)])
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")
    assert build(inputs, root / "outputs", TODAY).ok
    done = cli("archive", "--season", "2025", "--inputs", str(inputs), "--outputs", str(root / "outputs"),
               "--archive", str(root / "archive"))
    assert done.returncode == 0, done.stderr
    return root


def test_archived_tournaments_get_their_pages_and_results_their_counted_marks(four_tournaments, tmp_path):
    root = four_tournaments
    published = data.read(root / "outputs" / "grand-sud")
    archived = archived_rankings(root / "archive")["grand-sud"]
    # the same records as the site published while 2025 was in inputs/: tournaments and counted marks
    assert [r for r in archived if r["kind"] == "event"] == [
        r for r in published if r["season"] == 2025 and r["kind"] == "event"]
    final = next(r for r in archived if r["title"] == "Classement final de la saison 2025")
    assert final["rows"] == next(r for r in published if r["path"] == final["path"])["rows"]
    counted = {row["player"]: [result[1] for result in row["results"]] for row in final["rows"]}
    assert counted["DUPONT Jean"] == [True, True, False, False]  # the best two of four

    later = later_outputs(root / "outputs", tmp_path, 2025)
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived={"grand-sud": archived}).pages()
    season = pages["site/grand-sud-2025.html"].decode("utf-8")
    events = [r for r in archived if r["kind"] == "event"]
    for event in events:
        name = page_name("tournoi", f"grand-sud/{event['path']}")
        assert f'href="{name}"' in season and f"site/{name}" in pages
    tournament = pages[f"site/{page_name('tournoi', 'grand-sud/' + events[0]['path'])}"].decode("utf-8")
    assert "DUPONT Jean" in tournament and "Tournoi 2025-03-01-x" in tournament
    dupont = pages[f"site/{page_name('joueur', 'L:1001')}"].decode("utf-8")
    section = dupont[dupont.index("saison 2025"):]
    assert section.count("non (hors des meilleurs résultats)") == 2 and 'href="tournoi-' in section
    # each archived result names its tournament, linked to its page, in date order
    table = section[section.index('<table class="sortable results"'):].split("</table>")[0]
    named = re.findall(r'<td role="cell" data-sort="(\d+)">[^<]+</td><th scope="row" role="rowheader"><a href="([^"]+)">', table)
    assert named == [(event["date"].replace("-", ""), page_name("tournoi", f"grand-sud/{event['path']}"))
                     for event in events]


def test_an_archived_tournament_page_is_a_good_web_page(four_tournaments, tmp_path, browser):
    later = later_outputs(four_tournaments / "outputs", tmp_path, 2025)
    archived = archived_rankings(four_tournaments / "archive")
    publish(later, Site(later, list(circuits.CIRCUITS), "Ligue", archived=archived).pages())
    event = next(r for r in archived["grand-sud"] if r["kind"] == "event")
    check_page(browser, later / "site" / page_name("tournoi", f"grand-sud/{event['path']}"), later)


@pytest.mark.parametrize("circuit", ["grand-sud", "tour-de-france"])
def test_a_season_archived_before_it_is_closed_is_titled_provisional(circuit, request, tmp_path, monkeypatch):
    """A season archived while it ran holds its ranking so far, without a bulletin of its own
    (`classement-provisoire-2026.csv`): the site titled it « Classement final de la saison 2026 »
    from its status. It is titled by what the copy holds, « provisoire », an archive written before
    that name too (the Grand Sud's `classement-final-2026`, the Tour de France's
    `classement-saison-2005`); archived again once closed, « final »."""
    from reportgen.delivery import archive as archiving
    from reportgen.delivery import database
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml
    from reportgen.pipeline import build
    from reportgen.render import pdf as pdf_render
    from tests.test_incremental_build import stand_in
    from tests.test_one_document_per_ranking import tour_de_france

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])
    if circuit == "grand-sud":
        league = request.getfixturevalue("small_league_copy")
        inputs, outputs, season, day, former = league.inputs, league.outputs, 2026, TODAY, "classement-final-2026"
    else:
        inputs, outputs, season, day, former = (tour_de_france(tmp_path), tmp_path / "outputs", 2005,
                                                dt.date(2005, 12, 20), "classement-saison-2005")
        assert build(inputs, outputs, day).ok
    archive, moment = tmp_path / "archive", dt.datetime.combine(day, dt.time(10), dt.timezone.utc)
    provisional = f"Classement final provisoire de la saison {season} (tournois de {season} seulement)"

    def season_ranking() -> tuple[str, str]:
        """The archived season's own ranking on the site: its path and title."""
        (found,) = [(r["path"], r["title"]) for r in archived_rankings(archive)[circuit]
                    if r["kind"] == "season" and r["status"] == "final"]
        return found

    archiving.archive_season(inputs, outputs, archive, season, "", day, moment)
    assert season_ranking() == (f"{season}/classement-provisoire-{season}", provisional)
    # as a copy archived open before the provisional name recorded it (autocommitted)
    connection = database.connect(archive, create=False)
    assert connection is not None
    connection.execute("UPDATE ranking SET path = ? WHERE path = ?",
                       (f"{season}/{former}", f"{season}/classement-provisoire-{season}"))
    connection.close()
    assert season_ranking() == (f"{season}/{former}", provisional)

    (inputs / SEASONS_FILE).write_bytes(seasons_toml({season: day - dt.timedelta(days=5)}))
    assert build(inputs, outputs, day).ok
    archiving.archive_season(inputs, outputs, archive, season, "saison close", day, moment + dt.timedelta(hours=1))
    assert season_ranking() == (f"{season}/classement-final-{season}", f"Classement final de la saison {season}")


def test_an_archived_tournament_outside_the_circuit_still_says_so_on_its_page(small_league_copy, tmp_path):
    """A Grand Sud tournament of a club outside the départements (« hors circuit », §1) says so on its
    page while its season is in inputs/, and still once the season is archived: the archived
    season's workbooks scored again give the circuit's notes (Report.event_notes), as a build's do."""
    from reportgen.circuits.grand_sud.documents import OUTSIDE
    from reportgen.pipeline import build

    league, archive = small_league_copy, tmp_path / "archive"
    write_tournament(league.inputs, "2025-07-05-marseille", day="05/07/2025", club="MARS", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, "PROVENCAL", "Marius", "", "Marseille"]])
    assert build(league.inputs, league.outputs, TODAY).ok
    published = next(r for r in data.read(league.outputs / "grand-sud") if r.get("event") == "2025-07-05-marseille.xlsx")
    assert published["note"] == OUTSIDE
    done = cli("archive", "--season", "2025", "--inputs", str(league.inputs), "--outputs", str(league.outputs),
               "--archive", str(archive))
    assert done.returncode == 0, done.stderr

    archived = archived_rankings(archive)["grand-sud"]
    marseille = next(r for r in archived if r.get("event") == "2025-07-05-marseille.xlsx")
    assert marseille == published  # the same record, its note with it
    assert [r["event"] for r in archived if r.get("note")] == ["2025-07-05-marseille.xlsx"]  # Albi 2025 counts
    later = later_outputs(league.outputs, tmp_path, 2025)
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived={"grand-sud": archived}).pages()
    page = pages[f"site/{page_name('tournoi', 'grand-sud/' + marseille['path'])}"].decode("utf-8")
    assert f'<p class="note">{OUTSIDE}</p>' in html.unescape(page) and "PROVENCAL Marius" in page
    albi = next(r for r in archived if r.get("event") == "2025-06-01-albi.xlsx")
    assert "hors circuit" not in pages[f"site/{page_name('tournoi', 'grand-sud/' + albi['path'])}"].decode("utf-8")


def test_an_archived_tournament_shows_its_points_and_only_its_places_when_its_season_cannot_be_scored(
        four_tournaments, tmp_path):
    """What each result earned (Report.event_columns) is not in the database: it comes from the
    archived workbooks scored again, as the results' counted marks do. A season that cannot be (a
    workbook of the archive damaged): its tournaments keep their pages, « Place, Joueur, Club » alone."""
    archived = [r for r in archived_rankings(four_tournaments / "archive")["grand-sud"] if r["kind"] == "event"]
    assert archived and all([c["key"] for c in r["columns"]] == ["club", "points"] for r in archived)
    assert all(row["values"]["points"] for r in archived for row in r["rows"])
    archive = tmp_path / "archive"
    shutil.copytree(four_tournaments / "archive", archive)
    next(archive.rglob("2025-03-01-x.xlsx")).write_bytes(b"not a workbook")
    found = archived_rankings(archive)
    unscored = [r for r in found["grand-sud"] if r["kind"] == "event"]
    assert [r["path"] for r in unscored] == [r["path"] for r in archived]
    assert all(r["columns"] == [{"key": "club", "header": "Club", "short": "Club"}] for r in unscored)
    later = later_outputs(four_tournaments / "outputs", tmp_path, 2025)
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived=found).pages()
    tournament = pages[f"site/{page_name('tournoi', 'grand-sud/' + unscored[0]['path'])}"].decode("utf-8")
    assert "DUPONT Jean" in tournament and ">Points</th>" not in tournament


# -- a published archive never changes silently ------------------------------------------------------

CLUB_ONLY = [{"key": "club", "header": "Club", "short": "Club"}]


def typed_anew(workbook):
    """Two places of an archived workbook typed anew (the first and the last swapped): its results
    would earn other points, and count otherwise."""
    import openpyxl

    workbook.chmod(0o644)  # archived files are read-only
    book = openpyxl.load_workbook(workbook)
    sheet = book["Résultats"]
    sheet["A2"], sheet["A4"] = sheet["A4"].value, sheet["A2"].value
    book.save(workbook)


def removed(workbook):
    workbook.unlink()


def only_places(workbook, season):
    return (f"saison {season} archivée : {workbook} {'manque' if not workbook.exists() else 'a été modifié depuis son archivage'}"
            " — le site n’en montre que ce que garde la base de données (ses classements et les places de ses "
            "tournois, sans les points de chaque résultat ni les résultats retenus) : lancez « reportgen archive "
            "verify »")


@pytest.mark.parametrize("alter", [typed_anew, removed])
def test_an_archived_season_whose_workbook_changed_or_went_shows_only_what_the_database_keeps(
        four_tournaments, tmp_path, alter):
    """The points and the counted marks come from the archived workbooks scored again: once one of
    them is not the one archived (its SHA-256 is not the database's), none of its season's figures
    is shown, and the secretary is told once which file and what to run."""
    intact = archived_rankings(four_tournaments / "archive")["grand-sud"]
    archive = tmp_path / "archive"
    shutil.copytree(four_tournaments / "archive", archive)
    workbook = archive / "2025" / "v1" / "inputs" / "2025-03-01-x.xlsx"
    alter(workbook)
    notes: list[str] = []
    found = archived_rankings(archive, notes.append)
    assert notes == [only_places(workbook, 2025)]
    records = found["grand-sud"]
    events = [r for r in records if r["kind"] == "event"]
    assert [r["path"] for r in events] == [r["path"] for r in intact if r["kind"] == "event"]
    assert all(r["columns"] == CLUB_ONLY and all(set(row["values"]) == {"club"} for row in r["rows"]) for r in events)
    assert not any(row.get("results") for r in records for row in r["rows"])
    # what the database keeps stays: every ranking, its rows and places
    assert [[(row["rank"], row["player"]) for row in r["rows"]] for r in records if r["kind"] != "event"] == [
        [(row["rank"], row["player"]) for row in r["rows"]] for r in intact if r["kind"] != "event"]
    later = later_outputs(four_tournaments / "outputs", tmp_path, 2025)
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived=found).pages()
    for event in events:
        tournament = pages[f"site/{page_name('tournoi', 'grand-sud/' + event['path'])}"].decode("utf-8")
        assert "DUPONT Jean" in tournament and ">Points</th>" not in tournament
    dupont = pages[f"site/{page_name('joueur', 'L:1001')}"].decode("utf-8")
    assert "saison 2025" in dupont and "meilleurs résultats" not in dupont


def test_an_intact_archive_is_scored_again_without_a_note(four_tournaments):
    notes: list[str] = []
    found = archived_rankings(four_tournaments / "archive", notes.append)
    assert notes == [] and found == archived_rankings(four_tournaments / "archive")
    assert all([c["key"] for c in r["columns"]] == ["club", "points"] for r in found["grand-sud"] if r["kind"] == "event")


def test_a_workbook_added_to_an_archived_season_is_named_too(four_tournaments, tmp_path):
    archive = tmp_path / "archive"
    shutil.copytree(four_tournaments / "archive", archive)
    added = archive / "2025" / "v1" / "inputs" / "2025-07-05-y.xlsx"
    write_tournament(added.parent, added.stem, day="05/07/2025")
    notes: list[str] = []
    found = archived_rankings(archive, notes.append)
    assert len(notes) == 1 and f"{added} a été ajouté depuis son archivage — " in notes[0]
    assert all(r["columns"] == CLUB_ONLY for r in found["grand-sud"] if r["kind"] == "event")


def test_the_build_tells_the_secretary_once_which_archived_workbook_changed(tmp_path):
    """`reportgen build`: the note in its notes (standard error, verification.html), once; the
    archived season's tournament pages without points. A build that finds nothing changed says it
    again, as it says every note of the last build."""
    from reportgen.pipeline import build

    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    write_tournament(inputs, "2024-03-01-albi", day="01/03/2024", club="ALBI")
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")
    assert build(inputs, outputs, TODAY).ok
    done = cli("archive", "--season", "2024", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    (inputs / "2024-03-01-albi.xlsx").unlink()  # 2026 does not need 2024: it is not read back
    workbook = archive / "2024" / "v1" / "inputs" / "2024-03-01-albi.xlsx"
    typed_anew(workbook)
    later = tmp_path / "later"
    for run in range(2):
        built = cli("build", "--inputs", str(inputs), "--outputs", str(later), "--archive", str(archive))
        assert built.returncode == 0, built.stderr
        assert built.stderr.count(str(workbook)) == 1 and f"note : {only_places(workbook, 2024)}\n" in built.stderr
    assert str(workbook) in html.unescape((later / "verification.html").read_text(encoding="utf-8"))
    tournaments = [p for p in (later / "site").glob("tournoi-*.html") if "2024" in p.read_text(encoding="utf-8")]
    assert tournaments and not any(">Points</th>" in p.read_text(encoding="utf-8") for p in tournaments)


def test_an_archive_whose_database_cannot_be_read_is_said_among_the_build_s_notes(tmp_path):
    """The archive's database damaged: the build publishes (it does not need it), its site without
    the archived seasons, and says so as a note, on standard error and on the secretary's page, a
    build that finds nothing changed saying it again (it was said on standard error alone)."""
    inputs, archive = tmp_path / "inputs", tmp_path / "archive"
    write_clubs(inputs)
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")
    archive.mkdir()
    (archive / "league.sqlite").write_bytes(b"not a database, a file written over it" * 100)
    outputs = tmp_path / "outputs"
    for run in range(2):
        built = cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
        assert built.returncode == 0, built.stderr
        said = [line for line in built.stderr.splitlines() if "saisons archivées" in line]
        assert len(said) == 1 and said[0].startswith("note : le site ne montre pas les saisons archivées : "), said
    page = html.unescape((outputs / "verification.html").read_text(encoding="utf-8"))
    assert "le site ne montre pas les saisons archivées" in page and "league.sqlite" in page


def test_a_season_that_reads_a_changed_season_before_shows_only_its_places_too(tmp_path):
    """A Grand Sud season reads the one before (its seeds, its editions): archived, that one's
    workbooks are checked as they are read back, and a changed one leaves both seasons without
    their points, each said."""
    from reportgen.pipeline import build

    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    write_tournament(inputs, "2024-03-01-albi", day="01/03/2024", club="ALBI")
    write_tournament(inputs, "2025-03-01-albi", day="01/03/2025", club="ALBI")
    assert build(inputs, outputs, TODAY).ok
    for season in ("2024", "2025"):
        done = cli("archive", "--season", season, "--inputs", str(inputs), "--outputs", str(outputs),
                   "--archive", str(archive))
        assert done.returncode == 0, done.stderr
    notes: list[str] = []
    assert all([c["key"] for c in r["columns"]] == ["club", "points"]
               for r in archived_rankings(archive, notes.append)["grand-sud"] if r["kind"] == "event")
    assert notes == []
    workbook = archive / "2024" / "v1" / "inputs" / "2024-03-01-albi.xlsx"
    typed_anew(workbook)
    found = archived_rankings(archive, notes.append)
    assert all(r["columns"] == CLUB_ONLY for r in found["grand-sud"] if r["kind"] == "event")
    assert notes == [only_places(workbook, 2024), only_places(workbook, 2025).replace(
        f"{workbook} a été modifié", f"{workbook}, qu’elle lit, manque ou a été modifié")]


def test_a_rebuild_opens_no_archived_workbook_its_file_hashes_and_reads_know(tmp_path, monkeypatch):
    """The archived seasons scored again for the site: each archived file hashed at most once by a
    build (for its key; its check and its reading find the same hash: ingest/file_hashes.py) and read
    at most once; a build with nothing changed in archive/ (a workbook added to inputs/) opens none
    of them, their hashes known by their stat and their sheets kept (outputs/.reportgen/archive-reads),
    the season before one of them put back with links. A workbook changed since is still noticed."""
    import builtins
    import io
    import os

    from reportgen.ingest import file_hashes, reading_pool

    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    for season in ("2023", "2024"):
        write_tournament(inputs, f"{season}-03-01-albi", day=f"01/03/{season}", club="ALBI")
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")
    assert cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive)).returncode == 0
    for season in ("2023", "2024"):  # 2024 reads 2023 back (its seeds); 2026 needs neither (2025 is nowhere)
        done = cli("archive", "--season", season, "--inputs", str(inputs), "--outputs", str(outputs),
                   "--archive", str(archive))
        assert done.returncode == 0, done.stderr
        (inputs / f"{season}-03-01-albi.xlsx").unlink()
    archived = sorted(str(p) for p in archive.glob("*/v1/inputs/**/*") if p.is_file())
    assert len(archived) == 4  # each season's clubs.xlsx and its tournament

    opened: Counter[str] = Counter()  # an archived file opened by this process
    hashed: Counter[str] = Counter()
    parsed: Counter[str] = Counter()  # handed to the workbook readers (forked workers open it there)

    def counted(counter, path):
        name = os.path.realpath(path) if isinstance(path, (str, os.PathLike)) else ""
        if name in archived:
            counter[name] += 1

    real_open, digest, read_all = builtins.open, file_hashes.content_digest, reading_pool.read_all

    def spied_open(file, *args, **kwargs):
        counted(opened, file)
        return real_open(file, *args, **kwargs)

    def spied_digest(path):
        counted(hashed, path)
        return digest(path)

    def spied_read_all(paths, *args, **kwargs):
        for path in paths:
            counted(parsed, path)
        return read_all(paths, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spied_open)
    monkeypatch.setattr(io, "open", spied_open)
    monkeypatch.setattr(file_hashes, "content_digest", spied_digest)
    monkeypatch.setattr(reading_pool, "read_all", spied_read_all)

    def rebuilt(name: str = "", club: str = "") -> str:
        if name:  # the build runs: something is new in inputs/
            write_tournament(inputs, name, day=f"{name[8:10]}/{name[5:7]}/2026", club=club)
        opened.clear(), hashed.clear(), parsed.clear()
        built = cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
        assert built.returncode == 0 and "rien n’a changé" not in built.stderr, built.stderr
        return built.stderr

    # The first build after the archiving (two workbooks left inputs/): both seasons scored again, intact.
    assert "archivée" not in rebuilt()
    assert set(hashed) == set(archived) and max(hashed.values()) == 1  # this outputs/ had never hashed them
    # read once each (the second season's clubs.xlsx, the same bytes as the first's, not at all)
    assert {name for name in archived if name.endswith("albi.xlsx")} <= set(parsed) and max(parsed.values()) == 1
    # That build changed a document already published (its workbooks gone): it kept no state, nor the
    # hashes; the next one hashes the archive again, once, and reads nothing (the sheets were kept).
    assert "archivée" not in rebuilt("2026-02-14-toulouse", "TLSE")
    assert max(hashed.values()) == 1 and not parsed
    for name, club in (("2026-03-14-montpellier", "MTPL"), ("2026-04-11-nimes", "NIME")):
        assert "archivée" not in rebuilt(name, club)
        assert (opened, hashed, parsed) == (Counter(), Counter(), Counter())
    pages = [p.read_text(encoding="utf-8") for p in (outputs / "site").glob("tournoi-*.html")]
    assert sum(">Points</th>" in page and ("Tournoi 2023" in page or "Tournoi 2024" in page)
               for page in pages) == 2  # the archived tournaments' points: their seasons scored

    workbook = archive / "2023" / "v1" / "inputs" / "2023-03-01-albi.xlsx"
    typed_anew(workbook)
    said = rebuilt("2026-05-09-perpignan", "PERP")
    assert f"note : {only_places(workbook, 2023)}\n" in said and "qu’elle lit, manque ou a été modifié" in said
    assert set(hashed) == {str(workbook)} and not parsed  # the one changed, hashed to be found changed


def with_2025_archived(tmp_path: Path) -> tuple[Path, Path, Path, Callable[..., str]]:
    """A league built, its season 2025 archived and its workbook gone from inputs/, built again (2025
    put back from the archive): its inputs, outputs and archive folders, and `built(*options, code=0)`,
    which builds it again and gives what the build said."""
    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    write_tournament(inputs, "2025-03-01-albi", day="01/03/2025", club="ALBI")
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")

    def built(*extra: str, code: int = 0) -> str:
        done = cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive), *extra)
        assert done.returncode == code, done.stderr
        return done.stderr

    built()
    assert cli("archive", "--season", "2025", "--inputs", str(inputs), "--outputs", str(outputs),
               "--archive", str(archive)).returncode == 0
    (inputs / "2025-03-01-albi.xlsx").unlink()
    assert "la saison 2025 n’est pas dans" in built()  # put back from the archive
    return inputs, outputs, archive, built


def test_a_build_that_puts_a_season_back_reads_and_hashes_each_workbook_of_inputs_once(tmp_path, monkeypatch):
    """`reportgen build` with season N−1 in the archive only: inputs/ is read to know its seasons,
    then the league is built from a copy with N−1 put back. Both through the build's read cache, and
    the copy known by the digests it was put together with: no workbook of inputs/ parsed again by a
    rebuild, no file of the copy hashed (each was, at every build: a copy's inodes are new), and the
    build's state still recorded (the next build finds nothing changed)."""

    from reportgen.ingest import file_hashes, reading_pool

    inputs, outputs, archive, built = with_2025_archived(tmp_path)
    # That build changed documents already published (their workbook gone): it kept no state nor
    # read cache; the next one with a new workbook does.
    write_tournament(inputs, "2026-02-14-toulouse", day="14/02/2026", club="TLSE")
    built()

    hashed: Counter[str] = Counter()
    parsed: Counter[str] = Counter()
    digest, read_all = file_hashes.content_digest, reading_pool.read_all

    def spied_digest(path):
        hashed[str(path)] += 1
        return digest(path)

    def spied_read_all(paths, *args, **kwargs):
        parsed.update(os.path.basename(path) for path in paths)
        return read_all(paths, *args, **kwargs)

    monkeypatch.setattr(file_hashes, "content_digest", spied_digest)
    monkeypatch.setattr(reading_pool, "read_all", spied_read_all)
    write_tournament(inputs, "2026-03-14-montpellier", day="14/03/2026", club="MTPL")
    said = built()
    assert "la saison 2025 n’est pas dans" in said
    assert parsed == Counter({"2026-03-14-montpellier.xlsx": 1})  # the new one, once; the others from the cache
    # of the league's files, the new one alone hashed: not the copy (the outputs it changed are)
    assert [name for name in hashed if not name.startswith(str(outputs))] == [str(inputs / "2026-03-14-montpellier.xlsx")]
    page = (outputs / "grand-sud" / "2026").glob("classement-2026-03-14.html")
    assert next(page).read_text(encoding="utf-8")  # the new tournament's bulletin, built from the copy
    assert "rien n’a changé" in built()  # the state recorded: the copy's files as it found them


def counting_parses(monkeypatch) -> Counter[str]:
    """The Grand Sud's parses from now on, counted by workbook label."""
    parses: Counter[str] = Counter()
    grand_sud = circuits.CIRCUITS["grand-sud"]
    parse = grand_sud.parse

    def counted(workbook, *args):
        parses[workbook.label] += 1
        return parse(workbook, *args)

    monkeypatch.setattr(grand_sud, "parse", counted)
    return parses


def test_a_rebuild_that_puts_a_season_back_parses_each_workbook_once(tmp_path, monkeypatch):
    """inputs/ is read for its seasons alone (`pipeline.circuit_events`), then the league from the
    copy with N−1 put back: each parse of the first reading is handed to the second
    (pipeline/parsed.py), so a rebuild parses each workbook once (twice each in the thirty-third
    round, and the archived season's twice more for the site). What a handed parse found is said as
    its own would be: rows hidden in Excel once, a club the directory lacks once."""

    from tests.test_hidden_in_excel import PLAYERS, hide

    inputs, outputs, archive, built = with_2025_archived(tmp_path)

    parses = counting_parses(monkeypatch)
    hide(write_tournament(inputs, "2026-02-14-toulouse", day="14/02/2026", club="TLSE", results=PLAYERS), rows=(5,))
    said = built()
    assert "la saison 2025 n’est pas dans" in said
    assert parses == Counter({"2025-03-01-albi.xlsx": 1, "2026-01-10-carcassonne.xlsx": 1,
                              "2026-02-14-toulouse.xlsx": 1})
    assert said.count("2026-02-14-toulouse.xlsx : la ligne 5 de la feuille « Résultats » est masquée") == 1
    page = html.unescape((outputs / "verification.html").read_text(encoding="utf-8"))
    assert re.sub(r"[\xa0\u202f]", " ", page).count("2026-02-14-toulouse.xlsx : la ligne 5 de la feuille") == 1

    parses.clear()
    write_tournament(inputs, "2026-03-14-nowhere", day="14/03/2026", club="XXXX")
    said = built(code=1)
    assert set(parses.values()) == {1} and len(parses) == 4
    assert said.count("« XXXX »") == 1  # the workbook's problem, once


def test_a_parse_is_handed_only_to_a_load_that_reads_as_the_first_reading_did(tmp_path, monkeypatch):
    """The parse a first reading keeps (`circuit_events`) is taken by the load that follows only when
    everything a parse consults is the same (`Reading`: the day too), and once; a directory said
    broken is not the same one, though `==` finds them equal (`broken` is left out of it)."""
    import datetime as dt

    from reportgen.circuits.base import Reading
    from reportgen.ingest.directories import ClubDirectory
    from reportgen.ingest.read_cache import ReadCache
    from reportgen.pipeline import circuit_events, load, parsed
    from reportgen.render.cache import code_fingerprint, inputs_digest
    from tests.builders import CLUBS

    write_clubs(tmp_path)
    write_tournament(tmp_path, "2026-01-10-carcassonne", day="10/01/2026")
    write_tournament(tmp_path, "2026-02-14-toulouse", day="14/02/2026", club="TLSE")
    parses = counting_parses(monkeypatch)
    reads, digests = ReadCache(None, code_fingerprint()), inputs_digest(tmp_path)
    events = circuit_events(tmp_path, ["grand-sud"], TODAY, reads, digests)
    assert [event.id for event in events["grand-sud"]] == ["2026-01-10-carcassonne.xlsx", "2026-02-14-toulouse.xlsx"]
    assert sum(parses.values()) == 2 and len(reads.parsed) == 2
    league = load(tmp_path, TODAY, reads=reads, digests=digests)
    assert sum(parses.values()) == 2 and not reads.parsed  # taken, once
    assert [event.id for event in league.circuits["grand-sud"].events] == [event.id for event in events["grand-sud"]]
    load(tmp_path, TODAY, reads=reads, digests=digests)
    assert sum(parses.values()) == 4  # none left to take: parsed again

    circuit_events(tmp_path, ["grand-sud"], TODAY, reads, digests)
    load(tmp_path, TODAY + dt.timedelta(days=1), reads=reads, digests=digests)  # another day: parsed again
    assert sum(parses.values()) == 8 and not reads.parsed

    broken = ClubDirectory(CLUBS.clubs, broken=True)
    assert broken == CLUBS and not parsed.same(Reading(broken, TODAY), Reading(CLUBS, TODAY))
    assert parsed.same(Reading(ClubDirectory(CLUBS.clubs), TODAY), Reading(CLUBS, TODAY))


def test_a_rebuild_with_nothing_changed_in_archive_neither_reads_nor_scores_its_seasons_again(tmp_path, monkeypatch):
    """The archived seasons' records for the site kept by the key of every file of archive/
    (outputs/.reportgen/archive-site, delivery/site_archive_kept.py): a build with only inputs/
    changed takes them back with their notes; anything changed in archive/ (its database, a workbook)
    makes them again, never a stale page; not the revisions of calendrier.ics the build keeps there
    (each tournament added is an event of calendrier.ics: a revision)."""
    import sqlite3

    from reportgen.delivery import site_archive

    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [["Date", "Circuit", "Club", "Nom", "Lieu"],
                                                               ["12/12/2026", "grand-sud", "", "Finale", "Albi"]]})
    write_tournament(inputs, "2024-03-01-albi", day="01/03/2024", club="ALBI")
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")
    assert cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive)).returncode == 0
    done = cli("archive", "--season", "2024", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    (inputs / "2024-03-01-albi.xlsx").unlink()  # 2026 does not need 2024: it is not read back

    made: list[str] = []
    archived_rankings = site_archive.archived_rankings

    def counted(*args, **kwargs):
        made.append("made")
        return archived_rankings(*args, **kwargs)

    monkeypatch.setattr(site_archive, "archived_rankings", counted)
    clubs = iter(["TLSE", "MTPL", "PERP", "NIME", "ALBI", "CARC"])

    def rebuilt() -> tuple[list[str], str]:
        """A tournament added to inputs/ (the build runs, a club's first of the season); the notes on
        the archive and the archived tournament's page."""
        made.clear()
        club = next(clubs)
        write_tournament(inputs, f"2026-02-14-{club.lower()}", day="14/02/2026", club=club)
        built = cli("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive))
        assert built.returncode == 0 and "rien n’a changé" not in built.stderr, built.stderr
        pages = [p.read_text(encoding="utf-8") for p in (outputs / "site").glob("tournoi-*.html")]
        return ([line for line in built.stderr.splitlines() if "archivée" in line],
                next(page for page in pages if "Tournoi 2024-03-01-albi" in page))

    said, page = rebuilt()
    assert made == ["made"] and said == [] and "DUPONT Jean" in page and ">Points</th>" in page
    revisions = (archive / ".calendar-revisions.json").read_bytes()
    assert rebuilt() == (said, page) and made == []  # taken back: the same page
    assert (archive / ".calendar-revisions.json").read_bytes() != revisions  # the calendar revised meanwhile

    database = sqlite3.connect(archive / "league.sqlite")
    with database:
        database.execute("UPDATE player SET name = 'DUPONT Jeanne' WHERE name = 'DUPONT Jean'")
    database.close()
    said, page = rebuilt()
    assert made == ["made"] and "DUPONT Jeanne" in page
    assert rebuilt() == (said, page) and made == []

    workbook = archive / "2024" / "v1" / "inputs" / "2024-03-01-albi.xlsx"
    typed_anew(workbook)
    said, page = rebuilt()
    assert made == ["made"] and said == [f"note : {only_places(workbook, 2024)}"] and ">Points</th>" not in page
    assert rebuilt() == (said, page) and made == []  # its note said again
    assert str(workbook) in html.unescape((outputs / "verification.html").read_text(encoding="utf-8"))


def test_an_archived_pool_tournament_keeps_its_days(tmp_path, monkeypatch):
    """A pool tournament's ranking is dated by the day its last round started; the site names it by
    its days, from its workbook's Date (site/days.py). Archived, its record is the one the site
    published while it was in inputs/: its first day from the archived tournament's date."""
    from reportgen.delivery import archive as archiving
    from reportgen.pipeline import build
    from reportgen.render import pdf as pdf_render
    from tests.test_incremental_build import stand_in

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])
    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    write_clubs(inputs)
    (inputs / "poules").mkdir()
    shutil.copy(Path(__file__).parents[1] / "examples" / "league" / "poules" / "2026-09-05-open-automne.xlsx",
                inputs / "poules")
    assert build(inputs, outputs, TODAY).ok
    (published,) = [r for r in data.read(outputs / "poules") if r["kind"] == "event"]
    assert (published["start"], published["date"]) == ("2026-09-05", "2026-10-06")
    archiving.archive_season(inputs, outputs, archive, 2026, "", TODAY,
                             dt.datetime.combine(TODAY, dt.time(10), dt.timezone.utc))
    (archived,) = [r for r in archived_rankings(archive)["poules"] if r["kind"] == "event"]
    days = ("name", "start", "date", "status")  # what the site names it by (a title and a place aside)
    assert {key: archived.get(key) for key in days} == {key: published[key] for key in days}


# -- a Tantrix player left out of an archived event -------------------------------------------------

DUPUY, LEFT_OUT = "L:10185", "hors classement\u00a0: 3 parties perdues par forfait (règle 7)"


@pytest.fixture(scope="module")
def tantrix_archived(tmp_path_factory):
    """The example's Tantrix season 2026 built and archived: DUPUY Frédéric left out of the Week-end
    Tantrix de printemps (3 games lost by default, rule 7)."""
    from tests.test_republished_after_an_upgrade import EXAMPLE

    root = tmp_path_factory.mktemp("tantrix-archived")
    inputs = root / "inputs"
    shutil.copytree(EXAMPLE / "tantrix", inputs / "tantrix")
    for name in ("clubs.xlsx", "joueurs.xlsx"):
        shutil.copy(EXAMPLE / name, inputs / name)
    for command in ("build", "archive"):
        done = cli(command, *(["--season", "2026"] if command == "archive" else []), "--inputs", str(inputs),
                   "--outputs", str(root / "outputs"), "--archive", str(root / "archive"))
        assert done.returncode == 0, done.stderr
    return root


def left_out_lines(archive: Path, root: Path, tmp_path: Path) -> list[list[str]]:
    """The cells of DUPUY's page's line for the Week-end Tantrix de printemps, its season archived
    and no longer published."""
    later = later_outputs(root / "outputs", tmp_path, 2026, "tantrix")
    pages = Site(later, list(circuits.CIRCUITS), "Ligue", archived=archived_rankings(archive)).pages()
    text = html.unescape(pages[f"site/{page_name('joueur', DUPUY)}"].decode("utf-8"))
    assert "saison 2026" in text
    rows = [row for row in re.findall(r'<tr role="row">.*?</tr>', text, re.S) if "Week-end Tantrix de printemps" in row]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in rows]


def test_a_player_left_out_of_an_archived_tantrix_event_keeps_his_line_saying_why(tantrix_archived, tmp_path):
    """His page had the line while the season was in inputs/ (tests/test_site.py), and none once the
    season was archived: the database kept no player left out. It keeps them (`ranking_left_out`,
    schema 9), and the archived season's page says it as the current one did, even when its
    workbooks can no longer be scored again (then the database alone speaks)."""
    import sqlite3

    archive = tantrix_archived / "archive"
    kept = sqlite3.connect(archive / "league.sqlite").execute(
        "SELECT player_id, player, why FROM ranking_left_out").fetchall()
    assert kept == [(DUPUY, "DUPUY Frédéric", "hors classement : 3 parties perdues par forfait (règle 7)")]
    (line,) = left_out_lines(archive, tantrix_archived, tmp_path / "intact")
    assert line[-2:] == ["", LEFT_OUT], line
    # a workbook of the copy changed: its pages show what the database keeps, the line with it
    damaged = tmp_path / "archive"
    shutil.copytree(archive, damaged)
    typed = next(damaged.rglob("2026-10-10-coupe-d-automne.xlsx"))
    typed.chmod(0o644)
    typed.write_bytes(typed.read_bytes() + b"\0")
    (line,) = left_out_lines(damaged, tantrix_archived, tmp_path / "damaged")
    assert line[-2:] == ["", LEFT_OUT], line


def test_a_schema_8_database_is_upgraded_and_its_copy_s_left_out_players_come_from_its_workbooks(
        tantrix_archived, tmp_path):
    """A copy archived by schema 8 kept no player left out: its database gets the table (empty for
    it), schema 9, and the season's pages name him all the same, from its workbooks scored again."""
    import sqlite3

    from reportgen.delivery import database

    archive = tmp_path / "archive"
    shutil.copytree(tantrix_archived / "archive", archive)
    old = sqlite3.connect(archive / "league.sqlite")
    old.executescript("DROP TABLE ranking_left_out; PRAGMA user_version = 8;")
    old.close()
    connection = database.connect(archive, create=False)
    assert connection is not None
    with connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
        assert connection.execute("SELECT count(*) FROM ranking_left_out").fetchone()[0] == 0
    connection.close()
    (line,) = left_out_lines(archive, tantrix_archived, tmp_path)
    assert line[-2:] == ["", LEFT_OUT], line
