"""The site's Open Graph images (issue 24, « Sharing »): a 1200x630 PNG per circuit season, per
tournament and for the home page, drawn with Pillow in the project's Inter font: the league, the
circuit and season (or the tournament, its date and place), and the top three.

Deterministic and cheap: a card is plain text (`Card`, names already in their public form,
site/privacy.py), its file is named from a hash of that text, and a build that finds the file in
outputs/site/ takes its bytes from there instead of drawing it again: an image is redrawn only when
what it shows changes (a season's when its top three does). Pillow writes no time or software chunk
in a PNG unless asked; nothing here asks."""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont

from reportgen.render.html import TEMPLATES

WIDTH, HEIGHT = 1200, 630
MARGIN = 72
VERSION = "2"  # part of every file name: bump it when the drawing changes, so that every card is redrawn
# zlib's level: 3 (version 2) compresses a card in 2.8 ms instead of 7.0 at the default 6 (version 1),
# for a file 25 % larger (about 25 KB against 20): the same pixels. Half a card's cost in a first build.
COMPRESSION = 3
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
        shown = " ; ".join(" ".join(part for part in line if part) for line in self.lines)
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


def draw(card: Card) -> bytes:
    """The card as PNG bytes: a band with the league's name, the title and subtitle, the lines."""
    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    pen.rectangle((0, 0, WIDTH, 96), fill=ACCENT)
    pen.text((MARGIN, 48), _fit(card.league, "semibold", 32, inner), font=_font("semibold", 32),
             fill=WHITE, anchor="lm")
    pen.text((MARGIN, 170), _fit(card.title, "bold", 58, inner), font=_font("bold", 58),
             fill=ACCENT, anchor="ls")
    pen.text((MARGIN, 232), _fit(card.subtitle, "regular", 36, inner), font=_font("regular", 36),
             fill=MUTED, anchor="ls")
    top = 290
    places = [_fit(place, "bold", 38, inner / 3) for place, _, _ in card.lines[:4]]
    # one column of places, so that the names line up
    place_width = max([_length(place, "bold", 38) for place in places if place] + [0.0])
    place_width = place_width + 28 if place_width else 0.0
    for index, ((_, name, value), place) in enumerate(zip(card.lines[:4], places)):
        y = top + index * 78
        pen.rounded_rectangle((MARGIN - 16, y, WIDTH - MARGIN + 16, y + 64), radius=12, fill=BAND)
        middle = y + 32
        value = _fit(value, "regular", 34, inner / 2)  # the home page's value is a name
        value_width = _length(value, "regular", 34) if value else 0
        pen.text((WIDTH - MARGIN, middle), value, font=_font("regular", 34), fill=MUTED, anchor="rm")
        pen.text((MARGIN, middle), place, font=_font("bold", 38), fill=ACCENT, anchor="lm")
        room = inner - place_width - value_width - 32
        pen.text((MARGIN + place_width, middle), _fit(name, "semibold", 38, room),
                 font=_font("semibold", 38), fill=INK, anchor="lm")
    out = io.BytesIO()
    image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, format="PNG",
                                                                      compress_level=COMPRESSION)
    return out.getvalue()


def image(card: Card, folder: Path) -> bytes:
    """The card's bytes: those of outputs/site/ when a build already drew it (named from what it
    shows, so the same), else drawn now."""
    try:
        known = (folder / card.file_name()).read_bytes()
    except OSError:
        known = b""
    return known if known.startswith(PNG_SIGNATURE) and known.endswith(PNG_END) else draw(card)
