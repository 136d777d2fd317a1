"""Art. XII: every event that concerns a player is an e-mail draft to him. One notice of each kind,
written as the build writes it (.eml) and read back with the standard library's `email`."""

import datetime as dt
import email
import re
from email.policy import default

import pytest

from reportgen.circuits.poules import notices
from reportgen.circuits.poules.ranking import tournament_ranking
from reportgen.circuits.poules.settings import PoulesSettings
from reportgen.render.mail import to_eml
from tests.poules.test_builders import Tour, names

P = names(16)
LEAGUE = "Ligue d'échecs en ligne"


def p(seed: int) -> str:
    return P[seed - 1]


def drafts(tour: Tour) -> dict[str, email.message.EmailMessage]:
    tournament = tour.replay()
    found = notices.messages(tournament, tour.name, "2026/test", LEAGUE, PoulesSettings(), tournament_ranking(tournament))
    return {message.path: email.message_from_bytes(to_eml(message), policy=default) for message in found}


def body(draft) -> str:
    """The plain text's words, its no-break spaces as plain ones (their places:
    `test_every_notice_of_the_example_league_has_french_typography_in_its_own_words`)."""
    return spaced(draft.get_body(("plain",)).get_content())


def html(draft) -> str:
    return spaced(draft.get_body(("html",)).get_content())


