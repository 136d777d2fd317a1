"""Who plays the Masters when the final Grand Sud ranking is level across its 16th place
(« Règlement Tournoi Masters » §1, silent; INTERPRETATIONS.md, masters, « Qualification with a tie at
the 16th place »): the ranking's own tie-breaks, then countback, then a play-off recorded in
`Désistements`. Through the real `reportgen masters prepare`."""

import datetime as dt

import openpyxl

from reportgen.circuits.masters.results import qualify
from reportgen.circuits.masters.settings import MastersSettings
from reportgen.model import Ranking, RankingRow, Scope, SourceRef, Status
from reportgen.pipeline import load, score
from reportgen.render.html import render
from tests.builders import write_clubs, write_tournament
from tests.masters.test_workbook import NAMES, TODAY, add_withdrawal, masters_path
from tests.poules.test_notices import GENDERED
from tests.test_cli import run

P, Q = NAMES[15], NAMES[16]  # JOUEURP Un and JOUEURQ Un: 16th and 17th of the first tournament


def league(inputs, *later):
    """Tournaments on one day (same ranking in force: 0 seeds each, §1), so a place is worth the
    same points in each: the first with NAMES in order, then one per order of `later` (one to
    three). Two or three tournaments count one best result each (§3): equal best results are equal
    totals; four count two."""
    write_clubs(inputs)
    clubs = [("2026-10-10-nime", "NIME"), ("2026-10-10-albi", "ALBI"), ("2026-10-10-tlse", "TLSE")]
    assert len(later) <= len(clubs)
    orders = [("2026-10-10-carc", "CARC", NAMES)] + [(name, club, order) for (name, club), order in zip(clubs, later)]
    for name, club, order in orders:
        write_tournament(inputs, name, day="10/10/2026", club=club,
                         results=[[place, *player.split(" "), "", ""] for place, player in enumerate(order, start=1)])
    return inputs


def prepare(inputs):
    return run("masters", "prepare", "--season", "2026", "--date", "12/12/2026", "--lieu", "Albi",
               "--inputs", str(inputs))


def listed(result):
    """The participants `prepare` prints, in number order."""
    return [line.strip().split("  ")[1] for line in result.stdout.splitlines()[1:]]


def bulletin(inputs):
    """The Masters bulletin's HTML, as `make` would publish it."""
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    return render(report.documents[0])


def test_interpretation_a_tie_at_the_16th_place_is_settled_by_countback(tmp_path):
    # P: 16th (90 points) and 18th (75); Q: 17th (80) and 16th (90). Same total (90), same number
    # of tournaments, same best result: 16th ex aequo, P first by name. Q's second result is better.
    inputs = league(tmp_path / "inputs", [*NAMES[:15], Q, NAMES[19], P])
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[:15] + [Q]
    assert result.stdout.splitlines()[16].strip() == f"16  {Q}  (16e place du classement annuel)"
    assert (f"note : {P} et {Q}, 16e ex aequo du classement final Grand Sud 2026, se disputent la 16e place du "
            "Masters : le départage aux résultats suivants (2e meilleur résultat, puis 3e…, INTERPRETATIONS) "
            f"qualifie {Q} ({P} : 90, 75 ; {Q} : 90, 80)") in result.stderr
    # P did not withdraw: the bulletin does not say so; its method says how the tie was read.
    page = bulletin(inputs)
    assert "Désistement\u00a0:" not in page and P not in page
    assert "Une égalité à la 16e place que les départages du classement laissent se règle aux résultats suivants" in page


