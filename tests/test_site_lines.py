"""A player's page's lines made in Python (site/lines.py) are the bytes Jinja's loop made of them:
the loop the player's template had, rendered by the site's own environment (autoescape, trimmed
blocks), against `head` and `line`, with values a workbook may hold (markup, quotes, ampersands,
no club, no link)."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.render.html import environment
from reportgen.site import lines

# the player's template's loop before site/lines.py, as it was (a no-break space before its colon, and
# its date's sort key, since; its dates' day and month kept on one line; then, for a phone, its kind left out when its title says it and its
# title's date, the line's own, in a `secondary` span: the thirtieth round; each row's and cell's role, which a phone's grid
# of two lines a row would lose, and its club's cell left out, None, where none of a player's lines of a season names
# one: the thirty-first)
LOOP = """  <tbody>
  {% for line in s.lines %}
  {% set k = line.kind|length %}
  {% set said = line.kind and not (line.title[:k]|lower == line.kind|lower and not line.title[k:k + 1].isalnum()) %}
  {% set found = namespace(ending="") %}
  {% for form in [" du " ~ line.day, " au " ~ line.day, " (" ~ line.day ~ ")"] %}
  {% if not found.ending and line.title.endswith(form) and line.title|length > form|length %}{% set found.ending = form %}{% endif %}
  {% endfor %}
  {% set name %}{% if found.ending %}{{ line.title[:-(found.ending|length)]|dates }}<span class="secondary">{{ found.ending|dates }}</span>{% else %}{{ line.title|dates }}{% endif %}{% endset %}
    <tr role="row"><td role="cell" data-sort="{{ line.sort }}">{{ line.day|dates }}</td><th scope="row" role="rowheader">{% if said %}{{ line.kind }}&nbsp;: {% endif %}{% if line.url %}<a href="{{ line.url }}">{{ name }}</a>{% else %}{{ name }}{% endif %}</th><td role="cell">{{ line.rank }}</td><td role="cell">{{ line.value }}</td>{% if line.club is not none %}<td role="cell" class="secondary">{{ line.club }}</td>{% endif %}</tr>
  {% endfor %}
  </tbody>
