"""`reportgen publish` against a real OpenSSH server on 127.0.0.1 (tests/sshd.py): only what
changed is sent, the home page last, removed pages removed, the host key checked, a password never
read from the file, a cut connection leaving the old site whole and the next run completing it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from reportgen import config
from reportgen.delivery import publish as site
from tests import sshd as sshd_server
from tests.test_delivery_mail import cli


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    yield from sshd_server.start(tmp_path_factory.mktemp("sshd"))


@pytest.fixture(scope="module")
def read_only_sshd(tmp_path_factory):
    yield from sshd_server.start(tmp_path_factory.mktemp("read-only-sshd"), read_only=True)


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


@dataclass
class League:
    """A site in outputs/, the settings that publish it, and the folder it goes to on the server."""

    inputs: Path
    outputs: Path
    remote: Path
    known_hosts: Path

    def settings(self, **extra: object) -> None:
        lines = [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
        (self.inputs / "reportgen.toml").write_text("[site]\n" + "\n".join(lines) + "\n")

    def publish(self, *options: str, env: dict | None = None) -> Ran:
        from typer.testing import CliRunner

        from reportgen.cli import app, exit_code
        from reportgen.render.files import MachineError

        result = CliRunner().invoke(app, ["publish", "--inputs", str(self.inputs), "--outputs", str(self.outputs),
                                          *options], env=env)
        stderr, code = result.stderr, result.exit_code
        if isinstance(result.exception, site.SiteError | MachineError):  # as reportgen.cli.main says them
            stderr += str(result.exception) + "\n"
            code = exit_code(result.exception)
        elif result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Ran(code, result.stdout, stderr)

    def write(self, path: str, text: str) -> None:
        target = self.outputs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def public(self) -> dict[str, bytes]:
        """What the site should hold: outputs/ but its private files."""
        return {path: (self.outputs / path).read_bytes() for path in site.site_files(self.outputs)}

    def online(self) -> dict[str, bytes]:
        """What the server holds in the site's folder, its manifest aside."""
        if not self.remote.is_dir():
            return {}
        return {p.relative_to(self.remote).as_posix(): p.read_bytes() for p in sorted(self.remote.rglob("*"))
                if p.is_file() and p.name != site.MANIFEST}


PAGES = {
    "index.html": "<a href='grand-sud/2026/classement-2026-03-14.html'>14 mars</a>",
    "grand-sud/2026/classement-2026-03-14.html": "<p>classement du 14 mars</p>",
    "grand-sud/2026/classement-2026-03-14.pdf": "%PDF bulletin du 14 mars",
    "grand-sud/2026/classement-2026-03-14.csv": "rang;joueur\n1;ANDRÉ Hélène\n",
    "tantrix/2026/2026-04-02-open.html": "<p>open</p>",
    "style.css": "body { font-family: Inter }",
    # never published
    "verification.html": "<p>les problèmes des classeurs</p>",
    "mail/2026/club-carc.eml": "Subject: bulletin",
    "rappels/2026-06-13-rodez.eml": "To: contact@rodez.example.org",
    "modeles/modele-grand-sud-carc.xlsx": "PK a blank workbook for a club, linked by no page",
    "grand-sud/site.json": '{"rows": [{"player": "DUPONT Jean (non publié)"}]}',
    "grand-sud/publications.json": "{}",
    ".reportgen/state": "{}",
    "grand-sud/2026/.publication-x.tmp": "partial",
}


@pytest.fixture
def league(tmp_path, sshd) -> League:
    made = League(tmp_path / "inputs", tmp_path / "outputs", tmp_path / "server" / "www",
                  sshd.known_hosts(tmp_path / "known_hosts"))
    made.inputs.mkdir()
    for path, text in PAGES.items():
        made.write(path, text)
    made.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(made.remote),
                  key=str(sshd.client_key), known_hosts=str(made.known_hosts), timeout=10)
    return made


def sent_lines(ran: Ran) -> list[str]:
    return [line.strip().removeprefix("envoyé : ") for line in ran.stdout.splitlines() if "envoyé :" in line]


