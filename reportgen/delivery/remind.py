"""`reportgen remind`: a polite French reminder to the club that organised an announced tournament
(inputs/calendrier.xlsx) whose results have not arrived `[calendar] remind_after_days` days later: its
workbook never came, or holds its registrations alone (a pool tournament's, `CalendarEntry.registered`),
or the tournament is not over in it (`CalendarEntry.awaits_the_rest`: the rest of its rounds).

The bodies come from templates/mail/remind-text.j2 and remind-html.j2, as the other messages'
(render/mail.py: French typography on their own words, the HTML escaped), signed as every mail to a
club (templates/mail/signature.j2). Drafts (.eml) in outputs/rappels/ by default; `send` sends them through the `[mail]` server with
`mail --send`'s connection and send log (delivery/send.py): a reminder is a row per address of the
`sending` table, its `bulletin` « rappel <date> <name> » and its `ranking_sha` the tournament's
iCalendar UID, so it goes once per tournament (unless `resend`) whatever stops a run, and one a
dead run left unconfirmed is `unknown` and not sent again on its own, like a bulletin."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reportgen import circuits, french
from reportgen.circuits.common import distinct_paths, slug
from reportgen.config import Mail
from reportgen.delivery.club_bulletin import safe
from reportgen.delivery.inbox_answers import XLSX, blank_template
from reportgen.delivery.inbox_run import answer_said, refused_rows
from reportgen.delivery.send import SendLog, Session, deliver
from reportgen.delivery.send_log import SendStatus, sent_or_unknown
from reportgen.ingest.calendar import CalendarEntry
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.model import Attachment, Message
from reportgen.pipeline.loading import Unread
from reportgen.render.files import remove_others, write_atomic
from reportgen.render.ical import uid
from reportgen.render.mail import bodies, to_eml, to_message

FOLDER = "rappels"  # in outputs/


@dataclass(frozen=True)
class Reminder:
    entry: CalendarEntry
    club: Club
    message: Message

    @property
    def key(self) -> tuple[str, str, str]:
        """What the send log knows it by: circuit, « rappel <date> <name> », the tournament's UID."""
        return (self.entry.circuit, f"rappel {self.entry.date.isoformat()} {self.entry.known_as}", uid(self.entry))


@dataclass
class Plan:
    reminders: list[Reminder] = field(default_factory=list)
    # Announced tournaments due that no message can go to: (entry, why), said by the command.
    unreachable: list[tuple[CalendarEntry, str]] = field(default_factory=list)


