"""What `reportgen build` reads of archive/ is in the league's key (delivery/archive_key.py): a
change there alone (a row of an archived season, a copy's workbook) makes the next `make` build
its site's pages again, and a change of what it does not read (a mail sent: the send log) leaves
it skipped. Real processes: `reportgen build`, `archive` and `mail --send` against aiosmtpd."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from reportgen.delivery.archive_key import ROWS, rows_digest
from reportgen.delivery.site_archive_kept import KEPT
from reportgen.ingest.read_cache import FOLDER
from reportgen.pipeline.state import STATE
from tests import test_delivery_mail as mail
from tests.builders import write_tournament
from tests.test_delivery_mail import CLUBS, REPORTGEN, set_clubs, set_mail
from tests.test_site_archive import only_places, typed_anew

smtp = mail.smtp  # the real SMTP server
SKIPPED = "rien n’a changé depuis la dernière construction"


def reportgen(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([REPORTGEN, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def outputs_bytes(outputs: Path) -> dict[str, bytes]:
    """Every output a visitor or a club gets (the build's own records under .reportgen aside)."""
    return {str(path.relative_to(outputs)): path.read_bytes() for path in sorted(outputs.rglob("*"))
            if path.is_file() and FOLDER not in path.parts}


@pytest.fixture
def archived_2024(tmp_path, smtp):
    """A league whose 2024 season was archived and left inputs/ (2026 does not read it back: the
    site shows it from the archive alone), built until a build finds nothing changed; clubs with
    addresses and [mail] on the fixture's SMTP server. (inputs, outputs, archive, build)."""
    inputs, outputs, archive = tmp_path / "inputs", tmp_path / "outputs", tmp_path / "archive"
    set_clubs(inputs, CLUBS)
    set_mail(inputs, smtp.port)
    write_tournament(inputs, "2024-03-01-albi", day="01/03/2024", club="ALBI")
    write_tournament(inputs, "2026-01-10-carcassonne", day="10/01/2026")

    def build() -> str:
        return reportgen("build", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive)).stderr

    build()
    reportgen("archive", "--season", "2024", "--inputs", str(inputs), "--outputs", str(outputs),
              "--archive", str(archive))
    (inputs / "2024-03-01-albi.xlsx").unlink()
    for _ in range(3):  # the first publishes without 2024's workbook and keeps no state (it withdrew documents)
        if SKIPPED in build():
            break
    else:
        pytest.fail("no build found nothing changed")
    return inputs, outputs, archive, build


def keys(outputs: Path) -> list[str]:
    return json.loads((outputs / FOLDER / STATE).read_text(encoding="ascii"))["keys"]


def test_a_row_of_an_archived_season_changed_in_the_database_alone_is_built_again(archived_2024):
    """Before, the folders' key moved (the database's bytes), the league's did not (inputs/ the
    same, 2024 not put back): « rien n’a changé », and the season page kept « MARTIN Paul »."""
    inputs, outputs, archive, build = archived_2024
    season = outputs / "site" / "grand-sud-2024.html"
    assert "MARTIN Paul" in season.read_text(encoding="utf-8")
    before, recorded = outputs_bytes(outputs), keys(outputs)
    with sqlite3.connect(archive / "league.sqlite") as database:  # a season's record corrected
        assert database.execute("UPDATE ranking_row SET player = 'MARTINEZ Paul' WHERE player = 'MARTIN Paul'").rowcount
    database.close()
    said = build()
    assert SKIPPED not in said
    assert not set(keys(outputs)) & set(recorded)  # recorded under new keys, both of them
    after = outputs_bytes(outputs)
    changed = {name for name in after if before.get(name) != after[name]}
    assert "MARTINEZ Paul" in season.read_text(encoding="utf-8")
    # the page the row is on (and its card); no bulletin, annex, CSV, nor another page
    assert "site/grand-sud-2024.html" in changed and all(name.startswith("site/") for name in changed), changed
    assert SKIPPED in build()


def test_a_workbook_of_an_archived_copy_changed_alone_is_said_by_the_next_build(archived_2024):
    """Its season's pages then show what the database keeps, and the build says which workbook:
    before, the next build said « rien n’a changé » and nothing of it."""
    inputs, outputs, archive, build = archived_2024
    workbook = archive / "2024" / "v1" / "inputs" / "2024-03-01-albi.xlsx"
    typed_anew(workbook)
    said = build()
    assert SKIPPED not in said and f"note : {only_places(workbook, 2024)}\n" in said


