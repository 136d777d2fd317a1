"""Ports of their own for the servers the tests start on 127.0.0.1 (aiosmtpd, Dovecot).

A free port is only free when it is probed: under pytest-xdist another worker's server may take it
before ours binds. So a server is started on a new port when its port turns out to be taken, a few
times, rather than failing the test that needed it."""

from __future__ import annotations

import errno
import socket
from typing import Any

from aiosmtpd.controller import Controller

ATTEMPTS = 5


def free_port() -> int:
    """A port nobody listens on now (aiosmtpd's own port=0 does not say which one it got)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def smtp_server(handler: Any, **options: Any) -> Controller:
    """An aiosmtpd server on 127.0.0.1, started, on a port of its own."""
    for attempt in range(ATTEMPTS):
        controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **options)
        try:
            controller.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE or attempt == ATTEMPTS - 1:
                raise
            continue
        return controller
    raise AssertionError("unreachable")
