"""The notices of Art. XII: every event of the tournament that concerns a player becomes one e-mail
draft to him (a `Message`: French, plain text and HTML), written under the tournament's folder.

The events: a round starts (his pool, his opponents and colours, the deadline of Art. VII), a
barrage starts, his final place in his pool, qualified / repêché / eliminated (or his final place in
the tournament), a forfeit (his own, or one in his pool), a rehabilitation, the cancellation and
the restoration of the tournament. The address is the `Email` of `Inscrits`; without one, the draft
has no recipient and the report lists it.

Their words agree with nobody's gender, the reader's or another player's, which the league does
not know (« 1re place de la poule A », « Vous vous qualifiez pour le tour 2 », « Le forfait d’IMBERT
Inès est prononcé »).

The bodies are built here as plain data (a circuit draws nothing): paragraphs and lists, the HTML
escaped with the standard library. Their own words are set as the mails' templates' are (render/mail.py):
no-break spaces before « : ; ! ? » and inside « », long dates unbroken; a name from a workbook (a
player's, the tournament's) is marked as data in its sentence (`_name`) and stays as typed. The
subject keeps plain spaces, as every mail's.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass

from reportgen import french
from reportgen.circuits.common import distinct_paths, slug
from reportgen.circuits.poules.domain import Forfeit, Registrant
from reportgen.circuits.poules.ranking import Standing
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.circuits.poules.standings import ELIMINATED, QUALIFIED, REPECHE, Line
from reportgen.circuits.poules.tournament import Pool, Round, Tournament
from reportgen.ingest.text import split_full_name
from reportgen.model import Message

# The kinds of notice, as their file names start.
ROUND_START, BARRAGE_START, POOL_PLACE, QUALIFICATION, FORFEIT, REHABILITATION, CANCELLATION, RESTORATION = (
    "lancement", "barrage", "classement-poule", "qualification", "forfait", "rehabilitation", "annulation",
    "retablissement")

Block = str | list[str]  # a paragraph, or a list of items


@dataclass(frozen=True)
class Notice:
    kind: str
    round: int
    player: Registrant  # the recipient
    subject: str
    blocks: list[Block]
    date: dt.date
    about: str = ""  # another player the notice is about (a forfeit in his pool)


# A name in a notice's sentence, between these two private-use characters (`_name`): data, which
# `_set` leaves as typed (a name is as typed, render/mail.py), the words around it set.
_DATA = "\ue000", "\ue001"
_DATA_PARTS = re.compile(f"{_DATA[0]}(.*?){_DATA[1]}", re.DOTALL)


def _name(text: str) -> str:
    """A name from a workbook, marked as data in a notice's sentence."""
    return f"{_DATA[0]}{text}{_DATA[1]}"


def _names(names: list[str]) -> str:
    """« A, B et C », each name marked as data."""
    return french.joined([_name(name) for name in names])


def _set(text: str) -> str:
    """A notice's sentence as read: its own words given French typography and their long dates kept
    whole, as a mail template's are (render/mail.py); its names (`_name`) as typed."""
    parts = _DATA_PARTS.split(text)  # own words, a name, own words...
    return "".join(part if index % 2 else french.dates_kept(french.typography(part))
                   for index, part in enumerate(parts))


def points(half: int) -> str:
    value = half / 2
    return f"{french.points(value)} point" + ("s" if value >= 2 else "")


