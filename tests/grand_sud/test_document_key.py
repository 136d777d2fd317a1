"""A Grand Sud bulletin's source key hashes its grid by what it is made from (`MadeFrom`,
render/cache.py `document_key`), not cell by cell: never a stale bulletin for it. Whenever two
leagues give one bulletin the same key, the key of its whole context (what it was before, and what
its page is rendered from) is the same too; a public copy, whose grid is masked, is keyed by its
whole context."""

import dataclasses
import datetime as dt

from hypothesis import event as seen
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.circuits.grand_sud.documents import bulletin_rows
from reportgen.circuits.grand_sud.scoring import Ranking, Row
from reportgen.model import Document, MadeFrom
from reportgen.render import cache
from reportgen.site.public_copies import Masking
from tests.builders import event, report
from tests.grand_sud.strategies import club_days

CLUBS = ["CARC", "TLSE", "ALBI", "MARS"]  # MARS: outside the Grand Sud's départements (hors circuit)
POOL = ["A Un", "B Deux", "C Trois", "D Quatre", "E Cinq"]


def context_key(document) -> str | None:
    """The key of the whole context, as every bulletin was keyed before `MadeFrom`."""
    return cache.source_key("html", document.template, document.context, document.title, document.date)


@st.composite
def tournaments(draw):
    """(day, club, players in place order, series) over two years, some of one series twice a year."""
    drawn = []
    for day, club in draw(club_days(CLUBS)):
        drawn.append((day, club, draw(st.lists(st.sampled_from(POOL), min_size=1, unique=True)),
                      draw(st.sampled_from([None, "S1"]))))
    return drawn


@st.composite
def changed(draw, base):
    """The same league, or one tournament's results changed, or one more tournament, or one fewer."""
    drawn = list(base)
    what = draw(st.sampled_from(["same", "results", "added", "removed"]))
    if what == "results":
        index = draw(st.integers(0, len(drawn) - 1))
        day, club, _, series = drawn[index]
        drawn[index] = (day, club, draw(st.lists(st.sampled_from(POOL), min_size=1, unique=True)), series)
    elif what == "added":
        more = draw(tournaments())
        drawn += [t for t in more if (t[0], t[1]) not in {(d[0], d[1]) for d in drawn}][:1]
    elif what == "removed" and len(drawn) > 1:
        del drawn[draw(st.integers(0, len(drawn) - 1))]
    return drawn


def bulletins(drawn, masking: Masking) -> dict[str, object]:
    """Each bulletin of the league by its path, and its public copy (names masked) when it has one."""
    documents = report([event(day.isoformat(), club, players, series=series)
                        for day, club, players, series in drawn]).documents
    found = {}
    for document in documents:
        found[document.path] = document
        copy = masking.document(document)
        if copy is not None:
            found[copy.path] = copy
    return found


@st.composite
def two_leagues(draw):
    base = draw(tournaments())
    masked = draw(st.lists(st.sampled_from(POOL), unique=True, max_size=2))
    other_masked = draw(st.sampled_from([masked, masked[:1], []]))
    return (base, Masking({name: "joueur non publié" for name in masked}),
            draw(changed(base)), Masking({name: "joueur non publié" for name in other_masked}))


@settings(deadline=None, max_examples=60)
@given(two_leagues())
def test_the_same_document_key_means_the_same_context(leagues):
    first, first_masking, second, second_masking = leagues
    before, after = bulletins(first, first_masking), bulletins(second, second_masking)
    for path in before.keys() & after.keys():
        one, other = before[path], after[path]
        key = cache.document_key(one)
        assert key is not None
        if key == cache.document_key(other):
            seen("same key")  # the case that matters: the bulletin is taken from disk
            assert context_key(one) == context_key(other), path
            assert one.context == other.context, path
        else:
            seen("another key")


