"""`reportgen publish`: the site (outputs/) to the league's host over SFTP ([site] of
reportgen.toml); `--dry-run` says what would be sent without sending it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from reportgen.cli_support import InputsOption, err, print_problems
from reportgen.commands.delivery_options import OutputsOption

SETTINGS_EXAMPLE = ('[site]\nhost = "ssh.example.org"\nport = 22\nuser = "ligue"\nfolder = "www"   # sur le serveur\n'
                    'key = "~/.ssh/id_ed25519"   # facultatif')


def publish(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Dire ce qui serait envoyé et retiré, sans rien "
                                                             "changer sur le serveur.")] = False,
    inputs: InputsOption = Path("inputs"),
    outputs: OutputsOption = Path("outputs"),
) -> None:
    """Envoyer le site (outputs/) chez l’hébergeur de la ligue par SFTP (table [site] de reportgen.toml).

    Seuls les fichiers modifiés partent, la page d’accueil en dernier ; les pages retirées d’outputs/
    sont retirées du serveur. La clé du serveur doit être dans ~/.ssh/known_hosts (ou le fichier
    known_hosts de [site]). Le mot de passe, s’il en faut un, se donne dans la variable
    REPORTGEN_SFTP_PASSWORD. Une connexion coupée laisse le site en ligne entier : relancez, ce qui
    est déjà arrivé n’est pas renvoyé. Ne quittent jamais cette machine : verification.html,
    outputs/mail/, outputs/rappels/ et outputs/clubs/ (les courriels, les rappels et les bulletins des
    clubs), outputs/modeles/ (les classeurs vierges, qu’aucune page ne lie : un club reçoit le sien
    par courriel), les données des pages (site.json, publications.json), les avis en .eml et les
    fichiers cachés ; un document qui nomme un joueur ayant choisi « initiales » ou « non » (joueurs.xlsx) est
    remplacé par sa copie publique."""
    from reportgen import config, french
    from reportgen.delivery import publish as site_publish
    from reportgen.ingest.discover import folder_named

    folder_named(inputs)  # a mistyped --inputs, not a [site] table to add to a file of no folder
    problems: list = []
    site = config.load_site(inputs, problems)
    if problems:
        print_problems(problems, [], stops=True)
        raise typer.Exit(1)
    if site is None or not site.server:
        err(f"la publication a besoin du serveur SFTP (host, user, folder) dans la table [site] de "
            f"{inputs / config.SETTINGS_FILE}, par exemple :\n" + SETTINGS_EXAMPLE)
        raise typer.Exit(1)
    done = site_publish.publish(outputs, site, inputs, dry_run=dry_run, say=lambda line: typer.echo(f"  {line}"))
    plan = done.plan
    if plan.resumed:
        typer.echo(f"reprise de l’envoi interrompu : {french.plural(plan.resumed, 'fichier')} déjà "
                   f"arrivé{'s' if plan.resumed > 1 else ''}, pas renvoyé{'s' if plan.resumed > 1 else ''}")
    if dry_run:
        for path in plan.send:
            typer.echo(f"  à envoyer : {path}")
        for path in plan.remove:
            typer.echo(f"  à retirer : {path}")
        typer.echo(f"{done.target} (--dry-run, rien n’a été changé) : "
                   f"{french.plural(len(plan.send), 'fichier')} à envoyer, {len(plan.remove)} à retirer, "
                   f"{len(plan.unchanged)} inchangé{'s' if len(plan.unchanged) > 1 else ''}")
        return
    sent, removed = len(done.sent), len(done.removed)
    if not sent and not removed:
        typer.echo(f"{done.target} : le site en ligne est déjà à jour "
                   f"({french.plural(len(plan.unchanged), 'fichier inchangé', 'fichiers inchangés')})")
        return
    typer.echo(f"{done.target} : {french.plural(sent, 'fichier envoyé', 'fichiers envoyés')}, "
               f"{removed} retiré{'s' if removed > 1 else ''}, "
               f"{len(plan.unchanged)} inchangé{'s' if len(plan.unchanged) > 1 else ''}")
