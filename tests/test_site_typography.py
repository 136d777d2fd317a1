"""French typography on the site's pages: the space before « : », « ; », « ? », « ! », inside « »
and before a separating « — » is a no-break one (U+00A0 or U+202F, reportgen/french.py
`typography`), so that a phone's line never starts with « : » or « — » nor leaves « » » alone. Checked on the visible text of every page of a
small league, its branches of a blocked circuit and of corrections included (the example league's
pages: tests/test_site.py)."""

from __future__ import annotations

import datetime as dt
import html
import re
from html.parser import HTMLParser

from reportgen import circuits
from reportgen.render.changes import Republished
from reportgen.site import publish
from reportgen.site.pages import Site

# an ordinary space (or a line break of the source) before the signs, or after « , or before a dash
# between words (not one opening a line): what may wrap
BREAKABLE = re.compile(r"[ \t\r\n][:;?!»]|«[ \t\r\n]|(?<=\S)[ \t\r\n]—(?=[ \t\r\n])")


class Visible(HTMLParser):
    """A page's text as a reader sees it laid out in lines: not its scripts and styles, nor its
    charts' <title> (a tooltip, never cut into lines; the same SVG bytes as the bulletins')."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hidden, self.svg, self.parts = 0, 0, []

    def _hides(self, tag: str) -> bool:
        return tag in ("script", "style") or (tag == "title" and self.svg > 0)

    def handle_starttag(self, tag, attrs):
        self.svg += tag == "svg"
        self.hidden += self._hides(tag)

    def handle_endtag(self, tag):
        self.hidden -= self._hides(tag)
        self.svg -= tag == "svg"

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def breakable_spaces(page: bytes) -> list[str]:
    """Each place of a page's visible text where French typing wants a no-break space, with its context."""
    parser = Visible()
    parser.feed(page.decode("utf-8"))
    text = "".join(parser.parts)
    return [text[max(0, m.start() - 30):m.end() + 10] for m in BREAKABLE.finditer(text)]


# The texts a page gives in its head that no reader sees laid out in it, but a search engine's result
# or a share card shows: the same typography as the page's (base.html.j2, `typography`).
META_TEXT = re.compile(r'<meta (?:name|property)="(?:description|og:description|og:image:alt)" content="([^"]*)">')


def meta_spaces(page: bytes) -> list[str]:
    """Each breakable space of a page's description and share image's text alternative."""
    return [text[max(0, m.start() - 30):m.end() + 10] for text in META_TEXT.findall(page.decode("utf-8"))
            for m in BREAKABLE.finditer(html.unescape(text))]


def site_pages(pages: dict[str, bytes]) -> dict[str, bytes]:
    return {path: page for path, page in pages.items() if path.endswith(".html")}


def test_no_sign_of_the_site_s_own_texts_follows_an_ordinary_space(small_league_built, tmp_path):
    outputs = small_league_built.outputs
    corrections = publish.corrections(tmp_path, [Republished(
        "grand-sud", "2026/classement-2026-01-10", "Classement", dt.date(2026, 1, 10),
        ("classeur corrigé", "tournoi en retard"))], "2026-02-01")
    for blocked in ((), ("grand-sud",)):
        # the league's name (the header, every <title>) with signs a phone could cut before
        pages = site_pages(Site(outputs, list(circuits.CIRCUITS), "Ligue Sud — Jeux : Cie", blocked=blocked,
                                corrections=corrections).pages())
        assert {"index.html", "site/corrections.html", "site/grand-sud-2025.html"} <= set(pages)
        assert any(path.startswith("site/joueur-") for path in pages) and any(
            path.startswith("site/club-") for path in pages)
        found = {path: spaces for path, page in pages.items() if (spaces := breakable_spaces(page))}
        assert not found, found
        # « Classements et résultats — Les classements en vigueur — … » in og:image:alt had plain spaces
        in_head = {path: spaces for path, page in pages.items() if (spaces := meta_spaces(page))}
        assert not in_head, in_head
        home, season = pages["index.html"].decode("utf-8"), pages["site/grand-sud-2025.html"].decode("utf-8")
        # the texts that were cut: each of them is there, now kept with its sign
        assert "Saisons précédentes&nbsp;:" in home and "classeur corrigé\u202f; tournoi en retard" in home
        # (its regulation's title, « Règlement Classement Masters », needs no « Règlement : » before it)
        assert "<cite>Règlement Classement Masters</cite>" in season and "Annexe&nbsp;:" in season
        assert "Autres saisons&nbsp;:" in season
        assert ("Des classeurs sont à corriger&nbsp;:" in season) == bool(blocked)
        # the home page too (docs/formats.md, « What gets published »): it showed the held circuit's
        # ranking without a word
        assert home.count('<p class="blocked">Des classeurs sont à corriger') == len(blocked)
    # A description with a separating dash (here the league's name, every page's default one) keeps
    # it with the word before, the no-break space written as the character, escaped as the rest.
    named = Site(outputs, list(circuits.CIRCUITS), "Ligue Sud — Jeux & Cie").pages()["index.html"].decode("utf-8")
    assert '<meta name="description" content="Ligue Sud\u00a0— Jeux &amp; Cie">' in named
    assert '<meta property="og:description" content="Ligue Sud\u00a0— Jeux &amp; Cie">' in named


def test_the_check_finds_each_breakable_space_and_only_in_the_visible_text():
    assert len(breakable_spaces("<p>Règlement : « Grand Sud » ; fini ? oui ! Tantrix — saison</p>".encode("utf-8"))) == 7
    # a dash kept with its word, or alone in a cell (« — »: no result)
    assert breakable_spaces("<p>Tantrix\u00a0— saison</p><td>1</td><td>—</td>".encode("utf-8")) == []
    assert breakable_spaces(("<script>a ; b</script><style>p :hover{}</style><svg><title>14/03 : 2</title>"
                             "<text>1</text></svg><p>Total\u00a0: 1 445\u202f; «\u00a0x\u00a0»</p>").encode("utf-8")) == []