def test_interpretation_a_tie_at_the_16th_place_left_by_countback_asks_for_the_play_off_in_desistements(tmp_path):
    # P: 16th and 17th; Q: 17th and 16th: level on everything.
    inputs = league(tmp_path / "inputs", [*NAMES[:15], Q, P])
    refused = prepare(inputs)
    assert refused.returncode == 1
    assert (f"masters/masters-2026.xlsx, feuille « Désistements » : égalité pour la 16e place du Masters entre {P} et {Q}, "
            "16e ex aequo du classement final Grand Sud 2026 : mêmes points, même nombre de tournois et même "
            "meilleur résultat, puis mêmes résultats un à un ; reportgen ne choisit pas (INTERPRETATIONS) — faites "
            "jouer le barrage entre eux, puis inscrivez le perdant dans la feuille « Désistements » du classeur du "
            "Masters (Nom et Prénom, ou Licence) avec « barrage perdu » dans sa colonne « Motif » (à ajouter si la "
            "feuille ne l’a pas ; vide pour un joueur qui se désiste) et relancez « reportgen masters prepare » ; ce "
            "classeur n’existait pas : « masters prepare » vient de le créer") in refused.stderr
    # No workbook existed: prepare wrote one to type the play-off in, and no participants yet.
    book = openpyxl.load_workbook(masters_path(inputs))
    assert book.sheetnames == ["Tournoi", "Désistements", "Matchs"]
    assert [[c.value for c in row] for row in book["Désistements"].iter_rows()] == [["Nom", "Prénom", "Licence", "Motif"]]
    assert book["Matchs"].max_row == 1
    # The same problem, not another one, until the play-off is recorded: a second run says it again.
    again = prepare(inputs)
    assert again.returncode == 1 and "égalité pour la 16e place du Masters" in again.stderr
    assert "n’existait pas" not in again.stderr
    checked = run("check", "--inputs", str(inputs))  # the build says it too, at the same place
    assert checked.returncode == 1 and f"masters/masters-2026.xlsx, feuille « Désistements » : égalité pour la 16e place du " \
        f"Masters entre {P} et {Q}" in checked.stderr
    # P lost the play-off: the secretary records him in `Désistements`, « barrage perdu »; Q plays.
    add_withdrawal(inputs, "JOUEURP", "Un", "barrage perdu")
    settled = prepare(inputs)
    assert settled.returncode == 0, settled.stderr
    assert listed(settled) == NAMES[:15] + [Q]
    book = openpyxl.load_workbook(masters_path(inputs))
    assert book.sheetnames == ["Tournoi", "Désistements", "Participants", "Matchs"] and book["Matchs"].max_row == 121
    page = bulletin(inputs)
    # He did not withdraw: the bulletin says the play-off was lost, never « Désistement ».
    assert "<h3>Barrage de qualification</h3>" in page and "Désistement\u00a0:" not in page
    assert " place (§1)" not in page
    assert f"Barrage perdu\u00a0: {P} (16e place ex aequo du classement annuel)." in page


def test_section_1_a_play_off_loser_did_not_withdraw_a_withdrawal_after_it_brings_him_in_before_the_18th(tmp_path):
    """§1 « Les 16 premiers joueurs du classement annuel », the 17th, 18th… stepping in for those who
    withdraw; INTERPRETATIONS.md: a tie at the 16th place left by countback is a play-off, its loser
    recorded in `Désistements` with « barrage perdu ». He lost the 16th place, not his own: when a
    qualified player withdraws after the play-off, P and Q, 16th ex aequo, are both in the first 16
    available, and nobody is told of a tie (P was taken for a player who withdrew: the 18th played)."""
    inputs = league(tmp_path / "inputs", [*NAMES[:15], Q, P])
    assert prepare(inputs).returncode == 1  # the tie: the play-off asked for (the test above)
    add_withdrawal(inputs, "JOUEURP", "Un", "barrage perdu")
    assert listed(prepare(inputs)) == NAMES[:15] + [Q]
    add_withdrawal(inputs, "JOUEURA", "Un")  # the 1st withdraws
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[1:15] + [Q, P]
    assert result.stdout.splitlines()[16].strip() == f"16  {P}  (16e place du classement annuel)"
    assert "égalité" not in result.stderr and "note :" not in result.stderr
    # The bulletin says the withdrawal; the play-off P lost no longer left anybody out.
    page = bulletin(inputs)
    assert f"Désistement\u00a0: {NAMES[0]} (1re place du classement annuel)." in page
    assert "Barrage perdu" not in page and NAMES[17] not in page


