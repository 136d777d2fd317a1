"""Text normalisation: header labels, the keys and spellings of player names, and the control
characters no workbook text may carry into an output or onto the terminal."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "ø": "o", "Ø": "O"})
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"})
_DASHES = str.maketrans({"‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-"})
_NON_WORD = re.compile(r"[^0-9a-z]+")
_ASCII_WORD = re.compile(r"[0-9a-z]+")

# Control characters (Unicode category Cc: C0, DEL, C1), the bidirectional embeddings, overrides
# and isolates, which reorder what follows them on a line, and the invisible marks that carry no
# letter (LRM, RLM, ALM, zero-width space, word joiner, byte order mark: a name typed with one is
# the same name). Those that separate text (tab, line breaks) become a space; the others are
# dropped. The zero-width joiners (ZWJ, ZWNJ) stay: some scripts spell words with them.
_SEPARATING = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
_BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_MARKS = "\u200b\u200e\u200f\u061c\u2060\ufeff"
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029" + _BIDI_CONTROLS + _MARKS + "]")
# The same, and the surrogates a file name that is no UTF-8 is decoded with (`escape_controls`).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029" + _BIDI_CONTROLS + _MARKS + "\ud800-\udfff]")
# What makes a cell "only control characters" when nothing visible is left: controls that are no
# space, bidirectional controls and marks, zero-width characters.
_HIDDEN = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u200b-\u200f\u2060-\u2064\ufeff\u061c"
                     + _BIDI_CONTROLS + "]")
_INVISIBLE = re.compile(r"[\s\u200b-\u200f\u2060-\u2064\ufeff\u061c\u034f\ufe00-\ufe0f]*")


class Unprintable(str):
    """A cell that held only control characters: empty once cleaned, but not blank, so that the
    cell readers refuse it with its location instead of reading an empty name."""

    def __new__(cls) -> Unprintable:
        return super().__new__(cls, "")

    def __reduce__(self) -> tuple[type[Unprintable], tuple[()]]:
        return (Unprintable, ())


def clean_text(text: str) -> str:
    """`text` without control characters: tab and line breaks become a space, the others
    (NUL, ESC, BEL, DEL, C1, bidirectional overrides and marks) are removed. Every text read from a
    workbook goes through it, so none reaches an output, a message or the terminal."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: " " if m[0] in _SEPARATING else "", text)


def only_controls(text: str) -> bool:
    """True when `text` holds control characters (other than tabs and line breaks) or invisible
    marks, and nothing visible besides: such a cell is refused rather than read as empty."""
    return bool(_HIDDEN.search(text)) and _INVISIBLE.fullmatch(clean_text(text)) is not None


def escape_controls(text: str) -> str:
    """`text` safe to print on a terminal and to write as UTF-8: every control character shown as an
    escape (a newline in a file name reads `\\n`, ESC reads `\\x1b`), so nothing forges a line or
    drives the screen, and each byte of a file name that is no UTF-8 (Python's surrogate escape: a
    zip made on Windows, « r\\xe9sultats.xlsx ») as its value, where it stopped `check` writing the
    secretary's page (UnicodeEncodeError)."""
    if not _UNPRINTABLE.search(text):
        return text

    def escaped(match: re.Match[str]) -> str:
        char = match[0]
        named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
        if "\udc80" <= char <= "\udcff":  # the byte the file system gave, not a character
            return f"\\x{ord(char) - 0xDC00:02x}"
        return named.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")

    return _UNPRINTABLE.sub(escaped, text)


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.translate(_LIGATURES))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def normalise_label(text: object) -> str:
    """'Prénom :', 'PRENOM' and ' prenom' all give 'prenom' (docs/formats.md: headers match so)."""
    if type(text) is str:  # exactly: 1, 1.0 and True hash alike and would share an entry
        return _normalised_text(text)
    return _normalise(str(text))


# The header search tries every cell of a sheet's first rows, players' names among them, and the
# same names come back in every workbook of a league: each text normalised once (bounded).
@functools.lru_cache(maxsize=1 << 16)
def _normalised_text(text: str) -> str:
    return _normalise(text)


def _normalise(plain: str) -> str:
    # Most labels and cells are ASCII, which NFKC and accent stripping leave as they are, and which
    # lower() folds as casefold() does: the same label, without the per-character Unicode pass.
    plain = plain.lower() if plain.isascii() else strip_accents(unicodedata.normalize("NFKC", plain)).casefold()
    return " ".join(_NON_WORD.sub(" ", plain).split())


# Invisible characters that join or orient letters (zero-width joiners, bidirectional marks, the
# byte order mark, variation selectors): dropped from keys without splitting the word they are in.
_KEY_IGNORED = re.compile(r"[\u00ad\u034f\u061c\u200b-\u200f\u2060-\u2064\ufeff\ufe00-\ufe0f"
                          "\U000e0100-\U000e01ef" + _BIDI_CONTROLS + "]")


def _key_char(char: str) -> bool:
    """A character a name key keeps: a letter or digit of any script, or a vowel sign written as
    a mark of its own (Devanagari, Thai...: without it राम and रोम would be one name)."""
    return char.isalnum() or unicodedata.category(char) in ("Mn", "Mc")