def _rendered(notice: Notice, league: str) -> tuple[str, str]:
    last, first = split_full_name(notice.player.name)
    greeting = f"Bonjour {' '.join(part for part in (first, last) if part)},"
    # the league's name is the secretary's own words (reportgen.toml), set as the mails' signature sets it
    closing = ["Bien cordialement,", french.typography(league) if league else "L’organisation du tournoi"]
    text_parts = [greeting]
    html_parts = [f"<p>{html.escape(greeting)}</p>"]
    for block in notice.blocks:
        if isinstance(block, list):
            items = [_set(item) for item in block]
            text_parts.append("\n".join(f"  - {item}" for item in items))
            html_parts.append("<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>")
        else:
            text_parts.append(_set(block))
            html_parts.append(f"<p>{html.escape(_set(block))}</p>")
    text_parts.append("\n".join(closing))
    html_parts.append("<p>" + "<br>".join(html.escape(line) for line in closing) + "</p>")
    page = ("<!DOCTYPE html>\n<html lang=\"fr\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(notice.subject)}</title>\n</head>\n"
            "<body style=\"font-family: Arial, Helvetica, sans-serif; font-size: 14px; color: #1a1a1a;\">\n"
            + "\n".join(html_parts) + "\n</body>\n</html>\n")
    return "\n\n".join(text_parts) + "\n", page


def messages(tournament: Tournament, event_name: str, folder: str, league: str, settings: PoulesSettings,
             ranking: list[Standing]) -> list[Message]:
    notices = []
    for index, played in enumerate(tournament.rounds):
        following = tournament.rounds[index + 1] if index + 1 < len(tournament.rounds) else None
        notices += _round_start(played, event_name, settings)
        notices += _barrage_start(played, event_name, settings)
        notices += _forfeits(played, event_name, tournament)
        notices += _cancellation(played, event_name)
        if played.decided:
            notices += _round_end(played, following, event_name, ranking)
    # Two players (or subjects) whose names give one slug: each notice its own file.
    paths = distinct_paths([(f"{folder}/avis/tour-{notice.round}/{notice.kind}"
                             + (f"-{slug(notice.about)}" if notice.about else "") + f"-{slug(notice.player.name)}",
                             f"{notice.about}\0{notice.player.name}") for notice in notices])
    found = []
    for notice, path in zip(notices, paths):
        text, page = _rendered(notice, league)
        found.append(Message(path, (notice.player.email,) if notice.player.email else (),
                             f"{event_name} : {notice.subject}", text, notice.date, page))
    return found


def _games_of(pool: Pool, player: Registrant) -> list[str]:
    names = {p.key: p.name for p in pool.players}
    games = []
    for game in pool.games:
        if game.white == player.key:
            games.append(f"avec les Blancs contre {_name(names[game.black])}")
        elif game.black == player.key:
            games.append(f"avec les Noirs contre {_name(names[game.white])}")
    return games


def _round_start(played: Round, event_name: str, settings: PoulesSettings) -> list[Notice]:
    deadline = played.launched + dt.timedelta(days=settings.main_phase_days)
    stage = "le tour final" if played.final else f"le tour {played.number}"
    found = []
    for pool in played.pools:
        for player in pool.players:
            others = [p.name for p in pool.players if p.key != player.key]
            found.append(Notice(ROUND_START, played.number, player,
                                f"tour {played.number}, poule {pool.label}" if not played.final else "tour final",
                                [f"{stage[0].upper()}{stage[1:]} du tournoi « {_name(event_name)} » est lancé le "
                                 f"{french.date_long(played.launched)}. Vous jouez dans la poule {pool.label} avec "
                                 f"{_names(others)}.",
                                 "Vos parties (chaque adversaire deux fois, une fois avec chaque couleur ; une victoire "
                                 "vaut 1 point, une nulle ½, une défaite 0) :", _games_of(pool, player),
                                 f"Délai (Art. VII) : {settings.main_phase_days} jours, jusqu’au "
                                 f"{french.date_long(deadline)}."],
                                played.launched))
    return found


