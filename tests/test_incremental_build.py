"""A build costs only what changed (issue « Performance »): with nothing new it reads, scores,
renders and writes nothing; one new workbook is the only one read, and only the documents it changes
are rendered; a changed setting, template or code, or an output deleted or edited, is built again;
whatever was skipped, the outputs are byte for byte those of a full build. Also: the PDF pool gives
the bytes of one process, the benchmark's leagues are the same from one generation to the next, and
the progress display. No timing here: `make bench` measures time (docs/performance.md)."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reportgen import pipeline
from reportgen.circuits.grand_sud import documents as gs_documents
from reportgen.commands.progress import BuildProgress
from reportgen.delivery.archive_key import read_by_build
from reportgen.ingest import reading_pool, text
from reportgen.ingest.file_hashes import HASHES, FileHashes
from reportgen.ingest.read_cache import FOLDER, READS, ReadCache
from reportgen.ingest.workbook import Sheet
from reportgen.model import Messages
from reportgen.pipeline import build, building
from reportgen.pipeline.state import STATE as STATE_FILE
from reportgen.render import cache
from reportgen.render import pdf as pdf_render
from reportgen.site.public_copies import Masking
from tests.builders import TODAY, small_league, write_tournament, write_workbook
from tests.test_hostile_files import snapshot

STATE = f"{FOLDER}/{STATE_FILE}"


def stand_in(page: str) -> bytes:
    return b"%PDF-1.7 stand-in " + hashlib.sha256(page.encode("utf-8")).hexdigest().encode()


@pytest.fixture
def stub_pdfs(monkeypatch) -> list[str]:
    """PDFs as a pure function of their HTML, without WeasyPrint: the pages rendered, in order."""
    rendered: list[str] = []

    def one(page, day=None, templates=None):
        rendered.append(page)
        return stand_in(page)

    monkeypatch.setattr(pdf_render, "render_pdf", one)
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [one(p) for p, _ in pages])
    return rendered


@pytest.fixture
def league(tmp_path, stub_pdfs) -> tuple[Path, Path]:
    """The small league, built once (PDF stand-ins): (inputs, outputs)."""
    inputs = small_league(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    return inputs, outputs


def new_tournament(inputs: Path) -> Path:
    return write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"],
        [3, "NOUVEAU", "Joueur", "", "Albi"]])


def built(result: pipeline.BuildResult, outputs: Path) -> set[str]:
    return {path.relative_to(outputs).as_posix() for files in result.rendered.values() for path in files}


def published(name: str) -> bool:
    """A circuit's file: not the site's pages (reportgen/site/) nor the secretary's page (and its
    copy beside the state), which a build writes when their bytes change, and which are not
    rendered documents."""
    return name not in ("index.html", "verification.html") and not name.startswith(("site/", f"{FOLDER}/"))


def changed(before: dict[str, bytes], after: dict[str, bytes], suffixes=(".html", ".pdf", ".xlsx")) -> set[str]:
    return {name for name, data in after.items() if name.endswith(suffixes) and before.get(name) != data
            and published(name)}


# -- nothing changed -------------------------------------------------------------------------------

def test_nothing_changed_reads_scores_renders_and_writes_nothing(small_league_copy, monkeypatch):
    before = snapshot(small_league_copy.outputs)

    def refused(*args, **kwargs):
        raise AssertionError("nothing should be read, scored or rendered")

    for module, name in ((building, "load"), (building, "score"), (pdf_render, "render_many"),
                         (reading_pool, "read_all")):
        monkeypatch.setattr(module, name, refused)
    said: list[str] = []
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY, progress=Messages(said.append))
    assert result.unchanged and result.ok and result.published == {"grand-sud": []} and result.rendered == {}
    assert result.notices == small_league_copy.result.notices  # said again, as the full build said them
    assert snapshot(small_league_copy.outputs) == before
    assert any("rien n’a changé" in message for message in said)


def test_another_process_finds_nothing_changed_either(small_league_copy):
    """The keys hold across processes (other hash seeds): a fresh `reportgen build` has nothing to do."""
    before = snapshot(small_league_copy.outputs)
    code = ("import datetime as dt, sys; from pathlib import Path; from reportgen.pipeline import build\n"
            "r = build(Path(sys.argv[1]), Path(sys.argv[2]), dt.date.fromisoformat(sys.argv[3]))\n"
            "print(r.unchanged, sorted(r.published))")
    done = subprocess.run([sys.executable, "-c", code, small_league_copy.inputs, small_league_copy.outputs,
                           TODAY.isoformat()], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert done.stdout.split() == ["True", "['grand-sud']"], done.stderr
    assert snapshot(small_league_copy.outputs) == before


def test_a_check_between_two_builds_costs_no_build(small_league_copy, monkeypatch):
    """`make check` then `make`: check rewrites the secretary's page (dated the day it ran); the
    build finds nothing else changed, puts its own page back and reads nothing."""
    from typer.testing import CliRunner

    from reportgen.cli import app

    outputs = small_league_copy.outputs
    before = snapshot(outputs)
    checked = CliRunner().invoke(app, ["check", "--inputs", str(small_league_copy.inputs), "--outputs", str(outputs)])
    assert checked.exit_code == 0, checked.output
    assert (outputs / "verification.html").read_bytes() != before["verification.html"]  # check's page

    def refused(*args, **kwargs):
        raise AssertionError("nothing should be read or scored")

    monkeypatch.setattr(building, "load", refused)
    said: list[str] = []
    result = build(small_league_copy.inputs, outputs, TODAY, progress=Messages(said.append))
    assert result.unchanged and result.notices == small_league_copy.result.notices
    assert snapshot(outputs) == before
    assert any("seule la page de vérification" in message for message in said)


def test_a_secretary_page_edited_without_its_copy_builds_in_full(league):
    inputs, outputs = league
    (outputs / FOLDER / "verification.html.copy").unlink()
    (outputs / "verification.html").write_text("<p>modifiée</p>")
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and result.ok
    assert "<p>modifiée</p>" not in (outputs / "verification.html").read_text()
    assert build(inputs, outputs, TODAY).unchanged


def test_another_day_builds_again_but_writes_nothing_that_did_not_change(league, stub_pdfs):
    inputs, outputs = league
    before = snapshot(outputs)
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))
    assert not result.unchanged and result.rendered == {"grand-sud": []}
    assert changed(before, snapshot(outputs)) == set()


def test_a_league_put_together_from_the_archive_is_known_by_its_folders(league, tmp_path, stub_pdfs):
    """`reportgen build` with an archive builds a copy of inputs/ with the archived seasons put back;
    the next one knows from inputs/ and archive/ alone that nothing changed, without putting the
    copy together again (pipeline.unchanged)."""
    inputs, outputs = league
    archive = tmp_path / "archive"
    (archive / "2025" / "v1" / "inputs").mkdir(parents=True)
    (archive / "2025" / "v1" / "inputs" / "2025-01-01-albi.xlsx").write_bytes(b"archived")
    copy = tmp_path / "copy"
    shutil.copytree(inputs, copy)  # what league_folder would put together
    assert pipeline.unchanged([inputs, archive], outputs, TODAY) is None  # the state knows copy/ only as inputs

    def with_archive():
        read = read_by_build(archive, outputs, FileHashes(outputs))  # what it reads of archive/, as the command's
        return build(copy, outputs, TODAY, origin=[inputs, archive], archive_read=read)

    # built once with the archive (its key names what it reads there), then the same content: the same key
    assert not with_archive().unchanged and with_archive().unchanged
    result = pipeline.unchanged([inputs, archive], outputs, TODAY)
    assert result is not None and result.unchanged and result.published == {"grand-sud": []}
    (archive / "2025" / "v1" / "inputs" / "2025-01-01-albi.xlsx").write_bytes(b"archived, then changed")
    assert pipeline.unchanged([inputs, archive], outputs, TODAY) is None
    (archive / "2025" / "v1" / "inputs" / "2025-01-01-albi.xlsx").write_bytes(b"archived")
    assert pipeline.unchanged([inputs, archive], outputs, TODAY + dt.timedelta(days=1)) is None


# -- one new workbook --------------------------------------------------------------------------------

def test_one_new_workbook_is_the_only_one_read_and_renders_exactly_what_it_changes(league, reads, stub_pdfs,
                                                                                    tmp_path):
    inputs, outputs = league
    before = snapshot(outputs)
    reads.clear()
    stub_pdfs.clear()
    new_tournament(inputs)
    result = build(inputs, outputs, TODAY)
    after = snapshot(outputs)
    assert result.ok and not result.unchanged
    assert reads == ["2026-03-01-albi.xlsx"]  # the others come from the read cache, unchanged
    assert built(result, outputs) == changed(before, after) != set()
    assert len(stub_pdfs) == len({name for name in changed(before, after) if name.endswith(".pdf")})
    assert "grand-sud/2026/classement-2026-01-10.html" not in built(result, outputs)  # an earlier bulletin
    # Byte for byte what a full build of the same inputs gives, state and manifests included.
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert snapshot(fresh) == after


@pytest.fixture
def rows_made(monkeypatch) -> dict[str, list[str]]:
    """The Grand Sud rankings whose bulletin's rows, or published rows, were made, by the ranking's
    date or « final », and the seasons whose annex's points and place history were (the real
    functions, each call noted)."""
    made: dict[str, list[str]] = {"bulletin_rows": [], "published_rows": [], "_point_rows": [], "_history_rows": []}
    for name, calls in made.items():
        def noted(*args, real=getattr(gs_documents, name), calls=calls, name=name):
            ranking = args[-1]  # the ranking, or the season's final one (an annex's)
            calls.append(str(ranking.season) if name.startswith("_") else
                         "final" if ranking.final else ranking.date.isoformat())
            return real(*args)

        monkeypatch.setattr(gs_documents, name, noted)
    return made


def test_a_ranking_s_rows_are_made_only_where_they_are_written(tmp_path, stub_pdfs, rows_made):
    """A Grand Sud bulletin's rows (a cell per player and tournament) are made when it is rendered,
    once for its HTML and its PDF's, a published ranking's rows when its CSV and site record are
    written (the final ranking's once, for its CSV and its annex), and an annex's points and place history when
    it is written: in a rebuild, only for what one new tournament changes; the others are known by
    their ranking's scoring digest, an annex by its rankings' and its points table's."""
    inputs = small_league(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    bulletins = sorted(path.name for path in (outputs / "grand-sud").glob("*/classement-*.html"))
    csvs = sorted(path.name for path in (outputs / "grand-sud").glob("*/classement-*.csv"))
    assert len(bulletins) == 3 and sorted(rows_made["bulletin_rows"]) == sorted(set(rows_made["bulletin_rows"]))
    assert len(rows_made["bulletin_rows"]) == len(bulletins) and len(csvs) == 4  # 2026's final: a CSV, no bulletin
    # each season's final ranking once, its CSV's rows its annex's (they were made twice)
    assert sorted(rows_made["published_rows"]) == sorted(["2025-06-01", "2026-01-10", "final", "final"])
    assert sorted(rows_made["_point_rows"]) == sorted(rows_made["_history_rows"]) == ["2025", "2026"]
    for calls in rows_made.values():
        calls.clear()
    new_tournament(inputs)
    result = build(inputs, outputs, TODAY)
    rendered = {path.name for path in result.rendered["grand-sud"] if path.suffix == ".html"}
    assert rendered == {"classement-2026-03-01.html"}
    assert rows_made["bulletin_rows"] == ["2026-03-01"]
    # the new dated ranking, 2026's final one (its CSV, record and annex) and 2025's (its annex's key)
    assert sorted(rows_made["published_rows"]) == ["2026-03-01", "final", "final"]
    assert rows_made["_point_rows"] == rows_made["_history_rows"] == ["2026"]  # 2025's annex taken from disk
    assert "grand-sud/2025/annexe-grand-sud-2025.xlsx" not in built(result, outputs)


def test_with_names_to_mask_a_rebuild_makes_no_more_rows_and_its_public_copies_are_a_full_build_s(
        tmp_path, stub_pdfs, rows_made):
    """A league whose players chose `initiales` and `non` (site/public_copies.py): each public copy
    the last build made from the same whole file and the same names is known by its key, not masked
    again (masking reads every row). One new tournament makes the rows it would make without
    copies, and every file, copies included, is a full build's."""
    inputs = small_league(tmp_path / "inputs")
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Publication"],
        ["1001", "DUPONT", "Jean", "Carcassonne", "", "initiales"], ["1002", "MARTIN", "Paul", "Albi", "", "non"]]})
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    copies = sorted(path.name for path in (outputs / "grand-sud" / "public").rglob("*.*"))
    assert "classement-2026-01-10.html" in copies and "classement-2026-01-10.csv" in copies
    for calls in rows_made.values():
        calls.clear()
    new_tournament(inputs)
    result = build(inputs, outputs, TODAY)
    assert result.ok
    assert rows_made["bulletin_rows"] == ["2026-03-01"]
    assert sorted(rows_made["published_rows"]) == ["2026-03-01", "final", "final"]
    assert rows_made["_point_rows"] == rows_made["_history_rows"] == ["2026"]
    rendered = {path.relative_to(outputs).as_posix() for path in result.rendered["grand-sud"]}
    assert {"grand-sud/public/2026/classement-2026-03-01.html", "grand-sud/public/2026/annexe-grand-sud-2026.xlsx"} \
        <= rendered
    assert not rendered & {"grand-sud/public/2026/classement-2026-01-10.html",
                           "grand-sud/public/2025/annexe-grand-sud-2025.xlsx"}
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if name.startswith("grand-sud/")} == \
        {name: data for name, data in snapshot(outputs).items() if name.startswith("grand-sud/")}


