"""Generate the example league of examples/league/: two seasons (2025, 2026) of the Grand Sud circuit, the
Masters 2026 and the 2005 season of the Tour de France de Diplomatie.

Seeded and reproducible: the same run writes the same bytes. The workbooks look like what clubs
really send (docs/formats.md, "Tolerance"): title rows above the header, aliases ("Classement", "Rang"),
places written "1er" or "2e", a single "Joueur" column, a totals row, dates typed as text, fields of
the `Tournoi` sheet in any order with a colon.

    python scripts/generate_example_league.py examples/league
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter

from reportgen import french

SEED = 20260314
CREATED = dt.datetime(2026, 11, 1, 12, 0)

# Code, name, département: the 13 Grand Sud départements, and two clubs outside the region.
CLUBS = [
    ("FOIX", "Foix", "09"), ("CARC", "Carcassonne", "11"), ("RODZ", "Rodez", "12"),
    ("NIME", "Nîmes", "30"), ("TLSE", "Toulouse", "31"), ("AUCH", "Auch", "32"),
    ("MTPL", "Montpellier", "34"), ("CAHO", "Cahors", "46"), ("MEND", "Mende", "48"),
    ("TARB", "Tarbes", "65"), ("PERP", "Perpignan", "66"), ("ALBI", "Albi", "81"),
    ("MTBN", "Montauban", "82"), ("MARS", "Marseille", "13"), ("BORD", "Bordeaux", "33"),
]

LAST_NAMES = """MARTIN BERNARD THOMAS PETIT ROBERT RICHARD DURAND DUBOIS MOREAU LAURENT SIMON MICHEL LEFEBVRE
LEROY ROUX DAVID BERTRAND MOREL FOURNIER GIRARD BONNET DUPONT LAMBERT FONTAINE ROUSSEAU VINCENT MULLER LEFÈVRE
FAURE ANDRÉ MERCIER BLANC GUÉRIN BOYER GARNIER CHEVALIER FRANÇOIS LEGRAND GAUTHIER GARCIA PERRIN ROBIN CLÉMENT
MORIN NICOLAS HENRY ROUSSEL MATHIEU GAUTIER MASSON MARCHAND DUVAL DENIS DUMONT MARIE LEMAIRE NOËL MEYER DUFOUR
MEUNIER BRUN BLANCHARD GIRAUD JOLY RIVIÈRE LUCAS BRUNET GAILLARD BARBIER ARNAUD MARTINEZ GÉRARD ROCHE RENARD
SCHMITT ROY LEROUX COLIN VIDAL CARON PICARD ROGER FABRE AUBERT LEMOINE RENAUD DUMAS LACROIX OLIVIER PHILIPPE
BOURGEOIS PIERRE BENOÎT REY LECLERC PAYET ROLLAND LECLERCQ GUILLAUME LECOMTE LOPEZ JEAN DUPUY GUILLOT HUBERT
BERGER CARPENTIER SANCHEZ DUPUIS MOULIN LOUIS DESCHAMPS HUET VASSEUR PEREZ BOUCHER FLEURY ROYER KLEIN JACQUET
ADAM PARIS POIRIER MARTY AUBRY GUYOT CARRÉ CHARLES RENAULT CHARPENTIER MÉNARD MAILLARD BARON BERTIN BAILLY
HERVÉ SCHNEIDER FERNANDEZ LE_GALL COLLET LÉGER BOUVIER JULIEN PRÉVOST MILLET PERROT DANIEL LE_ROUX COUSIN
GERMAIN BRETON BESSON LANGLOIS RÉMY PELLETIER LÉVÊQUE PERRIER LEBLANC BARRÉ LEBRUN MARCHAL WEBER MALLET
HAMON BOULANGER JACOB MONNIER MICHAUD RODRIGUEZ GUICHARD GILLET ÉTIENNE GRONDIN POULAIN TESSIER CHEVALLIER
COLLIN CHAUVIN DA_SILVA BOUCHET GAY LEMAÎTRE BENARD MARÉCHAL HUMBERT REYNAUD ANTOINE HOARAU PERRET BARTHÉLEMY
CORDIER PICHON LEJEUNE GILBERT LAMY DELAUNAY PASQUIER CARLIER LAPORTE D'ARTAGNAN""".split()
FIRST_NAMES = """Jean Marie Michel Pierre Philippe Nathalie Isabelle Sylvie Catherine Françoise Alain Patrick
Christine Nicolas Christophe Daniel Bernard Monique Éric Jacques Frédéric Laurent Sandrine Valérie Stéphane
Hélène Pascal Sébastien Julien Céline Jean-Pierre Jean-François Marie-Claude Anne-Sophie Émilie Thierry Aurélie
Gérard Josiane Hervé Agnès Benoît Zoé Léa Chloé Maëlle Noël Gaëtan Joël Raphaël Cécile Thérèse Jérôme""".split()


