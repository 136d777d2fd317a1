"""`reportgen inbox [--send]`: the clubs' workbooks received by e-mail (IMAP, [inbox]), checked,
filed under inputs/ or kept aside, and answered (drafts, or sent through [mail] with --send)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from reportgen.cli_support import InputsOption, err, print_problems
from reportgen.commands.delivery_options import ArchiveOption, OutputsOption

SETTINGS_EXAMPLE = ('[inbox]\nhost = "imap.example.org"\nport = 993\nsecurity = "ssl"   # ou "starttls", "none"\n'
                    'user = "secretariat@example.org"\nfolder = "INBOX"     # facultatif\n'
                    'done = "Traités"     # facultatif : où ranger les messages traités')


def inbox(
    send: Annotated[bool, typer.Option("--send", help="Envoyer les réponses par SMTP (réglages [mail]) au lieu "
                                                       "d’en écrire les brouillons.")] = False,
    inputs: InputsOption = Path("inputs"),
    outputs: OutputsOption = Path("outputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Relever les classeurs envoyés par les clubs (boîte IMAP, réglages [inbox]), les vérifier, les
    ranger dans inputs/ et répondre à chaque club.

    Un classeur accepté va dans inputs/<circuit>/<saison>/ (une nouvelle version d’un tournoi remplace
    l’ancienne, gardée dans archive/inbox/replaced/) ; un classeur du Masters reçu pendant que le
    Grand Sud a des classeurs à corriger est jugé sur ses seuls problèmes : sans problème à lui, il
    est enregistré, et le club apprend que sa vérification complète et sa publication attendent le
    Grand Sud. Un classeur refusé est gardé dans
    archive/inbox/refused/, là où make ne lit pas, et listé à chaque relève et par « make check »
    jusqu’à ce que sa version corrigée soit enregistrée (supprimez-le pour l’écarter). Le tournoi d’un autre club (dont ce club a envoyé
    la version enregistrée, ou que le champ Club de sa feuille Tournoi désigne) n’est jamais remplacé
    par un club qui n’est pas le sien : le classeur est mis de côté dans archive/inbox/held/ et vous
    décidez (pour l’enregistrer, mettez-le dans inputs/). Il en va de même d’une nouvelle version d’un
    classeur que vous avez modifié après son dépôt, ou mis vous-même dans inputs/ sans qu’aucun club
    n’en soit l’organisateur connu, qui ne garde pas toutes les valeurs que vous y avez saisies : votre
    version reste en place, et les cases concernées sont nommées (une version qui les garde, les
    résultats saisis par le club dans le tour que votre commande y a écrit, est enregistrée). Chaque club reçoit une réponse (brouillons
    dans outputs/mail/inbox/, ou envoi avec --send) : l’enregistrement, « déjà reçu » pour le même
    classeur que celui de inputs/ (rien n’est écrit), la mise de côté, ou les problèmes avec feuille, cellule et correction ; puis les avertissements de son classeur, qui ne
    refusent rien (un prénom vide : ce qu’il peut encore compléter ; jamais ceux des fichiers de la
    ligue). Un « --send » ultérieur envoie, une seule fois, les réponses restées en
    brouillon, sauf celles qu’un message plus récent du club pour le même tournoi a remplacées. Un
    expéditeur inconnu ou un message sans classeur reste dans la boîte pour vous. Chaque message
    n’est traité qu’une fois, même si la commande est interrompue."""
    from reportgen import circuits, config
    from reportgen.delivery import database, inbox_run
    from reportgen.delivery import inbox as imap
    from reportgen.delivery.send import SendLog
    from reportgen.ingest.directories import CLUBS_FILE, ClubDirectory, read_clubs
    from reportgen.ingest.discover import folder_named
    from reportgen.ingest.workbook import read_workbooks
    from reportgen.model import Problem

    folder_named(inputs)  # a mistyped --inputs, not a [inbox] table to add to a file of no folder
    problems: list[Problem] = []
    settings = config.load(inputs, {slug: c.Settings() for slug, c in circuits.CIRCUITS.items()}, problems)
    if problems:
        print_problems(problems, [], stops=True)
        raise typer.Exit(1)
    if settings.inbox is None:
        err(f"la relève des courriels a besoin de la table [inbox] dans {inputs / config.SETTINGS_FILE}, par exemple :\n"
            + SETTINGS_EXAMPLE)
        raise typer.Exit(1)
    if send and settings.mail is None:
        err(f"--send envoie les réponses par la table [mail] de {inputs / config.SETTINGS_FILE}, absente : "
            "ajoutez-la (voir « reportgen mail --help ») ou relancez sans --send pour écrire les brouillons")
        raise typer.Exit(1)
    if not (inputs / CLUBS_FILE).is_file():
        err(f"{inputs / CLUBS_FILE} est absent : sa colonne « Email » dit de quel club vient un courriel ; ajoutez-le, "
            "puis relancez « reportgen inbox »")
        raise typer.Exit(1)
    workbooks, problems = read_workbooks([inputs / CLUBS_FILE], inputs)
    clubs = read_clubs(workbooks[0], problems) if workbooks else ClubDirectory()
    if problems:  # a warning (a club's bad Email cell) is said; that club's mail stays for the secretary
        print_problems(problems, [])
    # Refused for any circuit, though a blocking problem of clubs.xlsx holds back only the circuits
    # that name clubs at build time: filing works from the directory for every workbook. Its Email
    # column says which club sent a message (a row left out makes its club's messages « unknown
    # sender »), and its clubs say whose tournament a workbook is (its Tournoi sheet's Club, or the
    # club the calendar announces, for Tantrix and the others: delivery/inbox_filing.py), which
    # decides whether a club may replace it. A broken directory would file or hold on wrong grounds.
    if any(problem.blocking for problem in problems):
        raise typer.Exit(1)

    with ExitStack() as stack:
        # Before anything: one run at a time, and a database that can be written.
        stack.enter_context(inbox_run.lock(archive))
        log = stack.enter_context(SendLog(archive)) if send else None
        if log is not None:
            connection = log.connection
        else:
            opened = database.connect(archive)
            assert opened is not None
            connection = opened
            stack.callback(connection.close)
        mailbox = stack.enter_context(imap.open_mailbox(settings.inbox))
        sending = inbox_run.sending(settings.mail, log) if log is not None and settings.mail else None
        sender = settings.mail.sender if settings.mail is not None else settings.inbox.user
        run = inbox_run.Inbox(mailbox, connection, inputs, outputs, archive, clubs, settings.name, sender, sending)
        handled = run.run(say=typer.echo)
    _summary(handled, outputs, settings.mail.run_timeout if settings.mail is not None else 0.0, archive, inputs)


