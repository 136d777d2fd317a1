"""`results_table` made column by column (fourteenth round) gives the table a dict per row gave
(`DataFrame.from_records`, kept below as the reference): the same columns in the same order, the
same values and types, the same problems; a field only some rows' class has is NaN in the others."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pandas as pd

from reportgen.ingest.directories import ClubDirectory
from reportgen.ingest.normalise import IDENTITY_COLUMNS, best_spelling, results_table, unknown_club
from reportgen.ingest.players import Identities
from reportgen.ingest.text import format_name
from reportgen.model import Entry, Event, Problem, ResultRow, SourceRef
from reportgen.pipeline import load
from reportgen.problems import DUPLICATE_PLAYER
from tests.builders import CLUBS, TODAY
from tests.builders import event as tournament


def old_results_table(events: list[Event], identities: Identities, clubs: ClubDirectory,
                  problems: list[Problem]) -> pd.DataFrame:
    records = []
    own_fields: dict[type, list[str]] = {}  # a circuit's row class -> its own typed fields
    printed: dict[tuple[str, str], str] = {}  # (last, first) as typed -> NOM Prénom: once per spelling
    for event in sorted(events, key=lambda e: (e.date, e.id)):
        seen: dict[str, str] = {}
        day = pd.Timestamp(event.date)
        for row in event.results:
            entry, ref = row.entry, row.ref
            player_id = identities.resolve(entry)
            typed = printed.get((entry.last_name, entry.first_name))  # as this row spells it
            if typed is None:
                typed = printed[entry.last_name, entry.first_name] = format_name(entry.last_name, entry.first_name)
            if player_id in seen:
                # The fix names what the sheet has: a licence only where it has a licence column.
                what = "le nom ou la licence" if row.licence_ref is not None else "le nom"
                problems.append(DUPLICATE_PLAYER(ref, player=typed, listed="listé", first=seen[player_id],
                                                 otherwise=f", ou corrigez {what}"))
                continue
            seen[player_id] = ref.cell or ""
            club = clubs.find(row.club) if row.club else None
            if row.club and club is None and clubs.clubs:
                problems.append(unknown_club(row.club, row.club_ref or ref, clubs))
            record = {
                "event": event.id, "date": day, "player_id": player_id,
                "player": typed, "licence": entry.licence, "typed": typed,
                "club": club.name if club else row.club,
                "source_file": ref.path, "source_sheet": ref.sheet, "source_cell": ref.cell,
            }
            # The circuit's own typed fields become columns; the cells that locate them do not.
            own = own_fields.get(type(row))
            if own is None:
                own = own_fields[type(row)] = [
                    f.name for f in dataclasses.fields(row)
                    if f.name not in record and f.name not in ("entry", "ref") and not f.name.endswith("_ref")]
            record.update({name: getattr(row, name) for name in own})
            records.append(record)
    table = pd.DataFrame.from_records(records)
    if table.empty:
        return pd.DataFrame(columns=IDENTITY_COLUMNS)
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


def same(events, clubs=CLUBS):
    entries = [entry for each in events for entry in each.entries]
    new_problems, old_problems = [], []
    new = results_table(events, Identities([], entries, []), clubs, new_problems)
    old = old_results_table(events, Identities([], entries, []), clubs, old_problems)
    pd.testing.assert_frame_equal(new, old, check_exact=True)
    assert list(new.dtypes) == list(old.dtypes)
    assert new_problems == old_problems
    return new, new_problems


@dataclasses.dataclass(frozen=True, kw_only=True)
class Scored(ResultRow):
    points: int
    bonus: float


@dataclasses.dataclass(frozen=True, kw_only=True)
class Excused(ResultRow):
    reason: str
    points: int


def test_the_example_league_s_tables_are_those_of_a_dict_per_row():
    league = load(Path(__file__).parent.parent / "examples" / "league", TODAY)
    tested = 0
    for inputs in league.circuits.values():
        if inputs.events:
            same(inputs.events)
            tested += 1
    assert tested >= 3


def test_duplicates_unknown_clubs_and_no_rows():
    played = tournament("2026-03-01", "CARC", ["DUPONT Jean", "MARTIN Luc", "DUPONT Jean"])
    table, problems = same([played, tournament("2026-02-01", "TLSE", ["#123 LEROY Paul", "MARTIN Luc"])])
    assert [p.code for p in problems] == [DUPLICATE_PLAYER.code]
    assert list(table["event"]) == ["2026-02-01-TLSE.xlsx"] * 2 + ["2026-03-01-CARC.xlsx"] * 2
    assert table["date"].dtype.kind == "M"
    empty, _ = same([])
    assert list(empty.columns)[:3] == ["event", "date", "player_id"] and empty.empty


def test_a_field_of_one_row_class_only_is_nan_in_the_others():
    def row(kind, name, cell, club="", **fields):
        return kind(entry=Entry("", name, "Jean"), ref=SourceRef("a.xlsx", "Résultats", cell), club=club, **fields)

    rows = [row(Scored, "DUPONT", "B2", points=3, bonus=0.5), row(Excused, "MARTIN", "B3", "Montpelier",
                                                                 reason="malade", points=0),
            row(Scored, "LEROY", "B4", "CARC", points=1, bonus=1.0)]
    table, problems = same([Event("a.xlsx", "A", dt.date(2026, 1, 4), None, rows)])
    assert list(table.columns)[10:13] == ["points", "bonus", "reason"]
    assert table["bonus"].isna().tolist() == [False, True, False]
    assert table["reason"].isna().tolist() == [True, False, True]
    assert len(problems) == 1 and "Montpellier" in problems[0].fix