@dataclass
class Player:
    last: str
    first: str
    licence: str
    club: str
    skill: float
    active: tuple[int, ...]  # seasons he plays


@dataclass
class Plan:
    date: dt.date
    club: str
    formula: str
    size: int
    series: str = ""
    name: str = ""


def players(rng: random.Random) -> list[Player]:
    result, used = [], set()
    grand_sud = [code for code, _, dep in CLUBS if dep not in ("13", "33")]
    while len(result) < 170:
        last = rng.choice(LAST_NAMES).replace("_", " ")
        first = rng.choice(FIRST_NAMES)
        if (last, first) in used:
            continue
        used.add((last, first))
        licence = str(10000 + len(result) * 37 % 9000) if rng.random() < 0.85 else ""
        # Some players skip 2025 and come back in 2026; a few stop after 2025.
        roll = rng.random()
        active = (2026,) if roll < 0.12 else (2025,) if roll < 0.2 else (2025, 2026)
        result.append(Player(last, first, licence, rng.choice(grand_sud + ["MARS"]), rng.gauss(0, 1), active))
    return result


SEASONS = {
    2025: [
        Plan(dt.date(2025, 1, 25), "CARC", "poules", 46), Plan(dt.date(2025, 2, 15), "ALBI", "duplicate", 28),
        Plan(dt.date(2025, 3, 8), "TLSE", "poules", 64, "TLSE-printemps", "Open de printemps de Toulouse"),
        Plan(dt.date(2025, 3, 29), "PERP", "duplicate", 31), Plan(dt.date(2025, 4, 19), "MTPL", "poules", 52),
        Plan(dt.date(2025, 5, 17), "MARS", "poules", 40), Plan(dt.date(2025, 5, 31), "MEND", "duplicate", 21),
        Plan(dt.date(2025, 6, 14), "RODZ", "duplicate", 26), Plan(dt.date(2025, 9, 20), "NIME", "poules", 38),
        Plan(dt.date(2025, 10, 11), "TARB", "duplicate", 24),
        Plan(dt.date(2025, 10, 25), "TLSE", "poules", 58, "TLSE-automne", "Open d'automne de Toulouse"),
        Plan(dt.date(2025, 11, 15), "CAHO", "duplicate", 23), Plan(dt.date(2025, 12, 6), "MTBN", "poules", 35),
    ],
    2026: [
        Plan(dt.date(2026, 1, 24), "CARC", "poules", 49), Plan(dt.date(2026, 2, 14), "ALBI", "duplicate", 30),
        Plan(dt.date(2026, 3, 14), "TLSE", "poules", 68, "TLSE-printemps", "Open de printemps de Toulouse"),
        Plan(dt.date(2026, 3, 14), "PERP", "duplicate", 27), Plan(dt.date(2026, 4, 18), "MTPL", "poules", 55),
        Plan(dt.date(2026, 5, 16), "BORD", "poules", 42), Plan(dt.date(2026, 6, 13), "RODZ", "duplicate", 25),
        Plan(dt.date(2026, 6, 27), "FOIX", "duplicate", 22), Plan(dt.date(2026, 9, 19), "NIME", "poules", 41),
        Plan(dt.date(2026, 10, 10), "TARB", "duplicate", 26),
        Plan(dt.date(2026, 10, 24), "TLSE", "poules", 61, "TLSE-automne", "Open d'automne de Toulouse"),
        Plan(dt.date(2026, 11, 14), "AUCH", "duplicate", 29),
    ],
}  # Mende plays in 2025 only: its points leave the rolling ranking at the final ranking of 2026.

