"""Grand Sud season N needs season N−1: read from inputs/ when its workbooks are there, else from
the archive (and said); both give the same ranking."""

from __future__ import annotations

import html

import pytest

from reportgen.delivery import archive as archiving
from reportgen.delivery import seasons
from reportgen.model import ReportgenError
from reportgen.pipeline import load, score
from tests.builders import TODAY, write_tournament
from tests.test_delivery_mail import cli


def grand_sud(league):
    return score(league).reports["grand-sud"].rankings


def test_the_seasons_to_read_from_the_archive():
    assert seasons.needed({2026}, {2024, 2025}) == [2024, 2025]  # 2025's seeds need 2024
    assert seasons.needed({2025, 2026}, {2024, 2025}) == [2024]
    assert seasons.needed({2026}, {2024}) == []  # 2025 is nowhere: the chain stops
    assert seasons.needed({2024, 2026}, {2023, 2025}) == [2023, 2025]


def test_the_previous_season_from_the_archive_gives_the_same_ranking_as_from_the_inputs(small_league_copy, tmp_path):
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    said: list[str] = []
    from_inputs = grand_sud(seasons.load(inputs, archive, TODAY, said.append))
    assert said == []  # no archive yet: inputs/ is all there is, nothing to say
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()  # the 2025 workbooks leave inputs/ once archived

    said.clear()
    from_archive = grand_sud(seasons.load(inputs, archive, TODAY, said.append))
    assert said == [f"grand-sud 2026 : la saison 2025 n’est pas dans {inputs}, elle est lue dans l’archive "
                    f"({archive / '2025' / 'v1'})"]
    season_2026 = [r for r in from_inputs if r.season == 2026]
    assert season_2026 and [r for r in from_archive if r.season == 2026] == season_2026
    # Without the archive the 2026 ranking is another one: the 2025 Albi tournament counts in 2026.
    alone = [r for r in grand_sud(load(inputs, TODAY)) if r.season == 2026]
    assert alone != season_2026

    # The commands that score say which source they used.
    (archive / "2025" / "v1" / "inputs" / "2025-06-01-albi.xlsx").chmod(0o644)
    (archive / "2025" / "v1" / "inputs" / "2025-06-01-albi.xlsx").write_bytes(b"PK")
    with pytest.raises(ReportgenError, match="a été modifié depuis son archivage"):
        seasons.load(inputs, archive, TODAY)


def test_a_command_prints_where_the_previous_season_was_read(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (small_league_copy.inputs / "2025-06-01-albi.xlsx").unlink()
    done = cli("history", "MARTIN Paul", "--inputs", str(small_league_copy.inputs), "--archive", str(archive))
    assert done.returncode == 0, done.stderr
    assert "la saison 2025 n’est pas dans" in done.stderr and "elle est lue dans l’archive" in done.stderr


def test_standings_and_build_read_the_archived_previous_season_too(small_league_copy, tmp_path):
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    before = cli("standings", "grand-sud", "--season", "2026", "--format", "csv", "--inputs", str(inputs),
                 "--archive", str(archive))
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()
    after = cli("standings", "grand-sud", "--season", "2026", "--format", "csv", "--inputs", str(inputs),
                "--archive", str(archive))
    assert after.returncode == 0 and after.stdout == before.stdout
    checked = cli("check", "--inputs", str(inputs), "--archive", str(archive), "--outputs", str(tmp_path / "out"))
    assert "la saison 2025 n’est pas dans" in checked.stderr and "elle est lue dans l’archive" in checked.stderr


def test_a_season_found_nowhere_is_said_once_by_check_not_by_every_command(small_league_copy, tmp_path):
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)  # 2025 stays in inputs/
    note = f"grand-sud 2025 : la saison 2024 n’est ni dans {inputs} ni dans l’archive, le classement 2025 commence sans elle"
    history = cli("history", "MARTIN Paul", "--inputs", str(inputs), "--archive", str(archive))
    assert history.returncode == 0, history.stderr
    assert "ni dans" not in history.stderr and "est lue dans" not in history.stderr  # nothing to say here
    checked = cli("check", "--inputs", str(inputs), "--archive", str(archive), "--outputs", str(tmp_path / "out"))
    assert checked.stderr.splitlines().count(f"note : {note}") == 1, checked.stderr  # among its notes
    assert "est lue dans" not in checked.stderr  # 2026's 2025 read from inputs/: the usual case, not said


