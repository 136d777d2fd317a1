"""`reportgen archive`: a season frozen under archive/<season>/ with a manifest that `sha256sum -c`
accepts, its data in archive/league.sqlite (foreign keys on, one transaction), a corrected season
archived again beside the first copy; `reportgen archive verify` names each file changed or
missing; `make clean` never touches archive/."""

from __future__ import annotations

import datetime as dt
import json
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from reportgen.delivery import archive as archiving
from reportgen.delivery import archive_layout, database
from reportgen.render.ranking import spreadsheet_safe
from tests.builders import TODAY, write_workbook
from tests.test_delivery_mail import cli

ROOT = Path(__file__).resolve().parents[1]
MOMENT = dt.datetime(2026, 12, 20, 10, 30, tzinfo=dt.timezone.utc)
FONT_FILES = ["outputs/fonts/Inter-Bold.otf", "outputs/fonts/Inter-Italic.otf", "outputs/fonts/Inter-Regular.otf",
              "outputs/fonts/Inter-SemiBold.otf", "outputs/fonts/LICENSE-Inter.txt"]


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
    assert "la saison 2026 n’est pas close" in done.stderr + done.stdout
    assert "ou clôturez-la d’abord : reportgen season close" in done.stderr + done.stdout
    copy = archive / "2026" / "v1"
    files = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    assert files == [
        "archive.json",
        "inputs/2026-01-10-carcassonne.xlsx", "inputs/2026-01-10-toulouse.xlsx", "inputs/2026-02-07-marseille.xlsx",
        "inputs/clubs.xlsx",
        # the fonts the HTML bulletin names (../../fonts/…), so that the copy's page draws as its PDF
        *FONT_FILES,
        "outputs/grand-sud/2026/annexe-grand-sud-2026.xlsx",
        # every CSV, one bulletin: the final one, or while the season runs its latest (issue 27); the
        # season's ranking as the open season names it, « provisoire »
        "outputs/grand-sud/2026/classement-2026-01-10.csv",
        "outputs/grand-sud/2026/classement-2026-01-10.html",
        "outputs/grand-sud/2026/classement-2026-01-10.pdf",
        "outputs/grand-sud/2026/classement-provisoire-2026.csv",
        # the copy's contents, where the bulletin's « Accueil » and « Saison 2026 » lead (no site in a copy)
        "outputs/index.html", "outputs/site/grand-sud-2026.html",
    ]
    for name in files:
        if name.startswith("outputs/") and "/site/" not in name and not name.endswith("index.html"):
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
    assert "17 fichiers archivés intacts" in verified.stdout
    page = (copy / "outputs/grand-sud/2026/classement-2026-01-10.html").read_text(encoding="utf-8")
    named = set(re.findall(r'url\("\.\./\.\./(fonts/[^"]+)"\)', page))
    assert named and all((copy / "outputs" / font).is_file() for font in named)


