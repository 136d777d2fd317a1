"""Faults while publishing (issue 13): a kill -9 at the wrong moment, a full disk, read-only outputs.
A circuit's folder holds its previous publication or the new one, never a mix; a PDF is reused only
when the manifest proves it matches; a fault is one French message naming the folder (exit 4, a fault
of the machine: 1 is for the workbooks' problems).

The reference is the small league plus one new tournament, built cleanly: after any fault and the
next build, the outputs must be exactly the reference's, byte for byte."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen.model import Messages
from reportgen.pipeline import build
from reportgen.render import files as output_files
from reportgen.render import html as html_render
from reportgen.render import pdf as pdf_render
from reportgen.render.files import OutputError
from tests.builders import TODAY, write_tournament, write_workbook
from tests.test_hostile_files import snapshot

REPORTGEN = str(Path(sys.executable).parent / "reportgen")


def new_tournament(inputs: Path) -> None:
    write_tournament(inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"],
        [3, "NOUVEAU", "Joueur", "", "Albi"]])


def copy_league(source: Path, target: Path) -> Path:
    for folder in ("inputs", "outputs"):
        shutil.copytree(source / folder, target / folder)
    return target


@pytest.fixture(scope="module")
def reference(small_league_built, tmp_path_factory):
    """(the league with the new tournament, not built yet; the outputs once it is built cleanly;
    each bulletin's PDF by its HTML, for the tests that replay a build without rendering again)."""
    root = tmp_path_factory.mktemp("publish")
    before = copy_league(small_league_built.inputs.parent, root / "before")
    new_tournament(before / "inputs")
    after = copy_league(before, root / "after")
    said: list[str] = []
    result = build(after / "inputs", after / "outputs", TODAY, progress=Messages(said.append))
    assert result.ok and "1 PDF à produire" in said  # the new bulletin, nothing else (issue 27)
    outputs = snapshot(after / "outputs")
    rendered = {outputs[name].decode("utf-8"): outputs[name.removesuffix(".html") + ".pdf"] for name in outputs
                if name.endswith(".html") and name.startswith("grand-sud/")}
    return before, outputs, rendered


@pytest.fixture
def league(reference, tmp_path):
    """A fresh copy of the league with the new tournament, not built yet."""
    return copy_league(reference[0], tmp_path / "league")


@pytest.fixture
def cached_pdfs(reference, monkeypatch):
    """Builds in this process take the reference's PDFs instead of rendering them again (the
    bytes are the same: tests/test_outputs.py checks the renders are deterministic)."""
    monkeypatch.setattr(pdf_render, "render_pdf", lambda page, day=None, templates=None: reference[2][page])
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        reference[2][page] for page, _ in pages])


@pytest.fixture
def pdf_cache(reference, tmp_path) -> Path:
    """The reference's PDFs in a file, for the real processes below: they publish, and fail, as
    reportgen does, without rendering again what the reference rendered."""
    import pickle

    path = tmp_path / "pdfs.pickle"
    path.write_bytes(pickle.dumps(reference[2]))
    return path


WITH_CACHED_PDFS = """
import pickle, sys
from reportgen.render import pdf
cache = pickle.load(open(sys.argv.pop(1), "rb"))
pdf.render_pdf = lambda page, day=None, templates=None: cache[page]
pdf.render_many = lambda pages, workers=2, progress=None: [cache[page] for page, _ in pages]
"""

REPORTGEN_WITH_CACHED_PDFS = WITH_CACHED_PDFS + """
from reportgen.cli import main
sys.argv[0] = "reportgen"
main()
"""


