"""`reportgen history "NOM Prénom"`: a player's seasons — circuit, place, points, tournaments
played — from the database for archived seasons and from inputs/ for the others."""

from __future__ import annotations

import csv
import io

import pytest

from reportgen.delivery import archive as archiving
from reportgen.delivery.history import as_rows, history
from tests.builders import TODAY, write_clubs, write_tournament
from tests.conftest import EXAMPLE_INPUTS
from tests.poules.test_notices import GENDERED
from tests.test_delivery_mail import cli


@pytest.fixture
def example_history(example_league, example_scored, tmp_path, capsys, monkeypatch):
    """`reportgen history PLAYER [--format FORMAT]` on the example league as the session read it (not
    read again for each player): its exit code, standard output and standard error."""
    import typer

    import reportgen.delivery.history as module
    from reportgen.commands.history import HistoryFormat
    from reportgen.commands.history import history as command

    read = module.history
    monkeypatch.setattr(module, "history", lambda *args, **kwargs: read(
        *args, **{**kwargs, "loaded": (example_league, example_scored)}))

    def run(player: str, format: str = "table") -> tuple[int, str, str]:
        code = 0
        try:
            command(player, format=HistoryFormat(format), inputs=EXAMPLE_INPUTS, archive=tmp_path / "archive")
        except typer.Exit as done:
            code = done.exit_code
        said = capsys.readouterr()
        return code, said.out, said.err

    return run


def test_history_on_the_example_league(example_league, example_scored, tmp_path):
    records, problems = history("hélène andré", EXAMPLE_INPUTS, tmp_path / "archive", TODAY,  # any case, any order
                                loaded=(example_league, example_scored))
    assert problems == []
    assert [(r.season, r.circuit, r.source) for r in records] == [
        (2025, "grand-sud", "inputs"), (2026, "grand-sud", "inputs"), (2026, "masters", "inputs")]
    for record in records:
        rankings = [r for r in example_scored.reports[record.circuit].rankings if r.season == record.season]
        final = [r for r in rankings if r.final][-1]
        (row,) = [row for row in final.rows if row.player == "ANDRÉ Hélène"]
        assert (record.rank, record.points, record.ranking, record.final) == (
            row.rank, row.metrics["points"], final.path, True)
    results = example_league.circuits["grand-sud"].results
    mine = results[results["player"] == "ANDRÉ Hélène"]
    for record in records[:2]:
        played = mine[mine["date"].dt.year == record.season].sort_values("date")
        assert [(p.date, p.place) for p in record.tournaments] == [
            (day.date(), place) for day, place in zip(played["date"], played["place"])]
    assert records[2].tournaments[0].tournament.startswith("Masters")  # her place at the Masters
    assert [row["rank"] for row in as_rows(records)] == [record.rank for record in records]


def test_history_reads_the_archive_then_the_inputs(small_league_copy, tmp_path):
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    before, _ = history("MARTIN Paul", inputs, archive, TODAY)
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    mixed, _ = history("1002", inputs, archive, TODAY)  # by licence too
    assert [(r.season, r.source) for r in mixed] == [(2025, "archive 2025/v1"), (2026, "inputs")]
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2026, today=TODAY)
    archived, _ = history("paul martin", tmp_path / "nothing", archive, TODAY)  # no inputs/ at all
    assert [(r.season, r.source) for r in archived] == [(2025, "archive 2025/v1"), (2026, "archive 2026/v1")]
    key = [(r.season, r.circuit, r.rank, r.points, r.tournaments) for r in before]
    assert [(r.season, r.circuit, r.rank, r.points, r.tournaments) for r in mixed] == key
    assert [(r.season, r.circuit, r.rank, r.points, r.tournaments) for r in archived] == key
    # 2026 archived while it runs: its ranking so far, « provisoire » as inputs/ says it
    assert [r.so_far for r in archived] == [r.so_far for r in before] == [False, True]
    assert [[(p.date.isoformat(), p.place) for p in r.tournaments] for r in archived] == [
        [("2025-06-01", 2)], [("2026-01-10", 1), ("2026-02-07", 1)]]
    # a name a letter off, of a player only the archive has: the one meant
    assert history("MARTIN Pual", tmp_path / "nothing", archive, TODAY) == ([], ["vouliez-vous dire « MARTIN Paul » ?"])

    done = cli("history", "MARTIN Paul", "--format", "csv", "--inputs", str(inputs), "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "season,circuit,rank,points,played,tournaments,player,licence,final,source,so_far,tied",
        "2025,grand-sud,2,435,1,2025-06-01 Tournoi 2025-06-01-albi (2),MARTIN Paul,1002,True,archive 2025/v1,False,False",
        f"2026,grand-sud,{archived[1].rank},{int(archived[1].points)},2,2026-01-10 Tournoi 2026-01-10-carcassonne (1); "
        "2026-02-07 Tournoi 2026-02-07-marseille (1),MARTIN Paul,1002,True,archive 2026/v1,True,False"]
    table = cli("history", "Martin Paul", "--inputs", str(inputs), "--archive", str(archive))
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[:3] == [
        "MARTIN Paul (licence 1002)",
        "2025  grand-sud : 2e place, 435 points (classement final ; archive 2025/v1)",
        "    01/06/2025  Tournoi 2025-06-01-albi : 2e place"]