_SYMBOLS = ("So", "Sk")  # emoji and other pictographs: each one a word of its own


def name_tokens(text: str) -> list[str]:
    """The words of a name, for keys: compatibility forms unfolded (NFKD), case folded, accents
    and other combining marks dropped, every letter of every script kept. Punctuation separates
    words; an emoji or another pictograph is a word of its own (two players told apart only by
    one are never merged); invisible marks (RLM, zero-width joiners) vanish."""
    if text.isascii() and not _CONTROL.search(text):  # most names: the same words, quicker
        return _ASCII_WORD.findall(text.lower())
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES).translate(_APOSTROPHES).translate(_DASHES))
    plain = _KEY_IGNORED.sub("", clean_text(plain)).casefold()
    plain = "".join(char for char in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(char))
    tokens, word = [], []
    for char in plain:
        if _key_char(char):
            word.append(char)
            continue
        if word:
            tokens.append("".join(word))
            word = []
        if unicodedata.category(char) in _SYMBOLS:
            tokens.append(char)
    if word:
        tokens.append("".join(word))
    return tokens


# A player's name is keyed once per result, in every circuit and again by the duplicate checks:
# the same few thousand names, each a Unicode pass (bounded: a league has far fewer names).
@functools.lru_cache(maxsize=1 << 16)
def name_key(*parts: str) -> str:
    """Identity of a name: its words in order, whatever their accents, case, hyphens or spacing.

    INTERPRETATIONS.md, « who is who »: where a sheet has `Nom` and `Prénom` columns their order
    is a fact, so `name_key("PHILIPPE", "Daniel")` and `name_key("DANIEL", "Philippe")` are two
    people. Given one text, a name typed in one cell, it is read as typed, the surname being the
    word(s) in capitals where the case says so (`split_full_name`): "Jean DUPONT" is
    `name_key("DUPONT", "Jean")`, "Jean Dupont" is not. ИВАНОВ Иван, 王 伟 and محمد علي keep their
    letters; "DUPONT 🎲" is not "DUPONT 🃏"; a right-to-left mark changes nothing.

    Word order is set aside only to match a name against a closed list (`ClosedList`).
    """
    if len(parts) == 1:
        parts = split_full_name(parts[0])
    return " ".join(token for part in parts for token in name_tokens(part))


def words_key(key: str) -> str:
    """A name key (`name_key`) with its words in alphabetical order: the same for PHILIPPE Daniel
    and DANIEL Philippe. Never an identity: for matching against a closed list (`ClosedList`) and
    for sorting ties as the circuits always have."""
    return " ".join(sorted(key.split(" ")))


class ClosedList:
    """The names of a closed list (a Masters' participants, a pool tournament's registrants, a
    Tantrix event's entrants), by key, and the ones a typed name designates.

    INTERPRETATIONS.md, « who is who »: a name designates the entry of the same key; failing that,
    word order aside (`words_key`), the entry with the same words when it is the only one. Two
    entries with the same words are both returned: the caller says so, it never picks one."""

    def __init__(self, keys: Iterable[str]):
        self.keys: set[str] = set()
        self._by_words: dict[str, list[str]] = {}
        for key in keys:
            if key not in self.keys:
                self.keys.add(key)
                self._by_words.setdefault(words_key(key), []).append(key)

    def designated(self, key: str) -> list[str]:
        """The keys `key` designates: itself when listed, else every key with the same words
        (one: the match; two or more: ambiguous; none: not in the list)."""
        if key in self.keys:
            return [key]
        return list(self._by_words.get(words_key(key), ())) if key else []

    def find(self, key: str) -> str | None:
        """The one key `key` designates, or None (not listed, or more than one with its words)."""
        found = self.designated(key)
        return found[0] if len(found) == 1 else None


def nearest_name(typed: str, names: Iterable[str]) -> str | None:
    """The name of `names` nearest to `typed` when one is close (difflib's ratio of 0.75, as typed
    then case aside), else None: what a name refused from a closed list suggests (« vouliez-vous
    dire … ? »), never a match."""
    import difflib  # only for a refused name

    names = list(names)
    near = difflib.get_close_matches(typed, names, n=1, cutoff=0.75) or \
        difflib.get_close_matches(typed.upper(), [name.upper() for name in names], n=1, cutoff=0.75)
    return next(name for name in names if name.upper() == near[0].upper()) if near else None


# Apostrophes and dashes in one table (what each gives is in neither), and whether a text has one:
# str.translate costs as much when nothing changes, and most cells have none. The typographic
# apostrophe ’ is not in it: « Tournoi de l’Aude » and « D’ALMEIDA » are shown as typed; who a
# player is never depends on it (`name_tokens` folds every apostrophe, as labels and the site's
# search do), and a player spelled both ways is shown by `best_spelling`'s rule. The other marks
# typed for an apostrophe (‘ ` ´ ʼ) are made the plain one, as before.
_KEPT_APOSTROPHE = ord("’")
_TYPOGRAPHIC = {char: plain for char, plain in {**_APOSTROPHES, **_DASHES}.items() if char != _KEPT_APOSTROPHE}
_HAS_TYPOGRAPHIC = re.compile("[" + re.escape("".join(map(chr, _TYPOGRAPHIC))) + "]")


