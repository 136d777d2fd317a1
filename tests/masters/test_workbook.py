"""The Masters as the secretary runs it: prepare the workbook, type results, build standings."""

import datetime as dt

import openpyxl
import pytest

from reportgen.circuits.masters.prepare import prepare
from reportgen.model import ScopeKind
from reportgen.pipeline import build, load, score
from reportgen.render.inputs import apply
from tests.builders import players, write_clubs, write_tournament

TODAY = dt.date(2026, 12, 31)
MASTERS_DAY = dt.date(2026, 12, 12)
NAMES = players(20)  # "JOUEURA Un"... in final-ranking order


@pytest.fixture
def inputs(tmp_path):
    folder = tmp_path / "inputs"
    write_clubs(folder)
    write_tournament(folder, "2026-10-10-carc", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    return folder


def run_prepare(inputs, day=MASTERS_DAY):
    league = load(inputs, TODAY)
    grand_sud = score(league, ["grand-sud"]).reports["grand-sud"]
    assert not league.problems_of("masters"), league.problems_of("masters")
    prepared = prepare(2026, grand_sud, league.circuits["masters"].events, day, "Carcassonne",
                       league.settings.circuits["masters"])
    if not prepared.problems:
        assert apply(prepared.change, inputs) == []
    return prepared


def masters_path(inputs):
    return inputs / "masters" / "masters-2026.xlsx"


def type_results(inputs, results):
    """results: {(match, table): (score A, score B, tops A, tops B)}, typed as a secretary would."""
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    sheet = book["Matchs"]
    for row in sheet.iter_rows(min_row=2):
        key = (row[0].value, row[1].value)
        if key in results:
            for cell, value in zip(row[4:8], results[key]):
                cell.value = value
    book.save(path)


def rows(inputs, sheet="Matchs"):
    return [[c.value for c in row] for row in openpyxl.load_workbook(masters_path(inputs))[sheet].iter_rows()]


def test_prepare_writes_the_16_participants_and_all_120_pairings_of_section_2(inputs):
    prepared = run_prepare(inputs)
    assert [p.name for p in prepared.participants] == NAMES[:16]
    book = openpyxl.load_workbook(masters_path(inputs))
    assert book.sheetnames == ["Tournoi", "Désistements", "Participants", "Matchs"]
    recorded = rows(inputs, "Participants")
    assert recorded[0] == ["N°", "Joueur", "Licence", "Club", "Classement annuel"]
    assert [(row[0], row[1], row[4]) for row in recorded[1:]] == [(n, NAMES[n - 1], n) for n in range(1, 17)]
    fields = {row[0]: row[1] for row in rows(inputs, "Tournoi")[1:]}
    assert fields["Circuit"] == "masters" and fields["Saison"] == 2026 and fields["Date"].date() == MASTERS_DAY
    matches = rows(inputs)
    assert matches[0] == ["Match", "Table", "Joueur A", "Joueur B", "Score A", "Score B", "Tops A", "Tops B"]
    assert len(matches) == 121 and all(row[4:] == [None] * 4 for row in matches[1:])
    by_board = {(row[0], row[1]): (row[2], row[3]) for row in matches[1:]}
    assert by_board[3, 2] == (NAMES[1], NAMES[12])  # §2 example: match 3, table 2, 2nd v 13th
    validations = book["Matchs"].data_validations.dataValidation
    assert [(v.type, v.formula1, v.formula2, str(v.sqref)) for v in validations] == [("whole", "0", "12", "E2:H121")]
    assert [v.errorStyle or "stop" for v in validations] == ["stop"]  # Excel's default; no other score is read (§1)


def test_a_fresh_masters_workbook_builds_participants_and_match_sheets(inputs, tmp_path):
    run_prepare(inputs)
    result = build(inputs, tmp_path / "out", TODAY)
    assert result.ok, result.problems
    folder = tmp_path / "out" / "masters" / "2026"
    assert sorted(p.name for p in folder.iterdir()) == [
        "annexe-masters-2026.xlsx", "feuilles-de-match-2026.html", "feuilles-de-match-2026.pdf",
        "masters-2026.csv", "masters-2026.html", "masters-2026.pdf"]
    from pypdf import PdfReader
    sheets = PdfReader(folder / "feuilles-de-match-2026.pdf")
    assert len(sheets.pages) == 16  # the schedule, then a page per match
    assert "Match 3 sur 15" in sheets.pages[3].extract_text()


def all_results(score_a=7, score_b=5, tops=(3, 2)):
    return {(r + 1, t + 1): (score_a, score_b, *tops) for r in range(15) for t in range(8)}


def test_a_grand_sud_tournament_after_the_masters_changes_nobody_and_is_a_warning(inputs, tmp_path):
    """INTERPRETATIONS.md: the workbook's participants stand; the new ranking is only said."""
    run_prepare(inputs)
    type_results(inputs, all_results())
    # a late tournament that lifts the 18th and 19th above the 15th and 16th
    late = [NAMES[17], NAMES[18], *NAMES[:17], NAMES[19]]
    write_tournament(inputs, "2026-12-20-nime", day="20/12/2026", club="NIME",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(late, start=1)])
    result = build(inputs, tmp_path / "out", TODAY)
    assert result.ok and "masters" not in result.blocked, result.problems
    ranking = score(load(inputs, TODAY), ["masters"]).reports["masters"].rankings[0]
    assert sorted(row.player for row in ranking.rows) == sorted(NAMES[:16])
    page = (tmp_path / "out" / "masters" / "2026" / "masters-2026.html").read_text()
    # Played (its 15 matches typed), the Masters is frozen: the warning is the build's notice, not a
    # re-rendered bulletin (issue 27).
    assert "a changé depuis la préparation du Masters" not in page
    assert any("masters/masters-2026.xlsx : le classement final Grand Sud 2026 a changé" in n for n in result.notices)


