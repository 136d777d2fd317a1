"""Large annexes written by a worker process on the second core (render/annex_worker.py): the same
bytes as written in the build's process, however the rows are cut into messages; a worker killed or
failing leaves its annex to the build's process, which says the error as it did before."""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest
from markupsafe import escape

from reportgen.ingest import reading_pool
from reportgen.model import Annex, AnnexColumn, AnnexSheet, InputRule
from reportgen.pipeline import render_report
from reportgen.render import annex_worker, excel
from reportgen.site import data as site_data

COLUMNS = [AnnexColumn("Nom"), AnnexColumn("Points", "int"), AnnexColumn("Moyenne", "number", decimals=3),
           AnnexColumn("Ratio", "number"), AnnexColumn("Date", "date"), AnnexColumn("Valeur", "auto"),
           AnnexColumn("", "auto")]


def annex(path: str = "2026/annexe", rows: int = 45, value: object = "x") -> Annex:
    """An annex of every kind of cell, over two sheets (one with no row), its rows numerous enough
    to be cut into several messages by the tests' `ROWS`."""
    found = [[f"=JOUEUR {index} ÿ😀", index, index / 7, 0.5 + index, dt.date(2026, 1, 1 + index % 28),
              [dt.datetime(2026, 3, 4, 10, 30), 2.5, 3, "texte", True, None, ""][index % 7], value]
             for index in range(rows)]
    rules = [InputRule(1, 1, rows, 1, "Un nombre entier", kind="whole", minimum=0, maximum=99)]
    return Annex(path, "Annexe & saison", dt.date(2026, 11, 21),
                 [AnnexSheet("Points [saison]", COLUMNS, found, rules), AnnexSheet("Vide", COLUMNS[:2], [])], 2026)


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(annex_worker, "THRESHOLD", 10)  # the tests' annexes go to a worker
    monkeypatch.setattr(annex_worker, "ROWS", 4)  # cut into many messages


def test_an_annex_is_the_same_bytes_however_its_rows_are_cut():
    given = annex()
    whole = excel.render_annex(given)
    for rows in (1, 4, 44, 45, 1000):
        assert excel.write_annex(given.title, given.date, excel.annex_parts(given, rows)) == whole


def test_the_annexes_a_worker_writes_are_those_written_here(small):
    """Two annexes whose messages together are more than the pipe holds (about 270 KB pickled): all
    of both sent before the worker writes either, each taken back in another order than given."""
    given = [annex("2025/annexe", rows=2000), annex("2026/annexe", rows=1500)]
    aside = annex_worker.Aside()
    assert aside.give(given) == {"2025/annexe", "2026/annexe"}
    worker = aside.worker
    assert worker is not None
    back = {one.path: aside.take(one.path, lambda: pytest.fail("written here")) for one in reversed(given)}
    assert back == {one.path: excel.render_annex(one) for one in given}
    assert aside.worker is None and worker.process.exitcode == 0  # stopped once all were back


def test_a_forked_worker_ends_by_itself_once_its_pipe_is_closed(small, monkeypatch):
    monkeypatch.setattr(reading_pool, "_may_fork", lambda: True)
    aside = annex_worker.Aside()
    given = annex()
    assert aside.give([given])
    worker = aside.worker
    assert aside.take(given.path, lambda: pytest.fail("written here")) == excel.render_annex(given)
    assert worker is not None and worker.process.exitcode == 0  # ended at the end of its pipe, not killed


def test_a_worker_started_before_its_annexes_are_given_writes_them(small):
    """`start` (the top of a circuit's layout) starts the worker; `give` hands the annexes to that
    very worker, which writes them."""
    given = annex()
    aside = annex_worker.Aside()
    aside.start([given])
    worker = aside.worker
    assert worker is not None and worker.process.is_alive()
    assert aside.give([given]) == {given.path}
    assert aside.worker is worker  # not a second one
    assert aside.take(given.path, lambda: pytest.fail("written here")) == excel.render_annex(given)
    assert worker.process.exitcode == 0


def test_a_worker_started_for_annexes_none_of_which_is_given_is_stopped(small):
    aside = annex_worker.Aside()
    aside.start([annex()])
    worker = aside.worker
    assert worker is not None
    assert aside.give([]) == set()  # their keys were those recorded after all: nothing to write
    assert aside.worker is None
    worker.process.join(5)
    assert worker.process.exitcode == 0  # ended at the end of its pipe


def test_no_worker_is_started_for_small_annexes():
    aside = annex_worker.Aside()
    aside.start([annex(rows=3)])
    assert aside.worker is None


def test_a_small_annex_is_written_here():
    aside = annex_worker.Aside()
    assert aside.give([annex(rows=3)]) == set()
    assert aside.worker is None


