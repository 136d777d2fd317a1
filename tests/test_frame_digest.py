"""A table's values hashed exactly (scoring/digests.py `frame_digest`): what an annex's key reads of
the points table in place of its 100,000 rows (render/cache.py `annex_key`). Equal values give equal
digests in any process, whatever the table's index; any one value changed, or its type, gives
another."""

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.scoring.digests import frame_digest

TEXTS = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)  # quotes, NULs, « \\u00e9 » and all
ROWS = st.lists(st.tuples(TEXTS, st.integers(-2**63, 2**63 - 1),
                          st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2100, 1, 1)).map(lambda d: d.replace(microsecond=0))),
                min_size=1, max_size=6)


def frame(rows, index=None) -> pd.DataFrame:
    table = pd.DataFrame(rows, columns=["player", "points", "date"], index=index)
    return table.astype({"date": "datetime64[s]"})


@settings(max_examples=200, deadline=None)
@given(ROWS, st.data())
def test_one_value_changed_changes_the_digest_and_the_index_does_not(rows, data):
    before = frame(rows)
    assert frame_digest(before) == frame_digest(frame(rows, index=[7 * i + 3 for i in range(len(rows))]))
    row = data.draw(st.integers(0, len(rows) - 1))
    column = data.draw(st.integers(0, 2))
    value = data.draw([TEXTS, st.integers(-2**63, 2**63 - 1),
                       st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2100, 1, 1)).map(
                           lambda d: d.replace(microsecond=0))][column])
    changed = [list(r) for r in rows]
    changed[row][column] = value
    after = frame([tuple(r) for r in changed])
    assert (frame_digest(after) == frame_digest(before)) == (changed == [list(r) for r in rows])


def test_texts_and_numbers_and_where_a_column_ends_are_told_apart():
    assert frame_digest(pd.DataFrame({"a": ["1"]})) != frame_digest(pd.DataFrame({"a": [1]}))
    assert frame_digest(pd.DataFrame({"a": ['x", "y']})) != frame_digest(pd.DataFrame({"a": ["x", "y"]}))
    assert frame_digest(pd.DataFrame({"a": ["x"], "b": ["y"]})) != frame_digest(pd.DataFrame({"a": ["x"], "c": ["y"]}))
    assert frame_digest(pd.DataFrame({"a": ["xy", ""]})) != frame_digest(pd.DataFrame({"a": ["x", "y"]}))
    # texts are joined by NULs: one that holds a NUL is written otherwise
    assert frame_digest(pd.DataFrame({"a": ["x\0y", "z"]})) != frame_digest(pd.DataFrame({"a": ["x", "y\0z"]}))
    # a column of objects that JSON does not write (a date): pickled, still by value
    days = pd.DataFrame({"a": [dt.date(2026, 3, 14)]}, dtype=object)
    assert frame_digest(days) == frame_digest(days.copy()) != frame_digest(pd.DataFrame({"a": [dt.date(2026, 3, 15)]},
                                                                                          dtype=object))


def test_the_same_table_gives_the_same_digest_in_any_process():
    code = ("import pandas as pd; from reportgen.scoring.digests import frame_digest; "
            "print(frame_digest(pd.DataFrame({'player': ['DURAND Anne', 'MARTIN Paul'], 'points': [40, 38]})))")
    root = Path(__file__).resolve().parent.parent
    found = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}).stdout for seed in ("0", "1", "2")}
    assert len(found) == 1
