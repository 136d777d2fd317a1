"""What the build no longer holds in memory (issue 27, peak memory): the PDFs' HTML kept in files
until rendered (render/pdf_spool.py), each circuit's report released once laid out
(pipeline/scoring.py `release`), its inputs once every circuit is (pipeline/building.py). Each freed
thing is still right where it is read again."""

import datetime as dt
import json
import shutil
import tempfile

import pytest

from reportgen.pipeline import build, score
from reportgen.render import pdf as pdf_render
from reportgen.render.changes import SHARED_FILES
from reportgen.render.pdf_spool import Spool
from tests.builders import TODAY

PAGE = "<!doctype html><html><body><p>Classement « à date » : 1 086 joueurs</p></body></html>"


def test_a_spool_keeps_each_html_in_a_file_and_gives_it_back():
    spool = Spool()
    try:
        assert spool.add(PAGE, dt.date(2026, 3, 14)) == 0 and spool.add("<p>é</p>", dt.date(2026, 3, 15)) == 1
        path, day = spool.file(0)
        assert path.read_text(encoding="utf-8") == PAGE and day == dt.date(2026, 3, 14)
        assert len(spool) == 2 and spool.size(1) == len("<p>é</p>".encode())
        assert list(spool) == [(PAGE, dt.date(2026, 3, 14)), ("<p>é</p>", dt.date(2026, 3, 15))]
        assert spool[1:] == [("<p>é</p>", dt.date(2026, 3, 15))]
        folder = spool.folder
        assert folder is not None and folder.is_dir()
    finally:
        spool.discard()
    assert not folder.exists() and len(spool) == 0


def test_pdfs_rendered_from_spooled_files_are_those_of_their_html(small_league_built):
    """The pool's workers given each HTML's file (`_render_file`), not the HTML: the same bytes as
    the build's PDFs (rendered from that very HTML: the small league prints every row)."""
    folder = small_league_built.outputs / "grand-sud"
    names = ["2026/classement-2026-01-10", "2025/classement-2025-06-01"]
    batch = pdf_render.Batch()
    try:
        pages = [(folder / f"{name}.html").read_text(encoding="utf-8") for name in names]
        batch.add([(folder / f"{name}.pdf", page, TODAY) for name, page in zip(names, pages)])
        # The Batch holds each PDF's path and its HTML's file; the HTML is in the file.
        assert sorted(batch.spool.file(index)[0].read_text(encoding="utf-8") for index in range(2)) == sorted(pages)
        folder_of_html = batch.spool.folder
        rendered = batch.results()
        assert folder_of_html is not None and not folder_of_html.exists()  # removed once rendered
    finally:
        batch.discard()
    assert rendered == {folder / f"{name}.pdf": (folder / f"{name}.pdf").read_bytes() for name in names}
    assert batch.spool.folder is None