def hiding_one_in_no_ranking(tmp_path: Path) -> tuple[Path, Path]:
    """The small league with a player to hide (`initiales`) who played only a tournament « hors
    circuit », which no ranking counts, built once: its inputs and outputs."""
    inputs = small_league(tmp_path / "inputs")
    write_workbook(inputs / "joueurs.xlsx", {"Joueurs": [
        ["Licence", "Nom", "Prénom", "Club", "Autres graphies", "Publication"],
        ["", "PROVENCAL", "Marius", "Marseille", "", "initiales"]]})
    outputs = tmp_path / "outputs"
    assert build(inputs, outputs, TODAY).ok
    return inputs, outputs


def test_a_file_found_naming_no_one_to_hide_is_not_masked_again(tmp_path, stub_pdfs, monkeypatch):
    """The player to hide played only a tournament « hors circuit », which no ranking counts: the
    first build masks every file and finds him in none (its manifest's `unmasked`: those files'
    copies' keys, no copy); the rebuild masks only the files one new tournament changes, and its
    files are a full build's."""
    inputs, outputs = hiding_one_in_no_ranking(tmp_path)
    assert not (outputs / "grand-sud" / "public").exists()
    manifest = json.loads((outputs / "grand-sud" / "publications.json").read_bytes())
    assert len(manifest["unmasked"]) == 3 + 4 + 2  # each bulletin, CSV and annex: no copy
    masked: list[str] = []
    for kind in ("document", "ranking", "annex"):
        def noted(self, whole, real=getattr(Masking, kind)):
            masked.append(whole.path)
            return real(self, whole)

        monkeypatch.setattr(Masking, kind, noted)
    new_tournament(inputs)
    assert build(inputs, outputs, TODAY).ok
    grand_sud = [path for path in masked if path.startswith(("2025/classement", "2026/classement", "2025/annexe",
                                                                   "2026/annexe"))]
    assert sorted(grand_sud) == sorted([
        "2026/classement-2026-03-01", "2026/classement-2026-03-01", "2026/classement-provisoire-2026",
        "2026/annexe-grand-sud-2026"])  # the new bulletin and its ranking, 2026's final ranking, its annex
    assert not (outputs / "grand-sud" / "public").exists()
    assert len(json.loads((outputs / "grand-sud" / "publications.json").read_bytes())["unmasked"]) == 4 + 5 + 2
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if name.startswith("grand-sud/")} == \
        {name: data for name, data in snapshot(outputs).items() if name.startswith("grand-sud/")}