"""
NOW = """  <tbody>
{{ s.lines }}  </tbody>
"""

LINES = [
    {"day": "14 mars 2026", "sort": "20260314", "kind": "Classement", "title": "Classement au 14 mars 2026",
     "url": "../grand-sud/2026/classement-2026-03-14.html", "rank": "3=", "value": "1 086 pts", "club": "Albi"},
    {"day": "1er avril 2026", "sort": "20260401", "kind": "Tournoi", "title": "<b>Open</b> d'Albi & \"Foix\"", "url": "tournoi-0a1b.html",
     "rank": "", "value": "", "club": "Club <script>alert(1)</script>"},
    {"day": "2 mai 2026", "sort": "20260502", "kind": "", "title": "Sans lien", "url": None, "rank": "12", "value": "42,5 pts",
     "club": None},
    {"day": "3 mai 2026", "sort": "20260503", "kind": "Classement Elo", "title": "Elo", "url": "", "rank": "1", "value": "1 500 Elo",
     "club": "Saint-Gaudens & Co'"},
    # the circuits' titles: each says its kind, ends with its line's date (Grand Sud, Tour de France, Tantrix)
    {"day": "24 janvier 2026", "sort": "20260124", "kind": "Classement",
     "title": "Classement après le tournoi d'Albi & <Foix> du 24 janvier 2026", "url": "../a&b.html", "rank": "9",
     "value": "Total\u00a0:\u00a01 345", "club": "Nîmes"},
    {"day": "9 avril 2005", "sort": "20050409", "kind": "Classement", "title": "Classement après le tournoi de Lyon (9 avril 2005)",
     "url": "../tdf.html", "rank": "2", "value": "", "club": ""},
    {"day": "14 mars 2026", "sort": "20260314", "kind": "Classement Elo", "title": "Classement Elo au 14 mars 2026",
     "url": "../elo.html", "rank": "4", "value": "Elo\u00a0:\u00a01 612", "club": "Foix"},
    {"day": "16 mai 2026", "sort": "20260516", "kind": "Tournoi", "title": "Tournoi de Bordeaux", "url": "tournoi-1.html",
     "rank": "15", "value": "", "club": "Nîmes"},
    {"day": "16 mai 2026", "sort": "20260516", "kind": "Tournoi", "title": "tournoi d'Auch", "url": None,
     "rank": "15", "value": "", "club": "Nîmes"},
    # a title that does not say its kind, or another date: both kept
    {"day": "28 novembre 2026", "sort": "20261128", "kind": "Tournoi", "title": "Classement final", "url": "tournoi-2.html",
     "rank": "1", "value": "", "club": ""},
    {"day": "28 novembre 2026", "sort": "20261128", "kind": "Tournoi", "title": "Tournois de Noël du 27 novembre 2026",
     "url": None, "rank": "1", "value": "", "club": ""},
    {"day": "3 mai 2026", "sort": "20260503", "kind": "Classement Elo", "title": "Classement au 3 mai 2026", "url": "x.html",
     "rank": "1", "value": "", "club": ""},
    {"day": "3 mai 2026", "sort": "20260503", "kind": "Classement", "title": " du 3 mai 2026", "url": None,
     "rank": "1", "value": "", "club": ""},
]


def test_the_lines_are_the_bytes_of_the_template_loop():
    env = environment()
    before = env.from_string(LOOP).render(s={"lines": LINES})
    made = lines.table_body(lines.line(lines.head(line["day"], line["kind"], line["title"], line["url"], line["sort"]),
                                       line["rank"], line["value"], line["club"]) for line in LINES)
    assert isinstance(made, Markup)
    assert env.from_string(NOW).render(s={"lines": made}) == before
    assert "&lt;script&gt;" in before and "&amp;" in before  # escaped as autoescape does


def test_a_line_says_its_kind_once_and_hides_its_title_s_date_on_a_phone():
    """« Classement : Classement après le tournoi de Carcassonne du 24 janvier 2026 » beside « 24 janvier
    2026 » was six lines of a 390 px phone: its kind is said by its title, its date by its date column."""
    start = lines.head("24 janvier 2026", "Classement", "Classement après le tournoi de Carcassonne du 24 janvier 2026",
                       "../c.html", "20260124")
    assert start == ('    <tr role="row"><td role="cell" data-sort="20260124">24\u00a0janvier 2026</td><th scope="row" role="rowheader">'
                     '<a href="../c.html">Classement après le tournoi de Carcassonne<span class="secondary"> du 24\u00a0janvier 2026'
                     '</span></a></th><td role="cell">')
    said = {(kind, title): lines.says(title, kind) for kind, title in [
        ("Classement", "Classement final de la saison 2025"), ("Tournoi", "Tournoi d'Albi"),
        ("Classement Elo", "Classement Elo au 14 mars 2026"), ("Tournoi", "Classement final"),
        ("Tournoi", "Tournois de Noël"), ("Classement Elo", "Classement au 3 mai 2026"), ("Tournoi", "Tournoi")]}
    assert [kind for kind, title in said if not said[kind, title]] == ["Tournoi", "Tournoi", "Classement Elo"]
    assert lines.dated("Classement après Anjou Feu (23 septembre 2005)", "23 septembre 2005") == " (23 septembre 2005)"
    assert lines.dated("Classement après le tournoi de Foix du 27 juin 2026", "28 juin 2026") == ""


def test_no_lines_is_an_empty_body_as_before():
    env = environment()
    assert env.from_string(NOW).render(s={"lines": lines.table_body([])}) == env.from_string(LOOP).render(
        s={"lines": []})


# the `ranking` macro's loop before site/lines.py (templates/site/macros.html.j2), as it was
RANKING_LOOP = """  <tbody>
  {% for row in table.rows %}
    <tr><td data-sort="{{ row.sort }}">{{ row.rank }}</td><th scope="row">{% if row.url %}<a href="{{ here }}{{ row.url }}">{{ row.player }}</a>{% else %}{{ row.player }}{% endif %}</th>{% for c in row.cells %}<td{% if not c.main %} class="secondary"{% endif %}>{% if c.url %}<a href="{{ here }}{{ c.url }}">{{ c.value }}</a>{% else %}{{ c.value }}{% endif %}</td>{% endfor %}</tr>
  {% endfor %}
  </tbody>
