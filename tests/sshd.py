"""A real OpenSSH server on 127.0.0.1 for the tests of `reportgen publish` (Debian's openssh-server,
system-packages.txt): started on a port of its own with a configuration, a host key and an
authorized client key made in a temporary folder, serving SFTP (internal-sftp) to the current user.

`Sshd.kill_sessions()` cuts every connection open at that moment (SIGKILL to the session
processes the listener forked), as a dropped line or a host rebooting would; the listener keeps
serving, so the next run can connect."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests import ports

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
USER = pwd.getpwuid(os.getuid()).pw_name


@dataclass
class Sshd:
    port: int
    folder: Path  # the server's configuration, keys and log
    process: subprocess.Popen[bytes]
    client_key: Path  # the private key the tests log in with
    host_public: str  # the server's public host key, « type base64 »

    @property
    def host(self) -> str:
        return "127.0.0.1"

    def known_hosts(self, path: Path, public: str | None = None) -> Path:
        """A known_hosts file naming this server with its key (or `public`, another key)."""
        path.write_text(f"[{self.host}]:{self.port} {public or self.host_public}\n")
        return path

    def sessions(self) -> list[int]:
        """The processes serving a connection: the listener's descendants (a session's privileged
        monitor and the process that serves SFTP), parents first."""
        found, queue = [], [self.process.pid]
        while queue:
            pid = queue.pop(0)
            try:
                children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
            except OSError:
                children = []
            found += children
            queue += children
        return found

    def kill_sessions(self) -> None:
        for pid in reversed(self.sessions()):  # the one serving the connection first
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def keygen(path: Path, passphrase: str = "") -> str:
    """A new ed25519 key pair at `path` (and `path`.pub); the public key « type base64 »."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "", "-f", str(path)], check=True)
    return " ".join(path.with_suffix(".pub").read_text().split()[:2])


def _answers(port: int) -> bool:
    """The server greets with its SSH banner."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            return connection.recv(8).startswith(b"SSH-")
    except OSError:
        return False


def start(folder: Path, read_only: bool = False) -> Iterator[Sshd]:
    """Run sshd in `folder` until the generator is closed (a fixture's body); `read_only`: its SFTP
    refuses every write, as a full or protected account would."""
    folder.mkdir(parents=True, exist_ok=True)
    host_public = keygen(folder / "host_key")
    client_public = keygen(folder / "client_key")
    (folder / "authorized_keys").write_text(client_public + "\n")
    config = folder / "sshd_config"
    config.write_text("\n".join([
        "ListenAddress 127.0.0.1",
        f"HostKey {folder / 'host_key'}",
        f"AuthorizedKeysFile {folder / 'authorized_keys'}",
        f"PidFile {folder / 'sshd.pid'}",
        "Subsystem sftp internal-sftp" + (" -R" if read_only else ""),
        "StrictModes no",  # the keys live in a temporary folder, whatever its permissions
        "UsePAM no",
        "PermitRootLogin yes",  # the tests (and CI) run as root
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        f"AllowUsers {USER}",
        "LogLevel INFO",
        "",
    ]))
    if os.geteuid() == 0:
        # sshd started by root separates privileges in this empty folder (Debian's service makes
        # it at boot; it is not there in a container that never started the service).
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    for _attempt in range(ports.ATTEMPTS):  # another test may take the free port between the probe and sshd
        port = ports.free_port()
        log = open(folder / "sshd.log", "ab")
        process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config), "-p", str(port)],
                                   stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        for _wait in range(200):
            if process.poll() is not None or _answers(port):
                break
            time.sleep(0.05)
        if process.poll() is None:
            break
    else:
        raise RuntimeError("sshd did not start:\n" + (folder / "sshd.log").read_text(errors="replace"))
    server = Sshd(port, folder, process, folder / "client_key", host_public)
    try:
        yield server
    finally:
        server.kill_sessions()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
