"""French formatting for everything the secretary and the clubs read."""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the French words need no model: a column only says how its values read
    from reportgen.model import Column

MONTHS = (
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
)
# French groups thousands with a narrow no-break space ("1 086"), which never breaks a number
# across lines.
THOUSANDS_SEPARATOR = "\u202f"


# French typography's no-break spaces (Imprimerie nationale): a word space before « : » and inside
# guillemets, a narrow one before « ; ! ? ». A line never starts with the sign or ends with « «.
# An em dash set between words as a separator (« Tournois de Tantrix sur Internet — le règlement »,
# « même club — une seule personne ») takes a word space before it, as « : » does: the dash ends its
# line, never starts the next. Only a dash with a space on each side and no other space before: one
# that opens a line or an indented item (a list's dash) has no word before it to be kept with. A
# text that starts with « — » is a template's words between two values (« {{ a }} — {{ b }} »,
# render/mail.py gives the filter each piece alone). Safe on whatever the filter is given, a
# template's words or a sentence quoting a name: a space made no-break changes no character a reader
# reads or a search compares (NFKD folds it to a space, `search_key`).
# « « » first: « « ? » » is a quoted sign, « «\u00a0?\u00a0» », not a question (« «\u202f?\u00a0» »).
_NO_BREAK = {"« ": "«\u00a0", " »": "\u00a0»", " :": "\u00a0:", " ;": "\u202f;", " !": "\u202f!", " ?": "\u202f?",
             " %": "\u202f%"}
_SEPARATING_DASH = re.compile(r"(?<!\s) — ")
# A round, a pool's round or a table and its number, never cut at a line's end (« éliminé à la
# ronde » then « 2 » alone on a phone's next line).
_NUMBERED = re.compile(r"\b(ronde|tour|table) (?=\d)", re.IGNORECASE)
# The same dash in a title reportgen composes (« Open d'automne en ligne — Résultats du tour 1 »,
# « Ronde 3 — finale »): written kept with its first part, for every page, bulletin and mail that
# shows the title without this filter.
SEPARATOR = "\u00a0— "


# ’ (what a phone's keyboard types), ‘ and ʼ: the straight apostrophe the workbooks' names mostly have
APOSTROPHES = str.maketrans("\u2018\u2019\u02bc", "'" * 3)


def search_key(text: str) -> str:
    """What the site's search compares: accents, case and the apostrophe's form aside (the script
    does the same to what is typed: templates/site/site.js `key`)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().translate(APOSTROPHES)


def said_in(part: str, *texts: str) -> bool:
    """Whether `part` is among the words of one of `texts`, as a word or words of its own (accents
    and case aside): « en ligne » of « Tournoi en ligne », « Albi » of « Tournoi d'Albi », not « Lyon »
    of « DipLyon ». A tournament's place is not said again after a title that says it: its card
    (site/pages.py `event_card`) and the home page's calendar (pipeline/calendar.py `for_site`)."""
    found = re.compile(rf"(?<!\w){re.escape(search_key(part))}(?!\w)")
    return any(found.search(search_key(text)) for text in texts)


def typography(text: str) -> str:
    """A French text for a page, its plain spaces before « : ; ! ? % », inside « », before a
    separating « — » and between a round and its number made no-break (« la feuille « Tournoi » est
    introuvable » cut on a phone left « » » alone on a line)."""
    for plain, kept in _NO_BREAK.items():
        text = text.replace(plain, kept)
    if any(digit in text for digit in "0123456789"):
        text = _NUMBERED.sub(lambda found: found.group(1) + "\u00a0", text)
    return _SEPARATING_DASH.sub(SEPARATOR, text) if " — " in text else text


def date_long(day: dt.date) -> str:
    """14 mars 2026; 1er mai 2026."""
    number = "1er" if day.day == 1 else str(day.day)
    return f"{number} {MONTHS[day.month - 1]} {day.year}"


def date_span(first: dt.date, last: dt.date) -> str:
    """The days of something played over several: « du 5 septembre au 6 octobre 2026 », « du 1er au
    14 mars 2026 », « du 28 décembre 2026 au 4 janvier 2027 »; one day, `date_long`'s « 14 mars 2026 »."""
    if first == last:
        return date_long(first)
    start = date_long(first)
    if first.year == last.year:
        start = start.removesuffix(f" {first.year}")
        if first.month == last.month:
            start = start.removesuffix(f" {MONTHS[first.month - 1]}")
    return f"du {start} au {date_long(last)}"


