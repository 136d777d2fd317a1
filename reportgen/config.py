"""League settings: defaults, overridden by an optional `reportgen.toml` in the inputs folder.

    [league]
    name = "Ligue Grand Sud"

    [circuits.<circuit>]   # a circuit's settings, by its name (`reportgen circuits`)
    min_counted_results = 1

    [mail]
    host = "smtp.example.org"
    port = 587
    security = "starttls"
    sender = "Ligue Grand Sud <secretariat@example.org>"
    user = "secretariat@example.org"
    timeout = 20        # seconds each exchange with the server may take
    run_timeout = 600   # seconds the whole `mail --send` may take

    [site]                 # where `reportgen publish` sends the site (outputs/), over SFTP
    host = "ssh.example.org"
    port = 22
    user = "ligue"
    folder = "www"         # on the server, from the login folder unless it starts with /
    key = "~/.ssh/id_ed25519"            # optional
    known_hosts = "~/.ssh/known_hosts"   # optional (this one by default)
    timeout = 20           # seconds each exchange with the server may take

    [calendar]
    remind_after_days = 7   # `reportgen remind`: days after an announced tournament before a reminder

    [inbox]             # the mailbox `reportgen inbox` reads the clubs' workbooks from (IMAP)
    host = "imap.example.org"
    port = 993
    security = "ssl"    # or "starttls", "none"
    user = "secretariat@example.org"
    folder = "INBOX"    # where the clubs' messages arrive
    done = "Traités"    # where handled messages go (created if missing)

The file is validated like a workbook cell: a syntax error, a table or key reportgen does not know,
a value of the wrong type or out of its range is a `Problem` located in `reportgen.toml` (the table
as the "sheet", the key as the "cell") with its fix, in French. `load` reports every problem it
finds and never raises; a circuit with any wrong setting keeps all its defaults, so scoring never
sees a wrong value (and the problems block every circuit anyway).

What each setting accepts comes from its dataclass: the type from the field's annotation, the
bounds from `setting(...)` (its metadata). A settings class may also define `conflicts()`, for
settings that are valid one by one but not together.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import re
import tomllib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen.model import Problem, SourceRef
from reportgen.problems import (
    BAD_VALUE,
    CONFLICTING_SETTINGS,
    MISSING_SETTING,
    OUT_OF_RANGE,
    UNKNOWN_SETTING,
    UNREADABLE,
    Kind,
)

SETTINGS_FILE = "reportgen.toml"
TABLES = ("league", "mail", "site", "calendar", "inbox", "circuits")  # the top-level tables reportgen reads
# The SMTP password is never written in a file: `reportgen mail --send` reads it from this variable.
PASSWORD_VARIABLE = "REPORTGEN_SMTP_PASSWORD"
# Nor the SFTP password: `reportgen publish` reads it from this one.
SFTP_PASSWORD_VARIABLE = "REPORTGEN_SFTP_PASSWORD"
# Nor the IMAP password: `reportgen inbox` reads it from this one.
IMAP_PASSWORD_VARIABLE = "REPORTGEN_IMAP_PASSWORD"
# Keys that would hold a password: refused in any table that connects to a server.
_SECRET_KEYS = ("password", "pass", "passwd", "mot_de_passe")

# A check of a whole value (after its type and bounds): None when right, else what is wrong, in French.
Check = Callable[[Any], "str | None"]


def setting(default: Any, *, minimum: float | None = None, maximum: float | None = None,
            choices: tuple[Any, ...] | None = None, min_length: int | None = None,
            check: Check | None = None, example: Any = None) -> Any:
    """A field of a settings dataclass, with what a `reportgen.toml` override must respect.

    `minimum`, `maximum` and `choices` apply to every number or text of the value (each item of a
    list, of a list of lists); `min_length` to the value itself (a text's characters, blanks aside,
    or a list's items); `check` sees the whole value once its type and bounds are right; `example`
    is the value a fix suggests when the default is none (an empty text).
    """
    rules = {"min": minimum, "max": maximum, "choices": choices, "min_length": min_length, "check": check,
             "example": example}
    return field(default=default, metadata={key: rule for key, rule in rules.items() if rule is not None})


_ADDRESS = re.compile(r"[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:.]+")


def mail_address(value: str) -> str | None:
    """A sender as a mail program writes it: an address, or a name and an address in <>."""
    from email.utils import parseaddr

    name, address = parseaddr(value)
    if not _ADDRESS.fullmatch(address) or (address != value.strip() and "<" not in value):
        return "ce n'est pas une adresse électronique, seule ou après un nom"
    return None


@dataclass(frozen=True)
class Mail:
    """The [mail] table: the SMTP server `reportgen mail --send` sends through, and the sender of
    the drafts (without it, a draft has no From: the mail program adds it). The password comes
    from the environment (PASSWORD_VARIABLE), never from a file."""

    host: str = setting("", min_length=1, example="smtp.example.org")
    port: int = setting(587, minimum=1, maximum=65535)
    security: str = setting("starttls", choices=("starttls", "ssl", "none"))
    sender: str = setting("", min_length=1, check=mail_address, example="Ligue <secretariat@example.org>")
    user: str = setting("", example="secretariat@example.org")  # optional: no login when empty
    # Seconds: each exchange with the server (a silent server fails that club, not the run), and the
    # whole run (what is left when it is spent is not attempted, and goes next run).
    timeout: float = setting(20.0, minimum=0.1, maximum=600)
    run_timeout: float = setting(600.0, minimum=0.1, maximum=86400)

    # Keys only `mail --send` needs (no default makes sense); drafts need none: a [mail] table may
    # give the sender alone, or be absent (see `missing_for_sending`).
    for_sending = ("host", "sender")
    required = ()  # keys a [mail] table must write: none (a [site] table must write its server's)


def missing_for_sending(mail: Mail | None) -> list[Problem]:
    """What `reportgen mail --send` lacks in the [mail] table (all of it when there is none)."""
    mail = mail or Mail()
    return [MISSING_SETTING(SourceRef(SETTINGS_FILE, "mail"), key=key, table="mail",
                            why=" : l'envoi (--send) en a besoin",
                            example=_toml(Mail.__dataclass_fields__[key].metadata["example"]))
            for key in Mail.for_sending if not getattr(mail, key)]


@dataclass(frozen=True)
class Site:
    """The [site] table: the SFTP server `reportgen publish` sends outputs/ to. The password comes
    from the environment (SFTP_PASSWORD_VARIABLE), never from a file; `key` and `known_hosts` are
    paths on this machine (~ is the user's folder; relative: from the folder of reportgen.toml)."""

    host: str = setting("", min_length=1, example="ssh.example.org")
    port: int = setting(22, minimum=1, maximum=65535)
    user: str = setting("", min_length=1, example="ligue")
    folder: str = setting("", min_length=1, example="www")  # on the server
    key: str = setting("", example="~/.ssh/id_ed25519")  # optional: the agent's and ~/.ssh's keys otherwise
    known_hosts: str = setting("", example="~/.ssh/known_hosts")  # optional: ~/.ssh/known_hosts otherwise
    timeout: float = setting(20.0, minimum=0.1, maximum=600)  # seconds each exchange may take

    required = ("host", "user", "folder")  # keys a [site] table must write


@dataclass(frozen=True)
class CalendarSettings:
    """The [calendar] table: when `reportgen remind` reminds a club of the workbook it owes."""

    # Days after an announced tournament (inputs/calendrier.xlsx) without its workbook before the
    # organising club is reminded: a club sends its results within the week, as a rule.
    remind_after_days: int = setting(7, minimum=1, maximum=365)


def _folder_name(value: str) -> str | None:
    """An IMAP folder name as typed in a mail program: no quote, backslash or control character
    (they would need escaping on the wire, and no server folder the secretary picks has them)."""
    if any(c in value for c in '"\\') or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return "un nom de dossier ne contient ni guillemet, ni barre oblique inverse, ni caractère invisible"
    return None


@dataclass(frozen=True)
class Inbox:
    """The [inbox] table: the IMAP mailbox `reportgen inbox` reads the clubs' workbooks from. The
    password comes from the environment (IMAP_PASSWORD_VARIABLE), never from a file."""

    host: str = setting("", min_length=1, example="imap.example.org")
    port: int = setting(993, minimum=1, maximum=65535)
    security: str = setting("ssl", choices=("ssl", "starttls", "none"))
    user: str = setting("", min_length=1, example="secretariat@example.org")
    folder: str = setting("INBOX", min_length=1, check=_folder_name)  # where the clubs' messages arrive
    done: str = setting("Traités", min_length=1, check=_folder_name)  # where handled messages are moved
    timeout: float = setting(30.0, minimum=0.1, maximum=600)  # seconds each exchange with the server may take

    required = ("host", "user")  # keys an [inbox] table must write (no default makes sense)


@dataclass(frozen=True)
class League:
    name: str = setting("Ligue Grand Sud des clubs de Des Chiffres et des Lettres", min_length=1)
    # slug -> that circuit's Settings; set by the [circuits.<slug>] tables, not a key of [league].
    circuits: dict[str, Any] = field(default_factory=dict, metadata={"table": False})
    # The [mail] table; None when the file has none (or a wrong one: its problems say why).
    mail: Mail | None = field(default=None, metadata={"table": False})
    # The [site] table, likewise.
    site: Site | None = field(default=None, metadata={"table": False})
    calendar: CalendarSettings = field(default_factory=CalendarSettings, metadata={"table": False})
    # The [inbox] table; None likewise.
    inbox: Inbox | None = field(default=None, metadata={"table": False})


def load(inputs: Path, defaults: dict[str, Any], problems: list[Problem]) -> League:
    """The league's settings; `defaults` maps each circuit slug to its default Settings.

    Appends a located problem to `problems` for everything wrong in `reportgen.toml`; never raises.
    """
    league = League(circuits=dict(defaults))
    path = inputs / SETTINGS_FILE
    if not path.exists():
        return league
    try:
        text = path.read_text(encoding="utf-8-sig")  # Notepad may add a BOM
        raw = tomllib.loads(text)
    except UnicodeDecodeError:
        problems.append(UNREADABLE(SourceRef(SETTINGS_FILE), message="le fichier de réglages n'est pas enregistré en "
                                   "UTF-8", fix="enregistrez-le en UTF-8 (« Unicode (UTF-8) » dans la liste des encodages)"))
        return league
    except tomllib.TOMLDecodeError as error:
        problems.append(UNREADABLE(SourceRef(SETTINGS_FILE), message=_syntax_message(error),
                                   fix="corrigez cette ligne : un réglage s'écrit nom = valeur, un texte entre "
                                   'guillemets (name = "Ligue"), une liste entre crochets (["09", "11"]), '
                                   f"une table seule sur sa ligne ([circuits.{next(iter(defaults), 'nom')}])"))
        return league
    except OSError as error:
        problems.append(UNREADABLE(SourceRef(SETTINGS_FILE),
                                   message=f"le fichier de réglages ne peut pas être lu ({error.strerror})",
                                   fix="vérifiez que inputs/reportgen.toml est un fichier lisible"))
        return league
    return _Reader(text, defaults, problems).league(raw, league)


def load_site(inputs: Path, problems: list[Problem]) -> Site | None:
    """The [site] table of `reportgen.toml` alone (what `reportgen publish` needs: no circuit is
    loaded), or None when the file has none; its problems, and the file's own, go to `problems`."""
    found: list[Problem] = []
    league = load(inputs, {}, found)
    # Without the circuits' defaults every [circuits.*] table reads as unknown: not publish's concern.
    problems.extend(p for p in found if not (p.where.sheet or "").startswith("circuits"))
    return league.site


class _Reader:
    """The checks of one `reportgen.toml`: each problem located at its table and key."""

    def __init__(self, text: str, defaults: dict[str, Any], problems: list[Problem]) -> None:
        self.lines = _key_lines(text)
        self.defaults = defaults
        self.problems = problems

    def league(self, raw: dict[str, Any], league: League) -> League:
        circuits = dict(league.circuits)
        name = league.name
        mail = site = inbox = None
        calendar = league.calendar
        for key, value in raw.items():
            if key == "league":
                if self._is_table(value, ("league",)):
                    name = self.overrides(league, value, ("league",)).get("name", name)
            elif key == "mail":
                if self._is_table(value, ("mail",)):
                    mail = self.server(value, Mail, "mail", PASSWORD_VARIABLE, "au moment d'envoyer")
            elif key == "site":
                if self._is_table(value, ("site",)):
                    site = self.server(value, Site, "site", SFTP_PASSWORD_VARIABLE, "au moment de publier")
            elif key == "inbox":
                if self._is_table(value, ("inbox",)):
                    inbox = self.server(value, Inbox, "inbox", IMAP_PASSWORD_VARIABLE,
                                        "au moment de lancer reportgen inbox")
            elif key == "calendar":
                if self._is_table(value, ("calendar",)):
                    calendar = dataclasses.replace(calendar, **self.overrides(calendar, value, ("calendar",)))
            elif key == "circuits":
                if self._is_table(value, ("circuits",)):
                    for slug, table in value.items():
                        circuits[slug] = self.circuit(slug, table)
            elif isinstance(value, dict):
                self.add(key, None, (key,), UNKNOWN_SETTING, message=f"la table [{key}] n'existe pas",
                         fix=self._tables_fix(key))
            else:
                self.add(key, None, (key,), UNKNOWN_SETTING, message=f"le réglage « {key} » est en dehors de toute "
                         "table", fix=self._place_fix(key))
        return League(name=name, circuits={slug: circuits[slug] for slug in self.defaults}, mail=mail, site=site,
                      calendar=calendar, inbox=inbox)

    def server(self, table: dict[str, Any], settings: Any, name: str, variable: str, when: str) -> Any:
        """The settings of a table that connects to a server ([mail], [site], [inbox]; `settings`,
        their class), or None when anything in the table is wrong or missing. A password in the
        file is refused: it is given in the environment variable `variable`."""
        where = (name,)
        before = len(self.problems)
        secret = [key for key in table if key.casefold() in _SECRET_KEYS]
        for key in secret:
            self.add(name, key, (*where, key), UNKNOWN_SETTING, message="le mot de passe ne s'écrit jamais dans un "
                     "fichier", fix=f"retirez la ligne {key} = … et donnez le mot de passe dans la variable "
                     f"d'environnement {variable} {when}")
        values = self.overrides(settings(), {k: v for k, v in table.items() if k not in secret}, where)
        for key in settings.required:
            if key not in table:
                example = _toml(settings.__dataclass_fields__[key].metadata["example"])
                self.add(name, None, where, MISSING_SETTING, key=key, example=example, table=name)
        if len(self.problems) > before:
            return None
        return dataclasses.replace(settings(), **values)

    def circuit(self, slug: str, table: Any) -> Any:
        """That circuit's settings with the table's overrides, or its defaults if any is wrong."""
        where = ("circuits", slug)
        if slug not in self.defaults:
            self.add(_dotted(where), None, where, UNKNOWN_SETTING, message=f"le circuit « {slug} » n'existe pas",
                     fix=_known(slug, "circuits connus", self.defaults))
            return None
        default = self.defaults[slug]
        if not self._is_table(table, where):
            return default
        before = len(self.problems)
        values = self.overrides(default, table, where)
        if len(self.problems) > before:
            return default
        try:
            settings = dataclasses.replace(default, **values)
        except (TypeError, ValueError) as error:  # a settings class that checks itself in __post_init__
            self.add(_dotted(where), None, where, CONFLICTING_SETTINGS, error=error)
            return default
        conflicts = settings.conflicts() if hasattr(settings, "conflicts") else []
        for keys, message, fix in conflicts:
            key = next((k for k in keys if k in table), keys[0])
            self.add(_dotted(where), key, (*where, key), OUT_OF_RANGE, message=message, fix=fix)
        return default if conflicts else settings

    def overrides(self, default: Any, table: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
        """The table's values, converted to the types of `default`'s fields; a problem for each
        unknown key and each wrong value (left out of the result)."""
        settings = type(default)
        known = {f.name: f for f in dataclasses.fields(settings) if f.init and f.metadata.get("table", True)}
        hints = typing.get_type_hints(settings)
        values = {}
        for key, value in table.items():
            if key not in known:
                names: dict[tuple[str, ...], str] = {("league",): "la ligue", ("mail",): "la table [mail]",
                                                     ("site",): "la table [site]", ("calendar",): "la table [calendar]",
                                                     ("inbox",): "la table [inbox]"}
                what = names.get(where, f"le circuit {where[-1]}")
                self.add(_dotted(where), key, (*where, key), UNKNOWN_SETTING,
                         message=f"le réglage « {key} » n'existe pas pour {what}",
                         fix=_known(key, "réglages possibles", known))
                continue
            rules = known[key].metadata
            try:
                values[key] = _value(value, hints[key], rules)
            except _Wrong as wrong:
                self.add(_dotted(where), key, (*where, key), wrong.kind_of_problem, message=wrong.message(),
                         fix=_fix(key, value, hints[key], rules, rules.get("example", getattr(default, key)), wrong))
            except _Unsupported:
                self.add(_dotted(where), key, (*where, key), UNKNOWN_SETTING,
                         message=f"le réglage « {key} » ne peut pas être changé dans {SETTINGS_FILE}",
                         fix=f"retirez la ligne {key} = …")
        return values

    def add(self, table: str, key: str | None, path: tuple[str, ...], kind: Kind, /, **fields: object) -> None:
        problem = kind(SourceRef(SETTINGS_FILE, table, key), **fields)
        line = self.lines.get(path)
        if line is not None:
            problem = dataclasses.replace(problem, message=problem.message + f" (ligne {line})")
        self.problems.append(problem)

    def _is_table(self, value: Any, where: tuple[str, ...]) -> bool:
        if isinstance(value, dict):
            return True
        name = _dotted(where)
        self.add(name, None, where, BAD_VALUE, message=f"« {name} » doit être une table, pas « {_toml(value)} »",
                 fix=f"écrivez [{name}] seul sur sa ligne, puis ses réglages en dessous, un par ligne")
        return False

    def _table_names(self) -> list[str]:
        return [f"[{t}]" for t in TABLES if t != "circuits"] + [f"[circuits.{slug}]" for slug in self.defaults]

    def _tables_fix(self, key: str) -> str:
        return _known(f"[{key}]", "tables possibles", self._table_names())

    def _place_fix(self, key: str) -> str:
        """Where a key written outside any table belongs, when some table knows it."""
        homes = [("[league]", League), ("[mail]", Mail), ("[site]", Site), ("[calendar]", CalendarSettings),
                 ("[inbox]", Inbox)]
        homes += [(f"[circuits.{slug}]", type(d)) for slug, d in self.defaults.items()]
        found = [name for name, settings in homes
                 if key in {f.name for f in dataclasses.fields(settings) if f.metadata.get("table", True)}]
        if found:
            return f"placez-le sous {' ou '.join([', '.join(found[:-1]), found[-1]]) if len(found) > 1 else found[0]}"
        return "placez chaque réglage sous sa table ; tables possibles : " + ", ".join(self._table_names())


# -- values -----------------------------------------------------------------------------------------

class _Unsupported(Exception):
    """A field whose annotation this module cannot read from TOML (a programming error)."""


class _Wrong(Exception):
    """A value that does not fit its setting: its type (`reason` None), a bound, or the whole value."""

    def __init__(self, value: Any, hint: Any, reason: str | None = None, kind: str = "type") -> None:
        super().__init__(value)
        self.value = value
        self.hint = hint
        self.reason = reason
        self.kind = kind  # type | bounds | whole
        self.container: tuple[str, Any] | None = None  # an item's place (« élément 2 », « clé a ») and its list

    @property
    def kind_of_problem(self) -> Kind:
        return BAD_VALUE if self.kind == "type" else OUT_OF_RANGE

    def message(self) -> str:
        where = f"« {_toml(self.value)} »"
        if self.container:
            place, items = self.container
            where += f" ({place} de {_toml(items)})"
        return f"{where} {self.reason}" if self.reason else f"{where} n'est pas {_describe(self.hint)}"


def _value(value: Any, hint: Any, rules: typing.Mapping[str, Any]) -> Any:
    """`value` as read by tomllib, converted to `hint` (TOML arrays become tuples) and checked
    against `rules` (setting's metadata); raises _Wrong."""
    converted = _convert(value, hint, rules)
    least = rules.get("min_length")
    if least is not None:
        length = len(converted.strip()) if isinstance(converted, str) else len(converted)
        if length < least:
            reason = "est vide" if least == 1 else f"a moins de {least} éléments"
            raise _Wrong(value, hint, reason, kind="whole")
    check = rules.get("check")
    if check is not None:
        reason = check(converted)
        if reason:
            raise _Wrong(value, hint, f"ne convient pas : {reason}", kind="whole")
    return converted


def _convert(value: Any, hint: Any, rules: typing.Mapping[str, Any]) -> Any:
    if hint is Any:
        return _frozen(value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _convert(value, option, rules)
            except _Wrong:
                continue
        raise _Wrong(value, hint)
    if origin is typing.Literal:
        if any(value == a and type(value) is type(a) for a in args):
            return value
        raise _Wrong(value, hint)
    if origin is tuple:
        if not isinstance(value, list):
            raise _Wrong(value, hint)
        variadic = len(args) == 2 and args[1] is Ellipsis
        item_hints = args[:1] * len(value) if variadic else args
        if len(item_hints) != len(value):
            raise _Wrong(value, hint)
        return tuple(_item(item, item_hint, rules, f"élément {position}", value)
                     for position, (item, item_hint) in enumerate(zip(value, item_hints), 1))
    if origin is dict:
        if not isinstance(value, dict):
            raise _Wrong(value, hint)
        return {key: _item(item, args[1], rules, f"clé {key}", value) for key, item in value.items()}
    return _bounded(_scalar(value, hint), value, hint, rules)


def _item(item: Any, hint: Any, rules: typing.Mapping[str, Any], place: str, items: Any) -> Any:
    try:
        return _convert(item, hint, rules)
    except _Wrong as wrong:
        if wrong.container is None:  # the innermost list (or table) names the item
            wrong.container = (place, items)
        raise


def _scalar(value: Any, hint: Any) -> Any:
    if hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):  # true is not 1
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    elif hint is str:
        if isinstance(value, str):
            return value
    elif hint is Fraction:
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            try:
                number = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
            except (ValueError, ZeroDivisionError):
                pass
            else:
                return number
    else:
        raise _Unsupported(hint)
    raise _Wrong(value, hint)


def _bounded(converted: Any, value: Any, hint: Any, rules: typing.Mapping[str, Any]) -> Any:
    choices = rules.get("choices")
    if choices is not None and converted not in choices:
        raise _Wrong(value, hint, "n'est pas une valeur possible", kind="bounds")
    if isinstance(converted, bool) or not isinstance(converted, (int, float, Fraction)):
        return converted
    low, high = rules.get("min"), rules.get("max")
    if (low is not None and converted < low) or (high is not None and converted > high):
        word = "trop petit" if low is not None and converted < low else "trop grand"
        raise _Wrong(value, hint, f"est {word} ({_bounds(rules)})", kind="bounds")
    return converted


def _bounds(rules: typing.Mapping[str, Any], phrase: bool = False) -> str:
    """« de 0 à 16 »; one bound: « minimum 1 », or as a phrase « de 1 ou plus »."""
    low, high = rules.get("min"), rules.get("max")
    if low is not None and high is not None:
        return f"de {_toml(low)} à {_toml(high)}"
    if low is not None:
        return f"de {_toml(low)} ou plus" if phrase else f"minimum {_toml(low)}"
    return f"de {_toml(high)} ou moins" if phrase else f"maximum {_toml(high)}"


def _fix(key: str, value: Any, hint: Any, rules: typing.Mapping[str, Any], default: Any, wrong: _Wrong) -> str:
    """The fix of a wrong value: what was probably meant when that is clear, else the default."""
    example = f"par exemple {key} = {_toml(default)}"
    if wrong.kind == "type":
        meant = _repair(value, hint)
        if meant is not None:
            try:
                return f"écrivez {key} = {_toml(_value(meant, hint, rules))}"
            except (_Wrong, _Unsupported):
                pass
        return f"écrivez {_describe(hint)}, {example}"
    if wrong.kind == "bounds":
        allowed = []
        if "min" in rules or "max" in rules:
            allowed.append(_bounds(rules, phrase=True))
        if "choices" in rules:
            allowed.append("parmi " + ", ".join(_toml(choice) for choice in rules["choices"]))
        return f"écrivez {'des valeurs' if wrong.container else 'une valeur'} {' et '.join(allowed)}, {example}"
    return f"écrivez {example}"


def _repair(value: Any, hint: Any) -> Any:
    """What a wrong value probably meant, in TOML's terms (lists stay lists), or None."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        items = value if isinstance(value, list) else [value]  # departements = "09": a list of one
        variadic = len(args) == 2 and args[1] is Ellipsis
        item_hints = args[:1] * len(items) if variadic else args
        if len(item_hints) != len(items):
            return None
        repaired = []
        for item, item_hint in zip(items, item_hints):
            try:
                _convert(item, item_hint, {})
                repaired.append(item)
            except (_Wrong, _Unsupported):
                fixed = _repair(item, item_hint)
                if fixed is None:
                    return None
                repaired.append(fixed)
        return repaired
    if isinstance(value, bool):
        return None
    if hint is int:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            return int(value)
    elif hint is float and isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    elif hint is bool and isinstance(value, str):
        return {"true": True, "vrai": True, "oui": True, "false": False, "faux": False,
                "non": False}.get(value.strip().casefold())
    elif hint is str and isinstance(value, (int, float)):
        return str(value)
    return None


def _describe(hint: Any) -> str:
    """What a setting of this type is, in French, after « n'est pas »."""
    singular = {bool: "true ou false", int: "un nombre entier", float: "un nombre",
                str: "un texte entre guillemets", Fraction: 'un nombre ou une fraction entre guillemets ("4/5")'}
    if hint in singular:
        return singular[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"une liste [ … ] de {_plural(args[0])}"
        return f"une liste de {len(args)} éléments [ … ]"
    if origin is dict:
        return "une table { … }"
    if origin is typing.Literal:
        return "l'une des valeurs " + ", ".join(_toml(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " ou ".join(_describe(a) for a in args)
    return "une valeur permise"


def _plural(hint: Any) -> str:
    plural = {bool: "valeurs true ou false", int: "nombres entiers", float: "nombres",
              str: "textes entre guillemets", Fraction: "nombres"}
    if hint in plural:
        return plural[hint]
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"listes de {_plural(args[0])}"
        return f"listes de {len(args)} éléments"
    return "valeurs"


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _toml(value: Any) -> str:
    """A value as it is written in reportgen.toml."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Fraction):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }" if value else "{}"
    if hasattr(value, "isoformat"):  # TOML dates and times
        return str(value.isoformat())
    return str(value)


def _known(word: str, label: str, known: typing.Iterable[str]) -> str:
    """« réglages possibles : a, b », after « vouliez-vous dire a ? » when `word` is close to one."""
    known = list(known)
    listed = f"{label} : {', '.join(known)}"
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.7)
    return f"vouliez-vous dire {close[0]} ? {listed[0].upper()}{listed[1:]}" if close else listed


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


# -- where things are in the text -------------------------------------------------------------------

_SYNTAX = re.compile(r"^(?P<what>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$")
_KEY_PART = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


def _syntax_message(error: tomllib.TOMLDecodeError) -> str:
    """tomllib's message (English, « Invalid value (at line 2, column 5) ») with the place in French."""
    found = _SYNTAX.match(str(error))
    if not found:
        return f"le fichier de réglages est illisible ({error})"
    if found["line"] is None:
        return f"le fichier de réglages est illisible : il s'arrête en cours de route ({found['what']})"
    return (f"le fichier de réglages est illisible à la ligne {found['line']}, colonne {found['column']} "
            f"({found['what']})")


def _key_path(text: str) -> tuple[tuple[str, ...], int] | None:
    """A dotted key at the start of `text` (bare or quoted parts) and where it ends, or None."""
    parts: list[str] = []
    position = 0
    while True:
        found = _KEY_PART.match(text, position)
        if not found:
            return None
        parts.append(next(group for group in found.groups() if group is not None))
        position = found.end()
        if not text.startswith(".", position):
            return tuple(parts), position
        position += 1


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (1-based) where each table header and each key is written: (table..., key) -> line.

    A plain scan, not a parser: tables `[a.b]` and `[[a.b]]`, keys `k = …` (bare, quoted or dotted)
    at the start of a line outside multi-line strings and arrays. What it cannot place (keys inside
    an inline table) has no line: the problem is still located by its table and key."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    depth = 0  # open brackets and braces of a value spanning lines
    quote = None  # the delimiter of an open multi-line string
    for number, line in enumerate(text.splitlines(), 1):
        start = depth == 0 and quote is None
        if start:
            stripped = line.lstrip()
            if stripped.startswith("["):
                inner = stripped[2:] if stripped.startswith("[[") else stripped[1:]
                found = _key_path(inner)
                if found and inner.startswith("]", found[1]):
                    table = found[0]
                    lines.setdefault(table, number)
                    continue
            else:
                found = _key_path(line)
                if found and line.startswith("=", found[1]):
                    lines.setdefault(table + found[0], number)
        depth, quote = _scan(line, depth, quote)
    return lines


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None]:
    """Bracket depth and open multi-line string after `line`; strings and comments skipped."""
    index = 0
    while index < len(line):
        if quote is not None:  # inside a multi-line string
            if line.startswith(quote, index) and not (quote == '"""' and _escaped(line, index)):
                index += 3
                quote = None
            else:
                index += 1
            continue
        char = line[index]
        if line.startswith(('"""', "'''"), index):
            quote = line[index:index + 3]
            index += 3
        elif char in "\"'":
            end = index + 1
            while end < len(line) and not (line[end] == char and not (char == '"' and _escaped(line, end))):
                end += 1
            index = end + 1
        elif char == "#":
            break
        else:
            depth += (char in "[{") - (char in "]}")
            index += 1
    return max(depth, 0), quote


def _escaped(line: str, index: int) -> bool:
    backslashes = 0
    while index - backslashes - 1 >= 0 and line[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1
