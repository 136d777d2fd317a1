"""The site's Open Graph images (issue 24, « Sharing »; site/og.py): a 1200x630 PNG for the home
page, each circuit season and each tournament, the same bytes from the same data, drawn again only
when what it shows changes; `og:image` absolute with `[site] url`, relative without."""

import hashlib
import html
import io
import re
import shutil
import struct
import zlib

from PIL import Image, ImageDraw

from reportgen import circuits, config
from reportgen.site import og
from reportgen.site.pages import Site, event_card, event_page_name
from reportgen.site.player_page import place as shown_place
from reportgen.site.privacy import Public
from reportgen.site.publish import publish
from reportgen.site.sources import load, note_mark, shown_title
from tests.test_config import defaults, only_problem

URL = "https://ligue.example.org/"


def meta(page: bytes, name: str) -> str:
    found = re.search(rf'<meta property="{re.escape(name)}" content="([^"]*)">', page.decode("utf-8"))
    assert found, f"no {name}"
    return found.group(1)


def test_the_home_season_and_tournament_pages_each_name_their_image(small_league_built):
    outputs = small_league_built.outputs
    pages = {path: (outputs / path).read_bytes() for path in
             ("index.html", "site/grand-sud-2026.html", "site/grand-sud-2025.html")}
    pages["tournoi"] = next(path.read_bytes() for path in sorted((outputs / "site").glob("tournoi-*.html")))
    images = {}
    for path, page in pages.items():
        assert (meta(page, "og:image:width"), meta(page, "og:image:height")) == ("1200", "630")
        assert meta(page, "og:image:type") == "image/png" and meta(page, "og:image:alt")
        images[path] = meta(page, "og:image")
    assert images["index.html"].startswith("site/og-")  # relative without [site] url
    assert len(set(images.values())) == 4  # one each
    season = (outputs / "site" / images["site/grand-sud-2026.html"]).read_bytes()
    picture = Image.open(io.BytesIO(season))
    assert picture.format == "PNG" and picture.size == (1200, 630)
    assert not {"tIME", "Software", "Creation Time", "date:create"} & set(picture.info)  # no time in the file
    alt = meta(pages["site/grand-sud-2026.html"], "og:image:alt")
    assert "Saison 2026" in alt and "Grand Sud" in alt and "1 " in alt
    # a club's or player's page shares the home page's image
    club = next(path.read_bytes() for path in sorted((outputs / "site").glob("club-*.html")))
    assert meta(club, "og:image") == images["index.html"].removeprefix("site/")


def test_the_same_card_gives_the_same_bytes_and_a_long_name_fits():
    card = og.Card("Ligue", "Circuit", "Saison 2026", (("1", "DUPONT Jean", "120 pts"),
                                                        ("2=", "X" * 300, "1 086 pts"), ("", "<script>", "")))
    first = og.draw(card)
    assert first == og.draw(card) and Image.open(io.BytesIO(first)).size == (og.WIDTH, og.HEIGHT)
    assert og.draw(og.Card("Ligue", "Circuit", "Saison 2026")) != first


def test_an_image_is_drawn_again_only_when_what_it_shows_changes(small_league_copy, monkeypatch):
    outputs = small_league_copy.outputs
    drawn = []
    real = og.draw
    monkeypatch.setattr(og, "draw", lambda card: drawn.append(card) or real(card))
    league = html.unescape(meta((outputs / "index.html").read_bytes(), "og:site_name"))  # as the build named it
    pages = Site(outputs, list(circuits.CIRCUITS), league).pages()
    assert drawn == []  # every image already in outputs/site/: taken from there
    shutil.rmtree(outputs / "site")
    again = Site(outputs, list(circuits.CIRCUITS), league).pages()
    assert drawn and again == pages  # drawn again, the same bytes
    images = [path for path in pages if path.endswith(".png")]
    assert len(drawn) == len(images)
    publish(outputs, again)
    assert sorted(p.name for p in (outputs / "site").glob("og-*.png")) == sorted(p[5:] for p in images)


def test_with_the_site_url_the_image_is_an_absolute_address(small_league_built):
    pages = Site(small_league_built.outputs, list(circuits.CIRCUITS), "Ligue", url=URL).pages()
    home, season = meta(pages["index.html"], "og:image"), meta(pages["site/grand-sud-2026.html"], "og:image")
    assert re.fullmatch(r"https://ligue\.example\.org/site/og-[0-9a-f]{16}\.png", home)
    assert season.startswith("https://ligue.example.org/site/og-") and season[len(URL) - 1:].lstrip("/") in pages