def test_a_worker_killed_leaves_its_annex_to_the_build(small):
    given = [annex("2025/annexe"), annex("2026/annexe")]
    aside = annex_worker.Aside()
    assert aside.give(given)
    assert aside.worker is not None
    aside.worker.process.kill()  # SIGKILL
    aside.worker.process.join(5)
    for one in given:  # each written here
        assert aside.take(one.path, lambda: excel.render_annex(one)) == excel.render_annex(one)
    assert aside.worker is None and aside.scratch is None


def test_an_annex_the_worker_fails_to_write_is_written_here_and_its_error_said(small):
    """The worker answers None for an annex it could not write (here a NaN, which XlsxWriter
    refuses): written again here, where the error is raised as it was before the worker; the worker
    still writes the next one."""
    broken, fine = annex("2025/annexe", value=math.nan), annex("2026/annexe")
    aside = annex_worker.Aside()
    assert aside.give([broken, fine])
    with pytest.raises(TypeError, match="NAN"):
        aside.take(broken.path, lambda: excel.render_annex(broken))
    assert aside.take(fine.path, lambda: pytest.fail("written here")) == excel.render_annex(fine)


def test_a_worker_that_cannot_start_leaves_every_annex_to_the_build(small, monkeypatch):
    monkeypatch.setattr(annex_worker, "_start", lambda: None)
    aside = annex_worker.Aside()
    assert aside.give([annex()]) == set()
    assert aside.take("2026/annexe", lambda: b"written here") == b"written here"


def _given(monkeypatch) -> list[set[str]]:
    """The paths of the annexes given to a worker, by each `give`."""
    given: list[set[str]] = []
    real = annex_worker.Aside.give
    monkeypatch.setattr(annex_worker.Aside, "give",
                        lambda aside, annexes, **kept: given.append(real(aside, annexes, **kept)) or given[-1])
    return given


def test_a_circuit_whose_annexes_a_worker_writes_is_the_same_circuit(example_scored, tmp_path, monkeypatch):
    """The example league's Grand Sud laid out twice: its annexes (and their public copies, if any)
    written here, then by a worker; the same files."""
    report = example_scored.reports["grand-sud"]
    here, _ = render_report("grand-sud", report, tmp_path / "here")
    given = _given(monkeypatch)
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    aside, _ = render_report("grand-sud", report, tmp_path / "aside")
    assert given == [{annex.path for annex in report.annexes}]  # every annex went to the worker
    assert {path.relative_to(tmp_path / "here"): data for path, data in here.items()} == \
        {path.relative_to(tmp_path / "aside"): data for path, data in aside.items()}


def test_a_circuit_starts_its_worker_before_its_site_records(example_scored, tmp_path, monkeypatch):
    """The worker is started at the top of the layout, before the site's records of every ranking
    (the largest step before the annexes are given): spawned, it is ready by then."""
    report = example_scored.reports["grand-sud"]
    order: list[tuple[str, bool]] = []
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    real_start, real_record = annex_worker.Aside.start, site_data.ranking_record

    def start(aside, annexes):
        real_start(aside, annexes)
        order.append(("worker started", aside.worker is not None))

    monkeypatch.setattr(annex_worker.Aside, "start", start)
    monkeypatch.setattr(site_data, "ranking_record", lambda *given: order.append(("record", True)) or real_record(*given))
    render_report("grand-sud", report, tmp_path / "aside")
    assert order[:2] == [("worker started", True), ("record", True)]
    assert len(order) == 1 + len(report.rankings)


# -- annexes taken back at their circuit's publication (pipeline/publishing.py `Later`) ----------

def test_an_annex_given_kept_is_written_here_from_its_messages_when_the_worker_dies(small):
    """Taken back after its circuit's report is gone, a kept annex needs no `write_here`: killed,
    the worker's annex is written here from the messages it was sent, the same bytes."""
    given = annex(rows=300)
    aside = annex_worker.Aside()
    assert aside.give([given], kept={given.path}) == {given.path}
    assert aside.worker is not None
    aside.worker.process.kill()  # SIGKILL
    aside.worker.process.join(5)
    assert aside.take(given.path) == excel.render_annex(given)
    assert aside.kept == {}  # not held once taken


def test_an_annex_not_given_kept_holds_no_message(small):
    given = [annex("2025/annexe"), annex("2026/annexe")]
    aside = annex_worker.Aside()
    assert aside.give(given, kept={"2026/annexe"})
    assert set(aside.kept) == {"2026/annexe"}
    assert aside.take("2025/annexe", lambda: pytest.fail("written here")) == excel.render_annex(given[0])
    assert aside.take("2026/annexe") == excel.render_annex(given[1])


def _later_steps(monkeypatch) -> list[set[str]]:
    """The files of each circuit's annexes taken back at its publication, as the build goes."""
    from reportgen.pipeline import publishing

    found: list[set[str]] = []
    real = publishing.Later.finish

    def finish(later, made_from):
        found.append(later.files)
        return real(later, made_from)

    monkeypatch.setattr(publishing.Later, "finish", finish)
    return found


