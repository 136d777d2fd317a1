"""Cell values to typed values, accepting what clubs really type (docs/formats.md, "Tolerance").

Each parser returns the value or raises BadValue with a sentence for the secretary.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from collections.abc import Callable

from reportgen.french import MONTHS
from reportgen.ingest.text import Unprintable, clean_spaces, clean_text, normalise_label, strip_accents
from reportgen.model import SourceRef
from reportgen.problems import BAD_VALUE, CONTROL_CHARACTERS, FORMULA, MISSING_VALUE

EXCEL_EPOCH = dt.date(1899, 12, 30)


class BadValue(ValueError):
    def __init__(self, message: str, fix: str = ""):
        super().__init__(message)
        self.message = message
        self.fix = fix


def read_cell(value: object, where: Callable[[], SourceRef], untrusted: set[str], parse, problems: list,
              required: bool, empty: tuple[str, str]):
    """The parsed value of one cell, or None after recording a located problem.

    `where()` gives the cell's location; it is called only when needed (a problem to locate, a
    sheet with formulas never calculated): locating a cell costs more than reading most cells.
    `empty` is the (message, fix) said when a required cell is empty.
    """
    if isinstance(value, Unprintable):
        problems.append(CONTROL_CHARACTERS(where()))
        return None
    if untrusted and (ref := where()).cell in untrusted:
        problems.append(FORMULA(ref))
        return None
    if is_empty(value):
        if required:
            problems.append(MISSING_VALUE(where(), message=empty[0], fix=empty[1]))
        return None
    try:
        return parse(value)
    except BadValue as bad:
        problems.append(BAD_VALUE(where(), message=bad.message, fix=bad.fix))
        return None


def is_empty(value: object) -> bool:
    """A cell left blank. A cell that held only control characters is not blank: it is refused."""
    return value is None or (isinstance(value, str) and not value.strip() and not isinstance(value, Unprintable))


def shown(value: object) -> str:
    """A cell value as the secretary typed it, for messages."""
    if type(value) is str:  # most cells: text, which none of the cases below is
        return clean_text(value).strip()
    if isinstance(value, bool):  # a yes/no cell, as a French Excel shows it
        return "VRAI" if value else "FAUX"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() != dt.time():
        return value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, dt.datetime):
        return value.strftime("%d/%m/%Y")
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    return clean_text(str(value)).strip()


def text(value: object) -> str:
    """Text as typed; a number typed in a text column (a licence: 12345) gives '12345'."""
    if type(value) is str:  # exactly: a subclass (Unprintable) takes the general way
        return _text_of(value)
    if is_empty(value):
        return ""
    if isinstance(value, bool):
        raise BadValue(f"« {value} » n’est pas un texte", "écrivez du texte dans la case, pas une case à cocher")
    return clean_spaces(shown(value))


# A league's names, clubs and licences come back in workbook after workbook: each text cleaned
# once (bounded), as `text` above cleans any other value.
@functools.lru_cache(maxsize=1 << 16)
def _text_of(value: str) -> str:
    return clean_spaces(clean_text(value).strip()) if value.strip() else ""


_WHOLE = re.compile(r"^[+]?\d+(?:[.,]0+)?$")
WHOLE_NUMBER_FIX = "écrivez un nombre entier, sans décimales ni lettres, par exemple 12"


def whole_number(value: object, fix: str = WHOLE_NUMBER_FIX) -> int:
    """A whole number: 12, 12.0, « 12 », « 1 200 », « 12,0 ». `fix` is said when it is none."""
    if isinstance(value, bool):
        raise BadValue(f"« {shown(value)} » n’est pas un nombre entier", fix)
    if isinstance(value, (int, float)):
        if float(value).is_integer():
            return int(value)
        raise BadValue(f"« {shown(value)} » n’est pas un nombre entier", fix)
    candidate = str(value).strip().replace("\u00a0", "").replace(" ", "")
    if _WHOLE.match(candidate):
        return int(re.split(r"[.,]", candidate.lstrip("+"))[0])
    raise BadValue(f"« {shown(value)} » n’est pas un nombre entier", fix)


def whole_number_between(value: object, low: int | None, high: int | None, message: str, fix: str,
                         not_whole: str = WHOLE_NUMBER_FIX) -> int:
    """A whole number from `low` to `high`, both included (None: no bound on that side).

    Out of range, the caller's own `message` and `fix` are said: templates (`str.format`) that may
    name {number} (the number read), {typed} (the cell as typed), {low} and {high}. A cell that is
    no whole number says `whole_number`'s message with the fix `not_whole`.
    """
    number = whole_number(value, not_whole)
    if (low is not None and number < low) or (high is not None and number > high):
        facts = {"number": number, "typed": shown(value), "low": low, "high": high}
        raise BadValue(message.format(**facts), fix.format(**facts))
    return number


_DECIMAL = re.compile(r"^[+-]?\d+(?:\.\d+)?$")


def decimal_number(value: object, fix: str = "écrivez un nombre, par exemple 1850,5") -> float:
    """A number, possibly with decimals: 1850, 1 850,37 (any space between thousands), 1850.37."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        text = re.sub(r"\s", "", value).replace(",", ".")  # \s: no-break spaces too
        if _DECIMAL.match(text):
            return float(text)
    raise BadValue(f"« {shown(value)} » n’est pas un nombre", fix)


