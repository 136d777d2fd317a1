"""`reportgen inbox` never lets a club replace another club's tournament: against the real Dovecot
(and aiosmtpd) of tests/test_inbox.py, a workbook of a tournament another club's message filed, or
whose Grand Sud `Club` names another club, is held (kept aside, inputs/ untouched), the club is told
whose it is, and the secretary sees it in every `inbox` and `check` until she files or deletes it;
a club's own tournament is filed as before."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import hashlib
import html as markup
import shutil
import sqlite3
from pathlib import Path

from reportgen.delivery import database, seasons
from tests import test_inbox
from tests.builders import write_workbook
from tests.test_delivery_mail import cli
from tests.test_inbox import ALBI, SPRING, TLSE, TOULOUSE_REPLACED, body, message, workbook

server, league = test_inbox.server, test_inbox.league  # the real Dovecot and a league reading it
smtp = test_inbox.smtp  # the real SMTP server of the mail tests (aiosmtpd)

HELD = "2026-03-14-tlse-2-t.xlsx"  # Toulouse's second message: <day>-<club>-<uid>-<name>


def tree(inputs: Path) -> dict[str, str]:
    """Every file of inputs/ and the sha256 of its bytes."""
    return {str(p.relative_to(inputs)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(inputs.rglob("*")) if p.is_file()}


def html(draft) -> str:
    return draft.get_body(("html",)).get_content()


def answer(league, name: str):
    """The draft answering one message (`<day>-<club>-<uid>`), parsed."""
    path = league.outputs / "mail" / "inbox" / f"{name}.eml"
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def tour_de_france(tmp_path: Path, name: str, first: str = "PARIS") -> bytes:
    """A Tour de France workbook: a circuit whose sheet names no organising club."""
    path = write_workbook(tmp_path / f"{name}-{first}.xlsx", {
        "Tournoi": [["Circuit", "tour-de-france"], ["Nom", name], ["Date", "14/03/2026"]],
        "Résultats": [["Place", "Nom", "Prénom"], [1, first, "Raphaël"], [2, "BOUVIER", "Marie"]]})
    return path.read_bytes()


def test_a_club_sending_another_clubs_tournament_is_held_and_the_owner_still_files_its_own(league, tmp_path):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    assert league.run().returncode == 0
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    before = tree(league.inputs)
    # Toulouse sends Albi's tournament (its sheet says Club ALBI): it would replace Albi's version.
    theirs = workbook(tmp_path / "t", **SPRING, results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert tree(league.inputs) == before  # not one byte of inputs/ changed
    held = league.archive / "inbox" / "held" / HELD
    assert held.read_bytes() == theirs  # kept aside, where `make` never reads
    assert not (league.archive / "inbox" / "replaced").exists()
    assert "1 message traité : aucun classeur enregistré, aucun classeur refusé, 1 classeur mis de côté pour vous" \
        in done.stdout
    assert "t.xlsx MIS DE CÔTÉ pour vous : tournoi du club d’Albi" in done.stdout
    assert "lancez « make »" not in done.stdout  # nothing new to publish
    # The secretary is told where it is and how to file it herself.
    assert "1 classeur reçu par courriel mis de côté pour vous (rien n’a changé dans inputs/, à vous de décider) :" \
        in done.stderr
    assert (f"  - t.xlsx de {TLSE} (message du 14 mars 2026) : « Tournoi printemps » du 14 mars 2026 est un "
            f"tournoi du club d’Albi ; gardé dans {held} ; pour l’enregistrer, mettez-le dans inputs/ à la place "
            f"de {filed} ; pour l’écarter, supprimez-le") in done.stderr  # one apostrophe, as d’Albi's
    # Toulouse's answer, as Toulouse reads it: whose tournament it is and who decides; no corrections.
    draft = answer(league, "2026-03-14-tlse-2")
    assert draft["To"] == TLSE and draft["Subject"] == "Re: Tournoi d'Albi"
    said = ("t.xlsx\u00a0: le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026 est un tournoi du club "
            "d’Albi\u202f; votre classeur n’a donc pas été enregistré et la version déjà enregistrée reste en place. "
            "Il est gardé de côté\u00a0: c’est le secrétariat de la ligue qui décidera de la suite. Pour lui apporter "
            "une précision, répondez à ce message.")
    assert said in body(draft)
    assert "<strong>t.xlsx</strong>\u00a0:</span> le tournoi «\u00a0Tournoi printemps\u00a0»" in html(draft)  # its name a box
    assert said.removeprefix("t.xlsx\u00a0:") in markup.unescape(html(draft))  # after the name's box
    for text in (body(draft), html(draft)):
        assert "est enregistré (" not in text and "votre tournoi" not in text
        assert "corriger" not in text and "Corrigez" not in text  # held is not refused
    # `check` lists it too, and the held workbook blocks nothing
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    assert f"t.xlsx de {TLSE} (message du 14 mars 2026) : « Tournoi printemps »" in checked.stderr
    assert "refusé" not in checked.stderr
    # Albi sends a corrected version of its own tournament: filed as always, replacing its own.
    own = workbook(tmp_path / "a2", **SPRING, results=[[1, "MARTIN", "Paul", "1002", "Albi"]])
    league.server.append(message(ALBI, "Correction", [("a.xlsx", own)], number=3))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur enregistré, aucun classeur refusé ;" in done.stdout
    assert filed.read_bytes() == own
    assert "il remplace la version précédente de ce tournoi" in body(answer(league, "2026-03-14-albi-3"))
    assert "mis de côté pour vous" in done.stderr  # still Toulouse's, until the secretary decides


def test_the_secretary_files_a_held_workbook_by_putting_it_in_inputs(league, tmp_path):
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    theirs = workbook(tmp_path / "t", **SPRING, results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=2))
    assert league.run().returncode == 0
    held = league.archive / "inbox" / "held" / HELD
    # She decides Toulouse's version is right: she puts it in place of Albi's, as any workbook.
    shutil.copyfile(held, league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx")
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    assert "mis de côté" not in checked.stderr  # filed: no longer waiting
    # Another held one she deletes: she has said no, it is no longer listed.
    league.server.append(message(TLSE, "Encore", [("t.xlsx", workbook(tmp_path / "t2", **SPRING))], number=3))
    done = league.run()
    assert "1 classeur mis de côté pour vous" in done.stdout and "2026-03-14-tlse-3-t.xlsx" in done.stderr
    (league.archive / "inbox" / "held" / "2026-03-14-tlse-3-t.xlsx").unlink()
    assert "mis de côté" not in league.check().stderr


def test_a_grand_sud_workbook_naming_another_club_is_held_even_as_a_new_tournament(league, tmp_path):
    before = tree(league.inputs)
    # Toulouse sends a tournament its sheet says Nîmes organised, which nobody has sent yet.
    nimes = workbook(tmp_path, "nimes", day="21/03/2026", club="NIME")
    league.server.append(message(TLSE, "Tournoi de Nîmes", [("n.xlsx", nimes)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert tree(league.inputs) == before
    assert (league.archive / "inbox" / "held" / "2026-03-14-tlse-1-n.xlsx").read_bytes() == nimes
    text = body(league.drafts()[0])
    assert ("n.xlsx\u00a0: le tournoi «\u00a0Tournoi nimes\u00a0» du 21\u00a0mars\u00a02026 est un tournoi du club "
            "de Nîmes\u202f; votre classeur n’a donc pas été enregistré. Il est gardé de côté") in text
    assert "déjà enregistrée" not in text
    assert "mettez-le dans inputs/ ; pour l’écarter" in done.stderr  # nothing it would replace
    # Toulouse sends its own new tournament, and a version of its tournament the secretary put in
    # inputs/ (its Club is TLSE): both filed as before.
    own = workbook(tmp_path / "own", "toulouse", day="28/03/2026", club="TLSE")
    corrected = workbook(tmp_path / "c", "2026-01-10-toulouse", day="10/01/2026", club="TLSE")
    league.server.append(message(TLSE, "Nos tournois", [("own.xlsx", own), ("c.xlsx", corrected)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "2 classeurs enregistrés, aucun classeur refusé ;" in done.stdout
    assert not (league.inputs / "2026-01-10-toulouse.xlsx").exists()
    text = body(league.drafts()[-1])
    assert "le tournoi «\u00a0Tournoi toulouse\u00a0» du 28\u00a0mars\u00a02026 est enregistré" in text
    assert "le tournoi «\u00a0Tournoi 2026-01-10-toulouse\u00a0» du 10\u00a0janvier\u00a02026 est enregistré" in text


def test_a_tournament_another_club_filed_by_mail_is_held_in_a_circuit_without_organiser(league, tmp_path):
    league.server.append(message(ALBI, "Étape", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète"))]))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stderr
    before = tree(league.inputs)
    # The same tournament (name and date) from Toulouse: Albi's message filed it.
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète", "GIRARD"))],
                                 number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur mis de côté pour vous" in done.stdout and tree(league.inputs) == before
    assert "est un tournoi du club d’Albi" in body(league.drafts()[-1])
    # Albi sends it again: its own, replaced.
    league.server.append(message(ALBI, "Étape corrigée", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète",
                                                                                    "BOUVIER"))], number=3))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout and "(remplace " in done.stdout


def test_a_tantrix_tournament_another_club_filed_stays_its_own_once_the_secretary_renamed_its_file(league, tmp_path):
    """Tantrix sheets name no club. Albi's « Open de Sète » filed from Albi's message, the secretary
    tidied inputs/ (its file renamed): Toulouse's workbook of the same name and day replaced it, told
    « enregistré », as the club whose message filed a workbook was looked up by its path alone. Its
    bytes name that club too: Toulouse's is held as Albi's tournament; Albi's own new version is filed."""
    from tests.tantrix.test_workbooks import round_robin, write_event

    def open_de_sete(folder: Path, tiles: int) -> bytes:
        return write_event(folder, "Open de Sète", round_robin(("MOREAU Lucie", "FAURE Stéphane", tiles, 19))).read_bytes()

    league.server.append(message(ALBI, "Open", [("open.xlsx", open_de_sete(tmp_path / "a", 27))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "tantrix" / "2026" / "2026-03-14-albi-open-de-sete.xlsx"
    renamed = filed.with_name("open-de-sete.xlsx")
    filed.rename(renamed)
    before = tree(league.inputs)
    league.server.append(message(TLSE, "Open", [("open.xlsx", open_de_sete(tmp_path / "t", 25))], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur mis de côté pour vous" in done.stdout and tree(league.inputs) == before, done.stdout
    assert "est un tournoi du club d’Albi" in body(answer(league, "2026-03-14-tlse-2"))
    assert f"pour l’enregistrer, mettez-le dans inputs/ à la place de {renamed}" in done.stderr
    league.server.append(message(ALBI, "Open corrigé", [("open.xlsx", open_de_sete(tmp_path / "a2", 26))], number=3))
    done = league.run()
    assert "1 classeur enregistré" in done.stdout and "(remplace " in done.stdout, done.stdout
    assert not renamed.exists()


def announce_stage(inputs: Path, club: str) -> None:
    """calendrier.xlsx announcing the Tour de France's « Étape de Sète » of 14/03/2026, organised by `club`."""
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["14/03/2026", "tour-de-france", club, "Étape de Sète", "Sète"]]})


def test_a_stage_the_secretary_placed_is_held_when_the_calendar_says_it_is_another_clubs(league, tmp_path):
    # A circuit whose sheets name no club: the secretary put Albi's stage in inputs/ herself (no
    # message filed it), and calendrier.xlsx says Albi organises it.
    announce_stage(league.inputs, "ALBI")
    placed = league.inputs / "tour-de-france" / "2026" / "etape-de-sete.xlsx"
    placed.parent.mkdir(parents=True, exist_ok=True)
    placed.write_bytes(tour_de_france(tmp_path, "Étape de Sète"))
    before = tree(league.inputs)
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path / "t", "Étape de Sète", "GIRARD"))]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur mis de côté pour vous" in done.stdout and tree(league.inputs) == before
    assert "est un tournoi du club d’Albi" in body(league.drafts()[-1])
    # Albi sends its corrected stage: its own, it replaces the secretary's copy.
    league.server.append(message(ALBI, "Étape corrigée", [("e.xlsx", tour_de_france(tmp_path / "a", "Étape de Sète",
                                                                                    "BOUVIER"))], number=2))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout and "(remplace " in done.stdout
    assert not placed.exists()


