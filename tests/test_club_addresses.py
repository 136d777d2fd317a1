"""The `Email` column of clubs.xlsx: an address glued to another word, two addresses glued, or no
address at all is a located problem of `check` (file, sheet, cell, what is expected, the fix), and
such a club is never sent anything; addresses separated by « ; » or « , » stay valid. Such a cell is
a warning (model.Level): it blocks no build, and `mail` says the club gets nothing."""

from __future__ import annotations

import json

import pytest

from reportgen.delivery import database
from reportgen.ingest.directories import addresses
from tests import test_delivery_mail as base

# The fixtures of the mail tests: the SMTP server, and the small league whose clubs have addresses.
smtp = base.smtp
league = base.league


@pytest.mark.parametrize(("cell", "found"), [
    ("contact@albi.example.org", ("contact@albi.example.org",)),
    ("a@albi.example.org; b@albi.example.org", ("a@albi.example.org", "b@albi.example.org")),
    ("a@albi.example.org, b@albi.example.org;", ("a@albi.example.org", "b@albi.example.org")),
    ("Albi <contact@albi.example.org>", ("contact@albi.example.org",)),  # a name, then the address
    ("Jean.Dupont+ligue@Mail.Example.FR", ("Jean.Dupont+ligue@Mail.Example.FR",)),
    ("Contact@Club-Albi.Fr", ("Contact@Club-Albi.Fr",)),  # as a word processor capitalises it
])
def test_addresses_separated_by_semicolons_or_commas_are_read(cell, found):
    assert addresses(cell) == (found, [])


@pytest.mark.parametrize("cell", [
    "not an address", "contact@alb.example.orgBcc", "a@albi.example.org b@albi.example.org",
    "a@albi.example.orgb@albi.example.org", "contact@albi", "contact@albi..org", "@albi.example.org",
    "contact@-albi.example.org", "contact@albi.example.org Bcc: x@evil.example.org", "contact@albi.example.ORGbcc",
])
def test_what_is_no_address_is_refused(cell):
    assert addresses(cell) == ((), [cell.strip()])


BAD = {"ALBI": "contact@alb.example.orgBcc", "TLSE": "not an address",
       "CARC": "contact@carc.example.org; a@carc.example.org b@carc.example.org"}


def with_bad_addresses() -> list[list[str]]:
    return [[*club[:3], BAD.get(club[0], club[3])] for club in base.CLUBS]


def test_check_locates_each_bad_email_cell_as_a_warning_with_the_fix(league, tmp_path):
    base.set_clubs(league.inputs, with_bad_addresses())
    (league.inputs / "reportgen.toml").write_text('[mail]\nport = "x"\n', encoding="utf-8")
    args = ["check", "--inputs", str(league.inputs), "--outputs", str(tmp_path / "out"),
            "--archive", str(tmp_path / "archive")]
    result = base.cli(*args, "--format", "json")
    assert result.returncode == 1  # the settings file's problem blocks; the addresses do not
    records = json.loads(result.stdout)["problems"]
    found = [p for p in records if p["code"] == "bad-address"]
    assert [(p["file"], p["sheet"], p["cell"], p["level"]) for p in found] == [
        ("clubs.xlsx", "Clubs", "D2", "warning"), ("clubs.xlsx", "Clubs", "D3", "warning"),
        ("clubs.xlsx", "Clubs", "D4", "warning")]
    assert {p["level"] for p in records if p["code"] != "bad-address"} == {"blocking"}
    text = base.cli(*args)
    assert "3 avertissements (rien n’est bloqué, mais à corriger) dans les classeurs :" in text.stderr
    assert "1 problème à corriger dans reportgen.toml :" in text.stderr
    assert ("  - clubs.xlsx, feuille « Clubs », cellule D4 (colonne « Email ») : « contact@alb.example.orgBcc » n’est pas une adresse "
            "électronique (attendu : une adresse comme contact@club.fr, ou plusieurs séparées par « ; ») — corrigez "
            "l’adresse (une seule « @ », un domaine avec un point, sans espace ; deux adresses séparées par « ; »), "
            "ou videz la case : le club ne reçoit aucun courriel tant qu’elle est fausse") in text.stderr
    assert "clubs.xlsx, feuille « Clubs », cellule D2 (colonne « Email ») : « a@carc.example.org b@carc.example.org » n’est pas" \
        in text.stderr  # the bad part of the cell, not its good address
    assert "Traceback" not in text.stderr