def test_a_partly_filled_workbook_gives_a_provisional_standing(inputs):
    run_prepare(inputs)
    typed = {key: value for key, value in all_results().items() if key[0] <= 3}
    typed[4, 1] = (7, 5, 1, 1)  # match 4 has begun: not counted yet
    type_results(inputs, typed)
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    standing = report.rankings[0]
    assert not standing.final and {row.metrics["played"] for row in standing.rows} == {3}
    assert report.documents[0].title.startswith("Classement provisoire après le match 3 sur 15")


def test_rerunning_prepare_keeps_every_typed_score(inputs):
    run_prepare(inputs)
    type_results(inputs, {(1, 1): (8, 4, 5, 2), (2, 3): (6, 6, 12, 12)})
    prepared = run_prepare(inputs)
    assert prepared.kept == 2
    by_board = {(row[0], row[1]): row[4:] for row in rows(inputs)[1:]}
    assert by_board[1, 1] == [8, 4, 5, 2] and by_board[2, 3] == [6, 6, 12, 12]


def add_withdrawal(inputs, last, first, reason=None):
    """A row of `Désistements` as the secretary types it; `reason` in its `Motif` column."""
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    book["Désistements"].append([last, first, "", reason])
    book.save(path)


def test_a_withdrawal_brings_in_the_17th_and_updates_the_pairings(inputs):
    run_prepare(inputs)
    add_withdrawal(inputs, "JOUEURC", "Un")
    prepared = run_prepare(inputs)
    assert [p.name for p in prepared.participants] == NAMES[:2] + NAMES[3:17]
    assert {(row[0], row[1]): (row[2], row[3]) for row in rows(inputs)[1:]}[1, 1] == (NAMES[0], NAMES[16])


def test_prepare_refuses_to_lose_a_typed_score(inputs):
    run_prepare(inputs)
    type_results(inputs, {(1, 8): (7, 5, 1, 1)})  # 8th v 9th
    add_withdrawal(inputs, "JOUEURC", "Un")  # everyone below the 3rd moves up a number
    before = masters_path(inputs).read_bytes()
    prepared = run_prepare(inputs)
    assert [p.code for p in prepared.problems] == ["would-overwrite"]
    assert "serait perdu" in str(prepared.problems[0]) and masters_path(inputs).read_bytes() == before