def reportgen(cache: Path, *arguments, prefix: tuple[str, ...] = (), cwd: Path | None = None):
    """`reportgen ARGUMENTS` as a real process (its messages, its exit code), PDFs from the cache."""
    return subprocess.run([*prefix, sys.executable, "-c", REPORTGEN_WITH_CACHED_PDFS, cache, *map(str, arguments)],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def temporaries(outputs: Path) -> list[str]:
    return sorted(p.relative_to(outputs).as_posix() for p in outputs.rglob("*")
                  if p.name.endswith(".tmp") or p.name == output_files.JOURNAL)


# -- kill -9 in the middle of a publication --------------------------------------------------------

KILLED_AT = WITH_CACHED_PDFS + """
import datetime as dt, os, signal, sys
from pathlib import Path
from reportgen.render import files
from reportgen.pipeline import build

inputs, outputs, operation, at = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
real = getattr(files, operation)
count = 0

def killing(*args):
    global count
    count += 1
    if count == at:  # a real SIGKILL: no handler, no clean-up, the process is gone
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args)

setattr(files, operation, killing)
build(inputs, outputs, dt.date(2026, 11, 29))
print("not killed")
"""


@pytest.mark.parametrize("operation, at", [
    ("_write", 2),  # while the new files are being written, before the commit
    ("_rename", 1),  # the journal's own rename: the commit point
    ("_rename", 3),  # after the commit, halfway through the renames
], ids=["writing", "committing", "renaming"])
def test_a_kill_9_mid_publish_leaves_no_stale_pdf(reference, league, pdf_cache, cached_pdfs, operation, at):
    """The issue's case: after a kill -9 at the wrong moment the next build kept the old PDF for
    good (its HTML was new already). Now the next build ends exactly as a clean one."""
    done = subprocess.run([sys.executable, "-c", KILLED_AT, pdf_cache, league / "inputs", league / "outputs", operation,
                           str(at)], capture_output=True, text=True, timeout=300)
    assert done.returncode == -9 and "not killed" not in done.stdout, done.stderr
    result = build(league / "inputs", league / "outputs", TODAY)
    assert result.ok
    assert snapshot(league / "outputs") == reference[1]
    assert temporaries(league / "outputs") == []


# -- a full disk, read-only outputs ----------------------------------------------------------------

def test_a_full_disk_at_each_write_publishes_nothing_and_names_the_folder(reference, league, cached_pdfs,
                                                                         monkeypatch):
    """An OSError (ENOSPC) injected at the 1st, 2nd... write of the build, in turn: the circuit
    keeps its previous publication, byte for byte, and no temporary file is left. Injected after
    (the secretary's page, the site's folder, the home page: the last write), the circuit is
    published, and the site's folder and each page are the previous ones or the new ones, never a mix."""
    outputs = league / "outputs"
    before = snapshot(outputs)
    real = output_files._write
    writes = 0

    def counting(stream, data):
        nonlocal writes
        writes += 1
        return real(stream, data)

    monkeypatch.setattr(output_files, "_write", counting)
    scratch = copy_league(league, league.parent / "scratch")
    pristine = copy_league(league, league.parent / "pristine")
    build(scratch / "inputs", scratch / "outputs", TODAY)
    total = writes
    assert total >= 8  # manifest, HTML, PDF, 2 CSV (the new and the final), annex, journal, index
    for at in range(1, total + 1):
        count = 0
        # A fault after the circuit's publication leaves it published: each fault starts from the same outputs.
        shutil.rmtree(outputs)
        shutil.copytree(pristine / "outputs", outputs)

        def failing(stream, data):
            nonlocal count
            count += 1
            if count == at:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(stream, data)

        monkeypatch.setattr(output_files, "_write", failing)
        with pytest.raises(OutputError) as failure:
            build(league / "inputs", outputs, TODAY)
        folder = str(failure.value).split(" : ")[0]
        assert folder in (str(outputs), str(outputs / "grand-sud"), str(outputs / "site")), at
        what = "le fichier précédent est intact" if folder == str(outputs) else "rien n’y a été publié à moitié"
        assert str(failure.value) == (f"{folder} : impossible d’écrire dans ce dossier, le disque est plein ; {what} "
                                      "— libérez de la place sur le disque, puis relancez la commande")
        assert temporaries(outputs) == []
        now = snapshot(outputs)
        if folder == str(outputs / "grand-sud"):
            assert now == before, at
        else:
            assert part(now, "grand-sud/") == part(reference[1], "grand-sud/"), at
            assert part(now, "site/") in (part(before, "site/"), part(reference[1], "site/")), at
            for name in ("index.html", "verification.html"):
                assert now.get(name) in (before.get(name), reference[1][name]), (at, name)
    assert at == total and folder == str(outputs)  # the home page is the last write
    monkeypatch.setattr(output_files, "_write", real)
    assert build(league / "inputs", outputs, TODAY).ok
    assert snapshot(outputs) == reference[1]


def part(files: dict[str, bytes], prefix: str) -> dict[str, bytes]:
    return {name: data for name, data in files.items() if name.startswith(prefix)}


def mount_tmpfs(folder: Path, size: str) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", folder],
                          capture_output=True).returncode == 0


