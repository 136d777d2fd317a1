"""The `reportgen` command: build, check, standings, circuits.

Exit codes: 0 all went well, 1 the inputs have problems (each printed with its file and cell),
2 the command was mistyped or asks for what the league has not yet (no workbook at fault: the line
says what to do), 3 reportgen itself failed (run again with --debug for the details),
4 the machine refused to write (disk full, read-only folder, permission: the folder is named).
Warnings (problems that block nothing, model.Level: a club's bad e-mail address) are printed but
leave `build` and `check` at 0; `mail` exits 1 when a club with ranked players got no message
because of one, after drafting (or sending) every other club's.
Heavy libraries are imported inside the commands that need them, so `--help` answers at once.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from reportgen import circuits, cli_french, clock, french
from reportgen.cli_support import (
    InputsOption,
    date_option,
    err,
    holding_workbooks,
    listed,
    names_nothing,
    print_problems,
    unknown_circuit,
)
from reportgen.commands.delivery_options import ArchiveOption
from reportgen.model import Mistyped, ReportgenError, ScopeKind

if TYPE_CHECKING:
    from collections.abc import Callable

    from reportgen.ingest.file_hashes import FileHashes
    from reportgen.pipeline.loading import League

# imported before anything imports multiprocessing: its exit hook then runs after multiprocessing's
# own, which empties this process's temporary folder (render/scratch.py `_at_exit`)
from reportgen.render import scratch  # noqa: F401

cli_french.install()  # help, usage and usage errors in French
# The circuits installed packages declare (entry points), registered before the commands whose help
# names circuits by what their info says (`standings --event`).
circuits.load_plugins()
app = typer.Typer(
    help="Bulletins de classement (HTML, PDF) et annexes Excel à partir des classeurs des clubs.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
state = {"debug": False}

@app.callback()
def main_options(
    debug: Annotated[bool, typer.Option("--debug", help="Afficher le détail technique d’une erreur.")] = False,
) -> None:
    state["debug"] = debug


@app.command()
def build(
    inputs: InputsOption = Path("inputs"),
    outputs: Annotated[Path, typer.Option("--outputs", help="Dossier où écrire bulletins et annexes.")] = Path("outputs"),
    archive: ArchiveOption = Path("archive"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Ne rien afficher pendant la construction : seulement "
                                        "les problèmes, les notes et les erreurs.")] = False,
) -> None:
    """Construire tous les bulletins et annexes (ce que lance « make »)."""
    from reportgen.commands.progress import BuildProgress
    from reportgen.delivery.archive_key import read_by_build
    from reportgen.delivery.archive_layout import CALENDAR_REVISIONS
    from reportgen.delivery.filers import filed_senders
    from reportgen.delivery.seasons import put_together
    from reportgen.ingest.file_hashes import FileHashes
    from reportgen.ingest.read_cache import ReadCache
    from reportgen.pipeline import build as run_build
    from reportgen.pipeline import unchanged
    from reportgen.render import changes
    from reportgen.render.cache import code_fingerprint

    holding_workbooks(inputs)
    # A progress bar in a terminal; plain lines in a pipe or a CI log; nothing with --quiet.
    # The league put together stays open until its problems are said: those of a workbook put back
    # from the archive name it there (delivery/seasons.py).
    with ExitStack() as stack:
        with BuildProgress(quiet) as progress:
            # inputs/ and archive/ as the last build found them: nothing to read, put back or write.
            origin = [inputs, archive] if archive.is_dir() else None
            # One instance for the whole command: a file hashed to compare the folders is not hashed
            # again by the build (an archived season's workbooks, hashed for the key, checked when put
            # back and when the site reads them).
            hashes = FileHashes(outputs)
            result = unchanged(origin, outputs, progress=progress, hashes=hashes) if origin else None
            if result is None:
                # A Grand Sud season needs the one before: read from the archive when it has left inputs/.
                # inputs/ read to know its seasons through the build's read cache, then the folder put
                # together built with it and its digests: each workbook parsed once, the copy not hashed.
                reads = ReadCache(outputs, code_fingerprint())
                # What it says (a season read from the archive) among the build's notes: on
                # verification.html too, and said again by a build that changes nothing.
                said: list[str] = []
                league = put_together(inputs, archive, say=said.append, missing=True, reads=reads, hashes=hashes)
                folder, digests, _ = stack.enter_context(league)  # its workbooks named in the archive until said
                # the club whose message filed each workbook, as `inbox` matched it with the calendar
                senders = filed_senders(archive, folder, digests, hashes)
                # what the site reads of archive/ (its seasons' rows, their copies), in the league's key:
                # its database by those rows alone, not by the mails sent and messages filed
                read = read_by_build(archive, outputs, hashes) if origin else None
                # The archive's seasons read (and scored again) for the site only when its pages are
                # made, while the PDFs render: not on the way to the first PDF.
                # calendrier.ics's revisions kept in archive/, which `make clean` keeps (archive_layout.py)
                result = run_build(folder, outputs, progress=progress, warm_pdf_workers=True, origin=origin,
                                   archived=lambda hashes, say: _archived_for_the_site(archive, outputs, hashes, say),
                                   hashes=hashes, reads=reads, digests=digests, said=said,
                                   calendar_revisions=archive / CALENDAR_REVISIONS, refusal_returned=True,
                                   senders=senders, archive_read=read)
        print_problems(result.warnings + result.problems, result.notices)
    for slug, files in result.published.items():
        if not quiet:  # after « rien n'a changé … aucun fichier réécrit », not « publié »
            err(f"{slug} : {'à jour' if result.unchanged else 'publié'} dans {outputs / slug}")
    # What was already sent never changes silently: each correction named, to send again; a new
    # layout of the same results said in one line (render/changes.py `relaid`).
    # Each line says its date, and a final ranking whose date moved the one it was sent with
    # (render/changes.py `_final_changed`): not « pour la même date », untrue of that one. A document
    # withdrawn (a season opened again, a workbook removed), or back as it was, under its own heading.
    for kind in (changes.CHANGED, changes.WITHDRAWN, changes.RESTORED):
        if found := changes.listed(result.republished, kind):
            listed(changes.heading(kind, len(found)), found)
    if relaid := changes.relaid(result.republished):
        err(relaid)
    # A write the machine refused once the rest was published (archive/ read-only): said last, after
    # what a normal end says (verification.html says it too), with its fix; exit 4 (main).
    if result.refused is not None:
        raise result.refused
    if not result.ok:
        raise typer.Exit(1)


def _archived_for_the_site(archive: Path, outputs: Path, hashes: FileHashes,
                           say: Callable[[str], None]) -> dict[str, list[dict]]:
    """The archived seasons' rankings for the website's pages, with the build's file hashes and its
    notes (`say`: a season shown without its points, a workbook no longer the archived one); none,
    said once among those notes (standard error, verification.html, a skipped build's replay), when
    the archive's database cannot be read (the build itself does not need it). The archived
    workbooks' sheets kept in outputs/.reportgen/archive-reads: the next build opens none it knows;
    the records and their notes in outputs/.reportgen/archive-site, by the key of every file of
    archive/: the next build with nothing changed there neither reads nor scores its seasons."""
    from reportgen.delivery.database import DatabaseUnusable
    from reportgen.delivery.site_archive import archived_rankings
    from reportgen.delivery.site_archive_kept import KeptRankings
    from reportgen.ingest.read_cache import ARCHIVE_READS, ReadCache
    from reportgen.render.cache import code_fingerprint

    if not archive.is_dir():
        return {}
    kept = KeptRankings(outputs, archive, hashes)
    found = kept.replayed(say)
    if found is not None:
        return found
    reads = ReadCache(outputs, code_fingerprint(), ARCHIVE_READS)
    try:
        found = archived_rankings(archive, kept.noting(say), hashes, reads)
    except DatabaseUnusable as error:
        say(f"le site ne montre pas les saisons archivées : {error}")
        return {}
    reads.save()  # what could not be written is read again next time
    kept.save(found)
    return found


class CheckFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def check(
    inputs: InputsOption = Path("inputs"),
    outputs: Annotated[Path, typer.Option("--outputs", help="Dossier où écrire verification.html.")] = Path("outputs"),
    format: Annotated[CheckFormat, typer.Option("--format", help="text ou json.")] = CheckFormat.text,
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Vérifier les classeurs sans rien publier, et lister tous les problèmes (et outputs/verification.html)."""
    from reportgen import queries
    from reportgen.commands.inbox import waiting_for_you
    from reportgen.delivery.filers import filed_senders
    from reportgen.delivery.seasons import put_together
    from reportgen.ingest.file_hashes import FileHashes
    from reportgen.pipeline import load, score
    from reportgen.pipeline.calendar import over_their_days, with_results_awaited
    from reportgen.render import verification
    from reportgen.render.files import write_atomic
    from reportgen.render.html import publish_fonts

    holding_workbooks(inputs)
    # What putting the league together says (a season read from the archive, or found nowhere) among
    # the notes, as `build` lists it; open until all is said: a workbook put back is named there.
    said: list[str] = []
    hashes = FileHashes(None)  # a workbook put back from the archive, hashed there, is not hashed again
    with put_together(inputs, archive, say=said.append, missing=True, hashes=hashes) as (folder, digests, put_back):
        league = load(folder, senders=filed_senders(archive, folder, digests, hashes))
        # Scoring finds what only the whole league shows (a Masters pairing against the participants).
        scored = score(league)
        problems = queries.sorted_problems(set(league.all_problems()).union(*scored.blocked.values(), league.warnings))
        # as the build says them: a pool tournament past its Fin, its results (or the rest) awaited
        notices = said + league.notices + with_results_awaited(
            [n for report in scored.reports.values() for n in report.notices],
            over_their_days(league.calendar, scored.reports), league.reading, league.settings.calendar.remind_after_days,
            league.announced)
        changing = _changing_finals(outputs, folder, league, hashes, put_back)
        notices += changing
        # said beside the count of problems, on the page and in the last line: a note alone went unseen
        changes_a_final = (f"{french.plural(len(changing), 'classeur')} {'changent' if len(changing) > 1 else 'change'} "
                           "un classement final déjà publié") if changing else ""
        page = verification.render_page(problems, notices, league.settings.name, french.date_long(clock.today()),
                                        held=[circuits.REGISTRY[slug].title for slug in scored.blocked],
                                        changing=changes_a_final)
        publish_fonts(outputs)  # the page's fonts, named relative to it
        write_atomic(outputs / verification.VERIFICATION_PAGE, page.encode("utf-8"))
        if format is CheckFormat.json:
            typer.echo(verification.to_json(problems, notices))
        else:
            print_problems(problems, notices)
            waiting_for_you(archive, inputs)
    events = [event.id for found in league.circuits.values() for event in found.events]
    if any(problem.blocking for problem in problems):
        raise typer.Exit(1)
    if format is CheckFormat.text:  # warnings alone block nothing: exit 0
        archived = sum(event in put_back for event in events)  # its id is its workbook's label
        read = f"{french.plural(len(events), 'tournoi')} lu{'s' if len(events) > 1 else ''}" + (
            f", dont {archived} de l’archive" if archived else "")
        # what a build would change of a final ranking already sent, said in the last line she reads
        but = f", mais {changes_a_final} (voir la note)" if changing else ""
        typer.echo(f"{read}, aucun problème bloquant ({french.plural(len(problems), 'avertissement')}){but}."
                   if problems else f"{read}, aucun problème{but}.")


def _changing_finals(outputs: Path, inputs: Path, league: League, hashes: FileHashes,
                     put_back: dict[str, str]) -> list[str]:
    """The workbooks that change a final ranking already published (render/changes.py
    `final_changes`), said before the build publishes it: a year mistyped (21/11/2025 for 2026)
    changed the 2025 final ranking with « aucun problème ». Each at the cell of its `Tournoi` sheet's
    date (`League.dates`, said by `model.in_sheet` as a problem's place is). `put_back`: the workbooks of a season read from
    the archive, by label, their place there, which `hashes` hashed putting them back."""
    from reportgen.model import SourceRef
    from reportgen.pipeline.loading import closed_before
    from reportgen.render.changes import FINAL_FIX, final_changes

    # one dated after its season's closing day changes nothing: it is refused (`season-closed`)
    events = {slug: [event for event in found.events if closed_before(slug, event, league.reading.closed) is None]
              for slug, found in league.circuits.items()}
    final = [slug for slug, info in circuits.REGISTRY.items() if info.final_when_closed]

    def digest(label: str) -> str | None:
        try:
            return hashes.digest(put_back.get(label) or inputs / label)
        except OSError:
            return None

    changing = final_changes(outputs, inputs, events, final, digest)
    return [f"{slug} : {league.dates.get(event.id) or SourceRef(event.id)} (« {event.name} ») : {changing[event.id]} — "
            f"{FINAL_FIX} ; sinon, une fois « make » lancé, renvoyez ce classement aux clubs"
            for slug, its in events.items() for event in its if event.id in changing]


class Format(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


def _event_circuits() -> list[str]:
    """The circuits whose events have standings of their own (`standings --event`), as their info says."""
    return [slug for slug, info in circuits.REGISTRY.items() if info.event_rankings]


@app.command()
def standings(
    circuit: Annotated[str, typer.Argument(help="Le circuit (« reportgen circuits » les liste).")],
    season: Annotated[Optional[int], typer.Option(help="La saison (par défaut la dernière).")] = None,
    at: Annotated[Optional[str], typer.Option("--at", help="Le classement en vigueur à cette date (jj/mm/aaaa).")] = None,
    final: Annotated[bool, typer.Option("--final", help="Le classement final de la saison ; pour un circuit sans classement de "
                                        "saison, celui du dernier tournoi fini (par défaut : le dernier publié).")] = False,
    event: Annotated[Optional[str], typer.Option("--event", help=(
        "Le classement d’un tournoi, par son nom (champ Nom de la feuille Tournoi) : circuits "
        f"{', '.join(_event_circuits())} (les tournois des autres comptent dans le classement de la saison : "
        "voir --at)."))] = None,
    format: Annotated[Format, typer.Option("--format", help="table, csv ou json.")] = Format.table,
    inputs: InputsOption = Path("inputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Afficher un classement : celui d’une saison, ou celui d’un tournoi (--event)."""
    from reportgen import queries

    day = date_option(at, "--at")
    if final and day is not None:
        raise typer.BadParameter("choisissez --final ou --at, pas les deux", param_hint="--final")
    if event is not None and (final or day is not None):
        raise typer.BadParameter("--event donne le classement d’un tournoi : sans --final ni --at", param_hint="--event")
    # A circuit whose events have no standings of their own names none with --event, whatever its
    # workbooks (no need to read them): its tournaments count in the season's ranking.
    if event is not None and circuit in circuits.REGISTRY and not circuits.REGISTRY[circuit].event_rankings:
        names_nothing(f"le circuit {circuit} n’a pas de classement par tournoi (chacun compte dans celui de la saison) : "
                      f"« reportgen standings {circuit} --at jj/mm/aaaa » donne celui d’après le tournoi de ce jour"
                      + french.existing("circuits qui en ont un", _event_circuits()))
    rankings, published = _scored_rankings(circuit, inputs, archive, "classement final" if final else "classement")
    try:
        ranking = (queries.event_ranking(circuit, rankings, event, season) if event is not None
                   else queries.season_ranking(circuit, rankings, season, day, final, published))
    except queries.NotFound as error:  # no final one yet: no workbook is at fault, exit 2 as for a season,
        # tournament or day that names none of the circuit's (MistypedName)
        err(str(error))
        raise typer.Exit(2) from None
    _print_ranking(ranking, format, so_far=queries.so_far(ranking, published))


@app.command()
def ratings(
    circuit: Annotated[str, typer.Argument(help="Le circuit (« reportgen circuits » les liste).")],
    format: Annotated[Format, typer.Option("--format", help="table, csv ou json.")] = Format.table,
    inputs: InputsOption = Path("inputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Afficher le classement Elo le plus récent d’un circuit."""
    # A circuit that never has a rating list names none, whatever its workbooks (no need to read them).
    if circuit in circuits.REGISTRY and not circuits.REGISTRY[circuit].ratings:
        rated = [slug for slug, info in circuits.REGISTRY.items() if info.ratings]
        names_nothing(f"le circuit {circuit} n’a pas de classement Elo" + french.existing("circuits qui en ont un", rated))
    lists = [r for r in _scored_rankings(circuit, inputs, archive, "classement Elo")[0]
             if r.scope.kind == ScopeKind.RATINGS]
    if not lists:  # each scored event makes one: not a workbook's fault either (exit 2)
        err(f"aucun classement Elo {circuit} dans {inputs} : il vient avec les parties du premier tournoi joué "
            "— saisissez-les dans son classeur")
        raise typer.Exit(2)
    _print_ranking(max(lists, key=lambda r: r.date), format)


def _scored_rankings(circuit: str, inputs: Path, archive: Path, wanted: str = "classement") -> tuple[list, set[str]]:
    """Every ranking the circuit publishes from these inputs, and the paths of those that have a
    bulletin; exit 1 on problems (a missing inputs folder is a mistyped --inputs, exit 2, as every
    command that reads the league says it: ingest/discover.py `folder_named`). None at all (no
    tournament of the circuit yet: a new season, or another folder meant) is no workbook's fault:
    said with what to do (`wanted`: what the command shows), exit 2, as a request that names nothing
    of the league."""
    from reportgen.delivery.seasons import league_folder
    from reportgen.pipeline import load, score

    if circuit not in circuits.CIRCUITS:
        raise unknown_circuit(circuit, "CIRCUIT")
    with league_folder(inputs, archive, say=err) as folder:  # where N−1 was read, as build and history say
        scored = score(load(folder), [circuit])
        if circuit in scored.blocked:  # said while a workbook put back from the archive is named there
            print_problems(scored.blocked[circuit], [])
            raise typer.Exit(1)
    report = scored.reports.get(circuit)
    if report is None or not report.rankings:
        err(f"aucun {wanted} {circuit} : aucun classeur de tournoi de ce circuit dans {inputs} — déposez-y ceux des "
            "tournois joués, ou indiquez le bon dossier avec --inputs")
        raise typer.Exit(2)
    return report.rankings, {document.path for document in report.documents}


def _print_ranking(ranking, format: Format, so_far: bool = False) -> None:
    from reportgen import queries
    from reportgen.render.ranking import to_csv, to_json

    if format is Format.csv:
        sys.stdout.write(to_csv(ranking).decode())
    elif format is Format.json:
        sys.stdout.write(to_json(ranking, so_far).decode())
    else:
        typer.echo(queries.table(ranking, so_far))


@app.command("circuits")
def list_circuits() -> None:
    """Lister les circuits et leur règlement."""
    for slug, info in circuits.REGISTRY.items():
        status = "" if info.status == circuits.SCORED else " (à venir : ses classeurs sont mis de côté)"
        typer.echo(f"{slug:16} {info.title} — « {info.regulation_title} » (docs/regulations/{info.regulation})"
                   f"{status}")


def _add_circuit_commands() -> None:
    """Each circuit's extra commands (`reportgen <circuit> …`: its folder's commands.py, part of the
    command line's layer), for the circuits of the registry and those installed packages declare."""
    import importlib

    for slug, info in circuits.REGISTRY.items():
        if info.commands:
            app.add_typer(importlib.import_module(info.commands_module).app, name=slug)


_add_circuit_commands()


def _add_season_commands() -> None:
    from reportgen.commands import players, season, template

    app.add_typer(season.app, name="season")
    app.add_typer(players.app, name="players")
    app.command("template")(template.template)


_add_season_commands()


def _add_delivery_commands() -> None:
    """`reportgen mail`, `reportgen inbox`, `reportgen remind`, `reportgen publish`, `reportgen archive
    [verify]`, `reportgen history` (reportgen/delivery/)."""
    from reportgen.commands import archive, history, inbox, mail, publish, remind

    app.command("mail")(mail.mail)
    app.command("inbox")(inbox.inbox)
    app.command("remind")(remind.remind)
    app.command("publish")(publish.publish)
    app.add_typer(archive.app, name="archive")
    app.command("history")(history.history)


_add_delivery_commands()


def _quiet_from_now_on() -> None:
    """Nothing more on standard error: the French line stays the last one. While the interpreter
    shuts down, a PDF pool's threads may still be closing the pipes of the workers just killed, and
    Python 3.11's concurrent.futures can then print a traceback of that race after it (seen once,
    on a loaded machine: « OSError: [Errno 9] Bad file descriptor »)."""
    import os

    sys.stderr.flush()
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stderr.fileno())
    except (OSError, ValueError):  # no real standard error (a test's capture): nothing to quiet
        pass


def exit_code(error: ReportgenError) -> int:
    """The exit code of an error the user can act on (README): 4 the machine refused to write, 2 a
    mistyped command: a value typed on the command line that names nothing (MistypedName, as
    cli_support.names_nothing says it where a command finds it itself) or an option the case needs
    missing (Mistyped), 1 otherwise (the workbooks, the archive...)."""
    from reportgen.render.files import EXIT_MACHINE, MachineError

    return EXIT_MACHINE if isinstance(error, MachineError) else 2 if isinstance(error, Mistyped) else 1


def main() -> None:
    """Entry point: typer reports usage errors itself (exit 2); anything else unexpected is
    said in one sentence, with the traceback only under --debug.

    Ctrl-C stops at once: the reading and PDF workers are killed (they ignore Ctrl-C themselves, so
    none prints a traceback), one French line is printed, exit code 130. A publication is never left
    halfway: its renames finish before the interruption is handled, and a stopped one is completed
    or rolled back by the next run."""
    import signal
    import threading

    class Interrupted(BaseException):
        """Ctrl-C, raised by our handler: not a KeyboardInterrupt, which typer would turn into
        « Aborted! » and exit code 1."""

    def interrupt(signum, frame) -> None:  # type: ignore[no-untyped-def]
        raise Interrupted

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, interrupt)
    try:
        app()
    except Interrupted:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not interrupt the stop
        from reportgen.ingest.workbook import stop_workers

        stop_workers()
        err("interrompu (Ctrl-C) : rien n’a été publié à moitié ; relancez la commande pour reprendre.")
        _quiet_from_now_on()
        sys.exit(130)
    except ReportgenError as error:
        if state["debug"]:
            raise
        err(str(error))
        sys.exit(exit_code(error))
    except Exception as error:
        if state["debug"]:
            raise
        from reportgen.render.files import EXIT_MACHINE, MACHINE_ERRNOS, OutputError

        if isinstance(error, OSError) and error.errno in MACHINE_ERRNOS and error.filename:
            # A write outside write_atomic (the archive's copies) refused by the machine: said the same way.
            err(str(OutputError(Path(str(error.filename)).parent, error, "la commande s’est arrêtée", option="")))
            sys.exit(EXIT_MACHINE)
        err(f"erreur interne de reportgen : {error.__class__.__name__}: {error}")
        err("relancez la commande avec --debug (reportgen --debug …) et transmettez le détail.")
        sys.exit(3)
    finally:
        # The process ends now: its last garbage collection would go through every object the
        # command made (after a build, the league and its documents: 0.15 s) only to free memory
        # the system takes back anyway. Frozen, they are left to it; the exit handlers still run.
        import gc

        gc.freeze()