def test_the_first_run_sends_everything_but_the_private_files_the_home_page_last(league):
    ran = league.publish()
    assert ran.code == 0, ran.stderr
    assert league.online() == league.public()
    assert set(league.public()) == {p for p in PAGES if not p.startswith((".", "verification", "mail", "rappels",
                                                                           "modeles"))
                                    and "/." not in p and not p.endswith(("site.json", "publications.json"))}
    lines = sent_lines(ran)
    assert lines[-1] == "index.html"
    assert lines.index("grand-sud/2026/classement-2026-03-14.pdf") < lines.index(
        "grand-sud/2026/classement-2026-03-14.html")  # a page after the files it links to
    assert "6 fichiers envoyés, 0 retiré, 0 inchangé" in ran.stdout
    manifest = json.loads((league.remote / site.MANIFEST).read_text())
    assert set(manifest["files"]) == set(league.public())
    assert not (league.outputs / ".reportgen" / site.JOURNAL).exists()

    again = league.publish()
    assert again.code == 0, again.stderr
    assert sent_lines(again) == []
    assert "le site en ligne est déjà à jour (6 fichiers inchangés)" in again.stdout


def test_a_changed_bulletin_goes_alone_and_a_removed_page_is_removed(league):
    assert league.publish().code == 0
    league.write("grand-sud/2026/classement-2026-03-14.csv", "rang;joueur\n1;ANDRÉ Hélène\n2;BRUN Luc\n")
    (league.outputs / "tantrix/2026/2026-04-02-open.html").unlink()
    (league.outputs / "tantrix/2026").rmdir()
    ran = league.publish()
    assert ran.code == 0, ran.stderr
    assert sent_lines(ran) == ["grand-sud/2026/classement-2026-03-14.csv"]
    assert "retiré : tantrix/2026/2026-04-02-open.html" in ran.stdout
    assert "1 fichier envoyé, 1 retiré, 4 inchangés" in ran.stdout
    assert league.online() == league.public()
    assert not (league.remote / "tantrix").exists()  # the folders it left empty went with it


def test_dry_run_says_what_would_go_and_changes_nothing(league, sshd):
    # key and known_hosts relative to the folder of reportgen.toml
    (league.inputs / "cles").mkdir()
    (league.inputs / "cles" / "publication").write_bytes(sshd.client_key.read_bytes())
    sshd.known_hosts(league.inputs / "cles" / "known_hosts")
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote),
                    key="cles/publication", known_hosts="cles/known_hosts")
    assert league.publish().code == 0
    league.write("index.html", "<p>nouvelle page d'accueil</p>")
    before = league.online()
    ran = league.publish("--dry-run")
    assert ran.code == 0, ran.stderr
    assert "à envoyer : index.html" in ran.stdout
    assert "1 fichier à envoyer, 0 à retirer, 5 inchangés" in ran.stdout
    assert league.online() == before


def test_an_unknown_host_key_is_refused_before_anything_is_sent(league, sshd):
    league.known_hosts.write_text("")
    ran = league.publish()
    assert ran.code == 1
    assert f"127.0.0.1 (port {sshd.port}) : ce serveur n’est pas dans {league.known_hosts}" in ran.stderr
    assert f"ssh-keyscan -p {sshd.port} 127.0.0.1 >> {league.known_hosts}" in ran.stderr
    assert "ssh-ed25519 SHA256:" in ran.stderr
    assert not league.remote.exists()

    league.known_hosts.unlink()  # no known_hosts file at all
    ran = league.publish()
    assert ran.code == 1 and "le fichier n’existe pas" in ran.stderr, ran.stderr
    assert not league.remote.exists()


def test_a_changed_host_key_is_refused(league, sshd, tmp_path):
    other = sshd_server.keygen(tmp_path / "other_host_key")
    sshd.known_hosts(league.known_hosts, public=other)
    ran = league.publish()
    assert ran.code == 1
    assert "la clé du serveur a changé" in ran.stderr
    assert f'ssh-keygen -R "[127.0.0.1]:{sshd.port}" -f {league.known_hosts}' in ran.stderr
    assert not league.remote.exists()


def test_a_password_in_the_settings_file_is_refused(league, sshd):
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote),
                    password="secret")
    ran = league.publish()
    assert ran.code == 1
    assert "le mot de passe ne s’écrit jamais dans un fichier" in ran.stderr
    assert config.SFTP_PASSWORD_VARIABLE in ran.stderr
    assert not league.remote.exists()