def test_a_really_full_disk(reference, league, pdf_cache, cached_pdfs, tmp_path):
    """A real ENOSPC: the outputs on a small tmpfs, filled up but for a few kilobytes (where the
    machine lets the tests mount one; the injected faults above cover every write anyway)."""
    disk = tmp_path / "disk"
    if not mount_tmpfs(disk, "4m"):
        pytest.skip("mounting a tmpfs is not allowed here")
    try:
        shutil.copytree(league / "outputs", disk / "outputs")
        free = shutil.disk_usage(disk).free
        (disk / "filler").write_bytes(b"\0" * (free - 32 * 1024))  # less room than the new PDF needs
        before = snapshot(disk / "outputs")
        done = reportgen(pdf_cache, "build", "--inputs", league / "inputs", "--outputs", disk / "outputs", cwd=disk)
        assert done.returncode == 4, done.stderr
        assert done.stderr.splitlines()[-1] == (
            f"{disk}/outputs/grand-sud : impossible d’écrire dans ce dossier, le disque est plein ; rien n’y a été "
            "publié à moitié — libérez de la place sur le disque, puis relancez la commande")
        assert "Traceback" not in done.stderr and "Errno" not in done.stderr
        assert snapshot(disk / "outputs") == before and temporaries(disk / "outputs") == []
        (disk / "filler").unlink()
        assert build(league / "inputs", disk / "outputs", TODAY).ok
        assert snapshot(disk / "outputs") == reference[1]
    finally:
        subprocess.run(["umount", "-l", disk], capture_output=True)


@pytest.fixture
def small_disk(tmp_path):
    """A real 1 MB file system (a tmpfs), unmounted after the test; skipped where mounting is not allowed."""
    disk = tmp_path / "small-disk"
    if not mount_tmpfs(disk, "1m"):
        pytest.skip("mounting a tmpfs is not allowed here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", disk], capture_output=True)


def blank_workbook_into(outputs: Path, tmp_path: Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """`reportgen template grand-sud`, a real process writing one workbook into `outputs`."""
    (tmp_path / "inputs").mkdir(exist_ok=True)
    return subprocess.run([*prefix, REPORTGEN, "template", "grand-sud", "--inputs", tmp_path / "inputs",
                           "--outputs", outputs], capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_a_full_disk_is_a_fault_of_the_machine_exit_4(small_disk, tmp_path):
    free = shutil.disk_usage(small_disk).free
    (small_disk / "filler").write_bytes(b"\0" * free)
    done = blank_workbook_into(small_disk / "outputs", tmp_path)
    assert done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"{small_disk}/outputs/modeles : impossible d’écrire dans ce dossier, le disque est plein ; le fichier "
        "précédent est intact — libérez de la place sur le disque, puis relancez la commande")
    assert "Traceback" not in done.stderr


def test_a_read_only_file_system_is_a_fault_of_the_machine_exit_4(small_disk, tmp_path):
    assert subprocess.run(["mount", "-o", "remount,ro", small_disk], capture_output=True).returncode == 0
    done = blank_workbook_into(small_disk / "outputs", tmp_path)  # root too: EROFS, not a permission bit
    assert done.returncode == 4, done.stderr
    assert "le dossier est en lecture seule ou protégé en écriture" in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr and list(small_disk.iterdir()) == []


def test_an_archive_on_a_read_only_file_system_exits_4_naming_the_folder(small_league_copy, small_disk):
    """A write outside write_atomic (the archive's folder, made by the database's connection): the
    machine's refusal is said as the outputs' are, exit 4, not « erreur interne » (3)."""
    assert subprocess.run(["mount", "-o", "remount,ro", small_disk], capture_output=True).returncode == 0
    done = subprocess.run([REPORTGEN, "archive", "--season", "2025", "--inputs", small_league_copy.inputs,
                           "--outputs", small_league_copy.outputs, "--archive", small_disk / "archive"],
                          capture_output=True, text=True, timeout=300, cwd=small_league_copy.inputs.parent)
    assert done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"{small_disk} : impossible d’écrire dans ce dossier, le dossier est en lecture seule ou protégé en écriture ; "
        "la commande s’est arrêtée — donnez le droit d’écriture sur ce dossier, ou indiquez-en un autre")
    assert "Traceback" not in done.stderr and "erreur interne" not in done.stderr