def test_an_unknown_player_is_a_mistyped_command_said_alone(small_league_copy, tmp_path):
    """A name of no player is a mistyped command (README: exit 2): that line alone, which says how
    to list the players, no note before it (the small league's 2025 season is read from inputs/...)."""
    inputs = small_league_copy.inputs
    done = cli("history", "PERSONNE Inconnu", "--inputs", str(inputs), "--archive", str(tmp_path / "archive"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"aucun joueur « PERSONNE Inconnu » dans l’archive ni dans {inputs} (« reportgen "
                                        "players list » liste ceux des classeurs)"]


def test_an_unknown_player_while_a_circuit_has_workbooks_to_correct_shows_them(small_league_copy, tmp_path):
    """He may be in a workbook to correct: the circuits left out first, exit 1."""
    inputs = small_league_copy.inputs
    write_tournament(inputs, "casse", day="le 8", club="CARC")
    done = cli("history", "PERSONNE Inconnu", "--inputs", str(inputs), "--archive", str(tmp_path / "archive"))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "note : grand-sud : des classeurs sont à corriger, ses saisons non archivées sont omises (1 problème, voir "
        "« reportgen check »)",
        f"aucun joueur « PERSONNE Inconnu » dans l’archive ni dans {inputs} (ou ses classeurs sont à corriger, voir "
        "ci-dessus)"]