# A long date, its year optional (« 14 novembre 2026 », « 3 janvier »: an awaited tournament's note).
_LONG_DATE = re.compile(rf"\b(?:1er|\d{{1,2}}) (?:{'|'.join(MONTHS)})\b(?: \d{{4}}\b)?")
# A long date's day, before its month (« 14 » of « 14 novembre »).
_DAY = re.compile(rf"\b(1er|\d{{1,2}}) (?=(?:{'|'.join(MONTHS)})\b)")

# Where long dates are kept from breaking: never in date_long itself, whose plain spaces the CSV
# files, the annexes (XLSX), the terminal's messages, file names, mail subjects and the site's JSON
# keep (their readers and tests compare those words), only in the text a reader sees laid out in
# lines: a page's (`day_month_kept`) and a mail's body (`dates_kept`).


def dates_kept(text: str) -> str:
    """The text with no-break spaces inside its long dates, year included: a mail read on a phone
    never ends a line with « 14 » and starts the next with « novembre 2026 ». The mails' bodies
    (the `dates` filter of render/mail.py): running text without columns, where the whole date
    costs no width; a page binds the day and month only (`day_month_kept`)."""
    return _LONG_DATE.sub(lambda found: found.group(0).replace(" ", "\u00a0"), text)


@functools.lru_cache(maxsize=1 << 12)  # the same titles and days on many pages: at 100x, thousands of times
def day_month_kept(text: str) -> str:
    """The text with a no-break space between each long date's day and its month (« 14\u00a0novembre
    2026 », « 1er\u00a0mai »), as French typography wants them: on a page never « 14 » at a line's
    end and « novembre » on the next. The year may still go to the next line: a date in a table's
    narrow column (a site's list on a 320 px phone, a bulletin's table of tournaments on A4) is as
    wide as « 14 novembre », not as « 14 novembre 2026 ». Every HTML page (site and bulletins, and
    so their PDFs): the `dates` filter of render/html.py, and the site's lines made in Python
    (site/lines.py)."""
    return _DAY.sub("\\1\u00a0", text)


def date_short(day: dt.date) -> str:
    """14/03/2026."""
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


def ordinal(value: int, feminine: bool = False) -> str:
    """1er, 2e, 3e (the French abbreviations); 1re for a feminine noun (« la 1re place »)."""
    return ("1re" if feminine else "1er") if value == 1 else f"{value}e"


def place(rank: int, tied: bool = False, noun: bool = True) -> str:
    """« 1re place », « 2e place ex aequo » (`tied`): a person's place said without agreeing with the
    person, whose gender the league does not know (« 1er » says the player is a man). The pools'
    notices, the clubs' mails, `reportgen history`. Without the `noun`, « 1re », « 116e ex aequo »,
    as under a « Place » heading (a club's bulletin, the clubs' mails' tables)."""
    return ordinal(rank, feminine=True) + (" place" if noun else "") + (" ex aequo" if tied else "")


def shared_place(rank: int, shared: bool) -> str:
    """« 3 », « 3= » when the place is shared (ex aequo, or not decided yet): the place as a
    bulletin's table and a player's page print it."""
    return f"{rank}=" if shared else f"{rank}"


def joined(items: list[str]) -> str:
    """A, B et C; A; nothing."""
    return " et ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def others(count: int, noun: str = "") -> str:
    """What a list cut short says of the names it leaves out: « et 1 autre », « et 3 autres », with
    a noun « et 1 autre nom », « et 3 autres noms » (`listed`, or a list of lines' last line)."""
    if noun:
        return "et " + plural(count, f"autre {noun}", f"autres {noun}s")
    return "et " + plural(count, "autre", "autres")


def listed(items: Sequence[str], limit: int) -> str:
    """At most `limit` names of a list that may be long (newcomers, players without an address...):
    « A, B et C » when all fit, else the first `limit` and the count of the others, « A, B et
    3 autres »: a notice stays a line, however many names a workbook holds."""
    if len(items) <= limit:
        return joined(list(items))
    return ", ".join(items[:limit]) + " " + others(len(items) - limit)