def test_a_new_tournaments_annex_written_past_the_layout_is_the_same_publication(new_tournament_league, tmp_path,
                                                                                 monkeypatch):
    """One new tournament, built twice from the same outputs: its season annex (of a new date)
    written in the build's process, then by the worker and taken back only at the circuit's
    publication, after the site's pages. The same files, manifests, site and records."""
    import shutil

    from reportgen.pipeline import build
    from tests.builders import TODAY
    from tests.test_hostile_files import snapshot

    inputs, outputs = new_tournament_league
    other = tmp_path / "worker"
    shutil.copytree(outputs, other)
    here = build(inputs, outputs, TODAY)
    assert here.ok
    later = _later_steps(monkeypatch)
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    aside = build(inputs, other, TODAY)
    assert aside.ok
    assert later == [{"2026/annexe-grand-sud-2026.xlsx"}]  # the Grand Sud's season annex, of the new date
    assert snapshot(other) == snapshot(outputs)
    assert sorted(aside.rendered["grand-sud"]) == sorted(other / path.relative_to(outputs)
                                                         for path in here.rendered["grand-sud"])


def test_a_first_builds_annexes_are_waited_for_in_the_layout(tmp_path, monkeypatch):
    """New annexes (a first build's, a new season's) are taken back in the layout, as before: left to
    the worker, they were written while every page of the site was made."""
    from reportgen.pipeline import build
    from tests.builders import TODAY, small_league

    later, given = _later_steps(monkeypatch), _given(monkeypatch)
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    assert build(small_league(tmp_path / "inputs"), tmp_path / "outputs", TODAY).ok
    assert {"2026/annexe-grand-sud-2026"} <= set().union(*given)  # the worker wrote them
    assert later == []


def test_an_annex_published_for_its_date_is_waited_for_and_its_change_named(small_league_copy, monkeypatch):
    """The workbook of the annex's own date corrected: the annex keeps its date, and whether it
    changes what was sent is said before the site's pages (its corrections' page): taken back in the
    layout, as before, not at the publication."""
    import openpyxl

    from reportgen.pipeline import build
    from tests.builders import TODAY

    path = small_league_copy.inputs / "2026-01-10-toulouse.xlsx"
    book = openpyxl.load_workbook(path)
    book["Résultats"]["A2"], book["Résultats"]["A3"] = 2, 1
    book.save(path)
    later = _later_steps(monkeypatch)
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    result = build(small_league_copy.inputs, small_league_copy.outputs, TODAY)
    assert later == []
    assert {f"{r.circuit}/{r.path}" for r in result.republished} == {"grand-sud/2026/classement-2026-01-10",
                                                                       "grand-sud/2026/annexe-grand-sud-2026"}
    manifest = json.loads((small_league_copy.outputs / "grand-sud" / "publications.json").read_bytes())
    title = next(a["title"] for a in manifest["annexes"] if a["path"] == "2026/annexe-grand-sud-2026")
    page = (small_league_copy.outputs / "site" / "corrections.html").read_text()
    # listed on the site's corrections' page, named as the Excel file it links to
    assert f'Annexe Excel&nbsp;: <a href="../grand-sud/2026/annexe-grand-sud-2026.xlsx">{escape(title)}</a> (' in page


def test_an_annex_whose_worker_dies_after_the_layout_is_written_at_the_publication(new_tournament_league, tmp_path,
                                                                                   monkeypatch):
    """The worker killed once the circuit is laid out, and what it wrote gone (as if it had died
    before writing): the annex written by the build's process from the messages kept, the same
    publication."""
    import shutil

    from reportgen.pipeline import build, publishing
    from tests.builders import TODAY
    from tests.test_hostile_files import snapshot

    inputs, outputs = new_tournament_league
    other = tmp_path / "killed"
    shutil.copytree(outputs, other)
    assert build(inputs, outputs, TODAY).ok
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    killed: list[int] = []
    real = publishing.Later.finish

    def finish(later, made_from):
        worker = later.aside.worker
        assert worker is not None  # still there: its annex not taken back yet
        worker.process.kill()
        worker.process.join(5)
        killed.append(worker.process.exitcode)
        for written in later.aside.scratch.folder.iterdir():
            written.unlink()
        return real(later, made_from)

    written_here: list[str] = []
    real_write = excel.write_annex
    monkeypatch.setattr(excel, "write_annex", lambda title, *rest: written_here.append(title) or real_write(title, *rest))
    monkeypatch.setattr(publishing.Later, "finish", finish)
    assert build(inputs, other, TODAY).ok
    assert killed == [-9]
    assert len(written_here) == 1  # the season annex, from its messages (no other annex written here)
    assert snapshot(other) == snapshot(outputs)
