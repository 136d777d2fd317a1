"""The corrections as a club member reads them (site/corrections.html, the home page's latest ones):
what changed in the results, never which of the secretary's files. render/changes.py words each
reason for her (her build's messages, her verification page: « classeur modifié :
2026/2026-10-10-tarbes.xlsx (tournoi du 10 octobre 2026) »), and the site's history of corrections
keeps those words: they are read back here, those of earlier builds too."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from reportgen import french
from reportgen.render import changes
from reportgen.site.days import long_day, record_day, record_start, sort_key
from reportgen.site.sources import Circuit, shown_title

# « résultats du Tournoi de Tarbes du 10 octobre 2026 corrigés », by what happened to its workbook
WORKBOOK = {"added": "résultats {of} ajoutés au classement", "removed": "résultats {of} retirés du classement",
            "same day": "résultats {of} corrigés", "changed": "résultats {of} corrigés"}
# the other reasons, each as a reader understands it (one not listed is shown as it is)
OTHERS = {changes.SHARED_FILES["clubs.xlsx"]: "liste des clubs mise à jour",
          changes.SHARED_FILES["joueurs.xlsx"]: "liste des joueurs mise à jour",
          changes.SHARED_FILES["reportgen.toml"]: "réglages de la ligue modifiés",
          changes.SHARED_FILES["saisons.toml"]: "saisons closes mises à jour",
          # what it changes in a bulletin: the results it says are awaited (« provisoire : … attendus »),
          # never a result; a correction all the same, not a new layout of the same content
          changes.SHARED_FILES["calendrier.xlsx"]: "liste des résultats attendus mise à jour",
          # the first build after an upgrade, which cannot tell (render/changes.py `_upgraded`)
          changes.maybe_changed("calendrier.xlsx"): "liste des résultats attendus peut-être mise à jour",
          changes.NEW_FORMAT: "nouvelle version du logiciel des classements, qui les écrit dans un nouveau format",
          changes.NEW_VERSION: "nouvelle version du logiciel des classements",
          changes.NEW_RESULTS: "nouvelle version du logiciel des classements : des résultats ont changé",
          changes.UNKNOWN: "cause inconnue"}


def of_tournament(circuit: Circuit | None, day: dt.date) -> str:
    """« du Tournoi de Tarbes du 10 octobre 2026 », « de la Coupe Tantrix d'automne du 10 octobre
    2026 »: the circuit's tournament whose workbook is of that day (its first day of play), its date
    said once; named alone when its pages give its days (« de l’Open d'automne en ligne », played
    from 5 September to 6 October: site/days.py `record_day`), not that day; « du tournoi du 10
    octobre 2026 » when the circuit has none that day, or several."""
    when = french.date_long(day)
    found = {shown_title(r): r for r in circuit.rankings
             if r["kind"] == "event" and record_start(r) == day.isoformat()} if circuit else {}
    if len(found) != 1:
        return f"du tournoi du {when}"
    name, record = found.popitem()
    # « Tournoi de Tarbes », a tournament named after its town (the workbook naming none), is « le
    # tournoi de Tarbes » in a sentence, as the bulletins' titles say it
    of = french.de(name)
    of = f"du t{of[4:]}" if re.match(r"du Tournoi (de |d'|du |des )", of) else of
    return of if when in name or record_day(record) != when else f"{of} du {when}"


def reasons(change: dict[str, Any], circuit: Circuit | None, withdrawals: Withdrawals,
            position: int) -> list[dict[str, Any]]:
    """A correction's reasons for a club member, each once (two workbooks of one day: one line), each
    its `parts`, the words and links a row shows (`text` and `url`, None unlinked): the
    document in force in a withdrawn one's place (« en vigueur à sa place : … ») linked while it is
    published, or said withdrawn since with what is in force now (`Withdrawals.parts`). `position`:
    the row's in the history, the latest first."""
    found: dict[str, list[dict[str, Any]]] = {}
    for reason in change["reasons"]:
        workbook = changes.workbook_change(reason)
        if workbook is None:
            text = OTHERS.get(reason, reason)
        else:  # « de ce jour »: the document's own date
            day = workbook.day or dt.date.fromisoformat(change["date"])
            text = WORKBOOK[workbook.kind].format(of=of_tournament(circuit, day))
        parts = None
        if reason.startswith(changes.IN_ITS_PLACE) and circuit is not None:
            parts = withdrawals.parts(change, position, circuit)
        found.setdefault(text, parts or [{"text": text, "url": None}])  # each reason once, by its text
    return [{"parts": parts} for parts in found.values()]


SINCE = ", retiré depuis"
NOW = " ; en vigueur aujourd’hui : "


