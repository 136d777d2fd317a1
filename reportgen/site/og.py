"""The site's Open Graph images (issue 24, « Sharing »): a 1200x630 PNG per circuit season, per
tournament and for the home page, drawn with Pillow in the project's Inter font: the league, the
circuit and season (or the tournament, its date and place), and the top three.

Deterministic and cheap: a card is plain text (`Card`, names already in their public form,
site/privacy.py), its file is named from a hash of that text, and a build that finds the file in
outputs/site/ takes its bytes from there instead of drawing it again: an image is redrawn only when
what it shows changes (a season's when its top three does). In a first build, each text is drawn
once (`_text`: the league's name, the places and the leaders are on many cards) and pasted on a
blank card already in the palette, the same pixels as drawing the whole card. The file is written
here (`_png`), its pixels compressed by ISA-L rather than by Pillow's zlib: no time or software
chunk in it."""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from reportgen.render.html import TEMPLATES

WIDTH, HEIGHT = 1200, 630
MARGIN = 72
VERSION = "4"  # part of every file name: bump it when the drawing changes, so that every card is redrawn
# The pixels' compression (version 3): ISA-L's deflate at level 1 takes 0.35 ms a card where zlib,
# through Pillow, took 2.3 to 3.5 ms at level 3 (version 2; 7.0 at its default 6, version 1), for a
# file a little smaller (22 KB against 24): the same pixels. It was a third of a card's cost in a
# first build. Level 1 because ISA-L gives the same bytes there on a processor with AVX-512 and on
# one with AVX2 only (checked under valgrind, which hides AVX-512); its level 3 does not.
LEVEL = 1
PNG_SIGNATURE, PNG_END = b"\x89PNG\r\n\x1a\n", b"IEND\xaeB`\x82"  # a file cut short is drawn again
INK, MUTED, ACCENT, BAND, WHITE = "#1b2430", "#5d6b7e", "#1f3a5f", "#f2f5f9", "#ffffff"  # site.css's colours
# Each text is drawn on one background: the pixels of its edges are blends of the two, so a palette
# of those blends holds every pixel (a PNG of 256 colours at most, a third of the RGB one's size and
# quicker to compress), mapped without dithering: the backgrounds stay exact.
BLENDS = ((WHITE, ACCENT), (WHITE, MUTED), (BAND, ACCENT), (BAND, INK), (BAND, MUTED), (ACCENT, WHITE))
STEPS = 16
FONTS = {"regular": "Inter-Regular.otf", "semibold": "Inter-SemiBold.otf", "bold": "Inter-Bold.otf"}


@dataclass(frozen=True)
class Card:
    """What one image shows, as plain text: `lines` are (place, name, value) of the top three, or
    (circuit, leader, value) on the home page."""

    league: str
    title: str
    subtitle: str
    lines: tuple[tuple[str, str, str], ...] = ()

    def file_name(self) -> str:
        """From what it shows (and the drawing's version): a changed card gets a new name."""
        # the fields by hand, not dataclasses.asdict: the same JSON, a tenth of the time (once per page)
        text = json.dumps([VERSION, {"league": self.league, "title": self.title, "subtitle": self.subtitle,
                                     "lines": self.lines}], ensure_ascii=False, sort_keys=True)
        return f"og-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}.png"

    def alt(self) -> str:
        """The image's text alternative (`og:image:alt`): everything it shows."""
        # « ; » after a narrow no-break space, as the site writes it (french.typography)
        shown = "\u202f; ".join(" ".join(part for part in line if part) for line in self.lines)
        return " — ".join(part for part in (self.title, self.subtitle, shown) if part)


@cache
def _font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(TEMPLATES / "fonts" / FONTS[weight]), size)


@cache
def _palette() -> Image.Image:
    colours: list[tuple[int, ...]] = []
    for back, front in BLENDS:
        start, end = ImageColor.getrgb(back), ImageColor.getrgb(front)
        for step in range(STEPS):
            colour = tuple(round(a + (b - a) * step / (STEPS - 1)) for a, b in zip(start, end))
            if colour not in colours:
                colours.append(colour)
    flat = [value for colour in colours for value in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + flat[:3] * (256 - len(colours)))
    return palette


@cache
def _length(text: str, weight: str, size: int) -> float:
    """A text's width, measured once a build: the league's name, the places and most subtitles are
    on every card, and measuring lays the text out (as long as drawing it). The same as measuring
    with the card's own pen: a width depends on the image's mode only, RGB for every card."""
    return float(ImageDraw.Draw(Image.new("RGB", (1, 1))).textlength(text, font=_font(weight, size)))