def test_with_an_archive_each_workbook_is_read_once(small_league_copy, tmp_path, reads):
    """The seasons of inputs/ are known from a first reading; the league put back together with the
    archived season reads only the archived workbooks (`reads`: the workbooks given to the readers)."""
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()
    reads.clear()
    league = seasons.load(inputs, archive, TODAY)
    assert 2025 in {event.date.year for event in league.circuits["grand-sud"].events}  # the archived season is there
    assert sorted(reads) == sorted({*reads}) and "2025-06-01-albi.xlsx" in reads


def test_the_players_commands_see_the_archived_previous_season_as_the_build_does(small_league_copy, tmp_path):
    """Once 2025 left inputs/ for the archive, the build still reads it (the 2026 ranking needs it)
    and asks about its players, but `players list` left them out (LÉGER Zoé, 2025 only), and
    `players distinct`, which the build's note names, refused such a name as a mistyped one (exit 2)."""
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()
    where = ("--inputs", str(inputs), "--archive", str(archive))
    listed = cli("players", "list", *where)
    assert listed.returncode == 0, listed.stderr
    assert "  LÉGER Zoé, licence 1004, Albi — 1 tournoi : Tournoi 2025-06-01-albi (01/06/2025)" in listed.stdout
    assert "  DUPONT Jean, licence 1001, Carcassonne — 2 tournois" in listed.stdout
    assert "elle est lue dans l’archive" in listed.stderr
    apart = cli("players", "distinct", "LÉGER Zoé", "DURAND Anne", *where)
    assert apart.returncode == 0, apart.stderr


