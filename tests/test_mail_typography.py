"""French typography in every mail body (a club's bulletins, a reminder, an inbox answer), text and
HTML: the templates' own words have no-break spaces before « : ; ? ! », inside « » and before a
separating « — », a long date never breaks, and a name from a workbook stays as typed (render/html.py's `Typography`)."""

from __future__ import annotations

import datetime as dt
import html as markup
import re
from pathlib import Path

from reportgen import circuits, french
from reportgen.delivery import remind as reminding
from reportgen.delivery.inbox_answers import Received, compose
from reportgen.delivery.inbox_filing import Filed, Owner, Replaced, Said
from reportgen.ingest.calendar import COMING, PLAYED, CalendarEntry
from reportgen.ingest.directories import Club, ClubDirectory
from reportgen.render import mail as mail_render

# A name as a workbook may give it: its spaces before « ? » and « : » and inside « » are its own.
TYPED = "QUI ? « Jo » : X"
# The league's name, the secretary's own words (reportgen.toml), given French typography as the
# templates' own words are: every body is signed with it.
LEAGUE = "Ligue Sud — Jeux : Cie"
ALBI = Club("ALBI", "Albi", "81", ("contact@albi.example.org",))
CLUBS = ClubDirectory([ALBI])
# A plain space before « : ; ? ! », « » » or a separating « — », after « «, or inside a long date
# (« 14 / novembre »).
BREAKABLE = re.compile(r" [:;?!»]|« |(?<=\S) —(?= )|\b(?:1er|\d{1,2}) (?:janvier|février|mars|avril|mai|juin|juillet|"
                       r"août|septembre|octobre|novembre|décembre)\b")


def breakable(body: str) -> list[str]:
    """The breakable spaces of a body, what came from a workbook (TYPED, as a club's mail draws a
    player's name too) left out."""
    return BREAKABLE.findall(body.replace(mail_render.player(TYPED), "").replace(TYPED, "")
                             .replace(markup.escape(TYPED), ""))


def untagged(body: str) -> str:
    """A body's words without its markup (an HTML body's file name is a box with its marks: templates/mail/file_name.j2)."""
    return re.sub(r"<[^>]+>", "", body)

def club_bodies() -> tuple[str, str]:
    """A club's message with every part its templates have: two rankings (one provisional, with
    evolution), the club's bulletin, several attachments, the site's links."""
    row = {"rank": "1re ex aequo", "place": "1re place ex aequo", "player": TYPED, "points": "1 086",
           "evolution": ("▲", "2 places gagnées"), "moved": "▲ 2"}
    ranking = {"circuit": "Grand Sud", "title": "Classement après le tournoi d'Auch du 14 novembre 2026",
               "date": "14 novembre 2026", "final": False, "file": "a.pdf", "evolution": True, "score": "Points",
               "evolution_heading": ("Évol.", "Évolution"),
               "since": "depuis le classement au 24 octobre 2026",
               "unit": "points", "rows": [row],
               "awaited": "Classement provisoire : les résultats de Rodez du 13 juin sont attendus."}
    context = {"league": LEAGUE, "season": 2026, "club": "Albi", "of_club": "du club d'Albi",
               "rankings": [ranking, {**ranking, "awaited": "", "title": "Classement final"}],
               "files": ["a.pdf", "masters-a.pdf"], "own": "bulletin-ALBI-2026.pdf",
               "links": [{"title": "La page du club d'Albi", "url": "https://ligue.example.org/site/albi.html"}]}
    return mail_render.bodies("club", context)