def test_a_new_stage_the_calendar_gives_to_another_club_is_held_and_filed_once_it_names_the_sender(league, tmp_path):
    announce_stage(league.inputs, "ALBI")
    before = tree(league.inputs)
    # Toulouse sends the stage the calendar announces as Albi's: the first version, still not its own.
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète", "GIRARD"))]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur mis de côté pour vous" in done.stdout and tree(league.inputs) == before
    # The calendar says Toulouse organises it (the secretary corrected it): Toulouse's stage is filed.
    announce_stage(league.inputs, "TLSE")
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path / "t", "Étape de Sète",
                                                                           "GIRARD"))], number=2))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stdout


def test_a_stage_sent_by_a_club_the_calendar_announces_that_day_is_its_own_not_another_clubs(league, tmp_path):
    """Two stages announced on 14/03/2026, Albi's and Toulouse's; Toulouse sends its own, named
    neither as the calendar names them: its sheet names no club, and the calendar's last pass gave
    it the first row of its day, Albi's, so it was held as Albi's tournament and Toulouse's row
    stayed awaited. The club that sent it is known: its own row is matched first."""
    write_workbook(league.inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["14/03/2026", "tour-de-france", "ALBI", "Contre-la-montre d’Albi", "Albi"],
        ["14/03/2026", "tour-de-france", "TLSE", "Étape de Toulouse", "Toulouse"]]})
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path, "3e étape", "GIRARD"))]))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stdout + done.stderr
    assert "mis de côté" not in done.stdout and "club d’Albi" not in body(league.drafts()[-1])