def plan(entries: list[CalendarEntry], clubs: ClubDirectory, today: dt.date, after_days: int,
         league: str, titles: dict[str, str], refused: Mapping[tuple[str, str, str], Refused] | None = None,
         over_weeks: Collection[str] = (), unread: Collection[Unread] = (), inputs: Path | None = None) -> Plan:
    """The reminders due today: announced tournaments over more than `after_days` days ago (their
    last day, the calendar's Fin for one played over several days) none of whose results is in
    (`CalendarEntry.resultless`: their workbook has not arrived, or holds their registrations alone,
    given by the build's rule, pipeline/calendar.py `PlayedDays`), or whose workbook shows them not over
    (`CalendarEntry.awaits_the_rest`: a pool tournament whose club sent rounds and stopped; one without
    its Fin is said to the secretary, as one of registrations alone is), to the organising club's
    addresses; never one its workbook shows cancelled (`CalendarEntry.cancelled`: neither). `refused`:
    the workbooks `inbox` refused that wait for a corrected version, by (club, circuit, ISO date), each with the day its message came
    (`refused_by_tournament`; "" for a circuit or date its sheet did not say): its club has the list of
    corrections, and a reminder saying nothing came would contradict it. `over_weeks`: the circuits whose tournaments are played over weeks
    (`CircuitInfo.played_over_weeks`): one announced without its Fin is not due before an unknown
    day, and the secretary is told so rather than the club reminded while it plays. `unread`: the
    workbooks of inputs/ no circuit could read (`League.unread`): one that is, or may be, a due
    tournament's arrived, and its club is not asked for it; the others' reminders go all the same.
    `inputs`: where a workbook of registrations alone, or of a tournament not over, is read, to attach
    it to its reminder."""
    result = Plan()
    for entry in entries:
        if not (entry.resultless or entry.unfinished) or today < entry.remind_day(after_days):
            continue
        club = clubs.find(entry.club) if entry.club else None
        if entry.circuit in over_weeks and entry.last is None:
            result.unreachable.append((entry, f"un tournoi du circuit « {titles.get(entry.circuit, entry.circuit)} » "
                                              "se joue sur plusieurs semaines et ses résultats ne sont attendus qu’après "
                                              f"sa fin ; écrivez-en le jour dans {entry.fin_cell()}"))
        elif entry.coming and (arrived := [u for u in unread if entry.circuit in u.circuits
                                           and u.date in (None, entry.date)]):  # registered: its own arrived
            result.unreachable.append((entry, _arrived(arrived, entry)))
        elif club is not None and (known := _refused_for(refused or {}, club, entry)):
            result.unreachable.append((entry, known.said(club)))
        elif club is None and entry.club:  # its row of clubs.xlsx has a problem, said by `check`
            result.unreachable.append((entry, f"le club « {entry.club} » qu’il nomme n’a pas pu être lu dans "
                                              "clubs.xlsx (« reportgen check » dit quoi y corriger)"))
        elif club is None:
            result.unreachable.append((entry, "le calendrier ne dit pas quel club l’organise (colonne « Club »)"))
        elif (bad := club.bad_address) is not None:  # a warning of check, said again where it costs a reminder
            result.unreachable.append(
                (entry, f"{french.the_club(club.name)} n’a pas d’adresse valide ({bad.typed} dans {bad.cell})"))
        elif not club.emails:
            result.unreachable.append((entry, f"{french.the_club(club.name)} n’a pas d’adresse ({club.no_address})"))
        else:
            result.reminders.append(Reminder(entry, club, _message(entry, club, clubs, after_days, league, titles,
                                                                   inputs)))
    # a draft each: two tournaments of one club the same day (a Grand Sud one and a Tantrix one) were
    # written to one file, the second draft over the first
    paths = distinct_paths([(r.message.path, r.entry.known_as or r.entry.title(clubs)) for r in result.reminders])
    result.reminders = [dataclasses.replace(r, message=dataclasses.replace(r.message, path=path))
                        for r, path in zip(result.reminders, paths)]
    return result


def _refused_for(refused: Mapping[tuple[str, str, str], Refused], club: Club, entry: CalendarEntry) -> Refused | None:
    """The refused workbook awaited for `entry`: its own, else one of its club whose sheet did not say
    its date or circuit (« 28/11/26 » typed as text), sent once the tournament had begun: it may be
    this tournament's, and its club, told to correct it, was then reminded « nous n’avons pas encore
    reçu votre classeur »."""
    day = entry.date.isoformat()
    for key in ((entry.circuit, day), (entry.circuit, ""), ("", day), ("", "")):
        found = refused.get((club.code, *key))
        if found is not None and (not found.maybe or found.day >= entry.date):
            return found
    return None


def _arrived(unread: list[Unread], entry: CalendarEntry) -> str:
    """Why a tournament that a workbook of inputs/ no circuit could read is, or may be, is not
    reminded: its club sent it, and the correction is the secretary's to ask for."""
    named = french.joined([f"« {u.label} »" for u in unread])
    if len(unread) > 1:
        return (f"les classeurs {named} sont arrivés mais à corriger (« reportgen check » dit quoi), et l’un d’eux "
                "est peut-être le sien : un rappel demanderait au club ce qu’il a peut-être envoyé")
    [one] = unread
    sure = one.date == entry.date and one.circuits == (entry.circuit,)
    return (f"{'son classeur est sans doute' if sure else 'son classeur est peut-être'} {named}, arrivé mais à "
            "corriger (« reportgen check » dit quoi) : un rappel demanderait au club ce qu’il a "
            f"{'' if sure else 'peut-être '}envoyé")