def test_a_changed_file_and_a_deleted_file_are_caught(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    copy = archive / "2026" / "v1"
    pdf = copy / "outputs" / "grand-sud" / "2026" / "classement-2026-01-10.pdf"
    assert not pdf.stat().st_mode & 0o222  # archived files are read-only
    pdf.chmod(0o644)
    pdf.write_bytes(pdf.read_bytes() + b"%")
    (copy / "outputs" / "grand-sud" / "2026" / "classement-provisoire-2026.csv").unlink()
    (copy / "inputs" / "notes.txt").write_text("ajouté", encoding="utf-8")
    verified = verify_command(archive)
    assert verified.returncode == 1
    assert verified.stderr.splitlines() == [
        f"3 problèmes dans l’archive {archive} :",
        "  - 2026/v1/outputs/grand-sud/2026/classement-2026-01-10.pdf : modifié (son contenu n’est plus celui qui a "
        "été archivé)",
        "  - 2026/v1/outputs/grand-sud/2026/classement-provisoire-2026.csv : manquant",
        "  - 2026/v1/inputs/notes.txt : ajouté après l’archivage (absent du manifeste)",
    ]
    assert sha256sum_check(archive / "2026").returncode != 0  # sha256sum sees it too


def test_a_manifest_rewritten_to_hide_a_change_is_caught_by_the_database(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    csv = archive / "2026" / "v1" / "outputs" / "grand-sud" / "2026" / "classement-provisoire-2026.csv"
    csv.chmod(0o644)
    csv.write_text("rank,player\n1,MOI\n", encoding="utf-8")
    manifest = archive / "2026" / "SHA256SUMS"
    lines = [line if not line.endswith("classement-provisoire-2026.csv") else
             f"{archive_layout.sha256(csv.read_bytes())}  v1/outputs/grand-sud/2026/classement-provisoire-2026.csv"
             for line in manifest.read_text(encoding="utf-8").splitlines()]
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verified = verify_command(archive)
    assert verified.returncode == 1
    assert ("2026/v1/outputs/grand-sud/2026/classement-provisoire-2026.csv : le manifeste a été modifié"
            in verified.stderr)


def correct_an_address(inputs: Path) -> None:
    """The small league's clubs.xlsx with Carcassonne's address corrected."""
    write_workbook(inputs / "clubs.xlsx", {"Clubs": [
        ["Code", "Nom", "Département", "Email"], ["CARC", "Carcassonne", "11", "nouveau@carc.example.org"],
        ["TLSE", "Toulouse", "31", ""], ["ALBI", "Albi", "81", ""], ["MTPL", "Montpellier", "34", ""],
        ["PERP", "Perpignan", "66", ""], ["NIME", "Nîmes", "30", ""], ["MARS", "Marseille", "13", ""]]})


def test_archiving_again_after_a_correction_keeps_both_copies(small_league_copy, tmp_path):
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    first = {p: p.read_bytes() for p in (archive / "2026" / "v1").rglob("*") if p.is_file()}
    # Nothing changed: nothing new is written.
    same = archive_command(small_league_copy, archive, "--season", "2026")
    assert same.returncode == 0 and "déjà archivée à l’identique" in same.stderr
    assert not (archive / "2026" / "v2").exists()
    # A correction (a club's address): archiving again needs a reason, then writes v2 beside v1.
    correct_an_address(small_league_copy.inputs)
    refused = archive_command(small_league_copy, archive, "--season", "2026")
    # a command short of an option (README: exit 2, 1 is for workbooks to correct), in one line
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines()[-1] == (
        "la saison 2026 est déjà archivée (v1) et a changé depuis : dites pourquoi l’archiver de nouveau avec "
        "--reason \"…\" (la copie précédente est gardée telle quelle)")
    assert not (archive / "2026" / "v2").exists()
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026,
                                    "adresse du club de Carcassonne corrigée", TODAY, MOMENT)
    assert (done.version, done.unchanged) == (2, False)
    assert {p: p.read_bytes() for p in (archive / "2026" / "v1").rglob("*") if p.is_file()} == first  # untouched
    assert (archive / "2026" / "v2" / "inputs" / "clubs.xlsx").read_bytes() != (
        archive / "2026" / "v1" / "inputs" / "clubs.xlsx").read_bytes()
    manifest = (archive / "2026" / "SHA256SUMS").read_text(encoding="utf-8")
    assert manifest.count("  v1/") == 17 and manifest.count("  v2/") == 17
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


def test_a_season_archived_once_closed_holds_its_final_ranking_and_not_the_provisional_one(small_league_copy,
                                                                                          tmp_path):
    """Archived while it ran, the season's ranking is `classement-provisoire-2026.csv` (v1); closed,
    built and archived again, its copy holds `classement-final-2026` (CSV and bulletin), the
    provisional one gone from outputs/ and from the new copy, and the database names the final one."""
    from reportgen.ingest.seasons import SEASONS_FILE, seasons_toml
    from reportgen.pipeline import build

    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    (small_league_copy.inputs / SEASONS_FILE).write_bytes(seasons_toml({2026: dt.date(2026, 11, 20)}))
    assert build(small_league_copy.inputs, small_league_copy.outputs, TODAY).ok
    assert not list((small_league_copy.outputs / "grand-sud").rglob("classement-provisoire-*"))
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026,
                                    "saison close", TODAY, MOMENT)
    assert (done.version, done.unchanged) == (2, False)
    seasonal = sorted(p.relative_to(archive / "2026").as_posix() for p in (archive / "2026").rglob("classement-*-2026.*"))
    assert seasonal == [  # v1 as archived while the season ran, untouched
        "v1/outputs/grand-sud/2026/classement-provisoire-2026.csv",
        "v2/outputs/grand-sud/2026/classement-final-2026.csv", "v2/outputs/grand-sud/2026/classement-final-2026.html",
        "v2/outputs/grand-sud/2026/classement-final-2026.pdf"]
    connection = database.connect(archive, create=False)
    paths = [row[0] for row in connection.execute(
        "SELECT r.path FROM ranking r JOIN archive a ON a.id = r.archive_id WHERE a.version = 2 ORDER BY r.position")]
    connection.close()
    assert paths == ["2026/classement-2026-01-10", "2026/classement-final-2026"]
    assert verify_command(archive).returncode == 0


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
                                              "2026/classement-2026-01-10", "2026/classement-provisoire-2026"]
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
    csv = small_league_copy.outputs / "grand-sud" / "2026" / "classement-provisoire-2026.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("575", "576"), encoding="utf-8")
    done = archive_command(small_league_copy, tmp_path / "archive", "--season", "2026")
    assert done.returncode == 1
    assert "n’est pas à jour pour la saison 2026" in done.stderr and "grand-sud/2026/classement-provisoire-2026.csv" in done.stderr
    assert not (tmp_path / "archive" / "2026").exists()