# 1, 1er, 1re, 2e, 2ème, 3eme, =3, 3 ex, 3ex, 3=, 3 ex aequo
_PLACE = re.compile(
    r"^(?P<tie1>=)?\s*(?P<n>\d+)\s*(?:er|re|ere|e|eme|ieme|de|nd|nde)?\.?\s*"
    r"(?P<tie2>=|ex(?:\s*-?\s*aequo)?|exaequo)?$"
)


def place(value: object) -> tuple[int, bool]:
    """(place, written as ex aequo)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number, tied = whole_number(value), False
    elif type(value) is str:  # exactly: other types are shown otherwise in the message
        number, tied = _place_of_text(value)
    else:
        number, tied = _place_of(value)
    if number < 1:
        raise BadValue(f"la place {number} n’existe pas", "les places commencent à 1")
    return number, tied


PLACE_FIX = "écrivez un nombre : 1, 2, 3… (ou 1er, 2e, 3 ex)"
UNTIED_PLACE_FIX = "écrivez un nombre : 1, 2, 3… (ou 1er, 2e)"


def untied_place(value: object) -> tuple[int, bool]:
    """A place of a circuit whose regulation has no ties (the Grand Sud), read as `place`: a text
    that is no place is told the forms without « 3 ex », which that circuit refuses next."""
    try:
        return place(value)
    except BadValue as error:
        if error.fix == PLACE_FIX:
            raise BadValue(error.message, UNTIED_PLACE_FIX) from None
        raise


# A place typed as text (« 1er », « 2e », « 3 ex ») is one of a few hundred forms, typed in every
# workbook: each read once (bounded). A text that is no place raises each time (never cached).
@functools.lru_cache(maxsize=1 << 12)
def _place_of_text(value: str) -> tuple[int, bool]:
    return _place_of(value)


def _place_of(value: object) -> tuple[int, bool]:
    match = _PLACE.match(strip_accents(str(value)).strip().casefold())
    if not match:
        raise BadValue(f"« {shown(value)} » n’est pas une place", PLACE_FIX)
    return int(match["n"]), bool(match["tie1"] or match["tie2"])


_FRENCH_MONTHS = {normalise_label(name): index + 1 for index, name in enumerate(MONTHS)}
_FRENCH_MONTHS.update({"fevr": 2, "fev": 2, "janv": 1, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
                       "avr": 4, "juil": 7})
_NUMERIC_DATE = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T].*)?$")
_WORD_DATE = re.compile(r"^(?:[a-z]+\s+)?(\d{1,2})(?:er)?\s+([a-z]+)\.?\s+(\d{4})$")


DATE_FIX = "écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026"  # a date refused or left empty


def date(value: object) -> dt.date:
    """An Excel date, dd/mm/yyyy, yyyy-mm-dd, or '14 mars 2026'."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if 1 <= value < 2_958_466:  # an Excel serial day number left without a date format
            return EXCEL_EPOCH + dt.timedelta(days=int(value))
    raw = str(value).strip()
    parts: tuple[int, int, int] | None = None  # year, month, day as typed
    if match := _NUMERIC_DATE.match(raw):
        parts = int(match[3]), int(match[2]), int(match[1])
    elif match := _ISO_DATE.match(raw):
        parts = int(match[1]), int(match[2]), int(match[3])
    elif (match := _WORD_DATE.match(normalise_label(raw))) and match[2] in _FRENCH_MONTHS:
        parts = int(match[3]), _FRENCH_MONTHS[match[2]], int(match[1])
    if parts is not None:
        try:
            return dt.date(*parts)
        except ValueError:
            raise BadValue(f"« {shown(value)} » n’est pas une date qui existe", _date_fix(*parts)) from None
    raise BadValue(f"« {shown(value)} » n’est pas une date", DATE_FIX)


def _date_fix(year: int, month: int, day: int) -> str:
    """What to do about a day that no calendar has (31/02/2026, 12/13/2026)."""
    if not 1 <= month <= 12:
        return (f"le mois ({month}) va de 1 à 12 : écrivez la date au format jj/mm/aaaa (jour, puis mois), "
                "par exemple 14/03/2026")
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        return "corrigez l’année : écrivez la date au format jj/mm/aaaa, par exemple 14/03/2026"
    days = calendar.monthrange(year, month)[1]
    return (f"corrigez le jour : {MONTHS[month - 1]} {year} compte {days} jours "
            f"(jj/mm/aaaa, du 01/{month:02d}/{year} au {days:02d}/{month:02d}/{year})")


_YES = {"oui", "o", "x", "yes", "vrai", "1"}
_NO = {"non", "n", "no", "faux", "0", ""}


def yes_no(value: object) -> bool:
    if isinstance(value, bool):
        return value
    label = normalise_label(shown(value)) if not is_empty(value) else ""
    if label in _YES:
        return True
    if label in _NO:
        return False
    raise BadValue(f"« {shown(value)} » n’est ni « oui » ni « non »", "écrivez oui, ou laissez vide")
