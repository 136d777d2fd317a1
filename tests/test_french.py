"""French formatting: what every reader of a bulletin sees."""

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from reportgen import french


def test_dates_read_like_french_dates():
    assert french.date_long(dt.date(2026, 3, 14)) == "14 mars 2026"
    assert french.date_long(dt.date(2026, 5, 1)) == "1er mai 2026"
    assert french.date_short(dt.date(2026, 3, 4)) == "04/03/2026"


def test_days_of_play_read_from_the_first_to_the_last_each_word_said_once():
    span = french.date_span
    assert span(dt.date(2026, 9, 5), dt.date(2026, 10, 6)) == "du 5 septembre au 6 octobre 2026"
    assert span(dt.date(2026, 3, 1), dt.date(2026, 3, 14)) == "du 1er au 14 mars 2026"
    assert span(dt.date(2026, 12, 28), dt.date(2027, 1, 4)) == "du 28 décembre 2026 au 4 janvier 2027"
    assert span(dt.date(2026, 5, 1), dt.date(2026, 5, 1)) == "1er mai 2026"  # one day: its date
    # on a page, each day kept with its month (« du 5 » may end a line, « septembre » never starts one)
    assert french.day_month_kept(span(dt.date(2026, 9, 5), dt.date(2026, 10, 6))) == (
        "du 5\u00a0septembre au 6\u00a0octobre 2026")


def test_numbers_group_thousands_with_a_narrow_no_break_space_and_use_a_decimal_comma():
    assert french.number(1086) == "1\u202f086"
    assert french.number(12.5, 1) == "12,5"
    assert french.number(-3) == "−3"


def test_points_keep_their_fractions_and_never_round_away():
    assert french.points(6910) == "6\u202f910"
    assert french.points(292.5) == "292,5"
    assert french.points(2323.75) == "2\u202f323,75"
    assert french.points(100.0) == "100"


def test_plurals_and_elision():
    assert french.plural(1, "tournoi") == "1 tournoi" and french.plural(2, "tournoi") == "2 tournois"
    # the elision is French's, with its typographic apostrophe; a name's own is as typed (data)
    assert french.de("Open d'Albi") == "de l’Open d'Albi" and french.de("L'Union") == "de L'Union"
    assert french.de("Albi") == "d’Albi" and french.de("Toulouse") == "de Toulouse"
    assert french.of_club("Foix") == "du club de Foix" and french.of_club("Albi") == "du club d’Albi"
    assert french.of_club("Club de Foix") == "du Club de Foix"  # « club » said once
    assert french.ordinal(1) == "1er" and french.ordinal(17) == "17e"
    assert french.ordinal(1, feminine=True) == "1re" and french.ordinal(2, feminine=True) == "2e"  # la 1re place


def test_a_place_said_once_for_every_use():
    """« 1re place ex aequo » was built in four places (the Masters' play-off, `reportgen history`,
    the clubs' mails, a club's bulletin): french.place says it for all, with or without « place »."""
    assert french.place(1) == "1re place" and french.place(116, tied=True) == "116e place ex aequo"
    assert french.place(1, noun=False) == "1re" and french.place(116, True, noun=False) == "116e ex aequo"


def test_a_shared_place_as_the_tables_print_it():
    """« 3= »: a bulletin's table (pools, Masters) and a player's page each wrote it."""
    assert french.shared_place(3, True) == "3=" and french.shared_place(12, False) == "12"


def test_a_place_s_article_contracts_with_de_and_a_but_la_and_l_do_not():
    assert [french.de(name) for name in ("Le Grau-du-Roi", "Les Sables-d'Olonne", "La Rochelle", "L'Isle-Jourdain")] == [
        "du Grau-du-Roi", "des Sables-d'Olonne", "de La Rochelle", "de L'Isle-Jourdain"]
    assert [french.at(name) for name in ("Le Grau-du-Roi", "Les Sables-d'Olonne", "La Rochelle", "L'Isle-Jourdain",
                                         "Albi")] == [
        "au Grau-du-Roi", "aux Sables-d'Olonne", "à La Rochelle", "à L'Isle-Jourdain", "à Albi"]
    # A place that says where already (an online tournament's Lieu): « à en ligne » was written.
    assert [french.at(name) for name in ("en ligne", "en Ariège", "sur Internet", "Ens")] == [
        "en ligne", "en Ariège", "sur Internet", "à Ens"]
    # and « d’en ligne »: a calendar row of an online tournament without a name was « Tournoi d’en ligne »
    assert [french.de(name) for name in ("en ligne", "sur Internet", "Ens")] == ["en ligne", "sur Internet", "d’Ens"]
    # Only a capitalised article that starts the name: not a town that begins like one.
    assert [french.de(name) for name in ("Lens", "Lesparre", "le Mans")] == ["de Lens", "de Lesparre", "de le Mans"]
    assert french.of_club("Le Grau-du-Roi") == "du club du Grau-du-Roi"


