"""Text normalisation: header labels, and the keys and spellings of player names."""

from __future__ import annotations

import re
import unicodedata

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "ø": "o", "Ø": "O"})
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"})
_DASHES = str.maketrans({"‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-"})
_NON_WORD = re.compile(r"[^0-9a-z]+")


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.translate(_LIGATURES))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def normalise_label(text: object) -> str:
    """'Prénom :', 'PRENOM' and ' prenom' all give 'prenom' (docs/formats.md: headers match so)."""
    plain = strip_accents(unicodedata.normalize("NFKC", str(text))).casefold()
    return " ".join(_NON_WORD.sub(" ", plain).split())


def name_tokens(text: str) -> list[str]:
    plain = strip_accents(unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).translate(_DASHES))
    return [token for token in _NON_WORD.split(plain.casefold()) if token]


def name_key(*parts: str) -> str:
    """Identity of a name whatever its accents, case, hyphens or word order.

    "LE GALL Jean-François" and "Jean François Le Gall" give the same key.
    """
    return " ".join(sorted(token for part in parts for token in name_tokens(part)))


def clean_spaces(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).translate(_DASHES).split())


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
    """
    full = clean_spaces(full)
    if "," in full:
        last, _, first = full.partition(",")
        return last.strip(), first.strip()
    words = full.split(" ")
    capitals = [word for word in words if _is_capitalised_word(word)]
    if capitals and len(capitals) < len(words):
        return " ".join(capitals), " ".join(word for word in words if word not in capitals)
    return words[0], " ".join(words[1:])


def _is_capitalised_word(word: str) -> bool:
    letters = [char for char in word if char.isalpha()]
    return len(letters) >= 2 and all(char.isupper() for char in letters)