def existing(label: str, names: Iterable[object], none: str = "il n’y en a aucun") -> str:
    """What a name typed on the command line could have been, after the line that says it names
    nothing (cli_support.names_nothing): « ; tournois : A, B », or « ; il n'y en a aucun »."""
    shown = [str(name) for name in names]
    return f" ; {label} : {', '.join(shown)}" if shown else f" ; {none}"


# A league's values repeat (points, places, counts): each formatted once. At 100x a build formats
# about 1.3 million, 0.8 µs each, 0.09 once kept (fifteenth round). Equal values (1, 1.0, True)
# share an entry, and their text is the same (tests/test_french.py).
FORMATTED = 65_536


@functools.lru_cache(maxsize=FORMATTED)
def number(value: float | int, decimals: int = 0) -> str:
    """1 086; 12,5 (decimal comma, narrow no-break space between thousands)."""
    text = f"{abs(value):,.{decimals}f}".replace(",", THOUSANDS_SEPARATOR).replace(".", ",")
    return ("−" if value < 0 else "") + text


@functools.lru_cache(maxsize=FORMATTED)
def points(value: float | int) -> str:
    """Points as a French reader expects them: 6 910; 292,5; 2 323,75 (never a rounding away)."""
    if float(value).is_integer():
        return number(int(value))
    return number(value, 2).rstrip("0")


HALF = "½"


def halves(value: float | int) -> str:
    """A score counted in halves as the bulletins write it: « 2½ », « ½ », « 1 086½ », « 3 » (a
    Tantrix draw is ½ a game won)."""
    whole = int(abs(value))
    if abs(value) - whole != 0.5:
        return points(value)
    return ("−" if value < 0 else "") + (number(whole) if whole else "") + HALF


def signed(value: float | int, decimals: int = 0) -> str:
    """A difference with its sign: +52,6; −4,0 (a real minus sign); 0,0 when it rounds to none."""
    if not round(value, decimals):
        return number(0, decimals)
    return ("+" if value > 0 else "") + number(value, decimals)


NEW = "nouveau"  # an evolution's word for a player the previous ranking did not have
SAME = "="  # an evolution's sign for none: the same place, the same rating