@cache
def _fit(text: str, weight: str, size: int, width: float) -> str:
    """The text cut with « … » to fit `width` (a name from a workbook may be of any length)."""
    if _length(text, weight, size) <= width:
        return text
    while text and _length(text + "…", weight, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


TOP, ROW, ROW_HEIGHT = 290, 78, 64  # the lines' bands: the first's top, from one to the next, height
SUBTITLE = 2  # in `draw`'s texts: the league, the title, the subtitle, then the lines'
MAX_ROWS = 5  # the home page's card: each circuit's leader, five circuits
SUBTITLE_SIZES = (36, 34, 32, 30, 28)  # a long subtitle (a tournament's circuit, date and place) smaller, not cut


def bands(rows: int) -> tuple[int, int, int]:
    """The lines' bands (the first's top, from one to the next, height): up to four as they always
    were; five a little closer and higher, above the card's bottom margin."""
    return (TOP, ROW, ROW_HEIGHT) if rows <= 4 else (TOP - 16, 64, 54)


def subtitle_size(text: str, width: float) -> int:
    """The subtitle's size: the largest that draws it whole (« Classement régional Grand Sud —
    24 janvier 2026 · Carcassonne » at 36 px was cut « Carcass… »), the smallest (then cut) else."""
    return next((size for size in SUBTITLE_SIZES if _length(text, "regular", size) <= width), SUBTITLE_SIZES[-1])


@cache
def _base(rows: int) -> Image.Image:
    """A card without its texts (the league's band, `rows` bands for the lines), in the palette
    (what a card is made from): once a build per number of rows."""
    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, 96), fill=ACCENT)
    top, step, height = bands(rows)
    for index in range(rows):
        y = top + index * step
        pen.rounded_rectangle((MARGIN - 16, y, WIDTH - MARGIN + 16, y + height), radius=12, fill=BAND)
    return _quantized(image)


