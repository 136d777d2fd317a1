"""What every command shares: the inputs option, messages on standard error, located problems,
dates typed on the command line."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from reportgen import french

if TYPE_CHECKING:
    from reportgen.model import InputChange

InputsOption = Annotated[Path, typer.Option("--inputs", help="Dossier des classeurs reçus des clubs.")]


def err(message: str) -> None:
    typer.echo(message, err=True)


def print_problems(problems: Iterable[object], notices: Iterable[str], stops: bool = False) -> None:
    """The notices, the warnings (model.Level: they block nothing), the problems to fix, then the
    circuits that wait for those of a circuit they depend on (held: said, not counted as problems);
    `stops`: the command stops for all of them (a server's key missing is a warning for the build,
    not for the command that connects to it), so none is called a warning."""
    from reportgen.model import Level

    for notice in notices:
        err(f"note : {notice}")
    problems = list(problems)

    def level(problem: object) -> Level:
        return Level.BLOCKING if stops else getattr(problem, "level", Level.BLOCKING)

    warnings = [problem for problem in problems if level(problem) is Level.WARNING]
    blocking = [problem for problem in problems if level(problem) is Level.BLOCKING]
    held = [problem for problem in problems if level(problem) is Level.HELD]
    if warnings:
        listed(f"{french.plural(len(warnings), 'avertissement')} (rien n’est bloqué, mais à corriger) "
               f"{_where(warnings)} :", warnings)
    if blocking:
        listed(f"{french.plural(len(blocking), 'problème')} à corriger {_where(blocking)} :", blocking)
    if held:
        many = len(held) > 1
        listed(f"{french.plural(len(held), 'circuit')} en attente d’un circuit dont "
               f"{'ils dépendent' if many else 'il dépend'} (rien à corriger dans {'leurs' if many else 'ses'} "
               "propres classeurs) :", held)


def write_change(change: InputChange, inputs: Path) -> None:
    """A command's change written to its workbook in inputs/ (render/inputs.py `apply`); one that
    would lose a typed value, or a workbook other than .xlsx, is not written: its problems said,
    the command stops (exit 1)."""
    from reportgen.render.inputs import apply

    lost = apply(change, inputs)
    if lost:
        print_problems(lost, [])
        raise typer.Exit(1)


def listed(heading: str, items: Iterable[object]) -> None:
    """A heading, then each item on a line of its own (standard error)."""
    err(heading)
    for item in items:
        err(f"  - {item}")


def names_nothing(said: str, unreadable: Sequence[object] = (),
                  maybe: str = "ou son classeur est à corriger") -> NoReturn:
    """A value typed on the command line that names nothing of the league (a club code, a
    tournament, a player, a season): `said` alone, which says what exists or how to list it, and
    the exit code of a mistyped command (2, README) — no league note before it, the workbooks'
    being for `check`. But when workbooks could not be read (`unreadable`: their problems), the one
    meant may be among them: their problems first, `maybe` after the line, and the workbooks' exit
    code (1)."""
    if unreadable:
        print_problems(unreadable, [])
        err(f"{said} ({maybe}, voir ci-dessus)")
        raise typer.Exit(1)
    err(said)
    raise typer.Exit(2)


def holding_workbooks(inputs: Path) -> None:
    """`build` and `check` of a folder that holds no workbook (a wrong --inputs, or the clubs'
    workbooks not there yet) would publish nothing and find no problem, as if the league had none:
    said in one line with what to do, exit 2, a request the league cannot answer yet though no
    workbook is at fault (README), nothing written. A folder that does not exist is a mistyped
    --inputs (ingest/discover.py `folder_named`). `make` builds inputs/ only once it holds one."""
    from reportgen.ingest.discover import holds_workbook

    if not holds_workbook(inputs):
        err(f"aucun classeur dans {inputs} — déposez-y ceux des clubs, ou indiquez le bon dossier avec --inputs")
        raise typer.Exit(2)


def _where(problems: list[object]) -> str:
    """« dans les classeurs », « dans reportgen.toml », or how many in each: a settings file
    (.toml) is not a workbook."""
    paths = [getattr(getattr(problem, "where", None), "path", "") for problem in problems]
    settings = Counter(path for path in paths if path.endswith(".toml"))
    workbooks = len(paths) - sum(settings.values())
    if not settings:
        return "dans les classeurs"
    if not workbooks and len(settings) == 1:
        return f"dans {next(iter(settings))}"
    counts = ([f"{workbooks} dans les classeurs"] if workbooks else []) + \
        [f"{count} dans {name}" for name, count in sorted(settings.items())]
    return "(" + ", ".join(counts) + ")"


def date_option(value: str | None, option: str) -> dt.date | None:
    """A date typed on the command line, as the workbooks accept them; a usage error otherwise."""
    from reportgen.ingest import values

    if value is None:
        return None
    try:
        return values.date(value)
    except values.BadValue as bad:  # with its fix, as a workbook's date says it (« février 2026 compte 28 jours »)
        raise typer.BadParameter(f"{bad.message} — {bad.fix}" if bad.fix else bad.message, param_hint=option) from None




def unknown_circuit(typed: str, option: str) -> typer.BadParameter:
    """A circuit typed on the command line that is none of the league's: the usage error names it,
    them all, then the nearest when one is close (a letter left out: the one meant)."""
    from reportgen import circuits
    from reportgen.ingest.text import nearest_name

    near = nearest_name(typed, circuits.CIRCUITS)
    return typer.BadParameter(f"circuit « {typed} » inconnu ; circuits : {', '.join(circuits.CIRCUITS)}"
                              + (f" — vouliez-vous dire « {near} » ?" if near else ""), param_hint=option)
