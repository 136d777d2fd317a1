"""`reportgen inbox` and the secretary's edits of a workbook in inputs/: against the real Dovecot of
tests/test_inbox.py, a club's new version that keeps every cell she typed (her `poules next` round,
her `masters prepare` workbook, her correction) is filed as before, hers kept in the archive; one
that loses or changes a cell she typed is held, her line naming the cell (inbox_cells.py: a
three-way comparison of values, base the version the inbox filed, or none for her own file)."""

from __future__ import annotations

import datetime as dt
import shutil

import openpyxl
import pytest

from tests import test_inbox
from tests.builders import write_clubs, write_tournament
from tests.masters.test_workbook import NAMES
from tests.poules.test_builders import Tour
from tests.poules.test_cli import type_all
from tests.test_cli import run
from tests.test_inbox import ALBI, SPRING, TLSE, body, message, workbook
from tests.test_inbox_owners import answer, tree
from tests.test_remind import saved_by_libreoffice

server, league = test_inbox.server, test_inbox.league  # the real Dovecot and a league reading it

POULES = "Open de printemps en ligne"


def replaced(league, message_name: str, path) -> bytes:
    """The earlier version a filed workbook replaced, as the archive keeps it."""
    return (league.archive / "inbox" / "replaced" / message_name / path.relative_to(league.inputs)).read_bytes()