def inbox_bodies() -> tuple[str, str]:
    """An answer with a workbook accepted (replacing another, with a warning), one held (another club's
    tournament, with a warning), two refused (one with the template, one with a warning too), one sent again unchanged
    (a warning still there), one refused again unchanged, one held again unchanged."""
    problems = (Said("Résultats", "A6", "Place", "« x » n’est pas une place", "écrivez un nombre : 1, 2, 3", "bad"),
                Said(None, None, None, "la feuille « Résultats » est introuvable", "", "layout"))
    warning = Said("Résultats", "C3", "Prénom", "le prénom de DUPONT est vide : deux joueurs DUPONT sans prénom",
                   "tapez son prénom dans cette case", "empty-first-name", "warning")
    filed = [Filed(TYPED, "0", "accepted", "grand-sud", TYPED, "2026-11-14", "p", (Replaced("old", "kept"),),
                   problems=(warning,)),
             Filed("b.xlsx", "1", "refused", "grand-sud", "", "", "p", problems=(*problems[:1], warning)),
             Filed("c.xlsx", "2", "refused", "grand-sud", "", "", "p", problems=problems[1:]),
             Filed("d.xlsx", "3", "held", "grand-sud", TYPED, "2026-11-21", "p", (Replaced("old", ""),),
                   problems=(warning,), owners=(Owner("NIME", "Nîmes"),)),
             Filed("e.xlsx", "4", "same", "grand-sud", TYPED, "2026-11-28", "p", problems=(warning,),
                   known_since="2026-11-30"),
             Filed("f.xlsx", "5", "refused", "grand-sud", "", "", "p", problems=problems[:1], known_since="2026-11-30"),
             Filed("g.xlsx", "6", "held", "grand-sud", TYPED, "2026-11-21", "p", owners=(Owner("NIME", "Nîmes"),),
                   known_since="2026-11-30")]
    received = Received("contact@albi.example.org", TYPED, "<a@b>", "", dt.date(2026, 12, 5))
    draft = compose(received, ALBI, filed, LEAGUE, CLUBS, "mail/inbox/x", "k").draft
    return draft.text, draft.html


def reminder_bodies(inputs: Path) -> list[str]:
    """A reminder of a tournament named in the calendar, of one known by its place, of a pool
    tournament whose workbook holds its registrations alone (in `inputs`), and of one not over past its
    Fin: their texts, then their HTML."""
    entries = [CalendarEntry(dt.date(2026, 11, 1), "grand-sud", TYPED, "Rodez", "ALBI", COMING),
               CalendarEntry(dt.date(2026, 11, 8), "grand-sud", "", "Le Grau-du-Roi", "ALBI", COMING),
               CalendarEntry(dt.date(2026, 10, 3), "poules", "Coupe en ligne", "en ligne", "ALBI", PLAYED,
                             "poules/coupe.xlsx", last=dt.date(2026, 11, 14), registered=True),
               CalendarEntry(dt.date(2026, 10, 4), "poules", "Open en ligne", "en ligne", "ALBI", PLAYED,
                             "poules/coupe.xlsx", last=dt.date(2026, 11, 14), running=True,
                             pending="le tour\u00a03 reste à jouer")]
    (inputs / "poules").mkdir(parents=True)
    (inputs / "poules" / "coupe.xlsx").write_bytes(b"its registrations")
    titles = {slug: info.title for slug, info in circuits.REGISTRY.items()}
    planned = reminding.plan(entries, CLUBS, dt.date(2026, 11, 29), 7, LEAGUE, titles, inputs=inputs)
    return ([reminder.message.text for reminder in planned.reminders]
            + [reminder.message.html or "" for reminder in planned.reminders])