"""
RANKING_NOW = """  <tbody>
{{ table.body }}  </tbody>
"""
ROWS = [
    {"sort": 1, "rank": "1", "player": "DURAND Anne", "url": "joueur-0a1b2c3d4e5f.html",
     "cells": [{"value": "1 086", "main": True, "url": None}, {"value": "Albi & <Co>", "main": False,
                                                               "url": "club-123456789abc.html"}]},
    {"sort": 0, "rank": "", "player": "A. B. \"l'Ancien\"", "url": None,
     "cells": [{"value": "", "main": True, "url": None}, {"value": "", "main": False, "url": None}]},
    {"sort": 3, "rank": "3=", "player": "<i>X</i>", "url": "joueur-ffffffffffff.html", "cells": []},
]


def test_a_ranking_s_rows_are_the_bytes_of_the_macro_loop():
    env = environment()
    for here in ("", "site/"):
        before = env.from_string(RANKING_LOOP).render(table={"rows": ROWS}, here=here)
        body = lines.table_body(lines.ranking_row(here, row["sort"], row["rank"], row["player"], row["url"],
                                                  [(c["value"], c["main"], c["url"], "") for c in row["cells"]])
                                for row in ROWS)
        assert env.from_string(RANKING_NOW).render(table={"body": body}) == before
        assert f'href="{here}joueur-0a1b2c3d4e5f.html"' in before and "&lt;i&gt;X" in before


def test_a_player_s_name_keeps_each_word_with_a_hyphen_on_one_line_its_text_unchanged():
    """« LECLERCQ Jean-/François » on a phone: each hyphenated word in a span that site.css keeps on
    one line while it fits (`.kept`, a box of its own), the name still free to wrap at its spaces, its
    text (searched, copied) the same."""
    kept = '<span class="kept">{}</span>'.format
    assert lines.player_name("LECLERCQ Jean-François") == f"LECLERCQ {kept('Jean-François')}"
    assert lines.player_name("SAINT-ÉLOI Marie-Claude Anne") == f"{kept('SAINT-ÉLOI')} {kept('Marie-Claude')} Anne"
    assert lines.player_name("D'ARTAGNAN Anne-Sophie") == f"D&#39;ARTAGNAN {kept('Anne-Sophie')}"
    assert lines.player_name("J.-F. L.") == f"{kept('J.-F.')} L."  # a name the site shows by its initials
    assert lines.player_name("<b>A-B</b> & co") == f"{kept('&lt;b&gt;A-B&lt;/b&gt;')} &amp; co"  # escaped first
    assert lines.player_name("DUPONT Jean") == "DUPONT Jean" and lines.player_name("X - Y") == "X - Y"
    assert "\u2011" not in lines.player_name("Jean-François")  # never a no-break hyphen in the text
    row = lines.ranking_row("", 1, "1", "MARTIN Jean-François", "joueur-1.html", [])
    assert f'<th scope="row"><a href="joueur-1.html">MARTIN {kept("Jean-François")}</a></th>' in row
    assert f'<th scope="row">MARTIN {kept("Jean-François")}</th>' in lines.ranking_row("", 1, "1", "MARTIN Jean-François",
                                                                                      None, [])


def test_a_value_escaped_once_is_told_from_an_equal_value_of_another_type():
    """The escapes are cached (`_escaped`): 1 and True are equal keys for a plain cache."""
    assert lines.line("", 1, True, "") == '1</td><td role="cell">True</td><td role="cell" class="secondary"></td></tr>\n'
    # a ranking's cells too (`_cell`): an evolution's drawing is Markup, a value equal to its text is not
    cells = [(Markup("<b>▲</b>"), True, None, ""), ("<b>▲</b>", True, None, ""), (True, True, None, ""), (1, True, None, "")]
    assert lines.ranking_row("", 1, "1", "X", None, cells).endswith(
        "<td><b>▲</b></td><td>&lt;b&gt;▲&lt;/b&gt;</td><td>True</td><td>1</td></tr>\n")


# the player's template's results and places loops before site/lines.py `results` and `places`, as they were
# (a result's tournament added: its date, sorting key, name and link, as this loop would write them; its
# long dates' day and month kept on one line since; its results' rows' and cells' roles, and its places' long
# dates, the thirty-first round)
RESULTS_LOOP = """  <tbody>{% for sort, day, title, url, points, counted in s.results %}<tr role="row"><td role="cell" data-sort="{{ sort }}">{{ day|dates }}</td><th scope="row" role="rowheader">{% if url %}<a href="{{ url }}">{{ title|dates }}</a>{% else %}{{ title|dates }}{% endif %}</th><td role="cell">{{ points }}</td><td role="cell">{% if counted is none %}—{% elif counted %}oui{% else %}non (hors des meilleurs résultats){% endif %}</td></tr>{% endfor %}</tbody>
  <tbody>{% for day, place in s.places %}<tr><td>{{ day|dates }}</td><td>{{ place }}</td></tr>{% endfor %}</tbody>