def test_a_stage_a_club_sent_is_its_own_for_the_build_and_remind_too(league, tmp_path):
    """Once `inbox` filed Toulouse's stage as Toulouse's (above), the build, `check` and `remind`, which
    did not know who sent it, matched it with the first row of its day again, Albi's: the home page
    and calendrier.ics said Albi's tournament played under Toulouse's stage's name, Toulouse's own
    row « résultats attendus », and `remind` asked Toulouse for the workbook it had sent."""
    test_a_stage_sent_by_a_club_the_calendar_announces_that_day_is_its_own_not_another_clubs(league, tmp_path)
    where = ("--inputs", str(league.inputs), "--outputs", str(league.outputs), "--archive", str(league.archive))
    built = cli("build", *where)
    assert built.returncode == 0, built.stderr
    ics = (league.outputs / "calendrier.ics").read_bytes().decode().replace("\r\n ", "")  # its lines unfolded
    events = {line.split(":", 1)[1] for line in ics.splitlines() if line.startswith("SUMMARY")}
    assert any("3e étape" in event for event in events), events  # the stage played, under its own name
    assert not any("Étape de Toulouse" in event for event in events), events  # Toulouse's row: the stage
    assert any("Contre-la-montre d’Albi" in event for event in events), events  # Albi's: still awaited
    checked = league.check()
    assert "Étape de Toulouse" not in checked.stdout + checked.stderr
    reminded = cli("remind", *where)
    assert reminded.returncode == 0, reminded.stderr
    drafts = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
              for p in sorted((league.outputs / "rappels").glob("*.eml"))]
    assert [draft["To"] for draft in drafts] == [ALBI], [(d["To"], d["Subject"]) for d in drafts]
    # `mail`, `archive` and `history` load the league through delivery/seasons.py: the same rows
    league, _ = seasons.load_placed(league.inputs, league.archive)
    rows = {(entry.club, entry.name): entry.workbook for entry in league.calendar if entry.date == dt.date(2026, 3, 14)}
    assert rows == {("TLSE", "3e étape"): "tour-de-france/2026/2026-03-14-tlse-3e-etape.xlsx",
                    ("ALBI", "Contre-la-montre d’Albi"): ""}, rows


def test_a_held_workbook_killed_while_kept_aside_is_kept_by_the_next_run(league, tmp_path):
    league.server.append(message(TLSE, "Tournoi de Nîmes", [("n.xlsx", workbook(tmp_path, "nimes", day="21/03/2026",
                                                                                club="NIME"))]))
    before = tree(league.inputs)
    held = league.archive / "inbox" / "held" / "2026-03-14-tlse-1-n.xlsx"
    # renames: the message's copy, the trial league's scratch folder, the held workbook kept aside:
    # killed at the third
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "filing")]  # the decision was stored first
    assert not held.exists()
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert held.is_file()
    assert tree(league.inputs) == before and [row[:2] for row in league.rows()] == [(1, "done")]
    assert "du club de Nîmes" in body(league.drafts()[0])


