"""Validated events to one tidy pandas table per circuit: a row per player per tournament.

Every row keeps where it came from (file, sheet, cell), so a problem found later still points at
the cell to fix.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections import Counter

import pandas as pd

from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.players import Identities
from reportgen.ingest.text import format_name, name_key
from reportgen.model import Event, Problem, SourceRef
from reportgen.problems import DUPLICATE_PLAYER, SHARED_LICENCE, UNKNOWN_CLUB

IDENTITY_COLUMNS = ["event", "date", "player_id", "player", "typed", "licence", "club",
                    "source_file", "source_sheet", "source_cell"]


def best_spelling(spellings: list[str]) -> str:
    """The spelling with the most accents (files that drop them lose information), then the most
    frequent, then the latest. Each spelling counted once (a player's rows mostly spell him alike),
    not once per row. An apostrophe is no accent: « D’ALMEIDA » and « D'ALMEIDA » lose nothing of
    each other, the most frequent is shown, else the latest."""
    counts = Counter(spellings)
    accents = {spelling: sum(not char.isascii() and char != "’" for char in spelling) for spelling in counts}
    return spellings[max(range(len(spellings)), key=lambda index: (
        accents[spellings[index]], counts[spellings[index]], index))]


def unknown_club(typed: str, where: SourceRef, clubs: ClubDirectory) -> Problem:
    """A player's club that the directory does not know, with the nearest name or code if one is
    close (« Montpelier » → « Montpellier »)."""
    known = {club.name: club.name for club in clubs.clubs} | {club.code: club.name for club in clubs.clubs}
    near = difflib.get_close_matches(typed, list(known), n=1, cutoff=0.75) or \
        difflib.get_close_matches(typed.casefold(), [k.casefold() for k in known], n=1, cutoff=0.75)
    suggestion = next((known[k] for k in known if near and k.casefold() == near[0].casefold()), None)
    fix = (f"vouliez-vous dire « {suggestion} » ? Sinon ajoutez le club à clubs.xlsx" if suggestion
           else "écrivez le code ou le nom d’un club de l’annuaire, ou ajoutez le club à clubs.xlsx")
    return UNKNOWN_CLUB(where, club=typed, fix=fix)


TABLE_COLUMNS = ("event", "date", "player_id", "player", "licence", "typed", "club", "source_file", "source_sheet",
                 "source_cell")  # then each circuit's own typed fields


def results_table(events: list[Event], identities: Identities, clubs: ClubDirectory,
                  problems: list[Problem]) -> pd.DataFrame:
    # Made column by column: a tuple per row, then pandas turns each column's list into its array
    # once. A dict per row (DataFrame.from_records) was made, then taken apart, for each of 200,000
    # rows at 100x (fourteenth round).
    rows: list[tuple] = []  # TABLE_COLUMNS' values, a tuple per row
    own_columns: dict[str, list] = {}  # each circuit's own field -> its value in each row (NaN: not its row's)
    own_fields: dict[type, list[str]] = {}  # a circuit's row class -> its own typed fields
    absent: dict[type, list[str]] = {}  # a row class -> the own columns of the other classes, NaN in its rows
    printed: dict[tuple[str, str], str] = {}  # (last, first) as typed -> NOM Prénom: once per spelling
    for event in sorted(events, key=lambda e: (e.date, e.id)):
        seen: dict[str, str] = {}
        named: dict[str, str] = {}  # player id -> his name as the row that came first spells it
        day = pd.Timestamp(event.date)
        for row in event.results:
            entry, ref = row.entry, row.ref
            player_id = identities.resolve(entry)
            typed = printed.get((entry.last_name, entry.first_name))  # as this row spells it
            if typed is None:
                typed = printed[entry.last_name, entry.first_name] = format_name(entry.last_name, entry.first_name)
            if player_id in seen:
                if entry.licence and name_key(typed) != name_key(named[player_id]):
                    # one licence under two names: a licence mistyped (or a name), not one player twice
                    problems.append(SHARED_LICENCE(row.licence_ref or ref, player=typed, licence=entry.licence,
                                                   other=named[player_id], first=seen[player_id]))
                    continue
                # The fix names what the sheet has: a licence only where it has a licence column.
                what = "le nom ou la licence" if row.licence_ref is not None else "le nom"
                # Spelled otherwise there (accents, case, an other spelling of joueurs.xlsx): both said,
                # or the club looks in vain for this spelling in the first cell.
                first = named[player_id]
                problems.append(DUPLICATE_PLAYER(ref, player=typed, listed="listé", first=seen[player_id],
                                                 spelled=f", écrit « {first} »" if first != typed else "",
                                                 otherwise=f", ou corrigez {what}"))
                continue
            seen[player_id] = ref.cell or ""
            named[player_id] = typed
            club = clubs.find(row.club) if row.club else None
            if row.club and club is None and clubs.clubs and clubs.unknown(row.club):
                problems.append(unknown_club(row.club, row.club_ref or ref, clubs))
            # The circuit's own typed fields become columns; the cells that locate them do not.
            own = own_fields.get(type(row))
            if own is None:
                own = own_fields[type(row)] = [
                    f.name for f in dataclasses.fields(row)
                    if f.name not in TABLE_COLUMNS and f.name not in ("entry", "ref") and not f.name.endswith("_ref")]
                for name in own:  # NaN in the rows before, as from_records left a key a row lacks
                    own_columns.setdefault(name, [math.nan] * len(rows))
                absent.update({kind: [name for name in own_columns if name not in fields]
                               for kind, fields in own_fields.items()})
            for name in own:
                own_columns[name].append(getattr(row, name))
            for name in absent[type(row)]:
                own_columns[name].append(math.nan)
            rows.append((event.id, day, player_id, typed, entry.licence, typed, club.name if club else row.club,
                         ref.path, ref.sheet, ref.cell))
    if not rows:
        return pd.DataFrame(columns=IDENTITY_COLUMNS)
    table = pd.DataFrame({**dict(zip(TABLE_COLUMNS, map(list, zip(*rows)))), **own_columns})
    # One printed name and one club per player: the directory's name, else the best spelling;
    # the latest club given (`last()` skips missing values).
    # pandas-stubs lack the nested {column: {old: new}} form of replace.
    blanked = table.replace({"club": {"": None}})  # type: ignore[arg-type]
    latest = blanked.groupby("player_id", sort=False)[["club"]].last()
    # Each player's spellings in the rows' order, grouped in Python: a pandas group per player cost
    # more than choosing among them.
    spellings: dict[str, list[str]] = {}
    for player_id, spelling in zip(table["player_id"].tolist(), table["player"].tolist()):
        spellings.setdefault(player_id, []).append(spelling)
    names = {player_id: best_spelling(theirs) for player_id, theirs in spellings.items()}
    names.update({pid: name for pid, name in identities.directory_names.items() if pid in names})
    table["player"] = table["player_id"].map(names)
    table["player_club"] = table["player_id"].map(latest["club"].fillna("").to_dict())
    licences = table[table["licence"] != ""].groupby("player_id")["licence"].last().to_dict()
    table["licence"] = [licences.get(player_id, "") for player_id in table["player_id"].tolist()]
    return table


def listed_table(events: list[Event], identities: Identities) -> pd.DataFrame:
    """The people the events list without a result (`Event.listed`), one row each with the
    identity columns of `results_table`: what the duplicate checks ask about beside the results."""
    records = [{"event": event.id, "date": pd.Timestamp(event.date), "player_id": identities.resolve(row.entry),
                "player": format_name(row.entry.last_name, row.entry.first_name),
                "typed": format_name(row.entry.last_name, row.entry.first_name), "licence": row.entry.licence,
                "club": row.club, "source_file": row.ref.path, "source_sheet": row.ref.sheet,
                "source_cell": row.ref.cell}
               for event in events for row in event.listed]
    return pd.DataFrame.from_records(records, columns=IDENTITY_COLUMNS)