def test_a_tie_for_first_is_printed_as_a_barrage(inputs):
    run_prepare(inputs)
    type_results(inputs, all_results(6, 6, (2, 2)))  # every match drawn: everyone equal
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    rows_ = report.rankings[0].rows
    assert all(row.playoff and row.rank == 1 for row in rows_)
    assert "barrage à jouer entre" in __import__("reportgen.render.html", fromlist=["render"]).render(
        report.documents[0])


def problems_after_typing(inputs, edit):
    run_prepare(inputs)
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    edit(book["Matchs"])
    book.save(path)
    found = score(load(inputs, TODAY), ["masters"])
    league_problems = load(inputs, TODAY).problems_of("masters")
    return [str(p) for p in league_problems + found.blocked.get("masters", [])]


def test_a_pairing_that_is_not_the_schedules_is_located(inputs):
    def swap(sheet):
        sheet["D2"] = NAMES[14]  # match 1 table 1 is 1st v 16th
        sheet["E2"], sheet["F2"] = 7, 5
    found = problems_after_typing(inputs, swap)
    assert any(p.startswith("masters/masters-2026.xlsx, feuille « Matchs », cellule A2 (colonne « Match ») : le match 1, table 1 oppose "
                            f"{NAMES[0]} (n° 1) à {NAMES[15]} (n° 16) selon le §2") for p in found), found


def test_a_player_who_is_not_a_participant_is_located(inputs):
    found = problems_after_typing(inputs, lambda sheet: sheet.__setitem__("C3", "INCONNU Paul"))
    assert any(p.startswith("masters/masters-2026.xlsx, feuille « Matchs », cellule C3 (colonne « Joueur A ») : « INCONNU Paul » n’est "
                            "pas un participant du Masters") for p in found), found


def test_a_score_that_is_not_a_whole_number_is_located(inputs):
    def typed(sheet):
        sheet["E2"], sheet["F2"] = "7,5", 5
    found = problems_after_typing(inputs, typed)
    assert "masters/masters-2026.xlsx, feuille « Matchs », cellule E2 (colonne « Score A ») : « 7,5 » n’est pas un nombre entier " \
        "— écrivez un nombre entier, sans décimales ni lettres, par exemple 12" in found
    assert not [p for p in found if "un seul des deux scores" in p], found  # both are typed: one problem, not two


def test_tops_above_the_coups_of_a_match_are_located(inputs):
    def typed(sheet):
        sheet["E2"], sheet["F2"], sheet["G2"] = 7, 5, 13
    found = problems_after_typing(inputs, typed)
    assert ("masters/masters-2026.xlsx, feuille « Matchs », cellule G2 (colonne « Tops A ») : 13 tops : c’est plus que les 12 coups "
            "d’un match — corrigez la valeur") in found


def test_a_match_entered_twice_is_located(inputs):
    def twice(sheet):
        sheet.append([1, 1, NAMES[0], NAMES[15], 7, 5, 1, 1])
    found = problems_after_typing(inputs, twice)
    assert any("feuille « Matchs », cellule A122" in p and "déjà saisi en A2" in p for p in found), found


def test_before_any_result_the_bulletin_lists_the_participants_and_their_numbers(inputs):
    from reportgen.render.html import render

    run_prepare(inputs)
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    page = render(report.documents[0])
    assert report.documents[0].title.startswith("Participants et ordre des matchs")
    assert "Les 16 participants" in page and NAMES[15] in page and NAMES[16] not in page


def test_a_provisional_tie_for_first_is_not_a_barrage(inputs):
    run_prepare(inputs)
    assert not any(row.playoff for row in score(load(inputs, TODAY), ["masters"]).reports["masters"]
                   .rankings[0].rows)  # nothing played: everyone equal, no barrage to play yet
    type_results(inputs, {key: value for key, value in all_results(6, 6, (2, 2)).items() if key[0] <= 5})
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    rows_ = report.rankings[0].rows
    assert not report.rankings[0].final and not any(row.playoff for row in rows_)
    assert [row.metrics["number"] for row in rows_] == list(range(1, 17))  # provisional ties: annual ranking
    assert "barrage à jouer" not in __import__("reportgen.render.html", fromlist=["render"]).render(report.documents[0])