FIELDS = {"rank": st.integers(1, 2), "tied": st.booleans(), "player": st.sampled_from(["A Un", "B Deux"]),
          "club": st.sampled_from(["X", "Y"]), "played": st.integers(0, 2), "total": st.sampled_from([0, 12]),
          "previous_rank": st.sampled_from([None, 1, 2]), "seed": st.booleans()}


@st.composite
def row(draw, window):
    played = draw(st.lists(st.sampled_from(window), unique=True, max_size=len(window)))
    return Row(player_id="p", licence="", best=0, points={tid: draw(st.sampled_from([0, 3, 12])) for tid in played},
               counted=set(draw(st.lists(st.sampled_from(played), unique=True))) if played else set(),
               **{name: draw(values) for name, values in FIELDS.items()})


@st.composite
def two_rankings(draw):
    """A ranking, and the same with one field of one row drawn again (often the same value): two
    rankings that differ in one field only, which a league's bulletins, whose fields follow from one
    another, rarely give. The grid must tell every field the rows print."""
    window = draw(st.sampled_from([["t1"], ["t1", "t2"], ["t2", "t1", "t3"]]))
    rows = draw(st.lists(row(window), min_size=1, max_size=3))
    changed = list(rows)
    index = draw(st.integers(0, len(rows) - 1))
    name = draw(st.sampled_from([*FIELDS, "points", "counted"]))
    if name in FIELDS:
        value = draw(FIELDS[name])
    elif name == "points":
        value = {tid: draw(st.sampled_from([0, 3, 12])) for tid in rows[index].points}
    else:
        value = set(draw(st.lists(st.sampled_from(sorted(rows[index].points) or ["t1"]), unique=True)))
    changed[index] = dataclasses.replace(rows[index], **{name: value})
    return [Ranking(2026, dt.date(2026, 3, 1), False, window, 1, lines) for lines in (rows, changed)]


def grid_document(ranking: Ranking) -> Document:
    rows, grid = bulletin_rows(ranking)
    return Document("p", "grand-sud/bulletin.html.j2", "t", ranking.date, {"rows": rows, "title": "t"},
                    made_from=MadeFrom("rows", rows, grid))


@settings(deadline=None, max_examples=300)
@given(two_rankings())
def test_the_same_grid_means_the_same_rows(pair):
    first, second = (grid_document(ranking) for ranking in pair)
    if cache.document_key(first) == cache.document_key(second):
        seen("same key")
        assert first.context["rows"] == second.context["rows"]
        assert context_key(first) == context_key(second)


def test_a_later_tournament_leaves_the_earlier_bulletins_keys_alone():
    league = [(dt.date(2026, 1, 10), "CARC", ["A Un", "B Deux"], None),
              (dt.date(2026, 2, 7), "TLSE", ["B Deux", "C Trois"], None)]
    later = [*league, (dt.date(2026, 3, 1), "ALBI", ["C Trois", "A Un"], None)]
    before, after = bulletins(league, Masking({})), bulletins(later, Masking({}))
    kept = {path for path in before if cache.document_key(before[path]) == cache.document_key(after[path])}
    assert kept == {"2026/classement-2026-01-10", "2026/classement-2026-02-07"}  # not the final one


def test_a_public_copy_whose_grid_is_masked_is_keyed_by_its_whole_context():
    drawn = [(dt.date(2026, 1, 10), "CARC", ["A Un", "B Deux"], None)]
    document = bulletins(drawn, Masking({}))["2026/classement-2026-01-10"]
    assert document.made_from is not None and document.made_from.describes(document.context)
    copy = Masking({"A Un": "joueur non publié"}).document(document)
    assert copy is not None and copy.made_from is document.made_from  # passed through, not masked
    assert not copy.made_from.describes(copy.context)
    assert cache.document_key(copy) == context_key(copy) != cache.document_key(document)
    # The key by the grid is never the key of a whole context: the two kinds never meet.
    assert cache.document_key(document) != context_key(document)
    assert cache.document_key(dataclasses.replace(document, made_from=None)) == context_key(document)
