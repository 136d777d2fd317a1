"""`reportgen history "NOM Prénom"`: a player's record over every season."""

from __future__ import annotations

import csv
import io
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from reportgen.cli_support import InputsOption, err, names_nothing
from reportgen.commands.delivery_options import ArchiveOption

# `so_far` (the table's « provisoire ») added before the last, `tied`: the columns before it as scripts read them
COLUMNS = ["season", "circuit", "rank", "points", "played", "tournaments", "player", "licence", "final", "source",
           "so_far", "tied"]


class HistoryFormat(str, Enum):
    table = "table"
    csv = "csv"


def history(
    player: Annotated[str, typer.Argument(
        metavar="joueur", help="Le joueur : « NOM Prénom » (accents et casse libres ; "
                               "ordre des mots libre si un seul joueur a ces mots) ou sa licence.")],
    format: Annotated[HistoryFormat, typer.Option("--format", help="table ou csv.")] = HistoryFormat.table,
    inputs: InputsOption = Path("inputs"),
    archive: ArchiveOption = Path("archive"),
) -> None:
    """Le parcours d’un joueur, saison par saison : circuit, place, points et tournois joués
    (les saisons archivées depuis la base de données, les autres depuis inputs/)."""
    from reportgen import french
    from reportgen.delivery.history import as_rows
    from reportgen.delivery.history import history as find
    from reportgen.ingest.discover import folder_named
    from reportgen.render.ranking import spreadsheet_safe

    folder_named(inputs)  # a mistyped --inputs, not « aucun joueur … dans » a folder that is not there
    said: list[str] = []
    records, problems = find(player, inputs, archive, say=said.append)
    if not records:
        _nobody(player, inputs, problems)
    for line in said + [f"note : {problem}" for problem in problems]:
        err(line)
    if format is HistoryFormat.csv:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({key: spreadsheet_safe(value) for key, value in row.items()} for row in as_rows(records))
        sys.stdout.write(buffer.getvalue())
        return
    people = sorted({(r.player, r.licence) for r in records})
    typer.echo(" ; ".join(f"{name}" + (f" (licence {licence})" if licence else "") for name, licence in people))
    for record in records:
        # « 1re place », « hors classement »: « 1er », « non classé » said the player is a man (the
        # league knows no gender), Anaïs as Paul
        if record.rank is None:
            place = "hors classement"
        else:
            place = french.place(record.rank, record.tied)
            if record.points is not None:  # a Tantrix event's standings count TPs, not points
                place += f", {french.points(record.points).replace(french.THOUSANDS_SEPARATOR, ' ')} points"
        kind = "dernier classement"
        if record.final:
            kind = (f"classement final provisoire, tournois de {record.season} seulement" if record.so_far
                    else "classement final")
        typer.echo(f"{record.season}  {record.circuit} : {place} ({kind} ; {record.source})")
        for played in record.tournaments:
            where = f" : {french.place(played.place)}" if played.place is not None else ""
            typer.echo(f"    {french.date_short(played.date)}  {played.tournament}{where}")


def _nobody(player: str, inputs: Path, problems: list[str]) -> NoReturn:
    """No player of that name: a mistyped command (exit 2), said alone, as is a name of several
    players, with the names it may have meant; but while circuits have workbooks to correct, their
    seasons left out may hold him: those first, and the workbooks' exit code (1)."""
    from reportgen.delivery.history import NameOfMany, NearNames

    many = [problem for problem in problems if isinstance(problem, NameOfMany)]
    if many:
        names_nothing(many[0])
    said = f"aucun joueur « {player} » dans l’archive ni dans {inputs}"
    near = [problem for problem in problems if isinstance(problem, NearNames)]
    if near:
        names_nothing(f"{said} ; {near[0]}")
    if problems:
        for problem in problems:
            err(f"note : {problem}")
        err(f"{said} (ou ses classeurs sont à corriger, voir ci-dessus)")
        raise typer.Exit(1)
    names_nothing(f"{said} (« reportgen players list » liste ceux des classeurs)")