def test_one_tournament_s_results_changed_render_exactly_the_bulletins_they_change(league, stub_pdfs, tmp_path):
    """A result corrected in the tournament of 10 January 2026: its bulletin and the later one of
    the season (1 March) are rendered again, their grids changed; those of 2025 are taken from disk
    (each bulletin's key by its grid, render/cache.py `document_key`, is the one recorded), and the
    outputs are those of a full build."""
    inputs, outputs = league
    new_tournament(inputs)
    assert build(inputs, outputs, TODAY).ok
    before = snapshot(outputs)
    write_tournament(inputs, "2026-01-10-toulouse", day="10/01/2026", club="TLSE", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "<script>alert(1)</script>", "Mallory", "", "Toulouse"]])
    result = build(inputs, outputs, TODAY)
    after = snapshot(outputs)
    assert result.ok and not result.unchanged
    bulletins = {name for name in built(result, outputs) if name.startswith("grand-sud/") and name.endswith(".html")}
    assert bulletins == {"grand-sud/2026/classement-2026-01-10.html", "grand-sud/2026/classement-2026-03-01.html"}
    assert {"grand-sud/2025/classement-2025-06-01.html", "grand-sud/2025/classement-final-2025.html"} <= set(before)
    assert built(result, outputs) == changed(before, after)
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    # The circuit's files the same bytes, manifest included (the secretary's page and the site's
    # page of corrections say what changed since the last build: not those of a first build).
    assert {name: data for name, data in snapshot(fresh).items() if name.startswith("grand-sud/")} == \
        {name: data for name, data in after.items() if name.startswith("grand-sud/")}


def test_the_season_s_ranking_renamed_at_its_end_is_a_full_build_s_either_way(league, tmp_path, stub_pdfs):
    """The season's ranking is `classement-provisoire-2026` while the season runs and
    `classement-final-2026` once it is over: the same rows under another path. Its CSV, site record
    and public-copy keys are by path, so a rebuild on each side of the change (the year over, then a
    season closed, then opened again) gives a full build's files, nothing left of the other name, but
    the manifest's record of the final bulletin withdrawn."""
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml

    inputs, outputs = league
    steps = [(dt.date(2027, 1, 2), None, "final"), (TODAY, {2026: dt.date(2026, 11, 20)}, "final"),
             (TODAY, {}, "provisoire")]
    for number, (day, closed, name) in enumerate(steps):
        if closed is not None:
            (inputs / SEASONS_FILE).write_bytes(seasons_toml(closed))
        result = build(inputs, outputs, day)
        assert result.ok and not result.unchanged, number
        after = snapshot(outputs)
        seasonal = sorted(path for path in after if path.startswith("grand-sud/2026/classement-") and "-2026." in path
                          and "/classement-2026-" not in path)
        assert seasonal == ([f"grand-sud/2026/classement-final-2026.{kind}" for kind in ("csv", "html", "pdf")]
                            if name == "final" else ["grand-sud/2026/classement-provisoire-2026.csv"]), number
        data = json.loads(after["grand-sud/site.json"])
        finals = {r["path"] for r in data["rankings"]
                  if (r["season"], r["kind"], r["status"]) == (2026, "season", "final")}
        assert finals == {f"2026/classement-{name}-2026"}, number
        fresh = tmp_path / f"fresh-{number}"
        assert build(inputs, fresh, day).ok
        # the manifest alone keeps what the publication withdrew (render/changes.py `withdrawn`), history
        # a full build cannot know: opened again, the final bulletin, until it is published again
        manifest = json.loads(after.pop("grand-sud/publications.json"))
        assert [record["path"] for record in manifest.pop("withdrawn", [])] == (
            ["2026/classement-final-2026"] if name == "provisoire" else []), number
        assert manifest == json.loads(snapshot(fresh)["grand-sud/publications.json"]), number
        assert {path: data for path, data in snapshot(fresh).items()
                if path.startswith("grand-sud/") and path != "grand-sud/publications.json"} == \
            {path: data for path, data in after.items() if path.startswith("grand-sud/")}, number


def test_notices_already_written_are_taken_from_disk(tmp_path, stub_pdfs):
    """The example league's pool tournaments write their notices (.eml): a new Grand Sud workbook
    renders none of them again, and they stay byte for byte what a full build gives."""
    from tests.conftest import EXAMPLE_INPUTS

    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    shutil.copytree(EXAMPLE_INPUTS, inputs)
    first = build(inputs, outputs, TODAY)
    notices = {name for name in snapshot(outputs) if name.endswith(".eml")}
    assert first.ok and notices and notices <= built(first, outputs)
    write_tournament(inputs / "2026", "2026-11-21-albi", day="21/11/2026", club="ALBI", results=[
        [1, "PROVENCAL", "Marius", "", "Marseille"], [2, "DUPONT", "Jean", "1001", "Carcassonne"]])
    again = build(inputs, outputs, TODAY)
    assert again.ok and not notices & built(again, outputs)
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if name.endswith(".eml")} == \
        {name: data for name, data in snapshot(outputs).items() if name.endswith(".eml")}


def test_a_build_from_scratch_and_one_from_the_caches_give_the_same_bytes(league, tmp_path, stub_pdfs):
    """The same league built again in an empty folder (its workbooks from the read cache of none):
    the same files, state and manifests included."""
    inputs, outputs = league
    again = tmp_path / "again"
    assert build(inputs, again, TODAY).ok
    assert snapshot(again) == snapshot(outputs)


# -- settings, code, templates, outputs --------------------------------------------------------------

def test_a_changed_setting_builds_again_and_renders_only_what_it_changes(league, stub_pdfs):
    inputs, outputs = league
    (inputs / "reportgen.toml").write_text("# une ligne de commentaire\n", encoding="utf-8")
    result = build(inputs, outputs, TODAY)
    # nothing rendered; only the manifest, which records the settings it was made from (render/changes.py)
    assert not result.unchanged and result.rendered == {"grand-sud": []}
    assert result.published == {"grand-sud": [outputs / "grand-sud" / "publications.json"]}
    assert build(inputs, outputs, TODAY).unchanged
    before = snapshot(outputs)
    (inputs / "reportgen.toml").write_text('[league]\nname = "Ligue du Grand Sud, édition test"\n', encoding="utf-8")
    result = build(inputs, outputs, TODAY)
    documents = {name for name in before if name.endswith((".html", ".pdf")) and published(name)}
    assert documents <= built(result, outputs)  # the league's name is on every bulletin
    assert all("édition test" in (outputs / name).read_text() for name in documents if name.endswith(".html"))


def test_changed_code_or_templates_render_every_document_again(league, stub_pdfs, monkeypatch):
    inputs, outputs = league
    before = snapshot(outputs)
    stub_pdfs.clear()
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "another version of reportgen or of its templates")
    result = build(inputs, outputs, TODAY)
    html = {name for name in before if name.endswith((".html", ".xlsx")) and published(name)}
    assert not result.unchanged and built(result, outputs) == html
    assert stub_pdfs == []  # the same HTML: the PDFs the manifest proves are kept
    assert changed(before, snapshot(outputs)) == set()


