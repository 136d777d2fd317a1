"""The pre-check's two passes and where a workbook is read (issue 14).

The quick pass serves the parts the usual programs write and never accepts what the exact pass
refuses (a property over generated sheets, with the bounds lowered so that refusals are common);
a few small workbooks are read in the build's own process, the others by the reading workers, with
the same sheets either way. Real files, real worker processes."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from python_calamine import CalamineWorkbook

from reportgen.ingest import file_reader, precheck, precheck_base, reading_pool
from reportgen.ingest import workbook as reading
from tests.builders import write_tournament
from tests.test_hostile_files import MAIN, package, raw_workbook, tournament_sheet

LOW_BOUNDS = {"MAX_ROWS": 40, "MAX_COLUMNS": 8, "MAX_AREA": 150}


def verdict(path: Path, quick: bool) -> tuple:
    """What the pre-check says of a file: the public inspect (quick pass first), or the exact pass alone."""
    try:
        if quick:
            facts = precheck.inspect(path)
        else:
            with zipfile.ZipFile(path) as archive:
                facts = precheck._inspect(archive, quick=False, inflated_at_most=None)
    except precheck.UnreadableWorkbook as refusal:
        return ("refused", refusal.message, refusal.fix)
    return ("read", [(sheet.name, sheet.hidden, sheet.formulas) for sheet in facts.sheets], facts.values_not_computed)


# Mostly within LOW_BOUNDS's rows and columns (the area is what they then decide), sometimes past them.
letters = st.sampled_from(["A", "B", "C", "H", "H", "H", "I", "AA"])
numbers = st.sampled_from([1, 2, 3, 7, 19, 19, 20, 39, 40, 41, 1000000])
formula = st.sampled_from(["", "<f>SUM(A1:A2)</f><v>3</v>", "<f>SUM(A1:A2)</f>", "<f/><v> </v>"])
FORMS = ["written", "no-r", "lower", "quoted", "prefixed", "spaced", "closed"]


@st.composite
def cell(draw, forms: list[str]) -> str:
    form = draw(st.sampled_from(forms))
    ref = f"{draw(letters)}{draw(numbers)}"
    body = draw(formula) if len(forms) > 1 else "<v>1</v>"
    body = body or "<v>1</v>"
    return {
        "written": f'<c r="{ref}">{body}</c>',
        "no-r": f"<c>{body}</c>",
        "lower": f'<c r="{ref.lower()}">{body}</c>',
        "quoted": f"<c r='{ref}'>{body}</c>",
        "prefixed": f'<x:c r="{ref}">{body}</x:c>',
        "spaced": f'<c  r="{ref}" s="1">{body}</c>',
        "closed": f'<c r="{ref}"/>',
    }[form]


@st.composite
def sheet_data(draw) -> str:
    """Sheets as the usual programs write them (the quick pass's), with one other form, or anything."""
    forms = draw(st.sampled_from([["written"], ["written", "prefixed"], ["written", "no-r"], ["written", "quoted"],
                                  FORMS]))
    rows = []
    for number in range(1, draw(st.integers(0, 8)) + 1):
        opening = draw(st.sampled_from([f'<row r="{number}">', "<row>", f'<row r="{number * 5}">']))
        rows.append(opening + "".join(draw(st.lists(cell(forms), max_size=4))) + "</row>")
    extra = draw(st.sampled_from(["", "", "", "<!-- <c r=\"ZZ9\"/> -->",
                                  '</sheetData><extLst><c r="H900"/></extLst><sheetData>',
                                  '<row><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>',
                                  # entity references: known (plain expat reads them), unknown (refused alike)
                                  '<row r="2"><c r="A2" t="inlineStr"><is><t>&amp;&lt;&#233;</t></is></c></row>',
                                  '<row r="2"><c r="A2" t="inlineStr"><is><t>&eacute;</t></is></c></row>']))
    rows.insert(draw(st.integers(0, len(rows))), extra)
    return "".join(rows)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sheets=st.lists(sheet_data(), min_size=1, max_size=3), max_cells=st.sampled_from([60, 200, 10_000]))
def test_the_quick_pass_says_what_the_exact_pass_says(tmp_path, monkeypatch, sheets, max_cells):
    for name, value in {**LOW_BOUNDS, "MAX_CELLS": max_cells}.items():
        monkeypatch.setattr(precheck, name, value)
    path = tmp_path / "t.xlsx"
    path.write_bytes(prefixed(raw_workbook({f"F{n}": xml for n, xml in enumerate(sheets)})))
    assert verdict(path, quick=True) == verdict(path, quick=False)
    if verdict(path, quick=True)[0] == "read":  # and what a reader may decode is bounded at least as high
        with zipfile.ZipFile(path) as archive:
            exact = precheck._inspect(archive, quick=False, inflated_at_most=None).decoded_at_most
        assert precheck.inspect(path).decoded_at_most >= exact