class Withdrawals:
    """The documents the history says were withdrawn, to follow « en vigueur à sa place : X » from a
    row to what is in force now when X was withdrawn too (Nîmes's 20 January bulletin withdrawn for
    its 21 January one, itself withdrawn since: the row said the 21 January one, unlinked, as if in
    force). `history`: the corrections, the latest first (site/publish.py `corrections`)."""

    def __init__(self, history: list[dict[str, Any]]):
        # (circuit, path) -> the position and row of its latest withdrawal
        self._latest: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        # (circuit, title) -> the paths of the documents withdrawn under that title
        self._titled: dict[tuple[str, str], set[str]] = {}
        for position, row in enumerate(history):
            if row.get("kind") == changes.WITHDRAWN:
                self._latest.setdefault((row["circuit"], row["path"]), (position, row))
                self._titled.setdefault((row["circuit"], row["title"]), set()).add(row["path"])

    def parts(self, change: dict[str, Any], position: int, circuit: Circuit) -> list[dict[str, Any]] | None:
        """« en vigueur à sa place : X », X linked while it is published; X withdrawn after this row,
        « X, retiré depuis », followed through what was in force in its place in turn to what is in
        force now, « ; en vigueur aujourd’hui : Y » (linked), when one is. None: the row names none."""
        title = _in_its_place_title(change)
        if title is None:
            return None
        path = self._path(change, title, circuit)
        url = circuit.bulletin(path) if path else None
        parts = [{"text": changes.IN_ITS_PLACE, "url": None}, {"text": title, "url": url}]
        now = self._now(path, position, circuit) if path and url is None else None
        if now is not None:
            parts.append({"text": SINCE, "url": None})
        if now:
            parts += [{"text": NOW, "url": None}, {"text": _published_title(circuit, now), "url": circuit.bulletin(now)}]
        return parts

    def _now(self, path: str, position: int, circuit: Circuit) -> str | None:
        """What is in force now in the place of a document that is not published: None when it was not
        withdrawn after the row at `position` (its season archived, say); else the path of the document
        published now that the withdrawals lead to (each one's « en vigueur à sa place »), "" when they
        lead to none."""
        seen = set()
        while path not in seen:
            seen.add(path)
            withdrawn = self._latest.get((circuit.slug, path))
            if withdrawn is None or withdrawn[0] >= position:
                return None if len(seen) == 1 else ""
            position, row = withdrawn
            title = _in_its_place_title(row)
            path = self._path(row, title, circuit) if title else ""
            if not path or circuit.bulletin(path):
                return path
        return ""

    def _path(self, change: dict[str, Any], title: str, circuit: Circuit) -> str:
        """The path of the document in force in a withdrawn one's place: as the row keeps it, else (a
        row written before the history kept it) the one document of the circuit, published or
        withdrawn, under the title its reason names; "" when none or several are."""
        if change.get("in_its_place"):
            return str(change["in_its_place"])
        found = {document["path"] for document in circuit.documents if document["title"] == title}
        found |= self._titled.get((circuit.slug, title), set())
        return found.pop() if len(found) == 1 else ""


def _in_its_place_title(change: dict[str, Any]) -> str | None:
    """The title a row's « en vigueur à sa place : … » names, or None."""
    return next((reason.removeprefix(changes.IN_ITS_PLACE) for reason in change["reasons"]
                 if reason.startswith(changes.IN_ITS_PLACE)), None)


def _published_title(circuit: Circuit, path: str) -> str:
    return next(document["title"] for document in circuit.documents if document["path"] == path)


def line(change: dict[str, Any], circuit: Circuit | None, withdrawals: Withdrawals,
         position: int) -> dict[str, Any]:
    """A correction as its row shows it: its document linked (an annex to its Excel file, named so),
    its date after the title only when the title does not say it, its reasons a reader's. A document
    withdrawn is linked by none of its rows: what is published under its path later is another
    document (the one published again after it), not the one withdrawn; what is in force in its
    place is linked in its reasons."""
    date = long_day(change["date"])
    annex = circuit is not None and any(a["path"] == change["path"] for a in circuit.annexes)
    url = None if circuit is None or change.get("kind") == changes.WITHDRAWN else \
        circuit.link(f"{change['path']}.xlsx") if annex else circuit.bulletin(change["path"])
    return {**change, "sort": sort_key(change["day"]), "day": long_day(change["day"]), "date": date,
            "dated": date not in change["title"], "annex": annex,
            "circuit_title": circuit.title if circuit else change["circuit"], "url": url,
            "reasons": reasons(change, circuit, withdrawals, position)}


def kept_within_days(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines, listed the latest first (within a day, the latest build's first: site/publish.py
    `order`), each day's sorted by its place among that day's: « 20261129.000002 » (site.js sorts by
    `data-sort` as a number). A click on « Corrigé le » sorted by the day alone and left a day's rows
    as they came, the earlier build's above the later's either way."""
    seen: dict[str, int] = {}
    for found in reversed(lines):  # the day's earliest first: 1
        day = found["sort"]
        seen[day] = seen.get(day, 0) + 1
        found["sort"] = f"{day}.{seen[day]:06d}"
    return lines
