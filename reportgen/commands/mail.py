"""`reportgen mail`: each club's bulletins as an e-mail draft; `--send` sends them over SMTP."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from reportgen.cli_support import InputsOption, err, names_nothing, print_problems, unknown_circuit
from reportgen.commands.delivery_options import ArchiveOption, OutputsOption

if TYPE_CHECKING:
    from reportgen.config import Mail
    from reportgen.delivery.mail import ClubMail, Plan
    from reportgen.delivery.send import SendLog
    from reportgen.pipeline import League

SETTINGS_EXAMPLE = ('[mail]\nhost = "smtp.example.org"\nport = 587\nsecurity = "starttls"   # ou "ssl", "none"\n'
                    'sender = "Ligue Grand Sud <secretariat@example.org>"\nuser = "secretariat@example.org"   '
                    '# facultatif')


def mail(
    season: Annotated[Optional[int], typer.Option(help="La saison (par défaut la dernière publiée).")] = None,
    circuit: Annotated[Optional[str], typer.Option(help="Un seul circuit (par défaut tous).")] = None,
    send: Annotated[bool, typer.Option("--send", help="Envoyer les messages par SMTP (réglages [mail]).")] = False,
    resend: Annotated[bool, typer.Option("--resend", help="Avec --send : renvoyer aussi les bulletins déjà "
                                                           "reçus.")] = False,
    club: Annotated[Optional[list[str]], typer.Option("--club", metavar="<code>", help="Avec --send : n’envoyer "
                                                      "qu’à ce club (son code ou son nom dans clubs.xlsx) ; se répète.")] = None,
    received: Annotated[bool, typer.Option("--received", help="Avec --send --club CODE : noter, sans rien envoyer, "
                                           "que le club a bien reçu son envoi incertain.")] = False,
    inputs: InputsOption = Path("inputs"),
    outputs: OutputsOption = Path("outputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Préparer pour chaque club un courriel avec ses joueurs et ses bulletins (outputs/mail/), et
    l’envoyer avec --send.

    Chaque club reçoit aussi son propre bulletin en PDF (outputs/clubs/) : ses joueurs dans chaque
    circuit et ses tournois de la saison ; avec attach = "club" dans [mail], il est seul joint.

    Un club reçoit un courriel s’il a une adresse (colonne « Email » de clubs.xlsx) et des joueurs dans
    les derniers classements de la saison ; une case Email qui n’est pas une adresse ne bloque rien
    d’autre : ce club n’a aucun message, c’est dit, et le code de sortie est 1. Le journal des envois
    est dans l’archive : un bulletin déjà reçu n’est pas renvoyé (sauf --resend), un envoi qui a
    échoué est retenté au passage suivant, un envoi interrompu avant la réponse du serveur est
    signalé « incertain » : si le club l’a reçu, notez-le (--send --received --club CODE), sinon
    renvoyez-le (--send --resend --club CODE).
    Les brouillons n’ont besoin d’aucun réglage ; --send a besoin de host et sender dans la table
    [mail] de reportgen.toml."""
    from reportgen import circuits
    from reportgen.delivery import send as sending

    if circuit is not None and circuit not in circuits.CIRCUITS:
        raise unknown_circuit(circuit, "--circuit")
    if resend and not send:
        raise typer.BadParameter("--resend ne sert qu’avec --send", param_hint="--resend")
    if club and not send:
        raise typer.BadParameter("--club ne sert qu’avec --send", param_hint="--club")
    if received and not (send and club):
        raise typer.BadParameter("--received s’emploie avec --send et --club CODE (le club qui a confirmé avoir "
                                 "reçu son message)", param_hint="--received")
    if received and resend:
        raise typer.BadParameter("--received note un message reçu, --resend le renvoie : choisissez l’un des deux",
                                 param_hint="--received")
    with ExitStack() as stack:
        # Before anything: one sender at a time, and a send log that can be written.
        log = stack.enter_context(sending.SendLog(archive)) if send else None
        plan, settings, codes = _drafts(season, circuit, inputs, outputs, archive, server=send and not received,
                                        clubs=club or [])
        if log is not None:
            plan.clubs = _chosen(plan, codes)
            if received:
                _received(plan, log)
            else:
                assert settings is not None  # _drafts checked it
                _send(plan, settings, log, resend)
    # The others' messages are drafted (or sent); a club with ranked players that got none because
    # of its Email cell (a warning: it blocked nothing) still makes the run a problem to fix.
    wanted = {code.casefold() for code in codes}
    if any(c.bad_address and count and (not wanted or c.code.casefold() in wanted) for c, count in plan.without_address):
        raise typer.Exit(1)