def test_the_site_table_is_read_and_checked_like_every_setting(tmp_path):
    settings = tmp_path / "reportgen.toml"
    settings.write_text('[league]\nname = "Ligue"\n\n[site]\nhost = "ssh.example.org"\nuser = "ligue"\n'
                        'folder = "www"\nkey = "cles/publication"\n')
    problems: list = []
    league = config.load(tmp_path, {}, problems)  # what build and check read: [site] is a known table
    assert problems == [] and league.site == config.Site(host="ssh.example.org", user="ligue", folder="www",
                                                         key="cles/publication")
    settings.write_text('[site]\nhost = "ssh.example.org"\nport = "22"\n')
    assert config.load_site(tmp_path, problems) is None
    assert [str(p) for p in problems] == [
        "reportgen.toml, table [site], réglage « port » : « \"22\" » n’est pas un nombre entier (ligne 3) — écrivez port = 22",
        "reportgen.toml, table [site] : le réglage « user » manque dans la table [site] (ligne 1) — ajoutez la ligne "
        "user = \"ligue\" sous [site]",
        "reportgen.toml, table [site] : le réglage « folder » manque dans la table [site] (ligne 1) — ajoutez la ligne "
        "folder = \"www\" sous [site]"]


def test_without_site_settings_the_command_shows_the_table_to_write(league):
    (league.inputs / "reportgen.toml").unlink()
    ran = league.publish()
    assert ran.code == 1
    assert "la publication a besoin du serveur SFTP (host, user, folder) dans la table [site]" in ran.stderr and 'host = "ssh.example.org"' in ran.stderr


def test_a_missing_server_is_a_machine_fault(league, sshd):
    import socket

    with socket.socket() as closed:  # bound and never listening: refused, and no other test (xdist) can take it
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        league.settings(host=sshd.host, port=port, user=sshd_server.USER, folder=str(league.remote),
                        key=str(sshd.client_key), known_hosts=str(league.known_hosts), timeout=5)
        ran = league.publish()
    assert ran.code == 4
    assert f"127.0.0.1 (port {port}) : impossible de joindre le serveur (aucun serveur n’écoute sur ce port)" in ran.stderr


def test_a_server_that_refuses_to_write_is_a_machine_fault(league, read_only_sshd):
    server = read_only_sshd
    league.settings(host=server.host, port=server.port, user=sshd_server.USER, folder=str(league.remote),
                    key=str(server.client_key), known_hosts=str(server.known_hosts(league.known_hosts)))
    ran = league.publish()
    assert ran.code == 4
    assert f"le serveur refuse d’écrire {league.remote.parent} (permission refusée)" in ran.stderr
    assert "rien n’a été changé sur le site" in ran.stderr
    assert not league.remote.exists()


def test_a_missing_or_refused_key_says_what_to_fix(league, sshd, tmp_path):
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote),
                    key="cles/absente", known_hosts=str(league.known_hosts))
    ran = league.publish()
    assert ran.code == 1
    assert f"le fichier de clé {league.inputs / 'cles/absente'} n’existe pas" in ran.stderr
    sshd_server.keygen(tmp_path / "unknown_key")  # a key the server does not know
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote),
                    key=str(tmp_path / "unknown_key"), known_hosts=str(league.known_hosts))
    ran = league.publish(env={"SSH_AUTH_SOCK": "", config.SFTP_PASSWORD_VARIABLE: ""})
    assert ran.code == 1
    assert f"{sshd_server.USER}@127.0.0.1 : le serveur refuse la connexion de cet utilisateur" in ran.stderr
    assert not league.remote.exists()


def test_a_key_with_a_passphrase_says_to_load_it_in_the_agent(league, sshd, tmp_path):
    key = tmp_path / "locked_key"
    sshd_server.keygen(key, passphrase="phrase secrète")
    league.settings(host=sshd.host, port=sshd.port, user=sshd_server.USER, folder=str(league.remote), key=str(key),
                    known_hosts=str(league.known_hosts))
    ran = league.publish(env={"SSH_AUTH_SOCK": ""})
    assert ran.code == 1
    assert f"la clé {key} est protégée par une phrase de passe" in ran.stderr and f"ssh-add {key}" in ran.stderr


def links_online(league: League) -> list[str]:
    """The pages the server's home page links to."""
    return re.findall(r"href='([^']+)'", (league.remote / "index.html").read_text())