def _message(entry: CalendarEntry, club: Club, clubs: ClubDirectory, after_days: int, league: str,
             titles: dict[str, str], inputs: Path | None) -> Message:
    # « de l’Open de Rodez » (« du tournoi « Tournoi d’automne… » » said its name twice): CalendarEntry.title's
    # words, in a sentence.
    of_event = entry.of_event(clubs)
    day = french.date_long(entry.date)
    subject = f"Rappel : résultats {of_event} du {day}"
    # The day the reminder fell due, not the clock: the same calendar gives the same draft.
    due = entry.remind_day(after_days)
    # The blank workbook of its circuit, as `reportgen template CIRCUIT --club` writes it for the
    # organising club, dated the day it fell due: the club asked for its results gets what to type them
    # in. None for a circuit without one (its workbook comes from elsewhere: the Masters' from `masters
    # prepare`, a pool tournament's or a Tantrix one's from its own tools). The calendar's name, date and
    # place already typed in: a club left to type the date wrote « 28/11/26 », text, and was refused.
    known = {"Nom": entry.name, "Date": entry.date, "Lieu": entry.place}
    # A workbook of registrations alone, or of a tournament not over: the one the club sent, as it is,
    # to type its games in.
    sent = _sent_workbook(entry, club, inputs)
    blank = None if entry.workbook else blank_template(entry.circuit, clubs, club, due,
                                                          {label: value for label, value in known.items() if value})
    if blank:  # filled in, it is that tournament's: named as the league's workbooks are, not « modele-… »
        blank = dataclasses.replace(blank, filename=_named(entry, club))
    attached = sent or blank
    text, html = bodies("remind", {
        "of_event": of_event, "circuit": titles.get(entry.circuit, entry.circuit),
        # « le 14 mars 2026 », « du 5 septembre au 6 octobre 2026 » (its days, as the site says them)
        "day": day, "days": entry.days() if entry.last else f"le {day}",
        "where": f", {french.at(entry.place)}" if entry.place else "",
        "blank": blank.filename if blank else "", "named": bool(entry.name),
        "registered": entry.registered, "sent": sent.filename if sent else "",
        # what the workbook still awaits (« le tour 3 reste à jouer »), of a tournament not over
        "pending": entry.pending if entry.awaits_the_rest else "",
        # what waits for the results: the league's season rankings, or a circuit without one (each of its
        # tournaments ranked on its own, `CircuitInfo.event_rankings`: a pool tournament) the tournament's
        "season_ranking": not circuits.REGISTRY[entry.circuit].event_rankings,
        "league": league})  # signed as every mail to a club, templates/mail/signature.j2
    return Message(
        path=f"{FOLDER}/{entry.date.isoformat()}-{safe(club.code)}-{slug(entry.circuit)}", to=club.emails,
        subject=subject, text=text, html=html, date=due, attachments=(attached,) if attached else ())


def _named(entry: CalendarEntry, club: Club) -> str:
    """What a reminder names the tournament's workbook it attaches: « 2026-11-28-perpignan.xlsx », as
    the league's workbooks are named."""
    return f"{entry.date.isoformat()}-{slug(entry.place or club.name)}.xlsx"


def _sent_workbook(entry: CalendarEntry, club: Club, inputs: Path | None) -> Attachment | None:
    """The workbook the club sent, of registrations alone or of a tournament not over (inputs/'s copy,
    its bytes as they are), for its reminder; None for a tournament whose workbook never came, or
    without `inputs`."""
    if not entry.workbook or inputs is None:
        return None
    return Attachment(_named(entry, club), (inputs / entry.workbook).read_bytes(), XLSX)


@dataclass(frozen=True)
class Refused:
    """A workbook `inbox` refused whose corrected version is awaited: the day its message came, and
    whether the answer listing its corrections went out (the send log's `answer_status`: `sent`,
    `unknown`, or None while it is a draft, `answer`)."""

    day: dt.date
    answer_status: str | None
    answer: str
    # The attachment's name when its sheet did not say its tournament (its circuit or date): it may
    # be the tournament's, and the secretary is told which file.
    maybe: str = ""

    def said(self, club: Club) -> str:
        """Why its tournament is not reminded, as true as the send log knows it (`answer_said`)."""
        answer = answer_said(self.answer_status, french.at_club(club.name), self.answer)
        then = " ensuite" if self.answer_status is None else ""  # a draft: once it is sent
        received = f"reçu par courriel le {french.date_long(self.day)}"
        which = (f"son classeur est peut-être « {self.maybe} », {received} et refusé sans que son tournoi ait pu "
                 "être lu" if self.maybe else f"son classeur, {received}, a été refusé")
        return f"{which} ; {answer} ; la version corrigée est attendue{then}"


