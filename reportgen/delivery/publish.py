"""`reportgen publish`: the site (outputs/) mirrored to the league's host over SFTP, `[site]` of
reportgen.toml (the password only in REPORTGEN_SFTP_PASSWORD).

What the server holds is known by a manifest reportgen keeps there (`.reportgen-site.json`: each
file's SHA-256), not by listing it: only files whose hash changed are sent, and only files an
earlier publication put there are ever removed. Each file goes to a temporary name beside its place,
then `posix_rename`s into place (atomic on the server); pages after the files they link to, the home
page (`index.html`) last, then the files no longer in outputs/ are removed, then the manifest: a
visitor never follows a link of the new home page to a file not yet there, and a run cut at any
point leaves the previous site whole.

A cut run resumes: each file the server confirmed is noted in `outputs/.reportgen/publish.json`
with the manifest the run started from; the next run to the same place, finding that manifest
still there, does not send those files again (and removes the temporary file of the one cut short).

One run at a time (a lock, outputs/.reportgen/publish.lock). The session, the server's host key
and the errors (`SiteError`, exit 1; `SiteUnreachable`, exit 4) are `delivery/sftp.py`'s.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paramiko

from reportgen import french
from reportgen.config import Site
from reportgen.delivery.lock import hold
from reportgen.delivery.sftp import SiteError, SiteUnreachable, connected, read, why
from reportgen.ingest.read_cache import FOLDER
from reportgen.render.files import JOURNAL as BUILD_JOURNAL
from reportgen.render.files import write_atomic
from reportgen.render.index import MANIFEST as MANIFESTS
from reportgen.render.index import read_manifest

MANIFEST = ".reportgen-site.json"  # on the server, in the site's folder
HOME = "index.html"  # the home page: sent last
JOURNAL = "publish.json"  # in outputs/.reportgen/: what a run cut short had already sent
LOCK = "publish.lock"  # in outputs/.reportgen/: held by the run under way
# What stays on this machine, by its name at the top of outputs/. Besides these, every hidden file
# or folder stays too: reportgen's state (outputs/.reportgen/), a build's journal and temporary files.
PRIVATE = (
    "verification.html",  # the secretary's page: every problem of the workbooks (`reportgen check`)
    "mail",  # the clubs' e-mail drafts (`reportgen mail`, the answers of `reportgen inbox`)
    "clubs",  # each club's own bulletin, made for its message (`reportgen mail`), not for the site
    "rappels",  # the reminders' drafts (`reportgen remind`): the clubs' addresses
    "modeles",  # the blank workbooks (`reportgen template`): a club gets its own by mail; no page links them
)
# Files of the build's own, in any folder: the data the pages are drawn from (every name in full,
# a player who chose `non` or `initiales` in joueurs.xlsx included) and each circuit's manifest.
INTERNAL = ("site.json", MANIFESTS)
# The notices a circuit writes as e-mail drafts (a pool tournament's): for the secretary's mail
# program, never linked by the site, and they name every player in full.
DRAFTS = (".eml",)
# A document that names a player who chose `initiales` or `non` (joueurs.xlsx's `Publication`) stays
# here too: its public copy (site/public_copies.py), listed in the circuit's manifest, goes instead.
UPLOADING = ".reportgen-upload"  # the suffix of a file on its way, beside its place on the server

Say = Callable[[str], None]


@dataclass
class Plan:
    send: list[str]  # paths relative to outputs/, in the order they go: files, pages, the home page
    remove: list[str]  # files an earlier publication put on the server, no longer in outputs/
    unchanged: list[str]
    resumed: int = 0  # files a run cut short had sent, not sent again


@dataclass
class Done:
    target: str  # user@host:folder, as the messages name it
    plan: Plan
    sent: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    at: str = ""  # the server's path being written, for a refusal's message


def site_files(outputs: Path) -> dict[str, str]:
    """Each file of the site: its path relative to outputs/ (with /) -> its SHA-256."""
    found = {}
    whole = _whole(outputs)
    for folder, folders, files in os.walk(outputs):  # linked folders are not followed
        top = Path(folder) == outputs
        folders[:] = sorted(name for name in folders if not _private(name, top))
        for name in sorted(files):
            path = Path(folder) / name
            relative = path.relative_to(outputs).as_posix()
            if not _private(name, top) and relative not in whole and path.is_file():
                found[relative] = _digest(path)
    return found


def _private(name: str, top: bool) -> bool:
    return name.startswith((".", "~$")) or name.endswith(DRAFTS) or name in INTERNAL or (top and name in PRIVATE)


def _whole(outputs: Path) -> set[str]:
    """The documents that name a player who chose `initiales` or `non` in full, relative to
    outputs/: each circuit's manifest lists them with their public copy, which goes instead."""
    whole = set()
    for manifest in sorted(outputs.glob(f"*/{MANIFESTS}")):
        found = read_manifest(manifest) or {}
        public = found.get("public")
        if isinstance(public, dict):
            whole |= {f"{manifest.parent.name}/{path}" for path in public}
    return whole


