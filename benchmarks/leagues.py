"""The leagues the benchmark builds: 1x is the example league, 10x and 100x are seeded Grand Sud leagues.

    python -m benchmarks.leagues 10        # generate benchmarks/leagues/10x/ (once; cached)

| scale | clubs | Grand Sud tournaments a season | players | result rows | circuits |
|---|---|---|---|---|---|
| 1x   | 15  | 12-13 (examples/league, copied) | 170    | ~1,000   | Grand Sud, Masters, Tour de France |
| 10x  | 30  | 200                            | 1,700  | ~20,000  | Grand Sud |
| 100x | 100 | 2,000                          | 17,000 | ~200,000 | Grand Sud |

Both seasons of the example (2025 and 2026). Tournaments are on Saturdays (January to June,
September to mid-December), so a season has about 41 dated bulletins whatever the scale; several
tournaments share a date from 10x on, and nobody plays two tournaments the same day. A club's
tournaments form one series (no `Série` field), as in most of the example: each ranking counts the
latest edition of each club, so a bulletin has at most one column per club.

The workbooks are written by the example generator's own writer (`write_tournament` of
scripts/generate_example_league.py: its title rows, header aliases, places typed as text, totals
rows, dates typed as text and workbooks without licences, in turn), with xlsxwriter and a fixed
creation date: the same seed gives the same bytes. Each league also gets one more tournament, kept
aside in `benchmarks/leagues/<scale>x.extra/`: the benchmark adds it to a copy of the league to time
a rebuild after a new tournament arrives.

Generated once under benchmarks/leagues/ (git-ignored); a league is generated again when this file,
the example generator or (1x) the example league changes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
import json
import random
import shutil
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "benchmarks" / "leagues"
EXAMPLE = ROOT / "examples" / "league"
EXAMPLE_GENERATOR = ROOT / "scripts" / "generate_example_league.py"
STAMP = ".league.json"  # hidden: discover() skips it
SEASONS = (2025, 2026)
SCALES = (1, 10, 100)


@dataclass(frozen=True)
class Shape:
    clubs: int
    per_season: int  # Grand Sud tournaments a season
    players: int
    sizes: tuple[int, int] = (20, 80)  # players of a tournament, uniform: 50 on average


SHAPES = {10: Shape(clubs=30, per_season=200, players=1_700), 100: Shape(clubs=100, per_season=2_000, players=17_000)}

# Towns of the Grand Sud départements besides the example's (and a few outside, whose tournaments are
# « hors circuit » like Marseille's and Bordeaux's in the example).
TOWNS = [
    ("Pamiers", "09"), ("Saint-Girons", "09"), ("Lavelanet", "09"), ("Narbonne", "11"), ("Castelnaudary", "11"),
    ("Limoux", "11"), ("Millau", "12"), ("Villefranche-de-Rouergue", "12"), ("Decazeville", "12"), ("Alès", "30"),
    ("Bagnols-sur-Cèze", "30"), ("Uzès", "30"), ("Beaucaire", "30"), ("Colomiers", "31"), ("Tournefeuille", "31"),
    ("Muret", "31"), ("Blagnac", "31"), ("Saint-Gaudens", "31"), ("Balma", "31"), ("Condom", "32"),
    ("Lectoure", "32"), ("Fleurance", "32"), ("Béziers", "34"), ("Sète", "34"), ("Agde", "34"), ("Lunel", "34"),
    ("Lodève", "34"), ("Figeac", "46"), ("Gourdon", "46"), ("Souillac", "46"), ("Marvejols", "48"),
    ("Langogne", "48"), ("Lourdes", "65"), ("Bagnères-de-Bigorre", "65"), ("Lannemezan", "65"), ("Céret", "66"),
    ("Prades", "66"), ("Argelès-sur-Mer", "66"), ("Castres", "81"), ("Gaillac", "81"), ("Lavaur", "81"),
    ("Carmaux", "81"), ("Castelsarrasin", "82"), ("Moissac", "82"), ("Caussade", "82"), ("Arles", "13"),
    ("Aix-en-Provence", "13"), ("Libourne", "33"), ("Arcachon", "33"),
]
# Surnames beyond the example's 200: syllables of the South-West, so that 17,000 players have about
# as many distinct names as a real population (the example's lists give 11,000 pairs at most).
PREFIXES = "BOU CAS MAR VIL LA ROU PEY SAL FAU BER GAR MON CAM LAC DEL FON SER CHA BRU ESC ALB TOR POU GAL RAY VER " \
           "LAB COM BAR MAS".split()
MIDDLES = ["", "TE", "SA", "RI", "NA", "BE", "LO", "DU", "MI", "RE"]
SUFFIXES = "GNAC ZAC SSAC RAN NEL LOU TIER VILLE RIEU DOU MONT ZET RAT SSOU GUE TEL BERT LHÈS NAUD QUET ROL DIEU " \
           "SSET RIÈRE".split()


def example_generator():
    """scripts/generate_example_league.py as a module (scripts/ is not a package)."""
    module = sys.modules.get("generate_example_league")
    if module is None:
        spec = importlib.util.spec_from_file_location("generate_example_league", EXAMPLE_GENERATOR)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module


def folder(scale: int) -> Path:
    return CACHE / f"{scale}x"


def extra_folder(scale: int) -> Path:
    """The tournament that arrives after the league (a rebuild of the benchmark adds it)."""
    return CACHE / f"{scale}x.extra"


def _digest(scale: int) -> str:
    digest = hashlib.sha256()
    sources = [Path(__file__), EXAMPLE_GENERATOR]
    if scale == 1:
        sources += sorted(p for p in EXAMPLE.rglob("*") if p.is_file())
    for path in sources:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def stamp(scale: int) -> dict | None:
    path = folder(scale) / STAMP
    return json.loads(path.read_text()) if path.is_file() else None


def ensure(scale: int, say=print) -> Path:
    """The league at that scale, generated now if missing or out of date."""
    if scale not in SCALES:
        raise ValueError(f"scale {scale}: one of {SCALES}")
    current = stamp(scale)
    if current and current.get("digest") == _digest(scale) and extra_folder(scale).is_dir():
        return folder(scale)
    say(f"generating the {scale}x league in {folder(scale).relative_to(ROOT)}/ (once)...")
    CACHE.mkdir(parents=True, exist_ok=True)
    work, extra = CACHE / f".tmp-{scale}x", CACHE / f".tmp-{scale}x.extra"
    for path in (work, extra):
        shutil.rmtree(path, ignore_errors=True)
    facts = _copy_example(work, extra) if scale == 1 else generate(SHAPES[scale], work, extra, seed=seed(scale))
    facts.update(scale=scale, digest=_digest(scale))
    (work / STAMP).write_text(json.dumps(facts, indent=1) + "\n")
    for source, target in ((work, folder(scale)), (extra, extra_folder(scale))):
        shutil.rmtree(target, ignore_errors=True)
        source.rename(target)
    return folder(scale)


def seed(scale: int) -> int:
    return example_generator().SEED + scale


# -- 1x: the example league ----------------------------------------------------------------------

def _copy_example(target: Path, extra: Path) -> dict:
    shutil.copytree(EXAMPLE, target)
    gen = example_generator()
    # The tournament that arrives next: Montauban, a week after the last Grand Sud tournament of 2026,
    # with the example's own players (the generator's pool is the first draw of its seed).
    pool = gen.players(random.Random(gen.SEED))
    plan = gen.Plan(dt.date(2026, 11, 21), "MTBN", "duplicate", 30)
    results = gen.tournament_results(plan, [p for p in pool if 2026 in p.active], random.Random(seed(1)))
    (extra / "2026").mkdir(parents=True)
    gen.write_tournament(extra / "2026" / "2026-11-21-montauban.xlsx", plan, results, variant=1)
    return {"files": sum(1 for p in target.rglob("*.xlsx")), "source": "examples/league"}


# -- 10x, 100x -----------------------------------------------------------------------------------

def _ascii_letters(text: str) -> str:
    plain = unicodedata.normalize("NFD", text)
    return "".join(c for c in plain if c.isascii() and c.isalpha()).upper()


def clubs(count: int) -> list[tuple[str, str, str]]:
    """(code, name, département): the example's 15 clubs, then towns (« Narbonne 2 » on a second round)."""
    result = list(example_generator().CLUBS)
    codes = {code for code, _, _ in result}
    round_ = 1
    while len(result) < count:
        for town, departement in TOWNS:
            if len(result) == count:
                break
            name = town if round_ == 1 else f"{town} {round_}"
            code = _ascii_letters(town)[:4] + ("" if round_ == 1 else str(round_))
            while code in codes:
                code += "X"
            codes.add(code)
            result.append((code, name, departement))
        round_ += 1
    return result