def test_every_mail_body_has_french_typography_in_its_own_words_and_names_as_typed(tmp_path):
    club_text, club_html = club_bodies()
    inbox_text, inbox_html = inbox_bodies()
    reminders = reminder_bodies(tmp_path)
    assert len(reminders) == 8 and all(reminders)
    bodies = {"club text": club_text, "club HTML": club_html, "answer text": inbox_text, "answer HTML": inbox_html,
              **{f"reminder {n}": text for n, text in enumerate(reminders)}}
    assert {kind: breakable(body) for kind, body in bodies.items()} == {kind: [] for kind in bodies}
    # each signed with the league's name, set as the templates' own words
    assert [kind for kind, body in bodies.items() if "Ligue Sud\u00a0— Jeux\u00a0: Cie" not in body] == []
    # The words are those of the templates, only their spaces changed.
    assert "1re place ex aequo\u00a0: " in club_text and "(▲ 2 places gagnées)" in club_text
    assert "Places gagnées ou perdues depuis le classement au 24\u00a0octobre\u00a02026." in club_text
    assert "Évolution\u00a0: places gagnées ▲ ou perdues ▼ depuis le classement au 24\u00a0octobre\u00a02026." in club_html
    assert "joints en PDF\u00a0: a.pdf, masters-a.pdf." in club_text
    assert "Grand Sud\u00a0— Classement après" in club_text
    assert "Auch du 14\u00a0novembre\u00a02026<br>" in club_html and "Rodez du 13\u00a0juin sont attendus." in club_html
    assert "du 21\u00a0novembre\u00a02026 est un tournoi du club de Nîmes\u202f; votre classeur" in inbox_text
    assert "déjà refusé le 30\u00a0novembre\u00a02026\u202f; ses problèmes" in inbox_text
    held_again = "novembre\u00a02026, un tournoi du club de Nîmes\u202f; il est toujours gardé de côté, en attente"
    assert held_again in inbox_text and held_again in inbox_html
    assert "message du 5\u00a0décembre\u00a02026 («\u00a0" in inbox_text and "(colonne «\u00a0Place\u00a0»)" in inbox_html
    for said in ("Pour qu’il soit complet, voici encore ce que vous pouvez faire\u00a0:",
                 "voici aussi ce que vous pouvez faire (cela seul n’empêcherait pas son enregistrement)\u00a0:",
                 "est vide\u00a0: deux joueurs DUPONT", "renvoyez-le en réponse à ce message\u00a0: il remplacera",
                 "après modification\u00a0: c’est l’ancien",
                 "renvoyer en réponse à ce message\u00a0: il sera gardé de côté de la même façon"):
        assert said in inbox_text and said in inbox_html, said
    assert f"résultats de {TYPED} (Classement" in reminders[0]  # its name as typed, said once
    assert "en réponse à ce message\u202f? " in reminders[1] and "le 8\u00a0novembre\u00a02026, au Grau-du-Roi" \
        in reminders[1]
    # A name from a workbook is data: as typed, in every body (escaped in HTML, where it needs it).
    for body in [club_text, inbox_text, reminders[0]]:
        assert TYPED in body
    # (a club's table draws its surname and first name each in a box: render/mail.py `player`)
    assert mail_render.player(TYPED) == ('<span style="display: inline-block">QUI</span> <span style="display: '
                                         'inline-block">? « Jo » : X</span>')
    assert mail_render.player(TYPED) in club_html and markup.escape(TYPED) in inbox_html
    assert markup.escape(TYPED) in reminders[4]
    assert "ne contient que les inscriptions\u00a0: les résultats" in reminders[2] and "(2026-10-03-en-ligne.xlsx)\u00a0: il" \
        in untagged(reminders[6])
    for body in (reminders[3], reminders[7]):  # a pool tournament not over: what it awaits, and no season ranking
        assert "avant son classement final\u00a0: le tour\u00a03 reste à jouer." in body and "(2026-10-04-en-ligne.xlsx)\u00a0: il" \
            in untagged(body) and "Le classement du tournoi reste provisoire en attendant." in body


def test_every_mail_to_a_club_is_signed_the_same_from_one_place(tmp_path):
    """The reminders signed « Le secrétariat de la … », the inbox's answers and the bulletins' mail
    the league's name: one club got two signatures from one league. One macro signs them all."""
    club_text, club_html = club_bodies()
    inbox_text, inbox_html = inbox_bodies()
    reminders = reminder_bodies(tmp_path)
    league = french.typography(LEAGUE)
    for text in (club_text, inbox_text, *reminders[:4]):
        assert text.endswith(f"\n\nBien cordialement,\n{league}\n")
    for page in (club_html, inbox_html, *reminders[4:]):
        assert f"<p>Bien cordialement,<br>{markup.escape(league)}</p>\n</body>" in page
    assert "secrétariat de la Ligue" not in " ".join(reminders)
    # written once: no mail template signs by itself
    folder = mail_render.TEMPLATES / "mail"
    assert [p.name for p in sorted(folder.glob("*.j2")) if "cordialement" in p.read_text()] == ["signature.j2"]
