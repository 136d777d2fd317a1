"""Players a build should ask the secretary about: the newcomers of the latest workbooks, and
pairs that are probably one person (a typo in a name, the same words in another order, a licence
typed with another name).

Only warnings: nothing here changes who is who. Each names the two commands that answer it
(`reportgen players merge` or `distinct`, recorded in joueurs.xlsx); a pair so decided is not
asked again. Two names with the same words in another order (MICHEL Bernard, BERNARD Michel) are
two players, asked about like near names (INTERPRETATIONS.md, « who is who »). Two names of one
tournament (`shared_tournament`) are two people or a row typed twice, never merged: their question
says so, as `players merge` refuses them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from typing import NamedTuple

import numpy as np
import pandas as pd

from reportgen import french
from reportgen.ingest.known_pairs import KnownPairs, group_key
from reportgen.ingest.text import name_key, words_key
from reportgen.model import SourceRef

# "A letter or two apart": one letter whatever the clubs, two within one club (beyond, different
# names are too often a letter or two apart: MARTIN / BERTIN).
MAX_TYPOS = 2


def distance(a: str, b: str, limit: int = MAX_TYPOS) -> int:
    """Levenshtein distance when it is at most `limit`, else `limit` + 1 (names are short).

    Only the cells within `limit` of the diagonal are computed: a cell further away is more than
    `limit` edits already, and every value is capped at `limit` + 1, which keeps those up to
    `limit` exact (most pairs compared are different names, which stop after a few rows)."""
    beyond = limit + 1
    if abs(len(a) - len(b)) > limit:
        return beyond
    previous = [min(j, beyond) for j in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        low, high = max(1, i - limit), min(len(b), i + limit)
        current = [beyond] * (len(b) + 1)
        current[0] = min(i, beyond)
        for j in range(low, high + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != b[j - 1]), beyond)
        if min(current[low - 1:high + 1]) >= beyond:
            return beyond
        previous = current
    return previous[-1]


def newcomers(table: pd.DataFrame) -> list[str]:
    """The players whose first result is in the latest workbooks (the newest date) of a circuit
    with earlier results: a typo in a known name shows up here first."""
    if table.empty or table["date"].nunique() < 2:
        return []  # a first tournament: everyone is new, nothing to ask
    first_seen = table.groupby("player_id")["date"].min()
    latest = table["date"].max()
    new = table[table["player_id"].isin(first_seen[first_seen == latest].index) & (table["date"] == latest)]
    return [f"{row.player} ({SourceRef(row.source_file, row.source_sheet, row.source_cell)})"
            for row in new.sort_values(["source_file", "source_cell"]).itertuples()]


def _one_apart(a: str, b: str) -> bool:
    """One letter typed differently, added or left out (linear: most candidate pairs stop here)."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    if abs(len(a) - len(b)) != 1:
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    cut = next((i for i, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[cut:] == long[cut + 1:]


def _variants(name: str, letters: int) -> set[str]:
    """The name with up to `letters` (1 or 2) letters left out. Two names at most that many edits
    apart share one: a letter added or left out is one left out of one name, a letter typed
    differently is the same letter left out of both.

    Each pair of places is cut once (the second after the first), not once per order: half the
    strings made of leaving out one letter and then another, the same set."""
    if letters not in (1, 2):
        raise ValueError(f"letters: 1 or 2, not {letters}")
    size = len(name)
    ones = [name[:i] + name[i + 1:] for i in range(size)]
    found = {name, *ones}
    if letters == 2:
        # `ones[i]` less its letter at j >= i is the name less its letters at i and j + 1.
        found.update(word[:j] + word[j + 1:] for i, word in enumerate(ones) for j in range(i, size - 1))
    return found


def _sharing_a_variant(folded: dict[str, str], pids: Iterable[str], letters: int,
                       crowded: int | None = None) -> set[tuple[str, str]]:
    """Pairs of `pids` whose names share a variant (`_variants`): every pair at most `letters`
    edits apart, and some further (the caller measures each). A variant shared by more than
    `crowded` names is a naming pattern, not a typo: none of its pairs. Linear in the names, where
    comparing every pair is quadratic."""
    theirs = [(pid, _variants(folded[pid], letters)) for pid in pids]
    # The variants of more than one name, found with set operations (in C) rather than by a list
    # per variant: most variants are one name's, and making a list for each was most of the time.
    seen: set[str] = set()
    common: set[str] = set()
    for _, found in theirs:
        common |= found & seen
        seen |= found
    buckets: dict[str, list[str]] = defaultdict(list)
    for pid, found in theirs:
        for variant in found & common:
            buckets[variant].append(pid)
    return {(a, b) for group in buckets.values() if crowded is None or len(group) <= crowded
            for i, a in enumerate(group) for b in group[i + 1:]}


def shell_word(name: str) -> str:
    """A name as one argument of a command typed in a shell: in double quotes, with the four
    characters a shell reads inside them escaped."""
    return '"' + re.sub(r'(["\\$`])', r"\\\1", name) + '"'


def _first_cells(rows: pd.DataFrame, by: list[str]) -> Iterator[tuple[list[str], str]]:
    """The first of `rows` (of a results table) of each value of the columns `by`, in the rows'
    order: those values and the row's cell."""
    firsts = rows.drop_duplicates(by)
    for *values, file, sheet, cell in zip(*(firsts[column].tolist() for column in (
            *by, "source_file", "source_sheet", "source_cell"))):
        yield values, str(SourceRef(file, sheet, cell))


def tournament_cells(rows: pd.DataFrame) -> dict[str, str]:
    """Where a player's rows (of a results table) are: the cell of his first row in each tournament,
    by event id, in the rows' order."""
    return {event: where for (event,), where in _first_cells(rows, ["event"])}


def players_tournament_cells(rows: pd.DataFrame) -> dict[str, dict[str, str]]:
    """`tournament_cells` of each player of `rows`, by player id: the rows gone through once, not
    a frame made for each player."""
    cells: dict[str, dict[str, str]] = defaultdict(dict)
    for (pid, event), where in _first_cells(rows, ["player_id", "event"]):
        cells[pid][event] = where
    return cells


def shared_tournament(first: dict[str, str], second: dict[str, str]) -> tuple[str, str] | None:
    """The cells of two names in the first tournament both are in (`tournament_cells`), if any: two
    people, or one row typed twice, never one player (merged, the build would refuse its workbook:
    « listé deux fois »)."""
    event = next((event for event in first if event in second), None)
    return None if event is None else (first[event], second[event])


def answers(first: str, second: str, one_tournament: bool = False, licences: bool = False) -> str:
    """What the secretary types to settle a pair: the same person (the second name becomes a
    spelling of the first) or two people; of `one_tournament`, the same person is a row to delete
    there (a merge then, if both names are left elsewhere); of two `licences`, a licence to correct
    (a licence is a player whatever joueurs.xlsx says: `players merge` refuses them)."""
    both = f"{shell_word(first)} {shell_word(second)}"
    if licences:
        one = "corrigez la licence fausse dans ses classeurs"
    elif one_tournament:
        one = ("l’une des deux lignes est en double, à supprimer du classeur (puis « reportgen players merge » si les "
               "deux noms restent dans d’autres tournois)")
    else:
        one = f"« reportgen players merge {both} »"
    return f"une seule personne : {one} ; deux personnes : « reportgen players distinct {both} »"


PAIRWISE_CLUB_LIMIT = 400  # two-letter typos are looked for within a club up to this many players
CROWDED = 8  # more names than this one letter apart from each other is a naming pattern, not a typo
LISTED = 30  # pairs listed in full; beyond, their count


def _pairs(known: KnownPairs | None, folded: dict[str, str], pids: Collection[str], letters: int,
           crowded: int | None = None) -> set[tuple[str, str]]:
    """`_sharing_a_variant`'s pairs, taken from `known` when it holds this very group."""
    if known is None:
        return _sharing_a_variant(folded, pids, letters, crowded)
    return known.pairs(group_key(folded, pids, letters, crowded), pids,
                       lambda: _sharing_a_variant(folded, pids, letters, crowded))


class Players(NamedTuple):
    """What the notices need of each player of a results table, by player id."""
    names: dict[str, str]  # his name, the last typed; in the order of the players' first results
    seen: dict[str, int]  # the order of his first result (the older name is kept by merge)
    clubs: defaultdict[str, set[str]]  # the clubs he played for (none: an empty set)
    licences: dict[str, str]  # his licence, the last typed (none: not there)


def _players(ordered: pd.DataFrame) -> Players:
    """`Players` of a results table whose rows are in the order typed. The rows in numpy at once:
    a loop over a league's every row cost a tenth of a second at 100x. A missing player id has a
    code of its own (`use_na_sentinel=False`): pd.factorize's default -1 would index the last
    player; a missing club is no club (`_clubs`), a missing licence none (`_named_twice`)."""
    codes, uniques = pd.factorize(ordered["player_id"], use_na_sentinel=False)  # in the order of first rows
    ids = uniques.to_numpy(dtype=object)
    licence = ordered["licence"].to_numpy()
    return Players(names=_last_of_each(ordered["player"].to_numpy(), np.arange(len(ordered)), codes, ids),
                   seen={pid: order for order, pid in enumerate(ids.tolist())},
                   clubs=_clubs(ordered["club"], codes, ids),
                   licences=_last_of_each(licence, np.flatnonzero(licence != ""), codes, ids))


def _last_of_each(values: np.ndarray, rows: np.ndarray, codes: np.ndarray, ids: np.ndarray) -> dict[str, str]:
    """The value (of `values`) of each player's last row among `rows` (positions, ascending), by
    his id, in the order of `ids` (a player without one left out); `codes`: each row's player, his
    place in `ids`."""
    last = np.full(len(ids), -1)
    np.maximum.at(last, codes[rows], rows)
    found = np.flatnonzero(last >= 0)
    return dict(zip(ids[found].tolist(), values[last[found]].tolist()))


def _clubs(club: pd.Series, codes: np.ndarray, ids: np.ndarray) -> defaultdict[str, set[str]]:
    """The clubs (`club`, each row's) each player played for; `codes` and `ids` as `_last_of_each`'s.
    From each pair of a player and a club once, not from every row."""
    club_codes, club_names = pd.factorize(club)  # a missing club -1: no club, as an empty cell
    width = len(club_names)
    clubs: defaultdict[str, set[str]] = defaultdict(set)
    known = club_codes >= 0
    for pair in np.unique(codes[known] * width + club_codes[known]).tolist():
        player, one = divmod(pair, width)
        if club_names[one]:
            clubs[ids[player]].add(club_names[one])
    return clubs


def _spelling(typed: str, spelled: dict[str, str]) -> str:
    """A name as typed, as the licences' notices compare names: its key, two spellings `spelled`
    gives one player one."""
    key = name_key(typed)
    return spelled.get(key, key)


def _licence_spellings(table: pd.DataFrame, spelled: dict[str, str]) -> dict[str, dict[str, tuple[str, str, str, str]]]:
    """Each licence typed with two names (`_spelling`) or more: name -> where it was first typed
    (its text, file, sheet and cell), in the order typed. Only those licences' rows are put in
    order, a few of the 170,000 licensed results at 100x (a stable sort of some rows keeps their
    order in the sort of all); the cells are told only when asked about."""
    spellings: dict[str, dict[str, tuple[str, str, str, str]]] = defaultdict(dict)
    licensed = table[_named_twice(table, spelled)].sort_values(["date", "source_file", "source_cell"], kind="stable")
    for licence, typed, file, sheet, cell in zip(*(licensed[column].tolist() for column in (
            "licence", "typed", "source_file", "source_sheet", "source_cell"))):
        spellings[licence].setdefault(_spelling(typed, spelled), (typed, file, sheet, cell))
    return spellings


def _named_twice(table: pd.DataFrame, spelled: dict[str, str]) -> np.ndarray:
    """Whether each row of `table` has a licence typed with two names (`_spelling`) or more: from
    each pair of a licence and a name once, not from every row."""
    licence = table["licence"].fillna("")  # a missing licence is none, as an empty cell
    licence_codes, licences = pd.factorize(licence)
    typed_codes, typed = pd.factorize(table["typed"].fillna(""))
    spelling_codes, spellings = pd.factorize(np.array([_spelling(name, spelled) for name in typed], dtype=object))
    width = len(spellings)
    names = np.bincount(np.unique(licence_codes * width + spelling_codes[typed_codes]) // width,
                        minlength=len(licences))
    return (names[licence_codes] > 1) & (licence.to_numpy() != "")


def probable_duplicates(table: pd.DataFrame, decided: Iterable[frozenset[str]] = (),
                        listed: pd.DataFrame | None = None, known: KnownPairs | None = None,
                        spelled: dict[str, str] | None = None) -> list[str]:
    """Pairs of players that are probably one person, each named with a cell where it appears;
    `decided`: the pairs (of name keys) the secretary said are two people; `listed`: the people
    the workbooks list without a result (a Tantrix entrant who played no game, `Event.listed`),
    asked about like the players with results (a pool tournament's registrants are its results
    rows already).

    Linear in the players: one-letter typos are found through the names with a letter left out (two
    names one edit apart share one), two-letter typos through those with two left out, only within
    a club. `known`: the pairs of each group of names found by an earlier build (ingest/known_pairs.py)."""
    if listed is not None and not listed.empty:
        # Only those with no result anywhere: a player's results give his name and cells.
        others = listed[~listed["player_id"].isin(table["player_id"])] if not table.empty else listed
        table = pd.concat([table, others], ignore_index=True) if not table.empty else others
    if table.empty:
        return []
    done = set(decided)
    ordered = table.sort_values(["date", "source_file"], kind="stable")
    names, seen, clubs, licences = _players(ordered)
    folded = {pid: name.casefold() for pid, name in names.items()}
    candidates = _pairs(known, folded, folded, 1, CROWDED)
    members: dict[str, list[str]] = defaultdict(list)
    for pid, their in clubs.items():
        for club in their:
            members[club].append(pid)
    for group in members.values():
        if len(group) <= PAIRWISE_CLUB_LIMIT:
            candidates |= _pairs(known, folded, group, MAX_TYPOS)
    asked: dict[tuple[str, str], str] = {}  # a pair of players -> why, in the order asked

    # The same words in another order: two players (a name's order is a fact), perhaps one person.
    by_words: dict[str, list[str]] = defaultdict(list)
    for pid, name in names.items():
        by_words[words_key(name_key(name))].append(pid)
    for group in by_words.values():
        group.sort()
        for i, first in enumerate(group):
            for second in group[i + 1:]:
                keys = frozenset((name_key(names[first]), name_key(names[second])))
                if len(keys) == 2 and keys not in done:  # one name with two licences is not asked here
                    asked[first, second] = "les mêmes mots dans un autre ordre"
    for first, second in sorted({tuple(sorted(pair)) for pair in candidates}):
        if (first, second) in asked:
            continue
        same_club = bool(clubs[first] & clubs[second])
        allowed = MAX_TYPOS if same_club else 1 if not clubs[first] or not clubs[second] else 0
        if not allowed:
            continue
        if _one_apart(folded[first], folded[second]):
            typos = 1
        elif allowed == 2 and distance(folded[first], folded[second]) == 2:
            typos = 2
        else:
            continue
        if frozenset((name_key(names[first]), name_key(names[second]))) in done:
            continue  # the secretary said they are two people
        asked[first, second] = (f"les noms diffèrent de {typos} lettre{'s' if typos > 1 else ''}"
                                + (", même club" if same_club else ""))
    # Each named with the cell of his first result (put back from the archive: where it is), or
    # both with their cells in the tournament they share.
    mine = ordered[ordered["player_id"].isin({pid for pair in asked for pid in pair})]
    cells = players_tournament_cells(mine)
    warnings = []
    for pair, why in asked.items():
        older, newer = sorted(pair, key=seen.__getitem__)
        shared = shared_tournament(cells[older], cells[newer])
        where = shared or (next(iter(cells[older].values())), next(iter(cells[newer].values())))
        two = {licences.get(older, ""), licences.get(newer, "")}
        two = two if "" not in two and len(two) == 2 else set()  # two licences: two players, as merge says
        warnings.append(f"{names[older]} ({where[0]}) et {names[newer]} ({where[1]}) sont peut-être la même personne : "
                        f"{why}{', tous deux dans le même tournoi' if shared else ''}"
                        f"{f', deux licences différentes ({licences[older]}, {licences[newer]})' if two else ''} — "
                        f"{answers(names[older], names[newer], one_tournament=bool(shared), licences=bool(two))}")
    # A licence typed with another name: the licence made them one player; say so. Not of two
    # spellings joueurs.xlsx gives one player (`spelled`: a `players merge` answered it).
    for licence, found in sorted(_licence_spellings(table, spelled or {}).items()):
        given = " et à ".join(f"{typed} ({SourceRef(file, sheet, cell)})" for typed, file, sheet, cell in found.values())
        warnings.append(f"la licence {licence} est donnée à {given} : vérifiez la licence ou le nom")
    if len(warnings) > LISTED:
        warnings = warnings[:LISTED] + [f"… {french.others(len(warnings) - LISTED, 'nom')} à vérifier"]
    return warnings