def test_interpretation_participants_without_a_participants_sheet_come_from_the_ranking_on_the_masters_date(inputs):
    """INTERPRETATIONS.md, masters: « Final » is the ranking in force on the Masters' date. A workbook
    without a `Participants` sheet (typed by hand, or older) and a Grand Sud tournament three days
    after the Masters: the participants are unchanged and the standings are computed."""
    run_prepare(inputs)
    type_results(inputs, all_results())
    book = openpyxl.load_workbook(masters_path(inputs))
    del book["Participants"]
    book.save(masters_path(inputs))
    late = [NAMES[17], NAMES[18], *NAMES[:17], NAMES[19]]  # lifts the 18th and 19th above the 15th and 16th
    write_tournament(inputs, "2026-12-15-nime", day="15/12/2026", club="NIME",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(late, start=1)])
    league = load(inputs, TODAY)
    assert not league.problems_of("masters")
    found = score(league, ["masters"])
    assert "masters" not in found.blocked, found.blocked.get("masters")
    ranking = found.reports["masters"].rankings[0]
    assert ranking.final and sorted(row.player for row in ranking.rows) == sorted(NAMES[:16])
    assert sorted(row.metrics["annual_rank"] for row in ranking.rows) == list(range(1, 17))
    # Prepared again after the late tournament, the workbook keeps the same participants and scores.
    prepared = run_prepare(inputs)
    assert not prepared.problems and [p.name for p in prepared.participants] == NAMES[:16]
    assert prepared.kept == 120


def test_match_sheets_never_break_a_name_at_its_hyphen():
    """The defects issue: « BRUNET Jean-/François » on the printed match sheets. A name wraps only
    between its words, in the PDF the secretary prints (pypdf reads a line break as a space)."""
    import io

    from pypdf import PdfReader

    from reportgen.circuits.masters import documents
    from reportgen.circuits.masters.parse import MastersSheet
    from reportgen.circuits.masters.standings import Participant
    from reportgen.model import Event, Legend, SourceRef
    from reportgen.render.html import render
    from reportgen.render.pdf import render_pdf

    names = ["BRUNET Jean-François", "DE LA FONTAINE-MARTIN Marie-Christine", "CASTELNAU-MAGNOAC Pierre-Alexandre",
             "LÉVÊQUE Anne-Sophie"] * 4
    people = [Participant(n, f"id{n}", names[n - 1], "", "Carcassonne", n) for n in range(1, 17)]
    event = Event("masters/masters-2026.xlsx", "Masters", MASTERS_DAY,
                  MastersSheet(2026, SourceRef("masters/masters-2026.xlsx"), "Carcassonne", [], [], []))
    annual = Legend("Classement annuel : place au classement ", "Classement final de la saison 2026", ".",
                    "grand-sud/2026/classement-final-2026.csv")
    document = documents.match_sheets(event, people, "Ligue de test", annual)
    pdf = render_pdf(render(document), document.date)
    pages = PdfReader(io.BytesIO(pdf)).pages
    for number in (1, 2, 15):  # the participants and schedule, the first and last match
        text = pages[number - 1].extract_text()
        for word in {word for name in names for word in name.split(" ") if "-" in word}:
            assert word in text, (number, word, text)