def test_the_code_fingerprint_sees_every_file_of_a_folder(tmp_path):
    (tmp_path / "templates").mkdir()
    template = tmp_path / "templates" / "bulletin.html.j2"
    template.write_text("{{ doc.title }}")
    first = cache.folders_digest([tmp_path / "templates"])
    template.write_text("{{ doc.title }} ")
    second = cache.folders_digest([tmp_path / "templates"])
    (tmp_path / "templates" / "__pycache__").mkdir()
    (tmp_path / "templates" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert first != second == cache.folders_digest([tmp_path / "templates"])


@pytest.mark.parametrize("damage", ["deleted", "edited", "added"])
def test_an_output_deleted_edited_or_added_by_hand_is_built_again(league, stub_pdfs, damage):
    inputs, outputs = league
    before = snapshot(outputs)
    bulletin = outputs / "grand-sud" / "2026" / "classement-2026-01-10"
    if damage == "deleted":
        bulletin.with_suffix(".pdf").unlink()
    elif damage == "edited":
        bulletin.with_suffix(".html").write_text("<p>modifié à la main</p>")
    else:
        (outputs / "grand-sud" / "2026" / "vieux-bulletin.pdf").write_bytes(b"%PDF stale")
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and result.ok
    assert snapshot(outputs) == before
    expected = {"deleted": {"grand-sud/2026/classement-2026-01-10.pdf"},
                "edited": {"grand-sud/2026/classement-2026-01-10.html"}, "added": set()}[damage]
    assert built(result, outputs) == expected
    assert build(inputs, outputs, TODAY).unchanged


def test_the_sites_icon_deleted_by_hand_is_written_again(league, stub_pdfs):
    # the state lists it (pipeline/state.py `ICON`), as the pages' fonts
    inputs, outputs = league
    icon = outputs / "favicon.ico"
    shipped = icon.read_bytes()
    icon.unlink()
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and result.ok and icon.read_bytes() == shipped
    assert build(inputs, outputs, TODAY).unchanged


# -- files known by their stat (ingest/file_hashes.py; its own tests: tests/test_file_hashes.py) -------

def known_by_their_stat(inputs: Path, outputs: Path) -> dict[str, list]:
    """Every file of the built league last modified an hour ago (old enough to be recorded), then a
    build that finds nothing changed: each file's hash is known by its stat from now on."""
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in [*inputs.rglob("*"), *outputs.rglob("*")]:
        if path.is_file():
            os.utime(path, ns=(hour_ago, hour_ago))
    assert build(inputs, outputs, TODAY).unchanged
    known = json.loads((outputs / FOLDER / HASHES).read_bytes())["files"]
    state = json.loads((outputs / STATE).read_bytes())
    assert {str(outputs / name) for name in state["outputs"]} | {str(path) for path in inputs.rglob("*.xlsx")} <= set(known)
    return known


def rewritten_keeping_size_and_mtime(path: Path, data: bytes) -> None:
    """Rewritten in place (the same inode), its size and mtime put back: only the ctime tells."""
    before = os.stat(path)
    assert len(data) == before.st_size and data != path.read_bytes()
    while os.stat(path).st_ctime_ns == before.st_ctime_ns:  # the kernel's clock ticks every few ms
        with open(path, "r+b") as stream:
            stream.write(data)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def test_a_second_build_with_nothing_changed_writes_nothing_at_all(league):
    """The first build that finds nothing changed records the hashes of the outputs the last one
    had just written; the next one writes nothing, not even that."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    every_file = {p: p.read_bytes() for p in outputs.rglob("*") if p.is_file()}
    assert build(inputs, outputs, TODAY).unchanged
    assert {p: p.read_bytes() for p in outputs.rglob("*") if p.is_file()} == every_file


def test_a_workbook_edited_keeping_its_size_and_mtime_is_built_again(league, stub_pdfs):
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    workbook = inputs / "2026-01-10-toulouse.xlsx"
    assert workbook.is_file()
    data = bytearray(workbook.read_bytes())
    data[-30] ^= 1  # one byte of the zip's directory: the workbook is now another file
    rewritten_keeping_size_and_mtime(workbook, bytes(data))
    assert not build(inputs, outputs, TODAY).unchanged


def test_an_output_edited_by_hand_keeping_its_size_and_mtime_is_built_again(league, stub_pdfs):
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    before = snapshot(outputs)
    page = outputs / "grand-sud" / "2026" / "classement-2026-01-10.html"
    rewritten_keeping_size_and_mtime(page, page.read_bytes().replace(b"<", b"[", 1))
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and result.ok
    assert snapshot(outputs) == before
    assert built(result, outputs) == {"grand-sud/2026/classement-2026-01-10.html"}


def test_unchanged_bulletins_and_annexes_known_by_their_stat_are_not_read(league, stub_pdfs, monkeypatch, tmp_path):
    """One new tournament on outputs known by their stat (as `make` leaves them): a bulletin, PDF,
    annex or CSV that stays the same is proven by the stat record (render/cache.py `proven`), not
    read; the outputs are a full build's all the same."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    before = snapshot(outputs)
    new_tournament(inputs)
    read: list[str] = []
    real = Path.read_bytes

    def spied(path: Path) -> bytes:  # the real read, noted
        read.append(path.as_posix())
        return real(path)

    with monkeypatch.context() as patched:
        patched.setattr(Path, "read_bytes", spied)
        result = build(inputs, outputs, TODAY)
    assert result.ok and not result.unchanged
    after = snapshot(outputs)
    # The same bytes before and after (a PDF: its page too, or it was checked against a new page).
    same = {name for name, data in after.items() if name.startswith("grand-sud/") and before.get(name) == data
            and name.endswith((".html", ".pdf", ".xlsx", ".csv"))}
    unchanged = {name for name in same if not name.endswith(".pdf") or name[:-4] + ".html" in same}
    assert {"grand-sud/2025/classement-2025-06-01.html", "grand-sud/2025/classement-2025-06-01.pdf",
            "grand-sud/2025/annexe-grand-sud-2025.xlsx", "grand-sud/2025/classement-2025-06-01.csv"} <= unchanged
    assert not {name for name in unchanged if (outputs / name).as_posix() in read}
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if name.startswith("grand-sud/")} == \
        {name: data for name, data in after.items() if name.startswith("grand-sud/")}


