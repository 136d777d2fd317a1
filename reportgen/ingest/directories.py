"""The league's directories: clubs (required) and players (optional), docs/formats.md."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from email.utils import parseaddr
from enum import StrEnum

from reportgen.ingest import values as parse
from reportgen.ingest.tables import CLUB, FIRST_NAME, LAST_NAME, LICENCE, Column, required_table
from reportgen.ingest.text import normalise_label
from reportgen.ingest.workbook import Workbook
from reportgen.model import Problem, SourceRef
from reportgen.problems import BAD_ADDRESS, BAD_PUBLICATION, DUPLICATE, MISSING_COLUMN

CLUBS_FILE = "clubs.xlsx"
PLAYERS_FILE = "joueurs.xlsx"

CODE = Column("code", "Code", ("Code club", "Sigle"))
CLUB_NAME = Column("name", "Nom", ("Nom du club", "Club"))
DEPARTEMENT = Column("departement", "Département", ("Departement", "Dépt", "Dept"))
EMAIL = Column("email", "Email", ("E-mail", "Courriel", "Mail", "Adresse électronique"))
ALIASES = Column("aliases", "Autres graphies", ("Autres orthographes", "Alias"))
# What the public site may show of a player (EU data protection; site/privacy.py): the name, the
# initials, or nothing. The bulletins sent to clubs stay whole.
PUBLICATION = Column("publication", "Publication", ("Publication sur le site", "Diffusion"))


class Publication(StrEnum):
    """A player's choice, as the `Publication` column writes it."""

    SHOWN = "oui"
    INITIALS = "initiales"
    HIDDEN = "non"


PUBLICATION_CHOICES = {"oui": Publication.SHOWN, "o": Publication.SHOWN, "initiales": Publication.INITIALS,
                       "initiale": Publication.INITIALS, "non": Publication.HIDDEN, "n": Publication.HIDDEN}

_DEPARTEMENT = re.compile(r"^(?:\d{2,3}|2A|2B)$")


@dataclass(frozen=True)
class BadAddress:
    """An Email cell that holds what is no address (a warning, problems.BAD_ADDRESS): what `mail`
    says instead of the club's message."""

    typed: str  # the parts that are no address, each in « »
    where: SourceRef

    @property
    def cell(self) -> SourceRef:
        """Its cell, as said after the address (« clubs.xlsx, feuille « Clubs », cellule D4 »): the
        column is the address's, said already."""
        return replace(self.where, column=None)


@dataclass(frozen=True)
class Club:
    code: str
    name: str
    departement: str
    emails: tuple[str, ...] = ()  # none when the cell is empty or holds what is no address
    bad_address: BadAddress | None = field(default=None, compare=False)
    # Its Email cell (None when clubs.xlsx has no Email column): where its address is typed.
    address_cell: SourceRef | None = field(default=None, compare=False)

    @property
    def no_address(self) -> str:
        """Where its address is missing, said after « n’a pas d’adresse » (`remind`, `mail`): « rien
        dans clubs.xlsx, feuille « Clubs », cellule D6 », its cell as a bad address's is said
        (`BadAddress.cell`: the column is the address's); « pas de colonne « Email » dans clubs.xlsx »."""
        if self.address_cell is None:
            return f"pas de colonne « {EMAIL.header} » dans {CLUBS_FILE}"
        return f"rien dans {replace(self.address_cell, column=None)}"