def test_names_are_joined_with_et():
    assert [french.joined(names) for names in ([], ["A"], ["A", "B"], ["A", "B", "C"])] == ["", "A", "A et B",
                                                                                         "A, B et C"]


def test_a_long_list_says_how_many_it_leaves_out():
    assert [french.listed(names, 2) for names in ([], ["A"], ["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"])] == [
        "", "A", "A et B", "A, B et 1 autre", "A, B et 2 autres"]
    assert french.listed([str(n) for n in range(1090)], 4) == "0, 1, 2, 3 et 1\u202f086 autres"
    assert [french.others(n, "nom") for n in (1, 2)] == ["et 1 autre nom", "et 2 autres noms"]


@given(st.lists(st.text(alphabet="ABCÉ’ -", min_size=1, max_size=6), max_size=30), st.integers(1, 40))
def test_any_list_cut_at_any_limit(names, limit):
    said = french.listed(names, limit)
    if len(names) <= limit:
        assert said == french.joined(names)
    else:
        left = len(names) - limit
        shown = ", ".join(names[:limit])
        assert said == f"{shown} et {left} {'autre' if left == 1 else 'autres'}"


def test_typography_keeps_the_signs_with_their_words():
    # a no-break space before « : » and inside guillemets, a narrow one before « ; ! ? »
    assert french.typography("la feuille « Tournoi » est introuvable : ajoutez-la ; merci ! ou ? ") == (
        "la feuille «\u00a0Tournoi\u00a0» est introuvable\u00a0: ajoutez-la\u202f; merci\u202f! ou\u202f? ")
    assert french.typography("'Résultats'!E3, http://exemple.org") == "'Résultats'!E3, http://exemple.org"
    # an em dash between words, as a separator: kept with the word before it, as « : » is
    assert french.typography("Tournois de Tantrix sur Internet — le règlement") == (
        "Tournois de Tantrix sur Internet\u00a0— le règlement")
    # a template's words between two values (render/mail.py gives them alone) are kept with the first
    assert french.typography(" — ") == "\u00a0— "
    # a dash opening a line or an indented item has no word to be kept with: as it is
    assert french.typography("Problèmes :\n — la feuille\n  — la ligne") == "Problèmes\u00a0:\n — la feuille\n  — la ligne"
    # a percentage's sign kept with its number, a narrow space as the thousands' (« 62,2 % » cut on a phone
    # left « % » alone on a line), and a round, a pool's round or a table with its number
    assert french.typography("62,2 % des parties, 80 % du 1er") == "62,2\u202f% des parties, 80\u202f% du 1er"
    assert french.typography("éliminé à la ronde 2, Ronde 3, tour 12, table 4") == (
        "éliminé à la ronde\u00a02, Ronde\u00a03, tour\u00a012, table\u00a04")
    assert french.typography("la ronde finale, le tour de France") == "la ronde finale, le tour de France"


@given(st.one_of(st.integers(-10**7, 10**7), st.floats(-1e7, 1e7, allow_nan=False)))
def test_a_value_formatted_once_reads_the_same_as_formatted_again_whatever_its_type(value):
    """`number` and `points` keep each value's text (a league's values repeat): an equal value of
    another type (1 and 1.0, True) that shares its entry has the same text anyway."""
    for twin in (value, float(value), int(value)):
        assert french.points(twin) == french.points.__wrapped__(twin)
        for decimals in (0, 2):
            assert french.number(twin, decimals) == french.number.__wrapped__(twin, decimals)