def prefixed(data: bytes) -> bytes:
    """The workbook with the prefix `x:` declared on every worksheet, as a program writing prefixed
    cells would."""
    return package({name: part.replace(f'<worksheet xmlns="{MAIN}">', f'<worksheet xmlns="{MAIN}" xmlns:x="{MAIN}">')
                    for name, part in _parts(data).items()})


FAR = "la feuille « F » s’étend de A1 à H20, bien au-delà d’un tableau de résultats"


@pytest.mark.parametrize("sheet, max_cells, expected", [
    ('<row r="1"><c r="H20"><v>1</v></c></row>', 10_000, FAR),
    ('<row r="1"><c r="A1"><v>1</v></c><x:c r="H20"><v>1</v></x:c></row>', 10_000, FAR),
    ('<row r="20"><c r="A20"><v>1</v></c>' + "<c><v>1</v></c>" * 7 + "</row>", 10_000, FAR),
    ('<row><c r="A1"/><c r="A41"/></row>', 10_000, "la feuille « F » déclare une cellule en A41, bien au-delà d’un "
                                                   "tableau de résultats"),
    ('<row r="1">' + '<c r="A1"/>' * 60 + "</row>", 60, "le classeur contient plus de 60 cellules"),
], ids=["area", "a-prefixed-cell", "cells-without-r", "the-last-cell", "cells"])
def test_past_a_bound_the_exact_pass_says_why(tmp_path, monkeypatch, sheet, max_cells, expected):
    for name, value in {**LOW_BOUNDS, "MAX_CELLS": max_cells}.items():
        monkeypatch.setattr(precheck, name, value)
    path = tmp_path / "t.xlsx"
    path.write_bytes(prefixed(raw_workbook({"F": sheet})))
    assert verdict(path, quick=True)[:2] == verdict(path, quick=False)[:2] == ("refused", expected)


def test_a_sheet_in_utf16_takes_the_exact_pass(tmp_path, monkeypatch):
    """Its tags are not the bytes the quick pass looks for."""
    for name, value in {**LOW_BOUNDS, "MAX_CELLS": 10_000}.items():
        monkeypatch.setattr(precheck, name, value)
    parts = _parts(raw_workbook({"F": '<row r="1"><c r="H20"><v>1</v></c></row>'}))
    sheet = str(parts["xl/worksheets/sheet1.xml"]).replace('encoding="UTF-8"', 'encoding="UTF-16"')
    parts["xl/worksheets/sheet1.xml"] = sheet.encode("utf-16")
    path = tmp_path / "t.xlsx"
    path.write_bytes(package(parts))
    assert verdict(path, quick=True)[:2] == ("refused", FAR)