@dataclass(frozen=True)
class ClubDirectory:
    """The league's clubs (clubs.xlsx), in the file's order, each found by its code or its name
    (`find`). Immutable, so that its index is made once, with it: `find` runs for every result row,
    and once checked at each call that its public list had not changed since (a comparison of every
    club: 30 µs a call for 100 clubs, twenty-first round)."""

    clubs: Sequence[Club] = ()  # kept as a tuple, whatever sequence is given
    # The codes and names (normalised) of the rows of clubs.xlsx left out for a problem of their own:
    # a workbook naming such a club is not told the club is unknown (once per row of every result
    # sheet: forty problems for one département mistyped); the row's problem, said once, blocks.
    left_out: frozenset[str] = field(default=frozenset(), compare=False)
    # clubs.xlsx has a blocking problem of its own (absent while needed, unreadable, its columns, a
    # row or a cell to fix): no club is said unknown anywhere, the workbooks' nor the calendar's.
    # The directory's problem is the cause, said once; it holds back the circuits that name clubs,
    # and the clubs are checked again once it is fixed (pipeline/loading.py).
    broken: bool = field(default=False, compare=False)
    # Every club's code and name normalised, the first club that has one winning.
    _index: dict[str, Club] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        clubs = tuple(self.clubs)
        index: dict[str, Club] = {}
        for club in clubs:
            for label in (normalise_label(club.code), normalise_label(club.name)):
                index.setdefault(label, club)
        object.__setattr__(self, "clubs", clubs)
        object.__setattr__(self, "_index", index)

    def find(self, code_or_name: str) -> Club | None:
        return self._index.get(normalise_label(code_or_name))

    def unknown(self, code_or_name: str) -> bool:
        """Whether a club named so is truly unknown: neither found nor on a row of the file that
        has its own problem to fix, in a directory that has none blocking (`broken`)."""
        return not self.broken and self.find(code_or_name) is None \
            and normalise_label(code_or_name) not in self.left_out


@dataclass(frozen=True)
class DirectoryPlayer:
    licence: str
    last_name: str
    first_name: str
    club: str
    aliases: tuple[str, ...]
    where: SourceRef
    publication: Publication = Publication.SHOWN


def initials(last_name: str, first_name: str) -> str:
    """« D. M. » for DUPONT Marie, in the order the site prints names (NOM Prénom); « D. S. P. »
    for DA SILVA Patrick, « M. J.-P. » for MARTIN Jean-Pierre."""
    def of(words: str) -> list[str]:
        return ["-".join(f"{part[0].upper()}." for part in word.split("-") if part) for word in words.split()]
    return " ".join(of(last_name) + of(first_name))


def _departement(value: object) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = f"{parse.whole_number(value):02d}"  # Excel turned "09" into 9
    text = parse.text(value).upper()
    if not _DEPARTEMENT.match(text):
        raise parse.BadValue(f"« {text} » n’est pas un numéro de département", "écrivez par exemple 09, 31 ou 2A")
    return text


# An address as the clubs type them: one « @ », a domain with a dot, no space (RFC 5322's atoms,
# ASCII: what an SMTP server takes without SMTPUTF8). A last label in lower case, capitals or
# capitalised (« .fr », « .FR », « .Fr »); any other mix is a word glued on
# (« contact@alb.example.orgBcc »).
_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?")
_TOP = re.compile(r"[a-z]{2,63}|[A-Z]{2,63}|[A-Z][a-z]{1,62}")


def is_address(address: str) -> bool:
    """A bare address (no name, no « < > ») that passes the check above."""
    local, at, domain = address.partition("@")
    labels = domain.split(".")
    return (bool(at) and len(address) <= 254 and _LOCAL.fullmatch(local) is not None and len(labels) >= 2
            and all(_LABEL.fullmatch(label) for label in labels) and _TOP.fullmatch(labels[-1]) is not None)


def addresses(cell: str) -> tuple[tuple[str, ...], list[str]]:
    """An `Email` cell: addresses separated by « ; » or « , », each alone or after a name
    (« Albi <contact@albi.fr> »). (The bare addresses, what SMTP is given; the parts that are none.)"""
    found, wrong = [], []
    for part in (part.strip() for part in re.split(r"[;,]", cell)):
        if not part:
            continue
        address = parseaddr(part)[1]
        if is_address(address) and (part == address or part.endswith(f"<{address}>")):
            found.append(address)
        else:
            wrong.append(part)
    return tuple(found), wrong


