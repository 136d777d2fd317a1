"""The `Email` column of clubs.xlsx: an address glued to another word, two addresses glued, or no
address at all is a located problem of `check` (file, sheet, cell, what is expected, the fix), and
such a club is never sent anything; addresses separated by « ; » or « , » stay valid."""

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


def test_check_locates_each_bad_email_cell_with_the_fix(league, tmp_path):
    base.set_clubs(league.inputs, with_bad_addresses())
    (league.inputs / "reportgen.toml").write_text('[mail]\nport = "x"\n', encoding="utf-8")
    args = ["check", "--inputs", str(league.inputs), "--outputs", str(tmp_path / "out"),
            "--archive", str(tmp_path / "archive")]
    result = base.cli(*args, "--format", "json")
    assert result.returncode == 1
    found = [p for p in json.loads(result.stdout)["problems"] if p["code"] == "bad-address"]
    assert [(p["file"], p["sheet"], p["cell"]) for p in found] == [
        ("clubs.xlsx", "Clubs", "D2"), ("clubs.xlsx", "Clubs", "D3"), ("clubs.xlsx", "Clubs", "D4")]
    text = base.cli(*args)
    # Counted apart: the settings file is no workbook.
    assert "4 problèmes à corriger (3 dans les classeurs, 1 dans reportgen.toml) :" in text.stderr
    assert ("  - clubs.xlsx:'Clubs'!D4 (colonne « Email ») : « contact@alb.example.orgBcc » n'est pas une adresse "
            "électronique (attendu : une adresse comme contact@club.fr, ou plusieurs séparées par « ; ») — corrigez "
            "l'adresse (une seule « @ », un domaine avec un point, sans espace ; deux adresses séparées par « ; »), "
            "ou videz la case : le club ne reçoit aucun courriel tant qu'elle est fausse") in text.stderr
    assert "clubs.xlsx:'Clubs'!D2 (colonne « Email ») : « a@carc.example.org b@carc.example.org » n'est pas" \
        in text.stderr  # the bad part of the cell, not its good address
    assert "Traceback" not in text.stderr


def test_a_club_whose_email_is_no_address_is_never_sent_nor_logged(league, tmp_path, smtp):
    archive = tmp_path / "archive"
    base.set_mail(league.inputs, smtp.port)
    base.set_clubs(league.inputs, with_bad_addresses())
    result = base.mail_command(league, archive, "--send")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "3 problèmes à corriger dans les classeurs :" in result.stderr
    assert "rien n'est préparé : corrigez d'abord ces problèmes" in result.stderr
    assert smtp.received == []
    log = database.connect(archive, create=False)
    assert log is not None and log.execute("SELECT count(*) FROM sending").fetchone()[0] == 0
    log.close()
    # Corrected (a comma and a name are fine): each club gets its message at its bare addresses.
    carcassonne = "contact@carc.example.org, Président <president@carc.example.org>"
    base.set_clubs(league.inputs, [[*club[:3], carcassonne if club[0] == "CARC" else club[3]] for club in base.CLUBS])
    sent = base.mail_command(league, archive, "--send")
    assert sent.returncode == 0, sent.stderr
    assert smtp.count() == base.EACH_ONCE
