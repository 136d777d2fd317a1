"""Each workbook's parse kept (ingest/parse_cache.py, signed by reportgen/signing.py): what a build
takes from it is exactly what parsing gives, for every circuit, with its problems and the sheets it
consulted; any input of the parse changed parses again; an entry damaged, signed elsewhere or naming
what an event never holds is ignored, and nothing it names is run; a build's outputs are the same
bytes with and without it. No timing here (docs/performance.md)."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import hashlib
import os
import pickle
import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen import signing
from reportgen.ingest.parse_cache import PARSES, ParseCache, Parsed, Unkeyable, fingerprint
from reportgen.ingest.read_cache import FOLDER, ReadCache
from reportgen.ingest.text import Unprintable
from reportgen.ingest.workbook import Sheet, read_workbooks
from reportgen.model import Level, SourceRef
from reportgen.pipeline import build
from reportgen.pipeline.loading import League, load
from reportgen.render import cache
from tests.builders import CLUBS, TODAY, write_clubs, write_tournament
from tests.test_incremental_build import stub_pdfs  # noqa: F401 (a fixture)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "league"
CODE = "code"  # the fingerprint the entries are keyed on: any text here
# One workbook of each circuit, and the directories (examples/league).
CHOSEN = ["clubs.xlsx", "joueurs.xlsx", "2026/2026-03-14-perpignan.xlsx", "masters/masters-2026.xlsx",
          "poules/2026-09-05-open-automne.xlsx", "tantrix/2026-03-14-week-end-de-printemps.xlsx",
          "tour-de-france/2005/2005-03-19-sassenage.xlsx"]


def same(value: object) -> object:
    """A value as a tree of its types and every field (those left out of `==` too), tuples apart
    from lists: two values with the same tree are the same for every reader."""
    kind = type(value).__qualname__
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return kind, tuple((f.name, same(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple)):
        return kind, tuple(map(same, value))
    if isinstance(value, (set, frozenset)):
        return kind, tuple(sorted(map(same, value), key=repr))
    if isinstance(value, dict):
        return kind, tuple((same(key), same(item)) for key, item in value.items())
    return kind, value


def league_tree(league: League) -> object:
    """Everything load() gives, the results tables as their records."""
    circuits = {slug: (same(found.events), same(found.problems), found.results.to_dict("split"),
                       found.listed.to_dict("split")) for slug, found in league.circuits.items()}
    return circuits, same(league.problems), league.notices, same(league.warnings), same(league.calendar)


# -- every circuit's parse, from the cache and fresh ------------------------------------------

@pytest.fixture(scope="module")
def chosen(tmp_path_factory) -> tuple[Path, dict[str, list[Sheet]]]:
    """A league of one workbook of each circuit (examples/league), and each file's sheets as read."""
    inputs = tmp_path_factory.mktemp("chosen") / "inputs"
    for name in CHOSEN:
        (inputs / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLE / name, inputs / name)
    workbooks, unreadable = read_workbooks([inputs / name for name in CHOSEN], inputs)
    assert not unreadable
    return inputs, {workbook.label: workbook.sheets for workbook in workbooks}


def loaded(inputs: Path, sheets: dict[str, list[Sheet]], parses: ParseCache | None, today: dt.date = TODAY) -> League:
    """load() with each workbook's sheets given as read (`sheets`, by label) through a read cache,
    each under the hash of its cells."""
    reads = ReadCache(None, CODE)
    digests = {}
    for label, its_sheets in sheets.items():
        digests[label] = hashlib.sha256(repr(same(its_sheets)).encode("utf-8", "surrogatepass")).hexdigest()
        reads.put(digests[label], 0, copy.deepcopy(its_sheets))
    return load(inputs, today, reads=reads, digests=digests, parses=parses)


cells = st.one_of(st.just(""), st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
                  st.sampled_from(["Élodie", "ÇA VA", "1er", "=3", "oui", "non", " ", "14/03/2026", "TLSE", "31/02/2026"]),
                  st.integers(-3, 40), st.floats(-5, 1e6, allow_nan=False), st.booleans(),
                  st.dates(dt.date(2024, 1, 1), dt.date(2028, 1, 1)),
                  st.datetimes(dt.datetime(2024, 1, 1), dt.datetime(2028, 1, 1)),
                  st.times(), st.timedeltas(dt.timedelta(0), dt.timedelta(hours=3)), st.just(Unprintable()))