def test_the_club_s_results_typed_in_the_round_her_poules_next_wrote_are_filed(league, tmp_path):
    """The pool tournament's flow (docs/poules.md): its club sends the registrants' workbook, filed;
    she runs `reportgen poules next`, which writes round 1 into it in inputs/; the club types the
    results in that workbook and sends it back. Her bytes were no longer those the inbox filed, so
    the club's version was held at every round; it keeps her round, cell for cell: filed."""
    registrants = Tour(6, name=POULES, day=dt.date(2026, 3, 1)).write(tmp_path / "club").read_bytes()
    league.server.append(message(ALBI, "Inscrits", [("poules.xlsx", registrants)]))
    assert "1 classeur enregistré" in league.run().stdout
    [filed] = (league.inputs / "poules").rglob("*.xlsx")
    started = run("poules", "next", "--event", POULES, "--date", "01/03/2026", "--inputs", str(league.inputs))
    assert started.returncode == 0, started.stderr
    hers = filed.read_bytes()
    assert hers != registrants  # her round 1 is in it now
    # the club types every result in the workbook it got (the one she wrote), and sends it back
    shutil.copyfile(filed, tmp_path / "results.xlsx")
    type_all(tmp_path / "results.xlsx")
    theirs = (tmp_path / "results.xlsx").read_bytes()
    league.server.append(message(ALBI, "Résultats du tour 1", [("poules.xlsx", theirs)], number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur enregistré" in done.stdout and "MIS DE CÔTÉ" not in done.stdout, done.stdout
    assert filed.read_bytes() == theirs
    assert replaced(league, "2026-03-14-albi-2", filed) == hers  # hers kept as the version it replaced
    # the next round written on the club's results: her command reads them
    final = run("poules", "next", "--event", POULES, "--date", "15/03/2026", "--inputs", str(league.inputs))
    assert final.returncode == 0 and final.stdout.startswith("tour 2"), final.stderr
    # and the results of that round, typed by the club again in her workbook: filed again
    shutil.copyfile(filed, tmp_path / "results.xlsx")
    type_all(tmp_path / "results.xlsx")
    league.server.append(message(ALBI, "Résultats du tour 2", [("poules.xlsx", (tmp_path / "results.xlsx").read_bytes())],
                                 number=3))
    assert "1 classeur enregistré" in league.run().stdout
    parties = list(openpyxl.load_workbook(filed)["Parties"].iter_rows(min_row=2, values_only=True))
    assert len(parties) == 24 and all(row[4] for row in parties)  # both rounds' results in inputs/


def test_the_host_s_scores_in_the_masters_workbook_she_prepared_are_filed_without_a_calendar(league, tmp_path):
    """`reportgen masters prepare` writes inputs/masters/masters-2025.xlsx: her file, whose sheets
    name no club, and no calendar row names its host. The host fills the scores in (with
    LibreOffice: its own save of every value, numbers and dates included) and sends it back: it keeps
    every cell of hers, so it is filed as before, not held for want of a calendar."""
    shutil.rmtree(league.inputs)
    write_clubs(league.inputs)
    # the season before the inbox's day (14 March 2026): a Masters played, its scores typed
    write_tournament(league.inputs, "gs", day="10/10/2025",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    league.settings(league.server.port)
    prepared = run("masters", "prepare", "--season", "2025", "--date", "12/12/2025", "--lieu", "Albi",
                   "--inputs", str(league.inputs))
    assert prepared.returncode == 0, prepared.stderr
    hers = league.inputs / "masters" / "masters-2025.xlsx"
    mine = hers.read_bytes()
    book = openpyxl.load_workbook(hers)
    book["Matchs"]["E2"], book["Matchs"]["F2"] = 7, 5
    book.save(tmp_path / "scores.xlsx")
    theirs = saved_by_libreoffice((tmp_path / "scores.xlsx").read_bytes(), tmp_path / "libreoffice")
    league.server.append(message(ALBI, "Masters", [("masters-2025.xlsx", theirs)]))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur enregistré" in done.stdout and "MIS DE CÔTÉ" not in done.stdout, done.stdout
    [filed] = (league.inputs / "masters").rglob("*-albi-*.xlsx")
    assert filed.read_bytes() == theirs and not hers.exists()
    kept = league.archive / "inbox" / "replaced" / "2026-03-14-albi-1" / "masters" / "masters-2025.xlsx"
    assert kept.read_bytes() == mine


def test_her_correction_the_club_s_next_version_undoes_is_held_one_it_keeps_is_filed(league, tmp_path):
    """She corrects a cell of a workbook the inbox filed (a first name). The club's next version,
    built on its own copy, has the old value back: held, her line naming the cell and both values,
    the club told its workbook does not keep all of hers. Its version after, her correction in it
    and a licence typed in another cell: filed (nothing of hers lost), hers kept in the archive."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path / "1", **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    book = openpyxl.load_workbook(filed)
    book["Résultats"]["C2"] = "Jean-Pierre"  # her correction, by hand in Excel's place
    book.save(filed)
    hers = filed.read_bytes()
    before = tree(league.inputs)
    # the club's version: Anne DURAND's licence typed, in its own copy (C2 back to « Jean »)
    typed = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
             [3, "DURAND", "Anne", "1003", "Toulouse"]]
    league.server.append(message(ALBI, "Licence", [("a.xlsx", workbook(tmp_path / "2", **SPRING, results=typed))],
                                 number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert tree(league.inputs) == before and filed.read_bytes() == hers
    held = league.archive / "inbox" / "held" / "2026-03-14-albi-2-a.xlsx"
    assert (f"a.xlsx MIS DE CÔTÉ pour vous : votre modification de {filed} (faite après son dépôt) reste en place (la "
            "version du club ne la remplace pas sans vous) ; la version du club ne reprend pas 1 case de la vôtre : "
            f"Résultats!C2 (vous : « Jean-Pierre », le club : « Jean ») ; gardé dans {held} ;") in done.stdout
    assert "Résultats!C2 (vous : « Jean-Pierre », le club : « Jean »)" in done.stderr  # her held list
    assert "dont votre classeur ne garde pas toutes les valeurs" in body(answer(league, "2026-03-14-albi-2"))
    # The club's next version keeps her correction, and types its licence: filed.
    typed[0][2] = "Jean-Pierre"
    theirs = workbook(tmp_path / "3", **SPRING, results=typed)
    league.server.append(message(ALBI, "Licence, corrigé", [("a.xlsx", theirs)], number=3))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "1 classeur enregistré" in done.stdout and "MIS DE CÔTÉ" not in done.stdout, done.stdout
    assert filed.read_bytes() == theirs and replaced(league, "2026-03-14-albi-3", filed) == hers


def test_her_edit_compared_with_no_copy_of_the_version_filed_holds_the_club_s_version(league, tmp_path):
    """The message that filed the version she edited is gone from archive/inbox/messages/ (a restore
    without it): her edit cannot be told from the club's changes, so the club's version, which keeps
    every cell of hers, is held all the same, as before the comparison."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path / "1", **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    book = openpyxl.load_workbook(filed)
    book["Résultats"]["C2"] = "Jean-Pierre"
    book.save(filed)
    [copy] = (league.archive / "inbox" / "messages").glob("*.eml")
    copy.write_bytes(b"")  # damaged: no attachment of the bytes filed
    typed = [[1, "DUPONT", "Jean-Pierre", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
             [3, "DURAND", "Anne", "1003", "Toulouse"]]
    league.server.append(message(ALBI, "Licence", [("a.xlsx", workbook(tmp_path / "2", **SPRING, results=typed))],
                                 number=2))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "a.xlsx MIS DE CÔTÉ pour vous : votre modification de" in done.stdout, done.stdout
    assert "ne reprend pas" not in done.stdout  # no cell to name: none could be compared


def test_one_value_saved_by_openpyxl_and_by_libreoffice_is_no_edit_a_changed_one_is_named(tmp_path):
    """The comparison reads values as the build does: a number typed as 1002 or saved as 1002.0, a
    date or the same day at midnight, a text with a trailing space, and LibreOffice's own save of them
    (French settings) are one value each; a changed result is named with both values."""
    from reportgen.delivery.inbox_cells import NO_CELLS, Lost, cells_of, lost, read_cells
    from tests.builders import write_workbook

    hers = write_workbook(tmp_path / "hers.xlsx", {"Parties": [["Date", "Licence", "Résultat"],
                                                                [dt.date(2026, 3, 14), 1002, "1-0 "]]})
    book = openpyxl.load_workbook(hers)
    book["Parties"]["A2"] = dt.datetime(2026, 3, 14)
    book["Parties"]["B2"] = 1002.0
    book["Parties"]["C2"] = "1-0"
    book["Parties"].column_dimensions["A"].width = 25  # a format: no edit
    book.save(tmp_path / "club.xlsx")
    club = cells_of(saved_by_libreoffice((tmp_path / "club.xlsx").read_bytes(), tmp_path / "libreoffice"), "c.xlsx")
    mine = read_cells(hers)
    assert mine is not None and club is not None
    assert lost(NO_CELLS, mine, club) == []
    book["Parties"]["C2"] = None  # the club empties her result
    book.save(tmp_path / "club.xlsx")
    emptied = read_cells(tmp_path / "club.xlsx")
    assert emptied is not None
    assert lost(NO_CELLS, mine, emptied) == [Lost("Parties!C2", "1-0", "")]
    assert lost(mine, mine, emptied) == []  # no edit of hers there: the club's to change


def test_a_workbook_larger_than_a_result_workbook_is_compared_as_a_reading_worker_reads_it(tmp_path):
    """The comparison read every workbook (the version filed, hers, the club's) in the inbox's own
    process, without the memory and time limits of the build's reading workers (review: a 9.5 MB
    workbook of 2 M cells took 11 s and 600 MB, three of them 1.3 GB, and an out-of-memory kill would
    stop every run at that message). It reads as the build does: a workbook its pre-check does not
    bound within a result workbook's size goes to a reading worker. The club's version it takes from
    the sheets its check read (`Verdict.sheets`), not read a third time."""
    from reportgen.delivery.inbox_cells import cells, read_cells
    from reportgen.delivery.inbox_filing import examine
    from reportgen.ingest import file_reader, precheck, reading_pool
    from tests.builders import CLUBS, TODAY, small_league, write_workbook

    large = write_workbook(tmp_path / "large.xlsx", {"Notes": [[row, row + 0.5, f"n{row}"] for row in range(20_000)]})
    with pytest.raises(precheck.Larger):  # a reading worker's to read, as the build reads it
        file_reader.answer(str(large), here=True)
    reading_pool.stop_workers()
    read = read_cells(large)
    assert read is not None and len(read) == 60_000 and read[("Notes", 1, 1)] == "1.5"
    assert len(reading_pool._workers) >= 1  # a worker started for it: this process never read it
    # the club's version: its cells from the sheets its check read, the same as a read of its bytes
    inputs = small_league(tmp_path / "inputs")
    club = write_tournament(tmp_path / "club", **SPRING)
    verdict = examine(inputs, "a.xlsx", club.read_bytes(), TODAY, CLUBS)
    assert verdict.sheets is not None and cells(verdict.sheets) == read_cells(club)


def test_her_write_between_the_look_at_her_file_and_the_decision_is_found_at_filing(league, tmp_path):
    """The inbox looked at her file's bytes to know whether she had edited it (`Inbox._edited`), then
    hashed it again, later, for the bytes the decision found (`Replaced.found`): her write between the
    two (her `poules next` as the inbox checks the club's version) was those bytes, so filing saw no
    change since the decision and put the club's version over her edit. The decision records the bytes
    it judged: her write is found at filing, and the club's version, which loses it, held. Played here
    step by step as `Inbox._decide` does, against its real database, her write in between."""
    from reportgen.delivery import database
    from reportgen.delivery.inbox_filing import Earlier, carry_out, decide, examine
    from reportgen.delivery.inbox_run import Inbox
    from tests.builders import CLUBS

    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path / "1", **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    typed = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
             [3, "DURAND", "Anne", "1003", "Toulouse"]]
    theirs = workbook(tmp_path / "2", **SPRING, results=typed)  # the club's next version, C2 « Jean »
    connection = database.connect(league.archive)
    try:
        # no mailbox: the steps played here read none
        inbox = Inbox(None, connection, league.inputs, league.outputs, league.archive, CLUBS,  # type: ignore[arg-type]
                      "Ligue", "ligue@example.org", today=dt.date(2026, 3, 14))
        verdict = examine(league.inputs, "a.xlsx", theirs, dt.date(2026, 3, 14), CLUBS, sender="ALBI")
        found = inbox._found(verdict.same)
        edited = inbox._edited(found)
        assert edited == frozenset()  # not edited yet: the club's own file, no candidate
        book = openpyxl.load_workbook(filed)  # her write, now
        book["Résultats"]["C2"] = "Jean-Pierre"
        book.save(filed)
        hers = filed.read_bytes()
        earlier = Earlier(found, edited, inbox._losing("a.xlsx", theirs, verdict.sheets, None))
        decided = decide(verdict, "a.xlsx", theirs, "ALBI", "2026-03-14-albi-2", league.inputs, earlier,
                         inbox._filed_by(verdict.same))
        assert decided.status == "accepted" and [r.found for r in decided.replaced] == list(found.values())
        done = carry_out(decided, theirs, league.inputs, league.archive, "2026-03-14-albi-2",
                         inbox._losing("a.xlsx", theirs, None, None))
    finally:
        connection.close()
    assert done.status == "held" and filed.read_bytes() == hers  # her write stays
    [version] = done.hers
    assert [(c.cell, c.hers, c.club) for c in version.lost] == [("Résultats!C2", "Jean-Pierre", "Jean")]


def test_an_earlier_version_she_put_back_is_her_edit_which_the_club_s_next_version_does_not_replace(league, tmp_path):
    """The club's second version replaced its first; she put the first back in inputs/ (from
    archive/inbox/replaced/: the second was wrong). Any bytes a club had sent were taken for no edit of
    hers, so the club's third version, built on its second, was filed over her choice without a word.
    Only a workbook held or refused for her is a club's version she filed: hers is held for her."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path / "1", **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    first = filed.read_bytes()
    # the club's second version: its first two places swapped
    typed = [[1, "MARTIN", "Paul", "1002", "Albi"], [2, "DUPONT", "Jean", "1001", "Carcassonne"],
             [3, "DURAND", "Anne", "", "Toulouse"]]
    league.server.append(message(ALBI, "Correction", [("a.xlsx", workbook(tmp_path / "2", **SPRING, results=typed))],
                                 number=2))
    assert "1 classeur enregistré" in league.run().stdout
    filed.write_bytes(replaced(league, "2026-03-14-albi-2", filed))  # she puts the first back
    assert filed.read_bytes() == first
    typed[2][3] = "1003"  # the club's third version: its second with a licence typed
    league.server.append(message(ALBI, "Licence", [("a.xlsx", workbook(tmp_path / "3", **SPRING, results=typed))],
                                 number=3))
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "a.xlsx MIS DE CÔTÉ pour vous : votre modification de" in done.stdout, done.stdout
    assert filed.read_bytes() == first


def test_kill_9_after_writing_the_club_s_version_under_its_new_name_then_her_edit_leaves_one_version(league, tmp_path):
    """A run killed after writing the club's version under its new name, before removing the earlier
    version it replaces (another name, put in inputs/ by hand): both in inputs/. She edits the earlier
    one before the rerun, which holds the club's version for her; the club's file stayed in inputs/
    beside hers, two versions of one tournament, the row saying held. Taken back out: hers alone."""
    old = league.inputs / "2026-01-10-toulouse.xlsx"
    corrected = workbook(tmp_path / "1", "x", day="10/01/2026", club="TLSE",
                         results=[[1, "DURAND", "Anne", "", "Toulouse"]])
    league.server.append(message(TLSE, "Correction", [("toulouse.xlsx", corrected)]))
    # killed as it removes the earlier version, the new one written
    killed = league.process(strace=("-P", str(old), "-e", "inject=unlink:signal=SIGKILL"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    new = league.inputs / "grand-sud" / "2026" / "2026-01-10-tlse-tournoi-x.xlsx"
    assert new.read_bytes() == corrected and old.exists()
    hers = workbook(tmp_path / "2", "2026-01-10-toulouse", day="10/01/2026", club="TLSE",
                    results=[[1, "DURAND", "Anne", "1003", "Toulouse"]])
    old.write_bytes(hers)  # her edit, before the rerun
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "toulouse.xlsx MIS DE CÔTÉ pour vous : votre modification de" in done.stdout, done.stdout
    assert old.read_bytes() == hers and not new.exists()  # one version of the tournament: hers
    assert (league.archive / "inbox" / "held" / "2026-03-14-tlse-1-toulouse.xlsx").read_bytes() == corrected
    assert [row[1] for row in test_inbox.inbox_files(league)] == ["held"]


def test_the_cells_lost_read_apart_from_her_line_s_clauses_and_a_long_value_is_cut():
    """Her line named the cells after « : » and joined them with « ; », the line's own separators
    (« … de la vôtre : Résultats!C2 : vous avez « Jean-Pierre », la version du club « » ; gardé dans
    … »), an empty cell as « « » », and a value of any length as it is, in her line and the database.
    Each cell now in parentheses, joined by « , », an empty one « vide », a value cut at 40 characters."""
    from reportgen.delivery.inbox_cells import lost
    from reportgen.delivery.inbox_filing import EDITED, Replaced
    from reportgen.delivery.inbox_run import cells_lost

    remark = "Partie arrêtée à la 3e ronde, reprise le lendemain après accord des deux joueurs"
    hers = {("Parties", 1, 4): "1-0", ("Parties", 2, 6): remark, ("Parties", 3, 4): "0-1", ("Parties", 4, 4): "½"}
    club = {("Parties", 1, 4): "0-1"}
    cells = lost({}, hers, club)
    assert cells[1].hers == "Partie arrêtée à la 3e ronde, reprise l…" and len(cells[1].hers) == 40
    version = Replaced("p.xlsx", "", hers=EDITED, lost=tuple(cells[:3]), losses=len(cells))
    assert cells_lost(version) == (
        " ; la version du club ne reprend pas 4 cases de la vôtre : Parties!E2 (vous : « 1-0 », le club : « 0-1 »), "
        "Parties!G3 (vous : « Partie arrêtée à la 3e ronde, reprise l… », le club : vide), Parties!E4 (vous : "
        "« 0-1 », le club : vide) et 1 autre case")


def test_kill_9_around_a_hold_decided_at_filing_then_reruns_hold_it_once_and_answer_once(league, tmp_path):
    """The club's version decided `accepted`, then her edit before it is filed (the run killed as it
    took the workbook's lock, the decision committed), the club's version losing it: the rerun holds
    it instead (inbox_filing.py `held_instead`, inbox_run.py `Inbox._redecide`). Killed again as it
    renames the held copy into place, the next run still holds it: one copy, one row rewritten, her
    file untouched, the club answered once, nothing left over; a further run changes nothing."""
    league.server.append(message(ALBI, "Résultats", [("a.xlsx", workbook(tmp_path / "1", **SPRING))]))
    assert "1 classeur enregistré" in league.run().stdout
    filed = league.inputs / "grand-sud" / "2026" / "2026-03-14-albi-tournoi-printemps.xlsx"
    typed = [[1, "DUPONT", "Jean", "1001", "Carcassonne"], [2, "MARTIN", "Paul", "1002", "Albi"],
             [3, "DURAND", "Anne", "1003", "Toulouse"]]
    theirs = workbook(tmp_path / "2", **SPRING, results=typed)
    league.server.append(message(ALBI, "Licence", [("a.xlsx", theirs)], number=2))
    lock = filed.parent / f".~reportgen.{filed.name}.lock"
    killed = league.process(strace=("-P", str(lock), "-e", "inject=openat:signal=SIGKILL"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert [row[1] for row in test_inbox.inbox_files(league)] == ["accepted", "accepted"]  # decided, not filed
    book = openpyxl.load_workbook(filed)
    book["Résultats"]["C2"] = "Jean-Pierre"  # her correction, which the club's version does not have
    book.save(filed)
    hers, before = filed.read_bytes(), tree(league.inputs)
    held = league.archive / "inbox" / "held" / "2026-03-14-albi-2-a.xlsx"
    # its third rename (after two scratch folders'): the held copy's, before the row is rewritten
    killed = league.process(strace=("-e", "inject=rename:signal=SIGKILL:when=3"))
    assert killed.returncode in (-9, 128 + 9), killed.stderr
    assert not held.exists() and [p.name.startswith(f".{held.name}.") for p in held.parent.iterdir()] == [True]
    assert [row[1] for row in test_inbox.inbox_files(league)] == ["accepted", "accepted"]
    done = league.run()
    assert done.returncode == 0, done.stderr
    assert "a.xlsx MIS DE CÔTÉ pour vous : votre modification de" in done.stdout, done.stdout
    assert "Résultats!C2 (vous : « Jean-Pierre », le club : « Jean »)" in done.stdout
    assert tree(league.inputs) == before and filed.read_bytes() == hers
    assert held.read_bytes() == theirs and sorted(p.name for p in held.parent.iterdir()) == [held.name]
    assert [row[1] for row in test_inbox.inbox_files(league)] == ["accepted", "held"]
    answers = [mail for mail in league.drafts() if "Licence" in str(mail["Subject"])]
    assert len(answers) == 1 and "dont votre classeur ne garde pas toutes les valeurs" in body(answers[0])
    again = league.run()
    assert again.returncode == 0 and "MIS DE CÔTÉ" not in again.stdout, again.stdout  # nothing decided again
    assert tree(league.inputs) == before and len(league.drafts()) == 2 and held.read_bytes() == theirs
    assert [row[1] for row in test_inbox.inbox_files(league)] == ["accepted", "held"]