def test_dates_kept_binds_a_long_dates_words_and_nothing_else():
    assert french.dates_kept("du 14 novembre 2026 et du 1er mai") == "du 14\u00a0novembre\u00a02026 et du 1er\u00a0mai"
    assert french.dates_kept("3 janvier attendus, juin 2026 compte 30 jours") == "3\u00a0janvier attendus, juin 2026 compte 30 jours"


def test_a_page_binds_a_long_dates_day_to_its_month_and_leaves_the_year_free():
    """A page (french.day_month_kept): « 14 » never alone at a line's end, the year free to go below
    in a narrow column; a mail keeps the whole date (dates_kept, above)."""
    assert french.day_month_kept("Classement après le tournoi d'Auch du 14 novembre 2026") == (
        "Classement après le tournoi d'Auch du 14\u00a0novembre 2026")
    assert french.day_month_kept("du 1er mai au 31 décembre") == "du 1er\u00a0mai au 31\u00a0décembre"
    # no long date: a short one, a month without its day, a number before another word, a longer number
    for text in ("14/11/2026", "juin 2026 compte 30 jours", "12 tournois", "2026 mars", "le 114 mars",
                 "14 marsupiaux"):
        assert french.day_month_kept(text) == text
    # date_long's own words keep their plain spaces: the CSV, the annexes and the site's JSON use them
    assert french.date_long(dt.date(2026, 11, 14)) == "14 novembre 2026"


def test_a_name_that_starts_with_a_common_noun_takes_its_article_which_de_and_a_contract():
    # A club's name (clubs.xlsx names most by their town, some by what they are) or a tournament's
    # (the calendar's « résultats de l'Open de Toulouse du 13 juin attendus »).
    assert [french.de(name) for name in ("Club de Foix", "Cercle de Rodez", "Amicale des joueurs d'Albi",
                                         "Association ludique de Mende", "Open de Toulouse", "Tournoi d'Albi",
                                         "Coupe d'automne", "Rencontres d'Albi", "Week-end de printemps",
                                         "Le Cercle de Foix")] == [
        "du Club de Foix", "du Cercle de Rodez", "de l’Amicale des joueurs d'Albi", "de l’Association ludique de Mende",
        "de l’Open de Toulouse", "du Tournoi d'Albi", "de la Coupe d'automne", "des Rencontres d'Albi",
        "du Week-end de printemps", "du Cercle de Foix"]
    assert [french.at(name) for name in ("Club de Foix", "Amicale de Rodez", "Coupe d'automne", "Rencontres")] == [
        "au Club de Foix", "à l’Amicale de Rodez", "à la Coupe d'automne", "aux Rencontres"]
    # The whole first word, case aside: a town that starts like a noun keeps its plain « de ».
    assert [french.de(name) for name in ("CLUB DE FOIX", "Clubville", "Maisons-Alfort", "L'Union", "Le Mans")] == [
        "du CLUB DE FOIX", "de Clubville", "de Maisons-Alfort", "de L'Union", "du Mans"]


def test_a_tournament_is_named_after_its_article_as_a_sentence_names_it():
    """The Tour de France's titles said « Classement après Ier tournoi du Dauphiné », « … après
    Championnat d'Europe »: its noun's article, never elided before an edition's numeral, « tournoi »
    a common noun, a name whose noun is not known as it is."""
    assert [french.the(name) for name in (
        "Ier tournoi du Dauphiné", "Championnat d'Europe", "Tournoi de Reims", "IIe Rencontres Alsaciennes",
        "IVe Coupe de Bruxelles", "IIème Coupe de Lorraine", "XXe Championnat de France", "Open d'automne",
        "Le Cercle de Foix", "Le Mans Open", "DipLyon III, Coupe de France", "Anjou Feu")] == [
        "le Ier tournoi du Dauphiné", "le Championnat d'Europe", "le tournoi de Reims", "les IIe Rencontres Alsaciennes",
        "la IVe Coupe de Bruxelles", "la IIème Coupe de Lorraine", "le XXe Championnat de France", "l’Open d'automne",
        "le Cercle de Foix", "le Mans Open", "DipLyon III, Coupe de France", "Anjou Feu"]


