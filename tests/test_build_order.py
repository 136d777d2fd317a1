"""The order of a build's work (issue 27, tenth round): the site's pages are made while the PDFs
render, from outputs/ as the circuits will publish it (pipeline/site_view.py), and the circuits and
the site are published once the PDFs are back. What is checked is the order the build calls things
in and what it publishes, never a duration."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from reportgen import circuits
from reportgen.pipeline import build, load
from reportgen.pipeline import site_view as site_view_module
from reportgen.pipeline.calendar import for_site
from reportgen.render import pdf as pdf_render
from reportgen.render.staging import Staging
from reportgen.site import data
from reportgen.site import publish as site_publish
from reportgen.site.pages import FOLDER, HOME, Site
from tests.builders import TODAY
from tests.test_hostile_files import snapshot
from tests.test_hostile_publish import temporaries


def spied(monkeypatch, owner: object, name: str, said: list[str], label) -> None:  # type: ignore[no-untyped-def]
    """`owner.name` still does its work, and says when it is called (`label(args)`) in `said`."""
    real = getattr(owner, name)

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        said.append(label(args))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)


def test_the_site_pages_are_made_after_the_pdfs_are_submitted_and_before_they_are_waited_for(new_tournament_league, monkeypatch):
    inputs, outputs = new_tournament_league
    said: list[str] = []
    spied(monkeypatch, pdf_render.Batch, "add", said, lambda args: "PDF submitted")
    spied(monkeypatch, Site, "each_page", said, lambda args: "site's pages")
    spied(monkeypatch, pdf_render.Batch, "results", said, lambda args: "PDFs waited for")
    spied(monkeypatch, Staging, "publish", said, lambda args: f"published {args[0].folder.name}")
    spied(monkeypatch, Staging, "sync", said, lambda args: f"synced {args[0].folder.name}")
    result = build(inputs, outputs, TODAY)
    assert result.ok and result.rendered["grand-sud"]
    site_at = said.index("site's pages")
    assert said.count("site's pages") == 1 and said.count("PDFs waited for") == 1
    # every PDF of the build submitted (its HTML known) before the site's pages are made...
    assert "PDF submitted" in said[:site_at] and "PDF submitted" not in said[site_at:]
    # ...which are made before the build waits for the PDFs, and nothing is published before that wait
    # (the site's staged pages synced on disk meanwhile: its commit after the PDFs waits for nothing)
    assert said[site_at + 1:site_at + 3] == [f"synced {FOLDER}", "PDFs waited for"]
    assert not [step for step in said[:site_at + 2] if step.startswith("published")]
    assert said[-1] == f"published {FOLDER}" and "published grand-sud" in said


def test_the_changed_bulletin_goes_to_the_pdf_workers_first_and_the_players_are_noticed_after(
        new_tournament_league, monkeypatch):
    """One new tournament (thirteenth round): the Grand Sud bulletin whose page changed is laid out
    and its PDF submitted before the circuit's other bulletins are checked against their records, and
    the notices on the players are made after that submission, in the place `load` gives them."""
    from reportgen.pipeline import building
    from reportgen.render import cache

    inputs, outputs = new_tournament_league
    said: list[str] = []
    spied(monkeypatch, cache, "reuse", said, lambda args: f"checked {args[0].relative_to(outputs).as_posix()}")
    spied(monkeypatch, pdf_render.Batch, "add", said, lambda args: "PDF submitted")
    spied(monkeypatch, building, "player_notices", said, lambda args: "players noticed")
    result = build(inputs, outputs, TODAY)
    assert result.ok
    first = said.index("PDF submitted")
    bulletins = [step for step in said if step.startswith("checked grand-sud/") and step.endswith(".html")]
    checked_before = [step for step in said[:first] if step in bulletins]
    assert len(checked_before) == 1 and len(bulletins) > 2  # the changed one only, of many
    assert said.index("players noticed") > first
    read = load(inputs, TODAY)  # every notice of load, the players' last
    assert any("nouveau" in notice or "même personne" in notice for notice in read.notices)
    assert result.notices[:len(read.notices)] == read.notices


def test_the_site_made_before_the_publication_shows_what_was_published(new_tournament_league):
    """The pages the build made from the circuits as they were about to be published are, byte for
    byte, those the published outputs give (not those of the last publication)."""
    inputs, outputs = new_tournament_league
    before = snapshot(outputs)
    result = build(inputs, outputs, TODAY)
    assert result.ok and result.rendered["grand-sud"]
    league_read = load(inputs, TODAY)
    calendar, calendar_file = for_site(league_read.calendar, league_read.announced, league_read.reading, TODAY)
    pages = Site(outputs, list(circuits.CIRCUITS), league_read.settings.name, result.blocked,
                 public=league_read.public, calendar=calendar, calendar_file=calendar_file,
                 corrections=site_publish.corrections(outputs, [], TODAY.isoformat())).pages()
    after = snapshot(outputs)
    published = {name: data for name, data in after.items()
                 if name == HOME or (name.startswith(f"{FOLDER}/") and not name.startswith(f"{FOLDER}/.")
                                     and name != f"{FOLDER}/{site_publish.HISTORY}")}
    assert published == pages
    assert pages[HOME] != before[HOME]  # the new tournament shows: the home page changed


def test_a_build_stopped_while_its_site_pages_are_made_publishes_nothing(new_tournament_league, monkeypatch):
    """The PDFs are not back yet: no circuit is published, nothing is staged any more, and the
    folder the site's pages were read from is removed."""
    inputs, outputs = new_tournament_league
    before = snapshot(outputs)
    views: list[Path] = []
    real_view, real_player = site_view_module.View, Site.player

    def view(outputs: Path) -> site_view_module.View:
        made = real_view(outputs)
        views.append(made.folder)
        return made

    def stopping(self, player):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(site_view_module, "View", view)
    monkeypatch.setattr(Site, "player", stopping)
    with pytest.raises(KeyboardInterrupt):
        build(inputs, outputs, TODAY)
    assert snapshot(outputs) == before and temporaries(outputs) == []
    assert len(views) == 1 and not views[0].exists()
    monkeypatch.setattr(Site, "player", real_player)
    assert build(inputs, outputs, TODAY).ok