def held_then_sent_again(league, tmp_path) -> bytes:
    """Albi's spring tournament filed from Albi's message, Toulouse's version of it held from a second
    message of 14 March (`HELD`), then the same bytes as « t (1).xlsx » in a third one of 21 March, not
    yet read: their bytes."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    theirs = workbook(tmp_path / "t", **SPRING, results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=2))
    assert league.run().returncode == 0
    again = message(TLSE, "Tournoi d'Albi (renvoi)", [("t (1).xlsx", theirs)], number=3)
    again.replace_header("Date", "Sat, 21 Mar 2026 09:00:00 +0100")
    league.server.append(again)
    return theirs


# what the answer to the bytes held on the 14th, sent again, says of them
STILL = ("c’est le même classeur que celui déjà reçu le 14\u00a0mars\u00a02026 pour le tournoi «\u00a0Tournoi "
         "printemps\u00a0» du 14\u00a0mars\u00a02026, un tournoi du club d’Albi\u202f; il est toujours gardé de côté, "
         "en attente de la décision du secrétariat de la ligue.")


def test_a_held_workbook_sent_again_unchanged_is_said_to_be_still_waiting_and_kept_once(league, tmp_path):
    """Toulouse sends again, byte for byte, Albi's tournament held on the 14th: it was held again as a
    new one, told again that the league would decide, a second copy kept in archive/inbox/held/ and
    listed twice for the secretary. Checked again, still Albi's: its answer says it is the workbook
    received on the 14th, still waiting for the league's decision; the first copy stays the only one,
    listed once, and the new row points at it, dated from the 14th."""
    theirs = held_then_sent_again(league, tmp_path)
    before = tree(league.inputs)
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert tree(league.inputs) == before
    draft = answer(league, "2026-03-21-tlse-3")
    for text, strong, box in ((body(draft), "", ""), (markup.unescape(html(draft)), "</strong>", "</span>")):
        assert f"t (1).xlsx{strong}\u00a0:{box} {STILL}" in text
        assert "décidera de la suite" not in text and "n’a donc pas été enregistré" not in text  # a first hold's
    kept = league.archive / "inbox" / "held"
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == {HELD: theirs}
    assert [(row[1], row[2], row[4]) for row in test_inbox.inbox_files(league)][1:] == [
        ("held", f"inbox/held/{HELD}", ""), ("held", f"inbox/held/{HELD}", "2026-03-14")]
    assert "t (1).xlsx déjà mis de côté pour vous, le même classeur que celui reçu le 14 mars 2026 : tournoi du club " \
           f"d’Albi, gardé dans {kept / HELD}" in done.stdout
    assert "MIS DE CÔTÉ" not in done.stdout  # nothing new for her to decide
    assert "1 message traité : aucun classeur enregistré, aucun classeur refusé, 1 classeur déjà mis de côté, toujours en " \
           "attente de votre décision ; réponses dans " in done.stdout
    # the secretary's list names it once, from the message that first brought it, after `inbox` as after `check`
    checked = league.check()
    assert checked.returncode == 0, checked.stderr
    for said in (done.stderr, checked.stderr):
        assert "1 classeur reçu par courriel mis de côté pour vous" in said and said.count(HELD) == 1, said
        assert f"t.xlsx de {TLSE} (message du 14 mars 2026) : « Tournoi printemps »" in said
    # she sets it aside (deletes it: her « no »); sent a third time, it is a new hold, never « still
    # waiting for her decision » (it said so, and put her deleted copy back without a word to her)
    (kept / HELD).unlink()
    league.server.append(message(TLSE, "Tournoi d'Albi (encore)", [("t.xlsx", theirs)], number=4))
    third = league.run()
    assert third.returncode == 0, third.stderr
    assert "t.xlsx MIS DE CÔTÉ pour vous" in third.stdout and "déjà mis de côté" not in third.stdout
    [again] = [p for p in kept.iterdir()]
    assert again.name != HELD and again.read_bytes() == theirs
    draft = answer(league, again.name.split("-t.xlsx")[0])
    assert "décidera de la suite" in body(draft) and STILL not in body(draft)
    assert league.check().stderr.count(again.name) == 1


def test_a_held_stage_sent_again_unchanged_is_checked_again_as_the_secretary_decided_meanwhile(league, tmp_path):
    """Not taken for the same workbook: held for Albi as the calendar said, Toulouse's stage sent again
    byte for byte once the secretary gave it to Nîmes is held for Nîmes, its answer a first hold's
    naming Nîmes (never « le même classeur »), still one copy, listed once naming Nîmes; sent again
    once she gave it to Toulouse, it is filed and waits no more."""
    announce_stage(league.inputs, "ALBI")
    stage = tour_de_france(tmp_path, "Étape de Sète", "GIRARD")
    league.server.append(message(TLSE, "Étape", [("e.xlsx", stage)]))
    assert league.run().returncode == 0
    announce_stage(league.inputs, "NIME")
    league.server.append(message(TLSE, "Étape (renvoi)", [("e.xlsx", stage)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    text = body(answer(league, "2026-03-14-tlse-2"))
    assert "«\u00a0Étape de Sète\u00a0» du 14\u00a0mars\u00a02026 est un tournoi du club de Nîmes\u202f; votre " \
           "classeur n’a donc pas été enregistré. Il est gardé de côté\u00a0: c’est le secrétariat de la ligue qui " \
           "décidera de la suite." in text
    assert "même classeur" not in text and "Albi" not in text
    assert [p.name for p in (league.archive / "inbox" / "held").iterdir()] == ["2026-03-14-tlse-1-e.xlsx"]
    assert "e.xlsx MIS DE CÔTÉ pour vous : tournoi du club de Nîmes" in done.stdout
    for said in (done.stderr, league.check().stderr):
        assert "1 classeur reçu par courriel mis de côté" in said and said.count("2026-03-14-tlse-1-e.xlsx") == 1
        assert "est un tournoi du club de Nîmes ; gardé dans" in said and "d’Albi" not in said, said
    announce_stage(league.inputs, "TLSE")
    league.server.append(message(TLSE, "Étape (encore)", [("e.xlsx", stage)], number=3))
    done = league.run()
    assert done.returncode == 0 and "1 classeur enregistré" in done.stdout, done.stdout
    assert "est enregistré" in body(answer(league, "2026-03-14-tlse-3"))
    assert "mis de côté" not in league.check().stderr


def test_the_answer_to_a_held_workbook_sent_again_says_the_same_when_a_later_send_sends_it(league, tmp_path, smtp):
    """Drafted, then sent by a later `--send`, composed again from the decision kept: the same words.
    Toulouse gets that answer alone: the newer message superseded the draft of the first hold."""
    held_then_sent_again(league, tmp_path)
    assert league.run().returncode == 0
    drafted = answer(league, "2026-03-21-tlse-3")
    league.with_smtp(smtp.port)
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    [sent] = [sent.message for sent in smtp.received if sent.rcpt_tos == [TLSE]]
    assert sent["In-Reply-To"] == "<tournoi-d-albi-renvoi-3@club.example.org>"
    for part in ("plain", "html"):
        text = markup.unescape(sent.get_body((part,)).get_content()).replace("\r\n", "\n")  # as SMTP carried it
        assert STILL in text and text == markup.unescape(drafted.get_body((part,)).get_content())


V4_INBOX_FILE = """CREATE TABLE inbox_file (
    message  INTEGER NOT NULL REFERENCES inbox_message(id),
    position INTEGER NOT NULL,
    filename TEXT NOT NULL,
    sha256   TEXT NOT NULL CHECK (length(sha256) = 64),
    status   TEXT NOT NULL CHECK (status IN ('accepted', 'refused')),
    circuit  TEXT NOT NULL DEFAULT '',
    event    TEXT NOT NULL DEFAULT '',
    date     TEXT NOT NULL DEFAULT '',
    path     TEXT NOT NULL,
    replaced TEXT NOT NULL DEFAULT '[]',
    problems TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (message, position)
)"""  # as schema 4 had it


def test_a_schema_4_database_is_upgraded_and_its_filings_still_say_whose_tournament_it_is(league, tmp_path):
    league.server.append(message(ALBI, "Étape", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète"))]))
    assert league.run().returncode == 0
    # The same database as schema 4 wrote it: its rows in v4's inbox_file.
    old = sqlite3.connect(league.archive / database.DATABASE)
    old.executescript(f"PRAGMA foreign_keys = OFF; BEGIN; ALTER TABLE inbox_file RENAME TO kept; {V4_INBOX_FILE}; "
                      "INSERT INTO inbox_file SELECT message, position, filename, sha256, status, circuit, event, "
                      "date, path, replaced, problems FROM kept; DROP TABLE kept; COMMIT; PRAGMA user_version = 4;")
    rows = old.execute("SELECT * FROM inbox_file").fetchall()
    old.close()
    connection = database.connect(league.archive)
    try:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 10
        assert [tuple(row)[:11] for row in connection.execute("SELECT * FROM inbox_file")] == rows
        assert [row["owners"] for row in connection.execute("SELECT owners FROM inbox_file")] == ["[]"]
        # and through v6 (a `same` workbook's day, new in v7): none
        assert [row["known_since"] for row in connection.execute("SELECT known_since FROM inbox_file")] == [""]
    finally:
        connection.close()
    # Albi's filing, recorded under schema 4, still makes the tournament Albi's.
    league.server.append(message(TLSE, "Étape", [("e.xlsx", tour_de_france(tmp_path, "Étape de Sète", "GIRARD"))],
                                 number=2))
    done = league.run()
    assert done.returncode == 0 and "1 classeur mis de côté pour vous" in done.stdout, done.stderr
    assert "est un tournoi du club d’Albi" in body(answer(league, "2026-03-14-tlse-2"))


def test_the_answer_a_club_receives_for_a_held_workbook_says_so_in_both_parts(league, tmp_path, smtp):
    league.with_smtp(smtp.port)
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    # another version: Albi's own bytes are the same workbook, nothing to hold (test_inbox.py)
    theirs = workbook(tmp_path / "t", **SPRING, results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=2))
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    received = {sent.rcpt_tos[0]: sent.message for sent in smtp.received}
    assert set(received) == {ALBI, TLSE}
    for part in ("plain", "html"):
        text = markup.unescape(received[TLSE].get_body((part,)).get_content())
        assert "est un tournoi du club d’Albi\u202f; votre classeur n’a donc pas été enregistré" in text
        assert "c’est le secrétariat de la ligue qui décidera de la suite" in text
        albi = markup.unescape(received[ALBI].get_body((part,)).get_content())
        assert "le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026 est enregistré" in albi


# Toulouse's version of Albi's tournament, DURAND without a first name nor a licence: a warning.
UNNAMED_THEIRS = [[1, "DURAND", "", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"]]
# the warning as Toulouse reads it, one line of the text answer
TO_COMPLETE = ("  - feuille «\u00a0Résultats\u00a0», cellule C2 (colonne «\u00a0Prénom\u00a0»)\u00a0: le prénom de DURAND "
               "est vide\u00a0: deux joueurs DURAND sans prénom ni licence seraient comptés comme un seul\u202f; tapez son "
               "prénom dans cette case, ou sa licence.")


def test_a_held_workbook_keeps_its_warnings_says_them_to_its_club_and_counts_them_for_the_secretary(league, tmp_path):
    """DURAND's empty Prénom refuses nothing. Held (Albi's tournament, sent by Toulouse), it was kept
    without it: Toulouse's answer said nothing of it, nor did the secretary's lines, and an answer
    composed again could not name it. Kept with the decision as a filed one's are (its level
    `warning`), it is listed in Toulouse's answer after the hold, what Toulouse may still complete,
    and counted in the secretary's lines; sent again unchanged, still waiting, it is said again with
    « c’est l’ancien qui nous est parvenu »; once she files it, `check` lists it as any workbook's."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    theirs = workbook(tmp_path / "t", **SPRING, results=UNNAMED_THEIRS)
    league.server.append(message(TLSE, "Tournoi d'Albi", [("t.xlsx", theirs)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert test_inbox.problems_kept(league)[1] == [("empty-first-name", "warning", "Résultats", "C2")]
    draft = answer(league, "2026-03-14-tlse-2")
    assert ("c’est le secrétariat de la ligue qui décidera de la suite. Pour lui apporter une précision, répondez à "
            f"ce message.\n\n{test_inbox.COMPLETE}\n{TO_COMPLETE}\n\nUne fois complété, vous pouvez le renvoyer en "
            "réponse à ce message\u00a0: il sera gardé de côté de la même façon, pour la décision du secrétariat de la "
            "ligue.\n\nBien cordialement,") in body(draft)
    assert (f"répondez à ce message.</p>\n<p>{test_inbox.COMPLETE}</p>\n<ul>\n<li>feuille «\u00a0Résultats\u00a0», "
            "cellule C2 (colonne «\u00a0Prénom\u00a0»)\u00a0: le prénom de DURAND est vide") in html(draft)
    assert "il remplacera la version enregistrée" not in body(draft)  # a filed one's words: not filed
    assert f"t.xlsx MIS DE CÔTÉ pour vous : tournoi du club d’Albi, gardé dans {league.archive / 'inbox' / 'held' / HELD} " \
           "(1 avertissement) ;" in done.stdout
    for said in (done.stderr, league.check().stderr):
        assert f"gardé dans {league.archive / 'inbox' / 'held' / HELD} (1 avertissement, signalé au club) ; pour " \
               "l’enregistrer" in said, said
    # sent again unchanged: still waiting, and still to complete
    again = message(TLSE, "Tournoi d'Albi (renvoi)", [("t.xlsx", theirs)], number=3)
    again.replace_header("Date", "Sat, 21 Mar 2026 09:00:00 +0100")
    league.server.append(again)
    done = league.run()
    assert done.returncode == 0, done.stderr
    text = body(answer(league, "2026-03-21-tlse-3"))
    assert STILL in text and (f"{test_inbox.COMPLETE}\n{TO_COMPLETE}\n\nSi vous l’avez déjà complété, joignez bien le "
                              "fichier enregistré après modification\u00a0: c’est l’ancien qui nous est parvenu.") in text
    assert "t.xlsx déjà mis de côté pour vous, le même classeur que celui reçu le 14 mars 2026 : tournoi du club " \
           f"d’Albi, gardé dans {league.archive / 'inbox' / 'held' / HELD} (1 avertissement) ;" in done.stdout
    assert [row[1:3] + row[4:] for row in test_inbox.inbox_files(league)][2:] == \
        [("held", f"inbox/held/{HELD}", "2026-03-14")]
    # she files it: the warning is inputs/'s, listed by `check` as any workbook's
    shutil.copyfile(league.archive / "inbox" / "held" / HELD,
                    league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx")
    checked = league.check()
    assert checked.returncode == 0 and "mis de côté" not in checked.stderr, checked.stderr
    assert "1 avertissement" in checked.stderr and "le prénom de DURAND est vide" in checked.stderr


def test_a_held_row_kept_before_its_warnings_were_kept_is_still_the_same_hold():
    """A held row written before a held workbook's warnings were kept has none: the same bytes held
    again for the same club are still « the one received on the 14th », their warnings said now."""
    from reportgen.delivery.inbox_filing import Filed, Owner, Said, again

    albi = (Owner("ALBI", "Albi"),)
    before = Filed("t.xlsx", "a", "held", "grand-sud", "T", "2026-03-14", "inbox/held/m-t.xlsx", owners=albi,
                   known_since="2026-03-14")
    warning = Said("Résultats", "C2", "Prénom", "le prénom de DURAND est vide", "tapez son prénom", "empty-first-name",
                   "warning")
    now = Filed("t.xlsx", "a", "held", "grand-sud", "T", "2026-03-14", "inbox/held/n-t.xlsx", problems=(warning,),
                owners=albi)
    assert again(now, before) == Filed("t.xlsx", "a", "held", "grand-sud", "T", "2026-03-14", "inbox/held/m-t.xlsx",
                                       problems=(warning,), owners=albi, known_since="2026-03-14")


def test_kill_9_on_the_held_again_path_then_a_rerun_loses_nothing_and_answers_once(league, tmp_path, smtp):
    """The same bytes held again for the same club (the first copy shared, « still waiting »), a real
    `reportgen inbox --send` killed once their decision is committed, as it writes their answer;
    then, once the secretary deleted that copy (her « no »), the same bytes sent again (a new hold, a
    copy of its own) killed as that copy is kept aside. Each rerun finishes from the decision
    recorded: the copy kept, one answer sent, saying what the decision said; listed once."""
    theirs = held_then_sent_again(league, tmp_path)
    league.with_smtp(smtp.port)
    # renames: the message's copy, the check's scratch folder, the answer's draft (its copy is the
    # first one, already there): killed at the third
    killed = league.process("--send", strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[:2] for row in league.rows()] == [(1, "done"), (2, "done"), (3, "filed")] and smtp.received == []
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    [sent] = [sent.message for sent in smtp.received if sent.message["Subject"] == "Re: Tournoi d'Albi (renvoi)"]
    assert STILL in test_inbox.body(sent)
    # the first hold's draft is superseded by the newer answer for the same tournament: never sent
    assert [sent.rcpt_tos for sent in smtp.received] == [[TLSE], [ALBI]]
    kept = league.archive / "inbox" / "held"
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == {HELD: theirs} and done.stderr.count(HELD) == 1
    # she deletes it; sent again, a new hold, killed as its own copy is kept aside
    (kept / HELD).unlink()
    league.server.append(message(TLSE, "Tournoi d'Albi (encore)", [("t.xlsx", theirs)], number=4))
    # renames: the message's copy, the check's scratch folder, the new copy: killed at the third
    killed = league.process("--send", strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert league.rows()[3][:2] == (4, "filing")
    assert [p.name for p in kept.iterdir() if not p.name.startswith(".")] == []  # a temporary file, removed next
    done = league.run("--send")
    assert done.returncode == 0, done.stderr
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == {"2026-03-14-tlse-4-t.xlsx": theirs}
    [sent] = [sent.message for sent in smtp.received if sent.message["Subject"] == "Re: Tournoi d'Albi (encore)"]
    assert "décidera de la suite" in test_inbox.body(sent) and STILL not in test_inbox.body(sent)
    assert len(smtp.received) == 3 and league.server.uids() == []
    assert done.stderr.count("2026-03-14-tlse-4-t.xlsx") == 1 and HELD not in done.stderr
    # and again: nothing more
    assert league.run("--send").returncode == 0 and len(smtp.received) == 3
    assert len(test_inbox.inbox_files(league)) == 4


def test_a_held_workbook_says_what_filing_it_would_change_as_a_filed_one_does(league, tmp_path):
    """Albi sends Toulouse's spring tournament: held for the secretary. Filed, it would replace
    Toulouse's January tournament of the same series (§1), which a filed workbook's answer and line
    say (`Filed.notes`); the held one said nothing of it, to Albi or to the secretary, whose decision
    it is. Each says it now, as what filing it would change."""
    theirs = workbook(tmp_path, "printemps", day="14/03/2026", club="TLSE")
    league.server.append(message(ALBI, "Tournoi de Toulouse", [("t.xlsx", theirs)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    replaces = TOULOUSE_REPLACED
    held = league.archive / "inbox" / "held" / "2026-03-14-albi-1-t.xlsx"
    assert (f"t.xlsx MIS DE CÔTÉ pour vous : tournoi du club de Toulouse, gardé dans {held} ; s’il est enregistré, "
            f"{replaces} ; réponse : ") in done.stdout, done.stdout
    said = " ".join(body(answer(league, "2026-03-14-albi-1")).split())
    assert ("c’est le secrétariat de la ligue qui décidera de la suite. Pour lui apporter une précision, répondez à ce "
            "message. S’il est enregistré, il remplace le tournoi « Tournoi 2026-01-10-toulouse » du 10 janvier 2026, "
            "deuxième tournoi de la série TLSE en 2026") in said, said
    checked = league.check()
    assert f"gardé dans {held} ; s’il est enregistré, {replaces} ; pour l’enregistrer, mettez-le dans inputs/" \
        in " ".join(checked.stderr.split()), checked.stderr


def test_a_stage_the_secretary_placed_with_no_club_known_is_held_not_replaced_by_any_club(league, tmp_path):
    """A circuit whose sheets name no club, its stage put in inputs/ by the secretary herself, and no
    row of calendrier.xlsx giving it to a club: no club is known to be its own. Any club's workbook of
    the same name and day replaced it, told « enregistré » (no club claimed it, so `owners` found none
    other than the sender). A club replaces only a version known to be its own, as the Grand Sud's
    `Club` field makes one (her file of Toulouse's tournament is Toulouse's to replace): held, her
    file stays, she decides."""
    placed = league.inputs / "tour-de-france" / "2026" / "etape-de-sete.xlsx"
    placed.parent.mkdir(parents=True, exist_ok=True)
    placed.write_bytes(tour_de_france(tmp_path, "Étape de Sète"))
    before = tree(league.inputs)
    theirs = tour_de_france(tmp_path / "t", "Étape de Sète", "GIRARD")
    league.server.append(message(TLSE, "Étape", [("e.xlsx", theirs)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur mis de côté pour vous" in done.stdout and tree(league.inputs) == before, done.stdout
    held = league.archive / "inbox" / "held" / "2026-03-14-tlse-1-e.xlsx"
    assert held.read_bytes() == theirs and not (league.archive / "inbox" / "replaced").exists()
    # no base: every cell she has is hers, the club's version changes one (its winner's name)
    lost = "la version du club ne reprend pas 1 case de la vôtre : Résultats!B2 (vous : « PARIS », le club : « GIRARD »)"
    assert (f"e.xlsx MIS DE CÔTÉ pour vous : {placed}, que vous avez mis vous-même dans inputs/, reste en place (la "
            f"version du club ne le remplace pas sans vous) ; {lost} ; gardé dans {held}") in done.stdout
    assert (f"e.xlsx de {TLSE} (message du 14 mars 2026) : « Étape de Sète » du 14 mars 2026 : {placed}, que vous avez "
            f"mis vous-même dans inputs/, reste en place (la version du club ne le remplace pas sans vous) ; {lost} ; "
            f"gardé dans {held} ; pour l’enregistrer, mettez-le dans inputs/ à la place de {placed} ; pour l’écarter, "
            "supprimez-le") in done.stderr
    text = body(answer(league, "2026-03-14-tlse-1"))
    assert ("e.xlsx\u00a0: le tournoi «\u00a0Étape de Sète\u00a0» du 14\u00a0mars\u00a02026 est déjà enregistré dans "
            "une version mise en place par le secrétariat de la ligue, dont votre classeur ne garde pas toutes les "
            "valeurs\u202f; il ne la remplace donc pas d’office. Il est gardé de côté\u00a0: c’est le secrétariat de la ligue qui décidera de la suite.") in text
    assert "est enregistré (" not in text
    # `check` lists it too; once she puts it in place of hers, it waits no more
    assert f"gardé dans {held} ; pour l’enregistrer" in league.check().stderr
    shutil.copyfile(held, placed)
    assert "mis de côté" not in league.check().stderr


def test_a_club_s_new_version_of_a_workbook_the_secretary_edited_since_it_was_filed_is_held_for_her(league, tmp_path):
    """The secretary edits a workbook the inbox filed (by hand, or with `reportgen poules`, `masters`
    or `players`), then its club sends a new version: it replaced hers, kept in the archive, the run's
    line saying only « remplace …, gardé dans l’archive » (her edit gone from inputs/ without her
    knowing). Her bytes are no longer those the database recorded for that file (`inbox_file.sha256`):
    the club's version is held for her, hers stays, and every place she reads says so."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path, **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    # her edit: Anne DURAND's licence, typed in Albi's workbook after it was filed
    hers = workbook(tmp_path / "hers", **SPRING, results=[[1, "DUPONT", "Jean", "1001", "Carcassonne"],
                                                         [2, "MARTIN", "Paul", "1002", "Albi"],
                                                         [3, "DURAND", "Anne", "1003", "Toulouse"]])
    filed.write_bytes(hers)
    before = tree(league.inputs)
    # the club's version, not built on hers: her licence is not in it
    theirs = workbook(tmp_path / "a2", **SPRING, results=[[1, "DUPONT", "Jean", "", "Carcassonne"],
                                                         [2, "MARTIN", "Paul", "", "Albi"], [3, "DURAND", "Anne", "", ""]])
    league.server.append(message(ALBI, "Correction", [("a.xlsx", theirs)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert tree(league.inputs) == before and filed.read_bytes() == hers  # her edit stays
    held = league.archive / "inbox" / "held" / "2026-03-14-albi-2-a.xlsx"
    assert held.read_bytes() == theirs and not (league.archive / "inbox" / "replaced").exists()
    assert "1 message traité : aucun classeur enregistré, aucun classeur refusé, 1 classeur mis de côté pour vous" \
        in done.stdout
    # the cell she typed, named (the licences it empties that she did not type are the club's to change)
    lost = "la version du club ne reprend pas 1 case de la vôtre : Résultats!D4 (vous : « 1003 », le club : vide)"
    assert (f"a.xlsx MIS DE CÔTÉ pour vous : votre modification de {filed} (faite après son dépôt) reste en place (la "
            f"version du club ne la remplace pas sans vous) ; {lost} ; gardé dans {held} ;") in done.stdout
    assert (f"a.xlsx de {ALBI} (message du 14 mars 2026) : « Tournoi printemps » du 14 mars 2026 : votre modification "
            f"de {filed} (faite après son dépôt) reste en place (la version du club ne la remplace pas sans vous) ; "
            f"{lost} ; gardé dans {held} ; pour l’enregistrer, mettez-le dans inputs/ à la place de {filed} (votre modification "
            "n’y est pas : reportez-la s’il le faut) ; pour l’écarter, supprimez-le") in done.stderr
    text = body(answer(league, "2026-03-14-albi-2"))
    assert ("a.xlsx\u00a0: le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026 est déjà enregistré dans "
            "une version modifiée par le secrétariat de la ligue depuis son dépôt, dont votre classeur ne garde pas "
            "toutes les valeurs\u202f; il ne la remplace donc pas d’office. Il est gardé de côté\u00a0: c’est le secrétariat de la ligue qui décidera de la suite.") \
        in text
    assert "d’office. Il est gardé de côté" in markup.unescape(html(answer(league, "2026-03-14-albi-2")))
    # Sent again as it is: still waiting for her, one copy, the answer saying why.
    league.server.append(message(ALBI, "Correction (renvoi)", [("a.xlsx", theirs)], number=3))
    done = league.run()
    assert "1 classeur déjà mis de côté, toujours en attente de votre décision" in done.stdout, done.stdout
    assert filed.read_bytes() == hers and sorted(p.name for p in held.parent.iterdir()) == [held.name]
    assert ("pour le tournoi «\u00a0Tournoi printemps\u00a0» du 14\u00a0mars\u00a02026, dont la version enregistrée a été "
            "modifiée par le secrétariat de la ligue depuis son dépôt\u202f; il est toujours gardé de côté") \
        in body(answer(league, "2026-03-14-albi-3"))
    # She files the club's version in place of hers: it is the club's again, its next version filed.
    shutil.copyfile(held, filed)
    assert "mis de côté" not in league.check().stderr
    third = workbook(tmp_path / "a3", **SPRING)
    league.server.append(message(ALBI, "Correction 2", [("a.xlsx", third)], number=4))
    done = league.run()
    assert "1 classeur enregistré" in done.stdout and "(remplace " in done.stdout, done.stdout
    assert filed.read_bytes() == third