@pytest.mark.parametrize("name", ["grand-sud/2025/classement-2025-06-01.html", "grand-sud/2025/classement-2025-06-01.pdf"])
@pytest.mark.parametrize("mtime", ["changed", "forged back"])
def test_an_unchanged_output_edited_by_hand_is_seen_whatever_its_mtime(league, stub_pdfs, name, mtime):
    """A bulletin's page or PDF known by its stat, rewritten by hand with the same size: with another
    mtime, or its mtime put back (only the ctime then tells, which no program sets): the stat is not
    the one recorded, so the file is read, found changed and made again; the outputs as before."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    before = snapshot(outputs)
    path = outputs / name
    edited = path.read_bytes().replace(b"<" if name.endswith(".html") else b"%", b"[", 1)
    if mtime == "changed":
        stat = os.stat(path)
        path.write_bytes(edited)
        assert os.stat(path).st_size == stat.st_size and os.stat(path).st_mtime_ns != stat.st_mtime_ns
    else:
        rewritten_keeping_size_and_mtime(path, edited)
    stub_pdfs.clear()
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and result.ok
    assert snapshot(outputs) == before
    assert built(result, outputs) == {name}
    assert len(stub_pdfs) == name.endswith(".pdf")  # a PDF rendered again from its page (a page: no PDF)


def test_an_output_edited_right_after_the_build_is_seen(league, stub_pdfs):
    """The pages a build has just written are known by their stat (recorded by the build itself,
    trusted since older than the hashes: git's racy rule, tests/test_file_hashes.py): an edit right
    after it, keeping size and mtime, is seen all the same."""
    inputs, outputs = league
    page = outputs / "index.html"
    stat = os.stat(page)
    entry = json.loads((outputs / FOLDER / HASHES).read_bytes())["files"][str(page)]
    assert entry == [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns,
                     hashlib.sha256(page.read_bytes()).hexdigest()]
    before = snapshot(outputs)
    rewritten_keeping_size_and_mtime(page, page.read_bytes().replace(b"<", b"[", 1))
    assert not build(inputs, outputs, TODAY).unchanged
    assert snapshot(outputs) == before


def test_a_full_build_records_every_file_it_leaves_by_its_stat(league):
    """The circuits' files, the site's pages (written after the state: their hashes are those of the
    bytes written), the index and the inputs: each known by its stat now, with its true hash, so the
    next build that finds nothing changed reads none back (ingest/file_hashes.py)."""
    inputs, outputs = league
    known = json.loads((outputs / FOLDER / HASHES).read_bytes())["files"]
    state = json.loads((outputs / STATE).read_bytes())
    assert any(name.startswith("site/") for name in state["outputs"]) and "index.html" in state["outputs"]
    files = [outputs / name for name in state["outputs"]] + [p for p in inputs.rglob("*") if p.is_file()]
    for path in files:
        stat = os.stat(path)
        assert known[str(path)] == [stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns,
                                    hashlib.sha256(path.read_bytes()).hexdigest()], path
    assert build(inputs, outputs, TODAY).unchanged


def test_a_site_page_edited_right_after_the_build_is_seen(league, stub_pdfs):
    """Edited in place within milliseconds of the build, keeping its size: a new mtime, or the one
    recorded but then not older than the hashes (racy): read again either way."""
    inputs, outputs = league
    before = snapshot(outputs)
    page = sorted((outputs / "site").rglob("*.html"))[0]
    data = page.read_bytes()
    with open(page, "r+b") as stream:
        stream.write(data.replace(b"<", b"[", 1))
    assert os.stat(page).st_size == len(data)
    assert not build(inputs, outputs, TODAY).unchanged
    assert snapshot(outputs) == before


def test_a_workbook_replaced_by_another_of_the_same_size_and_mtime_is_built_again(league, stub_pdfs):
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    workbook = inputs / "2026-01-10-toulouse.xlsx"
    before = os.stat(workbook)
    data = bytearray(workbook.read_bytes())
    data[-30] ^= 1
    other = inputs / ".other.xlsx"  # hidden: never a workbook of the league
    other.write_bytes(bytes(data))
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, workbook)
    after = os.stat(workbook)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns) and after.st_ino != before.st_ino
    assert not build(inputs, outputs, TODAY).unchanged


# -- problems, damaged cache files ------------------------------------------------------------------

def test_a_build_with_problems_leaves_the_state_alone_and_is_never_skipped(league, stub_pdfs):
    inputs, outputs = league
    state = (outputs / STATE).read_bytes()
    write_tournament(inputs, "casse", day="le 8", club="NIME")
    for _ in range(2):
        result = build(inputs, outputs, TODAY)
        assert result.problems and not result.unchanged  # each build says the problems again
        assert (outputs / STATE).read_bytes() == state


@pytest.mark.parametrize("damaged", [[STATE_FILE], [STATE_FILE, READS]], ids=["state", "both"])
def test_a_damaged_cache_file_only_costs_a_full_build(league, stub_pdfs, reads, damaged):
    inputs, outputs = league
    before = snapshot(outputs)
    for name in damaged:
        (outputs / FOLDER / name).write_bytes(b'{"format": 1, "key": [1, 2')
    reads.clear()
    result = build(inputs, outputs, TODAY)
    assert result.ok and not result.unchanged and result.rendered == {"grand-sud": []}
    # Without the read cache every workbook is read again; with it, none.
    assert sorted(reads) == (sorted(p.name for p in inputs.glob("*.xlsx")) if READS in damaged else [])
    assert snapshot(outputs) == before
    assert build(inputs, outputs, TODAY).unchanged


def test_sheets_come_back_from_the_read_cache_as_they_were_read(tmp_path):
    rows = [["Nom", "Date", 1.5, 2, True, None], [text.Unprintable(), dt.date(2026, 3, 1),
                                                   dt.datetime(2026, 3, 1, 14, 30), dt.time(15, 30),
                                                   dt.timedelta(minutes=15, seconds=59), float("inf")]]
    sheets = [Sheet("Résultats", rows, hidden=True, untrusted_formulas={"B7", "A2"})]
    first = ReadCache(tmp_path, "code")
    first.put("abc", 1234, sheets)
    assert first.save()
    size, back = ReadCache(tmp_path, "code").get("abc")
    assert size == 1234 and back == sheets
    assert [[type(value) for value in row] for row in back[0].rows] == [[type(value) for value in row] for row in rows]


# -- PDFs, benchmark, progress -----------------------------------------------------------------------

def test_parallel_and_serial_pdfs_are_the_same_bytes(small_league_built):
    """Two bulletins: the pool of two processes (it starts from two PDFs) and one process."""
    folder = small_league_built.outputs / "grand-sud"
    pages = [((folder / name).read_text(), dt.date(2026, 1, 10)) for name in
             ("2026/classement-2026-01-10.html", "2025/classement-2025-06-01.html")]
    pooled = pdf_render.render_many(pages, workers=2)
    assert pooled == [pdf_render.render_pdf(page, day) for page, day in pages]


def test_pdfs_started_circuit_by_circuit_on_warm_workers_are_the_same_bytes(small_league_built):
    """What `build` does when a workbook is new: the workers warmed while the league is read, each
    circuit's PDFs given to them as soon as it is laid out, gathered at the end."""
    folder = small_league_built.outputs / "grand-sud"
    names = ["2026/classement-2026-01-10", "2025/classement-2025-06-01"]
    pdf_render.warm_up()
    try:
        batch = pdf_render.Batch()
        for name in names:  # as two circuits would, one after the other
            batch.add([(folder / f"{name}.pdf", (folder / f"{name}.html").read_text(), dt.date(2026, 1, 10))])
        assert len(batch.futures) == 2  # started at once, not at the end
        rendered = batch.results()
    finally:
        pdf_render.cool_down()
    assert rendered == {folder / f"{name}.pdf": (folder / f"{name}.pdf").read_bytes() for name in names}


WORKER_MODULES = """
import sys
import pandas  # the build has pandas, the circuits and the command line loaded when PDFs are rendered
import reportgen.cli
import reportgen.circuits.grand_sud
from reportgen.render import pdf

if __name__ == "__main__":
    pool = pdf._pool(1)
    print(" ".join(pdf._submit(pool, eval, "sorted(__import__('sys').modules)").result()))
    pool.shutdown()
"""


def test_pdf_workers_import_no_pandas_no_circuit_and_not_the_command_line(tmp_path):
    script = tmp_path / "main.py"  # a main script, as `reportgen` is: a spawned worker would run it again
    script.write_text(WORKER_MODULES)
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=300, check=True)
    loaded = set(done.stdout.split())
    assert "weasyprint" in loaded and "reportgen.render.pdf" in loaded
    assert not [name for name in loaded if name.split(".")[0] in ("pandas", "numpy", "typer", "rich")
                or name.startswith(("reportgen.circuits.", "reportgen.cli", "reportgen.commands"))]


GENERATE = """
import json, sys
from pathlib import Path
from benchmarks import leagues
shape = leagues.Shape(clubs=16, per_season=6, players=60)
folder = Path(sys.argv[1])
print(json.dumps(leagues.generate(shape, folder / "league", folder / "extra", seed=7, say=lambda message: None)))
"""


def test_the_benchmark_generator_is_deterministic(tmp_path):
    """A small league of the benchmark's generator, twice (in processes of their own, from the
    repository, where `make bench` runs it): the same files, byte for byte."""
    made = []
    for attempt in ("one", "two"):
        done = subprocess.run([sys.executable, "-c", GENERATE, tmp_path / attempt], capture_output=True, text=True,
                              timeout=300, check=True, cwd=Path(__file__).resolve().parents[1])
        made.append((json.loads(done.stdout), snapshot(tmp_path / attempt)))
    assert made[0] == made[1] and len(made[0][1]) > 10


def test_progress_in_a_pipe_is_plain_lines_and_quiet_is_silent(capsys):
    stream = io.StringIO()
    progress = BuildProgress(stream=stream)
    with progress:
        progress.phase("PDF", 2)
        progress("2 PDF à produire")
        progress.advance()
    assert not progress.bar_wanted and capsys.readouterr().err == "2 PDF à produire\n"
    with BuildProgress(quiet=True) as quiet:
        quiet.phase("PDF", 2)
        quiet("2 PDF à produire")
    assert capsys.readouterr().err == ""


class Steps:
    """A `Progress` that records the build's steps in order: [what, total, items done in it]."""

    def __init__(self) -> None:
        self.steps: list[list] = []

    def __call__(self, message: str) -> None:
        pass

    def phase(self, what: str, total: int | None) -> None:
        self.steps.append([what, total, 0])

    def advance(self, count: int = 1) -> None:
        self.steps[-1][2] += count  # an item done before any step: IndexError


def test_the_build_s_steps_in_order_the_site_s_pages_its_own_before_the_pdfs(new_tournament_league):
    inputs, outputs = new_tournament_league
    progress = Steps()
    result = build(inputs, outputs, TODAY, progress=progress)
    assert result.ok
    assert [what for what, _, _ in progress.steps] == [
        "lecture des classeurs", "calcul des classements", "pages du site", "PDF", "publication"]
    steps = {what: (total, done) for what, total, done in progress.steps}
    assert steps["lecture des classeurs"] == (1, 1)  # the new workbook alone
    assert steps["publication"] == (len(result.published), len(result.published))
    assert steps["PDF"][0] == sum(1 for files in result.rendered.values() for path in files if path.suffix == ".pdf")
    # The pages counted as they are made (not ahead): the home page and each file of outputs/site/
    # but the corrections' history, staged apart.
    site = [p for p in (outputs / "site").rglob("*") if p.is_file()]
    assert steps["pages du site"] == (None, 1 + len(site) - 1) and len(site) > 10