def compared(text: str) -> str:
    """A name as two of its spellings are compared where it is a key (a tournament's name, a club's
    page): case aside, and the typographic apostrophe ’ kept as typed (`clean_spaces`) read as the
    plain one, so that « Tournoi de l’Aude » sent again as « l'Aude » is the same tournament, and a
    key made before ’ was kept (a calendar event's UID, a club page's address) stays the same."""
    return text.replace("’", "'").casefold()


def clean_spaces(text: str) -> str:
    """Compatibility forms unfolded (NFKC), dashes and the marks typed for an apostrophe made plain
    (the typographic apostrophe ’ kept as typed), single spaces."""
    text = unicodedata.normalize("NFKC", text)
    if _HAS_TYPOGRAPHIC.search(text):
        text = text.translate(_TYPOGRAPHIC)
    return " ".join(text.split())


def _capitalise_word(word: str) -> str:
    # Jean-françois -> Jean-François; d'artagnan stays as typed only when mixed case.
    return re.sub(r"[^\W\d_]+", lambda m: m[0][:1].upper() + m[0][1:].lower(), word)


def format_first_name(first: str) -> str:
    first = clean_spaces(first)
    if first.isupper() or first.islower():
        return _capitalise_word(first)
    return first


def format_name(last: str, first: str) -> str:
    """How a name prints everywhere: NOM Prénom."""
    return " ".join(part for part in (clean_spaces(last).upper(), format_first_name(first)) if part)


def split_full_name(full: str) -> tuple[str, str]:
    """One 'Joueur' cell to (last, first): 'DUPONT Jean', 'Jean DUPONT', 'Dupont, Jean'.

    Words written in capitals are the last name; without capitals to tell, the first word is.
    Capitals that open the cell are the last name even when a later word is in capitals too
    ("DUPONT Marc JEAN" is DUPONT, Marc JEAN), so that a name printed `NOM Prénom` (`format_name`)
    reads back as the same two parts, in the same order (INTERPRETATIONS.md, « who is who »).
    """
    full = clean_spaces(full)
    words = full.split(" ")
    return _told_apart(full) or (words[0], " ".join(words[1:]))


def surname_and_first(name: str) -> tuple[str, str]:
    """A name printed `NOM Prénom` (`format_name`) cut where its first name starts, its words and
    spaces as they are (« VAN DEN BERGHE », « Jean-Baptiste »): (name, "") when its first word is not
    in capitals, or every word is (« DA SILVA »), nothing telling where a first name would start."""
    words = name.split(" ")
    capitalised = [_is_capitalised_word(word) for word in words]
    if not capitalised[0] or all(capitalised):
        return name, ""
    cut = capitalised.index(False)
    return " ".join(words[:cut]), " ".join(words[cut:])


def nom_and_prenom(last: str, first: str) -> tuple[str, str]:
    """A player's `Nom` and `Prénom` cells as (last, first): as typed, but for a `Prénom` left empty
    beside a `Nom` that holds a name in one cell, told apart as in a `Joueur` cell by a comma or by
    the case (« DUPONT Jean », « Jean DUPONT », « Dupont, Jean » are DUPONT | Jean, printed so, not
    « DUPONT JEAN »). A `Nom` in one case throughout tells nothing (« DA SILVA », « Dupont Jean »):
    its words stay the surname, as typed, and `Table.read_name` may warn that the first name is empty."""
    if first:
        return last, first
    return _told_apart(clean_spaces(last)) or (last, first)


def _told_apart(full: str) -> tuple[str, str] | None:
    """(last, first) of a name in one cell (its spaces clean) when a comma or the words in capitals
    tell the surname from the first name; None when every word, or none, is in capitals."""
    if "," in full:
        last, _, first = full.partition(",")
        return last.strip(), first.strip()
    words = full.split(" ")
    capitalised = [_is_capitalised_word(word) for word in words]
    if all(capitalised) or not any(capitalised):
        return None
    if capitalised[0]:  # NOM Prénom: cut as a printed name is
        return surname_and_first(full)
    if capitalised[-1]:  # Prénom NOM
        cut = len(words) - capitalised[::-1].index(False)
        return " ".join(words[cut:]), " ".join(words[:cut])
    capitals = [word for word, upper in zip(words, capitalised) if upper]  # Jean DUPONT Marie
    return " ".join(capitals), " ".join(word for word, upper in zip(words, capitalised) if not upper)


# Initials ("J.-P.", "J.P."): capitals that abbreviate a first name, not a surname in capitals.
_INITIALS = re.compile(r"(?:[^\W\d_]\.-?)+")


def _is_capitalised_word(word: str) -> bool:
    letters = [char for char in word if char.isalpha()]
    return len(letters) >= 2 and all(char.isupper() for char in letters) and not _INITIALS.fullmatch(word)
