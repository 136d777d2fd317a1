"""`reportgen mail`: one message per club, with its players' places in the season's latest
rankings and the latest PDF bulletin of each circuit they appear in (the latest ranking that has a
bulletin: while a season runs its final ranking has none, so its latest dated bulletin goes);
written as `.eml` drafts under outputs/mail/<season>/ (and sent by `reportgen.delivery.send`).

Which club a player belongs to comes from the ranking rows (the club of his latest result, as the
directory names it); a club gets a message when `clubs.xlsx` gives it an `Email` (several
addresses separated by « ; » or « , » all go in To) and it has players in those rankings."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen import circuits, french, pipeline
from reportgen.delivery import published
from reportgen.ingest.directories import Club
from reportgen.model import Attachment, Column, Document, Message, Ranking, RankingRow
from reportgen.render import mail as mail_render
from reportgen.render.files import write_atomic

MAIL_FOLDER = "mail"  # under outputs/: the drafts, never a circuit's folder
TEMPLATE = "club"  # templates/mail/club-text.j2 and club-html.j2


@dataclass(frozen=True)
class Bulletin:
    """A circuit's latest bulletin of the season, as outputs/ holds it."""

    circuit: str
    title: str  # the circuit's
    ranking: Ranking
    document: Document
    pdf: Path
    key: str  # sha256 of the ranking as published (its CSV): the send log's "same bulletin"

    @property
    def filename(self) -> str:
        return self.pdf.name

    @property
    def bulletin(self) -> str:
        return self.ranking.path


@dataclass
class ClubMail:
    club: Club
    bulletins: list[Bulletin]  # of the circuits its players appear in, in registry order
    players: dict[str, list[RankingRow]]  # circuit -> its players' rows, in ranking order

    def only(self, bulletins: list[Bulletin]) -> ClubMail:
        keep = {b.circuit for b in bulletins}
        return ClubMail(self.club, bulletins, {c: rows for c, rows in self.players.items() if c in keep})


@dataclass
class Plan:
    season: int
    circuit: str | None  # the one circuit asked for, or None for all
    league: str
    sender: str
    bulletins: list[Bulletin]
    clubs: list[ClubMail] = field(default_factory=list)  # with an address and players
    without_address: list[tuple[Club, int]] = field(default_factory=list)  # and how many players ranked
    without_players: list[Club] = field(default_factory=list)  # an address, nobody in the rankings
    unknown_clubs: dict[str, int] = field(default_factory=dict)  # a ranking row's club missing from clubs.xlsx
    problems: list[str] = field(default_factory=list)

    @property
    def folder(self) -> str:
        """The drafts' folder, relative to outputs/."""
        return f"{MAIL_FOLDER}/{self.season}" + (f"/{self.circuit}" if self.circuit else "")


def latest_bulletins(scored: pipeline.Scored, outputs: Path, season: int | None,
                     circuit: str | None) -> tuple[int | None, list[Bulletin], list[str]]:
    """(season, each circuit's latest bulletin of it, files of outputs/ missing or stale)."""
    reports = {slug: report for slug, report in scored.reports.items() if circuit is None or slug == circuit}
    seasons = {r.season for report in reports.values() for r in report.rankings}
    if season is None:
        season = max(seasons) if seasons else None
    bulletins: list[Bulletin] = []
    files: list[published.Published] = []
    for slug, report in reports.items():
        kind = circuits.REGISTRY[slug].mail_ranking  # the ranking the circuit's mail reports
        rankings = [r for r in report.rankings if r.season == season and (not kind or r.scope.kind == kind)]
        documents = {d.path: d for d in report.documents}
        ranking = next((r for r in reversed(rankings) if r.path in documents), None)
        if ranking is None:
            continue
        document = documents[ranking.path]
        files += published.bulletin_files(slug, document) + [published.ranking_file(slug, ranking)]
        bulletins.append(Bulletin(slug, circuits.REGISTRY[slug].title, ranking, document,
                                  outputs / slug / f"{ranking.path}.pdf",
                                  hashlib.sha256(files[-1].expected or b"").hexdigest()))
    return season, bulletins, published.stale(files, outputs)


