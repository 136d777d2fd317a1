"""Shared fixtures, and the hypothesis profiles.

`make test` replays a fixed set of examples, on CI and on a developer's machine alike (a red run
must mean a regression, never a draw, and the suite stays quick); randomised exploration is the
`thorough` profile's job, before a release: HYPOTHESIS_PROFILE=thorough make test."""

import datetime as dt
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from reportgen import clock

# The session's Chromium and the example league as a site (tests/browser.py), for every test module.
from tests.browser import browser, example_site  # noqa: F401

# `make test`: the tests that share a module- or class-scoped fixture on one worker (tests/xdist_groups.py).
from tests.xdist_groups import pytest_collection_modifyitems  # noqa: F401

# The day every test runs as of, whatever the machine's clock says (reportgen/clock.py), set at
# import so that every `reportgen` process a test starts inherits it. The tests' leagues are dated
# 2026 and a season closes with its year: on the real clock the suite's outputs would change on
# 1 January 2027 with nothing changed in the code. A test about another day sets REPORTGEN_TODAY
# itself (monkeypatch.setenv, or a process's env).
PINNED_TODAY = dt.date(2026, 12, 7)
if dt.date.today() < PINNED_TODAY:  # clock.py refuses a day ahead of the machine's: every command would exit 2
    raise pytest.UsageError(f"this machine's clock says {dt.date.today()}, before the day the suite is pinned to "
                            f"({PINNED_TODAY}): set the clock right")
os.environ[clock.VARIABLE] = PINNED_TODAY.isoformat()

settings.register_profile("fixed", max_examples=50, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))


# -- the secretary's own folders -----------------------------------------------------------------

REPOSITORY = Path(__file__).resolve().parents[1]


def _files_of(*folders: Path) -> dict[str, tuple[int, int]]:
    """Each file under `folders` (relative to the repository) -> its size and mtime."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.is_file():
                stat = path.stat()
                found[path.relative_to(REPOSITORY).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return found


@pytest.fixture(scope="session", autouse=True)
def working_folders_untouched():
    """No test writes into the repository's inputs/ or outputs/, the folders `make` builds from and
    into: a command run without `--inputs` and `--outputs` in the repository's folder would (one
    left a verification page there saying a test's workbook could not be read)."""
    folders = (REPOSITORY / "inputs", REPOSITORY / "outputs")
    before = _files_of(*folders)
    yield
    after = _files_of(*folders)
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    assert not changed, f"tests wrote into the repository's working folders: {changed[:10]}"


# -- leagues built once per test session --------------------------------------------------------
# Tests read these and never change them; a test that changes a league works on `small_league_copy`.

EXAMPLE_INPUTS = REPOSITORY / "examples" / "league"  # never the working inputs/


@dataclass(frozen=True)
class Built:
    inputs: Path
    outputs: Path
    result: object  # the pipeline's BuildResult of the first build


@pytest.fixture(scope="session")
def small_league_built(tmp_path_factory) -> Built:
    from reportgen.pipeline import build
    from tests.builders import TODAY, small_league

    root = tmp_path_factory.mktemp("small-league")
    inputs = small_league(root / "inputs")
    result = build(inputs, root / "outputs", TODAY)
    assert result.ok and not result.blocked
    return Built(inputs, root / "outputs", result)


@pytest.fixture
def small_league_copy(small_league_built, tmp_path) -> Built:
    """A private copy of the built small league: the next build reuses its PDFs, so only what the
    test changes is rendered."""
    for folder in ("inputs", "outputs"):
        shutil.copytree(getattr(small_league_built, folder), tmp_path / folder)
    return Built(tmp_path / "inputs", tmp_path / "outputs", small_league_built.result)


@pytest.fixture
def new_tournament_league(small_league_copy, monkeypatch) -> tuple[Path, Path]:
    """(inputs, outputs) of a copy of the built small league with one new tournament, not built yet;
    PDFs rendered as stand-ins (a build of it runs the whole pipeline without WeasyPrint's time)."""
    from reportgen.render import pdf as pdf_render
    from tests.test_hostile_publish import new_tournament
    from tests.test_incremental_build import stand_in

    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: stand_in(page))
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        stand_in(page) for page, _ in pages])
    new_tournament(small_league_copy.inputs)
    return small_league_copy.inputs, small_league_copy.outputs


@pytest.fixture(scope="session")
def example_league():
    """The example league of inputs/, read once."""
    from reportgen.pipeline import load
    from tests.builders import TODAY

    return load(EXAMPLE_INPUTS, TODAY)


@pytest.fixture(scope="session")
def example_scored(example_league):
    """Every circuit of the example league, scored once."""
    from reportgen.pipeline import score

    return score(example_league)


# -- what the readers are given -------------------------------------------------------------------

@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The workbooks given to the readers (their names), read after read: those the read cache and
    the known sheets spare are not among them."""
    from reportgen.ingest import reading_pool

    given: list[str] = []
    real = reading_pool.read_all

    def counting(paths, *args, **kwargs):
        given.extend(path.name for path in paths)
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(reading_pool, "read_all", counting)
    return given