def _digest(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def plan(local: dict[str, str], remote: dict[str, str]) -> Plan:
    """What to send (other files, then pages, then the home page), remove, leave."""
    changed = [path for path, digest in local.items() if remote.get(path) != digest]
    changed.sort(key=lambda path: (path == HOME, path.endswith(".html"), path))
    return Plan(send=changed, remove=sorted(set(remote) - set(local)),
                unchanged=sorted(path for path, digest in local.items() if remote.get(path) == digest))


def publish(outputs: Path, site: Site, settings: Path, *, dry_run: bool = False,
            say: Say = lambda line: None) -> Done:
    """Mirror `outputs` to the server of `site` (`settings`: the folder of reportgen.toml, which
    relative paths of [site] start from); `say` is told each file sent or removed as it happens."""
    if not (outputs / HOME).is_file():
        raise SiteError(f"{outputs} : pas de page d’accueil {HOME}, rien à publier — lancez « make » (ou "
                        "reportgen build) d’abord, ou indiquez le bon dossier avec --outputs")
    stopped = sorted(p.parent for p in outputs.rglob(BUILD_JOURNAL))
    if stopped:
        raise SiteError(f"{stopped[0]} : une construction s’est arrêtée en pleine publication, ce dossier est à "
                        "moitié à jour ; rien n’a été envoyé — relancez « make » (ou reportgen build), puis publiez")
    local = site_files(outputs)
    done = Done(f"{site.user}@{site.host}:{site.folder}", Plan([], [], []))
    journal = _Journal(outputs / FOLDER / JOURNAL, f"{site.user}@{site.host}:{site.port}/{site.folder}")
    with _one_at_a_time(outputs, dry_run), _transfer(done), connected(site, settings) as sftp:
        raw = read(sftp, posixpath.join(_folder(site.folder), MANIFEST))
        remote = _manifest(raw)
        base = hashlib.sha256(raw or b"").hexdigest()
        known = journal.resume(base, remote)
        done.plan = plan(local, known)
        done.plan.resumed = len(journal.sent.keys() - set(done.plan.send))
        if dry_run:
            return done
        _Uploader(sftp, _folder(site.folder), outputs, journal, base, known, say, done).run()
    return done


def _folder(folder: str) -> str:
    """The site's folder as SFTP names it: from the login folder unless absolute (SFTP knows no ~)."""
    return posixpath.normpath(folder.removeprefix("~").lstrip("/") if folder.startswith("~") else folder)


@contextmanager
def _one_at_a_time(outputs: Path, dry_run: bool) -> Iterator[None]:
    """An OS lock (flock) on outputs/.reportgen/publish.lock, which the kernel releases with the
    process, even after kill -9: a second run would race the first for the same files."""
    if dry_run:  # it changes nothing
        yield
        return
    path = outputs / FOLDER / LOCK
    with hold(path, f"une autre publication de {outputs} est en cours (elle tient {path}) : attendez qu’elle finisse ; "
                    "rien n’a été envoyé", "rien n’a été envoyé", option="--outputs", refused=SiteError):
        yield


# -- the server's manifest and the local journal ------------------------------------------------------

def _manifest(raw: bytes | None) -> dict[str, str]:
    """The files the manifest lists; none when there is none or it cannot be read (then everything
    is sent again and nothing removed: reportgen never removes what it does not know it put there)."""
    try:
        files = json.loads(raw or b"{}").get("files", {})
    except (ValueError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {path: digest for path, digest in files.items() if isinstance(digest, str) and _safe(path)}


def _safe(path: Any) -> bool:
    """A path the site may hold: relative, inside its folder, nothing hidden (a damaged or tampered
    manifest never makes reportgen remove a file elsewhere)."""
    if not isinstance(path, str) or not path or path.startswith("/") or "\\" in path or "\0" in path:
        return False
    return all(part and not part.startswith(".") for part in path.split("/"))


def _manifest_bytes(files: dict[str, str]) -> bytes:
    return (json.dumps({"generator": "reportgen", "files": dict(sorted(files.items()))}, indent=1) + "\n").encode()


class _Journal:
    """outputs/.reportgen/publish.json: for the place a run publishes to and the manifest it found
    there, the files the server has confirmed since, and the one on its way."""

    def __init__(self, path: Path, target: str) -> None:
        self.path = path
        self.target = target
        self.pending: str | None = None  # the file of a cut run that may have left its temporary copy
        self.sent: dict[str, str] = {}  # what a cut run to the same place had done since the manifest
        self.removed: list[str] = []

    def resume(self, base: str, remote: dict[str, str]) -> dict[str, str]:
        """What the server holds: the manifest, with what a cut run to the same place confirmed."""
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return remote
        if not isinstance(data, dict) or data.get("target") != self.target:
            return remote
        pending = data.get("pending")
        self.pending = pending if _safe(pending) else None
        sent, removed = data.get("sent"), data.get("removed")
        if data.get("base") != base or not isinstance(sent, dict) or not isinstance(removed, list):
            return remote  # the server's site changed since: its manifest is the truth
        self.sent = {path: digest for path, digest in sent.items() if _safe(path) and isinstance(digest, str)}
        self.removed = [path for path in removed if _safe(path)]
        known = {path: digest for path, digest in remote.items() if path not in self.removed}
        return {**known, **self.sent}

    def write(self, base: str, sent: dict[str, str], removed: list[str], pending: str | None) -> None:
        data = {"target": self.target, "base": base, "sent": sent, "removed": removed, "pending": pending}
        write_atomic(self.path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


# -- the transfer ---------------------------------------------------------------------------------

class _Uploader:
    def __init__(self, sftp: paramiko.SFTPClient, folder: str, outputs: Path, journal: _Journal, base: str,
                 known: dict[str, str], say: Say, done: Done) -> None:
        self.sftp = sftp
        self.folder = folder
        self.outputs = outputs
        self.journal = journal
        self.base = base
        self.known = known  # what the server holds, as this run changes it
        self.say = say
        self.done = done  # what this run did, told as it goes
        self.folders: set[str] = set()  # the server's folders known to exist
        # Since the manifest `base`: a cut run's changes, then this run's.
        self.sent = dict(journal.sent)
        self.removed = list(journal.removed)

    def run(self) -> None:
        done = self.done
        if self.journal.pending is not None:  # the temporary copy a cut run left behind
            self._remove(_temporary(self._remote(self.journal.pending)))
        self._ensure(self.folder)
        for path in done.plan.send:
            self.journal.write(self.base, self.sent, self.removed, path)  # on its way
            # the hash of the bytes sent: a file rewritten since it was listed goes again next run
            self.known[path] = self.sent[path] = self._upload(path)
            done.sent.append(path)
            self.say(f"envoyé : {path}")
        if done.sent:
            self.journal.write(self.base, self.sent, self.removed, None)  # the last one arrived
        for path in done.plan.remove:
            self._remove(self._remote(path))
            self.known.pop(path, None)
            self.removed.append(path)
            # A page removed, then back in outputs/ as it was, is sent again: the manifest still has it.
            self.journal.write(self.base, self.sent, self.removed, None)
            done.removed.append(path)
            self.say(f"retiré : {path}")
        self._prune(done.plan.remove)
        if self.sent or self.removed:
            self._put(posixpath.join(self.folder, MANIFEST), _manifest_bytes(self.known))
        self.journal.clear()

    def _remote(self, path: str) -> str:
        return posixpath.join(self.folder, path)

    def _upload(self, path: str) -> str:
        """The file sent to its place; the SHA-256 of what was sent."""
        target = self._remote(path)
        self._ensure(posixpath.dirname(target))
        data = (self.outputs / path).read_bytes()
        self._put(target, data)
        return hashlib.sha256(data).hexdigest()

    def _put(self, target: str, data: bytes) -> None:
        """`data` written in full under a temporary name, then renamed over `target` at once."""
        temporary = _temporary(target)
        self.done.at = target
        with self.sftp.open(temporary, "wb") as stream:
            stream.set_pipelined(True)
            stream.write(data)
        self.sftp.chmod(temporary, 0o644)  # a web server reads it, whatever the account's umask
        self.sftp.posix_rename(temporary, target)

    def _ensure(self, folder: str) -> None:
        """`folder` and its parents on the server, made when missing."""
        if not folder or folder in self.folders or folder in ("/", "."):
            return
        self._ensure(posixpath.dirname(folder))
        try:
            self.sftp.stat(folder)
        except FileNotFoundError:
            self.done.at = folder
            self.sftp.mkdir(folder, 0o755)
        self.folders.add(folder)

    def _remove(self, target: str) -> None:
        try:
            self.sftp.remove(target)
        except FileNotFoundError:
            pass  # already gone (a cut run removed it, or someone did by hand)

    def _prune(self, removed: list[str]) -> None:
        """The folders the removed files leave empty (deepest first); the site's folder stays."""
        folders = {posixpath.dirname(path) for path in removed}
        for path in list(folders):
            while path := posixpath.dirname(path):
                folders.add(path)
        for path in sorted(folders - {""}, key=lambda p: (-p.count("/"), p)):
            try:
                self.sftp.rmdir(self._remote(path))
            except OSError:
                pass  # not empty: it still holds files of the site, or the host's own


def _temporary(target: str) -> str:
    """The name a file has on the server while on its way: hidden, beside its place."""
    folder, name = posixpath.split(target)
    return posixpath.join(folder, f".{name}{UPLOADING}")


# -- what a failure leaves --------------------------------------------------------------------------

@contextmanager
def _transfer(done: Done) -> Iterator[None]:
    """A network or server failure said in French, with where the site stands (exit 4)."""
    try:
        yield
    except PermissionError:
        raise SiteUnreachable(f"{done.target} : le serveur refuse d’écrire {done.at or done.target} (permission "
                              f"refusée) ; {_standing(done)} — vérifiez le dossier folder de [site] et les droits "
                              "du compte sur le serveur, puis relancez reportgen publish") from None
    except (OSError, EOFError, paramiko.SSHException) as error:
        raise SiteUnreachable(f"{done.target} : la connexion au serveur a échoué ou s’est coupée ({why(error)}) ; "
                              f"{_standing(done)} — relancez reportgen publish quand le serveur répond : ce qui "
                              "est déjà arrivé n’est pas renvoyé") from None


def _standing(done: Done) -> str:
    if not done.sent and not done.removed:
        return "rien n’a été changé sur le site"
    return (f"{french.plural(len(done.sent), 'fichier')} déjà arrivé{'s' if len(done.sent) > 1 else ''}, le site en "
            "ligne reste entier (sa page d’accueil ne mène qu’à des fichiers présents)")