def read_clubs(workbook: Workbook, problems: list[Problem]) -> ClubDirectory:
    clubs: list[Club] = []
    sheet = workbook.sheet("Clubs")
    if sheet is None:
        problems.append(MISSING_COLUMN(workbook.ref(sheet), message="l’annuaire des clubs doit avoir une feuille "
                                       "« Clubs » avec les colonnes Code, Nom, Département, Email",
                                       fix="nommez la feuille « Clubs » et écrivez ces en-têtes sur sa première "
                                       "ligne"))
        return ClubDirectory()
    # The secretary types it: its header row, when found, is told the columns it lacks (at its cell)
    table = required_table(workbook, sheet, [CODE, CLUB_NAME, DEPARTEMENT, EMAIL], [CODE, CLUB_NAME, DEPARTEMENT],
                           "écrivez les en-têtes Code, Nom, Département, Email sur la première ligne de la feuille",
                           problems, typed_by_hand=True)
    if table is None:
        return ClubDirectory()
    seen: dict[str, SourceRef] = {}
    left_out: set[str] = set()
    for row in table.rows:
        code = table.read(row, "code", parse.text, problems)
        name = table.read(row, "name", parse.text, problems)
        departement = table.read(row, "departement", _departement, problems)
        emails, wrong = addresses(table.read(row, "email", parse.text, problems, required=False) or "")
        bad_address = None
        if wrong:  # the club gets nothing, rather than half its cell; a warning: no ranking depends on it
            bad_address = BadAddress(", ".join(f"« {part} »" for part in wrong), table.ref(row, "email"))
            problems.append(BAD_ADDRESS(bad_address.where, parts=bad_address.typed,
                                        **({"what": "n’est pas une adresse électronique"} if len(wrong) == 1 else {})))
            emails = ()
        if not (code and name and departement):
            left_out.update(normalise_label(typed) for typed in (code, name) if typed)
            continue
        if normalise_label(code) in seen:
            problems.append(DUPLICATE(table.ref(row, "code"), message=f"le code « {code} » est déjà utilisé "
                                      f"en {seen[normalise_label(code)].cell}",
                                      fix="donnez un code unique à chaque club"))
            left_out.add(normalise_label(name))
            continue
        seen[normalise_label(code)] = table.ref(row, "code")
        clubs.append(Club(code, name, departement, emails, bad_address,
                          table.ref(row, "email") if "email" in table.columns else None))
    return ClubDirectory(clubs, frozenset(left_out))


def read_players(workbook: Workbook, problems: list[Problem]) -> list[DirectoryPlayer]:
    sheet = workbook.sheet("Joueurs")
    if sheet is None:
        problems.append(MISSING_COLUMN(workbook.ref(sheet), message="l’annuaire des joueurs doit avoir une feuille "
                                       "« Joueurs » avec les colonnes Licence, Nom, Prénom, Club, Autres graphies "
                                       "(et, si besoin, Publication)",
                                       fix="nommez la feuille « Joueurs » et écrivez au moins les en-têtes Nom et "
                                       "Prénom sur sa première ligne"))
        return []
    table = required_table(workbook, sheet, [LICENCE, LAST_NAME, FIRST_NAME, CLUB, ALIASES, PUBLICATION],
                           [LAST_NAME, FIRST_NAME], "écrivez au moins les en-têtes Nom et Prénom sur la première "
                           "ligne de la feuille (Licence, Club, Autres graphies, Publication si besoin)",
                           problems, typed_by_hand=True)
    if table is None:
        return []
    players = []
    for row in table.rows:
        # as every sheet's Nom and Prénom are (a Nom « DUPONT Jean » beside an empty Prénom is the
        # workbooks' DUPONT | Jean): one reading, one player
        last, first, where = table.read_name(row, problems)
        if not last:
            continue
        aliases = table.read(row, "aliases", parse.text, problems, required=False) or ""
        typed = table.read(row, "publication", parse.text, problems, required=False) or ""
        publication = PUBLICATION_CHOICES.get(normalise_label(typed)) if typed.strip() else Publication.SHOWN
        if publication is None:
            problems.append(BAD_PUBLICATION(table.ref(row, "publication"), value=typed))
            publication = Publication.HIDDEN  # until it is corrected, the site shows less rather than more
        players.append(DirectoryPlayer(
            licence=table.read(row, "licence", parse.text, problems, required=False) or "",
            last_name=last,
            first_name=first,
            club=table.read(row, "club", parse.text, problems, required=False) or "",
            aliases=tuple(a.strip() for a in aliases.split(";") if a.strip()),
            publication=publication,
            where=where,
        ))
    return players
