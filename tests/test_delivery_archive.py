"""`reportgen archive`: a season frozen under archive/<season>/ with a manifest that `sha256sum -c`
accepts, its data in archive/league.sqlite (foreign keys on, one transaction), a corrected season
archived again beside the first copy; `reportgen archive verify` names each file changed or
missing; `make clean` never touches archive/."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import openpyxl
import pytest

from reportgen.delivery import archive as archiving
from reportgen.delivery import database
from reportgen.render.ranking import spreadsheet_safe
from tests.builders import TODAY, write_workbook
from tests.test_delivery_mail import cli

ROOT = Path(__file__).resolve().parents[1]
MOMENT = dt.datetime(2026, 12, 20, 10, 30, tzinfo=dt.timezone.utc)


def archive_command(built, archive: Path, *options: str):
    return cli("archive", "--inputs", str(built.inputs), "--outputs", str(built.outputs), "--archive", str(archive),
               *options)


def verify_command(archive: Path):
    return cli("archive", "verify", "--archive", str(archive))


def sha256sum_check(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=folder, capture_output=True, text=True)


def test_archive_then_verify(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    done = archive_command(small_league_copy, archive, "--season", "2026")
    assert done.returncode == 0, done.stderr
    assert "Saison 2026 archivée dans" in done.stdout
    # The season was not closed (inputs/saisons.toml): the note says which command closes it.
    assert "la saison 2026 n'est pas close" in done.stderr + done.stdout
    assert "ou clôturez-la d'abord : reportgen season close" in done.stderr + done.stdout
    copy = archive / "2026" / "v1"
    files = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert files == [
        "archive.json",
        "inputs/2026-01-10-carcassonne.xlsx", "inputs/2026-01-10-toulouse.xlsx", "inputs/2026-02-07-marseille.xlsx",
        "inputs/clubs.xlsx",
        "outputs/grand-sud/2026/annexe-grand-sud-2026.xlsx",
        "outputs/grand-sud/2026/classement-2026-01-10.csv",  # every CSV, the final bulletin only
        "outputs/grand-sud/2026/classement-final-2026.csv",
        "outputs/grand-sud/2026/classement-final-2026.html",
        "outputs/grand-sud/2026/classement-final-2026.pdf",
    ]
    for name in files:
        if name.startswith("outputs/"):
            assert (copy / name).read_bytes() == (small_league_copy.outputs / name.removeprefix("outputs/")).read_bytes()
        elif name.startswith("inputs/"):
            assert (copy / name).read_bytes() == (small_league_copy.inputs / name.removeprefix("inputs/")).read_bytes()
    record = json.loads((copy / "archive.json").read_text(encoding="utf-8"))
    assert record["season"] == 2026 and record["version"] == 1 and record["reason"] == ""
    checked = sha256sum_check(archive / "2026")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": OK") == len(files)
    verified = verify_command(archive)
    assert verified.returncode == 0, verified.stderr
    assert "10 fichiers archivés intacts" in verified.stdout


def test_a_changed_file_and_a_deleted_file_are_caught(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    copy = archive / "2026" / "v1"
    pdf = copy / "outputs" / "grand-sud" / "2026" / "classement-final-2026.pdf"
    assert not pdf.stat().st_mode & 0o222  # archived files are read-only
    pdf.chmod(0o644)
    pdf.write_bytes(pdf.read_bytes() + b"%")
    (copy / "outputs" / "grand-sud" / "2026" / "classement-2026-01-10.csv").unlink()
    (copy / "inputs" / "notes.txt").write_text("ajouté", encoding="utf-8")
    verified = verify_command(archive)
    assert verified.returncode == 1
    assert verified.stderr.splitlines() == [
        f"3 problèmes dans l'archive {archive} :",
        "  - 2026/v1/outputs/grand-sud/2026/classement-2026-01-10.csv : manquant",
        "  - 2026/v1/outputs/grand-sud/2026/classement-final-2026.pdf : modifié (son contenu n'est plus celui qui a "
        "été archivé)",
        "  - 2026/v1/inputs/notes.txt : ajouté après l'archivage (absent du manifeste)",
    ]
    assert sha256sum_check(archive / "2026").returncode != 0  # sha256sum sees it too


def test_a_manifest_rewritten_to_hide_a_change_is_caught_by_the_database(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    csv = archive / "2026" / "v1" / "outputs" / "grand-sud" / "2026" / "classement-final-2026.csv"
    csv.chmod(0o644)
    csv.write_text("rank,player\n1,MOI\n", encoding="utf-8")
    manifest = archive / "2026" / "SHA256SUMS"
    lines = [line if not line.endswith("classement-final-2026.csv") else
             f"{archiving.sha256(csv.read_bytes())}  v1/outputs/grand-sud/2026/classement-final-2026.csv"
             for line in manifest.read_text(encoding="utf-8").splitlines()]
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verified = verify_command(archive)
    assert verified.returncode == 1
    assert ("2026/v1/outputs/grand-sud/2026/classement-final-2026.csv : le manifeste a été modifié"
            in verified.stderr)


def test_archiving_again_after_a_correction_keeps_both_copies(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    first = {p: p.read_bytes() for p in (archive / "2026" / "v1").rglob("*") if p.is_file()}
    # Nothing changed: nothing new is written.
    same = archive_command(small_league_copy, archive, "--season", "2026")
    assert same.returncode == 0 and "déjà archivée à l'identique" in same.stderr
    assert not (archive / "2026" / "v2").exists()
    # A correction (a club's address): archiving again needs a reason, then writes v2 beside v1.
    write_workbook(small_league_copy.inputs / "clubs.xlsx", {"Clubs": [
        ["Code", "Nom", "Département", "Email"], ["CARC", "Carcassonne", "11", "nouveau@carc.example.org"],
        ["TLSE", "Toulouse", "31", ""], ["ALBI", "Albi", "81", ""], ["MTPL", "Montpellier", "34", ""],
        ["PERP", "Perpignan", "66", ""], ["NIME", "Nîmes", "30", ""], ["MARS", "Marseille", "13", ""]]})
    refused = archive_command(small_league_copy, archive, "--season", "2026")
    assert refused.returncode == 1 and "--reason" in refused.stderr
    assert not (archive / "2026" / "v2").exists()
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026,
                                    "adresse du club de Carcassonne corrigée", TODAY, MOMENT)
    assert (done.version, done.unchanged) == (2, False)
    assert {p: p.read_bytes() for p in (archive / "2026" / "v1").rglob("*") if p.is_file()} == first  # untouched
    assert (archive / "2026" / "v2" / "inputs" / "clubs.xlsx").read_bytes() != (
        archive / "2026" / "v1" / "inputs" / "clubs.xlsx").read_bytes()
    manifest = (archive / "2026" / "SHA256SUMS").read_text(encoding="utf-8")
    assert manifest.count("  v1/") == 10 and manifest.count("  v2/") == 10
    assert sha256sum_check(archive / "2026").returncode == 0
    assert verify_command(archive).returncode == 0
    connection = database.connect(archive, create=False)
    rows = [tuple(row) for row in connection.execute("SELECT season, version, folder, reason FROM archive ORDER BY id")]
    moments = [row[0] for row in connection.execute("SELECT archived_at FROM archive ORDER BY id")]
    current = [tuple(row) for row in connection.execute("SELECT version FROM current_archive")]
    connection.close()
    assert rows == [(2026, 1, "2026/v1", ""), (2026, 2, "2026/v2", "adresse du club de Carcassonne corrigée")]
    assert moments[1] == "2026-12-20T10:30:00+00:00" and current == [(2,)]
    assert json.loads((archive / "2026" / "v2" / "archive.json").read_text(encoding="utf-8"))["reason"] == (
        "adresse du club de Carcassonne corrigée")


def test_the_database_rows_match_the_workbooks_and_the_published_rankings(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    for season in ("2025", "2026"):
        assert archive_command(small_league_copy, archive, "--season", season).returncode == 0
    connection = database.connect(archive, create=False)
    assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    tournaments = connection.execute(
        "SELECT t.id, t.source, t.season, t.club_code, a.folder FROM tournament t JOIN archive a ON a.id = t.archive_id "
        "ORDER BY t.source").fetchall()
    assert [(t["source"], t["season"], t["club_code"]) for t in tournaments] == [
        ("2025-06-01-albi.xlsx", 2025, "ALBI"), ("2026-01-10-carcassonne.xlsx", 2026, "CARC"),
        ("2026-01-10-toulouse.xlsx", 2026, "TLSE"), ("2026-02-07-marseille.xlsx", 2026, "MARS")]
    for tournament in tournaments:
        # The workbook as the club typed it, read with openpyxl (not with reportgen's reader).
        book = openpyxl.load_workbook(archive / tournament["folder"] / "inputs" / tournament["source"])
        header, *typed = [list(row) for row in book["Résultats"].iter_rows(values_only=True)]
        expected = [(row[0], row[1], row[2], row[3] or "", row[4] or "") for row in typed]
        stored = [tuple(row) for row in connection.execute(
            "SELECT place, last_name, first_name, licence, club FROM result WHERE tournament_id = ? ORDER BY line",
            (tournament["id"],))]
        assert stored == expected, tournament["source"]
        if "Place duplicate" in header:
            fields = [json.loads(row[0])["place_duplicate"] for row in connection.execute(
                "SELECT fields FROM result WHERE tournament_id = ? ORDER BY line", (tournament["id"],))]
            assert fields == [row[header.index("Place duplicate")] for row in typed]
    # Every published ranking of each season, row by row as its CSV.
    rankings = connection.execute("SELECT r.id, r.path, a.folder FROM ranking r JOIN archive a ON a.id = r.archive_id "
                                  "ORDER BY a.season, r.position").fetchall()
    assert [r["path"] for r in rankings] == ["2025/classement-2025-06-01", "2025/classement-final-2025",
                                              "2026/classement-2026-01-10", "2026/classement-final-2026"]
    for ranking in rankings:
        csv_rows = (archive / ranking["folder"] / "outputs" / "grand-sud" / f"{ranking['path']}.csv").read_text(
            encoding="utf-8-sig").replace(";", ",").splitlines()[1:]
        stored = connection.execute("SELECT rank, player, licence, club, points, played FROM ranking_row "
                                    "WHERE ranking_id = ? ORDER BY line", (ranking["id"],)).fetchall()
        assert [",".join(line.split(",")[:6]) for line in csv_rows] == [
            f"{r['rank']},{spreadsheet_safe(r['player'])},{r['licence']},{r['club']},{int(r['points'])},{r['played']}"
            for r in stored]  # the CSV keeps a name that looks like a formula from running (OWASP)
    players = {row["id"]: row["name"] for row in connection.execute("SELECT id, name FROM player WHERE archive_id = 2")}
    assert players["L:1002"] == "MARTIN Paul"
    clubs = connection.execute("SELECT count(*) FROM club WHERE archive_id = 2").fetchone()[0]
    connection.close()
    assert clubs == 7


def test_stale_outputs_are_not_archived(small_league_copy, tmp_path):
    csv = small_league_copy.outputs / "grand-sud" / "2026" / "classement-final-2026.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("575", "576"), encoding="utf-8")
    done = archive_command(small_league_copy, tmp_path / "archive", "--season", "2026")
    assert done.returncode == 1
    assert "n'est pas à jour pour la saison 2026" in done.stderr and "grand-sud/2026/classement-final-2026.csv" in done.stderr
    assert not (tmp_path / "archive" / "2026").exists()


def test_a_season_without_anything_is_refused(small_league_copy, tmp_path):
    done = archive_command(small_league_copy, tmp_path / "archive", "--season", "2019")
    assert done.returncode == 1 and "aucun tournoi ni classement de la saison 2019" in done.stderr
    assert archive_command(small_league_copy, tmp_path / "archive").returncode == 2  # --season is needed


def test_everything_or_nothing(small_league_copy, tmp_path, monkeypatch):
    """A failure while writing the database leaves no row, no copy and no manifest behind."""
    archive = tmp_path / "archive"
    real = archiving.write_season

    def failing(connection, *args):
        real(connection, *args)  # every row written, then the disk is full
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(archiving, "write_season", failing)
    with pytest.raises(database.DatabaseUnwritable, match="league.sqlite : impossible d'y écrire"):
        archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026, today=TODAY)
    connection = database.connect(archive, create=False)
    counts = [connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
              for table in ("archive", "archived_file", "club", "player", "tournament", "result", "ranking",
                            "ranking_row")]
    connection.close()
    assert counts == [0] * 8
    assert sorted(p.name for p in archive.iterdir()) == ["league.sqlite"]  # no copy, no staging, no 2026/


def test_make_clean_leaves_the_archive_alone(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "outputs" / "grand-sud").mkdir(parents=True)
    (tmp_path / "outputs" / "grand-sud" / "publications.json").write_text("{}")
    (tmp_path / "archive" / "2026" / "v1").mkdir(parents=True)
    (tmp_path / "archive" / "league.sqlite").write_bytes(b"base")
    (tmp_path / "archive" / "2026" / "SHA256SUMS").write_text("")
    done = subprocess.run(["make", "clean"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "outputs").exists()
    assert sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "archive").rglob("*")) == [
        "archive/2026", "archive/2026/SHA256SUMS", "archive/2026/v1", "archive/league.sqlite"]
    assert "archive" not in subprocess.run(["make", "-n", "clean"], cwd=tmp_path, capture_output=True,
                                           text=True).stdout


def test_manifest_lines_are_those_of_sha256sum_even_for_odd_names():
    digest = "0" * 64
    for name in ("v1/inputs/a b.xlsx", "v1/inputs/back\\slash.xlsx", "v1/inputs/new\nline.xlsx"):
        entries, wrong = archiving.read_manifest(archiving.manifest_line(digest, name))
        assert entries == {name: digest} and wrong == []
    assert archiving.read_manifest("not a line\n")[1] == [1]