def test_the_site_url_is_read_from_reportgen_toml_and_checked(tmp_path):
    server = '[site]\nhost = "ssh.example.org"\nuser = "ligue"\nfolder = "www"\n'
    (tmp_path / "reportgen.toml").write_text(server + f'url = "{URL}"\n', encoding="utf-8")
    problems: list = []
    assert config.load(tmp_path, defaults(), problems).site.url == URL and problems == []
    message = only_problem(tmp_path, server + 'url = "ligue.example.org"\n')
    assert "url" in message and "https://" in message


def pixels(png: bytes) -> tuple[bytes, list[int] | None]:
    """A PNG file's pixels and palette, as Pillow reads them."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P" and image.size == (og.WIDTH, og.HEIGHT)
    return image.tobytes(), image.getpalette()


def drawn_whole(card: og.Card) -> tuple[bytes, list[int] | None]:
    """The card's pixels as `og.VERSION` 2 first drew them: every text with its band on one RGB
    image, then the whole image quantized. `og.draw` pastes each text's pixels, drawn once a build."""
    image = Image.new("RGB", (og.WIDTH, og.HEIGHT), og.WHITE)
    pen = ImageDraw.Draw(image)
    inner = og.WIDTH - 2 * og.MARGIN
    pen.rectangle((0, 0, og.WIDTH, 96), fill=og.ACCENT)
    pen.text((og.MARGIN, 48), og._fit(card.league, "semibold", 32, inner), font=og._font("semibold", 32),
             fill=og.WHITE, anchor="lm")
    pen.text((og.MARGIN, 170), og._fit(card.title, "bold", 58, inner), font=og._font("bold", 58),
             fill=og.ACCENT, anchor="ls")
    size = og.subtitle_size(card.subtitle, inner)
    pen.text((og.MARGIN, 232), og._fit(card.subtitle, "regular", size, inner), font=og._font("regular", size),
             fill=og.MUTED, anchor="ls")
    rows = card.lines[:og.MAX_ROWS]
    top, step, height = og.bands(len(rows))
    places = [og._fit(place, "bold", 38, inner / 3) for place, _, _ in rows]
    place_width = max([og._length(place, "bold", 38) for place in places if place] + [0.0])
    place_width = place_width + 28 if place_width else 0.0
    for index, ((_, name, value), place) in enumerate(zip(rows, places)):
        y = top + index * step
        pen.rounded_rectangle((og.MARGIN - 16, y, og.WIDTH - og.MARGIN + 16, y + height), radius=12, fill=og.BAND)
        middle = y + height // 2
        value = og._fit(value, "regular", 34, inner / 2)
        value_width = og._length(value, "regular", 34) if value else 0
        pen.text((og.WIDTH - og.MARGIN, middle), value, font=og._font("regular", 34), fill=og.MUTED, anchor="rm")
        pen.text((og.MARGIN, middle), place, font=og._font("bold", 38), fill=og.ACCENT, anchor="lm")
        room = inner - place_width - value_width - 32
        pen.text((og.MARGIN + place_width, middle), og._fit(name, "semibold", 38, room),
                 font=og._font("semibold", 38), fill=og.INK, anchor="lm")
    quantized = image.quantize(palette=og._palette(), dither=Image.Dither.NONE)
    return quantized.tobytes(), quantized.getpalette()


def test_a_card_made_of_texts_drawn_once_is_the_card_drawn_whole():
    # texts of every kind: accents above and below, stacked combining marks, a glyph the font lacks,
    # long texts cut with « … », places of one to five rows, shared places, empty cells; each text
    # also met again on other cards and rows (taken from `_text`'s cache), and some at a fraction
    # of a pixel (a name after the places' column)
    names = ["DUPONT Jean", "ÉLOÏSE Çà ÿ gjpqy", "W" * 120, "<script>", "a\u0301\u0301\u0301\u0301 Å", "😀 ﷺ", " ", "—"]
    places = ["1", "2=", "3", "", "12", "100="]
    values = ["120 pts", "1 086 pts", "", "DUPONT Jean"]
    cards = [og.Card("Ligue", "Circuit", "Saison 2026"),
             og.Card("Ligue des jeux " * 12, "Tournoi d'Albi " * 8, "Classement — 14 mars 2026 · Albi " * 4)]
    for index in range(24):
        rows = tuple((places[(index + row) % len(places)], names[(index * 3 + row) % len(names)],
                      values[(index + 2 * row) % len(values)]) for row in range(index % 6))
        cards.append(og.Card("Ligue" if index % 2 else "Ligue régionale", names[index % len(names)],
                             f"Saison {2020 + index % 3}", rows))
    og._text.cache_clear()
    for card in cards + cards[::-1]:  # again, every text then taken from the cache
        assert pixels(og.draw(card)) == drawn_whole(card), card
    assert og._text.cache_info().hits > len(cards)