def prepare(league: pipeline.League, scored: pipeline.Scored, outputs: Path, season: int | None = None,
            circuit: str | None = None) -> Plan:
    found_season, bulletins, stale = latest_bulletins(scored, outputs, season, circuit)
    sender = league.settings.mail.sender if league.settings.mail else ""
    plan = Plan(found_season or 0, circuit, league.settings.name, sender, bulletins)
    plan.problems = [f"{outputs / path} : absent ou pas à jour — lancez « make » avant de préparer les courriels"
                     for path in stale]
    directory = league.reading.clubs
    members: dict[str, dict[str, list[RankingRow]]] = {}
    for bulletin in bulletins:
        for row in bulletin.ranking.rows:
            if not row.club:
                continue
            club = directory.find(row.club)
            if club is None:
                plan.unknown_clubs[row.club] = plan.unknown_clubs.get(row.club, 0) + 1
                continue
            members.setdefault(club.code, {}).setdefault(bulletin.circuit, []).append(row)
    for club in directory.clubs:
        mine = members.get(club.code, {})
        count = len({row.player_id for rows in mine.values() for row in rows})
        if not club.emails:
            plan.without_address.append((club, count))
        elif not mine:
            plan.without_players.append(club)
        else:
            plan.clubs.append(ClubMail(club, [b for b in bulletins if b.circuit in mine], mine))
    return plan


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "club"


def draft_path(plan: Plan, club: Club) -> str:
    """Relative to outputs/."""
    return f"{plan.folder}/{_safe(club.code)}.eml"


def _evolution(value: Any) -> str:
    text = str(value)
    if text.lstrip("+-").isdigit():
        moved = int(text)
        return "=" if moved == 0 else (f"+{moved}" if moved > 0 else f"−{-moved}")
    return text


def score_column(ranking: Ranking, figure: str = "") -> Column | None:
    """The column a message gives after each player's place: the circuit's `mail_figure` when the
    ranking has it, else its first numeric column (a Tantrix event's TPs, a rating list's Elo), else none."""
    numeric = [c for c in ranking.columns if c.key == figure] + [c for c in ranking.columns if c.kind in ("int", "number")]
    return numeric[0] if numeric else None


def _score(value: Any) -> str:
    if value is None or value == "":
        return ""
    return french.points(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def context(plan: Plan, club_mail: ClubMail) -> dict[str, Any]:
    rankings = []
    for bulletin in club_mail.bulletins:
        has_evolution = any(column.key == "evolution" for column in bulletin.ranking.columns)
        score = score_column(bulletin.ranking, circuits.REGISTRY[bulletin.circuit].mail_figure)
        # « 575 points », « 12,5 TPs »: the ranking's own column, with its heading as the unit.
        header = "" if score is None else ("Points" if score.key == "points" else score.short or score.header)
        rankings.append({
            "circuit": bulletin.title, "title": bulletin.document.title,
            "date": french.date_long(bulletin.ranking.date), "final": bulletin.ranking.final,
            "file": bulletin.filename, "evolution": has_evolution,
            "score": header, "unit": "points" if header == "Points" else header,
            "rows": [{"rank": french.ordinal(row.rank) + (" ex aequo" if row.tied else ""), "player": row.player,
                      "points": _score(row.metrics.get(score.key)) if score is not None else "",
                      "evolution": _evolution(row.metrics.get("evolution", "")) if has_evolution else ""}
                     for row in club_mail.players[bulletin.circuit]],
        })
    return {"league": plan.league, "season": plan.season, "club": club_mail.club.name,
            "of_club": french.of_club(club_mail.club.name), "rankings": rankings,
            "files": [b.filename for b in club_mail.bulletins]}


def message(plan: Plan, club_mail: ClubMail, to: tuple[str, ...] | None = None) -> Message:
    """The club's message (to all its addresses unless `to` says otherwise)."""
    text, html = mail_render.bodies(TEMPLATE, context(plan, club_mail))
    attachments = []
    names: set[str] = set()
    for bulletin in club_mail.bulletins:
        name = bulletin.filename if bulletin.filename not in names else f"{bulletin.circuit}-{bulletin.filename}"
        names.add(name)
        attachments.append(Attachment(name, bulletin.pdf.read_bytes()))
    return Message(
        path=f"{plan.folder}/{club_mail.club.code}", to=to or club_mail.club.emails,
        subject=f"Bulletins de classement {plan.season} — {club_mail.club.name}", text=text,
        date=max(b.document.date for b in club_mail.bulletins), html=html, attachments=tuple(attachments))


def write_drafts(plan: Plan, outputs: Path) -> list[Path]:
    """One `.eml` per club (unchanged files are not rewritten); drafts of clubs no longer mailed
    are removed from the folder."""
    written = []
    for club_mail in plan.clubs:
        path = outputs / draft_path(plan, club_mail.club)
        write_atomic(path, mail_render.to_eml(message(plan, club_mail), plan.sender))
        written.append(path)
    folder = outputs / plan.folder
    if folder.is_dir():
        for stale in folder.glob("*.eml"):
            if stale not in written:
                stale.unlink()
    return written
