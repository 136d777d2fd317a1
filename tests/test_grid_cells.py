"""A Grand Sud bulletin's grid of results written by `rendered_each` (render/html.py), each distinct
cell rendered once from grand-sud/grid_cell.j2: the bytes the loop over every cell wrote, escaping
included, whatever the cells and their order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reportgen.render.html import environment

# The grid as the bulletin's template wrote it before, a cell at a time (the oracle).
LOOP = """{% for cell in cells %}
      <td class="pts {{ cell.kind }}">{{ cell.text }}{% if cell.kind == "dropped" %}<span class="sr-only"> (non retenu)</span>{% endif %}</td>
{% endfor %}"""

CELLS = st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["absent", "counted", "dropped", "<b>"]),
                                        "text": st.sampled_from(["", "12", "1\u202f035", "<script>", "a&b", '"'])}),
                 max_size=12)


@given(st.lists(CELLS, min_size=1, max_size=4))
def test_each_row_of_the_grid_is_what_the_loop_over_its_cells_wrote(rows):
    found = environment()
    loop = found.from_string(LOOP)
    each = found.filters["rendered_each"]
    for row in rows:
        assert str(each(row, "grand-sud/grid_cell.j2")) == loop.render(cells=row)