def test_standings_says_where_the_previous_season_was_read(small_league_copy, tmp_path):
    """README: every command that reads season N−1 says which source once an archive exists."""
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    archiving.archive_season(inputs, small_league_copy.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()
    shown = cli("standings", "grand-sud", "--format", "csv", "--inputs", str(inputs), "--archive", str(archive))
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr.splitlines() == [f"grand-sud 2026 : la saison 2025 n’est pas dans {inputs}, elle est lue dans "
                                         f"l’archive ({archive / '2025' / 'v1'})"]
    assert shown.stdout.startswith("rank,player,")  # the CSV itself untouched


def _archived_2025(league) -> tuple:
    """The small league with its 2025 season archived and gone from inputs/: (inputs, archive)."""
    inputs, archive = league.inputs, league.inputs.parent / "archive"
    archiving.archive_season(inputs, league.outputs, archive, 2025, today=TODAY)
    (inputs / "2025-06-01-albi.xlsx").unlink()
    return inputs, archive


def test_what_check_says_of_an_archived_workbook_names_the_archived_copy(small_league_copy, tmp_path):
    """A workbook put back from the archive keeps its label (its tournament's id), but what the
    secretary reads names where she finds it: not inputs/, where it no longer is; and the
    tournaments read are counted with those of the archive."""
    inputs, archive = _archived_2025(small_league_copy)
    write_tournament(inputs, "2026-03-14-montpellier", day="14/03/2026", club="MTPL", results=[
        [1, "LÉGERE", "Zoé", "", "Albi"], [2, "MARTIN", "Paul", "1002", "Albi"]])  # LÉGER Zoé of 2025, mistyped?
    out = tmp_path / "out"
    checked = cli("check", "--inputs", str(inputs), "--archive", str(archive), "--outputs", str(out))
    assert checked.returncode == 0, checked.stderr
    copy = archive / "2025" / "v1" / "inputs" / "2025-06-01-albi.xlsx"
    assert f"LÉGER Zoé ({copy}, feuille « Résultats », cellule B5) et LÉGERE Zoé (2026-03-14-montpellier.xlsx, feuille « Résultats », cellule B2)" \
        in checked.stderr
    assert "(2025-06-01-albi.xlsx," not in checked.stderr
    page = shown(out / "verification.html")
    assert f"LÉGER Zoé ({copy}, feuille « Résultats », cellule B5)" in page and f"grand-sud 2026 : la saison 2025 n’est pas dans {inputs}" in page
    assert checked.stdout.splitlines()[-1] == "5 tournois lus, dont 1 de l’archive, aucun problème."


def test_a_source_put_back_from_the_archive_is_shown_where_it_is():
    from reportgen.model import Problem, SourceRef
    from reportgen.model.cells import put_back
    from reportgen.render.verification import as_records

    ref = SourceRef("2025/a.xlsx", "Résultats", "B4")
    with put_back({"2025/a.xlsx": "archive/2025/v1/inputs/2025/a.xlsx"}):
        assert str(ref) == "archive/2025/v1/inputs/2025/a.xlsx, feuille « Résultats », cellule B4"
        assert str(SourceRef("2026/b.xlsx", "Résultats", "B4")) == "2026/b.xlsx, feuille « Résultats », cellule B4"
        assert as_records([Problem(ref, "x")])[0]["file"] == "archive/2025/v1/inputs/2025/a.xlsx"
        assert ref == SourceRef("2025/a.xlsx", "Résultats", "B4")  # its identity is its label
    assert str(ref) == "2025/a.xlsx, feuille « Résultats », cellule B4"


def test_build_lists_where_the_previous_season_was_read_among_its_notes(small_league_copy):
    """The sentence `build` says of a season read from the archive is among its notes: on
    verification.html too, and said once."""
    inputs, archive = _archived_2025(small_league_copy)
    built = cli("build", "--inputs", str(inputs), "--outputs", str(small_league_copy.outputs), "--archive", str(archive))
    assert built.returncode == 0, built.stderr
    sentence = f"grand-sud 2026 : la saison 2025 n’est pas dans {inputs}, elle est lue dans l’archive ({archive / '2025' / 'v1'})"
    assert [line for line in built.stderr.splitlines() if "lue dans l’archive" in line] == [f"note : {sentence}"]
    assert shown(small_league_copy.outputs / "verification.html").count(sentence) == 1


def shown(page) -> str:
    """A page's text as read: its entities decoded, its non-breaking spaces (French typography) plain."""
    return html.unescape(page.read_text(encoding="utf-8")).replace("\xa0", " ").replace("\u202f", " ")


def test_players_merge_names_an_archived_tournament_where_it_is(small_league_copy):
    """Two names in one tournament are two people: the cells named are those of the archived copy."""
    inputs, archive = _archived_2025(small_league_copy)
    refused = cli("players", "merge", "LÉGER Zoé", "DURAND Anne", "--inputs", str(inputs), "--archive", str(archive))
    copy = archive / "2025" / "v1" / "inputs" / "2025-06-01-albi.xlsx"
    assert refused.returncode == 1, refused.stderr
    assert f"« LÉGER Zoé » ({copy}, feuille « Résultats », cellule B5) et « DURAND Anne » ({copy}, feuille « Résultats », cellule B4) sont dans le même " \
        "tournoi" in refused.stderr


def test_mail_and_archive_name_a_problem_of_an_archived_workbook_where_it_is(small_league_copy):
    """A problem found later in a workbook put back (its club gone from clubs.xlsx) is said with the
    archived copy's cell, though the copy the command read is gone when it is said."""
    from reportgen.ingest.directories import ClubDirectory
    from tests.builders import CLUBS, write_clubs

    inputs, archive = _archived_2025(small_league_copy)
    write_clubs(inputs, ClubDirectory([club for club in CLUBS.clubs if club.code != "ALBI"]))
    cell = f"{archive / '2025' / 'v1' / 'inputs' / '2025-06-01-albi.xlsx'}, feuille « Tournoi », cellule B4"
    where = ("--inputs", str(inputs), "--archive", str(archive))
    mailed = cli("mail", "--outputs", str(small_league_copy.outputs), *where)
    assert mailed.returncode == 1 and cell in mailed.stderr, mailed.stderr
    archived = cli("archive", "--season", "2026", "--outputs", str(small_league_copy.outputs), *where)
    assert archived.returncode == 1 and cell in archived.stderr, archived.stderr
