"""Players a build should ask the secretary about: the newcomers of the latest workbooks, and
pairs that are probably one person (a typo in a name, a licence typed with another name).

Only warnings: nothing here changes who is who. A pair the secretary decided (`reportgen players
merge` or `distinct`, recorded in joueurs.xlsx) is not asked again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import pandas as pd

from reportgen.ingest.text import name_key

# "A letter or two apart": one letter whatever the clubs, two within one club (beyond, different
# names are too often a letter or two apart: MARTIN / BERTIN).
MAX_TYPOS = 2


def _distance(a: str, b: str, limit: int = MAX_TYPOS) -> int:
    """Levenshtein distance, stopping early past `limit` (names are short)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _where(rows: pd.DataFrame) -> str:
    first = rows.sort_values(["date", "source_file"]).iloc[0]
    return f"{first.source_file}:'{first.source_sheet}'!{first.source_cell}"


def newcomers(table: pd.DataFrame) -> list[str]:
    """The players whose first result is in the latest workbooks (the newest date) of a circuit
    with earlier results: a typo in a known name shows up here first."""
    if table.empty or table["date"].nunique() < 2:
        return []  # a first tournament: everyone is new, nothing to ask
    first_seen = table.groupby("player_id")["date"].min()
    latest = table["date"].max()
    new = table[table["player_id"].isin(first_seen[first_seen == latest].index) & (table["date"] == latest)]
    return [f"{row.player} ({row.source_file}:'{row.source_sheet}'!{row.source_cell})"
            for row in new.sort_values(["source_file", "source_cell"]).itertuples()]


def probable_duplicates(table: pd.DataFrame, decided: Iterable[frozenset[str]] = ()) -> list[str]:
    """Pairs of players that are probably one person, each named with a cell where it appears;
    `decided`: the pairs (of name keys) the secretary said are two people."""
    if table.empty:
        return []
    done = set(decided)
    warnings = []
    names: dict[str, str] = dict(zip(table["player_id"], table["player"]))  # one printed name per player
    by_player: dict[str, pd.DataFrame] = {str(pid): rows for pid, rows in table.groupby("player_id")}
    clubs = {pid: set(rows["club"]) - {""} for pid, rows in by_player.items()}

    def ask(a: str, b: str, why: str) -> None:
        if frozenset((name_key(names[a]), name_key(names[b]))) in done:
            return  # the secretary said they are two people
        warnings.append(f"{names[a]} ({_where(by_player[a])}) et {names[b]} ({_where(by_player[b])}) "
                        f"sont peut-être la même personne : {why}")

    # Names a letter or two apart, in the same club (or without one): compare within a shared word.
    words: dict[str, list[str]] = defaultdict(list)
    for pid, name in names.items():
        for word in set(name.casefold().split()):
            words[word].append(pid)
    seen: set[frozenset[str]] = set()
    for group in words.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                pair = frozenset((a, b))
                if pair in seen:
                    continue
                seen.add(pair)
                same_club = bool(clubs[a] & clubs[b])
                unknown = not clubs[a] or not clubs[b]
                typos = _distance(names[a].casefold(), names[b].casefold())
                if 0 < typos <= (MAX_TYPOS if same_club else 1 if unknown else 0):
                    first, second = sorted((a, b))
                    ask(first, second, f"les noms diffèrent de {typos} lettre{'s' if typos > 1 else ''}"
                        + (", même club" if same_club else ""))
    # A licence typed with another name: the licence made them one player; say so.
    licensed = table[table["licence"] != ""].sort_values(["date", "source_file", "source_cell"])
    for licence, rows in licensed.groupby("licence", sort=True):
        typed = rows.assign(key=rows["typed"].map(name_key)).drop_duplicates("key")
        if len(typed) > 1:
            spellings = " et à ".join(f"{row.typed} ({row.source_file}:'{row.source_sheet}'!{row.source_cell})"
                                for row in typed.itertuples())
            warnings.append(f"la licence {licence} est donnée à {spellings} : vérifiez la licence ou le nom")
    return warnings