# Where the line drops: while the third of the five files is on its way, once the home page has
# arrived (the removal left), once the removal is done (the manifest left).
@pytest.mark.parametrize("cut_after", [2, 5, 6])
def test_a_cut_connection_leaves_the_site_whole_and_the_next_run_completes_it(league, sshd, cut_after):
    assert league.publish().code == 0
    old = league.online()
    league.write("grand-sud/2026/classement-2026-03-28.pdf", "%PDF bulletin du 28 mars")
    league.write("grand-sud/2026/classement-2026-03-28.csv", "rang;joueur\n1;BRUN Luc\n")
    league.write("grand-sud/2026/classement-2026-03-28.html", "<p>classement du 28 mars</p>")
    league.write("grand-sud/2026/classement-2026-03-14.csv", "rang;joueur\n1;ANDRÉ Hélène (corrigé)\n")
    league.write("index.html", "<a href='grand-sud/2026/classement-2026-03-28.html'>28 mars</a>")
    (league.outputs / "tantrix/2026/2026-04-02-open.html").unlink()
    settings = config.load_site(league.inputs, [])
    assert settings is not None
    said: list[str] = []

    def cut(line: str) -> None:
        said.append(line)
        if len(said) == cut_after:
            sshd.kill_sessions()

    with pytest.raises(site.SiteUnreachable) as stopped:
        site.publish(league.outputs, settings, league.inputs, say=cut)
    assert "le serveur a fermé la connexion" in str(stopped.value), str(stopped.value)
    assert "le site en ligne reste entier" in str(stopped.value)
    now = league.online()
    assert all(link in now for link in links_online(league))  # the home page leads nowhere missing
    if cut_after < 5:
        assert now["index.html"] == old["index.html"] and set(old) <= set(now)  # the old site, whole

    ran = league.publish()
    assert ran.code == 0, ran.stderr
    arrived = min(cut_after, 5)
    assert f"reprise de l’envoi interrompu : {arrived} fichiers déjà arrivés, pas renvoyés" in ran.stdout
    assert not set(sent_lines(ran)) & {line.removeprefix("envoyé : ") for line in said}
    assert league.online() == league.public()
    hidden = [p.name for p in league.remote.rglob(".*")]
    assert hidden == [site.MANIFEST]  # no temporary copy left behind
    assert sent_lines(league.publish()) == []


def test_a_tampered_manifest_never_removes_a_file_outside_the_site(league):
    assert league.publish().code == 0
    outside = league.remote.parent / "outside.txt"
    outside.write_text("the host's own file")
    manifest = league.remote / site.MANIFEST
    data = json.loads(manifest.read_text())
    data["files"]["../outside.txt"] = "0" * 64
    manifest.write_text(json.dumps(data))
    assert league.publish().code == 0
    assert outside.read_text() == "the host's own file"


def test_the_private_files_are_those_reportgen_writes():
    from reportgen.commands.template import FOLDER as BLANK_WORKBOOKS
    from reportgen.delivery.club_bulletin import FOLDER as CLUBS
    from reportgen.delivery.mail import MAIL_FOLDER
    from reportgen.delivery.remind import FOLDER as REMINDERS
    from reportgen.render.index import MANIFEST
    from reportgen.render.verification import VERIFICATION_PAGE
    from reportgen.site.data import DATA

    assert set(site.PRIVATE) == {MAIL_FOLDER, VERIFICATION_PAGE, REMINDERS, CLUBS, BLANK_WORKBOOKS}
    assert set(site.INTERNAL) == {DATA, MANIFEST}


def test_blank_workbooks_an_earlier_publish_sent_are_removed_from_the_server(league, monkeypatch):
    """outputs/modeles/ (`reportgen template`: a club's blank workbook, the league's calendar) is
    linked by no page: a club gets its workbook by mail. An earlier reportgen sent it; the next run
    takes it off the server, and `publish --help` says it never leaves this machine."""
    with monkeypatch.context() as earlier:
        earlier.setattr(site, "PRIVATE", tuple(name for name in site.PRIVATE if name != "modeles"))
        assert league.publish().code == 0
    assert "modeles/modele-grand-sud-carc.xlsx" in league.online()
    ran = league.publish()
    assert ran.code == 0, ran.stderr
    assert "0 fichier envoyé, 1 retiré, 6 inchangés" in ran.stdout
    assert league.online() == league.public() and not (league.remote / "modeles").exists()
    shown = cli("publish", "--help").stdout
    assert "outputs/modeles/" in " ".join(re.sub("[│╭╮╰╯─]", " ", shown).split())


