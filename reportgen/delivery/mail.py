"""`reportgen mail`: one message per club, with its players' places in the season's latest
rankings and the latest PDF bulletin of each circuit they appear in (the latest ranking that has a
bulletin: while a season runs its final ranking has none, so its latest dated bulletin goes);
written as `.eml` drafts under outputs/mail/<season>/ (and sent by `reportgen.delivery.send`).
Each club's own bulletin (`club_bulletin.py`) is made with the drafts and attached too; the full
bulletins stay attached unless `[mail] attach = "club"`. With `[site] url`, the message links the
site's pages: the club's and each ranking's season page.

Which club a player belongs to comes from the ranking rows (the club of his latest result, as the
directory names it); a club gets a message when `clubs.xlsx` gives it an `Email` (several
addresses separated by « ; » or « , » all go in To) and it has players in those rankings."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen import circuits, french, pipeline
from reportgen.circuits import common
from reportgen.circuits.club_sections import evolution_since, figure, figure_column, place
from reportgen.delivery import club_bulletin, published
from reportgen.delivery.club_bulletin import ClubBulletin
from reportgen.ingest.calendar import CalendarEntry
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import Attachment, Document, Message, Ranking, RankingRow
from reportgen.pipeline.calendar import awaited_by, closed_final
from reportgen.render import evolution
from reportgen.render import mail as mail_render
from reportgen.render.files import remove_others, write_atomic
from reportgen.site import data as site_data
from reportgen.site import figures

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
        """Its name as an attachment: its PDF's after its circuit's slug (« <slug>-classement-2026-11-14.pdf »:
        a club receiving several circuits' bulletins tells them apart), the slug once when the PDF's
        name starts with it (« <slug>-2026.pdf »), ASCII. Only shown: the send log knows a bulletin
        by its circuit, path and ranking, so a new name never sends one again."""
        name = common.slug(self.pdf.stem)
        return (name if name.startswith(f"{self.circuit}-") else f"{self.circuit}-{name}") + ".pdf"

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
    own: dict[str, ClubBulletin] = field(default_factory=dict)  # each club's own bulletin, by code
    attach: str = "all"  # [mail] attach: "club" attaches the club's own bulletin alone
    site: str = ""  # [site] url: the messages link the site's pages
    announced: bool = False  # inputs/ holds a calendrier.xlsx
    # each bulletin's announced tournaments whose workbook has not arrived, by circuit (its note)
    awaited: dict[str, list[CalendarEntry]] = field(default_factory=dict)
    # the circuits whose bulletin is a closed season's final ranking: those never came (« non reçus »)
    closed: set[str] = field(default_factory=set)
    directory: ClubDirectory = field(default_factory=ClubDirectory)  # clubs.xlsx
    outputs: Path = Path("outputs")  # where the bulletins are
    own_written: bool = False  # the clubs' own bulletins are written (`write_club_bulletins`)

    @property
    def day(self) -> dt.date:
        """The date the messages and the clubs' bulletins speak of: the latest bulletin's (the clubs'
        tournaments excepted: said on the day the message is written, `prepare`)."""
        return max(b.document.date for b in self.bulletins)

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
        # With its chart, as the build drew it (the latest bulletin of a season with several dates).
        document = figures.charted([documents[ranking.path]], site_data.chart_records(report))[0]
        files += published.bulletin_files(slug, document) + [published.ranking_file(slug, ranking)]
        bulletins.append(Bulletin(slug, circuits.REGISTRY[slug].title, ranking, document,
                                  outputs / slug / f"{ranking.path}.pdf",
                                  hashlib.sha256(files[-1].expected or b"").hexdigest()))
    return season, bulletins, published.stale(files, outputs)


def prepare(league: pipeline.League, scored: pipeline.Scored, outputs: Path, season: int | None = None,
            circuit: str | None = None) -> Plan:
    found_season, bulletins, stale = latest_bulletins(scored, outputs, season, circuit)
    settings = league.settings
    plan = Plan(found_season or 0, circuit, settings.name, settings.mail.sender if settings.mail else "", bulletins,
                attach=settings.mail.attach if settings.mail else "all",
                site=settings.site.url.rstrip("/") if settings.site else "", announced=league.announced,
                outputs=outputs, directory=league.reading.clubs)
    # as of the day the mail is written, as the site says it beside the ranking in force
    plan.awaited = {b.circuit: awaited_by(b.circuit, b.ranking, b.document, league.calendar, league.reading.today)
                    for b in bulletins}
    plan.closed = {b.circuit for b in bulletins if closed_final(b.circuit, b.ranking, league.reading)}
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
    if bulletins:
        # its tournaments as of the day the message is written, as its lines on the results awaited
        plan.own = club_bulletin.prepare(league, scored, plan.season, circuit, {b.circuit: b.ranking for b in bulletins},
                                         league.reading.today)
    return plan


def draft_path(plan: Plan, club: Club) -> str:
    """Relative to outputs/."""
    return f"{plan.folder}/{club_bulletin.safe(club.code)}.eml"


def attached(plan: Plan, club_mail: ClubMail) -> list[tuple[Bulletin, str]]:
    """The club's bulletins the message attaches (none with `attach = "club"`), each with the file
    name it goes under (`Bulletin.filename`: each starts with its own circuit, so no two are one).
    The body lists these very names."""
    if plan.attach != "all":
        return []
    return [(bulletin, bulletin.filename) for bulletin in club_mail.bulletins]


def context(plan: Plan, club_mail: ClubMail, files: list[str]) -> dict[str, Any]:
    """What the body templates show; `files`: the bulletins' attachments' names (`attached`)."""
    rankings = []
    for bulletin in club_mail.bulletins:
        moved = next((column for column in bulletin.ranking.columns if column.key == "evolution"), None)
        has_evolution = moved is not None
        score = figure_column(bulletin.ranking, circuits.REGISTRY[bulletin.circuit].mail_figure)
        # « 575 points », « 12,5 TPs »: the ranking's own column, with its heading as the unit.
        header = "" if score is None else ("Points" if score.key == "points" else score.short or score.header)
        rankings.append({
            "circuit": bulletin.title, "title": bulletin.document.title,
            "date": french.date_long(bulletin.ranking.date), "final": bulletin.ranking.final,
            # what the bulletin notes under its title (« provisoire : résultats … attendus »), as
            # a sentence said to this club, or ""
            "awaited": awaited_line(plan.awaited.get(bulletin.circuit, []), club_mail.club, plan.directory,
                                    bulletin.circuit in plan.closed),
            "file": bulletin.filename, "evolution": has_evolution,
            # its column's heading short (« Évol. »), its whole word (« Évolution ») said by the HTML's <abbr>:
            # « Évolution » over « ▼ 2 » took 86 px of a phone's 390 that the names' column lacked
            "evolution_heading": (moved.short or moved.header, moved.header) if moved else ("", ""),
            # what the places moved since, as the club's bulletin says it under its table
            "since": evolution_since(bulletin.ranking, [bulletin.document]) if has_evolution else "",
            "score": header, "unit": "points" if header == "Points" else header,
            # « 1re ex aequo » under the HTML's « Place », « 1re place ex aequo : » in the text: never
            # « 1er », which says the player is a man (french.place)
            "rows": [{"rank": place(row), "place": french.place(row.rank, row.tied), "player": row.player,
                      "points": figure(row.metrics.get(score.key), score) if score is not None else "",
                      # (arrow, « 2 places perdues »): « −2 » after the points read like points
                      "evolution": evolution.said(row.metrics.get("evolution", "")) if has_evolution else ("", ""),
                      # « ▼ 2 » in the HTML's « Évolution » column, on one line of a phone (its legend under it)
                      "moved": evolution.shown(row.metrics.get("evolution", "")) if has_evolution else ""}
                     for row in club_mail.players[bulletin.circuit]],
        })
    own = plan.own.get(club_mail.club.code)
    return {"league": plan.league, "season": plan.season, "club": club_mail.club.name,
            "of_club": french.of_club(club_mail.club.name), "rankings": rankings,
            "files": files,
            "own": own.filename if own else "", "links": links(plan, club_mail)}


def awaited_line(entries: list[CalendarEntry], club: Club, clubs: ClubDirectory, final: bool = False) -> str:
    """The line under a provisional ranking's title in a club's message, the tournaments whose results
    it awaits on the day the message is written (pipeline/calendar.py `awaited_by`) as the site's
    season page notes them, in a sentence: « Classement provisoire : les résultats de Rodez du 13 juin
    sont attendus. »; to the club that organised one of them, its own workbook (« votre classeur du
    13 juin est attendu », then « , ainsi que les résultats de … »: the bulletin's words made it a
    club awaited by itself) and how to send it (`HOW_TO_SEND`: a reply, which `reportgen inbox`
    reads, as a reminder asks); "" when none is.
    `final`: a closed season's final ranking (`closed_final`), neither provisional nor awaiting
    anything: « Résultats de votre tournoi du 3 octobre et de Rodez du 13 juin non reçus. »"""
    if not entries:
        return ""
    own = [entry for entry in entries if entry.club and clubs.find(entry.club) == club]
    others = [entry for entry in entries if entry not in own]
    days = list(dict.fromkeys(entry.day_month for entry in own))  # two of its tournaments on one day: once
    if final:
        named = [f"de votre tournoi du {day}" for day in days] + [entry.day_and_place(clubs) for entry in others]
        return f"Résultats {french.joined(named)} non reçus."
    theirs = f"les résultats {french.joined([entry.day_and_place(clubs) for entry in others])}"
    if not own:
        return f"Classement provisoire : {theirs} sont attendus."
    one = len(own) == 1  # two of its tournaments on one day: two workbooks
    yours = (f"votre classeur du {days[0]} est attendu" if one
             else f"vos classeurs {french.joined([f'du {day}' for day in days])} sont attendus")
    return (f"Classement provisoire : {yours}" + (f", ainsi que {theirs}." if others else ".")
            + " " + HOW_TO_SEND[one])


# To the club whose own workbook a ranking awaits, by whether it is one (`awaited_line`).
HOW_TO_SEND = {True: "Pour l’envoyer, répondez à ce message en le joignant.",
               False: "Pour les envoyer, répondez à ce message en les joignant."}


def links(plan: Plan, club_mail: ClubMail) -> list[dict[str, str]]:
    """The site's pages a club's message links when `[site] url` is set: the club's page, then each
    ranking's season page (site/pages.py names them)."""
    if not plan.site:
        return []
    from reportgen.site import pages

    named = next((row.club for rows in club_mail.players.values() for row in rows if row.club), "")
    found = [{"title": f"La page {french.of_club(club_mail.club.name)}",
              "url": f"{plan.site}/{pages.FOLDER}/{pages.club_page_name(named)}"}] if named else []
    return found + [{"title": f"{b.title} {plan.season}", "url": f"{plan.site}/{pages.FOLDER}/"
                     f"{pages.season_page_name(b.circuit, plan.season)}"} for b in club_mail.bulletins]


def pdf_digests(plan: Plan, message: Message, bulletins: list[Bulletin]) -> list[str]:
    """What the send log keeps of each bulletin's PDF: the SHA-256 of its attachment, or, when the
    message attaches the club's own bulletin alone (`attach = "club"`), of that one."""
    data = [attachment.data for attachment in message.attachments]
    own = data[-1:] * len(bulletins) if plan.attach == "club" else data[:len(bulletins)]
    return [hashlib.sha256(item).hexdigest() for item in own]


def message(plan: Plan, club_mail: ClubMail, to: tuple[str, ...] | None = None) -> Message:
    """The club's message (to all its addresses unless `to` says otherwise)."""
    bulletins = attached(plan, club_mail)  # named once: the body lists what is attached
    text, html = mail_render.bodies(TEMPLATE, context(plan, club_mail, [name for _, name in bulletins]))
    attachments = [Attachment(name, bulletin.pdf.read_bytes()) for bulletin, name in bulletins]
    own = plan.own.get(club_mail.club.code)
    if own is not None:  # last: the send log pairs the bulletins with the first attachments
        attachments.append(Attachment(own.filename, (plan.outputs / own.path).read_bytes()))
    return Message(
        path=f"{plan.folder}/{club_mail.club.code}", to=to or club_mail.club.emails,
        subject=f"Bulletins de classement {plan.season} — {club_mail.club.name}", text=text,
        date=max(b.document.date for b in club_mail.bulletins), html=html, attachments=tuple(attachments))


def write_club_bulletins(plan: Plan) -> None:
    """The clubs' own bulletins in outputs/clubs/, once per plan (the drafts and `send` attach them)."""
    if plan.own and not plan.own_written:
        club_bulletin.write(plan.own, plan.outputs, plan.league, plan.day, plan.announced,
                            club_bulletin.folder(plan.season, plan.circuit))
        plan.own_written = True


def write_drafts(plan: Plan, outputs: Path) -> list[Path]:
    """Each club's own bulletin, then one `.eml` per club (unchanged files are not rewritten); drafts
    of clubs no longer mailed are removed from the folder."""
    write_club_bulletins(plan)
    written = []
    for club_mail in plan.clubs:
        path = outputs / draft_path(plan, club_mail.club)
        write_atomic(path, mail_render.to_eml(message(plan, club_mail), plan.sender))
        written.append(path)
    remove_others(outputs / plan.folder, "*.eml", written)
    return written
