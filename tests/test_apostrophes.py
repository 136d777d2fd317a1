"""The typographic apostrophe (’, U+2019) in reportgen's own French words, as French typography
writes it: the templates' text (the site's pages, the bulletins, the mails) never elides with the
straight one (« l’arbitre », « n’a », never « l'arbitre »). A name from a workbook is data and keeps
the apostrophe it was typed with (« Tournoi d'Albi », « D'ARTAGNAN »): nothing rewrites it."""

from __future__ import annotations

import re
from pathlib import Path

from jinja2 import Environment

from reportgen.render.html import TEMPLATES

# A French elision with the straight apostrophe: « l'a », « d'un », « qu'il », « S'abonner ».
STRAIGHT = re.compile(r"(?<![\w'’])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)'(?=\w)", re.IGNORECASE)
# What a template writes that no reader reads as words: its comments, a stylesheet's or script's
# text, a tag and its attributes (a class, an URL, a script's string).
UNREAD = re.compile(r"\{#.*?#\}|<(style|script)\b.*?</\1>|/\*.*?\*/|<[^>]*>", re.S)


def straight_elisions(text: str) -> list[str]:
    """Each straight elision of the words of `text` (an HTML template's or page's), with its context."""
    words = UNREAD.sub(" ", text)
    return [words[max(0, m.start() - 15):m.end() + 8] for m in STRAIGHT.finditer(words)]


def test_no_template_elides_with_a_straight_apostrophe():
    lexer = Environment(trim_blocks=True, lstrip_blocks=True)
    found = {}
    for path in sorted(Path(TEMPLATES).rglob("*.j2")):
        source = path.read_text(encoding="utf-8")
        # its text and its expressions' string literals (« {{ "l'un" if … }} » is read too)
        words = "\n".join(value for _, kind, value in lexer.lex(UNREAD.sub(" ", source)) if kind in ("data", "string"))
        if elisions := straight_elisions(words):
            found[str(path.relative_to(TEMPLATES))] = elisions
    assert not found, found


def test_the_check_finds_a_straight_elision_in_words_only():
    assert straight_elisions("<p>Aucun document n'a été corrigé</p>") == ["Aucun document n'a été co"]
    assert len(straight_elisions("n'a, qu'il, l'un, S'abonner, jusqu'au")) == 5
    # English possessives, a class, an URL, a comment and a stylesheet are not French words
    assert not straight_elisions("""{# the site's page #}<a class="x" href="l'a.html" title='d'>l’un</a>"""
                                 "<style>/* a bulletin's note */ p::before { content: 'l'; }</style>")