def test_one_publication_at_a_time(league):
    import fcntl

    lock = league.outputs / ".reportgen" / site.LOCK
    with lock.open("ab") as held:  # another run holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        ran = league.publish()
        assert ran.code == 1 and "une autre publication" in ran.stderr and "est en cours" in ran.stderr
        assert league.publish("--dry-run").code == 0  # changes nothing: not locked out
    assert not league.remote.exists()
    assert league.publish().code == 0


def test_a_build_stopped_halfway_is_not_published(league):
    league.write("grand-sud/.publication-journal.json", "{}")
    ran = league.publish()
    assert ran.code == 1
    assert "une construction s’est arrêtée en pleine publication" in ran.stderr
    assert not league.remote.exists()


def test_the_site_folder_is_named_as_sftp_knows_it():
    """SFTP paths start from the login folder and know no ~."""
    assert [site._folder(f) for f in ("www", "~/www", "~", "/var/www/ligue/", "./www")] == [
        "www", "www", ".", "/var/www/ligue", "www"]


def test_a_site_table_may_give_its_address_alone_and_publish_says_what_it_lacks(league):
    """`[site] url` without a server (a league whose site another program uploads): nothing is
    missing for the build and the messages; `publish` names the server's keys it needs."""
    (league.inputs / "reportgen.toml").write_text('[site]\nurl = "https://ligue.example.org"\n')
    problems: list = []
    site = config.load(league.inputs, {}, problems).site
    assert problems == [] and site == config.Site(url="https://ligue.example.org") and not site.server
    ran = league.publish()
    assert ran.code == 1
    assert "la publication a besoin du serveur SFTP (host, user, folder) dans la table [site]" in ran.stderr
    assert 'host = "ssh.example.org"' in ran.stderr and not league.remote.exists()
    # A table naming part of a server still says which of its keys are missing, keeps its address
    # (the share images and the clubs' messages name it), and publishes nothing.
    (league.inputs / "reportgen.toml").write_text('[site]\nurl = "https://ligue.example.org"\nhost = "ssh.example.org"\n')
    problems = []
    assert config.load_site(league.inputs, problems) == config.Site(url="https://ligue.example.org")
    assert [str(p).split(" : ")[1].split(" (")[0] for p in problems] == [
        "le réglage « user » manque dans la table [site]", "le réglage « folder » manque dans la table [site]"]
    ran = league.publish()
    assert ran.code == 1 and "le réglage « user » manque dans la table [site]" in ran.stderr
    assert not league.remote.exists()


def test_a_server_key_missing_is_said_by_the_build_and_refused_by_the_command_that_connects(small_league_copy):
    """A key missing from [inbox] or [site] cannot make a ranking wrong (problems.MISSING_SETTING is
    a warning): the build publishes and says it; `inbox` and `publish`, which need it, refuse."""
    inputs, outputs = small_league_copy.inputs, small_league_copy.outputs
    (inputs / "reportgen.toml").write_text('[inbox]\nhost = "imap.example.org"\n\n[site]\nhost = "ssh.example.org"\n'
                                           'user = "ligue"\n')
    bulletin = outputs / "grand-sud" / "2026" / "classement-2026-01-10.html"
    bulletin.unlink()  # what the build must publish again
    built = cli("build", "--inputs", str(inputs), "--outputs", str(outputs))
    assert built.returncode == 0, built.stderr
    assert bulletin.is_file()
    said = built.stdout + built.stderr
    assert "le réglage « user » manque dans la table [inbox]" in said
    assert "le réglage « folder » manque dans la table [site]" in said
    inbox = cli("inbox", "--inputs", str(inputs))
    assert inbox.returncode == 1 and "le réglage « user » manque dans la table [inbox]" in inbox.stderr
    published = cli("publish", "--inputs", str(inputs), "--outputs", str(outputs))
    assert published.returncode == 1 and "le réglage « folder » manque dans la table [site]" in published.stderr