def test_a_text_across_two_colours_of_the_blank_card_has_the_pixels_drawn_on_it():
    # `_text` gives each covered pixel the blend of the text's colour over the colour beneath: most
    # texts lie on one colour (the first test); these cross a line's band (its top, its rounded
    # corner) or the league's band, so that each colour beneath is blended apart
    rows = 2
    blank = Image.new("RGB", (og.WIDTH, og.HEIGHT), og.WHITE)
    pen = ImageDraw.Draw(blank)
    pen.rectangle((0, 0, og.WIDTH, 96), fill=og.ACCENT)
    for index in range(rows):
        y = og.TOP + index * og.ROW
        pen.rounded_rectangle((og.MARGIN - 16, y, og.WIDTH - og.MARGIN + 16, y + og.ROW_HEIGHT), radius=12,
                              fill=og.BAND)
    crossing = [((og.MARGIN, og.TOP + 0.5), "ÉLOÏSE gjpq", "semibold", 38, og.INK, "lm"),
                ((og.MARGIN - 30.25, og.TOP + 4), "Wj", "bold", 58, og.ACCENT, "lm"),
                ((og.MARGIN, 104), "Tournoi d'Albi", "bold", 58, og.ACCENT, "ls"),
                ((og.WIDTH - og.MARGIN + 40, og.TOP + og.ROW + og.ROW_HEIGHT), "1 086 pts", "regular", 34, og.MUTED, "rm")]
    for xy, text, weight, size, fill, anchor in crossing:
        expected = blank.copy()
        ImageDraw.Draw(expected).text(xy, text, font=og._font(weight, size), fill=fill, anchor=anchor)
        drawn = og._text.__wrapped__(rows, xy, text, weight, size, fill, anchor)
        assert drawn is not None
        pixels, mask, corner = drawn
        beneath = og._base(rows).crop((corner[0], corner[1], corner[0] + pixels.width, corner[1] + pixels.height))
        assert sum(1 for count in beneath.histogram(mask) if count) > 1, text  # it covers two colours
        card = og._base(rows).copy()
        card.paste(pixels, corner, mask)
        assert card.tobytes() == og._quantized(expected).tobytes(), text
    assert og._text.__wrapped__(rows, (og.MARGIN, og.TOP), " ", "regular", 34, og.MUTED, "lm") is None


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG file's chunks, each (type, data), its CRC checked: read by the format, not by Pillow."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    found, position = [], 8
    while position < len(png):
        (length,) = struct.unpack(">I", png[position:position + 4])
        kind, data = png[position + 4:position + 8], png[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", png[position + 8 + length:position + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        found.append((kind, data))
        position += 12 + length
    assert position == len(png)
    return found


def test_a_card_file_is_its_pixels_in_the_palette_and_nothing_else():
    card = og.Card("Ligue régionale", "Tournoi d'Albi", "14 mars 2026 · Albi",
                   (("1", "DUPONT Jean", "120 pts"), ("2=", "ÉLOÏSE Çà", "1 086 pts")))
    png = og.draw(card)
    found = chunks(png)
    assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]  # no time, no software
    assert found[0][1] == struct.pack(">IIBBBBB", og.WIDTH, og.HEIGHT, 8, 3, 0, 0, 0)
    assert list(found[1][1]) == og._palette().getpalette()
    rows = zlib.decompress(found[2][1])  # the zlib stream whole, its checksum checked
    width = og.WIDTH + 1
    assert len(rows) == width * og.HEIGHT and set(rows[::width]) == {0}  # each row unfiltered
    expected, palette = drawn_whole(card)
    assert b"".join(rows[start + 1:start + width] for start in range(0, len(rows), width)) == expected
    Image.open(io.BytesIO(png)).verify()
    assert pixels(png) == (expected, palette)
    # ISA-L's bytes, the same on any x86-64 processor at this level (og.LEVEL): a new version of
    # isal that compresses otherwise fails here, and then needs og.VERSION bumped (new names)
    assert hashlib.sha256(png).hexdigest()[:16] == "a9f376457b1c5226"