def _quantized(image: Image.Image) -> Image.Image:
    """Each pixel mapped to its nearest colour of the palette, without dithering: pixel by pixel, so
    a part of a card quantized alone gives the pixels it has in the whole card quantized."""
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@cache
def _shades(background: int, fill: str) -> tuple[int, ...]:
    """For each coverage 0-255 of a glyph's pixel, the palette's index for `fill` blended at that
    coverage over the palette's colour `background`: the RGB pixel FreeType's text gives on that
    colour (blended by Pillow's paste with a mask, as its text drawing does), then quantized."""
    colours = _palette().getpalette() or []
    strip = Image.new("RGB", (256, 1), tuple(colours[3 * background:3 * background + 3]))
    strip.paste(fill, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
    return tuple(_quantized(strip).tobytes())


@lru_cache(maxsize=256)  # bounded: most texts are on one card; the league's, the places, some names on many
def _text(rows: int, xy: tuple[float, float], text: str, weight: str, size: int, fill: str,
          anchor: str) -> tuple[Image.Image, Image.Image, tuple[int, int]] | None:
    """One text of a card as its pixels in the palette, the mask of those it covers, and where they
    go (None when it covers none): drawn by FreeType once a build, however many cards show it at
    that place (the league's name is on every card, the places and the leaders on many).

    Drawn as its coverage only (FreeType's share of each pixel, on a black greyscale image of the
    card's size: clipped where the card clips it), each covered pixel then given the palette's index of
    the text's colour blended at that coverage over the blank card's colour beneath (`_shades`):
    the pixel it has when the text is drawn on the card in RGB and quantized, without drawing in
    RGB, laying the text out a second time for its box, nor quantizing the part it covers
    (twenty-first round: a card 14.5-15 → 11.8-13.4 ms)."""
    coverage = Image.new("L", (WIDTH, HEIGHT))
    ImageDraw.Draw(coverage).text(xy, text, font=_font(weight, size), fill=255, anchor=anchor)
    box = coverage.getbbox()
    if box is None:
        return None
    coverage = coverage.crop(box)
    # each covered pixel's mask 255 (its coverage at least 1, doubled and over 1/128, clipped), 0 kept
    covered = ImageChops.add(coverage, coverage, scale=1 / 128)
    beneath = Image.frombytes("L", coverage.size, _base(rows).crop(box).tobytes())  # palette indices
    counts = beneath.histogram(covered)  # of the colours beneath the covered pixels
    drawn = beneath.copy()
    for background, count in enumerate(counts):
        if count:  # one colour beneath the text, or (a text across a band's edge) each colour's pixels apart
            where = covered if count == sum(counts) else ImageChops.multiply(
                covered, beneath.point([255 if index == background else 0 for index in range(256)]))
            drawn.paste(coverage.point(_shades(background, fill)), (0, 0), where)
    return Image.frombytes("P", drawn.size, drawn.tobytes()), covered, (box[0], box[1])


Text = tuple[tuple[float, float], str, str, int, str, str]  # where, what, weight, size, colour, anchor


def texts(card: Card) -> list[Text]:
    """The card's texts as `draw` draws them: the league's name, the title, the subtitle, then each
    line's value, place and name, each cut with « … » to fit (a subtitle made smaller first)."""
    inner = WIDTH - 2 * MARGIN
    size = subtitle_size(card.subtitle, inner)
    found: list[Text] = [
        ((MARGIN, 48), _fit(card.league, "semibold", 32, inner), "semibold", 32, WHITE, "lm"),
        ((MARGIN, 170), _fit(card.title, "bold", 58, inner), "bold", 58, ACCENT, "ls"),
        ((MARGIN, 232), _fit(card.subtitle, "regular", size, inner), "regular", size, MUTED, "ls")]
    rows = card.lines[:MAX_ROWS]
    top, step, height = bands(len(rows))
    places = [_fit(place, "bold", 38, inner / 3) for place, _, _ in rows]
    # one column of places, so that the names line up
    place_width = max([_length(place, "bold", 38) for place in places if place] + [0.0])
    place_width = place_width + 28 if place_width else 0.0
    for index, ((_, name, value), place) in enumerate(zip(rows, places)):
        middle = top + index * step + height // 2
        value = _fit(value, "regular", 34, inner / 2)  # the home page's value is a name
        value_width = _length(value, "regular", 34) if value else 0
        room = inner - place_width - value_width - 32
        found += [((WIDTH - MARGIN, middle), value, "regular", 34, MUTED, "rm"),
                  ((MARGIN, middle), place, "bold", 38, ACCENT, "lm"),
                  ((MARGIN + place_width, middle), _fit(name, "semibold", 38, room), "semibold", 38, INK, "lm")]
    return found


def draw(card: Card) -> bytes:
    """The card as PNG bytes: a band with the league's name, the title and subtitle, the lines.
    Laid out as drawn on one RGB image and quantized (what `VERSION` 2 drew, pixel for pixel:
    tests/test_site_og.py draws both), made from the blank card and each text's pixels (`_text`)."""
    rows = len(card.lines[:MAX_ROWS])
    image = _base(rows).copy()
    for index, (xy, text, weight, size, fill, anchor) in enumerate(texts(card)):
        if text:  # an empty text draws nothing
            # the subtitle (a tournament's date and place) is on one card only: kept out of the cache,
            # which then holds more of the texts that recur (403 subtitles at 10x, 403 distinct)
            drawn = (_text.__wrapped__ if index == SUBTITLE else _text)(rows, xy, text, weight, size, fill, anchor)
            if drawn is not None:
                pixels, mask, corner = drawn
                image.paste(pixels, corner, mask)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    """A card in the palette as a PNG file, the chunks Pillow writes for it (a header, the palette,
    the pixels, the end), by hand because Pillow compresses with zlib and takes no other compressor.
    Each row of pixels follows its filter's byte, 0 (none, as Pillow's own for a palette): the
    image widened by one column of zeros on its left (`crop` fills what lies outside with 0)."""
    rows = image.crop((-1, 0, WIDTH, HEIGHT)).tobytes()
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 3, 0, 0, 0)  # 8 bits an index into a palette
    chunks = ((b"IHDR", header), (b"PLTE", _palette_bytes()), (b"IDAT", isal_zlib.compress(rows, LEVEL)),
              (b"IEND", b""))
    return PNG_SIGNATURE + b"".join(struct.pack(">I", len(data)) + kind + data
                                    + struct.pack(">I", zlib.crc32(kind + data)) for kind, data in chunks)


@cache
def _palette_bytes() -> bytes:
    return bytes(_palette().getpalette() or [])


def image(card: Card, folder: Path) -> bytes:
    """The card's bytes: those of outputs/site/ when a build already drew it (named from what it
    shows, so the same), else drawn now."""
    return known(card, folder) or draw(card)


def known(card: Card, folder: Path) -> bytes | None:
    """The card's bytes as a build already drew them in outputs/site/ (whole), None when it did not."""
    try:
        found = (folder / card.file_name()).read_bytes()
    except OSError:
        return None
    return found if found.startswith(PNG_SIGNATURE) and found.endswith(PNG_END) else None
