"""A value of reportgen.toml checked against its field's annotation and bounds (`setting`), and,
when wrong, the fix that says what to write."""

from __future__ import annotations

import difflib
import json
import math
import re
import types
import typing
from fractions import Fraction
from typing import Any

from reportgen.problems import (
    BAD_VALUE,
    OUT_OF_RANGE,
    Kind,
)

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
        return f"{where} {self.reason}" if self.reason else f"{where} n’est pas {_describe(self.hint)}"


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
        raise _Wrong(value, hint, "n’est pas une valeur possible", kind="bounds")
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
        return "l’une des valeurs " + ", ".join(_toml(a) for a in args)
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