def test_prepare_again_writes_into_the_secretarys_workbook_as_she_made_it(inputs):
    """Issue 22: after a withdrawal, `masters prepare` rewrites only its own cells (participants,
    pairings) in the workbook she styled: her Tournoi sheet, its formats and extra rows, her typed
    scores and their formats, widths, comments and validations stay."""
    from tests.builders import assert_kept, snapshot, style_like_a_secretary
    from tests.test_cli import run

    prepare_ = ("masters", "prepare", "--season", "2026", "--date", "10/10/2026", "--inputs", str(inputs))
    assert run(*prepare_, "--lieu", "Carcassonne").returncode == 0
    path = masters_path(inputs)
    type_results(inputs, {(15, 1): (7, 5, 3, 2)})  # 1st v 2nd: the same match after the withdrawal
    style_like_a_secretary(path, "Tournoi")
    style_like_a_secretary(path, "Matchs", {5: "0", 6: "0"})
    book = openpyxl.load_workbook(path)
    book["Tournoi"]["B4"].number_format = "d mmmm yyyy"
    book["Tournoi"].append(["Arbitre", "Mme Martin"])
    book["Désistements"].append(["JOUEURC", "Un", ""])
    book.save(path)
    before = snapshot(path)
    result = run(*prepare_, "--lieu", "Albi")
    assert result.returncode == 0, result.stderr
    assert "(1 match déjà saisi conservé)" in result.stderr
    from openpyxl.utils.cell import coordinate_from_string

    def data(sheet, columns):  # the program's own cells: below the header row, in those columns
        return {f"{sheet}!{cell}" for cell in before[sheet] if coordinate_from_string(cell)[1] > 1
                and coordinate_from_string(cell)[0] in columns}

    changed = frozenset(data("Participants", "ABCDE") | data("Matchs", "CD") | {"Tournoi!B6"})
    assert_kept(before, path, "Tournoi", changed)
    assert_kept(before, path, "Matchs", changed)
    fields = {row[0]: row[1] for row in rows(inputs, "Tournoi")[1:]}
    assert fields["Lieu"] == "Albi" and fields["Arbitre"] == "Mme Martin"
    assert openpyxl.load_workbook(path)["Tournoi"]["B4"].number_format == "d mmmm yyyy"
    by_board = {(row[0], row[1]): row[2:] for row in rows(inputs)[1:]}
    assert by_board[1, 1] == [NAMES[0], NAMES[16], None, None, None, None]  # the 17th comes in
    assert by_board[15, 1] == [NAMES[0], NAMES[1], 7, 5, 3, 2]
    assert [row[1] for row in rows(inputs, "Participants")[1:]] == NAMES[:2] + NAMES[3:17]
    validations = openpyxl.load_workbook(path)["Matchs"].data_validations.dataValidation
    assert sorted((v.type, str(v.sqref)) for v in validations) == [("textLength", "A2:A121"), ("whole", "E2:H121")]


def test_a_place_given_to_a_workbook_without_lieu_is_a_row_below_her_fields(inputs):
    from openpyxl.styles import Font

    run_prepare(inputs)
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    sheet = book["Tournoi"]
    sheet.delete_rows(6)  # no Lieu
    sheet.append(["Arbitre", "Mme Martin"])
    for cell in sheet[6]:
        cell.font = Font(italic=True)
    book.save(path)
    run_prepare(inputs)  # --lieu Carcassonne
    sheet = openpyxl.load_workbook(path)["Tournoi"]
    assert [[c.value for c in row] for row in sheet.iter_rows(min_row=5)] == [
        ["Saison", 2026], ["Arbitre", "Mme Martin"], ["Lieu", "Carcassonne"]]
    assert sheet["A7"].font.i and sheet["B7"].font.i  # as the row above


def test_prepare_refuses_a_matches_sheet_rearranged_since_it_wrote_it(inputs):
    """Written in place, cell by cell: rows moved would have the wrong cells rewritten."""
    run_prepare(inputs)
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    book["Matchs"].insert_rows(1)
    book["Matchs"]["A1"] = "Masters 2026 — matchs"
    book.save(path)
    before = path.read_bytes()
    prepared = run_prepare(inputs)
    assert [str(p) for p in prepared.problems] == [
        "masters/masters-2026.xlsx, feuille « Matchs », cellule A3 (colonne « Match ») : la feuille « Matchs » n’est plus dans la disposition "
        "que « reportgen masters prepare » lui donne (Match, Table, Joueur A, Joueur B, Score A, Score B, Tops A, "
        "Tops B en colonnes A à H, un match par ligne dans l’ordre, le match 1 table 1 en ligne 2) — remettez-la dans "
        "cette disposition"]
    assert path.read_bytes() == before


