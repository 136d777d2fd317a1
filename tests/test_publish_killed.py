"""`reportgen publish` killed as a process (kill -9 by strace at a chosen system call), not its
server session cut: while a large bulletin is half sent, and as it writes its resume note. The
site online stays whole (a home page, old or new, and every page it links there) and the next run
completes it."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import test_publish_sftp
from tests.test_publish_sftp import League, links_online, sent_lines

sshd, league = test_publish_sftp.sshd, test_publish_sftp.league  # the same fixtures: a server, a site

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
BIG = "grand-sud/2026/classement-2026-03-28.pdf"


def big_pdf() -> bytes:
    """A megabyte, deterministic: paramiko sends it in 32 KiB pieces, so a kill lands mid-file."""
    return b"".join(hashlib.sha256(str(n).encode()).digest() for n in range(1 << 15))


def publish_process(league: League, *strace: str) -> subprocess.CompletedProcess[str]:
    command = [REPORTGEN, "publish", "--inputs", str(league.inputs), "--outputs", str(league.outputs)]
    if strace:
        command = ["strace", "-qq", "-f", "-o", "/dev/null", *strace, *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})


# Killed as it makes the Nth call: paramiko sends a file in 32 KiB packets from the calling thread,
# about 16 sendto before the large bulletin, 64 for it (the test checks a half copy is on the server);
# the resume note (outputs/.reportgen/publish.json) is the only file a publish renames into place:
# before each file goes, then once the last has arrived.
KILLS = {
    "the large bulletin half sent": ["-e", "trace=sendto", "-e", "inject=sendto:signal=SIGKILL:when=40"],
    "the first file arrived, the note of the second": ["-e", "trace=rename", "-e", "inject=rename:signal=SIGKILL:when=2"],
    "the home page arrived, not yet noted": ["-e", "trace=rename", "-e", "inject=rename:signal=SIGKILL:when=4"],
}


def half_copies(league: League) -> list[int]:
    """The sizes of the temporary copies a killed run left in the site's folder on the server."""
    return [p.stat().st_size for p in league.remote.rglob(".*") if p.name != ".reportgen-site.json"]


@pytest.mark.parametrize("moment", list(KILLS))
def test_a_publish_killed_mid_file_leaves_the_site_whole_and_the_rerun_completes_it(league, moment):
    first = publish_process(league)
    assert first.returncode == 0, first.stderr
    old = league.online()
    (league.outputs / BIG).write_bytes(big_pdf())
    league.write("grand-sud/2026/classement-2026-03-28.html", "<p>classement du 28 mars</p>")
    league.write("index.html", "<a href='grand-sud/2026/classement-2026-03-28.html'>28 mars</a>"
                               "<a href='grand-sud/2026/classement-2026-03-28.pdf'>PDF</a>")

    killed = publish_process(league, *KILLS[moment])
    assert killed.returncode != 0, killed.stdout  # the kill happened: the step was reached
    now = league.online()
    home = "new" if moment.startswith("the home page arrived") else "old"
    assert now["index.html"] == {"old": old["index.html"], "new": league.public()["index.html"]}[home]
    assert all(link in now for link in links_online(league))  # and everything it links is there
    assert now.get(BIG) in (None, big_pdf())  # never a half file under the real name
    if moment == "the large bulletin half sent":
        assert len(half_copies(league)) == 1 and 0 < half_copies(league)[0] < len(big_pdf())

    rerun = publish_process(league)
    assert rerun.returncode == 0, rerun.stderr
    assert league.online() == league.public()
    assert [p.name for p in league.remote.rglob(".*")] == [".reportgen-site.json"]  # no half copy left
    assert sent_lines(league.publish()) == []