def _barrage_start(played: Round, event_name: str, settings: PoulesSettings) -> list[Notice]:
    if played.barrage_launched is None:
        return []
    deadline = played.barrage_launched + dt.timedelta(days=settings.barrage_days)
    found = []
    for pool in played.pools:
        names = {p.key: p for p in pool.players}
        involved = sorted({key for g in pool.barrage_games for key in (g.white, g.black)}, key=lambda k: names[k].order)
        for key in involved:
            player = names[key]
            games = [f"avec les Blancs contre {_name(names[g.black].name)}" if g.white == key
                     else f"avec les Noirs contre {_name(names[g.white].name)}" for g in pool.barrage_games if g.has(key)]
            others = [names[k].name for k in involved if k != key]
            found.append(Notice(BARRAGE_START, played.number, player, f"barrage, poule {pool.label}",
                                [f"Vous êtes à égalité de points avec {_names(others)} dans la poule {pool.label} "
                                 f"du tour {played.number}, à une place que départage un barrage (Art. IX). Le "
                                 f"barrage est lancé le {french.date_long(played.barrage_launched)} : une partie "
                                 "contre chaque adversaire à égalité, les Blancs à la plus récente des deux "
                                 "inscriptions.",
                                 "Vos parties de barrage :", games,
                                 "Les points de barrage (1 la victoire, ½ la nulle) départagent, puis l’ordre "
                                 "d’inscription au tournoi.",
                                 f"Délai (Art. VII) : {settings.barrage_days} jours, jusqu’au "
                                 f"{french.date_long(deadline)}."],
                                played.barrage_launched))
    return found


def _forfeit_day(played: Round, forfeit: Forfeit) -> dt.date:
    return forfeit.day or played.launched


def _forfeits(played: Round, event_name: str, tournament: Tournament) -> list[Notice]:
    """A forfeit, and its lifting, once per player and round: the forfeit is his first row of the
    round, the rehabilitation his `Réhabilité` = oui row (the same row, or one of its own)."""
    found = []
    names = tournament.content.by_key
    rows: dict[str, list[Forfeit]] = {}
    for forfeit in played.forfeits:
        rows.setdefault(forfeit.player, []).append(forfeit)
    for key, typed in rows.items():
        pool = played.pool_of(key)
        if pool is None:
            continue
        player = names[key]
        forfeit = next((f for f in typed if not f.rehabilitated), typed[0])
        lifting = next((f for f in typed if f.rehabilitated), None)
        day = _forfeit_day(played, forfeit)
        why = " pour fraude ou antijeu" if any(f.sanction for f in typed) else ""
        mates = [line.player for line in pool.lines if not line.forfeit and line.player.key != player.key]
        of_player = french.de_before(player.name) + _name(player.name)  # « d’IMBERT Inès », the name as data
        found.append(Notice(FORFEIT, played.number, player, f"forfait au tour {played.number}",
                            [f"Un forfait{why} est prononcé contre vous au tour {played.number} du tournoi "
                             f"« {_name(event_name)} » (Art. XI) : vous perdez toutes vos parties de ce tour, jouées ou non."],
                            day))
        found += [Notice(FORFEIT, played.number, mate, f"forfait {french.of_person(player.name)}",
                         [f"Le forfait {of_player} est prononcé au tour {played.number} (Art. XI). "
                          f"Vos parties contre "
                          f"{_name(player.name)} ne comptent plus dans le classement de la poule {pool.label}."], day, player.name)
                  for mate in mates]
        if lifting is not None:
            day = _forfeit_day(played, lifting)
            found.append(Notice(REHABILITATION, played.number, player, f"réhabilitation au tour {played.number}",
                                [f"Votre forfait au tour {played.number} est levé (Art. XI) : vous retrouvez votre "
                                 "place dans le tournoi et vos résultats sont rétablis. Une partie qui n’était pas terminée "
                                 "dispose à nouveau de tout son délai."], day))
            found += [Notice(REHABILITATION, played.number, mate, f"réhabilitation {french.of_person(player.name)}",
                             [f"Le forfait {of_player} au tour {played.number} est levé (Art. XI) : vos "
                              f"parties contre {_name(player.name)} comptent à nouveau dans la poule {pool.label}."], day, player.name)
                      for mate in mates]
    return found


