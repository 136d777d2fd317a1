"""A real IMAP server for the tests: Debian's Dovecot, started on 127.0.0.1 on a port of its own,
with a minimal configuration, a passwd file and a Maildir in a temporary folder (no system service
touched). Dovecot refuses to run its login and mail processes as root: they run as `nobody`, who
owns the temporary folders (the CI runs as root too)."""

from __future__ import annotations

import datetime as dt
import imaplib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path

from reportgen.delivery.inbox import folder_name
from tests import ports

USER = "secretariat@example.org"
PASSWORD = "mot-de-passe-imap"


@dataclass
class Dovecot:
    port: int
    root: Path
    process: subprocess.Popen

    def client(self) -> imaplib.IMAP4:
        imap = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        imap.login(USER, PASSWORD)
        return imap

    def append(self, message: EmailMessage, folder: str = "INBOX", arrived: dt.datetime | None = None) -> None:
        """As a mail client puts a message in: IMAP APPEND, the server's day of receipt (its
        INTERNALDATE) `arrived`, else the moment its Date header says (delivered as it was sent),
        else now."""
        moment = arrived or (parsedate_to_datetime(message["Date"]) if message["Date"] else None)
        imap = self.client()
        try:
            typ, _ = imap.append(folder_name(folder), "", moment, message.as_bytes())
            assert typ == "OK"
        finally:
            imap.logout()

    def uids(self, folder: str = "INBOX") -> list[int]:
        imap = self.client()
        try:
            typ, _ = imap.select(folder_name(folder))
            assert typ == "OK", folder
            typ, data = imap.uid("SEARCH", None, "ALL")
            return [int(u) for u in data[0].split()]
        finally:
            imap.logout()

    def folders(self) -> list[bytes]:
        imap = self.client()
        try:
            return imap.list()[1]
        finally:
            imap.logout()


CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = nobody
default_internal_group = nogroup
default_login_user = nobody
mail_location = maildir:{root}/mail/%u
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 0
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


def start() -> Dovecot:
    """Dovecot in the foreground (-F), its folders owned by nobody, listening once it answers. Its
    folder is one of its own under /tmp: pytest's (/tmp/pytest-of-root) is made 0700 again by any
    pytest session that starts meanwhile, which nobody could then not cross."""
    if shutil.which("dovecot") is None:
        raise RuntimeError("dovecot is missing: scripts/system-packages.sh install test (system-packages.txt)")
    for attempt in range(ports.ATTEMPTS):  # another test's server may take the port probed free
        try:
            return _start(ports.free_port())
        except _PortTaken:
            if attempt == ports.ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


class _PortTaken(RuntimeError):
    pass


def _start(port: int) -> Dovecot:
    root = Path(tempfile.mkdtemp(prefix="reportgen-dovecot-"))
    for folder in ("run", "state", "mail", "home"):
        (root / folder).mkdir(exist_ok=True)
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n", encoding="utf-8")
    (root / "dovecot.conf").write_text(CONFIG.format(root=root, port=port), encoding="utf-8")
    if os.geteuid() == 0:
        for path in (root, *root.rglob("*")):
            shutil.chown(path, "nobody", "nogroup")
    process = subprocess.Popen(["dovecot", "-F", "-c", str(root / "dovecot.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60  # room on a busy machine; it answers in well under a second
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                if probe.recv(100).startswith(b"* OK"):
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
            error = process.stderr.read().decode(errors="replace") if process.stderr and process.poll() is not None else ""
            stop(Dovecot(port, root, process))
            if "Address already in use" in error + log:
                raise _PortTaken(port)
            raise RuntimeError(f"dovecot did not start: {error} {log}")
        time.sleep(0.05)
    return Dovecot(port, root, process)


def stop(server: Dovecot) -> None:
    if server.process.poll() is None:
        os.killpg(server.process.pid, signal.SIGTERM)
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()
    shutil.rmtree(server.root, ignore_errors=True)
