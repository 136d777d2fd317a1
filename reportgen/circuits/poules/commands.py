"""`reportgen poules …`: the pool tournaments' own commands (part of the command line's layer: docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from reportgen import clock
from reportgen.cli_support import InputsOption, date_option, err, names_nothing, print_problems, write_change

app = typer.Typer(help="Tournois en ligne par poules : tour suivant, barrages.", no_args_is_help=True)


@app.command("next")
def poules_next(
    event: Annotated[str, typer.Option("--event", help="Le tournoi, par son nom (champ Nom de la feuille Tournoi).")],
    barrages: Annotated[bool, typer.Option("--barrages", help="Ajouter les parties de barrage à jouer.")] = False,
    date: Annotated[Optional[str], typer.Option(
        "--date", help="Le jour du lancement des parties ajoutées (jj/mm/aaaa ; par défaut aujourd’hui).")] = None,
    inputs: InputsOption = Path("inputs"),
) -> None:
    """Écrire le tour suivant (poules et parties, résultats à saisir) dans la feuille Parties.

    Quand le tour en cours est complet, ajoute les poules et toutes les parties du tour suivant (le
    tour 1 sur un classeur qui n’a que ses inscrits). Tant que des résultats manquent ou qu’un barrage
    est en attente, ne change rien, dit pourquoi et sort en erreur ; --barrages ajoute alors les
    parties de barrage. Aucune case déjà saisie n’est jamais modifiée, ni son format : les
    nouvelles lignes prennent le format de celle du dessus, les poules gardent vos noms (1, 2… ou A, B…)."""
    from reportgen import circuits
    from reportgen.circuits.poules.next_round import propose
    from reportgen.ingest.text import normalise_label
    from reportgen.pipeline import load

    day = date_option(date, "--date") or clock.today()
    league = load(inputs)
    if "poules" not in circuits.CIRCUITS:
        err("le circuit poules n’est pas pris en charge")
        raise typer.Exit(1)
    found = [e for e in league.circuits["poules"].events if normalise_label(e.name) == normalise_label(event)]
    if not found:
        _unknown(event, inputs, sorted(e.name for e in league.circuits["poules"].events), league.problems_of("poules"))
    if league.problems:
        print_problems(league.problems + league.circuits["poules"].problems, [])
        raise typer.Exit(1)
    if len(found) > 1:
        err(f"plusieurs tournois poules s’appellent « {event} » : " + ", ".join(e.id for e in found))
        raise typer.Exit(1)
    proposal = propose(found[0], league.settings.circuits["poules"], day, barrages)
    if proposal.problems:
        print_problems(proposal.problems, [])
        raise typer.Exit(1)
    if proposal.change is None:
        for line in proposal.said:
            err(line)
        raise typer.Exit(1)
    write_change(proposal.change, inputs)
    for line in proposal.said:
        typer.echo(line)
    err(f"classeur écrit : {inputs / proposal.change.path} ; lancez « make » pour le bulletin et les avis aux joueurs")


def _unknown(event: str, inputs: Path, known: list[str], problems: list) -> NoReturn:
    """No tournament of that name: said alone, the league's notes left to `check` (a mistyped name,
    exit 2); but when a poules workbook could not be read, the one meant may be it: its problems
    first, and the workbooks' exit code (1)."""
    from reportgen import french

    names_nothing(f"aucun tournoi poules ne s’appelle « {event} » dans {inputs}" + french.existing("tournois", known),
                  problems)