"""
RESULTS_NOW = """  <tbody>{{ s.results }}</tbody>
  <tbody>{{ s.places }}</tbody>
"""


def test_a_player_s_results_and_places_are_the_bytes_of_the_template_loops():
    env = environment()
    results = [("20260314", "14 mars 2026", "Open d'Albi & \"Foix\"", "tournoi-0a1b.html", "1 086", True),
               ("20260401", "1er avril 2026", "<b>Open</b>", "tournoi-x'y&z.html", "42,5", False),
               ("", "", "—", None, "<b>7</b> & 'x'", None), ("20260502", "2 mai 2026", "Sans lien", "", "0", True),
               (20260503, "3 mai", "Nombre", None, 3, False)]
    places = [("14 mars", 1), ("1er avr.", 12), ("<i>2 mai</i>", None), ("3 mai & co", "3=")]
    before = env.from_string(RESULTS_LOOP).render(s={"results": results, "places": places})
    made = {"results": lines.results(results), "places": lines.places(places)}
    assert env.from_string(RESULTS_NOW).render(s=made) == before
    assert "&lt;b&gt;7&lt;/b&gt; &amp; &#39;x&#39;" in before and '<td role="cell">—</td>' in before and "<td>None</td>" in before
    assert 'href="tournoi-x&#39;y&amp;z.html">&lt;b&gt;Open' in before and "Open d&#39;Albi &amp; &#34;Foix&#34;" in before
    empty = {"results": lines.results([]), "places": lines.places([])}
    assert not empty["results"]  # `{% if s.results %}` leaves the table out, as for an empty list
    assert env.from_string(RESULTS_NOW).render(s=empty) == env.from_string(RESULTS_LOOP).render(
        s={"results": [], "places": []})


# a club's list of its players' tournaments before `event_item` (templates/site/club.html.j2), as it was
# (a no-break space before its colon, and its dates' day and month kept on one line, since)
EVENTS_LOOP = """{% if events %}
<ul>{% for e in events %}<li>{{ e.day|dates }} · {{ e.circuit }}&nbsp;: <a href="{{ here }}{{ e.url }}">{{ e.title|dates }}</a></li>{% endfor %}</ul>
{% endif %}
"""
EVENTS_NOW = """{% if events %}
<ul>{{ events }}</ul>
{% endif %}
"""
EVENTS = [{"day": "1er avril 2026", "circuit": "Grand Sud", "title": "<b>Open</b> d'Albi & \"Foix\"",
           "url": "tournoi-0a1b2c3d4e5f.html"},
          {"day": "2 mai 2026", "circuit": "Tour <de> France & co", "title": "Sans titre", "url": "tournoi-x'y.html"}]


def test_a_clubs_tournaments_are_the_bytes_of_the_template_loop():
    env = environment()
    rendered = []
    for events in (EVENTS, EVENTS[:1], []):
        before = env.from_string(EVENTS_LOOP).render(events=events, here="")
        made = lines.table_body(lines.event_item(e["day"], e["circuit"], e["title"], e["url"]) for e in events)
        assert env.from_string(EVENTS_NOW).render(events=made, here="") == before
        rendered.append(before)
    assert "&lt;b&gt;" in rendered[0] and "&amp;" in rendered[0] and rendered[2] == ""  # escaped; none: no list