edits = st.lists(st.tuples(st.integers(2, len(CHOSEN) - 1), st.integers(0, 3), st.integers(0, 40), st.integers(0, 12),
                           cells), max_size=8)


def edited(sheets: dict[str, list[Sheet]], changes: list, hide: int | None) -> dict[str, list[Sheet]]:
    result = copy.deepcopy(sheets)
    for workbook, sheet, row, col, value in changes:
        found = result[CHOSEN[workbook]]
        target = found[sheet % len(found)]
        rows = [list(cells_) for cells_ in target.rows]
        while len(rows) <= row:
            rows.append([])
        rows[row] += [""] * (col + 1 - len(rows[row]))
        rows[row][col] = value
        target.rows = rows
    if hide is not None:
        found = result[CHOSEN[hide]]
        found[-1].hidden = True
        found[0].hidden_rows = (1, 2)
    return result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(changes=edits, hide=st.none() | st.integers(2, len(CHOSEN) - 1),
       today=st.sampled_from([TODAY, dt.date(2026, 3, 1), dt.date(2027, 2, 1)]))
def test_a_parse_from_the_cache_is_the_parse_itself(chosen, tmp_path_factory, changes, hide, today):
    """Every circuit's workbook with cells changed to anything (accents, dates, empty cells, control
    characters, values that make problems and warnings): the league loaded from the cache is the one
    loaded without it, events, problems, notices (consulted sheets) and tables alike."""
    inputs, sheets = chosen
    sheets = edited(sheets, changes, hide)
    fresh = league_tree(loaded(inputs, sheets, None, today))
    outputs = tmp_path_factory.mktemp("outputs")
    first = ParseCache(outputs, CODE)
    assert league_tree(loaded(inputs, sheets, first, today)) == fresh
    first.save()
    again = ParseCache(outputs, CODE)
    assert league_tree(loaded(inputs, sheets, again, today)) == fresh
    assert not again.pending and len(again.used) == len(CHOSEN) - 2  # every tournament from the cache


def test_the_example_league_from_the_cache_is_the_example_league(tmp_path):
    """Every workbook of the example league (five circuits, problems and warnings none: its notices,
    hidden sheets and rows included) loaded from the cache."""
    reads = ReadCache(None, CODE)
    digests = cache.inputs_digest(EXAMPLE)
    fresh = league_tree(load(EXAMPLE, TODAY, reads=reads, digests=digests))
    first = ParseCache(tmp_path, CODE)
    assert league_tree(load(EXAMPLE, TODAY, reads=reads, digests=digests, parses=first)) == fresh
    first.save()
    again = ParseCache(tmp_path, CODE)
    assert league_tree(load(EXAMPLE, TODAY, reads=reads, digests=digests, parses=again)) == fresh
    assert not again.pending and len(again.used) == len(first.used) > 40


# -- what keys an entry ---------------------------------------------------------------------