@pytest.fixture
def private_temporary(tmp_path, monkeypatch):
    """The system's temporary folder of this test alone: what the build leaves there is seen."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_build_gives_each_pdf_its_html_and_removes_the_files(small_league_built, tmp_path, private_temporary,
                                                               monkeypatch):
    given: dict[str, str] = {}

    def stand_in(pages, workers=2, progress=None):
        assert isinstance(pages, Spool) and list(private_temporary.iterdir()) == [pages.folder]
        given.update({page: pages.file(index)[0].name for index, (page, _) in enumerate(pages)})
        return [b"%PDF stand-in" for _ in pages]

    monkeypatch.setattr(pdf_render, "render_many", stand_in)
    outputs = tmp_path / "outputs"
    assert build(small_league_built.inputs, outputs, TODAY).ok
    pages = {path.read_text(encoding="utf-8") for path in outputs.rglob("*.html") if path.with_suffix(".pdf").is_file()}
    assert set(given) == pages and len(given) > 1  # each PDF's HTML, its page (every row printed)
    assert list(private_temporary.iterdir()) == []
    # The circuit's inputs released once laid out: its manifest still names every workbook it is made from.
    sources = json.loads((outputs / "grand-sud" / "publications.json").read_text(encoding="utf-8"))["sources"]
    workbooks = {path.relative_to(small_league_built.inputs).as_posix()
                 for path in small_league_built.inputs.rglob("*.xlsx")} - set(SHARED_FILES)
    assert set(sources["workbooks"]) == workbooks and len(workbooks) == 4


def test_a_stopped_build_removes_the_pdfs_html_files(small_league_built, tmp_path, private_temporary, monkeypatch):
    def stop(pages, *args, **kwargs):
        assert len(list(private_temporary.iterdir())) == 1
        raise KeyboardInterrupt

    monkeypatch.setattr(pdf_render, "render_many", stop)
    inputs = shutil.copytree(small_league_built.inputs, tmp_path / "inputs")
    with pytest.raises(KeyboardInterrupt):
        build(inputs, tmp_path / "outputs", TODAY)
    assert list(private_temporary.iterdir()) == []


def test_a_released_report_was_read_whole_by_the_circuits_that_require_it(example_league, example_scored):
    """`release`: the Masters (it reads the Grand Sud's rankings) scored as without it; every report
    then holds its notices only, the same ones."""
    laid: dict[str, object] = {}
    released = score(example_league, then=lambda slug, report: laid.setdefault(slug, report), release=True)
    assert list(released.reports) == list(example_scored.reports) and "masters" in laid
    assert laid == example_scored.reports
    for slug, report in released.reports.items():
        assert report.notices == example_scored.reports[slug].notices
        assert not (report.documents or report.annexes or report.rankings or report.messages)



def test_site_data_in_parts_is_the_one_compact_json_of_the_whole(example_scored):
    """`circuit_data_parts` (written to the staged file record by record): joined, the bytes json
    gives for the whole document at once, as `site.json` always was."""
    from types import SimpleNamespace

    from reportgen.model import Event
    from reportgen.site import data as site_data

    for slug, report in example_scored.reports.items():
        events = [site_data.EventRecord(Event("Tournoi hors classement", "Tournoi", dt.date(2026, 3, 14),
                                              SimpleNamespace(location="Albi")), [])]
        parts = list(site_data.circuit_data_parts(report, events))
        whole = json.loads(b"".join(parts))
        assert len(parts) == len(whole["rankings"]) + 2, slug
        assert b"".join(parts) == (json.dumps(whole, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
                                   + "\n").encode("utf-8"), slug
        assert site_data.circuit_data(report, events) == b"".join(parts)
    assert whole["rankings"] and whole["rankings"][-1]["event"] == "Tournoi hors classement"


def test_each_pdf_is_delivered_as_it_is_rendered_and_not_kept(small_league_built):
    """With the workers started early (a new workbook), `Batch.results(deliver=...)` gives each PDF
    to the build's staging as it comes (pipeline/building.py): the same bytes, each once, none
    kept; without them (`render_many`), the same."""
    folder = small_league_built.outputs / "grand-sud"
    names = ["2026/classement-2026-01-10", "2025/classement-2025-06-01"]
    items = [(folder / f"{name}.pdf", (folder / f"{name}.html").read_text(encoding="utf-8"), TODAY) for name in names]
    expected = {path: path.read_bytes() for path, _, _ in items}
    for warm in (True, False):
        delivered: list[tuple[object, bytes]] = []
        if warm:
            pdf_render.warm_up()
        batch = pdf_render.Batch()
        try:
            batch.add(items)
            assert bool(batch.futures) == warm
            assert batch.results(deliver=lambda path, data: delivered.append((path, data))) == {}
        finally:
            pdf_render.cool_down()
            batch.discard()
        assert sorted(path for path, _ in delivered) == sorted(expected) and dict(delivered) == expected


def test_give_back_collects_the_cycles_the_paused_collector_left():
    import gc
    import sys
    import weakref

    from reportgen.render import memory

    class Node:
        pass

    enabled = gc.isenabled()
    gc.disable()
    try:
        node = Node()
        node.self = node  # a cycle: only the collector frees it
        node.payload = bytearray(1 << 20)
        alive = weakref.ref(node)
        del node
        assert alive() is not None
        memory.give_back()
        assert alive() is None
    finally:
        if enabled:
            gc.enable()
    if sys.platform.startswith("linux"):  # glibc here: the freed heap is asked back
        assert memory._trim() is not None


def test_the_tournaments_rows_for_the_site_are_pandas_records(example_league):
    """`_event_results` zips the columns as lists: for every circuit's results table (texts, places,
    a club left empty, a missing place, a missing column), each row the `Result` that the records
    `to_dict("records")` gives make (site/data.py `results_of`), the same values of the same types."""
    import math

    import pandas as pd

    from reportgen.pipeline.building import EVENT_COLUMNS, _event_results
    from reportgen.site.data import results_of

    tables = [found.results for found in example_league.circuits.values() if found.results is not None]
    tables.append(pd.DataFrame({"event": ["a", "b"], "place": [1.0, math.nan], "club": ["Albi", None],
                                "player_id": ["p1", "p2"], "player": ["=SOMME(A1)", "Zoé"], "other": [1, 2]}))
    tables.append(pd.DataFrame({"event": ["a"], "player_id": ["p1"], "player": ["Zoé"]}))  # no place, no club
    assert sum(len(table) for table in tables) > 1000
    for table in tables:
        expected = results_of(table[[column for column in EVENT_COLUMNS if column in table.columns]].to_dict("records"))
        found = _event_results(table)
        assert [repr(row) for row in found] == [repr(row) for row in expected]
        assert [[type(value) for value in row] for row in found] == [[type(value) for value in row] for row in expected]