class Terminal(io.StringIO):
    """Standard error as a terminal: the bar is shown."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_says_what_is_left_and_how_long():
    stream = Terminal()
    with BuildProgress(stream=stream) as progress:
        progress.phase("PDF", 54)
        progress.advance(4)
        assert progress._progress is not None
        progress._progress.refresh()
    assert "4/54" in stream.getvalue() and "50 à faire, reste" in stream.getvalue()


def test_a_step_not_counted_ahead_shows_its_items_done_and_no_estimate():
    stream = Terminal()
    with BuildProgress(stream=stream) as progress:
        progress.phase("pages du site", None)
        progress.advance(7)
        assert progress._progress is not None
        progress._progress.refresh()
    shown = stream.getvalue()
    assert "pages du site" in shown and "7 faites" in shown and "/?" not in shown and "à faire" not in shown


def test_the_state_lists_every_output_and_no_absolute_path(league):
    inputs, outputs = league
    state = json.loads((outputs / STATE).read_bytes())
    assert set(state["outputs"]) == {name for name in snapshot(outputs) if not name.startswith(FOLDER)}
    assert str(inputs) not in json.dumps(state) and str(outputs) not in json.dumps(state)
    shutil.rmtree(outputs / FOLDER)
    assert not build(inputs, outputs, TODAY).unchanged
    assert build(inputs, outputs, TODAY).unchanged


# -- the site's pages (site/reuse.py) ----------------------------------------------------------------

def site_pages(files: dict[str, bytes]) -> dict[str, bytes]:
    """The pages the site makes by their source (site/reuse.py): the home page, outputs/site/'s HTML
    and the search index."""
    return {name: data for name, data in files.items() if name in ("index.html", "site/recherche.js")
            or (name.startswith("site/") and name.endswith(".html"))}


def test_one_new_tournament_renders_only_the_site_pages_it_changes(league, tmp_path, stub_pdfs):
    inputs, outputs = league
    before = site_pages(snapshot(outputs))
    new_tournament(inputs)
    result = build(inputs, outputs, TODAY)
    after = snapshot(outputs)
    pages = site_pages(after)
    moved = {name for name, data in pages.items() if before.get(name) != data}
    assert result.ok and set(result.site_rendered) == moved
    # the new tournament's page, the home page (it lists the latest bulletin), the players it ranks...
    assert "index.html" in moved and any(name not in before for name in moved)
    # ...but not the 2025 season's page, nor the page of a player absent from 2026
    kept = set(pages) - moved
    assert "site/grand-sud-2025.html" in kept and any("LÉGER" in pages[name].decode() for name in kept)
    # byte for byte what a full build of the same inputs gives: pages, search index, OG images, records
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert snapshot(fresh) == after
    assert "NOUVEAU" in (outputs / "site" / "recherche.js").read_text(encoding="utf-8")


def test_a_build_with_nothing_new_for_the_site_renders_no_page(league, stub_pdfs):
    inputs, outputs = league
    before = snapshot(outputs)
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and result.site_rendered == []
    assert site_pages(snapshot(outputs)) == site_pages(before)  # the secretary's page is dated: not compared


def test_unchanged_site_pages_are_taken_by_their_stat_unread(league, stub_pdfs, monkeypatch):
    """A page whose source is unchanged and whose file the file hashes know by its stat is taken as
    it is, not read (site/reuse.py `Pages.page`), and so is an Open Graph card (`proven_file`); the
    home page, written on its own, is read. A card cut short by hand is drawn again."""
    from reportgen.site import og

    inputs, outputs = league
    before = snapshot(outputs)
    read: list[str] = []
    reuse, known = cache.reuse, og.known
    monkeypatch.setattr(cache, "reuse", lambda path, *rest: read.append(path.relative_to(outputs).as_posix())
                        or reuse(path, *rest))
    monkeypatch.setattr(og, "known", lambda card, folder: read.append(f"site/{card.file_name()}")
                        or known(card, folder))
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and result.site_rendered == []
    assert "index.html" in read and not [name for name in read if name.startswith("site/")]
    assert site_pages(snapshot(outputs)) == site_pages(before)
    # known by their stat again: the next build takes them unread too
    read.clear()
    assert not build(inputs, outputs, TODAY + dt.timedelta(days=2)).unchanged
    assert read and not [name for name in read if name.startswith("site/")]
    card = sorted((outputs / "site").glob("og-*.png"))[0]
    card.write_bytes(card.read_bytes()[:100])
    read.clear()
    assert not build(inputs, outputs, TODAY + dt.timedelta(days=3)).unchanged
    assert [name for name in read if name.startswith("site/")] == [f"site/{card.name}"]
    after = snapshot(outputs)
    assert site_pages(after) == site_pages(before) and after[f"site/{card.name}"] == before[f"site/{card.name}"]
    # the card written again is known by its stat as the others are (`state.learn_pages`): taken unread next
    read.clear()
    assert not build(inputs, outputs, TODAY + dt.timedelta(days=4)).unchanged
    assert read and not [name for name in read if name.startswith("site/")]


def test_a_build_takes_the_pairs_of_names_the_last_one_found_in_each_club(league, tmp_path, stub_pdfs, monkeypatch):
    """ingest/known_pairs.py: the same players in each club, none searched again; the same notices
    as a build that searches them all; a new tournament searches the groups whose players changed."""
    from reportgen.ingest import duplicates

    inputs, outputs = league
    searched: list[int] = []
    search = duplicates._sharing_a_variant
    monkeypatch.setattr(duplicates, "_sharing_a_variant", lambda folded, pids, *rest: (
        searched.append(len(list(pids))), search(folded, pids, *rest))[1])
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and searched == []
    fresh = build(inputs, tmp_path / "fresh", TODAY + dt.timedelta(days=1))
    assert searched and result.notices == fresh.notices
    everything = len(searched)
    searched.clear()
    new_tournament(inputs)  # a new player in Albi's club
    result = build(inputs, outputs, TODAY)
    again = len(searched)
    searched.clear()
    assert result.notices == build(inputs, tmp_path / "again", TODAY).notices
    assert 0 < again < len(searched)  # the groups whose players changed, not all of them
    assert everything <= len(searched)


def test_a_site_page_edited_or_deleted_by_hand_is_made_again(league, stub_pdfs):
    inputs, outputs = league
    before = snapshot(outputs)
    edited, deleted = sorted(name for name in site_pages(before) if name.startswith("site/joueur-"))[:2]
    (outputs / edited).write_text("<p>modifié à la main</p>", encoding="utf-8")
    (outputs / deleted).unlink()
    result = build(inputs, outputs, TODAY)
    assert not result.unchanged and sorted(result.site_rendered) == [edited, deleted]
    assert snapshot(outputs) == before


def test_changed_code_renders_every_site_page_again(league, stub_pdfs, monkeypatch):
    inputs, outputs = league
    before = snapshot(outputs)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "another version of reportgen or of its templates")
    result = build(inputs, outputs, TODAY)
    assert set(result.site_rendered) == set(site_pages(before))
    assert site_pages(snapshot(outputs)) == site_pages(before)


def write_site_data(path: Path, data: dict) -> None:
    """`site.json` as the build writes it (site/data.py `circuit_data_parts`: compact, keys sorted),
    each ranking's record then known by its digest (`read_records`)."""
    path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n",
                    encoding="utf-8")


def test_player_pages_that_stay_are_taken_without_making_their_sections(league, stub_pdfs, monkeypatch):
    """A player's page is known unchanged from the records of his rankings (`PlayerPages.source`),
    before its sections are made: a build with nothing new for the site makes none; one line changed
    in `site.json` (a corrected club in a season no new tournament touches) makes the pages of that
    ranking's players alone, each the page a build without the records makes; `site.json` laid out
    otherwise (its records' digests unknown), each line's row says it, and only that player's page is
    made."""
    from reportgen import circuits
    from reportgen.site.pages import Site, page_name
    from reportgen.site.publish import publish
    from reportgen.site.reuse import Pages

    inputs, outputs = league
    made: list[str] = []
    sections = Site.player_sections
    monkeypatch.setattr(Site, "player_sections", lambda site, player, name: made.append(player.id) or sections(
        site, player, name))
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and result.site_rendered == [] and made == []
    data = outputs / "grand-sud" / "site.json"
    site = json.loads(data.read_text(encoding="utf-8"))
    ranking = next(r for r in site["rankings"] if r["season"] == 2025 and r["kind"] == "season")
    row = ranking["rows"][-1]
    row["club"] = "Club corrigé"
    write_site_data(data, site)
    league_name = html.unescape(re.search(r'og:site_name" content="([^"]*)"', (outputs / "index.html").read_text(
        encoding="utf-8")).group(1))  # as the build named it
    reused = Pages(outputs)
    pages = Site(outputs, list(circuits.CIRCUITS), league_name, reuse=reused).pages()
    rendered = [name for name in reused.rendered if name.startswith("site/joueur-")]
    players = {r["id"] for r in ranking["rows"]}
    assert len(players) > 1 and len(made) == len(set(made)) and set(made) == players
    assert sorted(rendered) == sorted(f"site/{page_name('joueur', player)}" for player in players)
    assert "Club corrigé" in pages[f"site/{page_name('joueur', row['id'])}"].decode("utf-8")
    assert pages == Site(outputs, list(circuits.CIRCUITS), league_name).pages()  # rendered in full

    # The same records written with spaces: no digest, each line's row in the key (the players' keys
    # all change kind once, so the pages made first); then one row changed makes its player's page alone.
    data.write_text(json.dumps(site, ensure_ascii=False, sort_keys=True, indent=1), encoding="utf-8")
    first = Pages(outputs)
    publish(outputs, Site(outputs, list(circuits.CIRCUITS), league_name, reuse=first).pages())
    first.save()
    row["club"] = "Club corrigé deux fois"
    data.write_text(json.dumps(site, ensure_ascii=False, sort_keys=True, indent=1), encoding="utf-8")
    made.clear()
    reused = Pages(outputs)
    pages = Site(outputs, list(circuits.CIRCUITS), league_name, reuse=reused).pages()
    assert made == [row["id"]]
    assert pages == Site(outputs, list(circuits.CIRCUITS), league_name).pages()


