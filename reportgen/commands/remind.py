"""`reportgen remind`: a reminder to each club whose announced tournament's results are late (its
workbook never came, holds its registrations alone, or shows the tournament not over past its Fin);
`--send` sends them over SMTP, once per tournament (delivery/remind.py)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reportgen import clock
from reportgen.cli_support import InputsOption, err, print_problems
from reportgen.commands.delivery_options import ArchiveOption, OutputsOption

if TYPE_CHECKING:
    from reportgen.config import Mail
    from reportgen.delivery.remind import Plan
    from reportgen.delivery.send import SendLog
    from reportgen.model import Problem


def remind(
    send: Annotated[bool, typer.Option("--send", help="Envoyer les rappels par SMTP (réglages [mail]).")] = False,
    resend: Annotated[bool, typer.Option("--resend", help="Avec --send : renvoyer aussi les rappels déjà "
                                                           "envoyés.")] = False,
    inputs: InputsOption = Path("inputs"),
    outputs: OutputsOption = Path("outputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Préparer un rappel poli au club organisateur de chaque tournoi annoncé (inputs/calendrier.xlsx)
    dont les résultats ne sont pas arrivés [calendar] remind_after_days jours après (7 par défaut) : son
    classeur manque, n’en contient que les inscriptions, ou s’arrête avant la finale (la suite est alors
    demandée). Dans outputs/rappels/, envoyé avec --send.

    Un rappel part une fois par tournoi (le journal des envois est dans l’archive), sauf --resend ;
    un envoi interrompu avant la réponse du serveur est signalé « incertain » et n’est renvoyé que
    sur demande (--send --resend)."""
    from reportgen import circuits, french
    from reportgen.config import missing_for_sending
    from reportgen.delivery import remind as reminding
    from reportgen.delivery import send as sending
    from reportgen.delivery.filers import filed_senders
    from reportgen.ingest.calendar import CALENDAR_FILE
    from reportgen.pipeline import load, score
    from reportgen.pipeline.calendar import over_their_days

    if resend and not send:
        raise typer.BadParameter("--resend ne sert qu’avec --send", param_hint="--resend")
    with ExitStack() as stack:
        # Before anything: one sender at a time, and a send log that can be written.
        log = stack.enter_context(sending.SendLog(archive)) if send else None
        today = clock.today()
        # each workbook `inbox` filed matched with its sender's calendar row, as the build matches it
        league = load(inputs, today, senders=filed_senders(archive, inputs))
        # What the reminders read: the settings (how late is late, who signs) and the calendar; a
        # problem there stops them, or the reminders of the rows it leaves unread. A tournament
        # workbook to correct stops only the reminder of the tournament it may be (delivery/remind.py).
        if not league.announced:  # no workbook at fault: nothing announced yet (README: exit 2)
            err(f"aucun tournoi annoncé : {inputs / CALENDAR_FILE} est absent (« reportgen template calendrier » "
                "en écrit un vierge)")
            raise typer.Exit(2)
        blocking = _blocking(league.all_problems())
        if league.settings_held() or (blocking and not any(e.where is not None for e in league.calendar)):
            print_problems(blocking, [])
            err(f"aucun rappel n’est préparé : corrigez d’abord {french.joined(sorted({p.where.path for p in blocking}))}"
                " (les rappels y lisent les tournois annoncés et leurs réglages)")
            raise typer.Exit(1)
        settings = league.settings
        after = settings.calendar.remind_after_days
        over_weeks = {slug for slug, info in circuits.REGISTRY.items() if info.played_over_weeks}
        # A workbook of registrations alone awaits its results as one never received, one of a tournament
        # not over past its Fin the rest: known, as the build knows them (the home page's « résultats
        # attendus », « suite des résultats attendue »), from its circuit's report.
        entries = over_their_days(league.calendar, score(league, sorted(over_weeks)).reports)
        plan = reminding.plan(entries, league.reading.clubs, today, after, settings.name,
                              {slug: info.title for slug, info in circuits.REGISTRY.items()},
                              reminding.refused_by_tournament(archive, outputs), over_weeks, league.unread, inputs)
        written = reminding.write_drafts(plan, outputs, settings.mail.sender if settings.mail else "")
        typer.echo(f"{french.counted(len(written), 'rappel')} dans {outputs / reminding.FOLDER} (tournois annoncés "
                   f"sans résultats, ou inachevés, {french.plural(after, 'jour')} après leur dernier jour)")
        for reminder in plan.reminders:
            typer.echo(f"  {reminder.club.name} → {', '.join(reminder.club.emails)} : {reminder.message.subject}")
        for entry, why in plan.unreachable:
            err(f"pas de rappel pour « {entry.title(league.reading.clubs)} » du {french.date_long(entry.date)} : {why}")
        if blocking:  # the rows of calendrier.xlsx it could not read: their tournaments are not reminded
            print_problems(blocking, [])
            err("pas de rappel pour un tournoi que calendrier.xlsx annonce sur une ligne à corriger ci-dessus, tant "
                "qu’elle ne l’est pas")
        if log is not None:
            if missing := missing_for_sending(settings.mail):
                print_problems(missing, [], stops=True)
                err(f"aucun rappel n’est envoyé : l’envoi a besoin du serveur et de l’expéditeur dans la table [mail] "
                    f"de {inputs / 'reportgen.toml'} (voir « reportgen mail --help » ; les brouillons sont écrits)")
                raise typer.Exit(1)
            assert settings.mail is not None  # missing_for_sending names every key of an absent table
            _send(plan, settings.mail, log, resend)
        if blocking:
            raise typer.Exit(1)


