"""The SFTP session `reportgen publish` sends the site through (paramiko), to the server `[site]`
of reportgen.toml names: opened only once the server's host key is recognised.

The host key is checked against the user's `~/.ssh/known_hosts` (or the file `[site]` names), read
and never written: an unknown or changed key stops everything before any file is sent, with the
key the server shows and the `ssh-keyscan` lines to check and add it. The login is the key file of
`[site]` (else ssh-agent's keys and those of ~/.ssh), and the password of REPORTGEN_SFTP_PASSWORD
when given. Settings, host key or login refused: `SiteError` (exit 1); the network or the server
failing: `SiteUnreachable`, a `MachineError` (exit 4).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import paramiko

from reportgen.config import SETTINGS_FILE, SFTP_PASSWORD_VARIABLE, Site
from reportgen.model import ReportgenError, SourceRef
from reportgen.render.files import MachineError


class SiteError(ReportgenError):
    """What the secretary fixes: the settings, the server's host key, the login. Exit 1."""


class SiteUnreachable(MachineError):
    """The network or the server failed, or the server refused a write. Exit 4."""


def read(sftp: paramiko.SFTPClient, path: str) -> bytes | None:
    try:
        with sftp.open(path, "rb") as stream:
            return bytes(stream.read())
    except FileNotFoundError:
        return None


def why(error: BaseException) -> str:
    """What went wrong with the network, in French when it is a usual case (paramiko's own words else)."""
    if isinstance(error, socket.gaierror):
        return "nom de serveur inconnu"
    if isinstance(error, paramiko.ssh_exception.NoValidConnectionsError | ConnectionRefusedError):
        return "aucun serveur n’écoute sur ce port"
    if isinstance(error, TimeoutError):
        return "le serveur ne répond pas dans le délai timeout de [site]"
    if isinstance(error, EOFError | ConnectionResetError) or "closed" in str(error) or "dropped" in str(error):
        return "le serveur a fermé la connexion"
    return str(error) or error.__class__.__name__


_KEY_SETTING = SourceRef(SETTINGS_FILE, "site", "key")  # where the key is set: « reportgen.toml, table [site], … »


@contextmanager
def connected(site: Site, settings: Path) -> Iterator[paramiko.SFTPClient]:
    """An SFTP session with the server of `site`, once its host key is recognised."""
    known_hosts = _path(site.known_hosts or "~/.ssh/known_hosts", settings)
    key = _path(site.key, settings) if site.key else None
    if key is not None and not key.is_file():
        raise SiteError(f"{_KEY_SETTING} : le fichier de clé {key} n’existe pas — indiquez dans key le "
                        "chemin de la clé privée (par exemple ~/.ssh/id_ed25519) ; « ssh-keygen -t ed25519 » en crée "
                        "une, dont la clé publique (.pub) va dans ~/.ssh/authorized_keys du compte sur le serveur")
    client = paramiko.SSHClient()
    if known_hosts.is_file():
        client.load_system_host_keys(str(known_hosts))  # read, never written
    client.set_missing_host_key_policy(_Refuse(site, known_hosts))
    try:
        client.connect(site.host, site.port, username=site.user, password=os.environ.get(SFTP_PASSWORD_VARIABLE) or None,
                       key_filename=str(key) if key else None, look_for_keys=key is None, timeout=site.timeout,
                       banner_timeout=site.timeout, auth_timeout=site.timeout, channel_timeout=site.timeout)
    except paramiko.BadHostKeyException as error:
        client.close()
        raise SiteError(_changed(site, known_hosts, error.expected_key, error.key)) from None
    except paramiko.PasswordRequiredException:
        client.close()
        raise SiteError(f"{_KEY_SETTING} : la clé {key} est protégée par une phrase de passe, que "
                        "reportgen ne demande pas — chargez-la dans l’agent SSH (ssh-add "
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
        raise SiteUnreachable(f"{site.host} (port {site.port}) : impossible de joindre le serveur ({why(error)}) ; "
                              "rien n’a été envoyé — vérifiez host et port dans [site] et la connexion à "
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
            "ce peut être un autre serveur qui se fait passer pour lui : rien n’a été envoyé — demandez à "
            "l’hébergeur s’il a changé la clé de son serveur et quelle est sa nouvelle empreinte ; si oui, retirez "
            f"l’ancienne (ssh-keygen -R \"{name}\" -f {known_hosts}), vérifiez la nouvelle ({show}) et "
            f"ajoutez-la ({add})")


def _refuse_unknown(site: Site, known_hosts: Path, key: paramiko.PKey) -> SiteError:
    show, add = _keyscan(site, known_hosts)
    where = "n’est pas dans" if known_hosts.is_file() else "est inconnu : le fichier n’existe pas,"
    return SiteError(f"{site.host} (port {site.port}) : ce serveur {where} {known_hosts} ; reportgen n’envoie "
                     f"rien à un serveur qu’il ne reconnaît pas (il présente la clé {key.get_name()} "
                     f"{key.fingerprint}) — vérifiez auprès de l’hébergeur que c’est l’empreinte de son serveur "
                     f"({show}), puis ajoutez-la : {add}")


class _Refuse(paramiko.MissingHostKeyPolicy):
    """A server whose key known_hosts does not hold is refused, never added."""

    def __init__(self, site: Site, known_hosts: Path) -> None:
        self.site = site
        self.known_hosts = known_hosts

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        raise _refuse_unknown(self.site, self.known_hosts, key)
