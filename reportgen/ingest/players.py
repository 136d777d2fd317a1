"""Who is who: a licence when given, else the normalised name, plus the directory's other spellings.

A name is its words in order (INTERPRETATIONS.md, « who is who »: where a sheet has `Nom` and
`Prénom` columns, their order is a fact): two rows whose names differ only by word order are two
players, which the duplicate checks ask about (ingest/duplicates.py), never merged in silence."""

from __future__ import annotations

from collections import defaultdict

from reportgen.ingest import values
from reportgen.ingest.directories import DirectoryPlayer, Publication, initials
from reportgen.ingest.tables import Column, find_table
from reportgen.ingest.text import format_name, name_key
from reportgen.ingest.workbook import Workbook
from reportgen.model import Entry, Problem
from reportgen.problems import DUPLICATE


class Identities:
    def __init__(self, directory: list[DirectoryPlayer], entries: list[Entry], problems: list[Problem]):
        self.directory_ids: dict[str, str] = {}  # name key -> id, for each spelling joueurs.xlsx gives
        self.directory_names: dict[str, str] = {}  # id -> printed name
        # id -> (publication choice, initials), for the players the public site must not name in full
        self.publication: dict[str, tuple[str, str]] = {}
        for player in directory:
            player_id = f"L:{player.licence}" if player.licence else f"N:{name_key(player.last_name, player.first_name)}"
            self.directory_names[player_id] = format_name(player.last_name, player.first_name)
            if player.publication != Publication.SHOWN:
                self.publication[player_id] = (player.publication, initials(player.last_name, player.first_name))
            # Nom then Prénom as the columns give them; another spelling is one cell, read as
            # typed (INTERPRETATIONS.md, « who is who »: DANIEL Philippe is not PHILIPPE Daniel).
            spellings = [(f"{player.last_name} {player.first_name}".strip(),
                          name_key(player.last_name, player.first_name))]
            spellings += [(alias, name_key(alias)) for alias in player.aliases]
            for spelling, key in spellings:
                known = self.directory_ids.get(key)
                if known and known != player_id:
                    problems.append(DUPLICATE(player.where, message=f"la graphie « {spelling} » désigne déjà un "
                                              "autre joueur de l’annuaire", fix="gardez-la pour un seul joueur"))
                    continue
                self.directory_ids[key] = player_id
        # A name typed without a licence in one file and with it in another is the same player,
        # as long as that name never came with two different licences.
        licences: dict[str, set[str]] = defaultdict(set)
        for entry in entries:
            if entry.licence:
                licences[name_key(entry.last_name, entry.first_name)].add(entry.licence)
        self._licence_of = {key: next(iter(found)) for key, found in licences.items() if len(found) == 1}

    def resolve(self, entry: Entry) -> str:
        if entry.licence:
            return f"L:{entry.licence}"
        key = name_key(entry.last_name, entry.first_name)
        if key in self.directory_ids:
            return self.directory_ids[key]
        if key in self._licence_of:
            return f"L:{self._licence_of[key]}"
        return f"N:{key}"


DISTINCT_SHEET = "Distincts"
PLAYER_A = Column("player", "Joueur", ())
PLAYER_B = Column("other", "Autre joueur", ("Autre",))


def read_distinct(workbook: Workbook, problems: list[Problem]) -> set[frozenset[str]]:
    """The pairs the secretary said are two people (`reportgen players distinct`), as name keys."""
    sheet = workbook.sheet(DISTINCT_SHEET)
    table = find_table(workbook, sheet, [PLAYER_A, PLAYER_B]) if sheet else None
    if table is None or not (table.has("player") and table.has("other")):
        return set()
    pairs = set()
    for row in table.rows:
        one = table.read(row, "player", values.text, problems)
        other = table.read(row, "other", values.text, problems)
        if one and other:
            pairs.add(frozenset((name_key(one), name_key(other))))
    return pairs