def _drafts(season: int | None, circuit: str | None, inputs: Path, outputs: Path, archive: Path,
            server: bool, clubs: list[str]) -> tuple[Plan, Mail | None, list[str]]:
    """The plan, its drafts written and listed, and the codes of the clubs --club names (`clubs`);
    with `server`, first checks that [mail] says how to send (drafts need no setting)."""
    from reportgen import french
    from reportgen.config import missing_for_sending
    from reportgen.delivery import mail as drafts
    from reportgen.delivery import seasons
    from reportgen.delivery.club_bulletin import folder as club_folder
    from reportgen.model import put_back
    from reportgen.pipeline import score

    notes: list[str] = []
    league, places = seasons.load_placed(inputs, archive, say=notes.append)
    codes = _codes(league, clubs, inputs)  # a mistyped --club said alone, before any note
    scored = score(league, [circuit] if circuit else None)
    # The club directory's own problems too, whatever the circuit: its Email column is whom to write to.
    problems = sorted(set(league.problems).union(league.club_problems(), *scored.blocked.values()))
    if problems:
        for note in notes:
            err(note)
        with put_back(places):  # a workbook put back from the archive named there
            print_problems(problems, league.notices)
        err("rien n’est préparé : corrigez d’abord ces problèmes (lancez « make » ensuite)")
        raise typer.Exit(1)
    there = sorted({r.season for slug, report in scored.reports.items() if circuit in (None, slug)
                    for r in report.rankings})
    if season is not None and season not in there:  # a mistyped --season, said alone
        names_nothing(f"aucun classement{' ' + circuit if circuit else ''} pour la saison {season}"
                      + french.existing("saisons", there))
    for note in notes:
        err(note)
    settings = league.settings.mail
    if server and (missing := missing_for_sending(settings)):
        print_problems(missing, [], stops=True)
        err(f"rien n’est envoyé : --send a besoin du serveur et de l’expéditeur dans la table [mail] de "
            f"{inputs / 'reportgen.toml'} (les brouillons, sans --send, n’en ont pas besoin), par exemple :\n"
            + SETTINGS_EXAMPLE)
        raise typer.Exit(1)
    plan = drafts.prepare(league, scored, outputs, season, circuit)
    if not plan.bulletins:  # a pool tournament's ranking, say, is published, but has no bulletin for the clubs
        which = f" {circuit}" if circuit else ""
        err(f"aucun bulletin de classement{which} à envoyer aux clubs" + (f" pour la saison {season}" if season else "")
            + f" dans {outputs} (d’après {inputs})")
        raise typer.Exit(1)
    if plan.problems:
        for problem in plan.problems:
            err(f"  - {problem}")
        raise typer.Exit(1)

    written = drafts.write_drafts(plan, outputs)
    typer.echo(f"Saison {plan.season} : {french.counted(len(written), 'brouillon')} dans {outputs / plan.folder}, "
               f"{french.counted(len(plan.own), 'bulletin de club', 'bulletins de club')} dans "
               f"{outputs / club_folder(plan.season, plan.circuit)}")
    for club_mail in plan.clubs:
        players = len({row.player_id for rows in club_mail.players.values() for row in rows})
        attached = [name for _, name in drafts.attached(plan, club_mail)]
        own = plan.own.get(club_mail.club.code)
        typer.echo(f"  {club_mail.club.name} → {', '.join(club_mail.club.emails)} : "
                   f"{', '.join(attached + ([own.filename] if own else []))} ({french.plural(players, 'joueur')})")
    empty = [(club, count) for club, count in plan.without_address if club.bad_address is None]
    if empty:
        # each with where its address goes, as `remind` says it (Club.no_address)
        listed = ", ".join(f"{club.name} ({french.counted(count, 'joueur classé', 'joueurs classés')} ; "
                           f"{club.no_address})" for club, count in empty)
        typer.echo(f"Clubs sans adresse, rien n’est préparé pour eux : {listed}")
    for club, _ in plan.without_address:  # a warning of check, said again where it costs a message
        if (bad := club.bad_address) is not None:
            err(f"club {club.code} : adresse {bad.typed} invalide ({bad.cell}) : aucun message")
    if not any(row.club for bulletin in plan.bulletins for row in bulletin.ranking.rows):
        # a circuit whose players have no club (the Tour de France): not every club « sans joueur »
        typer.echo(f"Ces classements ({', '.join(b.circuit for b in plan.bulletins)}) ne nomment aucun club : "
                   "il n’y a rien à envoyer aux clubs")
    elif plan.without_players:
        typer.echo("Clubs sans joueur dans ces classements : " + ", ".join(c.name for c in plan.without_players))
    if plan.unknown_clubs:
        err("note : clubs des classements absents de clubs.xlsx (leurs joueurs ne sont envoyés à personne) : "
            + ", ".join(f"« {name} » ({count})" for name, count in sorted(plan.unknown_clubs.items())))
    return plan, settings, codes