def calendar(inputs: Path, place: str) -> None:
    """calendrier.xlsx announcing the Grand Sud's final at `place`: another place is a revision to keep."""
    write_workbook(inputs / "calendrier.xlsx", {"Calendrier": [
        ["Date", "Circuit", "Club", "Nom", "Lieu"], ["12/12/2026", "grand-sud", "", "Finale", place]]})


def test_a_calendar_whose_revisions_the_archive_cannot_keep_exits_4_naming_the_archive(small_league_copy, small_disk):
    """`reportgen build` keeps the revisions of calendrier.ics's events in archive/ (pipeline/calendar.py
    `Revisions`): an archive the machine does not let it write is said as the outputs' are, with the
    option that names it, exit 4; calendrier.ics is not published without its revisions kept. The
    rest is: the site, verification.html (a new tournament's bulletin was published and the home page
    did not show it), the state is not recorded, and the next build, archive/ writable again, writes
    the calendar one revision higher."""
    league, archive = small_league_copy, small_disk / "archive"

    def reportgen_build() -> subprocess.CompletedProcess:
        return subprocess.run([REPORTGEN, "build", "--inputs", league.inputs, "--outputs", league.outputs,
                               "--archive", archive], capture_output=True, text=True, timeout=300,
                              cwd=league.inputs.parent)

    calendar(league.inputs, "Albi")
    assert reportgen_build().returncode == 0
    published = (league.outputs / "calendrier.ics").read_bytes()
    assert b"SEQUENCE:0" in published and b"LOCATION:Albi" in published
    page = (league.outputs / "verification.html").read_bytes()
    bulletin = 'href="grand-sud/2026/classement-2026-03-01.html"'  # the new tournament's, new_tournament
    assert bulletin not in (league.outputs / "index.html").read_text()
    # archive/ read-only (a real read-only file system: root too gets EROFS), a Lieu changed and a new tournament
    assert subprocess.run(["mount", "-o", "remount,ro", small_disk], capture_output=True).returncode == 0
    calendar(league.inputs, "Castres")
    new_tournament(league.inputs)
    done = reportgen_build()
    assert done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"{archive} : impossible d’écrire dans ce dossier, le dossier est en lecture seule ou protégé en "
        "écriture ; calendrier.ics n’a pas été mis à jour — donnez le droit d’écriture sur ce dossier, ou indiquez-en "
        "un autre avec --archive")
    assert "Traceback" not in done.stderr and "calendrier.ics à jour" not in done.stderr
    assert (league.outputs / "calendrier.ics").read_bytes() == published  # the subscribers' file stays
    home = (league.outputs / "index.html").read_text()
    assert (league.outputs / "grand-sud/2026/classement-2026-03-01.pdf").is_file() and bulletin in home
    assert (league.outputs / "verification.html").read_bytes() != page
    # archive/ writable again: the state was not recorded, the next build writes the calendar
    assert subprocess.run(["mount", "-o", "remount,rw", small_disk], capture_output=True).returncode == 0
    done = reportgen_build()
    assert done.returncode == 0, done.stderr
    assert "calendrier.ics à jour" in done.stderr and "rien n’a changé" not in done.stderr
    revised = (league.outputs / "calendrier.ics").read_bytes()
    assert b"SEQUENCE:1" in revised and b"LOCATION:Castres" in revised
    assert (league.outputs / "index.html").read_text() == home