def test_tournament_pages_that_stay_are_taken_without_making_their_tables(league, stub_pdfs, monkeypatch):
    """A tournament's page is known unchanged from its ranking record (site/pages.py `event`), before
    its table is made: a build with nothing new makes none; one row changed in `site.json` makes
    that tournament's page alone, and a player's publication choice changed the page of each
    tournament he played (every tournament's page: `Public.digest` hashes all choices at once); each
    the page a build without the records makes."""
    from reportgen import circuits
    from reportgen.site.pages import Site
    from reportgen.site.privacy import Public
    from reportgen.site.reuse import Pages

    inputs, outputs = league
    tables: list[str] = []
    table = Site.table
    monkeypatch.setattr(Site, "table", lambda site, circuit, ranking, *rest, **options: (
        ranking["kind"] == "event" and tables.append(ranking["path"])) or table(site, circuit, ranking, *rest, **options))
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and result.site_rendered == [] and tables == []
    data = outputs / "grand-sud" / "site.json"
    site = json.loads(data.read_text(encoding="utf-8"))
    event = next(r for r in site["rankings"] if r["kind"] == "event")
    event["rows"][-1]["club"] = "Club corrigé"
    write_site_data(data, site)
    league_name = html.unescape(re.search(r'og:site_name" content="([^"]*)"', (outputs / "index.html").read_text(
        encoding="utf-8")).group(1))  # as the build named it
    reused = Pages(outputs)
    pages = Site(outputs, list(circuits.CIRCUITS), league_name, reuse=reused).pages()
    assert tables == [event["path"]] and len([name for name in reused.rendered if "/tournoi-" in name]) == 1
    assert pages == Site(outputs, list(circuits.CIRCUITS), league_name).pages()  # rendered in full
    tables.clear()
    player = event["rows"][0]
    played = {r["path"] for r in site["rankings"] if r["kind"] == "event" and player["id"] in {w["id"] for w in r["rows"]}}
    public = Public({player["id"]: ("initiales", "X. Y.")})
    pages = Site(outputs, list(circuits.CIRCUITS), league_name, public=public, reuse=Pages(outputs)).pages()
    assert played and played <= set(tables) and len(tables) == len(set(tables))
    assert pages == Site(outputs, list(circuits.CIRCUITS), league_name, public=public).pages()


def test_club_pages_and_the_search_that_stay_are_taken_without_making_them(league, stub_pdfs, monkeypatch):
    """A club's page is known unchanged from what it is made from (site/pages.py `club`), before its
    tables and list of tournaments are made, and so is the search index from its entries: a build
    with nothing new makes neither. A row's club changed in a season no club's page shows makes the
    page of that new club and the search index alone; a row changed in the ranking in force, the
    pages of every club that ranking shows; a tournament renamed, the pages of the clubs whose
    players played it and the search index; a player's publication choice, every club's page; each
    time the pages a build without the records makes."""
    from reportgen import circuits
    from reportgen.site.club_page import ClubPages
    from reportgen.site.pages import Site, club_page_name
    from reportgen.site.privacy import Public
    from reportgen.site.reuse import Pages

    inputs, outputs = league
    made: list[str] = []
    club = ClubPages.club
    monkeypatch.setattr(ClubPages, "club", lambda pages, name, table: made.append(name) or club(pages, name, table))
    result = build(inputs, outputs, TODAY + dt.timedelta(days=1))  # another day: the build runs
    assert not result.unchanged and result.site_rendered == [] and made == []
    league_name = html.unescape(re.search(r'og:site_name" content="([^"]*)"', (outputs / "index.html").read_text(
        encoding="utf-8")).group(1))  # as the build named it
    data = outputs / "grand-sud" / "site.json"
    site = json.loads(data.read_text(encoding="utf-8"))

    def built_again(public: Public | None = None) -> list[str]:
        """The site made from outputs/ as it is now (its records' pages taken from the last one's
        records): the club pages and search it made, each page a full render's; then published and
        recorded, the next one's last."""
        from reportgen.site.publish import publish

        made.clear()
        reused = Pages(outputs)
        pages = Site(outputs, list(circuits.CIRCUITS), league_name, public=public, reuse=reused).pages()
        found = list(made)
        assert pages == Site(outputs, list(circuits.CIRCUITS), league_name, public=public).pages()
        publish(outputs, pages)
        reused.save()
        assert len(found) == len(set(found))
        assert sorted(f"site/{club_page_name(name)}" for name in found) == sorted(
            name for name in reused.rendered if name.startswith("site/club-"))
        return [*found, *(["recherche"] if "site/recherche.js" in reused.rendered else [])]

    shown = Site(outputs, list(circuits.CIRCUITS), league_name)
    grand_sud = next(c for c in shown.circuits if c.slug == "grand-sud")
    in_force = grand_sud.headline(grand_sud.seasons()[0])["path"]
    clubs = shown.club_pages.clubs
    earlier = next(r for r in site["rankings"] if r["season"] == 2025 and r["kind"] == "season")
    earlier["rows"][-1]["club"] = "Club corrigé"
    write_site_data(data, site)
    assert built_again() == ["Club corrigé", "recherche"]

    ranking = next(r for r in site["rankings"] if r["path"] == in_force)
    ranking["rows"][-1]["values"] = {**ranking["rows"][-1]["values"], "points": "0"}
    write_site_data(data, site)
    assert set(built_again()) == {row["club"] for row in ranking["rows"] if row["club"]}

    event = next(r for r in site["rankings"] if r["kind"] == "event")
    event["name"] = "Tournoi renommé"
    write_site_data(data, site)
    assert set(built_again()) == {row["club"] for row in event["rows"] if row["club"]} | {"recherche"}

    player = ranking["rows"][0]
    assert set(built_again(Public({player["id"]: ("initiales", "X. Y.")}))) == set(clubs) | {"Club corrigé", "recherche"}


# -- rankings unchanged: their CSV and site record taken from disk (eighteenth round) ---------------

def made_rankings(monkeypatch) -> tuple[list[str], list[str]]:
    """The rankings and tournaments (their paths) whose site record, and the rankings whose CSV,
    the next build makes."""
    from reportgen.render import ranking as ranking_render
    from reportgen.site import data as site_data

    records: list[str] = []
    spreadsheets: list[str] = []
    real_record, real_csv = site_data.ranking_record, ranking_render.to_spreadsheet_csv
    real_event_record = site_data.EventRecord.record
    monkeypatch.setattr(site_data, "ranking_record",
                        lambda ranking, titles: records.append(ranking.path) or real_record(ranking, titles))
    monkeypatch.setattr(site_data.EventRecord, "record",
                        lambda source: records.append(source.path) or real_event_record(source))
    monkeypatch.setattr(ranking_render, "to_spreadsheet_csv",
                        lambda ranking: spreadsheets.append(ranking.path) or real_csv(ranking))
    return records, spreadsheets


