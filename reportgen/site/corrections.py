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


def reasons(change: dict[str, Any], circuit: Circuit | None) -> list[dict[str, Any]]:
    """A correction's reasons for a club member, each once (two workbooks of one day: one line), each
    its `text`; the document in force in a withdrawn one's place (« en vigueur à sa place : … ») also
    as its `lead`, its `title` and its `url`, linked while it is published."""
    found: dict[str, dict[str, Any]] = {}
    for reason in change["reasons"]:
        workbook = changes.workbook_change(reason)
        if workbook is None:
            text = OTHERS.get(reason, reason)
        else:  # « de ce jour »: the document's own date
            day = workbook.day or dt.date.fromisoformat(change["date"])
            text = WORKBOOK[workbook.kind].format(of=of_tournament(circuit, day))
        found.setdefault(text, {"text": text, **_in_its_place(reason, change, circuit)})
    return list(found.values())


def _in_its_place(reason: str, change: dict[str, Any], circuit: Circuit | None) -> dict[str, Any]:
    """The link of the reason naming the document in force in a withdrawn one's place, when it is
    published (`in_its_place`, its path: a history written before it links none)."""
    url = circuit.bulletin(change["in_its_place"]) if circuit and change.get("in_its_place") else None
    if url is None or not reason.startswith(changes.IN_ITS_PLACE):
        return {}
    return {"lead": changes.IN_ITS_PLACE, "title": reason.removeprefix(changes.IN_ITS_PLACE), "url": url}


def line(change: dict[str, Any], circuit: Circuit | None) -> dict[str, Any]:
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
            "reasons": reasons(change, circuit)}


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