def test_section_1_a_play_off_loser_who_withdraws_does_not_play_when_another_withdrawal_opens_a_place(tmp_path):
    """§1: « En cas de désistement(s), le 17ème, puis le 18ème (etc.) sont invités »: a player who
    withdrew is not invited back, whatever else `Désistements` says of him. P lost the play-off,
    then withdrew too (a second row, after or before the first): his withdrawal wins, and when the
    1st withdraws the next of the ranking, the 18th, plays (P came back in: his withdrawal was
    ignored, his first row being the play-off's)."""
    inputs = league(tmp_path / "inputs", [*NAMES[:15], Q, P])
    assert prepare(inputs).returncode == 1  # the tie at the 16th place: the play-off asked for
    add_withdrawal(inputs, "JOUEURP", "Un", "barrage perdu")
    assert listed(prepare(inputs)) == NAMES[:15] + [Q]
    add_withdrawal(inputs, "JOUEURA", "Un")  # the 1st withdraws
    add_withdrawal(inputs, "JOUEURP", "Un", "désistement")  # and so does P, who lost the play-off
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[1:15] + [Q, NAMES[17]]
    page = bulletin(inputs)
    assert (f"Désistements\u00a0: {NAMES[0]} (1re place du classement annuel), {P} (16e place du classement "
            f"annuel). Invitation à leur place (§1)\u00a0: {NAMES[17]} (18e).") in page
    assert "Barrage perdu" not in page
    # The same rows in the other order: the withdrawal typed first, the play-off after it.
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    sheet = book["Désistements"]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2)]
    sheet.delete_rows(2, len(rows))
    for row in reversed(rows):
        sheet.append(row)
    book.save(path)
    assert [row[3] for row in openpyxl.load_workbook(path)["Désistements"].iter_rows(min_row=2, values_only=True)] \
        == ["désistement", None, "barrage perdu"]
    again = prepare(inputs)
    assert again.returncode == 0, again.stderr
    assert listed(again) == NAMES[1:15] + [Q, NAMES[17]]


def three_level(tmp_path):
    """P, Q and R 16th ex aequo: each 16th, 17th and 18th of three tournaments, in turn (level on
    everything, countback too); the play-off for the 16th place played: Q won it, P and R recorded
    « barrage perdu »; then the 1st withdraws, opening a place for P or R."""
    r = NAMES[17]
    inputs = league(tmp_path / "inputs", [*NAMES[:15], Q, r, P], [*NAMES[:15], r, P, Q])
    refused = prepare(inputs)
    assert refused.returncode == 1
    assert f"égalité pour la 16e place du Masters entre {P}, {Q} et {r}, 16e ex aequo" in refused.stderr
    assert "inscrivez les 2 non qualifiés" in refused.stderr
    add_withdrawal(inputs, "JOUEURP", "Un", "barrage perdu")
    add_withdrawal(inputs, "JOUEURR", "Un", "barrage perdu")
    assert listed(prepare(inputs)) == NAMES[:15] + [Q]
    add_withdrawal(inputs, "JOUEURA", "Un")
    return inputs


def test_section_1_two_losers_of_a_play_off_among_three_are_ordered_by_its_result_recorded_as_a_second_row(tmp_path):
    """§1 is silent on a tie at the 16th place (INTERPRETATIONS.md, masters): the losers of one
    play-off among three have an order only if the play-off gave one, which reportgen cannot know.
    A place opening for one of them, `prepare` refuses, says they both lost it, and asks for one
    more « barrage perdu » row for the one it (or a new play-off between them) put behind; then
    the other plays. (Before: the same « égalité » asking to record a loser both already were.)"""
    inputs = three_level(tmp_path)
    r = NAMES[17]
    refused = prepare(inputs)
    assert refused.returncode == 1
    assert (f"masters/masters-2026.xlsx, feuille « Désistements » : égalité pour la 16e place du Masters entre {P} et {r}, "
            "16e ex aequo du classement final Grand Sud 2026 : mêmes points, même nombre de tournois et même "
            "meilleur résultat, puis mêmes résultats un à un, et chacun compte un barrage perdu dans « Désistements » ; "
            "reportgen ne choisit pas (INTERPRETATIONS) — si leur barrage les a classés entre eux, ajoutez dans "
            "« Désistements » une ligne « barrage perdu » au nom du moins bien classé ; sinon faites jouer un barrage "
            "entre eux, puis ajoutez-la au nom de son perdant (une ligne « barrage perdu » de plus place un joueur "
            "après ceux qui en ont moins), et relancez « reportgen masters prepare »") in refused.stderr
    # The play-off ranked P before R (or P beat R in a new one): R a second row, P plays.
    add_withdrawal(inputs, "JOUEURR", "Un", "barrage perdu")
    settled = prepare(inputs)
    assert settled.returncode == 0, settled.stderr
    assert listed(settled) == NAMES[1:15] + [Q, P]
    assert "égalité" not in settled.stderr
    page = bulletin(inputs)
    assert f"Barrage perdu\u00a0: {r} (16e place ex aequo du classement annuel)." in page
    assert f"Désistement\u00a0: {NAMES[0]} (1re place du classement annuel)." in page