def bands(png: bytes) -> int:
    """How many line bands a card draws: the runs of the bands' colour down a column left of the texts."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    band = Image.new("RGB", (1, 1), og.BAND).getpixel((0, 0))
    column = [picture.getpixel((og.MARGIN - 8, y)) == band for y in range(100, og.HEIGHT)]
    return sum(1 for y in range(1, len(column)) if column[y] and not column[y - 1])


def test_the_home_card_names_the_league_and_each_circuit_s_leader_the_fifth_too(example_site):
    """The home page's card showed four circuits' leaders of five (Tantrix left out of its image
    and its text alternative); its title was « Accueil », as its <h1>: the league's name now, as the
    other pages' titles say it, its <h1> what the page is (the header names the league above it); the
    text alternative's « ; » after a no-break space, as the site's."""
    home = (example_site / "index.html").read_bytes()
    league = html.unescape(meta(home, "og:site_name"))
    assert html.unescape(meta(home, "og:title")) == league
    text = home.decode("utf-8")
    assert "<h1>Classements et résultats</h1>" in text and f"<title>{html.escape(league)}</title>" in text
    alt = html.unescape(meta(home, "og:image:alt"))
    titles = [found.title for found in load(example_site, list(circuits.CIRCUITS), [], {})]
    assert len(titles) == 5 and all(title in alt for title in titles), alt
    assert " ;" not in alt and alt.count("\u202f; ") == 4, alt
    assert bands((example_site / meta(home, "og:image")).read_bytes()) == 5


def test_a_tournament_card_s_subtitle_is_drawn_whole():
    # « Classement régional Grand Sud — 24 janvier 2026 · Carcass… »: at 36 px wider than the card
    card = og.Card("Ligue Grand Sud des clubs de jeux de réflexion", "Tournoi de Carcassonne",
                   "Classement régional Grand Sud — 24 janvier 2026 · Carcassonne",
                   (("1", "DUPONT Jean", "120 pts"), ("2", "MARTIN Paul", "110 pts"), ("3", "DURAND Léa", "90 pts")))
    drawn = og.texts(card)
    assert card.subtitle in [text for _, text, *_ in drawn]
    assert bands(og.draw(card)) == 3


def test_every_card_of_the_example_reads_as_its_page_a_pool_tournament_s_too(example_site):
    """A pool tournament's card read « Open d'automne en ligne — Tournoi en ligne par poules — du 5
    septembre au 6 octobre 2026 · en ligne — 1 AUGER Anaïs finale Tour ; … »: its place « en ligne »
    said again after its circuit's title, and each line's value before its column's short name
    (« finale Tour », as every season's card read « 6 910 Total »). Its lines say their value as a
    player's page says it, « Points : 780 », a value that names itself alone, « Finale » (« Tour :
    finale » read the round twice), and a place its name or its circuit's title already says is not
    said again; on every card of every circuit (their texts, as `og.texts` draws them)."""
    nbsp = "\u00a0"
    cards = 0
    for circuit in load(example_site, list(circuits.CIRCUITS), [], {}):
        for record in circuit.rankings:
            if record["kind"] != "event" and record is not circuit.headline(record["season"]):
                continue
            name = event_page_name(circuit, record) if record["kind"] == "event" else f"{circuit.slug}-{record['season']}.html"
            page = (example_site / "site" / name).read_bytes()
            alt = html.unescape(meta(page, "og:image:alt"))
            image = example_site / "site" / meta(page, "og:image")
            # « — » after a no-break space (typography); a tournament's subtitle is « circuit — days · place »,
            # « circuit — hors circuit — days · place » for one that counts for nothing (sources.note_mark)
            parts = re.split(r"\s— ", alt)
            event = record["kind"] == "event"
            said = 3 + bool(note_mark(record)) if event else 2
            title, subtitle, lines = parts[0], " — ".join(parts[1:said]), parts[said:]
            assert not event or (parts[2] == note_mark(record)) == bool(note_mark(record)), alt
            assert image.is_file() and title == (shown_title(record) if event else circuit.title)
            column = next((c for c in record["columns"] if c["key"] != "club"), None)
            for row, line in zip(record["rows"][:3], " — ".join(lines).split("\u202f; ")):
                value = row["values"].get(column["key"], "") if column else ""
                said = ("" if not value else value[:1].upper() + value[1:] if column.get("words")
                        else f"{column['short']}{nbsp}:{nbsp}{value}")
                assert line.startswith(f"{shown_place(row)} ") and (
                    line.endswith(f" {said}") if value else ":" not in line), (alt, line)
            if event and record.get("place"):
                assert (subtitle.endswith(f" · {record['place']}")
                        != bool(re.search(rf"\b{re.escape(record['place'])}\b", f"{title} {circuit.title}", re.I))), alt
            cards += 1
    assert cards > 40
    site = {circuit.slug: circuit for circuit in load(example_site, list(circuits.CIRCUITS), [], {})}
    pools = [r for r in site["poules"].rankings if r["kind"] == "event"]
    page = (example_site / "site" / event_page_name(site["poules"], pools[0])).read_bytes()
    assert html.unescape(meta(page, "og:image:alt")).replace(f"{nbsp}—", " —") == (
        "Open d'automne en ligne — Tournoi en ligne par poules — du 5 septembre au 6 octobre 2026 — "
        "1 AUGER Anaïs Finale\u202f; 2 BAZIN Bastien Finale\u202f; 3 DELMAS Damien Finale")
    drawn = [text for _, text, *_ in og.texts(event_card("Ligue", site["poules"].title, pools[0], Public()))]
    assert drawn[1:3] == ["Open d'automne en ligne", "Tournoi en ligne par poules — du 5 septembre au 6 octobre 2026"]
    assert drawn[3:6] == ["Finale", "1", "AUGER Anaïs"]
