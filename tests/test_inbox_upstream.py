"""`reportgen inbox` never tells a club to correct what is not its own: against the real Dovecot (and
aiosmtpd) of tests/test_inbox.py, a Masters workbook that arrives while the Grand Sud, which the
Masters depends on, has workbooks to correct (the Masters is held: model.Level.HELD, not a problem
of its own) is filed on its own checks, as `make check` would take it in inputs/, and its club is
told it is recorded and that its publication waits for the Grand Sud; a Masters workbook with a
problem of its own is refused with that problem only."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from tests import dovecot, test_inbox
from tests.conftest import EXAMPLE_INPUTS
from tests.test_inbox import body, message

server = test_inbox.server  # the real Dovecot
smtp = test_inbox.smtp  # the real SMTP server of the mail tests (aiosmtpd)

CARC = "contact@carc.example.org"  # the example league's clubs.xlsx: contact@<code>.example.org
BROKEN = "2026/2026-11-14-auch.xlsx"  # a Grand Sud workbook of the example league, broken below
MASTERS = "masters/masters-2026.xlsx"
FILED = "masters/2026/2026-11-28-carc-masters-grand-sud-2026.xlsx"
WAITS = ("Sa vérification complète et sa publication attendent le « Classement régional Grand Sud », dont il "
         "dépend et qui doit d’abord être mis à jour : rien à faire de votre côté, le secrétariat de la ligue vous "
         "écrira si besoin.")


class Upstream(test_inbox.League):
    """The example league, read by `inbox`, one Grand Sud workbook to correct (as in
    tests/test_upstream_hold.py): the Masters waits for it."""

    def __init__(self, root: Path, server: dovecot.Dovecot) -> None:
        self.root = root
        self.inputs = root / "inputs"
        shutil.copytree(EXAMPLE_INPUTS, self.inputs)
        book = openpyxl.load_workbook(self.inputs / BROKEN)
        book["Résultats"]["A3"] = "abc"
        book.save(self.inputs / BROKEN)
        self.outputs = root / "outputs"
        self.archive = root / "archive"
        self.server = server
        self.settings(server.port)


@pytest.fixture
def league(tmp_path, server) -> Upstream:
    return Upstream(tmp_path / "league", server)


def plain(text: str) -> str:
    return text.replace("\u202f", " ").replace("\xa0", " ")


def test_a_masters_workbook_waiting_for_the_grand_sud_is_filed_not_refused(league):
    """It was refused, its club told « Voici ce qui est à corriger : le circuit « Classement régional
    Grand Sud », dont dépend « Masters Grand Sud », a des classeurs à corriger »: nothing in its own
    workbook."""
    data = (league.inputs / MASTERS).read_bytes()
    (league.inputs / MASTERS).unlink()  # a Masters workbook not yet in inputs/
    league.server.append(message(CARC, "Masters", [("masters.xlsx", data)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 message traité : 1 classeur enregistré, aucun classeur refusé" in done.stdout
    assert (league.inputs / FILED).read_bytes() == data
    assert not (league.archive / "inbox" / "refused").exists()
    assert (f"masters.xlsx enregistré dans {league.inputs / FILED} (en attente du « Classement régional Grand Sud », dont "
            "il dépend : vérifié en entier et publié une fois ses classeurs corrigés)") in done.stdout
    [draft] = league.drafts()
    said = plain(body(draft))
    assert "masters.xlsx : le tournoi « Masters Grand Sud 2026 » du 28 novembre 2026 est enregistré (Masters Grand " \
           "Sud, saison 2026). " + WAITS in said
    assert "corriger" not in said and "Corrigez" not in said and ".\n\nBien cordialement," in said
    assert "corriger" not in plain(draft.get_body(("html",)).get_content())
    # `check` says the Masters waits, nothing to correct in it: the Grand Sud's workbook is the one.
    checked = league.check()
    assert checked.returncode == 1
    assert f"  - {FILED} : le circuit « Classement régional Grand Sud », dont dépend « Masters Grand Sud »" \
        in checked.stderr
    assert "1 problème à corriger dans les classeurs :" in checked.stderr


def test_kill_9_while_filing_a_waiting_masters_then_a_rerun_files_it_once_and_still_says_it_waits(league):
    """The hold is recorded with the decision, before anything moves: killed at the rename that
    files it, the next run finishes the filing from the database and its answer, written once,
    still says the workbook waits for the Grand Sud (nothing to correct)."""
    data = (league.inputs / MASTERS).read_bytes()
    (league.inputs / MASTERS).unlink()
    league.server.append(message(CARC, "Masters", [("masters.xlsx", data)]))
    # renames: the message's copy, the examination's private folder, the workbook into inputs/: killed
    # at the third
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filing")] and not (league.inputs / FILED).exists()
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert (league.inputs / FILED).read_bytes() == data and league.server.uids() == []
    [draft] = league.drafts()
    assert WAITS in plain(body(draft)) and "Corrigez" not in plain(body(draft))
    assert league.run().returncode == 0 and len(league.drafts()) == 1  # nothing filed nor answered again


def test_a_new_version_of_the_masters_sent_while_it_waits_replaces_the_old_and_the_answer_goes_out(league, smtp):
    # Its first version filed from Carcassonne's message: Carcassonne's to replace (the Masters' sheets
    # name no club: the one the secretary put in inputs/ is hers, a club's version of it held for her)
    data = (league.inputs / MASTERS).read_bytes()
    (league.inputs / MASTERS).unlink()
    league.server.append(message(CARC, "Masters", [("masters.xlsx", data)]))
    assert "1 classeur enregistré" in league.run().stdout
    league.with_smtp(smtp.port)
    book = openpyxl.load_workbook(league.inputs / FILED)
    book["Tournoi"]["B6"] = "Carcassonne (salle des fêtes)"  # its Lieu, typed again
    changed = league.root / "masters.xlsx"
    book.save(changed)
    league.server.append(message(CARC, "Masters, version 2", [("masters.xlsx", changed.read_bytes())], number=2))
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert "1 classeur enregistré, aucun classeur refusé" in done.stdout and "réponse envoyée" in done.stdout
    assert (league.inputs / FILED).read_bytes() == changed.read_bytes() and not (league.inputs / MASTERS).exists()
    [sent] = smtp.received
    said = plain(sent.message.get_body(("plain",)).get_content())
    assert "il remplace la version précédente de ce tournoi. " + WAITS in said and "Corrigez" not in said


def test_a_masters_workbook_with_a_problem_of_its_own_is_refused_with_that_one_only(league):
    data = (league.inputs / MASTERS).read_bytes()
    (league.inputs / MASTERS).unlink()
    broken = league.root / "masters.xlsx"
    broken.write_bytes(data)
    book = openpyxl.load_workbook(broken)
    book["Tournoi"]["B4"] = "le 28"  # its Date
    book.save(broken)
    league.server.append(message(CARC, "Masters", [("masters.xlsx", broken.read_bytes())]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "aucun classeur enregistré, 1 classeur refusé" in done.stdout
    assert not (league.inputs / "masters").exists() or not any((league.inputs / "masters").rglob("*.xlsx"))
    [draft] = league.drafts()
    said = plain(body(draft))
    assert "feuille « Tournoi », cellule B4" in said and "dont dépend" not in said and "Classement régional" not in said
