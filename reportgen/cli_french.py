"""The command line's own words in French: help, usage and usage errors.

Typer (0.29, pinned in constraints.txt) prints English that no setting changes: its panel titles
are module constants, its vendored click writes "Usage:", "COMMAND [ARGS]...", "Show this message
and exit." and its error messages as literals, and it names each value's type in English (`<int>`,
`<path>`; `<bool>` even beside a flag, which takes no value). `install()` replaces the constants and
wraps the places those words come from; `tests/test_cli.py` reads every command's help on real
commands, so a Typer upgrade that moves them fails there rather than printing English to the
secretary.

Help texts are plain text: in Typer's "rich" mode a `[mail]` in a help would be taken for a style
tag and vanish, and a docstring's line breaks would be kept where the terminal is narrower than the
source. `_plain_help` escapes the one and joins the other (paragraphs stay apart). They are typeset
as the error panels are (`french.typography`), through the same wrapper: Typer offers no public
place to change a help text on its way to rich.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any

from reportgen.french import typography

HELP_TEXT = "Afficher cette aide et quitter."
USAGE = "Utilisation : "
SUBCOMMAND = ("COMMAND [ARGS]...", "COMMANDE [ARGUMENTS]...")  # a group's usage line, after [OPTIONS]
# The type Typer shows beside an option or argument (`<int>`), in French.
TYPES = {"str": "texte", "int": "entier", "float": "nombre", "path": "chemin", "file": "fichier",
         "directory": "dossier", "datetime": "date"}

# Error messages, English pattern -> French (applied once each, in order).
MESSAGES: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), french) for pattern, french in [
    (r"No such command '([^']*)'\.? ?", r"commande inconnue : « \1 »."),
    (r"No such option: (\S+)", r"option inconnue : \1."),
    (r"Did you mean '([^']+)'\?", r" Vouliez-vous dire « \1 » ?"),
    (r"Did you mean ([^?]+)\?", r" Vouliez-vous dire \1 ?"),
    (r"Missing argument '([^']*)'\.", r"argument manquant : \1."),
    (r"Missing option '([^']*)'\.", r"option manquante : \1."),
    (r"Missing parameter '([^']*)'\.", r"paramètre manquant : \1."),
    (r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", r"argument(s) en trop : \1."),
    (r"\(Possible options: ([^)]*)\)", r"Vouliez-vous dire \1 ?"),
    (r"Option '([^']*)' requires an argument\.", r"l’option \1 attend une valeur."),
    (r"Invalid value for '?([^:']+)'?: ", r"valeur invalide pour \1 : "),
    # Typer 0.29 checks values with pydantic, whose messages these are (the value is not in them).
    (r"Value error, ", ""),
    (r"Input should be a valid integer[^.]*\.?", "un nombre entier est attendu."),
    (r"Input should be a valid number[^.]*\.?", "un nombre est attendu."),
    (r"'([^']*)' is not one of (.+)\.", r"« \1 » n’est pas l’une des valeurs \2."),
    (r"'([^']*)' is not a valid integer( range)?\.", r"« \1 » n’est pas un nombre entier."),
    (r"Value '([^']*)' is not a valid (\w+)\.", r"« \1 » n’est pas une valeur valide (\2)."),
]]


# A season typed other than as a year: what to type instead.
SEASON_FIX = " ; tapez l’année de la saison en chiffres, par exemple {example}."
# The words of Typer's help and errors when rich is not there (plain click output), in French.
PLAIN_WORDS = {"Commands": "Commandes", "required": "obligatoire", "default: {default}": "par défaut : {default}",
               "Aborted!": "Interrompu.", "env var: {var}": "variable d’environnement : {var}"}


def error_message(english: str, param: Any) -> str:
    """A usage error's message in French, with what to type for a season that is not a year."""
    message = translate(english)
    if param is not None and param.name == "season" and "nombre entier" in message:
        example = "--season 2026" if param.param_type_name == "option" else "2026"
        message = message.rstrip(".") + SEASON_FIX.format(example=example)
    return message


def translate(message: str) -> str:
    for pattern, french in MESSAGES:
        message = pattern.sub(french, message, count=1)
    # The accepted values, quoted 'text', 'json' by Typer: « text », « json ».
    message = re.sub(r"(?<=l’une des valeurs )[^«»]+$", lambda m: re.sub(r"'([^']*)'", r"« \1 »", m[0]), message)
    return re.sub(r"\s+\.", ".", message).replace(".. ", ". ").strip()


