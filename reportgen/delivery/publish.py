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

The server is recognised by its host key in the user's `~/.ssh/known_hosts` (or the file `[site]`
names): an unknown or changed key stops everything before any file is sent (`SiteError`, with the
`ssh-keyscan` line to verify and add it). Settings, host key or login refused: `SiteError` (exit 1);
a network or a server that fails or refuses a write: `SiteUnreachable`, a `MachineError` (exit 4).
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paramiko

from reportgen import french
from reportgen.config import SETTINGS_FILE, SFTP_PASSWORD_VARIABLE, Site
from reportgen.ingest.read_cache import FOLDER
from reportgen.model import ReportgenError
from reportgen.render.files import JOURNAL as BUILD_JOURNAL
from reportgen.render.files import MachineError, write_atomic

MANIFEST = ".reportgen-site.json"  # on the server, in the site's folder
HOME = "index.html"  # the home page: sent last
JOURNAL = "publish.json"  # in outputs/.reportgen/: what a run cut short had already sent
# What stays on this machine, by its name at the top of outputs/. Besides these, every hidden file
# or folder stays too: reportgen's state (outputs/.reportgen/), a build's journal and temporary files.
PRIVATE = (
    "verification.html",  # the secretary's page: every problem of the workbooks (`reportgen check`)
    "mail",  # the clubs' e-mail drafts (`reportgen mail`)
)
UPLOADING = ".reportgen-upload"  # the suffix of a file on its way, beside its place on the server

Say = Callable[[str], None]


class SiteError(ReportgenError):
    """What the secretary fixes: the settings, the server's host key, the login. Exit 1."""


class SiteUnreachable(MachineError):
    """The network or the server failed, or the server refused a write. Exit 4."""


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


def site_files(outputs: Path) -> dict[str, str]:
    """Each file of the site: its path relative to outputs/ (with /) -> its SHA-256."""
    found = {}
    for folder, folders, files in os.walk(outputs):  # linked folders are not followed
        top = Path(folder) == outputs
        folders[:] = sorted(name for name in folders if not _private(name, top))
        for name in sorted(files):
            path = Path(folder) / name
            if not _private(name, top) and path.is_file():
                found[path.relative_to(outputs).as_posix()] = _digest(path)
    return found