def _surname(rng: random.Random, common: list[str]) -> str:
    if rng.random() < 0.5:
        return rng.choice(common).replace("_", " ")
    return rng.choice(PREFIXES) + rng.choice(MIDDLES) + rng.choice(SUFFIXES)


def players(shape: Shape, codes: list[str], rng: random.Random):
    gen = example_generator()
    result, used = [], set()
    while len(result) < shape.players:
        last, first = _surname(rng, gen.LAST_NAMES), rng.choice(gen.FIRST_NAMES)
        if (last, first) in used:
            continue
        used.add((last, first))
        # 37 is prime to 900,000: every player gets his own licence number.
        licence = str(100000 + len(result) * 37 % 900000) if rng.random() < 0.85 else ""
        roll = rng.random()  # as in the example: some skip 2025, a few stop after it
        active = (2026,) if roll < 0.12 else (2025,) if roll < 0.2 else (2025, 2026)
        result.append(gen.Player(last, first, licence, rng.choice(codes), rng.gauss(0, 1), active))
    return result


def saturdays(year: int) -> list[dt.date]:
    day = dt.date(year, 1, 10)
    day += dt.timedelta(days=(5 - day.weekday()) % 7)
    days = []
    while day <= dt.date(year, 12, 12):
        if day.month not in (7, 8):
            days.append(day)
        day += dt.timedelta(days=7)
    return days