def test_a_build_refused_after_its_publication_says_its_summary_before_the_error(small_league_copy, small_disk):
    """Exit 4 once the circuits are published (archive/ read-only: calendrier.ics's revisions cannot be
    kept): the terminal says what a normal end says, the build's warnings and « publié » lines (as
    verification.html does), then the machine's refusal and its fix, last."""
    league, archive = small_league_copy, small_disk / "archive"
    command = [REPORTGEN, "build", "--inputs", league.inputs, "--outputs", league.outputs, "--archive", archive]
    calendar(league.inputs, "Albi")
    assert subprocess.run(command, capture_output=True, timeout=300, cwd=league.inputs.parent).returncode == 0
    assert subprocess.run(["mount", "-o", "remount,ro", small_disk], capture_output=True).returncode == 0
    # the final's place changed (a revision to keep in archive/), a new tournament whose third player
    # has no Prénom: a warning, its tournament published
    calendar(league.inputs, "Castres")
    write_tournament(league.inputs, "2026-03-01-albi", day="01/03/2026", club="ALBI", results=[
        [1, "DURAND", "Anne", "", "Toulouse"], [2, "MARTIN", "Paul", "1002", "Albi"], [3, "SANSPRENOM", "", "", "Albi"]])
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=league.inputs.parent)
    assert done.returncode == 4, done.stderr
    lines = done.stderr.splitlines()
    assert lines[-1] == (
        f"{archive} : impossible d’écrire dans ce dossier, le dossier est en lecture seule ou protégé en "
        "écriture ; calendrier.ics n’a pas été mis à jour — donnez le droit d’écriture sur ce dossier, ou indiquez-en "
        "un autre avec --archive")
    published = lines.index(f"grand-sud : publié dans {league.outputs / 'grand-sud'}")
    warning = next(n for n, line in enumerate(lines) if line.startswith("1 avertissement (rien n’est bloqué"))
    assert warning < published < len(lines) - 1
    assert "SANSPRENOM" in "\n".join(lines[warning:published])
    assert "SANSPRENOM" in (league.outputs / "verification.html").read_text()


@pytest.mark.skipif(not Path("/usr/bin/prlimit").exists(), reason="prlimit (util-linux) is needed")
def test_a_file_larger_than_the_system_allows_is_a_fault_of_the_machine_exit_4(tmp_path):
    # RLIMIT_FSIZE of 4 KB: the workbook's write fails with EFBIG (the signal it would raise is
    # ignored by Python), on any machine, without mounting anything.
    done = blank_workbook_into(tmp_path / "outputs", tmp_path, prefix=("prlimit", "--fsize=4096"))
    assert done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"{tmp_path}/outputs/modeles : impossible d’écrire dans ce dossier, un fichier dépasse la taille")
    assert "Traceback" not in done.stderr
    assert [p.name for p in (tmp_path / "outputs" / "modeles").iterdir()] == []  # no temporary file left