def _parts(data: bytes) -> dict[str, bytes | str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_a_workbook_written_by_a_spreadsheet_library_takes_the_quick_pass(tmp_path, monkeypatch):
    """No element of its sheets goes through Python one by one."""
    path = write_tournament(tmp_path, "t", day="01/03/2026", club="ALBI")

    def per_element(*args):
        raise AssertionError("the exact pass ran")

    monkeypatch.setattr(precheck._SheetPart, "start", per_element)
    facts = precheck.inspect(path)
    assert [sheet.name for sheet in facts.sheets] == ["Tournoi", "Résultats"]


def shared_string_amplifier(cells: int, length: int) -> bytes:
    """A small file whose cells all show one long shared string: what a reader decodes it to is
    cells x length."""
    sheet = "".join(f'<row r="{n}"><c r="A{n}" t="s"><v>0</v></c></row>' for n in range(1, cells + 1))
    data = raw_workbook({"Tournoi": tournament_sheet(), "Résultats": sheet})
    parts = _parts(data)
    parts["xl/sharedStrings.xml"] = f'<sst xmlns="{MAIN}"><si><t>{"A" * length}</t></si></sst>'
    return package(parts)


def test_what_a_reader_may_decode_is_bounded_before_reading_here(tmp_path):
    path = tmp_path / "t.xlsx"
    path.write_bytes(shared_string_amplifier(cells=2_000, length=100_000))
    assert path.stat().st_size < 20_000
    precheck.inspect(path)  # within every bound: a worker may read it
    with pytest.raises(precheck.Larger):
        precheck.inspect(path, file_reader.IN_PROCESS_INFLATED, file_reader.IN_PROCESS_DECODED)
    with pytest.raises(precheck.Larger):
        precheck.inspect(path, inflated_at_most=50_000)


def sheets_of(workbooks: list[reading.Workbook]) -> list:
    return [(w.label, [(s.name, s.hidden, s.rows, s.untrusted_formulas) for s in w.sheets]) for w in workbooks]


def test_small_workbooks_are_read_here_the_others_by_workers_the_same_way(tmp_path, monkeypatch):
    inputs = tmp_path / "inputs"
    small = [write_tournament(inputs, f"t{n}", day="01/03/2026", club="ALBI") for n in range(3)]
    amplifier = inputs / "amplificateur.xlsx"
    amplifier.write_bytes(shared_string_amplifier(cells=100, length=100_000))  # 10 MB once read
    monkeypatch.setattr(file_reader, "IN_PROCESS_DECODED", 20 * 1024**2)
    reading.stop_workers()

    here, problems = reading.read_workbooks(small, inputs)
    assert problems == [] and reading_pool._workers == []  # no worker started for them

    mixed, problems = reading.read_workbooks([*small, amplifier], inputs)
    assert problems == [] and len(reading_pool._workers) == 1  # the amplifier alone went to a worker
    assert [len(s.rows) for s in mixed[-1].sheets] == [5, 100]

    monkeypatch.setattr(reading_pool, "IN_PROCESS_BYTES", 0)
    by_workers, _ = reading.read_workbooks(small, inputs)
    assert len(reading_pool._workers) == 2  # past IN_PROCESS_BYTES: both workers started to read them
    assert sheets_of(here) == sheets_of(by_workers) == sheets_of(mixed[:3])


def test_the_quick_pass_takes_a_sheet_without_cells():
    """A blank sheet (`<sheetData/>`, as Excel writes Feuil2): its facts, no cell, no exception."""
    part = precheck._SheetPart("xl/worksheets/sheet2.xml", "Feuil2", precheck._Cells())
    assert part.quick(b'<worksheet xmlns="x"><sheetData/></worksheet>') is True
    assert (part.max_row, part.max_col) == (0, 0)


def test_files_read_here_while_the_workers_start_are_read_as_workers_read_them(tmp_path, monkeypatch):
    """Past IN_PROCESS_BYTES the workers read the files, and this process reads some meanwhile (as
    many as their start leaves it time for): the same sheets, and the amplifier still goes to a
    worker."""
    inputs = tmp_path / "inputs"
    small = [write_tournament(inputs, f"t{n}", day="01/03/2026", club="ALBI") for n in range(6)]
    amplifier = inputs / "amplificateur.xlsx"
    amplifier.write_bytes(shared_string_amplifier(cells=100, length=100_000))
    monkeypatch.setattr(file_reader, "IN_PROCESS_DECODED", 20 * 1024**2)
    here, problems = reading.read_workbooks(small, inputs)  # within IN_PROCESS_BYTES: all here
    assert problems == []

    reading.stop_workers()
    monkeypatch.setattr(reading_pool, "IN_PROCESS_BYTES", 0)
    read_here: list[str] = []  # the files this process read itself
    answer = reading_pool.answer

    def answered_here(path: str, here: bool = False) -> tuple:
        outcome = answer(path, here)  # precheck.Larger for a file left to a worker
        read_here.append(Path(path).name)
        return outcome

    monkeypatch.setattr(reading_pool, "answer", answered_here)
    mixed, problems = reading.read_workbooks([*small, amplifier], inputs)
    assert problems == [] and len(reading_pool._workers) == 2
    assert amplifier.name not in read_here
    assert sheets_of(mixed[:-1]) == sheets_of(here)
    assert [len(s.rows) for s in mixed[-1].sheets] == [5, 100]


def test_what_is_done_while_the_workers_start_stops_when_nothing_is_left():
    """`meanwhile` is called again only while it says there is more to do (and no worker is ready)."""
    calls = []

    def meanwhile() -> bool:
        calls.append(1)
        return len(calls) < 3

    started = reading_pool._start_workers(1, meanwhile)
    try:
        assert len(calls) <= 3 and started[0].ready(0) is False  # its "ready" was taken once
    finally:
        for worker in started:
            worker.kill()


FORKED_READ = """
import pickle, sys
from pathlib import Path
from reportgen.ingest import reading_pool, workbook as reading

reading_pool.IN_PROCESS_BYTES = 0  # every file for the workers
paths = sorted(Path(sys.argv[1]).glob("*.xlsx"))
reading.start_readers(paths)
own = Path("/proc/self/cmdline").read_bytes()
forked = [Path(f"/proc/{w.process.pid}/cmdline").read_bytes() == own for w in reading_pool._workers]
workbooks, problems = reading.read_workbooks(paths, Path(sys.argv[1]))
sys.stdout.buffer.write(pickle.dumps((forked, [(w.label, [(s.name, s.hidden, s.rows, s.untrusted_formulas)
                                                          for s in w.sheets]) for w in workbooks], problems)))
"""


def test_a_process_of_one_thread_forks_its_workers_which_read_the_same_sheets(tmp_path):
    """A process running a single thread (a build, before pandas and its progress bar) forks its
    reading workers instead of spawning them; what they read is what this process reads."""
    import pickle
    import subprocess
    import sys

    inputs = tmp_path / "inputs"
    paths = [write_tournament(inputs, f"t{n}", day="01/03/2026", club="ALBI") for n in range(5)]
    here, _ = reading.read_workbooks(paths, inputs)
    run = subprocess.run([sys.executable, "-c", FORKED_READ, str(inputs)], capture_output=True, check=True)
    forked, sheets, problems = pickle.loads(run.stdout)
    assert forked == [True, True] and problems == []
    assert sheets == sheets_of(here)


DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


@pytest.mark.parametrize("body, quick", [
    (b'<row r="1"><c r="A1"><v>1</v></c><c r="B1" t="s"><v>0</v></c></row>', True),
    (b'<row r="1"><c\nr="A1"><v>1</v></c></row>', False),  # not spaced as usual
    (b'<row r="1"><c r="A1"><v>1</v></c><c><v>2</v></c></row>', False),  # a cell without r
    (b'<row r="1"><c r="A1"/><c/></row>', False),
    (b'<row r="1"><c s="1" r="A1"><v>1</v></c></row>', False),  # r not first
    (b'<row r="1"><c r="AAAA1"><v>1</v></c></row>', False),  # no column of 4 letters
    (b'<row r="1" xmlns:y="urn:y"><y:c r="A1"><v>1</v></y:c></row>', False),  # a prefix declared below the root
    (b'<row r="1"><c r="A1"><f>A2</f><v>1</v></c></row>', False),  # a formula
], ids=["usual", "newline", "no-r", "closed-no-r", "r-second", "four-letters", "prefix-below", "formula"])
def test_the_quick_pass_leaves_to_the_exact_pass_any_cell_written_otherwise(body, quick):
    part = precheck._SheetPart("xl/worksheets/sheet1.xml", "F", precheck._Cells())
    data = DECLARATION + f'<worksheet xmlns="{MAIN}"><sheetData>'.encode() + body + b"</sheetData></worksheet>"
    assert precheck_base._plain(data)
    assert part.quick(data) is quick


@pytest.mark.parametrize("data, plain", [
    (DECLARATION + b"<a>Pourquoi ? Parce que !</a>", True),  # "?" and "!" in text
    (DECLARATION + b"<a><?php x ?></a>", False),
    (b'<?xml version="1.0"<?x ?>?><a/>', False),  # a "<?" inside what looks like the declaration
    (DECLARATION + b"<a><!-- x --></a>", False),
    (b'<?xml version="1.0" encoding="ISO-8859-1"?><a/>', False),
    (b"<a/>", True),
], ids=["marks-in-text", "instruction", "inside-declaration", "comment", "latin-1", "no-declaration"])
def test_a_plain_part(data, plain):
    assert precheck_base._plain(data) is plain


@pytest.mark.parametrize("sheet, calamine_rows", [
    ('<row r="1"><c r="A1" r="A41"><v>1</v></c></row>', 41),  # two r: the patterns see A1, calamine the last
    ('<row r="1"><c r="A1"><v>1</v></c></x>', 1),  # an end tag unmatched, which calamine reads all the same
    ('<row r="1"><c r="A1" s="<c r=&quot;A2&quot;"><v>1</v></c></row>', 1),  # "<" inside an attribute
], ids=["two-r", "end-tag", "lt-in-attribute"])
def test_the_quick_pass_rests_on_the_well_formedness_check(tmp_path, monkeypatch, sheet, calamine_rows):
    """The quick pass's patterns hold only for well-formed XML (every "<" opens a tag, one `r` per
    cell): expat refuses these parts before the patterns are trusted, although calamine reads them
    all, the first past the bounds the patterns would find. Skipping that check to read faster
    would let them through (docs/performance.md)."""
    for name, value in {**LOW_BOUNDS, "MAX_CELLS": 10_000}.items():
        monkeypatch.setattr(precheck, name, value)
    path = tmp_path / "t.xlsx"
    path.write_bytes(raw_workbook({"F": sheet}))
    expected = ("refused", precheck_base.damaged("xl/worksheets/sheet1.xml").message)
    assert verdict(path, quick=True)[:2] == verdict(path, quick=False)[:2] == expected
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("F").to_python(skip_empty_area=False)
    assert len(rows) == calamine_rows