def moved(value: Any) -> float | int | None:
    """An evolution's value as a number (« +3 », "-2", "−2", 0, « = », 52.6), None for « nouveau »
    or nothing: the rankings hold places gained as text (+3, -2, 0, nouveau, the CSV's form), a
    rating's change as a number (None: new to the list), and the site's pages hold `evolution`'s."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, Fraction):
        return float(value)
    text = str(value).strip().replace("−", "-")
    if text == SAME:
        return 0
    try:
        return int(text)
    except ValueError:
        try:
            return float(text.replace(",", "."))
        except ValueError:
            return None


@functools.lru_cache(maxsize=FORMATTED, typed=True)  # one per distinct move: 223,000 rows at 100x, a few hundred moves
def evolution(value: Any, decimals: int = 0) -> str:
    """An evolution as every reader sees it, the bulletins, the site, the mails: places gained
    « +3 », lost « −2 », none « = », a newcomer « nouveau » (INTERPRETATIONS, « Evolution »); a
    rating's change with its decimals, « +52,6 », « −4,0 ». The bulletins' HTML draws the places
    with arrows from it (render/evolution.py)."""
    found = moved(value)
    if found is None:
        return NEW if value in (None, NEW) else str(value)
    return SAME if not round(found, decimals) else signed(found, decimals)


def column_value(value: Any, column: Column) -> str:
    """A ranking's value as every French page writes it, from its column: the site's pages, the
    bulletins, the mails and the terminal's table alike, so that they never drift apart. A number
    with its column's decimals when it declares them (an Elo rating « 1 991,0 », a pool's average
    « 0,500 »), with « ½ » when counted in halves (games won « 2½ »), else as points (« 1 086 »,
    « 292,5 »); an evolution signed (`evolution`); a `bool` « oui » or nothing; a value the column
    names in words, its word (a pool tournament's round « finale », `Column.labels`)."""
    if column.kind == "evolution":
        return evolution(value, column.decimals or 0)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "oui" if value else ""
    if column.labels:
        word = next((word for labelled, word in column.labels if labelled == value), None)
        if word is not None:
            return word
    if isinstance(value, (int, float, Fraction)) and column.kind in ("int", "number"):
        shown = float(value) if isinstance(value, Fraction) else value
        if column.halves:
            return halves(shown)
        if column.signed:
            return signed(shown, column.decimals or 0)
        return points(shown) if column.decimals is None else number(shown, column.decimals)
    return str(value)


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """1 tournoi, 2 tournois (French: 0 and 1 take the singular)."""
    word = singular if abs(count) < 2 else (plural_form or singular + "s")
    return f"{number(count)} {word}"


def counted(count: int, singular: str, plural_form: str | None = None, feminine: bool = False) -> str:
    """`plural`, but none said as French says it: « aucun rappel », « aucune réponse envoyée », never
    « 0 rappel » (a count the secretary reads as a sentence)."""
    return f"{'aucune' if feminine else 'aucun'} {singular}" if count == 0 else plural(count, singular, plural_form)


# A place's or club's name that starts with the article « Le » or « Les » contracts it with « de »
# and « à » (du Grau-du-Roi, aux Sables-d'Olonne); « La » and « L' » never contract. Capitalised
# only, at the start: the article of a name, not a word that begins like one (Lens, Lesparre).
_OWN_ARTICLES = {"Le ": "le", "Les ": "les"}
# A name that starts with a common noun (« Club de Foix », « Cercle de Rodez », « Open de
# Toulouse », « Coupe d'automne ») takes the definite article French puts before that noun, which
# « de » and « à » contract as a place's own (du Club de Foix, de l’Open, à la Coupe). The nouns
# of clubs' and tournaments' names, by their article; a town that starts with one of these words
# writes it with a hyphen (Maisons-Alfort) or its own article (L'Union), so the whole first word
# is compared, case aside.
_NOUNS = {
    **dict.fromkeys(("club", "cercle", "foyer", "comité", "centre", "groupe", "groupement", "collectif", "espace",
                     "atelier", "tournoi", "open", "championnat", "festival", "trophée", "challenge", "critérium",
                     "mémorial", "week-end"), "le"),
    **dict.fromkeys(("association", "amicale", "académie", "maison", "union", "société", "ligue", "fédération",
                     "entente", "coupe", "fête", "journée", "nuit", "rencontre"), "la"),
    **dict.fromkeys(("amis", "rencontres", "journées", "championnats"), "les"),
}
_VOWELS = "aeiouyhéèêâîôû"
# French elides with the typographic apostrophe (« d’Albi », « l’Amicale »), U+2019: the one these
# words write. A name keeps its own as typed (« L'Isle-Jourdain », « Open d'Albi »): it is data.
APOSTROPHE = "’"
_ELIDED = "l" + APOSTROPHE  # the article « l’ » before a vowel
_FORMS = {"de": {"le": "du ", "les": "des ", "la": "de la ", _ELIDED: "de " + _ELIDED},
          "à": {"le": "au ", "les": "aux ", "la": "à la ", _ELIDED: "à " + _ELIDED}}


def _noun(name: str) -> str | None:
    """The article of the common noun `name` starts with (after its own « Le », « Les »), else None."""
    own = next((article for article in _OWN_ARTICLES if name.startswith(article)), "")
    return _NOUNS.get(name[len(own):].split(" ", 1)[0].casefold())


def _article(name: str) -> tuple[str, str] | None:
    """(the definite article French puts before `name`, the name after it): ("le", "Grau-du-Roi")
    for « Le Grau-du-Roi », ("l’", "Open de Toulouse"), ("le", "Club de Foix"); None for a name
    that takes none (Toulouse, La Rochelle: its « La » never contracts, and stays as written)."""
    own = next((article for article in _OWN_ARTICLES if name.startswith(article)), None)
    if own is not None:
        return _OWN_ARTICLES[own], name[len(own):]
    noun = _noun(name)
    if noun is None:
        return None
    return (_ELIDED if noun != "les" and name[:1].casefold() in _VOWELS else noun), name


def _contracted(preposition: str, name: str) -> str | None:
    """« du Grau-du-Roi », « du Club de Foix », « à l’Open d'Albi », or None when the name takes no
    article."""
    found = _article(name)
    return _FORMS[preposition][found[0]] + found[1] if found else None


# A place typed as a phrase that says where already, its preposition in lower case (« en ligne », the
# Lieu of an online tournament; « en Ariège », « sur Internet »): said as it is, never « à en ligne » nor « d’en ligne ».
_SAYS_WHERE = re.compile(r"(?:en|sur|chez|dans) ")


def de(name: str) -> str:
    """« de » before a place's, club's or tournament's name: de Toulouse, d’Albi, du Grau-du-Roi, des
    Sables, de La Rochelle, de L'Isle-Jourdain, du Club de Foix, de l’Open de Toulouse (never before
    a person's: « forfait de Le Gall »); « en ligne » as it is (`_SAYS_WHERE`: « Tournoi en ligne »,
    never « Tournoi d’en ligne »)."""
    if _SAYS_WHERE.match(name):
        return name
    elided = name[:1].casefold() in _VOWELS and name[:1]
    return _contracted("de", name) or (f"d{APOSTROPHE}{name}" if elided else f"de {name}")


def of_person(name: str) -> str:
    """« de » before a person's name as written: « forfait de DUPONT Marie », elided before a vowel
    (« forfait d’IMBERT Inès », « d’Yves MARTIN »), never contracted (« de Le Gall »); left whole
    before an « h », which a name does not say mute or aspirated (« de HUGO Victor »)."""
    return de_before(name) + name


def de_before(name: str) -> str:
    """`of_person`'s « de » alone (« d’ » or « de »), for a name the page writes as markup."""
    return f"d{APOSTROPHE}" if name[:1].casefold() in _VOWELS.replace("h", "") else "de "


def at(name: str) -> str:
    """« à » before a place's, club's or tournament's name: à Toulouse, au Grau-du-Roi, aux Sables,
    à La Rochelle, au Club de Foix, à l’Amicale de Rodez; « en ligne » as it is (`_SAYS_WHERE`)."""
    if _SAYS_WHERE.match(name):
        return name
    return _contracted("à", name) or f"à {name}"


# A tournament's edition in Roman numerals before its name (« Ier tournoi du Dauphiné », « IIe
# Rencontres alsaciennes », « IIème Coupe de Lorraine », « XXe Championnat de France »): the article is
# its noun's, never elided (« le Ier », said « le premier »).
_EDITION = re.compile(r"[IVX]+(?:er|ère|ere|re|ème|eme|e) ")


def the(name: str) -> str:
    """A tournament's name after the definite article its noun takes, as a sentence names it (« après
    le Championnat d'Europe »): « le Ier tournoi du Dauphiné », « la IVe Coupe de Bruxelles »,
    « l’Open de Toulouse », « le tournoi de Reims » (its noun « Tournoi » a common one there, as the
    Grand Sud writes « le tournoi d'Albi »); a name whose noun is not known as it is (« DipLyon III,
    Coupe de France », « Anjou Feu »)."""
    edition = _EDITION.match(name)
    rest = name[edition.end():] if edition else name
    found = _article(rest)
    if found is None:
        return name
    article, words = found
    if words.startswith("Tournoi "):
        words = "t" + words[1:]
    if edition:
        return f"{_noun(rest) or article} {edition.group(0)}{words}"
    return f"{article}{words}" if article == _ELIDED else f"{article} {words}"


def _club(name: str) -> tuple[str, str]:
    """(article, the words after it) naming a club in a sentence: ("le", "club de Foix") for a club
    named after its town in clubs.xlsx; a name that says what it is is not preceded by « club »:
    ("le", "Club de Foix"), ("l’", "Amicale de Rodez")."""
    found = _article(name) if _noun(name) is not None else None
    return found or ("le", f"club {de(name)}")


def the_club(name: str) -> str:
    """« le club de Foix », « le Club de Foix », « l’Amicale de Rodez »."""
    article, rest = _club(name)
    return f"{article}{rest}" if article == _ELIDED else f"{article} {rest}"


def of_club(name: str) -> str:
    """« du club de Foix », « du club d’Albi », « du Club de Foix », « de l’Amicale de Rodez »."""
    article, rest = _club(name)
    return _FORMS["de"][article] + rest


def club_title(name: str) -> str:
    """A club's name as a heading: « Club d’Auch » for a club named after its town in clubs.xlsx,
    « Club du Grau-du-Roi »; a name that says what it is as written (« Club de Foix », « Amicale de
    Rodez », « Les Amis du jeu »)."""
    return name if _noun(name) is not None else f"Club {de(name)}"


def at_club(name: str) -> str:
    """« au club de Foix », « au Club de Foix », « à l’Amicale de Rodez »."""
    article, rest = _club(name)
    return _FORMS["à"][article] + rest
