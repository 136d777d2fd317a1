"""The command line's own words in French: help, usage and usage errors.

Typer (0.29, pinned in constraints.txt) prints English that no setting changes: its panel titles
are module constants, its vendored click writes "Usage:", "Show this message and exit." and its
error messages as literals. `install()` replaces the constants and wraps the three places those
literals come from; `tests/test_cli.py` checks the result on real commands, so a Typer upgrade that
moves them fails there rather than printing English to the secretary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

HELP_TEXT = "Afficher cette aide et quitter."
USAGE = "Utilisation : "

# Error messages, English pattern -> French (applied once each, in order).
MESSAGES: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), french) for pattern, french in [
    (r"No such command '([^']*)'\.? ?", r"commande inconnue : « \1 »."),
    (r"No such option: (\S+)", r"option inconnue : \1."),
    (r"Did you mean ([^?]+)\?", r" Vouliez-vous dire \1 ?"),
    (r"Missing argument '([^']*)'\.", r"argument manquant : \1."),
    (r"Missing option '([^']*)'\.", r"option manquante : \1."),
    (r"Missing parameter '([^']*)'\.", r"paramètre manquant : \1."),
    (r"Got unexpected extra arguments? \((.*)\)", r"argument(s) en trop : \1."),
    (r"Option '([^']*)' requires an argument\.", r"l'option \1 attend une valeur."),
    (r"Invalid value for ([^:]+): ", r"valeur invalide pour \1 : "),
    (r"'([^']*)' is not one of (.+)\.", r"« \1 » n'est pas l'une des valeurs \2."),
    (r"'([^']*)' is not a valid integer( range)?\.", r"« \1 » n'est pas un nombre entier."),
    (r"Value '([^']*)' is not a valid (\w+)\.", r"« \1 » n'est pas une valeur valide (\2)."),
]]


def translate(message: str) -> str:
    for pattern, french in MESSAGES:
        message = pattern.sub(french, message, count=1)
    return re.sub(r"\s+\.", ".", message).replace(".. ", ". ").strip()


def install() -> None:
    from typer import rich_utils
    from typer._click import core, formatting

    rich_utils.ERRORS_PANEL_TITLE = "Erreur"
    rich_utils.COMMANDS_PANEL_TITLE = "Commandes"
    rich_utils.ARGUMENTS_PANEL_TITLE = "Arguments"
    rich_utils.OPTIONS_PANEL_TITLE = "Options"
    rich_utils.DEFAULT_STRING = "[par défaut : {}]"
    rich_utils.REQUIRED_LONG_STRING = "[obligatoire]"
    rich_utils.ABORTED_TEXT = "Interrompu."
    rich_utils.RICH_HELP = "Aide : [blue]{command_path} {help_option}[/]"

    write_usage = formatting.HelpFormatter.write_usage

    def french_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, USAGE if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = french_usage  # type: ignore[method-assign]

    get_help_option = core.Command.get_help_option

    def french_help_option(self: Any, ctx: Any) -> Any:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = HELP_TEXT
        return option

    core.Command.get_help_option = french_help_option  # type: ignore[method-assign]

    format_error: Callable[[Any], None] = rich_utils.rich_format_error

    def french_error(error: Any) -> None:
        english = error.format_message
        error.format_message = lambda: translate(english())
        format_error(error)

    rich_utils.rich_format_error = french_error  # type: ignore[assignment]
