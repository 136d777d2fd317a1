"""Who is who: a licence when given, else the normalised name, plus the directory's other spellings."""

from __future__ import annotations

from collections import defaultdict

from reportgen.ingest.directories import DirectoryPlayer
from reportgen.ingest.text import format_name, name_key
from reportgen.model import Entry, Problem


class Identities:
    def __init__(self, directory: list[DirectoryPlayer], entries: list[Entry], problems: list[Problem]):
        self._directory_ids: dict[str, str] = {}  # name key -> id
        self.directory_names: dict[str, str] = {}  # id -> printed name
        for player in directory:
            player_id = f"L:{player.licence}" if player.licence else f"N:{name_key(player.last_name, player.first_name)}"
            self.directory_names[player_id] = format_name(player.last_name, player.first_name)
            for spelling in (f"{player.last_name} {player.first_name}", *player.aliases):
                key = name_key(spelling)
                known = self._directory_ids.get(key)
                if known and known != player_id:
                    problems.append(Problem(player.where, f"la graphie « {spelling} » désigne déjà un autre "
                                            "joueur de l'annuaire", "gardez-la pour un seul joueur",
                                            code="duplicate"))
                    continue
                self._directory_ids[key] = player_id
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
        if key in self._directory_ids:
            return self._directory_ids[key]
        if key in self._licence_of:
            return f"L:{self._licence_of[key]}"
        return f"N:{key}"