def test_section_1_a_play_off_loser_comes_before_a_player_level_with_him_whom_countback_put_behind(tmp_path):
    """§1 is silent on a tie at the 16th place (INTERPRETATIONS.md, masters): countback first, then
    a play-off between those it leaves level, whose loser comes after those level with him who won
    it. A, B, C and D 15th ex aequo for two places, countback A > B = C > D: A is in, B and C play
    off, C loses. The 1st withdraws: the place is C's, who lost only to B, not D's, whom countback
    put behind them both (before: D played, every loser ranked behind all of his rank)."""
    a, b, c, d = NAMES[14:18]
    # Four tournaments count two results (§3): each of them is 15th once and 16th once (same points,
    # tournaments, best result), then 17th twice (A), once (B, C) or never (D), else 18th.
    rest = NAMES[18:]
    inputs = league(tmp_path / "inputs", [*NAMES[:14], c, d, a, b, *rest], [*NAMES[:14], b, c, a, d, *rest],
                    [*NAMES[:14], d, a, b, c, *rest])
    refused = prepare(inputs)
    assert refused.returncode == 1
    assert f"égalité pour la 16e place du Masters entre {b} et {c}, 15e ex aequo" in refused.stderr
    add_withdrawal(inputs, "JOUEURQ", "Un", "barrage perdu")  # C lost the play-off to B
    settled = prepare(inputs)
    assert settled.returncode == 0, settled.stderr
    assert listed(settled) == NAMES[:14] + [a, b]
    assert "égalité" not in settled.stderr and "note :" not in settled.stderr  # the play-off, not countback, put C out
    add_withdrawal(inputs, "JOUEURA", "Un")  # the 1st withdraws
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[1:14] + [a, b, c]
    assert "égalité" not in result.stderr
    # Countback put D behind the three: the note says so, with their results.
    assert (f"note : {a}, {b}, {c} et {d}, 15e ex aequo du classement final Grand Sud 2026, se disputent les 14e, "
            "15e et 16e places du Masters : le départage aux résultats suivants (2e meilleur résultat, puis 3e…, "
            f"INTERPRETATIONS) qualifie {a}, {b} et {c} ({b} : 100, 90, 80, 75 ; {c} : 100, 90, 80, 75 ; "
            f"{d} : 100, 90, 75, 75)") in result.stderr
    page = bulletin(inputs)
    assert f"Désistement\u00a0: {NAMES[0]} (1re place du classement annuel)." in page
    assert "Barrage perdu" not in page and d not in page


def test_interpretation_a_play_off_loser_level_with_nobody_is_noted_as_a_row_that_changes_nothing(tmp_path):
    """INTERPRETATIONS.md: « barrage perdu » records the loser of a play-off between players level at
    the 16th place. One typed for a player level with nobody (the 17th, his place his alone) changed
    nothing and was said nowhere: the loser's row was most likely typed on the wrong name."""
    inputs = league(tmp_path / "inputs")
    assert prepare(inputs).returncode == 0  # the workbook, its 16 the ranking's first 16
    add_withdrawal(inputs, "JOUEURQ", "Un", "barrage perdu")
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[:16]
    notes = [line for line in result.stderr.splitlines() if line.startswith("note :")]
    assert len(notes) == 1 and notes[0].endswith(
        f"« barrage perdu » pour {Q}, 17e du classement final Grand Sud 2026, qui n’est à égalité avec aucun autre "
        "joueur : cette ligne ne change rien — vérifiez le nom (ou la licence) du perdant du barrage, ou supprimez-la"), \
        result.stderr
    assert "Désistements" in notes[0]  # located in the sheet where it was typed