def test_a_season_without_anything_is_a_mistyped_command_said_alone(small_league_copy, tmp_path):
    """It exited 1, as for workbooks to correct: a season of nothing is a mistyped command
    (README: exit 2), that line alone with the seasons there are; nothing archived."""
    done = archive_command(small_league_copy, tmp_path / "archive", "--season", "2019")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"aucun tournoi ni classement de la saison 2019 dans {small_league_copy.inputs} ; saisons : 2025, 2026"]
    assert not (tmp_path / "archive" / "2019").exists()
    assert archive_command(small_league_copy, tmp_path / "archive").returncode == 2  # --season is needed


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
        entries, wrong = archive_layout.read_manifest(archive_layout.manifest_line(digest, name))
        assert entries == {name: digest} and wrong == []
    assert archive_layout.read_manifest("not a line\n")[1] == [1]


# -- whole or absent: a real `reportgen archive` killed, refused a write, or locked out -------------

REPORTGEN = str(Path(sys.executable).parent / "reportgen")
TABLES = ("ranking_row", "ranking", "result", "tournament", "player", "club", "archived_file", "archive")


@pytest.fixture
def archived_2025(small_league_copy, tmp_path) -> Path:
    """The small league with season 2025 archived (15 files, 5 of them fonts, 2 contents pages): the archive
    that 2026 is added to."""
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2025").returncode == 0
    return archive


def archive_process(built, archive: Path, *strace: str, limit: int | None = None) -> subprocess.CompletedProcess:
    """`reportgen archive --season 2026` in a process of its own; under strace, which stops it at a
    chosen system call (`-e inject=rename:signal=SIGKILL:when=1`: killed as it calls its first
    rename, before the call is made); `limit`: the largest file it may write (RLIMIT_FSIZE, the
    way a test makes a write fail as on a full disk without mounting one: EFBIG)."""
    command = [REPORTGEN, "archive", "--season", "2026", "--inputs", str(built.inputs), "--outputs",
               str(built.outputs), "--archive", str(archive)]
    if strace:
        command = ["strace", "-qq", "-o", "/dev/null", *strace, *command]

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          preexec_fn=limited if limit is not None else None)