def test_a_mail_sent_changes_the_database_and_the_next_build_stays_skipped(archived_2024, smtp):
    """The send log is in the same file, which the build does not read: the database is in the
    league's key by the rows the build reads, so the build after `mail --send` finds its league
    unchanged and writes nothing (it records its new folders' key beside the league's, then the
    next one is skipped by the folders' key alone, without reading the rows again)."""
    inputs, outputs, archive, build = archived_2024
    database = archive / "league.sqlite"
    recorded, file_before = keys(outputs), database.read_bytes()
    sent = reportgen("mail", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive), "--send")
    assert "envoyé" in sent.stdout and smtp.received
    before = outputs_bytes(outputs)  # with what `mail` wrote there (the clubs' own bulletins)
    assert database.read_bytes() != file_before  # the send log's rows: the folders' key moves
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT count(*) FROM sending WHERE status = 'sent'").fetchone()[0] >= 1
    connection.close()
    assert SKIPPED in build()
    assert outputs_bytes(outputs) == before
    now = keys(outputs)
    assert len(set(recorded) & set(now)) == 1 and len(now) == 2  # the league's key the same, the folders' new
    memo = json.loads((outputs / FOLDER / ROWS).read_text(encoding="utf-8"))
    assert memo["rows"].startswith("rows ")  # known by its rows, not by the file's bytes
    assert SKIPPED in build()


def test_a_message_inbox_kept_without_filing_a_workbook_leaves_the_next_build_skipped(archived_2024):
    """`inbox` keeps every message it reads under archive/inbox/ (and a refused or held workbook
    there), which no build reads: before, each such file was in the league's key, and the build
    after an `inbox` run that filed nothing put the whole league together again, every archived
    season scored anew, to write nothing."""
    inputs, outputs, archive, build = archived_2024
    recorded, before = keys(outputs), outputs_bytes(outputs)
    kept = archive / "inbox" / "messages" / "1-7.eml"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"From: secretariat@albi.example\r\nSubject: Bonjour\r\n\r\nSans classeur.\r\n")
    (archive / "inbox" / "refused").mkdir()
    (archive / "inbox" / "refused" / "2026-12-07-ALBI-7-tournoi.xlsx").write_bytes(b"not a workbook")
    assert SKIPPED in build()
    assert outputs_bytes(outputs) == before
    now = keys(outputs)
    assert len(set(recorded) & set(now)) == 1 and len(now) == 2  # the league's key the same, the folders' new


def test_the_rows_are_known_by_the_bytes_they_were_read_from(archived_2024):
    """Read in one transaction with the file's SHA-256: the digest kept for the file is that of its
    rows, whatever a writer committed just before or after; an empty table and one an older schema
    lacks read alike."""
    inputs, outputs, archive, build = archived_2024
    database = archive / "league.sqlite"
    digest, read_from = rows_digest(database)
    assert read_from == hashlib.sha256(database.read_bytes()).hexdigest()
    with sqlite3.connect(database) as connection:
        assert not connection.execute("SELECT count(*) FROM ranking_left_out").fetchone()[0]
        connection.execute("DROP TABLE ranking_left_out")
    connection.close()
    assert rows_digest(database)[0] == digest


def test_a_build_after_a_mail_sent_takes_the_archived_seasons_records_back(archived_2024, smtp):
    """A new tournament after `mail --send`: the build runs, and takes the archived seasons' site
    records back (outputs/.reportgen/archive-site, delivery/site_archive_kept.py) instead of reading
    and scoring 2024's copy again. Before, they were keyed by every byte of archive/: the send log's
    rows moved the key, and the records were made again and written anew for nothing."""
    inputs, outputs, archive, build = archived_2024
    kept = outputs / FOLDER / KEPT
    before = kept.stat().st_ino, kept.read_bytes()
    sent = reportgen("mail", "--inputs", str(inputs), "--outputs", str(outputs), "--archive", str(archive), "--send")
    assert "envoyé" in sent.stdout and smtp.received
    write_tournament(inputs, "2026-02-07-albi", day="07/02/2026", club="ALBI")
    said = build()
    assert SKIPPED not in said and "publié" in said
    assert (kept.stat().st_ino, kept.read_bytes()) == before  # taken back, not made again
    assert "MARTIN Paul" in (outputs / "site" / "grand-sud-2024.html").read_text(encoding="utf-8")