def _cancellation(played: Round, event_name: str) -> list[Notice]:
    if not (played.cancelled or played.restored):
        return []
    # Dated by the forfeits that cancel it, or by the rehabilitations that restore it.
    days = [f.day for f in played.forfeits if f.day and f.rehabilitated != played.cancelled]
    day = max(days) if days else played.launched
    kind = CANCELLATION if played.cancelled else RESTORATION
    left = len(played.participants) - len(played.forfeited)
    remaining = {0: "il ne reste plus aucun joueur non forfait", 1: "il ne reste qu’un joueur non forfait"}.get(
        left, f"il ne reste que {left} joueurs non forfaits")
    text = (f"Le tournoi « {_name(event_name)} » est annulé (Art. XI) : après les forfaits, {remaining} au tour "
            f"{played.number}. Il serait rétabli si un joueur forfait était réhabilité."
            if played.cancelled else
            f"Le tournoi « {_name(event_name)} » est rétabli (Art. XI) : après la réhabilitation, il compte à nouveau au "
            f"moins trois joueurs non forfaits au tour {played.number}. Les parties annulées sont rétablies et "
            "disposent à nouveau de tout leur délai.")
    subject = "tournoi annulé" if played.cancelled else "tournoi rétabli"
    still = [p for p in played.participants if p.key not in played.forfeited]  # those still qualified
    return [Notice(kind, played.number, player, subject, [text], day) for player in still]


def _round_end(played: Round, following: Round | None, event_name: str, ranking: list[Standing]) -> list[Notice]:
    dates = [played.launched] + ([played.barrage_launched] if played.barrage_launched else [])
    day = following.launched if following else max(dates)
    places = {standing.player.key: standing for standing in ranking}
    found = []
    for pool in played.pools:
        for line in pool.active:
            found.append(Notice(POOL_PLACE, played.number, line.player,
                                f"{french.place(line.place)} de la poule {pool.label}",
                                [_place_text(played, pool, line)], day))
            if played.final:
                standing = places.get(line.player.key)
                if standing is not None:
                    found.append(Notice(QUALIFICATION, played.number, line.player,
                                        f"{french.place(standing.rank)} du tournoi",
                                        [f"Le tournoi « {_name(event_name)} » est terminé : vous en prenez la "
                                         f"{french.place(standing.rank)} (Art. VI)."], day))
                continue
            text = {
                QUALIFIED: f"Vous vous qualifiez pour le tour {played.number + 1} (Art. V : les deux premières "
                           "places de chaque poule sont qualificatives).",
                REPECHE: f"Un repêchage vous qualifie pour le tour {played.number + 1} (Art. X) : des forfaits ont "
                         f"libéré {_freed(played.free_places)} des autres poules.",
                ELIMINATED: f"Votre parcours s’arrête au tour {played.number} ; votre place au classement du tournoi "
                            "sera connue à sa fin.",
            }[line.status]
            subject = {QUALIFIED: f"qualification pour le tour {played.number + 1}",
                       REPECHE: f"repêchage pour le tour {played.number + 1}",
                       ELIMINATED: f"élimination au tour {played.number}"}[line.status]
            found.append(Notice(QUALIFICATION, played.number, line.player, subject, [text], day))
    return found


def _freed(places: int) -> str:
    """The places the forfeits freed, as many as the bulletin counts (« 1 place libérée »: the notice
    said « des places » when one was)."""
    if places < 2:
        return f"{french.plural(places, 'place qualificative')}, attribuée à la meilleure troisième place"
    return f"{french.plural(places, 'place qualificative', 'places qualificatives')}, attribuées aux meilleures " \
        "troisièmes places"


def _place_text(played: Round, pool: Pool, line: Line) -> str:
    counted = (f"en {french.plural(line.games, 'partie qui compte', 'parties qui comptent')}" if line.games else
               "sans partie qui compte : les autres joueurs de la poule sont forfaits")
    text = (f"Vous terminez à la {french.place(line.place)} de la poule {pool.label} du tour {played.number} avec "
            f"{points(line.half)} {counted}.")
    if line.barrage_half is not None:
        text += f" Le barrage vous a rapporté {points(line.barrage_half)}."
    elif "inscription" in line.decided_by:
        text += " À égalité de points, l’ordre d’inscription au tournoi a tranché (Art. IX)."
    return text