def test_a_club_is_called_a_club_once():
    assert [french.the_club(name) for name in ("Perpignan", "Le Grau-du-Roi", "Club de Foix", "Amicale de Rodez",
                                               "Les Amis du jeu")] == [
        "le club de Perpignan", "le club du Grau-du-Roi", "le Club de Foix", "l’Amicale de Rodez", "les Amis du jeu"]
    assert [french.of_club(name) for name in ("Cercle de Rodez", "Amicale de Rodez", "Les Amis du jeu")] == [
        "du Cercle de Rodez", "de l’Amicale de Rodez", "des Amis du jeu"]
    assert [french.at_club(name) for name in ("Albi", "Club de Foix", "Amicale de Rodez", "Les Amis du jeu")] == [
        "au club d’Albi", "au Club de Foix", "à l’Amicale de Rodez", "aux Amis du jeu"]
    # a club's page's heading (site/club_page.py)
    assert [french.club_title(name) for name in ("Auch", "Le Grau-du-Roi", "Club de Foix", "Amicale de Rodez",
                                                 "Les Amis du jeu")] == [
        "Club d’Auch", "Club du Grau-du-Roi", "Club de Foix", "Amicale de Rodez", "Les Amis du jeu"]


# Names as clubs.xlsx, the calendar and the workbooks give them: an article of their own or none, a
# first word that is a noun (any case), a town, or a word that begins like one, then anything.
_NAMES = st.builds(
    lambda own, first, rest: own + first + rest,
    st.sampled_from(["", "", "Le ", "Les ", "La ", "L'"]),
    st.sampled_from(["Club", "club", "CLUB", "Cercle", "Amicale", "Association", "Open", "Tournoi", "Coupe",
                     "Rencontres", "Amis", "Toulouse", "Albi", "Foix", "Mans", "Grau-du-Roi", "Isle-Jourdain", "Union",
                     "Maisons-Alfort", "Clubville", "Lens", "Hyères"]),
    st.one_of(st.just(""), st.text(st.sampled_from("abcé' -"), max_size=8).map(lambda text: " " + text)))
# What « de » and « à » become before the same name: the same article, contracted alike.
_PAIRS = {("du ", "au "), ("des ", "aux "), ("de la ", "à la "), ("de l’", "à l’"), ("de ", "à "), ("d’", "à ")}


@given(_NAMES)
def test_de_and_a_keep_the_name_and_contract_the_same_article(name):
    of, to = french.de(name), french.at(name)
    # The name is kept, as written, but for its own « Le » or « Les », which « de » and « à » absorb.
    kept = name.removeprefix("Le ").removeprefix("Les ") if name.startswith(("Le ", "Les ")) else name
    prefixes = (of[:len(of) - len(kept)], to[:len(to) - len(kept)])
    assert of.endswith(kept) and to.endswith(kept) and prefixes in _PAIRS
    # Never an article left uncontracted (« de le Club », « à les Amis »).
    assert not of.casefold().startswith(("de le ", "de les ")) and not to.casefold().startswith(("à le ", "à les "))
    # A club: « club » added only before a name that does not say what it is (« le club de Foix »,
    # « le Club de Foix », never « le club du Club de Foix »), and its three forms agree.
    the = french.the_club(name)
    said = the[:len(the) - len(kept)]
    assert the.endswith(kept) and said in ("le ", "la ", "les ", "l’", "le club de ", "le club d’", "le club du ",
                                           "le club des ")
    if said.startswith("le club "):
        assert not kept.casefold().startswith("club ") and kept.casefold() != "club"
        assert (french.of_club(name), french.at_club(name)) == ("du club " + of, "au club " + of)
    else:
        assert (french.of_club(name), french.at_club(name)) == (of, to)
def test_an_evolution_reads_signed_with_an_equals_sign_for_none_and_nouveau_for_a_newcomer():
    """Places gained as a ranking holds them (the CSV's « +3 », "-2", "0") or as the site's data
    writes them, and a rating's change with its decimal: one text wherever it is shown."""
    assert [french.evolution(v) for v in ("+3", "-2", "\u22122", "0", "=", "nouveau", None, 3)] == [
        "+3", "\u22122", "\u22122", "=", "=", "nouveau", "nouveau", "+3"]
    assert [french.evolution(v, 1) for v in (52.6, -4.0, 0.0, 0.04)] == ["+52,6", "\u22124,0", "=", "="]
    assert french.signed(0.04, 1) == "0,0" and french.signed(-3) == "\u22123" and french.signed(2) == "+2"