def test_one_new_tournament_makes_only_the_records_and_csvs_of_the_rankings_it_changes(league, stub_pdfs,
                                                                                      monkeypatch, tmp_path):
    """On outputs known by their stat, a ranking whose key is the one recorded keeps its CSV (its
    manifest record and stat prove it) and its record in `site.json` (the bytes the last one held,
    by the index in the manifest), and so does a tournament's own record: only the new dated ranking,
    those it moves and the new tournament's record are made again, and the outputs are a full
    build's, manifests (and the index) included."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    before = snapshot(outputs)
    rankings = json.loads(before["grand-sud/site.json"])["rankings"]
    new_tournament(inputs)
    records, spreadsheets = made_rankings(monkeypatch)
    result = build(inputs, outputs, TODAY)
    assert result.ok and not result.unchanged
    after = snapshot(outputs)
    csvs = {name.split("/", 1)[1][:-4] for name, data in after.items() if name.endswith(".csv")
            and before.get(name) != data and not name.startswith("site/")}
    assert set(spreadsheets) == csvs and len(spreadsheets) == len(csvs)
    assert "2026/classement-2026-03-01" in csvs and "2026/classement-provisoire-2026" in csvs
    # a title never changes here without its ranking; of the tournaments, the new one alone
    assert set(records) == csvs | {"tournoi/2026-03-01-albi.xlsx"} and len(records) == len(set(records))
    assert len(records) < len(rankings) and "2025/classement-2025-06-01" not in records
    index = json.loads(after["grand-sud/publications.json"])["made_from"]["site.json"]
    # each record, the rankings' and the tournaments' own (`no_csv`), by its path
    assert set(index["records"]) == {ranking["path"] for ranking in json.loads(after["grand-sud/site.json"])["rankings"]}
    assert any(path.startswith("tournoi/") for path in index["records"])
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if not name.startswith(f"{FOLDER}/")} == \
        {name: data for name, data in after.items() if not name.startswith(f"{FOLDER}/")}


def test_a_tournament_corrected_makes_its_own_record_again_and_no_other_tournament_s(league, stub_pdfs,
                                                                                     monkeypatch, tmp_path):
    """A club's workbook corrected (a player's club): its tournament's record in `site.json` is made
    again (its key, `EventRecord.key`, is made from its results), the other tournaments' are the
    bytes the last build wrote, and `site.json` is a full build's."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    write_tournament(inputs, "2026-02-07-marseille", day="07/02/2026", club="MARS", results=[
        [1, "MARTIN", "Paul", "1002", "Albi"], [2, "PROVENCAL", "Marius", "", "Toulouse"]])
    records, _ = made_rankings(monkeypatch)
    assert build(inputs, outputs, TODAY).ok
    site_file = outputs / "grand-sud" / "site.json"
    tournaments = {r["path"] for r in json.loads(site_file.read_bytes())["rankings"] if r["kind"] == "event"}
    assert len(tournaments) == 4 and "tournoi/2026-02-07-marseille.xlsx" in tournaments
    assert tournaments & set(records) == {"tournoi/2026-02-07-marseille.xlsx"}
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert site_file.read_bytes() == (fresh / "grand-sud" / "site.json").read_bytes()


@pytest.mark.parametrize("damage", ["edited keeping size and mtime", "index pointing elsewhere"])
def test_a_site_file_not_the_one_recorded_gives_no_record_back(league, stub_pdfs, monkeypatch, tmp_path, damage):
    """`site.json` rewritten by hand (its stat no longer the one recorded), or a manifest whose index
    of it points at another record: nothing is taken from it, each record (a ranking's or a
    tournament's) is made again, and `site.json` is a full build's."""
    inputs, outputs = league
    known_by_their_stat(inputs, outputs)
    site_file, manifest = outputs / "grand-sud" / "site.json", outputs / "grand-sud" / "publications.json"
    if damage == "edited keeping size and mtime":
        data = site_file.read_bytes()
        rewritten_keeping_size_and_mtime(site_file, data.replace(b'"DURAND', b'"DURANT', 1))
    else:  # each record's place in the index given to the next ranking: its key, another's bytes
        recorded = json.loads(manifest.read_bytes())
        index = recorded["made_from"]["site.json"]["records"]
        paths = list(index)
        spots = [index[path][1:] for path in paths]
        for path, spot in zip(paths, spots[1:] + spots[:1]):
            index[path] = [index[path][0], *spot]
        manifest.write_bytes(json.dumps(recorded).encode())
    new_tournament(inputs)
    records, _ = made_rankings(monkeypatch)
    assert build(inputs, outputs, TODAY).ok
    # every record, the rankings' and the tournaments' own, made again
    assert sorted(records) == sorted(ranking["path"] for ranking in json.loads(site_file.read_bytes())["rankings"])
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert site_file.read_bytes() == (fresh / "grand-sud" / "site.json").read_bytes()


def test_a_record_is_taken_back_only_under_its_key_and_as_one_object(tmp_path):
    from reportgen.site.data import Earlier

    path = tmp_path / "site.json"
    path.write_bytes(b'{"rankings":[{"path":"2026/a","rows":[]},{"path":"2026/b","rows":[]}],"scales":[]}\n')
    first, second = 13, 14 + len(b'{"path":"2026/a","rows":[]}')
    earlier = Earlier(path, {"2026/a": ["k1", first, 27], "2026/b": ["k2", second, 27], "2026/c": ["k3", 0, 12],
                             "2026/d": ["k4", 10**6, 27], "2026/e": "k5"})
    try:
        assert earlier.get("2026/a", "k1") == b'{"path":"2026/a","rows":[]}'
        assert earlier.get("2026/b", "k2") == b'{"path":"2026/b","rows":[]}'
        assert earlier.get("2026/a", "k2") is None  # another key
        assert earlier.get("2026/a", None) is None  # a ranking that could not be keyed
        assert earlier.get("2026/c", "k3") is None  # not one object
        assert earlier.get("2026/d", "k4") is None  # past the end
        assert earlier.get("2026/e", "k5") is None  # not an index entry
        assert Earlier(path, {"2026/b": ["k1", first, 27]}).get("2026/b", "k1") is None  # another ranking's bytes
    finally:
        earlier.close()


# -- a record known by its digest (nineteenth round) -------------------------------------------------

def test_a_records_digest_is_that_of_its_text_and_only_as_the_build_lays_the_file_out(tmp_path, league):
    """`read_records`: the records and scales json gives, each record's digest the SHA-256 of its
    text in the file the build wrote; none for a file laid out otherwise; nothing for one cut short."""
    from reportgen.site.data import DATA, read_records

    _, outputs = league
    folder = outputs / "grand-sud"
    written = (folder / DATA).read_bytes()
    whole = json.loads(written)
    rankings, scales, digests = read_records(folder)
    assert (rankings, scales) == (whole["rankings"], whole["scales"]) and len(rankings) > 2
    assert digests == [hashlib.sha256(json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
                                      .encode("utf-8")).hexdigest() for r in rankings]
    assert len(set(digests)) == len(digests)
    for other in (json.dumps(whole, ensure_ascii=False, indent=1), json.dumps(whole, ensure_ascii=False),
                  written.decode("utf-8").replace('],"scales":', '] ,"scales":'),
                  written.decode("utf-8").replace('},{"columns"', '} ,{"columns"', 1)):
        copy = tmp_path / "other"
        copy.mkdir(exist_ok=True)
        (copy / DATA).write_text(other, encoding="utf-8")
        assert read_records(copy) == (rankings, scales, [None] * len(rankings))
    for broken in (written[:-3], written[:len(written) // 2], written + b"x", b'{"rankings":[1],"scales":[]}\n'):
        (tmp_path / "other" / DATA).write_bytes(broken)
        found = read_records(tmp_path / "other")
        assert found == ([], [], []) or found[2] == [None] * len(found[0])
    (tmp_path / "other" / DATA).write_bytes(written[:-3])
    assert read_records(tmp_path / "other") == ([], [], [])
    assert read_records(tmp_path / "none") == ([], [], [])


def test_a_damaged_list_of_files_naming_no_one_is_read_as_none_known(tmp_path, stub_pdfs):
    """The manifest's `unmasked` is data from outputs/: a list holding what no key is (a list, a
    number) is taken for the keys it holds, the rest ignored; the build masks again what it no longer
    knows, and its files are a full build's."""
    inputs, outputs = hiding_one_in_no_ranking(tmp_path)
    path = outputs / "grand-sud" / "publications.json"
    manifest = json.loads(path.read_bytes())
    keys = manifest["unmasked"]
    manifest["unmasked"] = [["damaged"], 3, {"a": 1}, *keys[:2]]
    path.write_text(json.dumps(manifest), encoding="utf-8")
    new_tournament(inputs)
    assert build(inputs, outputs, TODAY).ok
    assert len(json.loads(path.read_bytes())["unmasked"]) == 4 + 5 + 2
    fresh = tmp_path / "fresh"
    assert build(inputs, fresh, TODAY).ok
    assert {name: data for name, data in snapshot(fresh).items() if name.startswith("grand-sud/")} == \
        {name: data for name, data in snapshot(outputs).items() if name.startswith("grand-sud/")}