def rows(archive: Path) -> dict[str, int]:
    connection = sqlite3.connect(archive / "league.sqlite")
    counts = {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
    connection.close()
    return counts


def left(archive: Path) -> list[str]:
    """What the archive folder holds (SQLite's own journal aside: a kill may leave it, SQLite
    rolls it back or ignores it)."""
    return sorted(p.name for p in archive.iterdir() if p.name != "league.sqlite-journal")


# The moments a kill -9 stops the command, and whether the copy was recorded then.
KILLS = {
    # the third file is being staged (its chmod): two are written in the staging folder
    "staging": (["-e", "inject=chmod:signal=SIGKILL:when=3"], False),
    # every file staged and synced, the rows inserted: the rename into 2026/v1 is about to be made
    "before the rename": (["-e", "inject=rename:signal=SIGKILL:when=1"], False),
    # 2026/v1 in place, the transaction not committed (SQLite commits by deleting its journal)
    "before the commit": (["-e", "inject=unlink:signal=SIGKILL:when=1"], False),
    # committed; the season's new manifest is about to be put in place
    "before the manifest": (["-e", "inject=rename:signal=SIGKILL:when=2"], True),
    # all in place; the (now empty) staging folder is about to be removed
    "before the cleanup": (["-e", "inject=rmdir:signal=SIGKILL:when=1"], True),
}


@pytest.mark.parametrize("moment", list(KILLS))
def test_a_kill_at_any_moment_leaves_the_whole_copy_or_nothing(small_league_copy, archived_2025, moment):
    archive = archived_2025
    strace, recorded = KILLS[moment]
    before = rows(archive)
    killed = archive_process(small_league_copy, archive, *strace)
    assert killed.returncode in (-9, 128 + 9), killed.stderr  # really killed, by the signal
    assert "archivée dans" not in killed.stdout
    staged = [name for name in left(archive) if name.startswith(".staging-2026-v1-")]
    assert len(staged) == 1  # what the next command finds
    assert (rows(archive)["archive"] == before["archive"] + 1) is recorded  # the kill left the rows or none
    if moment == "before the commit":
        assert (archive / "2026" / "v1").is_dir()  # renamed, never recorded: an orphan for now

    # `verify` finishes or undoes it, says so, and then finds the archive whole.
    verified = verify_command(archive)
    assert verified.returncode == 0, verified.stderr
    assert ("complétés" if recorded else "interrompu avant d’être enregistré") in verified.stderr
    assert f"{15 + 17 if recorded else 15} fichiers archivés intacts" in verified.stdout
    assert not [name for name in left(archive) if name.startswith(".staging")]
    if not recorded:
        assert left(archive) == ["2025", "league.sqlite"] and rows(archive) == before  # no empty 2026/
        done = archive_command(small_league_copy, archive, "--season", "2026")  # the rerun: v1, no --reason
        assert done.returncode == 0 and "copie v1" in done.stdout, done.stderr
    else:
        done = archive_command(small_league_copy, archive, "--season", "2026")
        assert done.returncode == 0 and "déjà archivée à l’identique" in done.stderr, done.stderr
    assert verify_command(archive).stdout.startswith("32 fichiers archivés intacts")
    assert sha256sum_check(archive / "2026").returncode == 0


def test_the_next_archive_recovers_a_killed_one_itself(small_league_copy, archived_2025):
    archive = archived_2025
    assert archive_process(small_league_copy, archive, *KILLS["before the commit"][0]).returncode in (-9, 137)
    done = archive_command(small_league_copy, archive, "--season", "2026")
    assert done.returncode == 0, done.stderr
    assert "un archivage de la saison 2026 (v1) a été interrompu avant d’être enregistré" in done.stderr
    assert "copie v1" in done.stdout and not (archive / "2026" / "v2").exists()
    assert verify_command(archive).returncode == 0


def test_a_full_disk_leaves_nothing_behind_and_says_so_in_french(small_league_copy, archived_2025):
    archive = archived_2025
    before = rows(archive)
    # The copy's files: the system refuses any file beyond 8 KB (the PDF is 70 KB).
    refused = archive_process(small_league_copy, archive, limit=8192)
    assert refused.returncode == 4, refused.stderr
    assert refused.stderr.splitlines()[-1] == (
        f"{archive} : impossible d’écrire dans ce dossier, un fichier dépasse la taille que le système permet "
        "d’écrire ; rien n’a été archivé (ni copie ni ligne dans la base de données) — levez cette limite "
        "(ulimit -f) ou écrivez sur un autre disque, puis relancez la commande")
    assert left(archive) == ["2025", "league.sqlite"] and rows(archive) == before
    # The database's own writes: SQLite is told the disk is full (its writes are pwrite64 calls).
    full = archive_process(small_league_copy, archive, "-e", "inject=pwrite64:error=ENOSPC")
    assert full.returncode == 4, full.stderr
    assert full.stderr.splitlines()[-1] == (
        f"{archive / 'league.sqlite'} : impossible d’y écrire (disque plein, ou fichier protégé en écriture) ; rien "
        "n’y a été enregistré — libérez de la place sur le disque ou donnez le droit d’écriture, puis relancez la "
        "commande")
    assert left(archive) == ["2025", "league.sqlite"] and rows(archive) == before
    assert verify_command(archive).stdout.startswith("15 fichiers archivés intacts")


@pytest.fixture
def locked(archived_2025):
    """archive/league.sqlite held by another process in an exclusive transaction."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys\n"
         f"connection = sqlite3.connect({str(archived_2025 / 'league.sqlite')!r}, isolation_level=None)\n"
         "connection.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\nsys.stdin.read()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    yield archived_2025
    holder.communicate("", timeout=10)


def test_a_locked_database_stops_archive_and_verify_with_what_to_do(small_league_copy, locked):
    archive = locked
    said = (f"{archive / 'league.sqlite'} est verrouillé par un autre programme (une autre commande reportgen, ou "
            "un logiciel qui l’a ouvert) : fermez-le, puis relancez la commande")
    done = archive_command(small_league_copy, archive, "--season", "2026")
    assert (done.returncode, done.stderr.splitlines()[-1]) == (4, said)
    assert left(archive) == ["2025", "league.sqlite"]  # no 2026/, no staging folder
    verified = verify_command(archive)
    assert (verified.returncode, verified.stderr.splitlines()[-1]) == (4, said)


def damage(archive: Path) -> None:
    (archive / "league.sqlite").write_bytes(b"ce n'est pas une base\n" * 400)


def newer(archive: Path) -> None:
    connection = sqlite3.connect(archive / "league.sqlite")
    connection.execute(f"PRAGMA user_version = {database.SCHEMA_VERSION + 1}")
    connection.close()


@pytest.mark.parametrize(("fault", "said", "code"), [
    (damage, "est endommagé (ce n’est plus une base de données SQLite lisible) : remettez-le depuis votre "
             "sauvegarde, puis relancez la commande", 1),
    (newer, "a été écrit par une version plus récente de reportgen (schéma 11, celle-ci ne connaît que le schéma 10) "
            ": mettez reportgen à jour, puis relancez la commande", 1),
])
def test_a_damaged_or_newer_database_is_named_with_what_to_do(small_league_copy, archived_2025, fault, said, code):
    archive = archived_2025
    fault(archive)
    expected = f"{archive / 'league.sqlite'} {said}"
    for ran in (archive_command(small_league_copy, archive, "--season", "2026"), verify_command(archive)):
        assert (ran.returncode, ran.stderr.splitlines()[-1]) == (code, expected)
    # A build that needs no archived season (2025 is in inputs/) still publishes, and notes it.
    built = cli("build", "--inputs", str(small_league_copy.inputs), "--outputs", str(small_league_copy.outputs),
                "--archive", str(archive))
    assert built.returncode == 0, built.stderr
    assert f"note : {expected} (aucune saison n’a besoin de l’archive : la commande continue sans elle)" in (
        built.stderr)
    # One that needs it (2025 has left inputs/, it is read back from the archive) says which season.
    (small_league_copy.inputs / "2025-06-01-albi.xlsx").unlink()
    needed = cli("build", "--inputs", str(small_league_copy.inputs), "--outputs", str(small_league_copy.outputs),
                 "--archive", str(archive))
    assert (needed.returncode, needed.stderr.splitlines()[-1]) == (
        code, f"grand-sud 2026 a besoin de la saison 2025, archivée : {expected}")


# -- verify: files, manifest and database against each other ----------------------------------------

def test_verify_refuses_what_the_database_contradicts(small_league_copy, archived_2025):
    archive = archived_2025
    copy = archive / "2025" / "v1"
    manifest = archive / "2025" / "SHA256SUMS"
    forged = copy / "outputs" / "grand-sud" / "2025" / "classement-bis.csv"
    forged.write_text("rang;joueur\n1;MOI\n", encoding="utf-8")
    with manifest.open("a", encoding="utf-8") as lines:
        lines.write(archive_layout.manifest_line(archive_layout.sha256(forged.read_bytes()),
                                                 "v1/outputs/grand-sud/2025/classement-bis.csv"))
        lines.write(archive_layout.manifest_line("0" * 64, "../../../../../etc/passwd"))
        lines.write(archive_layout.manifest_line("0" * 64, "/etc/hostname"))
    verified = verify_command(archive)
    assert verified.returncode == 1
    assert verified.stderr.splitlines() == [
        f"3 problèmes dans l’archive {archive} :",
        "  - 2025/SHA256SUMS : la ligne de « ../../../../../etc/passwd » désigne un fichier hors de l’archive : "
        "refusée (ce fichier n’est pas lu)",
        "  - 2025/SHA256SUMS : la ligne de « /etc/hostname » désigne un fichier hors de l’archive : refusée (ce "
        "fichier n’est pas lu)",
        "  - 2025/v1/outputs/grand-sud/2025/classement-bis.csv : absent de la base de données (ajouté au manifeste "
        "après l’archivage)",
    ]
    assert "intact" not in verified.stdout


def test_verify_refuses_a_copy_without_rows_and_a_missing_database(small_league_copy, archived_2025):
    archive = archived_2025
    connection = sqlite3.connect(archive / "league.sqlite")
    for table in TABLES:
        connection.execute(f"DELETE FROM {table}")
    connection.commit()
    connection.close()
    orphan = (f"{archive / '2025' / 'v1'} n’est pas dans la base de données {archive / 'league.sqlite'} (un "
              "archivage interrompu par une version précédente de reportgen, ou des lignes effacées) : remettez la "
              "base de données depuis votre sauvegarde, ou déplacez ce dossier hors de l’archive, puis relancez la "
              "commande")
    verified = verify_command(archive)
    assert (verified.returncode, verified.stderr.splitlines()[1:]) == (1, [f"  - {orphan}"])
    # Archiving the season again neither takes the orphan for an earlier copy nor writes beside it.
    again = archive_command(small_league_copy, archive, "--season", "2025")
    assert (again.returncode, again.stderr.splitlines()[-1]) == (1, orphan)
    assert not (archive / "2025" / "v2").exists()
    (archive / "league.sqlite").unlink()
    verified = verify_command(archive)
    assert verified.returncode == 1 and verified.stderr.splitlines()[1:] == [
        "  - league.sqlite : manquant — sans la base de données, rien ne garantit les copies : remettez-la depuis "
        "votre sauvegarde"]


def test_verify_names_a_recorded_file_gone_from_both_disk_and_manifest(small_league_copy, archived_2025):
    archive = archived_2025
    manifest = archive / "2025" / "SHA256SUMS"
    manifest.write_text("".join(line + "\n" for line in manifest.read_text(encoding="utf-8").splitlines()
                                if "classement-final-2025.csv" not in line), encoding="utf-8")
    (archive / "2025" / "v1" / "outputs" / "grand-sud" / "2025" / "classement-final-2025.csv").unlink()
    verified = verify_command(archive)
    assert verified.returncode == 1 and verified.stderr.splitlines()[1:] == [
        "  - 2025/v1/outputs/grand-sud/2025/classement-final-2025.csv : manquant, et retiré du manifeste (la base "
        "de données l’a archivé)"]


def forget_contents(archive: Path) -> None:
    """The archive as schema 7 wrote it, before copies held their contents pages (kind `contents`):
    their files, manifest lines and rows gone, `archived_file` refusing that kind, `user_version` 7."""
    for season in (child for child in archive.iterdir() if child.name.isdigit()):
        manifest = season / "SHA256SUMS"
        lines = manifest.read_text(encoding="utf-8").splitlines(keepends=True)
        manifest.write_text("".join(line for line in lines if not line.endswith("/outputs/index.html\n")
                                    and "/outputs/site/" not in line), encoding="utf-8")
        for copy in season.glob("v*"):
            (copy / "outputs" / "index.html").unlink()
            shutil.rmtree(copy / "outputs" / "site")
    connection = sqlite3.connect(archive / "league.sqlite")
    connection.executescript(
        "PRAGMA foreign_keys = OFF; BEGIN;"
        "DELETE FROM archived_file WHERE kind = 'contents';"
        "ALTER TABLE archived_file RENAME TO newer;"
        "CREATE TABLE archived_file (archive_id INTEGER NOT NULL REFERENCES archive(id), path TEXT NOT NULL,"
        " kind TEXT NOT NULL CHECK (kind IN ('bulletin', 'csv', 'annex', 'input', 'record', 'font')),"
        " circuit TEXT NOT NULL DEFAULT '', sha256 TEXT NOT NULL CHECK (length(sha256) = 64),"
        " size INTEGER NOT NULL, PRIMARY KEY (archive_id, path));"
        "INSERT INTO archived_file SELECT * FROM newer; DROP TABLE newer; COMMIT; PRAGMA user_version = 7;")
    connection.close()


def test_a_copy_archived_before_its_fonts_is_kept_as_it_is_and_its_database_upgraded(small_league_copy, tmp_path):
    """A season archived by a reportgen of schema 3 (no fonts in its copy, `font` refused by the
    CHECK): the database is upgraded with its rows, the copy is not made again for the fonts alone,
    and the next copy, after a correction, holds them."""
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2026").returncode == 0
    season = archive / "2026"
    # What schema 3 wrote: the same copy without outputs/fonts/ (nor its contents pages, schema 8), their
    # rows and manifest lines.
    forget_contents(archive)
    shutil.rmtree(season / "v1" / "outputs" / "fonts")
    manifest = season / "SHA256SUMS"
    manifest.write_text("".join(line for line in manifest.read_text(encoding="utf-8").splitlines(keepends=True)
                                if "/outputs/fonts/" not in line), encoding="utf-8")
    connection = sqlite3.connect(archive / "league.sqlite")
    connection.executescript(
        "PRAGMA foreign_keys = OFF; BEGIN;"
        "DELETE FROM archived_file WHERE kind = 'font';"
        "ALTER TABLE archived_file RENAME TO newer;"
        "CREATE TABLE archived_file (archive_id INTEGER NOT NULL REFERENCES archive(id), path TEXT NOT NULL,"
        " kind TEXT NOT NULL CHECK (kind IN ('bulletin', 'csv', 'annex', 'input', 'record')),"
        " circuit TEXT NOT NULL DEFAULT '', sha256 TEXT NOT NULL CHECK (length(sha256) = 64),"
        " size INTEGER NOT NULL, PRIMARY KEY (archive_id, path));"
        "INSERT INTO archived_file SELECT * FROM newer; DROP TABLE newer; COMMIT; PRAGMA user_version = 3;")
    before = [tuple(row) for row in connection.execute("SELECT * FROM archived_file ORDER BY path")]
    connection.close()
    assert len(before) == 10

    same = archive_command(small_league_copy, archive, "--season", "2026")
    assert same.returncode == 0 and "déjà archivée à l’identique" in same.stderr, same.stderr
    assert not (season / "v2").exists() and not (season / "v1" / "outputs" / "fonts").exists()
    connection = sqlite3.connect(archive / "league.sqlite")
    assert connection.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION
    assert [tuple(row) for row in connection.execute("SELECT * FROM archived_file ORDER BY path")] == before
    connection.close()
    assert verify_command(archive).stdout.startswith("10 fichiers archivés intacts")

    correct_an_address(small_league_copy.inputs)
    done = archiving.archive_season(small_league_copy.inputs, small_league_copy.outputs, archive, 2026,
                                    "adresse du club de Carcassonne corrigée", TODAY, MOMENT)
    assert (done.version, done.unchanged) == (2, False)
    assert sorted(p.relative_to(season / "v2").as_posix() for p in (season / "v2" / "outputs" / "fonts").iterdir()) == (
        FONT_FILES)
    assert verify_command(archive).stdout.startswith("27 fichiers archivés intacts")


def test_verify_takes_only_the_archive_and_says_where_its_option_goes(tmp_path):
    """`archive verify` reads the archive alone: --inputs and --outputs, which it accepted and
    ignored, are mistyped (exit 2); so is an option of `archive` itself before `verify`
    (« archive --archive X verify » checked ./archive, not X), said in French with where it goes."""
    for option in ("--inputs", "--outputs"):
        done = cli("archive", "verify", option, str(tmp_path), "--archive", str(tmp_path / "archive"))
        assert done.returncode == 2 and option in done.stderr
    misplaced = cli("archive", "--archive", "elsewhere", "verify")
    assert misplaced.returncode == 2
    assert ("valeur invalide pour --archive : elle se place après verify : reportgen archive verify --archive "
            "elsewhere") in boxed(misplaced.stderr)
    season = cli("archive", "--season", "2026", "verify", "--archive", str(tmp_path / "archive"))
    assert season.returncode == 2
    assert ("valeur invalide pour --season : elle sert à archiver une saison, pas à « archive verify »"
            in boxed(season.stderr))


def boxed(said: str) -> str:
    """An error as Typer's box shows it, its lines joined and its frame left out."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", said).split())


def test_a_season_whose_workbooks_left_inputs_for_the_archive_is_archived_again_from_there(small_league_copy,
                                                                                           tmp_path):
    """README: once archived, a season's workbooks may leave inputs/ (every command reads them back
    from the archive). `archive --season 2025` again then said « les classeurs de la saison 2025
    doivent être dans inputs pour l'archiver », listing them, not that it was archived already; and
    a correction (clubs.xlsx, joueurs.xlsx) could be archived only by putting them back."""
    inputs, archive = small_league_copy.inputs, tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2025").returncode == 0
    (inputs / "2025-06-01-albi.xlsx").unlink()
    same = archive_command(small_league_copy, archive, "--season", "2025")
    assert same.returncode == 0, same.stderr
    assert "la saison 2025 est déjà archivée à l’identique" in same.stderr
    assert not (archive / "2025" / "v2").exists()
    correct_an_address(inputs)
    refused = archive_command(small_league_copy, archive, "--season", "2025")
    assert refused.returncode == 2 and "--reason" in refused.stderr
    done = archive_command(small_league_copy, archive, "--season", "2025", "--reason", "adresse corrigée")
    assert done.returncode == 0, done.stderr
    workbook = Path("inputs") / "2025-06-01-albi.xlsx"
    assert (archive / "2025" / "v2" / workbook).read_bytes() == (archive / "2025" / "v1" / workbook).read_bytes()
    assert verify_command(archive).returncode == 0


def test_a_copy_made_as_of_another_day_is_dated_that_day(small_league_copy, tmp_path, monkeypatch):
    """`archive` under REPORTGEN_TODAY (the suite's pinned day, a developer's earlier day) records its
    version on that day: its moment is the day the site scores the copy as of (site_archive.py) and
    the date its contents page gives. Before, the machine's real day, whatever the variable said."""
    monkeypatch.setenv("REPORTGEN_TODAY", "2026-11-30")
    archive = tmp_path / "archive"
    assert archive_command(small_league_copy, archive, "--season", "2025").returncode == 0
    record = json.loads((archive / "2025" / "v1" / "archive.json").read_text(encoding="utf-8"))
    assert record["archived_at"].startswith("2026-11-30T")
    connection = sqlite3.connect(archive / "league.sqlite")
    assert connection.execute("SELECT archived_at FROM archive").fetchone()[0] == record["archived_at"]
    connection.close()
    contents = (archive / "2025" / "v1" / "outputs" / "index.html").read_text(encoding="utf-8")
    assert "archivée le 30\u00a0novembre 2026</p>" in contents  # « 30 novembre » kept on one line