def small(inputs: Path) -> Path:
    write_clubs(inputs)
    write_tournament(inputs, "2026-03-14-carc", day="14/03/2026", club="CARC", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"]])
    return inputs


def parsed_twice(inputs: Path, outputs: Path, change, today: dt.date = TODAY,
                 after: dt.date | None = None) -> tuple[League, ParseCache]:
    """load() with the parse cache, then `change(inputs)`, then load() again with it: the second
    league and its cache (which says what it found and what it parsed)."""
    reads = ReadCache(None, CODE)
    first = ParseCache(outputs, CODE)
    load(inputs, today, reads=reads, digests=cache.inputs_digest(inputs), parses=first)
    first.save()
    assert first.used
    change(inputs)
    again = ParseCache(outputs, CODE)
    league = load(inputs, after or today, reads=reads, digests=cache.inputs_digest(inputs), parses=again)
    fresh = load(inputs, after or today)
    assert league_tree(league) == league_tree(fresh)
    return league, again


def nothing(inputs: Path) -> None:
    pass


def test_the_same_inputs_come_from_the_cache(tmp_path):
    _, again = parsed_twice(small(tmp_path / "inputs"), tmp_path / "outputs", nothing)
    assert again.used and not again.pending


@pytest.mark.parametrize("change", [
    pytest.param(lambda inputs: (inputs / "reportgen.toml").write_text('[league]\nname = "Ligue de test"\n', encoding="utf-8"),
                 id="the league's name (reportgen.toml)"),
    pytest.param(lambda inputs: (inputs / "saisons.toml").write_text("[closed]\n2026 = 2026-10-01\n", encoding="utf-8"),
                 id="a closed season (saisons.toml)"),
    pytest.param(lambda inputs: write_clubs(inputs, dataclasses.replace(CLUBS, clubs=CLUBS.clubs[:-1])),
                 id="the club directory"),
    pytest.param(lambda inputs: write_tournament(inputs, "2026-03-14-carc", day="14/03/2026", club="CARC", results=[
        [1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Pierre", "1002", "Albi"]]), id="its content"),
    pytest.param(lambda inputs: (inputs / "2026-03-14-carc.xlsx").rename(inputs / "2026-03-14-carcassonne.xlsx"),
                 id="its name"),
])
def test_each_input_of_the_parse_changed_parses_again(tmp_path, change):
    league, again = parsed_twice(small(tmp_path / "inputs"), tmp_path / "outputs", change)
    assert again.pending and not again.used  # parsed, and kept for the next build


def test_another_day_parses_again(tmp_path):
    """A date after the day is refused: the same workbook read the day before its tournament is a
    problem, read the day after it is not."""
    league, again = parsed_twice(small(tmp_path / "inputs"), tmp_path / "outputs", nothing,
                                 today=dt.date(2026, 3, 13), after=dt.date(2026, 3, 15))
    assert again.pending and not again.used
    assert [event.id for event in league.circuits["grand-sud"].events] == ["2026-03-14-carc.xlsx"]


def test_a_renamed_workbook_is_named_by_its_new_name(tmp_path):
    def rename(inputs: Path) -> None:
        (inputs / "2026-03-14-carc.xlsx").rename(inputs / "renamed.xlsx")

    league, _ = parsed_twice(small(tmp_path / "inputs"), tmp_path / "outputs", rename)
    event = league.circuits["grand-sud"].events[0]
    assert event.id == "renamed.xlsx" and {row.ref.path for row in event.results} == {"renamed.xlsx"}


def test_a_club_added_to_the_directory_is_known_to_the_parse(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs, dataclasses.replace(CLUBS, clubs=[c for c in CLUBS.clubs if c.code != "CARC"]))
    small_inputs = small(tmp_path / "scratch")
    shutil.copy(small_inputs / "2026-03-14-carc.xlsx", inputs)
    reads = ReadCache(None, CODE)
    first = ParseCache(tmp_path / "outputs", CODE)
    refused = load(inputs, TODAY, reads=reads, digests=cache.inputs_digest(inputs), parses=first)
    assert not refused.circuits["grand-sud"].events and refused.circuits["grand-sud"].problems
    first.save()
    write_clubs(inputs)
    known = load(inputs, TODAY, reads=reads, digests=cache.inputs_digest(inputs), parses=ParseCache(tmp_path / "outputs", CODE))
    assert [event.content.club.code for event in known.circuits["grand-sud"].events] == ["CARC"]


# -- an entry damaged, signed elsewhere, or naming what an event never holds ---------------------

class Ran(BaseException):
    """Raised by what a planted entry names: had the cache loaded it, the test would see it."""


def planted() -> None:
    raise Ran


class Planted:
    def __reduce__(self):
        return planted, ()


class Shell:
    def __reduce__(self):
        return os.system, ("true",)


def signed_again(payload: object):
    """Whatever the entry held replaced by `payload`, pickled and signed with this machine's key:
    what only someone holding the key could write."""
    def damage(entry: str, data: bytes) -> bytes:
        return signing.Signer.local().sign(entry, pickle.dumps(payload, protocol=5))
    return damage


def cut(entry: str, data: bytes) -> bytes:
    return data[: len(data) // 2]


def flipped(entry: str, data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def other_key(entry: str, data: bytes) -> bytes:
    return signing.Signer(b"k" * signing.KEY_BYTES).sign(entry, data[signing.MAC_BYTES:])


def unsigned(entry: str, data: bytes) -> bytes:
    return data[signing.MAC_BYTES:]


def another_entry(entry: str, data: bytes) -> bytes:
    """Another workbook's entry, signed for that one, copied under this one's name."""
    return signing.Signer.local().sign("0" * 64, data[signing.MAC_BYTES:])


@pytest.mark.parametrize("damage", [
    pytest.param(cut, id="cut"),
    pytest.param(flipped, id="one bit changed"),
    pytest.param(unsigned, id="not signed"),
    pytest.param(other_key, id="signed on another machine"),
    pytest.param(another_entry, id="signed for another entry"),
    pytest.param(lambda entry, data: b"", id="empty"),
    pytest.param(signed_again([]), id="not a parse"),
    pytest.param(signed_again(Parsed(None, [], [99])), id="a sheet it has not"),
    pytest.param(signed_again(Parsed(None, ["not a problem"], [])), id="not a problem"),
    pytest.param(signed_again(Parsed(Shell(), [], [])), id="a function of another module"),
    pytest.param(signed_again(Parsed(Planted(), [], [])), id="a function of the tests"),
])
def test_a_damaged_entry_is_ignored_and_written_again(tmp_path, damage):
    inputs = small(tmp_path / "inputs")

    def spoil(inputs: Path) -> None:
        for entry in (tmp_path / "outputs" / FOLDER / PARSES).iterdir():
            entry.write_bytes(damage(entry.name, entry.read_bytes()))

    _, again = parsed_twice(inputs, tmp_path / "outputs", spoil)  # Ran, had it run what it names
    assert again.pending and not again.used
    again.save()
    after = ParseCache(tmp_path / "outputs", CODE)
    load(inputs, TODAY, reads=ReadCache(None, CODE), digests=cache.inputs_digest(inputs), parses=after)
    assert after.used and not after.pending


def test_an_entry_is_signed_with_the_machines_key(tmp_path):
    """What an entry holds is the parse, pickled, behind this machine's signature for its name."""
    inputs = small(tmp_path / "inputs")
    parses = ParseCache(tmp_path / "outputs", CODE)
    league = load(inputs, TODAY, reads=ReadCache(None, CODE), digests=cache.inputs_digest(inputs), parses=parses)
    parses.save()
    [entry] = (tmp_path / "outputs" / FOLDER / PARSES).iterdir()
    data = signing.Signer.local().open(entry.name, entry.read_bytes())
    assert data is not None and same(pickle.loads(data).event) == same(league.circuits["grand-sud"].events[0])


# -- the machine's key --------------------------------------------------------------------------

def test_the_key_is_made_once_for_its_owner_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    first = signing.Signer.local()
    key = tmp_path / "state" / "reportgen" / signing.KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == signing.KEY_BYTES
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    made = key.read_bytes()
    signed = first.sign("entry", b"data")
    assert signing.Signer.local().open("entry", signed) == b"data"  # the same key, read back
    assert key.read_bytes() == made and [p.name for p in key.parent.iterdir()] == [signing.KEY_FILE]
    assert signing.Signer(b"k" * signing.KEY_BYTES).open("entry", signed) is None
    assert first.open("another entry", signed) is None


@pytest.mark.parametrize("spoil", [
    pytest.param(lambda key: key.chmod(0o644), id="readable by others"),
    pytest.param(lambda key: key.write_bytes(b"short"), id="not a key"),
    pytest.param(lambda key: (key.unlink(), key.symlink_to(key.parent / "elsewhere")), id="a link"),
])
def test_a_key_that_is_not_ours_alone_keeps_nothing(tmp_path, monkeypatch, spoil):
    """No key, no cache: every workbook parsed, nothing written under outputs/."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert signing.Signer.local() is not None
    key = tmp_path / "state" / "reportgen" / signing.KEY_FILE
    (key.parent / "elsewhere").write_bytes(b"k" * signing.KEY_BYTES)
    spoil(key)
    assert signing.Signer.local() is None
    inputs = small(tmp_path / "inputs")
    parses = ParseCache(tmp_path / "outputs", CODE)
    league = load(inputs, TODAY, reads=ReadCache(None, CODE), digests=cache.inputs_digest(inputs), parses=parses)
    parses.save()
    assert league.circuits["grand-sud"].events and not (tmp_path / "outputs").exists()


def test_without_a_home_nothing_is_kept(monkeypatch):
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("HOME")
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError("no home"))))
    assert signing.Signer.local() is None


# -- what a key takes of the Reading --------------------------------------------------------------

def test_the_fingerprint_counts_every_field_and_type():
    assert fingerprint({"b": 1, "a": (1, 2)}) == fingerprint({"a": (1, 2), "b": 1})
    distinct = [1, 1.0, True, "1", (1,), [1], dt.date(2026, 1, 1), dt.datetime(2026, 1, 1), list(Level)[0], str(list(Level)[0]),
                SourceRef("a"), SourceRef("a", "b"), {"1": 1}, None]
    assert len({fingerprint(value) for value in distinct}) == len(distinct)
    for value in [{1}, Path("a"), object(), Unprintable()]:
        with pytest.raises(Unkeyable):
            fingerprint(value)


def test_an_unreadable_folder_parses_without_a_word(tmp_path):
    inputs = small(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    (outputs / FOLDER).mkdir(parents=True)
    (outputs / FOLDER / PARSES).write_text("a file where the folder should be")
    parses = ParseCache(outputs, CODE)
    league = load(inputs, TODAY, reads=ReadCache(None, CODE), digests=cache.inputs_digest(inputs), parses=parses)
    assert league.circuits["grand-sud"].events and parses.pending
    parses.save()  # cannot write: said nowhere, the next build parses again
    assert (outputs / FOLDER / PARSES).read_text() == "a file where the folder should be" and not parses.used


def test_only_what_the_build_used_is_kept(tmp_path):
    """Nothing is written before `save` (a build that fails leaves outputs/ as it was); the entries
    no longer used go then."""
    inputs = small(tmp_path / "inputs")
    outputs = tmp_path / "outputs"
    folder = outputs / FOLDER / PARSES
    kept: list[str] = []

    def remove(inputs: Path) -> None:
        kept.extend(path.name for path in folder.iterdir())
        assert len(kept) == 1
        (inputs / "2026-03-14-carc.xlsx").unlink()
        write_tournament(inputs, "2026-04-04-albi", day="04/04/2026", club="ALBI")

    _, again = parsed_twice(inputs, outputs, remove)
    new = list(again.pending)
    assert sorted(path.name for path in folder.iterdir()) == kept and len(new) == 1 and new != kept
    again.save()
    assert [path.name for path in folder.iterdir()] == new


# -- a build's outputs ----------------------------------------------------------------------

def files(outputs: Path) -> dict[str, bytes]:
    return {path.relative_to(outputs).as_posix(): path.read_bytes() for path in sorted(outputs.rglob("*"))
            if path.is_file() and FOLDER not in path.relative_to(outputs).parts}


def test_a_build_from_the_cache_writes_the_same_bytes(tmp_path, stub_pdfs):  # noqa: F811
    """The example league built, then built again with one more tournament: from the parses kept by
    the first build, and with none kept (the folder removed), the same files, byte for byte."""
    inputs = tmp_path / "inputs"
    shutil.copytree(EXAMPLE, inputs)
    first = tmp_path / "first"
    assert build(inputs, first, TODAY).ok
    assert len(list((first / FOLDER / PARSES).iterdir())) > 40
    write_tournament(inputs / "2026", "2026-11-21-carcassonne", day="21/11/2026", club="CARC",
                     extra_fields=[["Série", "automne"]])
    with_cache, without = tmp_path / "with", tmp_path / "without"
    shutil.copytree(first, with_cache)
    shutil.copytree(first, without)
    shutil.rmtree(without / FOLDER / PARSES)
    cached, parsed = build(inputs, with_cache, TODAY), build(inputs, without, TODAY)
    assert cached.notices == parsed.notices and cached.ok == parsed.ok
    assert files(with_cache) == files(without)
    assert sorted(p.name for p in (with_cache / FOLDER / PARSES).iterdir()) == \
        sorted(p.name for p in (without / FOLDER / PARSES).iterdir())