def spaced(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


@pytest.fixture(scope="module")
def played():
    """16 players: three of pool A forfeit in round 1 (seed 12 of pool D is repêché), seeds 6 and 11
    play a barrage in pool C, seed 7 forfeits in pool B and is cleared; round 2 is written."""
    tour = Tour(16)
    tour.next()
    order = [p(n) for n in range(1, 17)]
    rank = {name: index for index, name in enumerate(order)}
    fixed = {(p(6), p(11)): "1-0", (p(11), p(6)): "1-0", (p(11), p(14)): "1-0", (p(14), p(11)): "0-1",
             (p(12), p(4)): "½-½", (p(4), p(12)): "½-½"}
    tour.play(lambda w, b: fixed.get((w, b)) or ("1-0" if rank[w] < rank[b] else "0-1"), skip={p(8), p(9), p(16)})
    for seed in (8, 9, 16):
        tour.forfeit(p(seed), 1, day=dt.date(2026, 9, 10))
    tour.forfeit(p(7), 1, rehabilitated=True, day=dt.date(2026, 9, 11))
    tour.next(dt.date(2026, 9, 19), barrages=True)
    tour.result(p(11), p(6), "0-1", phase="barrage")
    tour.next(dt.date(2026, 9, 22))
    return drafts(tour)


def test_a_round_starts_his_pool_his_opponents_and_colours_the_deadline(played):
    draft = played["2026/test/avis/tour-1/lancement-joueura-un"]
    assert draft["To"] == "joueura@example.org" and draft["Subject"] == "Tournoi test : tour 1, poule A"
    assert draft["Date"] == "Sat, 05 Sep 2026 09:00:00 +0000"
    text = body(draft)
    assert text.startswith("Bonjour Un JOUEURA,\n\nLe tour 1 du tournoi « Tournoi test » est lancé le 5 septembre "
                           "2026. Vous jouez dans la poule A avec JOUEURH Un, JOUEURI Un et JOUEURP Un.")
    assert "  - avec les Blancs contre JOUEURH Un\n" in text and "  - avec les Noirs contre JOUEURP Un" in text
    assert "Délai (Art. VII) : 14 jours, jusqu’au 19 septembre 2026." in text
    assert text.endswith("Bien cordialement,\nLigue d'échecs en ligne\n")
    assert "<li>avec les Blancs contre JOUEURH Un</li>" in html(draft) and "Ligue d&#x27;échecs en ligne" in html(draft)
    assert played["2026/test/avis/tour-2/lancement-joueura-un"]["Subject"].startswith("Tournoi test : tour 2, poule ")


def test_a_barrage_starts(played):
    draft = played["2026/test/avis/tour-1/barrage-joueurk-un"]
    assert draft["Subject"] == "Tournoi test : barrage, poule C" and draft["Date"] == "Sat, 19 Sep 2026 09:00:00 +0000"
    text = body(draft)
    assert "Vous êtes à égalité de points avec JOUEURF Un dans la poule C du tour 1" in text
    assert "  - avec les Blancs contre JOUEURF Un" in text and "jusqu’au 21 septembre 2026" in text


def test_his_final_place_in_his_pool(played):
    text = body(played["2026/test/avis/tour-1/classement-poule-joueurf-un"])
    assert ("Vous terminez à la 2e place de la poule C du tour 1 avec 3 points en 6 parties qui comptent. Le barrage vous a "
            "rapporté 1 point.") in text


@pytest.mark.parametrize("player, subject, words", [
    ("joueura-un", "qualification pour le tour 2", "Vous vous qualifiez pour le tour 2 (Art. V"),
    # C's third (11, after the barrage) and D's (12) both have ½ a game: C's date is 6's, who is level
    # on points with its third and registered before 12 (Art. X).
    ("joueurk-un", "repêchage pour le tour 2", "Un repêchage vous qualifie pour le tour 2 (Art. X)"),
    ("joueurl-un", "élimination au tour 1", "Votre parcours s’arrête au tour 1"),
])
def test_qualified_repeche_or_eliminated(played, player, subject, words):
    draft = played[f"2026/test/avis/tour-1/qualification-{player}"]
    assert draft["Subject"] == f"Tournoi test : {subject}" and words in body(draft)
    assert draft["Date"] == "Tue, 22 Sep 2026 09:00:00 +0000"  # the day the next round started


def test_a_repechage_says_how_many_places_the_forfeits_freed(played):
    """Pool A's forfeits freed one place (its bulletin: « 1 place libérée »): the notice said « des
    places qualificatives, attribuées aux meilleures troisièmes places »."""
    said = " ".join(body(played["2026/test/avis/tour-1/qualification-joueurk-un"]).split())
    assert ("des forfaits ont libéré 1 place qualificative, attribuée à la meilleure troisième place des autres "
            "poules.") in said


def test_a_forfeit_to_the_player_and_to_his_pool(played):
    own = played["2026/test/avis/tour-1/forfait-joueurh-un"]
    assert own["Subject"] == "Tournoi test : forfait au tour 1" and own["Date"] == "Thu, 10 Sep 2026 09:00:00 +0000"
    assert "Un forfait est prononcé contre vous au tour 1 du tournoi « Tournoi test » (Art. XI)" in body(own)
    mate = played["2026/test/avis/tour-1/forfait-joueurh-un-joueura-un"]
    assert mate["Subject"] == "Tournoi test : forfait de JOUEURH Un"
    assert "Le forfait de JOUEURH Un est prononcé au tour 1 (Art. XI). Vos parties contre JOUEURH Un ne comptent plus dans le classement de la poule A." in body(mate)


def test_a_rehabilitation_to_the_player_and_to_his_pool(played):
    own = played["2026/test/avis/tour-1/rehabilitation-joueurg-un"]
    assert "Votre forfait au tour 1 est levé (Art. XI)" in body(own)
    mate = played["2026/test/avis/tour-1/rehabilitation-joueurg-un-joueurb-un"]
    assert mate["Subject"] == "Tournoi test : réhabilitation de JOUEURG Un"


def test_cancellation_and_restoration_go_to_the_players_still_in():
    tour = Tour(4)
    tour.next()
    tour.forfeit(P[2], 1)
    tour.forfeit(P[3], 1, day=dt.date(2026, 9, 12))
    cancelled = drafts(tour)
    assert sorted(path for path in cancelled if "/annulation-" in path) == [
        "2026/test/avis/tour-1/annulation-joueura-un", "2026/test/avis/tour-1/annulation-joueurb-un"]
    draft = cancelled["2026/test/avis/tour-1/annulation-joueura-un"]
    assert draft["Subject"] == "Tournoi test : tournoi annulé" and draft["Date"] == "Sat, 12 Sep 2026 09:00:00 +0000"
    assert "est annulé (Art. XI)" in body(draft)
    tour.sheets["Forfaits"][2][3] = "oui"
    restored = drafts(tour)
    assert not any("/annulation-" in path for path in restored)
    assert sorted(path for path in restored if "/retablissement-" in path) == [
        f"2026/test/avis/tour-1/retablissement-joueur{x}-un" for x in "abd"]
    assert "est rétabli (Art. XI)" in body(restored["2026/test/avis/tour-1/retablissement-joueurd-un"])


def test_the_end_of_the_tournament_gives_each_his_final_place():
    tour = Tour(3)
    tour.next()
    tour.play()
    found = drafts(tour)
    assert found["2026/test/avis/tour-1/lancement-joueurb-un"]["Subject"] == "Tournoi test : tour final"
    draft = found["2026/test/avis/tour-1/qualification-joueurb-un"]
    assert draft["Subject"] == "Tournoi test : 2e place du tournoi"
    assert "Le tournoi « Tournoi test » est terminé : vous en prenez la 2e place (Art. VI)." in body(draft)


def test_a_player_without_address_gets_a_draft_without_recipient():
    tour = Tour(3, emails=False)
    tour.next()
    draft = drafts(tour)["2026/test/avis/tour-1/lancement-joueura-un"]
    assert draft["To"] in (None, "") and "Bonjour Un JOUEURA," in body(draft)


def test_names_are_escaped_in_the_html_body():
    tour = Tour(entrants=[("<b>MÉCHANT</b> Jean", 2000.0, dt.datetime(2026, 8, 1)),
                          ("DUPONT Ana", 1900.0, dt.datetime(2026, 8, 2)),
                          ("DURAND Léo", 1800.0, dt.datetime(2026, 8, 3))], emails=False)
    tour.next()
    page = html(drafts(tour)["2026/test/avis/tour-1/lancement-dupont-ana"])
    assert "<b>" not in page.replace("<body", "") and "&lt;B&gt;MÉCHANT&lt;/B&gt;" in page


# Words that agree with a person's gender, which the league does not know (a notice goes to Anaïs,
# Inès, Élodie as to Paul): a participle or an adjective of a person, « 1er » but in a date. Also
# the Masters bulletin's and the club bulletins' tests (test_example_league, test_club_bulletin).
GENDERED = re.compile(r"\b(?:qualifiée?s?|éliminée?s?|repêchée?s?|déclarée?s?|réintégrée?s?|inscrite?s?|classée?s?|"
                      r"départagée?s?|désistée?s?|invitée?s?|écartée?s?|premiers?|derniers?|seule?s?|"
                      r"1er(?!\s(?:janvier|février|mars|avril|mai|juin|"
                      r"juillet|août|septembre|octobre|novembre|décembre)\b))\b|\b[Vv]ous êtes (?!à\b)\w+")


def test_no_notice_of_the_example_league_says_its_reader_is_a_man(example_scored):
    """Every notice of the example league's two pool tournaments, subject, text and HTML: nothing in
    them agrees with the reader's gender, nor with another player's."""
    found = {}
    for message in example_scored.reports["poules"].messages:
        said = GENDERED.findall("\n".join([message.subject, message.text, message.html]))
        if said:
            found[message.path] = sorted(set(said))
    assert found == {}
    subjects = {m.subject.split(" : ", 1)[1] for m in example_scored.reports["poules"].messages}
    assert {"1re place de la poule A", "2e place de la poule A", "1re place du tournoi", "qualification pour le tour 2",
            "repêchage pour le tour 2", "élimination au tour 1", "forfait au tour 1"} <= subjects


# A plain space before « : ; ! ? », before « » » or after « «, or inside a long date (« 14 / novembre
# 2026 »): where a phone's line breaks (« » » alone on the launch notice's second line at 390 px).
BREAKABLE = re.compile(r" [:;!?»]|« |\b(?:1er|\d{1,2}) (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|"
                       r"octobre|novembre|décembre)\b|(?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|"
                       r"octobre|novembre|décembre) \d{4}\b")


def test_every_notice_of_the_example_league_has_french_typography_in_its_own_words(example_league, example_scored):
    """The notices' own words as the mails' templates' (render/mail.py): no-break spaces before « : ; ! ? »
    and inside « », long dates unbroken, in the text and the HTML; the names of the example league have
    none of those signs, so no breakable space is left anywhere in their bodies."""
    messages = example_scored.reports["poules"].messages
    assert len(messages) > 100
    found = {}
    for message in messages:
        said = BREAKABLE.findall(message.text) + BREAKABLE.findall(message.html.split("<body", 1)[1])
        if said:
            found[message.path] = sorted(set(said))
    assert found == {}
    launch = next(m for m in messages if "/lancement-" in m.path)
    assert "du tournoi «\u00a0" in launch.text and "\u00a0» est lancé le" in launch.text
    assert "Délai (Art. VII)\u00a0: " in launch.html


def test_a_name_in_a_notice_stays_as_typed():
    """A name from a workbook is data: its spaces are its own (the tournament's here, as its `Nom`
    cell gives it), the notice's words around it set as French typography wants them."""
    typed = "QUI ? « Jo » : X"
    tour = Tour(3, name=typed)
    tour.next()
    draft = drafts(tour)["2026/test/avis/tour-1/lancement-joueura-un"]
    text = draft.get_body(("plain",)).get_content()
    assert f"du tournoi «\u00a0{typed}\u00a0» est lancé" in text
    assert f"du tournoi «\u00a0{typed}\u00a0» est lancé" in draft.get_body(("html",)).get_content()
    assert draft["Subject"] == f"{typed} : tour final"  # a subject keeps plain spaces, as every mail's