def test_prepare_keeps_a_score_typed_with_a_name_in_another_word_order_as_check_reads_it(tmp_path):
    """INTERPRETATIONS.md, « who is who »: « Bernard Michel » typed for the participant MICHEL
    Bernard designates him (the only participant with those words), for `masters prepare` as for
    the check; a change of participants keeps the score with its match, players in the schedule's
    order and the scores following them."""
    from tests.test_cli import run

    inputs = tmp_path / "inputs"
    names = [*NAMES[:4], "MICHEL Bernard", *NAMES[5:]]
    write_clubs(inputs)
    write_tournament(inputs, "2026-10-10-carc", day="10/10/2026",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(names, start=1)])
    command = ("masters", "prepare", "--season", "2026", "--date", "28/11/2026", "--lieu", "Albi", "--inputs", str(inputs))
    assert run(*command).returncode == 0
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    row = next(r for r in book["Matchs"].iter_rows(min_row=2) if (r[0].value, r[1].value) == (1, 5))  # 5th v 12th
    assert [c.value for c in row[2:4]] == ["MICHEL Bernard", names[11]]
    for cell, value in zip(row[2:8], [names[11], "Bernard Michel", 4, 8, 1, 5]):  # typed B-A, by hand
        cell.value = value
    book.save(path)
    assert run("check", "--inputs", str(inputs)).returncode == 0
    add_withdrawal(inputs, "JOUEURP", "Un")  # the 16th withdraws: the 17th plays match 1 table 1, not this one
    result = run(*command)
    assert result.returncode == 0, result.stderr
    assert "(1 match déjà saisi conservé)" in result.stderr
    assert {(r[0], r[1]): r[2:] for r in rows(inputs)[1:]}[1, 5] == ["MICHEL Bernard", names[11], 8, 4, 5, 1]
    assert run("check", "--inputs", str(inputs)).returncode == 0


def test_prepare_says_a_typed_name_two_participants_could_be_rather_than_a_lost_score(tmp_path):
    """As the check: a name with the words of two participants designates neither (never one picked)."""
    from tests.test_cli import run

    inputs = tmp_path / "inputs"
    rows_typed = [[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)]
    rows_typed[4][1:3], rows_typed[5][1:3] = ["MARTIN", "Jean Paul"], ["PAUL", "Jean Martin"]  # 5th and 6th
    write_clubs(inputs)
    write_tournament(inputs, "2026-10-10-carc", day="10/10/2026", results=rows_typed)
    command = ("masters", "prepare", "--season", "2026", "--date", "28/11/2026", "--inputs", str(inputs))
    assert run(*command).returncode == 0
    path = masters_path(inputs)
    book = openpyxl.load_workbook(path)
    row = next(r for r in book["Matchs"].iter_rows(min_row=2) if (r[0].value, r[1].value) == (1, 5))  # 5th v 12th
    for cell, value in zip(row[2:8], ["jean paul martin", NAMES[11], 8, 4, 5, 1]):
        cell.value = value
    book.save(path)
    result = run(*command)
    assert result.returncode == 1
    assert ("masters/masters-2026.xlsx, feuille « Matchs », cellule C6 (colonne « Joueur A ») : « jean paul martin » peut désigner "
            "« MARTIN Jean Paul » ou « PAUL Jean Martin » (participants du Masters) — écrivez le nom comme dans la "
            "liste des participants") in result.stderr
    assert "serait perdu" not in result.stderr


def test_the_masters_ranking_is_named_after_its_tournament(example_scored):
    """Its scope names the tournament as its `Tournoi` sheet does, as the other circuits' events do:
    `reportgen standings masters --event` finds it by that name, and the site's page of the event is
    titled with it (it read « Classement final », the bulletin's title)."""
    from reportgen.queries import event_ranking

    rankings = example_scored.reports["masters"].rankings
    events = [r for r in rankings if r.scope.kind == ScopeKind.EVENT]
    assert events and all(r.scope.name == "Masters Grand Sud 2026" for r in events)
    assert event_ranking("masters", rankings, "masters grand sud 2026") is events[-1]


# « Classement annuel » places are the Grand Sud's ranking that qualifies the Masters (§1): its season's
# ranking of the year's tournaments only, never the latest dated bulletin (a sliding window over two
# years), whose places a player compared them with. The documents name it as the Grand Sud lists it.
NAMED = ("Classement annuel : place au classement du Grand Sud qui qualifie pour le Masters, "
         "« {title} », au {day} (fichier grand-sud/2026/{file}.csv).")
SO_FAR = "Classement final provisoire de la saison 2026 (tournois de 2026 seulement)"