def test_a_column_s_value_has_its_decimals_wherever_it_is_shown():
    from reportgen.model import Column

    rating = Column("rating", "Classement Elo", "number", decimals=1)
    assert french.column_value(1991.0, rating) == "1\u202f991,0" and french.column_value(1512.34, rating) == "1\u202f512,3"
    assert french.column_value(0.5, Column("average", "Moyenne", "number", decimals=3)) == "0,500"
    assert french.column_value(292.5, Column("points", "Points", "number")) == "292,5"
    assert french.column_value(1086, Column("points", "Points")) == "1\u202f086"
    assert french.column_value(None, Column("change", "Évolution", "evolution", decimals=1)) == "nouveau"
    assert french.column_value(True, Column("seed", "TS", "bool")) == "oui"
    assert french.column_value(None, Column("points", "Points")) == ""


def test_a_score_counted_in_halves_reads_with_a_half_sign():
    """Tantrix's games won, a draw ½: « 2½ » as its bulletins always wrote it, never « 2,5 »."""
    from reportgen.model import Column

    wins = Column("wins", "Gagnées", "number", halves=True)
    assert [french.column_value(v, wins) for v in (0, 0.5, 1, 2.5, 1086.5)] == ["0", "½", "1", "2½", "1\u202f086½"]
    assert french.halves(-2.5) == "\u22122½" and french.halves(12.25) == "12,25"
    assert french.column_value(2.5, Column("points", "Points", "number")) == "2,5"  # a pool's points stay as written


def test_a_column_names_the_values_it_gives_words_and_keeps_them_as_a_json_list_gives_them():
    """A pool tournament's round reached: « finale », « tour 2 » (its bulletin's words); a column
    read back from the archive's JSON (a list of lists) is the same, hashable column."""
    from reportgen.model import Column

    reached = Column("round_reached", "Tour atteint", labels=((1, "tour 1"), (2, "tour 2"), (3, "finale")))
    assert [french.column_value(v, reached) for v in (3, 2, 4, None)] == ["finale", "tour 2", "4", ""]
    read_back = Column("round_reached", "Tour atteint", labels=[[1, "tour 1"], [2, "tour 2"], [3, "finale"]])
    assert read_back == reached and hash(read_back) == hash(reached)


def test_de_before_a_person_s_name_is_elided_before_a_vowel_and_never_contracted():
    # « forfait de IMBERT Inès » in a pool's notice, where French writes « d’IMBERT »
    assert french.of_person("IMBERT Inès") == "d’IMBERT Inès"
    assert french.of_person("ÉMERY Luc") == "d’ÉMERY Luc" and french.of_person("Yves MARTIN") == "d’Yves MARTIN"
    assert french.of_person("Le Gall Anne") == "de Le Gall Anne"  # a place would be « du Gall »
    assert french.of_person("DUPONT Marie") == "de DUPONT Marie" and french.of_person("HUGO Victor") == "de HUGO Victor"


def test_a_quoted_sign_is_quoted_not_asked():
    # « « ? » n’est pas une place »: the space after « « » was made the narrow one of a question
    assert french.typography("« ? » n’est pas une place") == "«\u00a0?\u00a0» n’est pas une place"
    assert french.typography("Qui ? « Jo » !") == "Qui\u202f? «\u00a0Jo\u00a0»\u202f!"


def test_a_place_is_said_by_a_title_only_as_words_of_its_own():
    """The rule a tournament's card and the home page's calendar leave out its place by: « Lyon » is
    said by « Tournoi International de Lyon », not by « DipLyon III » (a substring said it)."""
    assert french.said_in("Lyon", "Tournoi International de Lyon")
    assert not french.said_in("Lyon", "DipLyon III, Coupe de France")
    assert french.said_in("Lyon", "DipLyon III", "Coupe de Lyon")  # one of the texts
    assert french.said_in("en ligne", "Tournoi en ligne par poules")
    assert not french.said_in("en ligne", "Tournoi en lignes")
    assert french.said_in("Saint-Étienne", "OPEN DE SAINT-ETIENNE") and french.said_in("Albi", "Tournoi d’Albi")
    assert not french.said_in("Albi", "Albion Cup")