class _WhenImported(importlib.abc.MetaPathFinder):
    """Translates `typer.rich_utils` as Typer imports it: only to print help or an error. Imported
    up front, it and rich's markdown and traceback modules cost every command 0.06-0.09 s, a third
    of a build's start-up."""

    finding = False

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != "typer.rich_utils" or self.finding:
            return None
        self.finding = True  # the module's own spec, found by the other finders
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.finding = False
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            execute(module)
            _translate(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _rich_missing() -> bool:
    try:
        return importlib.util.find_spec("rich") is None
    except (ImportError, ValueError):
        return True


def install() -> None:
    import typer.main
    from typer import core as typer_core
    from typer._click import core, exceptions, formatting, utils

    if _rich_missing():
        # Typer 0.29 takes rich for granted: without it, every error and help would fail to import
        # it. Its plain (click) output is used instead, in French.
        typer_core.HAS_RICH = typer.main.HAS_RICH = False
        typer_core._ = lambda words: PLAIN_WORDS.get(words, words)  # type: ignore[attr-defined,assignment]

        def french_show(self: Any, file: Any = None) -> None:
            file = file if file is not None else exceptions.get_text_stderr()
            context = getattr(self, "ctx", None)
            if context is not None:
                helped = context.command.get_help_option(context) is not None
                hint = f"Aide : {context.command_path} {context.help_option_names[0]}\n" if helped else ""
                utils.echo(f"{context.get_usage()}\n{hint}", file=file)
            utils.echo(f"erreur : {error_message(self.format_message(), getattr(self, 'param', None))}", file=file)

        exceptions.ClickException.show = french_show  # type: ignore[method-assign]
        exceptions.UsageError.show = french_show  # type: ignore[method-assign]
    elif "typer.rich_utils" in sys.modules:
        _translate(sys.modules["typer.rich_utils"])
    elif not any(isinstance(finder, _WhenImported) for finder in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported())

    write_usage = formatting.HelpFormatter.write_usage

    def french_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args.replace(*SUBCOMMAND), USAGE if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = french_usage  # type: ignore[method-assign]

    get_help_option = core.Command.get_help_option

    def french_help_option(self: Any, ctx: Any) -> Any:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = HELP_TEXT
        return option

    core.Command.get_help_option = french_help_option  # type: ignore[method-assign]

    display_type = typer_core._TyperParameter.display_type

    def french_type(self: Any, ctx: Any) -> str:
        label = display_type(self, ctx)
        return f"<{TYPES.get(label[1:-1], label[1:-1])}>" if label.startswith("<") else label

    typer_core._TyperParameter.display_type = french_type  # type: ignore[method-assign]

    display_option_type = typer_core.TyperOption.display_type_rich

    def no_type_for_a_flag(self: Any, ctx: Any) -> str | None:
        # A flag (--send, --help) takes no value: click's own help shows none, Typer's panel `<bool>`.
        return None if self.is_flag and not self.count else display_option_type(self, ctx)

    typer_core.TyperOption.display_type_rich = no_type_for_a_flag  # type: ignore[method-assign]


def _translate(rich_utils: Any) -> None:
    rich_utils.ERRORS_PANEL_TITLE = "Erreur"
    rich_utils.COMMANDS_PANEL_TITLE = "Commandes"
    rich_utils.ARGUMENTS_PANEL_TITLE = "Arguments"
    rich_utils.OPTIONS_PANEL_TITLE = "Options"
    rich_utils.DEFAULT_STRING = "[par défaut\u00a0: {}]"  # typeset as the help beside it
    rich_utils.REQUIRED_LONG_STRING = "[obligatoire]"
    rich_utils.ABORTED_TEXT = "Interrompu."
    rich_utils.RICH_HELP = "Aide : [blue]{command_path} {help_option}[/]"

    make_rich_text: Callable[..., Any] = rich_utils._make_rich_text

    def plain_help(*, text: str, style: str = "", markup_mode: Any) -> Any:
        # laid out in lines by rich, as an error's panel is: typeset the same way (a « : » never
        # starts a line; `_no_break_kept` keeps rich from wrapping at those spaces)
        if markup_mode == "rich":
            text = typography(_plain_help(text))
        return make_rich_text(text=text, style=style, markup_mode=markup_mode)

    rich_utils._make_rich_text = plain_help

    format_error: Callable[[Any], None] = rich_utils.rich_format_error

    def french_error(error: Any) -> None:
        # laid out in lines by rich: typeset as a page is, « grand-sud » never cut at its guillemets
        english, param = error.format_message, getattr(error, "param", None)
        error.format_message = lambda: typography(error_message(english(), param))
        format_error(error)

    rich_utils.rich_format_error = french_error  # type: ignore[assignment]
    _no_break_kept()


# What rich takes for a word when it wraps a line: its own pattern (`\s*\S+\s*`), which cuts at every
# space, a no-break one included; here a no-break space (word or narrow) is part of the word.
_WORD = re.compile(r"[^\S\u00a0\u202f]*[\S\u00a0\u202f]+[^\S\u00a0\u202f]*")


def _no_break_kept() -> None:
    """Rich wraps a panel's text at its no-break spaces too (rich 15's `_wrap.re_word`): the typography
    of an error's message held only where rich keeps them. `tests/test_cli.py` fails if an upgrade
    moves that pattern."""
    from rich import _wrap

    _wrap.re_word = _WORD


def _plain_help(text: str) -> str:
    """A help text as rich prints it verbatim: its brackets escaped (`[mail]` is not a style), the
    line breaks inside a paragraph joined (the terminal wraps), paragraphs kept apart."""
    from rich.markup import escape

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return escape("\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs))
