"""`load`: reportgen.toml read, each table checked against its dataclass, every problem located
(the table as the "sheet", the key as the "cell") with its fix; never raises."""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from pathlib import Path
from typing import Any

from reportgen.config.tables import (
    _SECRET_KEYS,
    IMAP_PASSWORD_VARIABLE,
    PASSWORD_VARIABLE,
    SETTINGS_FILE,
    SFTP_PASSWORD_VARIABLE,
    TABLES,
    CalendarSettings,
    Inbox,
    League,
    Mail,
    Site,
)
from reportgen.config.values import _dotted, _fix, _known, _toml, _Unsupported, _value, _Wrong
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
from reportgen.toml_text import SettingsFile, _key_lines, not_utf8, syntax_problem


def load(inputs: Path, defaults: dict[str, Any], problems: list[Problem]) -> League:
    """The league's settings; `defaults` maps each circuit slug to its default Settings.

    Appends a located problem to `problems` for everything wrong in `reportgen.toml`; never raises.
    """
    league = League(circuits=dict(defaults))
    file = SettingsFile("le fichier de réglages", 'name = "Ligue Grand Sud"', "[league]",
                        "corrigez cette ligne : un réglage s’écrit nom = valeur, un texte entre guillemets "
                        '(name = "Ligue"), une liste entre crochets (["09", "11"]), une table seule sur sa ligne '
                        f"([circuits.{next(iter(defaults), 'nom')}])")
    path = inputs / SETTINGS_FILE
    if not path.exists():
        return league
    try:
        text = path.read_text(encoding="utf-8-sig")  # Notepad may add a BOM
        raw = tomllib.loads(text)
    except UnicodeDecodeError:
        message, fix = not_utf8(file)
        problems.append(UNREADABLE(SourceRef(SETTINGS_FILE), message=message, fix=fix))
        return league
    except tomllib.TOMLDecodeError as error:
        message, fix = syntax_problem(error, text, file)
        problems.append(UNREADABLE(SourceRef(SETTINGS_FILE), message=message, fix=fix))
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
                    mail = self.server(value, Mail, "mail", PASSWORD_VARIABLE, "au moment d’envoyer")
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
                self.add(key, None, (key,), UNKNOWN_SETTING, message=f"la table [{key}] n’existe pas",
                         fix=self._tables_fix(key))
            else:
                self.add(None, key, (key,), UNKNOWN_SETTING, message=f"le réglage « {key} » est en dehors de toute "
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
            self.add(name, key, (*where, key), UNKNOWN_SETTING, message="le mot de passe ne s’écrit jamais dans un "
                     "fichier", fix=f"retirez la ligne {key} = … et donnez le mot de passe dans la variable "
                     f"d’environnement {variable} {when}")
        values = self.overrides(settings(), {k: v for k, v in table.items() if k not in secret}, where)
        alone = getattr(settings, "alone", ())
        for key in settings.required if not set(table) <= set(alone) else ():
            if key not in table:
                example = _toml(settings.__dataclass_fields__[key].metadata["example"])
                self.add(name, None, where, MISSING_SETTING, key=key, example=example, table=name)
        if len(self.problems) > before:
            # A server's keys missing only (a warning: the command that connects refuses): the keys
            # the table may write alone still hold. A league naming its address and half its server
            # keeps its address on the share images and in the clubs' messages.
            missing_only = all(p.code == MISSING_SETTING.code for p in self.problems[before:])
            kept = {key: value for key, value in values.items() if key in alone} if missing_only else {}
            return dataclasses.replace(settings(), **kept) if kept else None
        return dataclasses.replace(settings(), **values)

    def circuit(self, slug: str, table: Any) -> Any:
        """That circuit's settings with the table's overrides, or its defaults if any is wrong."""
        where = ("circuits", slug)
        if slug not in self.defaults:
            self.add(_dotted(where), None, where, UNKNOWN_SETTING, message=f"le circuit « {slug} » n’existe pas",
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
                         message=f"le réglage « {key} » n’existe pas pour {what}",
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

    def add(self, table: str | None, key: str | None, path: tuple[str, ...], kind: Kind, /, **fields: object) -> None:
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