def _codes(league: League, typed: list[str], inputs: Path) -> list[str]:
    """The codes of the clubs --club names (by code or name, as the workbooks do). A value that
    names no club of clubs.xlsx is a mistyped command (exit 2); but when clubs.xlsx has a row to
    correct, the club meant may be on it: its problems first (exit 1)."""
    from reportgen import french
    from reportgen.ingest.directories import CLUBS_FILE

    directory = league.reading.clubs
    missing = [value for value in typed if directory.find(value) is None]
    if missing:
        doubtful = not all(directory.unknown(value) for value in missing)
        names_nothing(f"--club {', '.join(missing)} : aucun club de ce code ni de ce nom dans {inputs / CLUBS_FILE}"
                      + french.existing("codes", [club.code for club in directory.clubs]),
                      league.club_problems() if doubtful else (), maybe=f"ou {CLUBS_FILE} est à corriger")
    return [club.code for value in typed if (club := directory.find(value)) is not None]


def _chosen(plan: Plan, clubs: list[str]) -> list[ClubMail]:
    """The plan's clubs that --club names by their codes (all of them without --club); a club of
    clubs.xlsx that has no message (no address, no ranked player) cannot be sent one."""
    if not clubs:
        return plan.clubs
    codes = {c.club.code.casefold(): c for c in plan.clubs}
    unknown_codes = [code for code in clubs if code.casefold() not in codes]
    if unknown_codes:
        which = "ces clubs n’ont" if len(unknown_codes) > 1 else "ce club n’a"
        err(f"--club {', '.join(unknown_codes)} : {which} pas de courriel à "
            f"recevoir (sans adresse, ou sans joueur classé) ; codes possibles : "
            f"{', '.join(c.club.code for c in plan.clubs)}")
        raise typer.Exit(1)
    wanted = {code.casefold() for code in clubs}
    return [c for c in plan.clubs if c.club.code.casefold() in wanted]


def _received(plan: Plan, log: SendLog) -> None:
    """--received: the clubs' uncertain messages noted as received, nothing sent."""
    from reportgen import french
    from reportgen.delivery import send as sending

    marked = sending.mark_received(plan, log)
    for done in marked:
        typer.echo(f"  {done.club} ({done.address}) : noté reçu — {', '.join(done.bulletins)}")
    names = ", ".join(c.club.name for c in plan.clubs)
    if not marked:
        typer.echo(f"{names} : aucun envoi incertain à noter, rien n’a changé")
        return
    typer.echo(f"{french.plural(len(marked), 'envoi incertain noté reçu', 'envois incertains notés reçus')} "
               f"({names}), rien n’a été envoyé : ils ne seront plus signalés ni renvoyés")


def _send(plan: Plan, settings: Mail, log: SendLog, resend: bool) -> None:
    import datetime as dt

    from reportgen import french
    from reportgen.delivery import send as sending

    run = sending.send(plan, settings, log, resend, say=typer.echo)
    sent = [o for o in run.outcomes if o.sent]
    typer.echo(f"{french.counted(len(sent), 'message envoyé', 'messages envoyés')}"
               + (f", {french.plural(run.up_to_date, 'club avait', 'clubs avaient')} déjà tout reçu"
                  if run.up_to_date else ""))
    failed = [o for o in run.outcomes if o.failed]
    if failed:
        err(f"{french.plural(len(failed), 'envoi a échoué', 'envois ont échoué')} (relancez « reportgen mail "
            "--send » : seul ce qui a échoué sera envoyé) :")
        for outcome in failed:
            for address, answer in outcome.failed.items():
                err(f"  - {outcome.club} ({address}) : {answer}")
    if run.unknown:
        err(f"{french.plural(len(run.unknown), 'envoi incertain', 'envois incertains')} : le serveur a eu le "
            "message mais sa réponse s’est perdue (envoi interrompu, connexion coupée) ; il n’est pas renvoyé de "
            "lui-même :")
        for unknown in run.unknown:
            at = dt.datetime.fromisoformat(unknown.at)
            err(f"  - {unknown.club} ({unknown.address}) : {', '.join(unknown.bulletins)}, tenté le "
                f"{french.date_long(at.date())} à {at:%H:%M} UTC")
        which = " ".join(f"--club {code}" for code in dict.fromkeys(u.code for u in run.unknown))
        err(f"demandez au club s’il l’a reçu : si oui, notez-le (reportgen mail --send --received {which}) ; "
            f"sinon renvoyez-le : reportgen mail --send --resend {which}")
    if run.left:
        err(f"le temps de l’envoi est écoulé (réglage run_timeout de [mail] : {french.points(settings.run_timeout)} s) ; "
            f"{french.plural(len(run.left), 'message non tenté', 'messages non tentés')}, ils partiront au prochain "
            "« reportgen mail --send » :")
        for name, to in run.left:
            err(f"  - {name} ({', '.join(to)})")
    if failed or run.unknown or run.left:
        raise typer.Exit(1)
