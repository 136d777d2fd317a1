"""The one source of "today" for reportgen: the day every command, build and inbox run is dated by.

`today()` is the machine's day, unless the environment variable REPORTGEN_TODAY names another one
(ISO, `REPORTGEN_TODAY=2026-12-07`). It exists for the tests, which pin the day their leagues are
read on (tests/conftest.py: the leagues are dated 2026 and a season closes with its year, so the
suite would change with the calendar), and for trying a league on an earlier day (a reminder due, a
rebuild as it stood) on a copy of its folders. It is no setting of the secretary's: left set, `inbox`
would judge the workbooks clubs send by that day. A day after the machine's is refused (exit 2), as
a value that is no date: left set, it would publish a season's final ranking before its end; a day
ahead is tried with the machine's clock moved (libfaketime's `faketime`, as tests/test_clock.py
does). Every reading of the day goes through here, never `dt.date.today()`.

Only the day, and the moment an archived version records (`moment()`: read back as a day): the
moments recorded in the send log, a mail's Date and the inbox's database, a scratch folder's age,
and the day an IMAP server says it received a message (delivery/inbox.py `arrived`), stay the real
clock's. tests/test_clock.py checks the code: no other
module reads the machine's clock but those moments, each allowed by name with its reason."""

import datetime as dt
import os
import re

from reportgen import french
from reportgen.model import Mistyped

VARIABLE = "REPORTGEN_TODAY"
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # fromisoformat alone takes 20261207 and 2026-W49-1 too


def today() -> dt.date:
    """The day reportgen works as of: REPORTGEN_TODAY when set (read at each call), else the
    machine's day. A value that is not an ISO date, or a day after the machine's, is a mistyped
    command (exit 2), said in French with the variable's name and what to do."""
    machine = dt.date.today()  # the one reading of the machine's day
    value = os.environ.get(VARIABLE, "").strip()
    if not value:
        return machine
    named = _iso_day(value)
    if named > machine:
        raise Mistyped(f"la variable d’environnement {VARIABLE} vaut « {value} », un jour à venir (la machine est au "
                       f"{french.date_long(machine)}) : reportgen publierait dès aujourd’hui les classements de ce "
                       f"jour-là ; retirez-la (unset {VARIABLE}) pour dater du jour de la machine")
    return named


def _iso_day(value: str) -> dt.date:
    """The day `value` names, written aaaa-mm-jj; anything else a mistyped command."""
    try:
        if ISO_DAY.fullmatch(value):
            return dt.date.fromisoformat(value)
    except ValueError:  # 2026-13-01
        pass
    raise Mistyped(f"la variable d’environnement {VARIABLE} vaut « {value} », qui n’est pas une date : "
                   f"écrivez-la aaaa-mm-jj (par exemple {VARIABLE}=2026-12-07), ou retirez-la pour dater "
                   "du jour de la machine")


def moment() -> dt.datetime:
    """The moment (UTC, to the second) an act is recorded at that is read back as a day: an archived
    version's (delivery/archive.py), the day its copy is scored as of on the site and dated on its
    contents page. The machine's, on the day `today()` names when REPORTGEN_TODAY is set (its time of
    day kept), so that a copy made as of another day is dated that day, as what it archived was."""
    real = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)  # the moments' one reading here
    if not os.environ.get(VARIABLE, "").strip():
        return real
    return dt.datetime.combine(today(), real.timetz())