@pytest.mark.skipif(not Path("/usr/bin/setpriv").exists(), reason="setpriv (util-linux) is needed")
def test_read_only_outputs(reference, league, pdf_cache):
    """A real EACCES: the circuit's folders made read-only, reportgen run as a real process without
    root's right to write anywhere (setpriv drops CAP_DAC_OVERRIDE: the tests run as root)."""
    outputs = league / "outputs"
    before = snapshot(outputs)
    folders = [outputs / "grand-sud", *(p for p in (outputs / "grand-sud").rglob("*") if p.is_dir())]
    for folder in folders:
        folder.chmod(0o555)
    try:
        done = reportgen(pdf_cache, "build", "--inputs", league / "inputs", "--outputs", outputs, cwd=league,
                         prefix=("setpriv", "--bounding-set", "-dac_override,-dac_read_search"))
    finally:
        for folder in folders:
            folder.chmod(0o755)
    assert done.returncode == 4, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"{outputs}/grand-sud : impossible d’écrire dans ce dossier, le dossier est en lecture seule ou protégé en "
        "écriture ; rien n’y a été publié à moitié — donnez le droit d’écriture sur ce dossier, ou indiquez-en un autre "
        "avec --outputs")
    assert "PermissionError" not in done.stderr and "Traceback" not in done.stderr
    assert snapshot(outputs) == before and temporaries(outputs) == []


def test_a_file_where_the_outputs_folder_should_be(league, cached_pdfs):
    outputs = league / "outputs"
    shutil.rmtree(outputs)
    outputs.write_bytes(b"not a folder")
    with pytest.raises(OutputError) as failure:
        build(league / "inputs", outputs, TODAY)
    assert str(failure.value) == (
        f"{outputs}/grand-sud : impossible d’écrire dans ce dossier, un fichier y porte le nom d’un dossier attendu "
        "(ou l’inverse) ; rien n’y a été publié à moitié — renommez ou déplacez ce fichier, ou indiquez un autre "
        "dossier avec --outputs")
    assert outputs.read_bytes() == b"not a folder"


# -- leftovers, and the proof a reused PDF needs ---------------------------------------------------

def test_leftover_temporary_files_are_removed_by_the_next_build(reference, league, cached_pdfs):
    outputs = league / "outputs"
    for name in ("grand-sud/2026/.classement-final-2026.pdf.k2j3h4.tmp", "grand-sud/.publications.json.x1.tmp",
                 ".index.html.abc.tmp"):
        (outputs / name).write_bytes(b"half")
    assert build(league / "inputs", outputs, TODAY).ok
    assert snapshot(outputs) == reference[1] and temporaries(outputs) == []


def test_a_publication_stopped_before_its_commit_is_rolled_back_at_once(reference, league, cached_pdfs,
                                                                            monkeypatch):
    """Stopped (here by an exception) after its files are written, before the journal: nothing shows."""
    outputs = league / "outputs"
    before = snapshot(outputs)
    real = output_files._rename

    def stop(source, target):
        raise KeyboardInterrupt  # stops this process between the staged files and the commit

    monkeypatch.setattr(output_files, "_rename", stop)
    with pytest.raises(KeyboardInterrupt):
        build(league / "inputs", outputs, TODAY)
    monkeypatch.setattr(output_files, "_rename", real)
    assert snapshot(outputs) == before and temporaries(outputs) == []  # rolled back at once


def test_a_stale_pdf_next_to_new_html_is_rendered_again(reference, league, cached_pdfs):
    """What the old code left after a fault: the new HTML on disk, the old PDF next to it. Equal
    HTML no longer means the PDF matches: the manifest's record (old) says it does not."""
    outputs = league / "outputs"
    for name, data in reference[1].items():
        if name.endswith(".html") and name != "index.html":
            (outputs / name).write_bytes(data)
    # The new tournament changes no bulletin already published (issue 27): the stale PDF is an old
    # one beside the new bulletin's HTML.
    stale = outputs / "grand-sud" / "2026" / "classement-2026-03-01.pdf"
    stale.write_bytes((outputs / "grand-sud" / "2026" / "classement-2026-01-10.pdf").read_bytes())
    result = build(league / "inputs", outputs, TODAY)
    assert "grand-sud/2026/classement-2026-03-01.pdf" in [p.relative_to(outputs).as_posix()
                                                          for p in result.published["grand-sud"]]
    assert snapshot(outputs) == reference[1]


