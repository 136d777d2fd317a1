"""This machine's own key, and what is signed with it: a file reportgen wrote for itself under
outputs/ (a cache holding Python objects, ingest/parse_cache.py) is loaded only if it carries a
signature made here. outputs/ is what gets copied, synced and published; the key is not there but in
the user's state folder (XDG: `$XDG_STATE_HOME/reportgen/signing-key`, `~/.local/state` by default),
readable by its owner only. Whoever can write in outputs/ but not there cannot make a file we load;
a file signed elsewhere (outputs/ copied from another machine) is simply not used."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from reportgen.temporaries import new_temporary

KEY_FILE = "signing-key"
KEY_BYTES = 32
MAC_BYTES = hashlib.sha256().digest_size


def _state_home() -> Path | None:
    configured = os.environ.get("XDG_STATE_HOME")
    if configured and os.path.isabs(configured):
        return Path(configured) / "reportgen"
    try:
        return Path.home() / ".local" / "state" / "reportgen"
    except RuntimeError:  # no HOME, no password entry: nothing is signed, so nothing is loaded
        return None


class Signer:
    """Signs bytes under a name (where they are kept: a signature is not valid for another entry)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    @classmethod
    def local(cls) -> Signer | None:
        """The signer of this user on this machine, its key made on first use; None when the key
        can be neither read nor made (the caller then keeps nothing)."""
        folder = _state_home()
        if folder is None:
            return None
        path = folder / KEY_FILE
        try:
            key = _read_key(path)
            if key is None:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                handle, temporary = new_temporary(path)  # mode 0600, as mkstemp makes it
                try:
                    with os.fdopen(handle, "wb") as stream:
                        stream.write(secrets.token_bytes(KEY_BYTES))
                    os.link(temporary, path)  # never replaces a key another process made meanwhile
                except FileExistsError:
                    pass
                finally:
                    temporary.unlink(missing_ok=True)
                key = _read_key(path)
        except OSError:
            return None
        return cls(key) if key is not None else None

    def _mac(self, name: str, data: bytes) -> bytes:
        signed = hmac.new(self._key, name.encode("utf-8", "surrogatepass"), hashlib.sha256)
        signed.update(b"\0")
        signed.update(data)
        return signed.digest()

    def sign(self, name: str, data: bytes) -> bytes:
        """`data` with its signature in front, for the entry `name`."""
        return self._mac(name, data) + data

    def open(self, name: str, signed: bytes) -> bytes | None:
        """The data `sign(name, data)` was given, or None when `signed` is not that."""
        mac, data = signed[:MAC_BYTES], signed[MAC_BYTES:]
        return data if len(mac) == MAC_BYTES and hmac.compare_digest(mac, self._mac(name, data)) else None


def _read_key(path: Path) -> bytes | None:
    """The key in `path`, if it is one: a file of ours, its owner's alone."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    with os.fdopen(handle, "rb") as stream:
        status = os.fstat(stream.fileno())
        if status.st_uid != os.getuid() or status.st_mode & 0o077:
            raise PermissionError(f"{path}: not its owner's alone")
        key = stream.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None