def waiting_for_you(archive: Path, inputs: Path) -> None:
    """The workbooks `inbox` kept aside, not in inputs/ (so they block nothing), said the same way by
    every `inbox` and `check`: refused, until their club sends a corrected one; held (another club's
    tournament, or a new version of a workbook of hers: each line says which), until the secretary
    files or deletes them."""
    from reportgen import french
    from reportgen.delivery.inbox_run import held_waiting, refused_waiting

    refused = refused_waiting(archive)
    if refused:
        err(f"{french.plural(len(refused), 'classeur reçu par courriel refusé', 'classeurs reçus par courriel refusés')} "
            f"(hors de inputs/, {'ils ne bloquent' if len(refused) > 1 else 'il ne bloque'} rien) en attente d’une "
            "version corrigée :")
        for line in refused:
            err(f"  - {line}")
    held = held_waiting(archive, inputs)
    if held:
        kept = french.plural(len(held), "classeur reçu par courriel mis de côté",
                             "classeurs reçus par courriel mis de côté")
        # why each is held, its line says: another club's tournament, or a version of hers it would replace
        err(f"{kept} pour vous (rien n’a changé dans inputs/, à vous de décider) :")
        for line in held:
            err(f"  - {line}")


def _summary(handled: list, outputs: Path, run_timeout: float, archive: Path, inputs: Path) -> None:
    from reportgen import french
    from reportgen.delivery.inbox_answers import POSTPONED
    from reportgen.delivery.inbox_run import MessageStatus, describe
    from reportgen.delivery.send_log import SendStatus

    new = [h for h in handled if h.new and h.status != MessageStatus.LEFT]
    left = [h for h in handled if h.status == MessageStatus.LEFT]
    accepted = sum(1 for h in new for f in h.files if f.status == "accepted")
    refused = sum(1 for h in new for f in h.files if f.status == "refused")
    held = sum(1 for h in new for f in h.files if f.status == "held" and not f.known_since)
    # the same bytes held again for the same clubs (inbox_filing.again): nothing new for her to decide
    still = sum(1 for h in new for f in h.files if f.status == "held" and f.known_since)
    same = sum(1 for h in new for f in h.files if f.status == "same")  # nothing filed: no « make » asked for
    if not new and not left:  # a run that only sends earlier drafts (said below), or finds nothing
        typer.echo("aucun nouveau message")
    elif not new:  # messages left in the box for her, said below (new or not: a row does not say)
        typer.echo("aucun message traité")
    else:
        typer.echo(f"{french.plural(len(new), 'message traité', 'messages traités')} : "
                   f"{french.counted(accepted, 'classeur enregistré', 'classeurs enregistrés')}, "
                   f"{french.counted(refused, 'classeur refusé', 'classeurs refusés')}"
                   + (f", {french.plural(same, 'classeur déjà reçu', 'classeurs déjà reçus')} à l’identique"
                      if same else "")
                   + (f", {french.plural(held, 'classeur mis de côté', 'classeurs mis de côté')} pour vous"
                      if held else "")
                   + (f", {french.plural(still, 'classeur déjà mis de côté', 'classeurs déjà mis de côté')}, "
                      "toujours en attente de votre décision" if still else "")
                   + (f" ; réponses dans {outputs / 'mail' / 'inbox'}" if any(not h.sent for h in new) else ""))
    if accepted:
        typer.echo("lancez « make » pour publier les classements avec les nouveaux classeurs")
    later = [h for h in handled if h.later]
    if later:
        sent = sum(1 for h in later if h.sent == SendStatus.SENT)
        superseded = sum(1 for h in later if h.sent == "superseded")
        typer.echo(f"réponses préparées lors des relèves précédentes : "
                   f"{french.counted(sent, 'envoyée', 'envoyées', feminine=True)}"
                   + (f", {french.plural(superseded, 'remplacée', 'remplacées')} par une plus récente (non envoyée"
                      f"{'s' if superseded > 1 else ''})" if superseded else ""))
    if left:
        err(f"{french.plural(len(left), 'message laissé', 'messages laissés')} dans la boîte pour vous (ni rangé, "
            "ni répondu) :")
        for one in left:
            err(f"  - {describe(one, inputs, outputs, archive)}")
    waiting_for_you(archive, inputs)
    failed = [h for h in new + later if h.sent == SendStatus.FAILED]
    unknown = [h for h in new + later if h.sent == SendStatus.UNKNOWN]
    postponed = [h for h in new + later if h.sent == POSTPONED]
    if failed:
        err("réponses non envoyées (relancez « reportgen inbox --send » : seules elles partiront, rien n’est "
            "rangé deux fois) :")
        for one in failed:
            err(f"  - {one.club} ({one.sender}) : {one.said}")
    if postponed:
        err(f"le temps de l’envoi est écoulé (réglage run_timeout de [mail] : {french.points(run_timeout)} s) ; "
            f"{french.plural(len(postponed), 'réponse non tentée', 'réponses non tentées')}, "
            f"{'elle partira' if len(postponed) == 1 else 'elles partiront'} à la prochaine « reportgen inbox --send » "
            "(rien n’est rangé deux fois) :")
        for one in postponed:
            err(f"  - {one.club} ({one.sender})")
    if unknown:
        err("réponses incertaines (le serveur a peut-être eu le message quand l’envoi s’est arrêté) ; elles ne sont "
            "pas renvoyées d’elles-mêmes ; leur brouillon :")
        for one in unknown:
            err(f"  - {one.club} ({one.sender}) : {outputs / one.answer}")
    if failed or unknown or postponed:  # a refused workbook is answered: the run did its job
        raise typer.Exit(1)