def test_the_view_holds_the_circuits_laid_out_and_links_the_others(tmp_path):
    outputs = tmp_path / "outputs"
    (outputs / "masters").mkdir(parents=True)
    (outputs / "masters" / "publications.json").write_text("{}")
    staged = tmp_path / "staged-site.json"
    staged.write_text('{"rankings": []}')
    view = site_view_module.View(outputs)
    try:
        view.circuit("grand-sud", b'{"title": "x"}', staged)
        assert view.complete(["grand-sud", "masters", "tour-de-france"])
        assert (view.folder / "grand-sud" / "publications.json").read_bytes() == b'{"title": "x"}'
        assert (view.folder / "grand-sud" / "site.json").read_text() == '{"rankings": []}'
        assert (view.folder / "masters" / "publications.json").read_text() == "{}"
        assert not (view.folder / "tour-de-france").exists()
        assert (view.folder / FOLDER).resolve() == (outputs / FOLDER).resolve()
    finally:
        view.discard()
    assert not view.folder.exists() and (outputs / "masters" / "publications.json").exists()



def test_the_archived_seasons_are_read_when_the_site_pages_are_made_not_before_the_first_pdf(
        new_tournament_league, tmp_path, monkeypatch):
    """The command line gives the build what reads the archive's seasons (and scores them again):
    called once, after the PDFs are submitted, and the site shows what it gave as it shows what is
    given at the start."""
    inputs, outputs = new_tournament_league
    record = dict(data.read(outputs / "grand-sud")[0], season=2019)  # a season no longer in inputs/
    page = outputs / FOLDER / "grand-sud-2019.html"
    shutil.copytree(outputs, tmp_path / "given-at-the-start")
    assert build(inputs, tmp_path / "given-at-the-start", TODAY, archived={"grand-sud": [record]}).ok
    said: list[str] = []
    spied(monkeypatch, pdf_render.Batch, "add", said, lambda args: "PDF submitted")
    spied(monkeypatch, pdf_render.Batch, "results", said, lambda args: "PDFs waited for")

    def archived(hashes, say) -> dict:
        said.append("archive read")
        return {"grand-sud": [record]}

    assert not page.exists()
    assert build(inputs, outputs, TODAY, archived=archived).ok
    assert said.count("archive read") == 1
    assert said.index("PDF submitted") < said.index("archive read") < said.index("PDFs waited for")
    given = snapshot(tmp_path / "given-at-the-start")
    assert page.is_file() and snapshot(outputs) == given

# -- the fork server ends with the PDFs ------------------------------------------------------------

PAGE = "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body><p>Classement</p></body></html>"


def test_the_pdf_fork_server_ends_once_the_pdfs_are_back_and_a_later_pool_starts_another(tmp_path):
    """Its end is not left to the process's exit: once `results` has every PDF, the server is asked
    to stop, and by the build's end (`cool_down`) it has been reaped. The next pool works the same."""
    from multiprocessing import forkserver

    rendered = []
    for _ in range(2):
        pdf_render.warm_up()
        try:
            server = forkserver._forkserver._forkserver_pid
            assert server is not None
            batch = pdf_render.Batch()
            batch.add([(tmp_path / "a.pdf", PAGE, TODAY)])
            rendered.append(batch.results()[tmp_path / "a.pdf"])
        finally:
            pdf_render.cool_down()
        assert forkserver._forkserver._forkserver_pid is None
        with pytest.raises(ChildProcessError):  # reaped by this process: not left a zombie for its exit
            os.waitpid(server, os.WNOHANG)
    assert rendered[0] == rendered[1] == pdf_render.render_pdf(PAGE, TODAY)
