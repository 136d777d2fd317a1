"""`reportgen archive --season Y [--reason TEXT]` freezes a season; `reportgen archive verify`
checks the archived files, their manifests and the database against each other. Both first finish
or undo an archive that was stopped halfway, and say so."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from reportgen.cli_support import InputsOption, err
from reportgen.commands.delivery_options import ArchiveOption, OutputsOption

app = typer.Typer(help="Archiver une saison (bulletins finaux, CSV, annexes, classeurs, base de données) ; "
                       "« archive verify » contrôle l’archive.", invoke_without_command=True)


@app.callback()
def archive(
    ctx: typer.Context,
    season: Annotated[Optional[int], typer.Option(help="La saison à archiver.")] = None,
    reason: Annotated[str, typer.Option("--reason", help="Pourquoi archiver de nouveau une saison déjà "
                                                         "archivée (une correction).")] = "",
    inputs: InputsOption = Path("inputs"),
    outputs: OutputsOption = Path("outputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Figer une saison dans archive/<saison>/ avec son manifeste SHA256SUMS, et ses données dans
    archive/league.sqlite. Archiver de nouveau (après une correction, avec --reason) garde la copie
    précédente intacte."""
    if ctx.invoked_subcommand is not None:
        _no_option_before(ctx)
        return
    from reportgen import french
    from reportgen.delivery.archive import archive_season

    if season is None:
        raise typer.BadParameter("indiquez la saison à archiver, par exemple --season 2026", param_hint="--season")
    done = archive_season(inputs, outputs, archive, season, reason, say=err)  # a season of nothing: exit 2 (cli.main)
    for note in done.notes:
        err(f"note : {note}")
    if done.unchanged:
        return
    typer.echo(f"Saison {season} archivée dans {done.folder} (copie v{done.version}, "
               f"{french.plural(done.files, 'fichier')}) ; base de données : {archive / 'league.sqlite'}")
    typer.echo(f"Contrôle : cd {done.folder.parent} && sha256sum -c SHA256SUMS   (ou : reportgen archive verify)")


def _no_option_before(ctx: typer.Context) -> None:
    """`archive --archive X verify` would check ./archive, not X: an option of `archive` given
    before a subcommand, which never reads it, is a mistyped command (exit 2) that says where it goes."""
    from typer._click.core import ParameterSource  # typer vendors click (as cli_french.py reads it)

    for name in ("season", "reason", "inputs", "outputs", "archive"):
        if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None):
            option, command = f"--{name}", ctx.invoked_subcommand
            if name == "archive":
                raise typer.BadParameter(f"elle se place après {command} : reportgen archive {command} --archive "
                                         f"{ctx.params[name]}", param_hint=option)
            raise typer.BadParameter(f"elle sert à archiver une saison, pas à « archive {command} »",
                                     param_hint=option)


@app.command("verify")
def verify(archive: ArchiveOption = Path("archive")) -> None:
    """Contrôler les fichiers archivés, leurs manifestes et la base de données les uns avec les autres :
    nomme chaque fichier modifié, manquant ou ajouté."""
    from reportgen import french
    from reportgen.delivery.archive_verify import verify as check

    wrong, checked = check(archive, say=lambda line: err(f"note : {line}"))
    if wrong:
        err(f"{french.plural(len(wrong), 'problème')} dans l’archive {archive} :")
        for line in wrong:
            err(f"  - {line}")
        raise typer.Exit(1)
    typer.echo(f"{french.plural(checked, 'fichier archivé intact', 'fichiers archivés intacts')} dans {archive}")