def _blocking(problems: list[Problem]) -> list[Problem]:
    """The problems that stop a reminder: those of calendrier.xlsx and reportgen.toml. A workbook of a
    tournament is no business of theirs (`check` says it) but for the tournament it may be, and
    clubs.xlsx only for the club it cannot read (delivery/remind.py `plan`)."""
    from reportgen.config import SETTINGS_FILE
    from reportgen.pipeline.calendar import calendar_blocked

    # calendrier.xlsx's own, as the build knows them (it then writes no calendrier.ics)
    return [p for p in problems if p.blocking and (p.where.path.casefold() == SETTINGS_FILE or calendar_blocked([p]))]


def _send(plan: Plan, settings: Mail, log: SendLog, resend: bool) -> None:
    from reportgen import french
    from reportgen.delivery import remind as reminding
    from reportgen.delivery.send_log import SendStatus

    run = reminding.send(plan, settings, log, resend, say=typer.echo)
    sent = [s for s in run.sent if not s.failed and not s.unconfirmed]
    typer.echo(f"{french.counted(len(sent), 'rappel envoyé', 'rappels envoyés')}"
               + (f", {french.plural(len(run.already), 'déjà envoyé', 'déjà envoyés')} (--resend pour "
                  f"{'les' if len(run.already) > 1 else 'le'} renvoyer)"
                  if run.already else ""))
    uncertain = [(r.club.name, when) for r, status, when in run.already if status == SendStatus.UNKNOWN]
    uncertain += [(s.reminder.club.name, "") for s in run.sent if s.unconfirmed]
    for club, when in uncertain:
        err(f"rappel incertain pour {club}{' (tenté le ' + when + ')' if when else ''} : le serveur a eu le message "
            "sans confirmer ; demandez au club, sinon « reportgen remind --send --resend »")
    failed = [s for s in run.sent if s.failed]
    for outcome in failed:
        for address, answer in outcome.failed.items():
            err(f"échec pour {outcome.reminder.club.name} ({address}) : {answer} — relancez « reportgen remind "
                "--send » : seul ce qui a échoué partira")
    for reminder in run.left:
        err(f"non tenté, le temps de l’envoi est écoulé : {reminder.club.name} ({reminder.message.subject})")
    if failed or uncertain or run.left:
        raise typer.Exit(1)
