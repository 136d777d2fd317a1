"""What every command shares: the inputs option, messages on standard error, located problems,
dates typed on the command line."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from reportgen import french

InputsOption = Annotated[Path, typer.Option("--inputs", help="Dossier des classeurs reçus des clubs.")]


def err(message: str) -> None:
    typer.echo(message, err=True)


def print_problems(problems: Iterable[object], notices: Iterable[str]) -> None:
    for notice in notices:
        err(f"note : {notice}")
    problems = list(problems)
    if problems:
        err(f"{french.plural(len(problems), 'problème')} à corriger dans les classeurs :")
        for problem in problems:
            err(f"  - {problem}")


def date_option(value: str | None, option: str) -> dt.date | None:
    """A date typed on the command line, as the workbooks accept them; a usage error otherwise."""
    from reportgen.ingest import values

    if value is None:
        return None
    try:
        return values.date(value)
    except values.BadValue as bad:
        raise typer.BadParameter(bad.message, param_hint=option) from None