def test_a_changed_render_fingerprint_renders_every_pdf_again(reference, league, cached_pdfs, monkeypatch):
    """HarfBuzz-Subset installed, a library upgraded: no PDF made before is kept next to new ones."""
    outputs = league / "outputs"
    assert build(league / "inputs", outputs, TODAY).ok
    said: list[str] = []
    rendered: list[str] = []
    monkeypatch.setattr(pdf_render, "render_many", lambda pages, workers=2, progress=None: [
        rendered.append(page) or b"%PDF" for page, _ in pages])
    html_render.render_fingerprint.cache_clear()
    real = html_render._native_libraries
    monkeypatch.setattr(html_render, "_native_libraries", lambda: real().replace("subset harfbuzz-subset",
                                                                                 "subset fonttools"))
    try:
        build(league / "inputs", outputs, TODAY, progress=Messages(said.append))
    finally:
        html_render.render_fingerprint.cache_clear()
    documents = [p for p in reference[1] if p.startswith("grand-sud/") and p.endswith(".pdf")]
    assert f"{len(documents)} PDF à produire" in said and len(rendered) == len(documents)
    assert all("subset fonttools" in page for page in rendered)


def test_the_render_fingerprint_names_the_subsetting_path_and_the_native_libraries():
    fingerprint = html_render.render_fingerprint()
    assert " pango " in fingerprint and " harfbuzz " in fingerprint
    assert (" subset harfbuzz-subset;" in fingerprint) or (" subset fonttools;" in fingerprint)
    from weasyprint.pdf import fonts  # what WeasyPrint itself found

    uses_harfbuzz = fonts.harfbuzz_subset is not None and fonts.harfbuzz.hb_version_atleast(4, 1, 0)
    assert (" subset harfbuzz-subset;" in fingerprint) == bool(uses_harfbuzz)


RENDER_IN_ONE_WORKER = """
import datetime as dt, hashlib, json, sys
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from reportgen.render.pdf import render_pdf

pages = json.load(open(sys.argv[1], encoding="utf-8"))
day = dt.date(2026, 3, 1)
with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as worker:
    alone = worker.submit(render_pdf, pages[0], day).result()  # the worker's first document
    for page in pages[1:]:
        worker.submit(render_pdf, page, day).result()
    after = worker.submit(render_pdf, pages[0], day).result()  # the same, after others
print(hashlib.sha256(alone).hexdigest(), hashlib.sha256(after).hexdigest())
"""


def test_a_pdf_rendered_alone_or_after_others_in_one_worker_is_the_same(reference, tmp_path):
    """Fonts subset per document, nothing carried from one to the next in a worker of the pool."""
    import json

    outputs = reference[1]
    pages = [outputs[name].decode("utf-8") for name in ("grand-sud/2025/classement-2025-06-01.html",
                                                         "grand-sud/2026/classement-2026-03-01.html")]
    (tmp_path / "pages.json").write_text(json.dumps(pages), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", RENDER_IN_ONE_WORKER, tmp_path / "pages.json"], capture_output=True,
                          text=True, timeout=300, check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    alone, after_others = done.stdout.split()
    assert alone == after_others


def test_a_build_stopped_while_its_pdfs_render_leaves_the_previous_publication(reference, league, monkeypatch):
    """The circuits' files are staged on disk as they are made (render/staging.py): when the PDFs
    start, the new bulletin's HTML is already a temporary file, not yet published; a stop then
    (Ctrl-C) removes every staged file and leaves outputs/ as it was."""
    outputs = league / "outputs"
    before = snapshot(outputs)
    staged: list[str] = []

    def stop(pages, *args, **kwargs):
        staged.extend(temporaries(outputs))
        raise KeyboardInterrupt

    monkeypatch.setattr(pdf_render, "render_many", stop)
    with pytest.raises(KeyboardInterrupt):
        build(league / "inputs", outputs, TODAY)
    assert any(name.startswith("grand-sud/2026/.classement-2026-03-01.html.") for name in staged), staged
    assert snapshot(outputs) == before and temporaries(outputs) == []
