"""A player's page's lines made in Python (site/lines.py) are the bytes Jinja's loop made of them:
the loop the player's template had, rendered by the site's own environment (autoescape, trimmed
blocks), against `head` and `line`, with values a workbook may hold (markup, quotes, ampersands,
no club, no link)."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.render.html import environment
from reportgen.site import lines

# the player's template's loop before site/lines.py, as it was (a no-break space before its colon, and
# its date's sort key, since)
LOOP = """  <tbody>
  {% for line in s.lines %}
    <tr><td data-sort="{{ line.sort }}">{{ line.day }}</td><th scope="row">{{ line.kind }}&nbsp;: {% if line.url %}<a href="{{ line.url }}">{{ line.title }}</a>{% else %}{{ line.title }}{% endif %}</th><td>{{ line.rank }}</td><td>{{ line.value }}</td><td class="secondary">{{ line.club }}</td></tr>
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
]


def test_the_lines_are_the_bytes_of_the_template_loop():
    env = environment()
    before = env.from_string(LOOP).render(s={"lines": LINES})
    made = lines.table_body(lines.line(lines.head(line["day"], line["kind"], line["title"], line["url"], line["sort"]),
                                       line["rank"], line["value"], line["club"]) for line in LINES)
    assert isinstance(made, Markup)
    assert env.from_string(NOW).render(s={"lines": made}) == before
    assert "&lt;script&gt;" in before and "&amp;" in before  # escaped as autoescape does


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


def test_a_value_escaped_once_is_told_from_an_equal_value_of_another_type():
    """The escapes are cached (`_escaped`): 1 and True are equal keys for a plain cache."""
    assert lines.line("", 1, True, "") == '1</td><td>True</td><td class="secondary"></td></tr>\n'


# the player's template's results and places loops before site/lines.py `results` and `places`, as they were
# (a result's tournament added: its date, sorting key, name and link, as this loop would write them)
RESULTS_LOOP = """  <tbody>{% for sort, day, title, url, points, counted in s.results %}<tr><td data-sort="{{ sort }}">{{ day }}</td><th scope="row">{% if url %}<a href="{{ url }}">{{ title }}</a>{% else %}{{ title }}{% endif %}</th><td>{{ points }}</td><td>{% if counted is none %}—{% elif counted %}oui{% else %}non (hors des meilleurs résultats){% endif %}</td></tr>{% endfor %}</tbody>
  <tbody>{% for day, place in s.places %}<tr><td>{{ day }}</td><td>{{ place }}</td></tr>{% endfor %}</tbody>
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
    assert "&lt;b&gt;7&lt;/b&gt; &amp; &#39;x&#39;" in before and "<td>—</td>" in before and "<td>None</td>" in before
    assert 'href="tournoi-x&#39;y&amp;z.html">&lt;b&gt;Open' in before and "Open d&#39;Albi &amp; &#34;Foix&#34;" in before
    empty = {"results": lines.results([]), "places": lines.places([])}
    assert not empty["results"]  # `{% if s.results %}` leaves the table out, as for an empty list
    assert env.from_string(RESULTS_NOW).render(s=empty) == env.from_string(RESULTS_LOOP).render(
        s={"results": [], "places": []})


# a club's list of its players' tournaments before `event_item` (templates/site/club.html.j2), as it was
# (a no-break space before its colon since)
EVENTS_LOOP = """{% if events %}
<ul>{% for e in events %}<li>{{ e.day }} · {{ e.circuit }}&nbsp;: <a href="{{ here }}{{ e.url }}">{{ e.title }}</a></li>{% endfor %}</ul>
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