def refused_by_tournament(archive: Path, outputs: Path) -> dict[tuple[str, str, str], Refused]:
    """`plan`'s `refused`: each refused workbook still waiting (inbox_run.py `refused_rows`), by
    (club, circuit, ISO date), "" for what its sheet did not say, with the day its message came and
    whether its answer was sent."""
    return {(row["club_code"], row["circuit"] or "", row["date"] or ""): Refused(
        dt.date.fromisoformat(row["arrived_on"]), row["answer_status"], str(outputs / row["answer"]),
        "" if row["circuit"] and row["date"] else row["filename"])
        for row in refused_rows(archive)}


def write_drafts(reminders: Plan, outputs: Path, sender: str = "") -> list[Path]:
    """One .eml per reminder in outputs/rappels/ (unchanged ones not rewritten); drafts of
    reminders no longer due (the workbook arrived) are removed."""
    written = []
    for reminder in reminders.reminders:
        path = outputs / f"{reminder.message.path}.eml"
        write_atomic(path, to_eml(reminder.message, sender))
        written.append(path)
    remove_others(outputs / FOLDER, "*.eml", written)
    return written


@dataclass
class Sent:
    reminder: Reminder
    failed: dict[str, str]  # address -> the server's answer
    unconfirmed: str = ""  # the server had the message but never confirmed it


@dataclass
class Run:
    sent: list[Sent] = field(default_factory=list)
    already: list[tuple[Reminder, SendStatus, str]] = field(default_factory=list)  # (reminder, SENT or UNKNOWN, when)
    left: list[Reminder] = field(default_factory=list)  # not attempted: the run's time was spent


def state(log: SendLog, reminder: Reminder) -> tuple[SendStatus, str] | None:
    """(SENT, when) if the tournament's reminder went out, else (UNKNOWN, when) if a dead run left
    one unconfirmed, else None."""
    return sent_or_unknown(log.connection, "circuit = ? AND bulletin = ? AND ranking_sha = ?", reminder.key)


def send(reminders: Plan, settings: Mail, log: SendLog, resend: bool = False,
         say: Callable[[str], None] = lambda text: None,
         now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc)) -> Run:
    """Send each reminder not sent yet (all with `resend`), each message logged `sending` before
    DATA and `sent`, `failed` or `unknown` after, within `[mail] run_timeout`."""
    with Session(settings) as session:
        run = Run()
        work = []
        for reminder in reminders.reminders:
            known = None if resend else state(log, reminder)
            if known is None:
                work.append(reminder)
            else:
                run.already.append((reminder, *known))
        for number, reminder, timeout in session.paced(work):
            draft = reminder.message
            circuit, bulletin, key = reminder.key
            answer, _ = deliver(
                session.smtp, settings, log, draft.to, lambda sent: to_message(draft, settings.sender, sent=sent),
                lambda moment, identifier: [
                    (moment, reminder.entry.date.year, reminder.club.code, reminder.club.name, address.casefold(),
                     circuit, bulletin, key, "", identifier) for address in draft.to],
                timeout,
                f"le rappel {french.at_club(reminder.club.name)} est peut-être parti sans que le journal le note ; "
                "rien de plus n’a été envoyé", now)
            run.sent.append(Sent(reminder, answer.refused, answer.unconfirmed))
            where = f"{reminder.club.name} ({', '.join(draft.to)})"
            if answer.unconfirmed:
                say(f"[{number}/{len(work)}] {where} : INCERTAIN — {answer.unconfirmed}")
            elif answer.refused:
                say(f"[{number}/{len(work)}] {where} : ÉCHEC — "
                    + "; ".join(f"{address} : {text}" for address, text in answer.refused.items()))
            else:
                say(f"[{number}/{len(work)}] {where} : rappel envoyé — {draft.subject}")
        run.left = session.left(work)
    return run
