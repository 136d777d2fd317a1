"""What the secretary already sent never changes silently.

Each circuit's manifest records the sources of its publication: every workbook of the circuit (its
hash and the date of its tournament) and the league's shared files (club and player directories,
settings, calendar, closed seasons). When a build rewrites a document that was already published for
the same date (a bulletin, an annex), comparing the previous manifest with the new one says which
document changed and why, in words the secretary can repeat to a club:

- a workbook of that very date was corrected: the one exception the league expects, named as such;
- a workbook of an earlier date was added, changed or removed (a late tournament, a correction);
- a shared file changed (a player's club in joueurs.xlsx, a setting in reportgen.toml, a tournament
  announced in calendrier.xlsx, which a later ranking says it awaits);
- none of these: a new version of reportgen or of its templates. Then what the document reports
  tells a new layout from new results: the ranking beside it (its CSV, whose bytes say its rows and
  values whatever the layout), or, for a document without one (a pool tournament's round, an
  annex), every ranking of its circuit. All the same: the same content in a new layout
  (`Republished.same_content`), which the site lists apart, in one line, not as a correction.

A document whose date moved (the running ranking of the season, now as of a later tournament) is a
new edition, not a change to what was sent; a new document is not a change either. Except once its
season's ranking is final (`sources`' `final`): the final bulletin and the season's annex are dated
by the season's last tournament, and a late tournament that moves that date changes the final
ranking already sent (`_final_changed`).

A document already published that a build no longer publishes is withdrawn, and said so: the
final bulletin of a season opened again (`reportgen season open`), with the ranking in force in
its place, or a document a source takes back (its workbook removed or dated another day, a club's
department in clubs.xlsx) (`_withdrawal`), with the document in force in its place whenever one is
(`_in_its_place`: a workbook dated another day, its bulletin of that day). Not a season that leaves
the publication whole (its workbooks out of inputs/ once archived), nor a file renamed by a new
version: no document of the league was taken back. The manifest keeps what it withdrew (`withdrawn`, with
the sources it was made from) until it is published again, however many builds later: then it is
compared with what was withdrawn (`_returned`), the same (« inchangé », in force again) or a
correction with its reasons, never a new document a club that had the first would not hear of.

A manifest an earlier version of reportgen wrote is compared for what both know, once, by the first
build after the upgrade (`_upgraded`): its final seasons are its closed ones where the circuit's
closing makes the ranking final; a shared file it kept no hash of (the calendar, before format 2)
may have changed, which is said so (`maybe_changed`), never that it did not; and a ranking's CSV
written in another format (render/manifest.py `FORMAT`) in other bytes is no proof that results
changed: the new version's format is the reason given (`NEW_FORMAT`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from reportgen import french
from reportgen.ingest import values
from reportgen.model import Event
from reportgen.render.cache import file_digest

# The league's shared files, and what the secretary is told when one of them changes.
SHARED_FILES = {"clubs.xlsx": "l’annuaire des clubs (clubs.xlsx) a changé",
                "joueurs.xlsx": "l’annuaire des joueurs (joueurs.xlsx) a changé",
                "reportgen.toml": "les réglages (reportgen.toml) ont changé",
                # the tournaments it announces: a ranking after one whose workbook is missing says so
                "calendrier.xlsx": "le calendrier (calendrier.xlsx) a changé",
                "saisons.toml": "les saisons closes (saisons.toml) ont changé"}


def _sha256(path: Path) -> str | None:
    try:
        return file_digest(path)
    except OSError:
        return None


def sources(inputs: Path, workbooks: Iterable[tuple[str, dt.date]], digests: Mapping[str, str] | None = None,
            closed: Iterable[int] = (), final: Iterable[int] = ()) -> dict:
    """What a circuit's publication is made from, for its manifest: its workbooks (path relative
    to inputs/ → hash and tournament date) and the league's shared files (name → hash, or None).
    `digests`: the SHA-256 of inputs/' files the build already took (render/cache.py), by path;
    `closed`: the seasons of its documents that are over (their ranking is final); `final`: those of
    them whose season ranking the circuit publishes as final (`CircuitInfo.final_when_closed`), its
    final bulletin and annex dated by their last tournament (not a Tantrix rating list's season)."""
    known = digests or {}

    def digest(name: str) -> str | None:
        return known.get(name) or _sha256(inputs / name)

    return {
        "workbooks": {label: {"sha256": digest(label), "date": day.isoformat()} for label, day in sorted(workbooks)},
        "shared": {name: digest(name) for name in SHARED_FILES},
        "closed": sorted(set(closed)),
        "final": sorted(set(final)),
    }


CHANGED, WITHDRAWN, RESTORED = "changed", "withdrawn", "restored"


@dataclass(frozen=True)
class Republished:
    """A document already published for a date, which this build changes."""

    circuit: str
    path: str  # relative to the circuit's folder, without extension
    title: str
    date: dt.date
    reasons: tuple[str, ...]
    # only its layout changed: no source, and none of the rankings it reports (`republished`)
    same_content: bool = False
    # CHANGED: published again in other bytes; WITHDRAWN: no longer published (its `date`, the one it
    # was sent with); RESTORED: withdrawn before, published again as it was
    kind: str = CHANGED
    # WITHDRAWN: the document published in its place (its path), which its reasons name (`IN_ITS_PLACE`)
    in_its_place: str = ""

    def __str__(self) -> str:
        same = " (même contenu)" if self.same_content else ""
        # « Classement après le tournoi de Nîmes du 20 janvier 2026 » says its date already
        day = french.date_long(self.date)
        titled = self.title if day in self.title else f"{self.title}, {day}"
        return f"{self.circuit}/{self.path} ({titled}) : {' ; '.join(self.reasons)}{same}"


NEW_VERSION = "nouvelle version de reportgen ou de ses modèles de bulletin"
NEW_RESULTS = "nouvelle version de reportgen : des résultats ont changé"
# its ranking's CSV in other bytes, the previous publication's in the format of an earlier version
NEW_FORMAT = ("nouvelle version de reportgen, qui écrit les classements dans un nouveau format (la publication "
              "précédente ne permet pas de dire si des résultats ont changé)")
UNKNOWN = "cause inconnue : la publication précédente ne dit pas de quels classeurs elle venait"
# A workbook of the circuit added, removed, corrected on the document's own date, or changed (an
# earlier tournament's), in the secretary's words; the site reads them back (`workbook_change`) to
# say it to a club member in his (site/corrections.py): the history of corrections keeps these.
WORKBOOK_WORDS = {"added": "classeur ajouté : {label} (tournoi du {when})",
                  "removed": "classeur retiré : {label} (tournoi du {when})",
                  "same day": "correction du classeur de ce jour : {label}",
                  "changed": "classeur modifié : {label} (tournoi du {when})"}
_WORKBOOK_READ = {kind: re.compile(re.escape(words).replace(re.escape("{label}"), "(?P<label>.+?)")
                                   .replace(re.escape("{when}"), "(?P<when>.+)") + "$")
                  for kind, words in WORKBOOK_WORDS.items()}


@dataclass(frozen=True)
class WorkbookChange:
    """What a reason says of a workbook (`WORKBOOK_WORDS`): its kind, its path under inputs/, its
    tournament's day (None: the document's own, « de ce jour »)."""

    kind: str
    label: str
    day: dt.date | None


def workbook_change(reason: str) -> WorkbookChange | None:
    """The workbook a reason of `_reasons` names, read back from its words; None for another reason."""
    for kind, pattern in _WORKBOOK_READ.items():
        found = pattern.match(reason)
        if found is None:
            continue
        try:  # « 14 mars 2026 », as `_reasons` wrote it (a history on disk may say anything)
            day = values.date(found["when"]) if found.groupdict().get("when") else None
        except values.BadValue:
            day = None
        return WorkbookChange(kind, found["label"], day)
    return None


def _published(manifest: dict) -> dict[str, dict]:
    """Each document and annex of a manifest: path → its title, date, content hash, season, and
    whether it is its season's whole ranking (no tournament's own: a final bulletin, an annex)."""
    found = {}
    pdfs = manifest.get("pdfs") or {}
    for document in manifest.get("documents") or []:
        record = pdfs.get(f"{document['path']}.pdf") or {}
        # The page's hash: a long ranking's PDF is rendered from its top rows only (render/pdf.py `record`).
        found[document["path"]] = {"title": document["title"], "date": document["date"],
                                   "hash": record.get("page", record.get("html")),
                                   "season": document.get("season"), "whole": not document.get("events"),
                                   "csv": bool(document.get("csv")), "events": list(document.get("events") or ())}
    for annex in manifest.get("annexes") or []:
        if annex.get("date"):
            found[annex["path"]] = {"title": annex["title"], "date": annex["date"], "hash": annex.get("sha256"),
                                    "season": annex.get("season"), "whole": True, "csv": False, "events": []}
    return found


def _reasons(before: dict, after: dict, day: str, season: int | None) -> tuple[str, ...]:
    if not before:
        return (UNKNOWN,)
    old, new = before.get("workbooks") or {}, after.get("workbooks") or {}
    reasons = []
    for label in sorted(set(old) | set(new)):
        was, now = old.get(label), new.get(label)
        dated = (now or was or {})["date"]  # one of them holds the label: its tournament's day now
        # a workbook whose date moved changes what was published of either day (its bulletin leaves one)
        earliest = min(found["date"] for found in (was, now) if found)
        if earliest > day or (was and now and was["sha256"] == now["sha256"] and was["date"] == now["date"]):
            continue
        kind = "added" if was is None else "removed" if now is None else "same day" if dated == day else "changed"
        reasons.append(WORKBOOK_WORDS[kind].format(label=label, when=french.date_long(dt.date.fromisoformat(dated))))
    old_shared, new_shared = before.get("shared") or {}, after.get("shared") or {}
    reasons += [SHARED_FILES[name] for name in SHARED_FILES
                if name in old_shared and old_shared.get(name) != new_shared.get(name)]
    # a file the previous publication kept no hash of (an earlier version's): it may have changed
    maybe = [maybe_changed(name) for name in SHARED_FILES
             if old_shared and name not in old_shared and new_shared.get(name) is not None]
    # the closing, or its withdrawal (`reportgen season open`); its ranking's state said only of a
    # circuit whose closing makes it final (`final`): the Masters' own standings stay what was played.
    # « terminée », never « close »: a manifest's closed seasons are those over, with their year too,
    # and « close » is a season saisons.toml records (`season close`), which it may never have held.
    if season in set(after.get("closed") or ()) - set(before.get("closed") or ()):
        reasons.append(f"la saison {season} est terminée" + (" : son classement est désormais final"
                                                              if season in set(after.get("final") or ()) else ""))
    if season in set(before.get("closed") or ()) - set(after.get("closed") or ()):
        reasons.append(f"la saison {season} est rouverte" + (" : son classement n’est plus final"
                                                              if season in set(before.get("final") or ()) else ""))
    return (*(reasons or [NEW_VERSION]), *maybe)


def maybe_changed(name: str) -> str:
    """« le calendrier (calendrier.xlsx) a peut-être changé (…) »: a shared file an earlier version of
    reportgen kept no hash of, present now."""
    said = SHARED_FILES[name].replace(" a changé", " a peut-être changé").replace(" ont changé", " ont peut-être changé")
    return f"{said} : la publication précédente, d’une version antérieure de reportgen, n’en gardait pas l’empreinte"


def compare(circuit: str, before: dict | None, after: dict,
            final_when_closed: bool) -> tuple[list[Republished], list[dict]]:
    """What a build tells of a circuit's documents already published (`republished`) and what its
    manifest keeps of those withdrawn (`withdrawn`), from one reading of both manifests.
    `final_when_closed`: the circuit's closing makes its season's ranking final (`CircuitInfo`), what
    a manifest of an earlier version did not say (`_upgraded`)."""
    if not before:
        return [], []
    before = _upgraded(before, final_when_closed)
    old, new = _published(before), _published(after)
    gone = _withdrawals(circuit, before, after, old, new)
    return _republished(circuit, before, after, old, new, gone), _withdrawn(before, new, gone)


def _upgraded(before: dict, final_when_closed: bool) -> dict:
    """A manifest an earlier version wrote, with the final seasons it did not say (`final`): its
    closed ones, when the circuit's closing makes its ranking final, as it then did too."""
    sources = before.get("sources")
    if not isinstance(sources, dict) or "final" in sources:
        return before
    final = list(sources.get("closed") or ()) if final_when_closed else []
    return {**before, "sources": {**sources, "final": final}}


def _format(manifest: dict) -> int:
    """The format of the files a manifest hashes (render/manifest.py `FORMAT`; none said: the first)."""
    return manifest.get("format") or 1


def _republished(circuit: str, before: dict, after: dict, old: dict[str, dict], new: dict[str, dict],
                 gone: list[tuple[dict, Republished]]) -> list[Republished]:
    rankings_before, rankings_after = _rankings(before), _rankings(after)
    # every ranking of the circuit as it was (each CSV both publish, its bytes), none missing
    all_same = bool(rankings_before) and all(rankings_after.get(path) == digest
                                             for path, digest in rankings_before.items())
    final = _final(before) & _final(after)
    changed = [said for _, said in gone]
    withdrawn = {record["path"]: record for record in before.get("withdrawn") or () if isinstance(record, dict)}
    changed += [back for path, now in new.items() if path not in old and path in withdrawn
                if (back := _returned(circuit, path, withdrawn[path], now, after)) is not None]
    for path, was in old.items():
        now = new.get(path)
        if now is None or now["hash"] == was["hash"] or was["hash"] is None:
            continue
        # the season's whole ranking (no tournament's own: its final bulletin, its annex), once final
        is_final = now["whole"] and now["season"] in final
        if now["date"] != was["date"] and not is_final:
            continue  # a new edition: the season's running ranking, now as of a later tournament
        reasons = _reasons(before.get("sources") or {}, after.get("sources") or {}, now["date"], now["season"])
        if is_final:
            reasons = _final_changed(now["season"], was["date"], now["date"], reasons)
        same = False
        if reasons[0] == NEW_VERSION:  # no source known to change: did what it reports? (unknown: said as before)
            own = f"{path}.csv"
            known = (own in rankings_before and own in rankings_after) or bool(rankings_before)
            if own in rankings_before and own in rankings_after:
                same = rankings_before[own] == rankings_after[own]
            else:
                same = all_same
            if known and not same:  # other bytes: other results, unless the format changed
                reasons = (NEW_RESULTS if _format(before) == _format(after) else NEW_FORMAT, *reasons[1:])
            # a file that may have changed (`maybe_changed`) may have changed what it says beside them
            same = same and len(reasons) == 1
        changed.append(Republished(circuit, path, now["title"], dt.date.fromisoformat(now["date"]), reasons, same))
    return changed


WITHDRAWN_LEAD = "document retiré"


def _withdrawals(circuit: str, before: dict, after: dict, old: dict[str, dict],
                 new: dict[str, dict]) -> list[tuple[dict, Republished]]:
    """The documents of `before` that `after` no longer publishes and that were withdrawn, each with
    what the manifest keeps of it (`withdrawn`) and what the secretary is told."""
    found = []
    for path, was in old.items():
        if path in new or was["hash"] is None:
            continue
        gone = _withdrawal(circuit, path, was, before, after, new)
        if gone is not None:
            found.append(({"path": path, **was, "sources": before.get("sources") or {}}, gone))
    return found


def _withdrawal(circuit: str, path: str, was: dict, before: dict, after: dict,
                new: dict[str, dict]) -> Republished | None:
    """A document no longer published, withdrawn (its reasons, its date the one it was sent with), or
    None when nothing of the league was taken back: its whole season left the publication (its
    workbooks out of inputs/ once archived), or no source explains it (a file a new version of
    reportgen names otherwise, a publication that recorded no sources)."""
    season = was["season"]
    if not any(document["season"] == season for document in new.values()):
        return None
    old_sources, new_sources = before.get("sources") or {}, after.get("sources") or {}
    date = dt.date.fromisoformat(was["date"])
    reopened = was["whole"] and season in _final(before) and season not in set(new_sources.get("closed") or ())
    in_its_place = _in_its_place(was, new, reopened)
    said = (f"{IN_ITS_PLACE}{new[in_its_place]['title']}",) if in_its_place else ()
    if reopened:  # `reportgen season open`: the final bulletin leaves
        reasons = (f"la saison {season} est rouverte : son classement final est retiré", *said)
        return Republished(circuit, path, was["title"], date, reasons, kind=WITHDRAWN, in_its_place=in_its_place)
    reasons = _reasons(old_sources, new_sources, was["date"], season)
    if reasons[0] in (NEW_VERSION, UNKNOWN):
        return None
    return Republished(circuit, path, was["title"], date, (WITHDRAWN_LEAD, *reasons, *said), kind=WITHDRAWN,
                       in_its_place=in_its_place)


IN_ITS_PLACE = "en vigueur à sa place : "  # and the title of the document in force (site/corrections.py links it)


def _in_its_place(was: dict, new: dict[str, dict], reopened: bool) -> str:
    """The path of the document now published in the place of one withdrawn, or "" when none is: the
    latest dated ranking of a season opened again in place of its final one; otherwise the latest
    document of its season on one of the tournaments it reported on, as it was a ranking or not (a
    workbook dated another day: the bulletin of its new day). A tournament taken back has none."""
    if reopened:
        found = [path for path, document in new.items()
                 if document["season"] == was["season"] and document["csv"] and not document["whole"]]
    else:
        found = [path for path, document in new.items()
                 if document["season"] == was["season"] and document["csv"] == was["csv"]
                 and set(document["events"]) & set(was.get("events") or ())]
    return max(found, key=lambda path: (new[path]["date"], path), default="")


def _returned(circuit: str, path: str, record: dict, now: dict, after: dict) -> Republished | None:
    """A document withdrawn by an earlier build (`record`, as `withdrawn` keeps it) published again:
    as it was (in force again: a club told of its withdrawal must hear it), or changed since, a
    correction whose reasons compare the sources it was made from with today's. A closed season's
    final ranking opened and closed again is said so; its date may have moved (a late tournament)."""
    if record.get("hash") is None or now["hash"] is None:
        return None  # nothing to compare with: a new document, as any
    season, date = now["season"], dt.date.fromisoformat(now["date"])
    final = now["whole"] and season in _final(after) and season in _final({"sources": record.get("sources")})
    if record["hash"] == now["hash"]:
        said = (f"la saison {season} est close de nouveau : son classement final retiré à sa réouverture est "
                "de nouveau en vigueur, inchangé") if final else "retiré auparavant, de nouveau publié, inchangé"
        return Republished(circuit, path, now["title"], date, (said,), kind=RESTORED)
    dated = "" if record["date"] == now["date"] else \
        f" (daté du {french.date_long(dt.date.fromisoformat(record['date']))})"
    said = (f"la saison {season} est close de nouveau : son classement final retiré à sa réouverture{dated} change"
            if final else f"retiré auparavant{dated}, de nouveau publié avec un autre contenu")
    reasons = _reasons(record.get("sources") or {}, after.get("sources") or {}, now["date"], season)
    return Republished(circuit, path, now["title"], date, (said, *reasons))


def _withdrawn(before: dict, new: dict[str, dict], gone: list[tuple[dict, Republished]]) -> list[dict]:
    """What the new manifest keeps of the documents withdrawn (`withdrawn`): those `before` kept that
    are still unpublished while their season is, and those this build withdraws (`gone`), each with
    the sources it was made from, so that it is known when it comes back (`_returned`)."""
    seasons = {document["season"] for document in new.values()}
    kept = {record["path"]: record for record in before.get("withdrawn") or ()
            if isinstance(record, dict) and record.get("path") not in new and record.get("season") in seasons}
    kept |= {record["path"]: record for record, _ in gone}
    return [kept[path] for path in sorted(kept)]


def _final(manifest: dict) -> set[int]:
    """The seasons whose ranking a manifest published as final (an earlier version's: `_upgraded`)."""
    return set((manifest.get("sources") or {}).get("final") or ())


def _final_changed(season: int, was: str, now: str, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The reasons a final ranking already published changes, led by the closing when a workbook of
    the season changes it: a club's late workbook of a tournament played on or before the closing day.
    It counts: the Grand Sud regulation's §1, « Le classement final ne prend en compte que les
    points obtenus dans les tournois de l’année N », takes every tournament of the year, and so does
    the Tour de France's « meilleur total à la fin de l’année ». Refusing it until the season were
    opened again would keep a final ranking the regulation calls incomplete, and a season over
    with its year cannot be opened again (`reportgen season open`): the build takes it and says
    here, to the secretary (the build's lines, verification.html) and on the site's corrections
    page, that the closed season's final ranking changed, because of which workbook, of which day.
    One dated after the closing day is another matter: it contradicts the closing, and the build
    refuses it (problems.py `SEASON_CLOSED`, pipeline/loading.py `closed_before`)."""
    if not any(workbook_change(reason) for reason in reasons):
        return reasons  # a new layout, a directory, the closing itself: said as for any document
    dated = "" if was == now else f" (daté du {french.date_long(dt.date.fromisoformat(was))})"
    # « terminée » (`compare`): over with its year, or closed
    return (f"la saison {season} est terminée : son classement final déjà publié{dated} change", *reasons)


# What to do about a workbook that changes a final ranking already published, before what is done
# otherwise (the secretary runs the build and sends it again, `check`; a club sends its workbook
# again, `inbox`): the one wording of both.
FINAL_FIX = "si sa date est fausse, corrigez-la"


def final_changes(outputs: Path, inputs: Path, events: Mapping[str, Iterable[Event]],
                  final_when_closed: Collection[str],
                  digest: Callable[[str], str | None] | None = None) -> dict[str, str]:
    """Before a build, what `check` and `inbox` tell of a workbook that changes a final ranking
    already published (what the build says only once it published it, `_final_changed`), by its
    label: « ce tournoi du 21 novembre 2025 change le classement final de la saison 2025, déjà
    publié » (the tournament first: a held workbook's note reads « S’il est enregistré, ce tournoi… »). A tournament of a season each circuit's manifest (in `outputs`) published as final,
    whose workbook's bytes it did not count (new, or changed since). `events`: each circuit's, their
    workbooks in `inputs`. A workbook dated 21/11/2025 instead of 2026 gave « aucun problème ».
    `final_when_closed`: the circuits whose closing makes their season's ranking final, so that a
    manifest an earlier version wrote, which does not say its final seasons, is read as `compare`
    reads it (`_upgraded`: its closed seasons); it said nothing until a build had written one that
    does. `digest`: a workbook's SHA-256 by its label, for a caller that already hashed it (`check`:
    a season put back from the archive, hashed there); read from `inputs` otherwise."""
    from reportgen.render.index import MANIFEST, read_manifest

    hashed = digest or (lambda label: _sha256(inputs / label))
    found = {}
    for circuit, its in events.items():
        manifest = _upgraded(read_manifest(outputs / circuit / MANIFEST) or {}, circuit in final_when_closed)
        final = _final(manifest)
        recorded = (manifest.get("sources") or {}).get("workbooks") or {}
        for event in its:
            if event.date.year in final and (recorded.get(event.id) or {}).get("sha256") != hashed(event.id):
                found[event.id] = (f"ce tournoi du {french.date_long(event.date)} change le classement final "
                                   f"de la saison {event.date.year}, déjà publié")
    return found


def listed(changes: Iterable[Republished], kind: str) -> list[Republished]:
    """The documents of one kind (`CHANGED`, `WITHDRAWN`, `RESTORED`) the secretary is told of, each
    under its own heading: a new layout of the same content is said apart (`relaid`)."""
    return [change for change in changes if change.kind == kind and not change.same_content]


# The heading of each kind, singular and plural, with what the secretary does with them (terminal)
HEADINGS = {
    CHANGED: ("document déjà publié modifié par ce calcul (renvoyez-le s’il a été envoyé)",
              "documents déjà publiés modifiés par ce calcul (renvoyez-les s’ils ont été envoyés)"),
    WITHDRAWN: ("document déjà publié retiré par ce calcul (s’il a été envoyé, dites aux clubs qu’il est retiré et "
                "ce qui est en vigueur à sa place)",
                "documents déjà publiés retirés par ce calcul (s’ils ont été envoyés, dites aux clubs qu’ils sont "
                "retirés et ce qui est en vigueur à leur place)"),
    RESTORED: ("document retiré auparavant, publié de nouveau par ce calcul tel qu’il était (s’il a été envoyé, "
               "dites aux clubs qu’il est de nouveau en vigueur)",
               "documents retirés auparavant, publiés de nouveau par ce calcul tels qu’ils étaient (s’ils ont été "
               "envoyés, dites aux clubs qu’ils sont de nouveau en vigueur)")}


def heading(kind: str, count: int) -> str:
    """« 2 documents déjà publiés modifiés par ce calcul (renvoyez-les s’ils ont été envoyés) : »."""
    return f"{french.plural(count, *HEADINGS[kind])} :"


def relaid(changes: Iterable[Republished]) -> str:
    """The documents a new version of reportgen laid out anew, their content the same, in one French
    sentence for the secretary: nothing to send again (the corrections, listed one by one, are)."""
    same = [change for change in changes if change.same_content]
    if not same:
        return ""
    circuits = sorted({change.circuit for change in same})
    return (f"{french.plural(len(same), 'document déjà publié remis', 'documents déjà publiés remis')} en page par une "
            f"nouvelle version de reportgen, avec les mêmes résultats ({', '.join(circuits)}) : inutile "
            f"de {'le' if len(same) == 1 else 'les'} renvoyer")


def _rankings(manifest: dict) -> dict[str, str]:
    """The SHA-256 of each ranking's CSV a manifest records (`made_from`), by its path: the ranking's
    rows and values, written the same whatever the bulletins' layout."""
    return {path: found["sha256"] for path, found in (manifest.get("made_from") or {}).items()
            if path.endswith(".csv") and isinstance(found, dict) and found.get("sha256")}