CLUB_NAMES = {code: name for code, name, _ in CLUBS}


def tournament_results(plan: Plan, pool: list[Player], rng: random.Random) -> list[tuple[int, int, Player]]:
    """(final place, duplicate place, player), best first: skill plus the luck of the day."""
    local = [p for p in pool if p.club == plan.club]
    others = [p for p in pool if p.club != plan.club]
    rng.shuffle(local)
    rng.shuffle(others)
    field = (local[: plan.size // 3] + others)[: plan.size]
    duplicate = sorted(field, key=lambda p: -(p.skill + rng.gauss(0, 0.6)))
    duplicate_place = {id(p): index + 1 for index, p in enumerate(duplicate)}
    if plan.formula == "duplicate":
        final = duplicate
    else:  # pools reshuffle the duplicate order a little
        final = sorted(field, key=lambda p: duplicate_place[id(p)] + rng.gauss(0, 3))
    return [(index + 1, duplicate_place[id(p)], p) for index, p in enumerate(final)]


def place_text(place: int, style: int) -> object:
    if style == 1:
        return "1er" if place == 1 else f"{place}e"
    if style == 2:
        return str(place)  # a number stored as text
    return place


def typed_name(plan: Plan) -> str:
    """The tournament's name as a club types it: « Tournoi d'Albi », the straight apostrophe of a
    keyboard (reportgen's own words elide with ’, french.APOSTROPHE; a workbook's name is data)."""
    return plan.name or f"Tournoi {french.de(CLUB_NAMES[plan.club])}".replace(french.APOSTROPHE, "'")


def write_tournament(path: Path, plan: Plan, results, variant: int) -> None:
    book = xlsxwriter.Workbook(path, {"strings_to_numbers": False, "strings_to_formulas": False})
    book.set_properties({"created": CREATED, "author": f"Club de {CLUB_NAMES[plan.club]}"})
    bold = book.add_format({"bold": True})
    date_format = book.add_format({"num_format": "dd/mm/yyyy"})
    info = book.add_worksheet("Tournoi")
    club_value = plan.club if variant % 2 else CLUB_NAMES[plan.club]
    fields = [("Circuit", "grand-sud"), ("Nom", typed_name(plan)),
              ("Date", plan.date), ("Club", club_value), ("Formule", plan.formula),
              ("Lieu", CLUB_NAMES[plan.club])]
    if plan.series:
        fields.append(("Série", plan.series))
    if variant % 3 == 1:
        fields.reverse()  # fields in any order, with a colon
    row = 0
    if variant % 4 == 0:
        info.write_string(0, 0, "Champ", bold)
        info.write_string(0, 1, "Valeur", bold)
        row = 1
    for label, value in fields:
        info.write_string(row, 0, label + (" :" if variant % 3 == 1 else ""))
        if isinstance(value, dt.date):
            if variant % 5 == 2:
                info.write_string(row, 1, value.strftime("%d/%m/%Y"))  # a date typed as text
            else:
                info.write_datetime(row, 1, dt.datetime.combine(value, dt.time()), date_format)
        else:
            info.write_string(row, 1, value)
        row += 1
    info.set_column(0, 0, 14)
    info.set_column(1, 1, 36)

    sheet = book.add_worksheet("Résultats")
    top = 0
    if variant % 2 == 0:  # a title and a blank row above the header
        sheet.write_string(0, 0, f"{typed_name(plan)} — résultats", bold)
        top = 2
    single_name = variant % 5 == 3
    place_header = ["Place", "Classement", "Rang", "Clt"][variant % 4]
    headers = [place_header]
    headers += ["Joueur"] if single_name else ["Nom", "Prénom"]
    with_licence = variant % 7 != 5  # some clubs send no licences: players are known by name
    headers += ["Licence", "Club"] if with_licence else ["Club"]
    if plan.formula == "poules":
        headers.append(["Place duplicate", "Duplicate", "Rang duplicate"][variant % 3])
    if variant % 3 == 2:
        headers.append("Points au tournoi")  # an extra column the reader ignores
    for col, header in enumerate(headers):
        sheet.write_string(top, col, header, bold)
    style = variant % 3
    for index, (final, duplicate, player) in enumerate(results, start=top + 1):
        values = [place_text(final, style)]
        if single_name:
            values.append(f"{player.last} {player.first}" if index % 2 else f"{player.first} {player.last}")
        else:
            values += [player.last, player.first]
        values += [player.licence, CLUB_NAMES[player.club]] if with_licence else [CLUB_NAMES[player.club]]
        if plan.formula == "poules":
            values.append(duplicate)
        if variant % 3 == 2:
            values.append(max(0, 100 - final))
        for col, value in enumerate(values):
            if isinstance(value, int):
                sheet.write_number(index, col, value)
            elif value:
                sheet.write_string(index, col, value)
    if variant % 4 == 1:  # a totals row below the data
        sheet.write_string(top + len(results) + 2, 0, "Total joueurs", bold)
        sheet.write_number(top + len(results) + 2, 1, len(results))
    sheet.set_column(0, len(headers), 16)
    book.close()


def write_clubs(path: Path) -> None:
    book = xlsxwriter.Workbook(path)
    book.set_properties({"created": CREATED, "author": "Ligue Grand Sud"})
    sheet = book.add_worksheet("Clubs")
    text = book.add_format({"num_format": "@"})
    for col, header in enumerate(["Code", "Nom", "Département", "Email"]):
        sheet.write_string(0, col, header)
    for row, (code, name, dep) in enumerate(CLUBS, start=1):
        slug = code.lower()
        sheet.write_string(row, 0, code)
        sheet.write_string(row, 1, name)
        sheet.write_string(row, 2, dep, text)
        sheet.write_string(row, 3, f"contact@{slug}.example.org; president@{slug}.example.org")
    sheet.set_column(1, 1, 18)
    sheet.set_column(3, 3, 50)
    book.close()


def write_players(path: Path, pool: list[Player]) -> None:
    book = xlsxwriter.Workbook(path)
    book.set_properties({"created": CREATED, "author": "Ligue Grand Sud"})
    sheet = book.add_worksheet("Joueurs")
    for col, header in enumerate(["Licence", "Nom", "Prénom", "Club", "Autres graphies"]):
        sheet.write_string(0, col, header)
    for row, player in enumerate([p for p in pool if p.licence][:40], start=1):
        initials = "-".join(part[0] + "." for part in player.first.split("-"))
        aliases = f"{player.last} {initials}; {player.first} {player.last.title()}"
        for col, value in enumerate([player.licence, player.last, player.first, CLUB_NAMES[player.club], aliases]):
            sheet.write_string(row, col, value)
    sheet.set_column(0, 4, 18)
    book.close()


def main(folder: Path) -> None:
    rng = random.Random(SEED)
    pool = players(rng)
    folder.mkdir(parents=True, exist_ok=True)
    write_clubs(folder / "clubs.xlsx")
    write_players(folder / "joueurs.xlsx", pool)
    variant = 0
    for season, plans in SEASONS.items():
        (folder / str(season)).mkdir(exist_ok=True)
        active = [p for p in pool if season in p.active]
        for plan in plans:
            results = tournament_results(plan, active, rng)
            name = f"{plan.date.isoformat()}-{CLUB_NAMES[plan.club].lower().replace('î', 'i')}.xlsx"
            write_tournament(folder / str(season) / name, plan, results, variant)
            variant += 1
    write_masters(folder)
    write_tour_de_france(folder, random.Random(2005))
    from example_tantrix import write as write_tantrix  # scripts/example_tantrix.py

    write_tantrix(folder)
    from example_poules import write as write_poules  # scripts/example_poules.py

    write_poules(folder)


# -- the Masters 2026 ------------------------------------------------------------------------

MASTERS_DAY = dt.date(2026, 11, 28)
MASTERS_WITHDRAWN_RANK = 5  # one qualified player withdraws: the 17th steps in


def simulate_masters(players, rng: random.Random):
    """Scores of the 120 matches: coups won out of 12 (both players win a coup they solve
    equally well), tops made; the better ranked player is a little stronger."""
    from reportgen.circuits.masters.schedule import SCHEDULE
    from reportgen.circuits.masters.standings import Match

    strength = {p.number: 1.0 - p.number / 40 for p in players}
    matches = []
    for round_index, pairs in enumerate(SCHEDULE, start=1):
        for table, (a, b) in enumerate(pairs, start=1):
            score = {a: 0, b: 0}
            tops = {a: 0, b: 0}
            for _ in range(12):
                quality = {n: strength[n] + rng.choice((-0.3, -0.15, 0, 0, 0.15, 0.3)) for n in (a, b)}
                best = max(quality.values())
                for n in (a, b):
                    if quality[n] == best:
                        score[n] += 1
                    if quality[n] >= 0.9:
                        tops[n] += 1
            matches.append(Match(round_index, table, a, b, score[a], score[b], tops[a], tops[b]))
    return matches


def write_masters(folder: Path) -> None:
    """The Masters workbook of 2026, every match played, chosen so that one place is decided by
    tops and one by head-to-head (the bulletin shows both)."""
    from reportgen.circuits.masters import documents
    from reportgen.circuits.masters.parse import Withdrawal
    from reportgen.circuits.masters.results import participants
    from reportgen.circuits.masters.settings import MastersSettings
    from reportgen.circuits.masters.standings import HEAD_TO_HEAD, TOPS, standings
    from reportgen.ingest.text import split_full_name
    from reportgen.model import Entry, SourceRef
    from reportgen.pipeline import load, score
    from reportgen.render.excel import render_annex

    target = folder / "masters" / "masters-2026.xlsx"
    target.unlink(missing_ok=True)
    league = load(folder, MASTERS_DAY)
    final = next(r for r in score(league, ["grand-sud"]).reports["grand-sud"].rankings if r.final and r.season == 2026)
    leaving = final.rows[MASTERS_WITHDRAWN_RANK - 1]
    last, first = split_full_name(leaving.player)
    withdrawal = Withdrawal(Entry(leaving.licence, last, first), SourceRef("generator"))
    players, _ = participants(final, [withdrawal])
    settings = MastersSettings()
    for seed in range(10_000):
        matches = simulate_masters(players, random.Random(seed))
        lines = standings(players, matches, settings)
        decided = {criterion for line in lines for criterion in line.decided_by}
        if {TOPS, HEAD_TO_HEAD} <= decided and not any(line.barrage for line in lines):
            break
    kept = {(m.round, m.table): (m.score_a, m.score_b, m.tops_a, m.tops_b) for m in matches}
    workbook = documents.results_workbook(2026, "Masters Grand Sud 2026", MASTERS_DAY, "Carcassonne", players,
                                          [withdrawal], kept, settings)
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(render_annex(workbook))


# -- the Tour de France 2005 (Diplomacy) ----------------------------------------------------------

# The 18 tournaments the regulation lists for 2005, with plausible fields.
TDF_2005 = [
    ("Ier tournoi du Dauphiné", "Sassenage", dt.date(2005, 3, 19), 22),
    ("Tournoi International de Lyon", "Lyon", dt.date(2005, 4, 9), 14),
    ("Ier open du Génie de la Lampe", "Sierre", dt.date(2005, 4, 23), 17),
    ("IIème Coupe de Lorraine", "Metz", dt.date(2005, 5, 7), 19),
    ("DiploNam XII, Championnat de Belgique", "Namur", dt.date(2005, 5, 14), 28),
    ("IIe Rencontres Alsaciennes", "Strasbourg", dt.date(2005, 5, 21), 16),
    ("Championnat d'Europe", "Utrecht", dt.date(2005, 6, 10), 100),
    ("Championnat d'Ile de France", "Champs-sur-Marne", dt.date(2005, 6, 25), 35),
    ("IVe Coupe de Bruxelles", "Louvain-la-Neuve", dt.date(2005, 7, 2), 21),
    ("Festival Ludique International de Parthenay", "Parthenay", dt.date(2005, 7, 9), 42),
    ("Iere Coupe du Dragon", "Mons", dt.date(2005, 9, 10), 11),
    ("Ier Championnat de la Méditerranée", "Marseille", dt.date(2005, 9, 17), 15),
    ("Anjou Feu", "Angers", dt.date(2005, 9, 23), 13),
    ("Tournoi de Reims", "Reims", dt.date(2005, 10, 9), 6),
    ("XXe Championnat de France", "Paris", dt.date(2005, 10, 29), 70),
    ("Joutes du Téméraire", "Nancy", dt.date(2005, 11, 5), 18),
    ("Tournoi de Lille", "Lille", dt.date(2005, 11, 26), 9),
    ("DipLyon III, Coupe de France", "Lyon", dt.date(2005, 12, 3), 49),
]
TDF_CREATED = dt.datetime(2005, 12, 31, 12, 0)


def write_tour_de_france(folder: Path, rng: random.Random) -> None:
    pool = []
    used = set()
    while len(pool) < 140:
        last = rng.choice(LAST_NAMES).replace("_", " ")
        first = rng.choice(FIRST_NAMES)
        if (last, first) not in used:
            used.add((last, first))
            pool.append((last, first, rng.gauss(0, 1)))
    (folder / "tour-de-france" / "2005").mkdir(parents=True, exist_ok=True)
    for index, (name, town, day, size) in enumerate(TDF_2005):
        field = rng.sample(pool, size)
        order = sorted(field, key=lambda p: -(p[2] + rng.gauss(0, 0.8)))
        places, place = [], 1
        for position, _ in enumerate(order, start=1):
            # an ex aequo now and then: the tournament director did not split two players
            if position > 3 and places and rng.random() < 0.08 and places[-1] == position - 1:
                places.append(places[-1])
            else:
                places.append(position)
        excluded = {order[-1][:2]} if index % 5 == 2 else set()  # the organiser left himself out
        book = xlsxwriter.Workbook(folder / "tour-de-france" / "2005" / f"{day.isoformat()}-{slug(town)}.xlsx",
                                   {"strings_to_numbers": False, "strings_to_formulas": False})
        book.set_properties({"created": TDF_CREATED, "author": f"Tournoi de {town}"})
        info = book.add_worksheet("Tournoi")
        date_format = book.add_format({"num_format": "dd/mm/yyyy"})
        for row, (label, value) in enumerate([("Circuit", "tour-de-france"), ("Nom", name), ("Date", day),
                                              ("Lieu", town)]):
            info.write_string(row, 0, label)
            if isinstance(value, dt.date):
                info.write_datetime(row, 1, dt.datetime.combine(value, dt.time()), date_format)
            else:
                info.write_string(row, 1, value)
        sheet = book.add_worksheet("Résultats")
        for col, header in enumerate(["Place", "Nom", "Prénom", "Hors classement"]):
            sheet.write_string(0, col, header)
        for row, ((last, first, _), place) in enumerate(zip(order, places), start=1):
            sheet.write_number(row, 0, place)
            sheet.write_string(row, 1, last)
            sheet.write_string(row, 2, first)
            if (last, first) in excluded:
                sheet.write_string(row, 3, "oui")
        book.close()


def slug(text: str) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).lower().replace(" ", "-")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "examples/league"))
