"""Large annexes written by a worker process on the second core (render/annex_worker.py): the same
bytes as written in the build's process, however the rows are cut into messages; a worker killed or
failing leaves its annex to the build's process, which says the error as it did before."""

from __future__ import annotations

import datetime as dt
import math

import pytest

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


def test_a_circuit_whose_annexes_a_worker_writes_is_the_same_circuit(example_scored, tmp_path, monkeypatch):
    """The example league's Grand Sud laid out twice: its annexes (and their public copies, if any)
    written here, then by a worker; the same files."""
    report = example_scored.reports["grand-sud"]
    here, _ = render_report("grand-sud", report, tmp_path / "here")
    given: list[set[str]] = []
    real = annex_worker.Aside.give
    monkeypatch.setattr(annex_worker, "THRESHOLD", 1)
    monkeypatch.setattr(annex_worker.Aside, "give", lambda aside, annexes: given.append(real(aside, annexes)) or given[-1])
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
    real_start, real_records = annex_worker.Aside.start, site_data.ranking_records

    def start(aside, annexes):
        real_start(aside, annexes)
        order.append(("worker started", aside.worker is not None))

    monkeypatch.setattr(annex_worker.Aside, "start", start)
    monkeypatch.setattr(site_data, "ranking_records", lambda report: order.append(("records", True)) or real_records(report))
    render_report("grand-sud", report, tmp_path / "aside")
    assert order == [("worker started", True), ("records", True)]