def words(document) -> str:
    """A document's page as read: its text, tags and entities aside, spaces as one."""
    import html
    import re

    from reportgen.render.html import render

    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", render(document))).split())


def test_the_bulletin_and_the_match_sheets_name_the_annual_ranking_and_link_its_csv(inputs):
    from reportgen.render.html import render

    run_prepare(inputs)
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    assert [d.template for d in report.documents] == ["masters/bulletin.html.j2", "masters/match_sheets.html.j2"]
    for document in report.documents:
        assert NAMED.format(title=SO_FAR, day="10 octobre 2026", file="classement-provisoire-2026") in words(document)
        # the title links the CSV on screen; the file is named for print
        assert (f'« <a href="../../grand-sud/2026/classement-provisoire-2026.csv">{SO_FAR}</a> »'
                in render(document).replace("\u202f", " ").replace("\xa0", " "))


def test_a_played_masters_names_the_annual_ranking_on_its_day_whatever_the_grand_sud_receives_later(inputs):
    """Played, the Masters is frozen (issue 27): its annual ranking is the one of its day, and a late
    Grand Sud tournament, dated before it, changes neither what it says nor its pages."""
    from reportgen.render.html import render

    run_prepare(inputs)
    type_results(inputs, all_results())
    before = [render(d) for d in score(load(inputs, TODAY), ["masters"]).reports["masters"].documents]
    late = [NAMES[17], NAMES[18], *NAMES[:17], NAMES[19]]
    write_tournament(inputs, "2026-11-20-nime", day="20/11/2026", club="NIME",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(late, start=1)])
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    assert [render(d) for d in report.documents] == before
    named = NAMED.format(title=SO_FAR, day="12 décembre 2026, jour du Masters", file="classement-provisoire-2026")
    assert all(named in words(document) for document in report.documents)


def test_once_the_season_is_closed_the_annual_ranking_is_its_final_one(inputs):
    run_prepare(inputs)
    report = score(load(inputs, dt.date(2027, 1, 15)), ["masters"]).reports["masters"]
    assert NAMED.format(title="Classement final de la saison 2026", day="10 octobre 2026",
                        file="classement-final-2026") in words(report.documents[0])


def test_a_grand_sud_tournament_after_the_masters_leaves_it_the_ranking_in_force_on_its_day(inputs):
    """INTERPRETATIONS.md: the ranking in force on the Masters' date qualifies; with a tournament of
    the season after it, that is the latest dated ranking of its day, named so until it is played."""
    run_prepare(inputs)
    type_results(inputs, {key: value for key, value in all_results().items() if key[0] <= 3})
    write_tournament(inputs, "2026-12-20-nime", day="20/12/2026", club="NIME",
                     results=[[place, *name.split(" "), "", ""] for place, name in enumerate(NAMES, start=1)])
    report = score(load(inputs, TODAY), ["masters"]).reports["masters"]
    assert NAMED.format(title="Classement après le tournoi de Carcassonne du 10 octobre 2026", day="10 octobre 2026",
                        file="classement-2026-10-10") in words(report.documents[0])


def test_a_played_masters_asks_no_ranking_of_its_day(inputs, monkeypatch):
    """A played Masters is frozen (issue 27): its « Classement annuel » is the season's as of its own
    day, and the ranking in force on its day, which names that of one not played yet, is never read.
    It was looked for all the same on every scoring. The real function, watched for the day asked."""
    from reportgen.circuits.masters import circuit

    asked: list[dt.date | None] = []
    real = circuit.final_ranking

    def watched(*args, **kwargs):
        asked.append(args[3] if len(args) > 3 else kwargs.get("day"))
        return real(*args, **kwargs)

    monkeypatch.setattr(circuit, "final_ranking", watched)
    run_prepare(inputs)
    type_results(inputs, {key: value for key, value in all_results().items() if key[0] <= 3})
    assert score(load(inputs, TODAY), ["masters"]).reports["masters"].documents
    assert MASTERS_DAY in asked  # being played: its day's ranking names its annual places
    type_results(inputs, all_results())
    asked.clear()
    assert score(load(inputs, TODAY), ["masters"]).reports["masters"].documents
    assert asked == [None]  # played: the season's final ranking alone, its participants compared with it