def test_a_name_of_two_players_is_a_mistyped_command(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", results=[[1, "MARTIN", "Jean Paul", "", "Albi"], [2, "PAUL", "Jean Martin", "", "Albi"]])
    done = cli("history", "jean paul martin", "--inputs", str(inputs), "--archive", str(tmp_path / "archive"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["« jean paul martin » peut désigner « MARTIN Jean Paul » ou « PAUL Jean Martin » : "
                                        "écrivez le nom tel qu’il est imprimé (NOM Prénom)"]


def test_a_surname_of_several_players_names_them_and_a_name_close_to_one_suggests_it(example_history):
    """`history "DA SILVA"` said « aucun joueur « DA SILVA » … » of a surname of four players (three
    in the Grand Sud, one in the Tour de France), « PETIT » and « DA SILVA Patric » likewise: the
    players of that surname, a first name to add; the surname of one, or a name a letter or two from
    some (the build's probable duplicates' distance), the one meant. A mistyped command: exit 2."""
    assert example_history("DA SILVA") == example_history("da silva") == (
        2, "", "plusieurs joueurs s’appellent DA SILVA : DA SILVA Daniel, DA SILVA Hervé, DA SILVA Nicolas, "
               "DA SILVA Patrick — précisez le prénom\n")
    nobody = f"aucun joueur « {{}} » dans l’archive ni dans {EXAMPLE_INPUTS}"
    assert example_history("PETIT") == (2, "", nobody.format("PETIT") + " ; vouliez-vous dire « PETIT Cécile » ?\n")
    assert example_history("DA SILVA Patric") == (
        2, "", nobody.format("DA SILVA Patric") + " ; vouliez-vous dire « DA SILVA Patrick » ?\n")
    assert example_history("DA SILVA Patric")[2] == example_history("da silva patrik")[2].replace("da silva patrik",
                                                                                                    "DA SILVA Patric")
    assert example_history("PERSONNE Inconnu") == (
        2, "", nobody.format("PERSONNE Inconnu") + " (« reportgen players list » liste ceux des classeurs)\n")


def test_names_as_near_as_each_other_are_all_suggested_and_none_further(tmp_path):
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", results=[[1, "MARTIN", "Jean", "", "Albi"], [2, "MARTIN", "Joan", "", "Albi"],
                                           [3, "MARTINEZ", "Jeanne", "", "Albi"]])
    assert history("MARTIN Jaan", inputs, tmp_path / "archive", TODAY) == (
        [], ["vouliez-vous dire « MARTIN Jean » ou « MARTIN Joan » ?"])
    assert history("MARTINEZ Jeane", inputs, tmp_path / "archive", TODAY) == (
        [], ["vouliez-vous dire « MARTINEZ Jeanne » ?"])
    assert history("MARTINEAU Jacques", inputs, tmp_path / "archive", TODAY) == ([], [])
    assert history("martin", inputs, tmp_path / "archive", TODAY) == (
        [], ["plusieurs joueurs s’appellent MARTIN : MARTIN Jean, MARTIN Joan — précisez le prénom"])


def test_a_shared_rank_is_a_number_and_tied_in_both_csvs_for_scripts():
    import datetime as dt

    from reportgen.delivery.history import Record
    from reportgen.model import Column, Ranking, RankingRow, Scope, Status
    from reportgen.render.ranking import to_csv

    rows = (RankingRow(1, "a", "AMAR Ali", "", "", {"points": 9}),
            RankingRow(2, "b", "BRUN Léa", "", "", {"points": 5}, tied=True),
            RankingRow(2, "c", "CROS Jean", "", "", {"points": 5}, tied=True))
    ranking = Ranking("x", Scope("season", 2026), dt.date(2026, 3, 1), Status.PROVISIONAL,
                      (Column("points", "Points"),), rows)
    standings = list(csv.DictReader(io.StringIO(to_csv(ranking).decode())))
    assert [(r["rank"], r["tied"]) for r in standings] == [("1", "False"), ("2", "True"), ("2", "True")]
    record = Record(2026, "grand-sud", "BRUN Léa", "", 2, True, 5, "x", False, "inputs")
    (row,) = as_rows([record])
    assert (row["rank"], row["tied"]) == (2, True)  # written by csv as `2` and `True`, never `2=`


def test_history_sets_word_order_aside_only_when_one_player_has_those_words(tmp_path):
    # INTERPRETATIONS.md, « who is who »: the league's players are a closed list for a query.
    inputs = tmp_path / "inputs"
    write_clubs(inputs)
    write_tournament(inputs, "a", results=[[1, "MARTIN", "Jean Paul", "", "Albi"], [2, "PAUL", "Jean Martin", "", "Albi"],
                                           [3, "MOREAU", "Lucie", "", "Albi"]])
    assert {r.player for r in history("Jean Paul MARTIN", inputs, tmp_path / "archive", TODAY)[0]} == {"MARTIN Jean Paul"}
    assert {r.player for r in history("lucie moreau", inputs, tmp_path / "archive", TODAY)[0]} == {"MOREAU Lucie"}
    records, problems = history("jean paul martin", inputs, tmp_path / "archive", TODAY)
    assert records == [] and problems == [
        "« jean paul martin » peut désigner « MARTIN Jean Paul » ou « PAUL Jean Martin » : écrivez le nom tel qu’il "
        "est imprimé (NOM Prénom)"]


def test_a_running_season_s_final_ranking_is_said_provisional_and_tps_are_no_points(example_history):
    """History said « classement final » of the 2026 Grand Sud ranking while the season runs (the
    site, the mails and `standings` call it « provisoire »), and « 0 points » of a Tantrix player (its
    events count TPs); a pool tournament that is over stays « classement final »."""

    def said(player: str) -> list[str]:
        return [line for line in example_history(player)[1].splitlines() if line[:2] == "20"]

    assert said("BAILLY Stéphane") == [
        "2025  grand-sud : 1re place, 2 665 points (classement final ; inputs)",
        "2026  grand-sud : 5e place, 1 635 points (classement final provisoire, tournois de 2026 seulement ; inputs)"]
    # « 1re place », never « 1er », which said Anaïs and Lucie are men (the league knows no gender)
    assert said("AUGER Anaïs") == ["2026  poules : 1re place, 4,5 points (classement final ; inputs)"]
    assert said("MOREAU Lucie") == ["2026  tantrix : 1re place (classement final ; inputs)"]
    for player in ("BAILLY Stéphane", "AUGER Anaïs", "MOREAU Lucie"):  # their tournaments too
        assert GENDERED.findall(example_history(player)[1]) == []


def test_the_csv_says_which_final_ranking_is_provisional_as_the_table_does(example_history):
    """`history --format csv` said `final` True of the 2026 Grand Sud ranking, which the table calls
    « classement final provisoire » (the season runs), and had no column to tell them apart: its
    `so_far`, as `standings --format json` says it, before the last column `tied`; the others kept."""
    for player in ("BAILLY Stéphane", "DA SILVA Patrick", "AUGER Anaïs"):
        lines = [line for line in example_history(player)[1].splitlines() if line[:2] == "20"]
        code, out, err = example_history(player, "csv")
        assert (code, err) == (0, "")
        rows = list(csv.DictReader(io.StringIO(out)))
        assert list(rows[0]) == ["season", "circuit", "rank", "points", "played", "tournaments", "player", "licence",
                                 "final", "source", "so_far", "tied"]
        assert [(row["final"], row["so_far"]) for row in rows] == [
            (str("classement final" in line), str("provisoire" in line)) for line in lines]
    assert [row["so_far"] for row in rows] == ["False"]  # a pool tournament that is over
    assert [(row["season"], row["circuit"], row["final"], row["so_far"]) for row in csv.DictReader(io.StringIO(
        example_history("DA SILVA Patrick", "csv")[1]))] == [
        ("2025", "grand-sud", "True", "False"), ("2026", "grand-sud", "True", "True"), ("2026", "masters", "True", "False")]


def test_history_takes_no_outputs_option_it_would_not_read(tmp_path):
    """`history` reads inputs/ and the archive, never outputs/: an --outputs it accepted and ignored
    let the secretary believe it read the folder she named; now it is a mistyped command (exit 2)."""
    done = cli("history", "MARTIN Paul", "--outputs", str(tmp_path / "outputs"), "--archive", str(tmp_path / "a"))
    assert done.returncode == 2 and "--outputs" in done.stderr