def _private(name: str, top: bool) -> bool:
    return name.startswith((".", "~$")) or (top and name in PRIVATE)


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
        raise SiteError(f"{outputs} : pas de page d'accueil {HOME}, rien à publier — lancez « make » (ou "
                        "reportgen build) d'abord, ou indiquez le bon dossier avec --outputs")
    stopped = sorted(p.parent for p in outputs.rglob(BUILD_JOURNAL))
    if stopped:
        raise SiteError(f"{stopped[0]} : une construction s'est arrêtée en pleine publication, ce dossier est à "
                        "moitié à jour ; rien n'a été envoyé — relancez « make » (ou reportgen build), puis publiez")
    local = site_files(outputs)
    done = Done(f"{site.user}@{site.host}:{site.folder}", Plan([], [], []))
    journal = _Journal(outputs / FOLDER / JOURNAL, f"{site.user}@{site.host}:{site.port}/{site.folder}")
    with _transfer(done), _connected(site, settings) as sftp:
        raw = _read(sftp, posixpath.join(site.folder, MANIFEST))
        remote = _manifest(raw)
        base = hashlib.sha256(raw or b"").hexdigest()
        known, resumed = journal.resume(base, remote)
        done.plan = plan(local, known)
        done.plan.resumed = resumed
        if dry_run:
            return done
        _Uploader(sftp, site.folder, outputs, journal, base, known, say).run(done, local)
    return done


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

    def resume(self, base: str, remote: dict[str, str]) -> tuple[dict[str, str], int]:
        """What the server holds: the manifest, with what a cut run to the same place confirmed."""
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return remote, 0
        if not isinstance(data, dict) or data.get("target") != self.target:
            return remote, 0
        pending = data.get("pending")
        self.pending = pending if _safe(pending) else None
        sent, removed = data.get("sent"), data.get("removed")
        if data.get("base") != base or not isinstance(sent, dict) or not isinstance(removed, list):
            return remote, 0  # the server's site changed since: its manifest is the truth
        self.sent = {path: digest for path, digest in sent.items() if _safe(path) and isinstance(digest, str)}
        self.removed = [path for path in removed if _safe(path)]
        known = {path: digest for path, digest in remote.items() if path not in self.removed}
        return {**known, **self.sent}, len(self.sent)

    def write(self, base: str, sent: dict[str, str], removed: list[str], pending: str | None) -> None:
        data = {"target": self.target, "base": base, "sent": sent, "removed": removed, "pending": pending}
        write_atomic(self.path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


# -- the transfer ---------------------------------------------------------------------------------

class _Uploader:
    def __init__(self, sftp: paramiko.SFTPClient, folder: str, outputs: Path, journal: _Journal, base: str,
                 known: dict[str, str], say: Say) -> None:
        self.sftp = sftp
        self.folder = folder
        self.outputs = outputs
        self.journal = journal
        self.base = base
        self.known = known  # what the server holds, as this run changes it
        self.say = say
        self.folders: set[str] = set()  # the server's folders known to exist
        # Since the manifest `base`: a cut run's changes, then this run's.
        self.sent = dict(journal.sent)
        self.removed = list(journal.removed)

    def run(self, done: Done, local: dict[str, str]) -> None:
        if self.journal.pending is not None:  # the temporary copy a cut run left behind
            self._remove(_temporary(self._remote(self.journal.pending)))
        self._ensure(self.folder)
        for path in done.plan.send:
            self.journal.write(self.base, self.sent, self.removed, path)
            self._upload(path)
            self.known[path] = local[path]
            self.sent[path] = local[path]
            done.sent.append(path)
            self.say(f"envoyé : {path}")
        for path in done.plan.remove:
            self.journal.write(self.base, self.sent, self.removed, None)
            self._remove(self._remote(path))
            self.known.pop(path, None)
            self.removed.append(path)
            done.removed.append(path)
            self.say(f"retiré : {path}")
        self._prune(done.plan.remove)
        if self.sent or self.removed:
            self._put(posixpath.join(self.folder, MANIFEST), _manifest_bytes(self.known))
        self.journal.clear()

    def _remote(self, path: str) -> str:
        return posixpath.join(self.folder, path)

    def _upload(self, path: str) -> None:
        target = self._remote(path)
        self._ensure(posixpath.dirname(target))
        self._put(target, (self.outputs / path).read_bytes())

    def _put(self, target: str, data: bytes) -> None:
        """`data` written in full under a temporary name, then renamed over `target` at once."""
        temporary = _temporary(target)
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


# -- the connection -------------------------------------------------------------------------------

def _read(sftp: paramiko.SFTPClient, path: str) -> bytes | None:
    try:
        with sftp.open(path, "rb") as stream:
            return bytes(stream.read())
    except FileNotFoundError:
        return None


@contextmanager
def _transfer(done: Done) -> Iterator[None]:
    """A network or server failure said in French, with where the site stands (exit 4)."""
    try:
        yield
    except PermissionError as error:
        raise SiteUnreachable(f"{done.target} : le serveur refuse d'écrire {error.filename or ''} (permission "
                              f"refusée) ; {_standing(done)} — vérifiez le dossier folder de [site] et les droits "
                              "du compte sur le serveur, puis relancez reportgen publish") from None
    except (OSError, EOFError, paramiko.SSHException) as error:
        raise SiteUnreachable(f"{done.target} : la connexion au serveur a échoué ou s'est coupée ({_why(error)}) ; "
                              f"{_standing(done)} — relancez reportgen publish quand le serveur répond : ce qui "
                              "est déjà arrivé n'est pas renvoyé") from None


def _why(error: BaseException) -> str:
    """What went wrong with the network, in French when it is a usual case (paramiko's own words else)."""
    if isinstance(error, socket.gaierror):
        return "nom de serveur inconnu"
    if isinstance(error, paramiko.ssh_exception.NoValidConnectionsError | ConnectionRefusedError):
        return "aucun serveur n'écoute sur ce port"
    if isinstance(error, TimeoutError):
        return "le serveur ne répond pas dans le délai timeout de [site]"
    if isinstance(error, EOFError | ConnectionResetError) or "closed" in str(error) or "dropped" in str(error):
        return "le serveur a fermé la connexion"
    return str(error) or error.__class__.__name__


def _standing(done: Done) -> str:
    if not done.sent and not done.removed:
        return "rien n'a été changé sur le site"
    return (f"{french.plural(len(done.sent), 'fichier')} déjà arrivé{'s' if len(done.sent) > 1 else ''}, le site en "
            "ligne reste entier (sa page d'accueil ne mène qu'à des fichiers présents)")


@contextmanager
def _connected(site: Site, settings: Path) -> Iterator[paramiko.SFTPClient]:
    """An SFTP session with the server of `site`, once its host key is recognised."""
    known_hosts = _path(site.known_hosts or "~/.ssh/known_hosts", settings)
    key = _path(site.key, settings) if site.key else None
    if key is not None and not key.is_file():
        raise SiteError(f"{SETTINGS_FILE}:'site'!key : le fichier de clé {key} n'existe pas — indiquez dans key le "
                        "chemin de la clé privée (par exemple ~/.ssh/id_ed25519) ; « ssh-keygen -t ed25519 » en crée "
                        "une, dont la clé publique (.pub) va dans ~/.ssh/authorized_keys du compte sur le serveur")
    client = paramiko.SSHClient()
    if known_hosts.is_file():
        client.load_system_host_keys(str(known_hosts))  # read, never written
    client.set_missing_host_key_policy(_Refuse(site, known_hosts))
    try:
        client.connect(site.host, site.port, username=site.user, password=os.environ.get(SFTP_PASSWORD_VARIABLE),
                       key_filename=str(key) if key else None, look_for_keys=key is None, timeout=site.timeout,
                       banner_timeout=site.timeout, auth_timeout=site.timeout, channel_timeout=site.timeout)
    except paramiko.BadHostKeyException as error:
        client.close()
        raise SiteError(_changed(site, known_hosts, error.expected_key, error.key)) from None
    except paramiko.PasswordRequiredException:
        client.close()
        raise SiteError(f"{SETTINGS_FILE}:'site'!key : la clé {key} est protégée par une phrase de passe, que "
                        "reportgen ne demande pas — chargez-la dans l'agent SSH (ssh-add "
                        f"{key}) avant reportgen publish, ou indiquez une clé sans phrase de passe réservée à la "
                        "publication") from None
    except paramiko.AuthenticationException:
        client.close()
        raise SiteError(f"{site.user}@{site.host} : le serveur refuse la connexion de cet utilisateur (clé "
                        f"{key or 'de ~/.ssh ou de ssh-agent'}, mot de passe {SFTP_PASSWORD_VARIABLE} "
                        f"{'donné' if os.environ.get(SFTP_PASSWORD_VARIABLE) else 'absent'}) — vérifiez user et key "
                        f"dans [site] de {SETTINGS_FILE}, et que la clé publique (.pub) est dans "
                        "~/.ssh/authorized_keys du compte sur le serveur ; ou donnez le mot de passe dans "
                        f"{SFTP_PASSWORD_VARIABLE}") from None
    except SiteError:
        client.close()
        raise
    except (OSError, EOFError, paramiko.SSHException) as error:  # unknown name, refused, timed out, cut
        client.close()
        raise SiteUnreachable(f"{site.host} (port {site.port}) : impossible de joindre le serveur ({_why(error)}) ; "
                              "rien n'a été envoyé — vérifiez host et port dans [site] et la connexion à "
                              "Internet, puis relancez reportgen publish") from None
    try:
        sftp = client.open_sftp()
        sftp.get_channel().settimeout(site.timeout)
        yield sftp
    finally:
        client.close()


def _path(text: str, settings: Path) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else settings / path


def _keyscan(site: Site, known_hosts: Path) -> tuple[str, str]:
    """The command that shows the server's key fingerprint, and the one that adds it."""
    port = f"-p {site.port} " if site.port != 22 else ""
    return (f"ssh-keyscan {port}{site.host} | ssh-keygen -lf -",
            f"ssh-keyscan {port}{site.host} >> {known_hosts}")


def _changed(site: Site, known_hosts: Path, expected: paramiko.PKey, got: paramiko.PKey) -> str:
    show, add = _keyscan(site, known_hosts)
    name = site.host if site.port == 22 else f"[{site.host}]:{site.port}"
    return (f"{site.host} (port {site.port}) : la clé du serveur a changé — {known_hosts} attend "
            f"{expected.get_name()} {expected.fingerprint}, le serveur présente {got.get_name()} {got.fingerprint} ; "
            "ce peut être un autre serveur qui se fait passer pour lui : rien n'a été envoyé — demandez à "
            "l'hébergeur s'il a changé la clé de son serveur et quelle est sa nouvelle empreinte ; si oui, retirez "
            f"l'ancienne (ssh-keygen -R \"{name}\" -f {known_hosts}), vérifiez la nouvelle ({show}) et "
            f"ajoutez-la ({add})")


def _refuse_unknown(site: Site, known_hosts: Path, key: paramiko.PKey) -> SiteError:
    show, add = _keyscan(site, known_hosts)
    where = "n'est pas dans" if known_hosts.is_file() else "est inconnu : le fichier n'existe pas,"
    return SiteError(f"{site.host} (port {site.port}) : ce serveur {where} {known_hosts} ; reportgen n'envoie "
                     f"rien à un serveur qu'il ne reconnaît pas (il présente la clé {key.get_name()} "
                     f"{key.fingerprint}) — vérifiez auprès de l'hébergeur que c'est l'empreinte de son serveur "
                     f"({show}), puis ajoutez-la : {add}")


class _Refuse(paramiko.MissingHostKeyPolicy):
    """A server whose key known_hosts does not hold is refused, never added."""

    def __init__(self, site: Site, known_hosts: Path) -> None:
        self.site = site
        self.known_hosts = known_hosts

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        raise _refuse_unknown(self.site, self.known_hosts, key)