def test_warnings_alone_let_check_pass_and_show_on_the_secretarys_page(league, tmp_path):
    base.set_clubs(league.inputs, with_bad_addresses())
    out = tmp_path / "out"
    result = base.cli("check", "--inputs", str(league.inputs), "--outputs", str(out), "--archive",
                      str(tmp_path / "archive"))
    assert result.returncode == 0, result.stderr
    assert "aucun problème bloquant (3 avertissements)." in result.stdout
    page = (out / "verification.html").read_text(encoding="utf-8")
    assert "aucun problème bloquant · 3 avertissements (rien n’est bloqué)" in page
    assert page.count("<strong>Avertissement</strong>") == 3
    assert "«\u00a0contact@alb.example.orgBcc\u00a0» n’est pas une adresse" in page


def test_the_build_publishes_despite_a_bad_address_and_reports_it(league, tmp_path):
    base.set_clubs(league.inputs, with_bad_addresses())
    built = base.cli("build", "--inputs", str(league.inputs), "--outputs", str(league.outputs), "--archive",
                     str(tmp_path / "archive"))
    assert built.returncode == 0, built.stderr
    assert "grand-sud : publié dans" in built.stderr and "rien de nouveau n’est publié" not in built.stderr
    assert "3 avertissements (rien n’est bloqué, mais à corriger) dans les classeurs :" in built.stderr
    assert "clubs.xlsx, feuille « Clubs », cellule D4 (colonne « Email ») : « contact@alb.example.orgBcc »" in built.stderr
    assert "à corriger dans" not in built.stderr.replace("mais à corriger", "")  # no blocking problem
    page = (league.outputs / "verification.html").read_text(encoding="utf-8")
    assert page.count("<strong>Avertissement</strong>") == 3


def test_mail_drafts_the_other_clubs_says_which_club_gets_nothing_and_exits_1(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    base.set_mail(league.inputs, smtp.port)
    base.set_clubs(league.inputs, [[*club[:3], BAD["ALBI"] if club[0] == "ALBI" else club[3]] for club in base.CLUBS])
    drafted = base.mail_command(league, archive)
    assert drafted.returncode == 1 and "Traceback" not in drafted.stderr
    said = ("club ALBI : adresse « contact@alb.example.orgBcc » invalide (clubs.xlsx, feuille « Clubs », cellule D4) : "
            "aucun message")
    assert said in drafted.stderr
    assert sorted(p.name for p in (league.outputs / "mail" / "2026").glob("*.eml")) == ["CARC.eml", "TLSE.eml"]
    sent = base.mail_command(league, archive, "--send")
    assert sent.returncode == 1 and said in sent.stderr
    assert smtp.count() == {base.CARCASSONNE: 1, base.TOULOUSE: 1}
    log = database.connect(archive, create=False)
    assert log is not None
    assert log.execute("SELECT count(*) FROM sending WHERE club_code = 'ALBI'").fetchone()[0] == 0
    log.close()
    # Corrected (a comma and a name are fine): each club gets its message at its bare addresses.
    carcassonne = "contact@carc.example.org, Président <president@carc.example.org>"
    base.set_clubs(league.inputs, [[*club[:3], carcassonne if club[0] == "CARC" else club[3]] for club in base.CLUBS])
    again = base.mail_command(league, archive, "--send")
    assert "invalide" not in again.stderr
    assert smtp.count() == base.EACH_ONCE