def _step(count: int) -> int:
    """A stride prime to the number of clubs: the clubs of one date are all different."""
    step = 7
    while count % step == 0:
        step += 2
    return step


def _places(field, formula: str, rng: random.Random):
    """(final place, duplicate place, player), best first, as the example draws them."""
    duplicate = sorted(field, key=lambda p: -(p.skill + rng.gauss(0, 0.6)))
    duplicate_place = {id(p): index + 1 for index, p in enumerate(duplicate)}
    final = duplicate if formula == "duplicate" else \
        sorted(field, key=lambda p: duplicate_place[id(p)] + rng.gauss(0, 3))
    return [(index + 1, duplicate_place[id(p)], p) for index, p in enumerate(final)]


def _day_fields(plans, active, rng: random.Random):
    """The fields of one date's tournaments: a third from the organising club, the rest from
    anywhere; nobody in two tournaments the same day."""
    order = active[:]
    rng.shuffle(order)
    by_club: dict[str, list] = {}
    for player in order:
        by_club.setdefault(player.club, []).append(player)
    used: set[int] = set()
    cursor = 0
    fields = []
    for plan in plans:
        field = []
        local = by_club.get(plan.club, [])
        while local and len(field) < plan.size // 3:
            player = local.pop()
            if id(player) not in used:
                used.add(id(player))
                field.append(player)
        while len(field) < plan.size and cursor < len(order):
            player = order[cursor]
            cursor += 1
            if id(player) not in used:
                used.add(id(player))
                field.append(player)
        fields.append(field)
    return fields


def _write_clubs(path: Path, club_list) -> None:
    gen = example_generator()
    book = xlsxwriter.Workbook(path)
    book.set_properties({"created": gen.CREATED, "author": "Ligue Grand Sud"})
    sheet = book.add_worksheet("Clubs")
    text = book.add_format({"num_format": "@"})
    for col, header in enumerate(["Code", "Nom", "Département", "Email"]):
        sheet.write_string(0, col, header)
    for row, (code, name, departement) in enumerate(club_list, start=1):
        sheet.write_string(row, 0, code)
        sheet.write_string(row, 1, name)
        sheet.write_string(row, 2, departement, text)
        sheet.write_string(row, 3, f"contact@{code.lower()}.example.org")
    book.close()


def generate(shape: Shape, target: Path, extra: Path, seed: int, say=print) -> dict:
    gen = example_generator()
    rng = random.Random(seed)
    club_list = clubs(shape.clubs)
    # The example's writer names clubs through its CLUB_NAMES table: add ours (new codes only).
    gen.CLUB_NAMES.update({code: name for code, name, _ in club_list})
    pool = players(shape, [code for code, _, _ in club_list], rng)
    target.mkdir(parents=True)
    _write_clubs(target / "clubs.xlsx", club_list)
    codes = [code for code, _, _ in club_list]
    eligible = [code for code, _, departement in club_list if departement not in ("13", "33")]
    step = _step(len(codes))
    variant = rows = files = 0
    last_day = dt.date(1900, 1, 1)
    for season in SEASONS:
        days = saturdays(season)
        active = [p for p in pool if season in p.active]
        plans: dict[dt.date, list] = {}
        for k in range(shape.per_season):
            day = days[k * len(days) // shape.per_season]
            code = codes[(k * step + season) % len(codes)]
            formula = "poules" if rng.random() < 0.5 else "duplicate"
            plans.setdefault(day, []).append(gen.Plan(day, code, formula, rng.randint(*shape.sizes)))
        (target / str(season)).mkdir()
        for day, today in plans.items():
            for plan, field in zip(today, _day_fields(today, active, rng)):
                results = _places(field, plan.formula, rng)
                gen.write_tournament(target / str(season) / f"{day.isoformat()}-{plan.club.lower()}.xlsx", plan,
                                     results, variant)
                variant += 1
                files += 1
                rows += len(results)
                last_day = max(last_day, day)
        say(f"  {season}: {shape.per_season} tournaments written")
    # The next tournament: a week after the last one, at an eligible club, 50 players of 2026.
    plan = gen.Plan(last_day + dt.timedelta(days=7), eligible[0], "poules", 50)
    (field,) = _day_fields([plan], [p for p in pool if 2026 in p.active], rng)
    (extra / "2026").mkdir(parents=True)
    gen.write_tournament(extra / "2026" / f"{plan.date.isoformat()}-{plan.club.lower()}.xlsx", plan,
                         _places(field, plan.formula, rng), variant)
    return {"seed": seed, "clubs": len(club_list), "players": len(pool), "files": files + 1, "rows": rows,
            "tournaments_per_season": shape.per_season}


def main() -> None:
    for argument in sys.argv[1:] or ["1", "10"]:
        path = ensure(int(argument.removesuffix("x")))
        print(f"{path.relative_to(ROOT)}: {json.dumps(stamp(int(argument.removesuffix('x'))))}")


if __name__ == "__main__":
    main()