def test_interpretation_a_tie_inside_the_first_16_changes_nobody(tmp_path):
    # The 5th and 6th swap places in the second tournament: 5th ex aequo, both in; no countback.
    second = [*NAMES[:4], NAMES[5], NAMES[4], *NAMES[6:]]
    result = prepare(league(tmp_path / "inputs", second))
    assert result.returncode == 0, result.stderr
    assert listed(result) == NAMES[:16]
    assert "5e place du classement annuel" in result.stdout.splitlines()[6] and "note :" not in result.stderr


def ranking(totals):
    """A final ranking of `totals` (best results, best first, of each player), as Grand Sud ranks them."""
    rows = []
    for index, results in enumerate(totals):
        rank = next(n for n, other in enumerate(totals, start=1) if other[0] == results[0])
        rows.append(RankingRow(rank, f"L:{index}", NAMES[index], str(index), "", {},
                               tied=sum(1 for other in totals if other[0] == results[0]) > 1, results=results))
    return Ranking("x", Scope("season", 2026), dt.date(2026, 11, 1), Status.FINAL, (), tuple(rows))


def test_interpretation_countback_setting_off_sends_the_tie_to_the_play_off():
    totals = [(500 - n, 0) for n in range(14)] + [(90, 80), (90, 75), (90, 70)]  # 15th=, 16th=, 17th=
    where = SourceRef("masters/masters-2026.xlsx", "Désistements")
    on = qualify(ranking(totals), [], MastersSettings(), where)
    assert not on.problems and [p.name for p in on.participants][-2:] == NAMES[14:16]
    off = qualify(ranking(totals), [], MastersSettings(qualification_countback=False), where)
    assert [(p.where, p.code) for p in off.problems] == [(where, "qualification-tie")]
    assert off.problems[0].message.startswith(f"égalité pour les 15e et 16e places du Masters entre {NAMES[14]}, "
                                              f"{NAMES[15]} et {NAMES[16]}, 15e ex aequo")
    assert "inscrivez le perdant" in off.problems[0].fix


def test_interpretation_countback_settles_some_places_and_leaves_the_last_one_to_the_play_off():
    totals = [(500 - n, 0) for n in range(14)] + [(90, 85), (90, 80), (90, 80), (90, 80)]  # 15th=, 2 places
    found = qualify(ranking(totals), [], MastersSettings(), SourceRef("m.xlsx", "Désistements"))
    assert [p.message.split(" :")[0] for p in found.problems] == [
        f"égalité pour la 16e place du Masters entre {NAMES[15]}, {NAMES[16]} et {NAMES[17]}, 15e ex aequo du "
        "classement final Grand Sud 2026"]
    assert "inscrivez les 2 non qualifiés" in found.problems[0].fix
    assert [p.name for p in found.participants][14] == NAMES[14]  # countback gave him the 15th place


# -- `Désistements`, its `Motif` column: a withdrawal, or the loser of that play-off ------------------

def prepared_league(tmp_path):
    """No tie: the two tournaments in the same order; the Masters workbook prepared."""
    inputs = league(tmp_path / "inputs", NAMES)
    assert prepare(inputs).returncode == 0
    return inputs


def reasons(inputs):
    """(Nom, motif) of each `Désistements` row, as the Masters workbook is read."""
    loaded = load(inputs, TODAY)
    assert loaded.problems_of("masters") == []
    (event,) = loaded.circuits["masters"].events
    return [(w.entry.last_name, w.reason) for w in event.content.withdrawals]


