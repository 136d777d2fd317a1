"""What `load(frozen=True)` made is out of the collector's passes until the build that asked for it
ends (fourteenth round): frozen, not leaked. The league holds no cycle, so nothing it holds waits
for the collector to be freed."""

import gc
from pathlib import Path

import pytest

from reportgen.pipeline import build, load
from tests.builders import TODAY

EXAMPLE = Path(__file__).parent.parent / "examples" / "league"


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def tracked(value: object) -> bool:
    """Among the objects the collector's passes walk (the frozen ones are not)."""
    return any(item is value for item in gc.get_objects())


def test_the_league_is_frozen_until_unfrozen_and_holds_no_cycle(unfrozen):
    league = load(EXAMPLE, TODAY, frozen=True)
    event = league.circuits["grand-sud"].events[0]
    assert gc.get_freeze_count() > 0 and not tracked(event)
    gc.unfreeze()
    assert tracked(event)
    gc.collect()
    del league, event
    assert gc.collect() == 0  # nothing it held was a cycle


def test_a_build_leaves_nothing_frozen(unfrozen, tmp_path):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "tournoi.xlsx").write_bytes(b"not a workbook")  # read, refused: a problem, no PDF
    result = build(inputs, tmp_path / "outputs", TODAY)
    assert not result.ok and gc.get_freeze_count() == 0