def test_desistements_without_the_motif_column_are_withdrawals_and_the_bulletin_says_desistement(tmp_path):
    inputs = prepared_league(tmp_path)
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    book["Désistements"].delete_cols(4)  # a workbook prepared before the column existed
    book["Désistements"].append(["JOUEURC", "Un", ""])
    book.save(path)
    assert [[c.value for c in row] for row in openpyxl.load_workbook(path)["Désistements"].iter_rows()][0] == [
        "Nom", "Prénom", "Licence"]
    assert reasons(inputs) == [("JOUEURC", "désistement")]
    settled = prepare(inputs)
    assert settled.returncode == 0, settled.stderr
    assert listed(settled) == NAMES[:2] + NAMES[3:17]
    page = bulletin(inputs)
    # one sentence after the other, a space between them; one left out: « à sa place »
    assert "<h3>Désistements</h3>" in page and "Barrage perdu" not in page
    assert (f"Désistement\u00a0: {NAMES[2]} (3e place du classement annuel). Invitation à sa place (§1)\u00a0: "
            f"{NAMES[16]} (17e).") in page
    # nor « 1er » in the participants' « Classement annuel », nor « Désisté », « Invité » (no gender known)
    assert GENDERED.findall(page.split("<body")[1].split('<section class="notes">')[0]) == []


def test_two_withdrawals_bring_in_two_invited_at_their_places(tmp_path):
    inputs = prepared_league(tmp_path)
    for name in (NAMES[2], NAMES[5]):
        add_withdrawal(inputs, *name.split(" "))
    assert prepare(inputs).returncode == 0
    page = bulletin(inputs)
    assert (f"Désistements\u00a0: {NAMES[2]} (3e place du classement annuel), {NAMES[5]} (6e place du classement "
            f"annuel). Invitations à leur place (§1)\u00a0: {NAMES[16]} (17e), {NAMES[17]} (18e).") in page


def test_the_motif_column_reads_the_obvious_spellings_of_its_two_values(tmp_path):
    inputs = prepared_league(tmp_path)
    typed = {"JOUEURC": "Désistement", "JOUEURD": "", "JOUEURE": "BARRAGE PERDU", "JOUEURF": "perdu au barrage",
             "JOUEURG": "Barrage", "JOUEURH": " désisté ", "JOUEURI": "Perdant du barrage"}
    for last, reason in typed.items():
        add_withdrawal(inputs, last, "Un", reason)
    assert reasons(inputs) == [("JOUEURC", "désistement"), ("JOUEURD", "désistement"), ("JOUEURE", "barrage perdu"),
                               ("JOUEURF", "barrage perdu"), ("JOUEURG", "barrage perdu"), ("JOUEURH", "désistement"),
                               ("JOUEURI", "barrage perdu")]


def test_a_motif_typed_in_any_of_its_spellings_stays_as_typed_when_prepare_runs_again(tmp_path):
    """« désistement » is one of the two choices the `Motif` cells offer; it and the other spellings
    read are kept as typed. (Before: `prepare` rewrote a withdrawal's `Motif` empty and a play-off's
    « barrage perdu », so it refused every run after: « la valeur saisie « désistement » serait effacée ».)"""
    inputs = prepared_league(tmp_path)
    typed = {"JOUEURC": "désistement", "JOUEURE": "Désisté", "JOUEURG": "Barrage perdu"}
    for last, reason in typed.items():
        add_withdrawal(inputs, last, "Un", reason)
    result = prepare(inputs)
    assert result.returncode == 0, result.stderr
    assert listed(result) == [NAMES[0], NAMES[1], NAMES[3], *NAMES[5:18]]  # G lost a play-off, level with nobody
    sheet = openpyxl.load_workbook(masters_path(inputs))["Désistements"]
    assert [row[3] for row in sheet.iter_rows(min_row=2, values_only=True)] == list(typed.values())
    assert prepare(inputs).returncode == 0


def test_a_motif_that_is_neither_is_a_located_problem_with_its_fix(tmp_path):
    inputs = prepared_league(tmp_path)
    add_withdrawal(inputs, "JOUEURC", "Un", "malade")
    checked = run("check", "--inputs", str(inputs))
    assert checked.returncode == 1
    assert ("masters/masters-2026.xlsx, feuille « Désistements », cellule D2 (colonne « Motif ») : « malade » n’est pas un motif "
            "reconnu — écrivez « désistement » (ou laissez la case vide) pour un joueur qui se désiste, "
            "« barrage perdu » pour le perdant d’un barrage de qualification") in checked.stderr
