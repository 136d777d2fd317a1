"""The `Tournoi` sheet every tournament workbook carries: field, value (docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.french import date_long
from reportgen.ingest.common_fields import COMMON_FIELDS
from reportgen.ingest.text import normalise_label
from reportgen.ingest.values import DATE_FIX, date, is_empty, read_cell, shown, text
from reportgen.ingest.workbook import Workbook
from reportgen.model import FIELDS_SHEET, Problem, SourceRef, cell_name
from reportgen.problems import FUTURE_DATE, MISSING_FIELD, MISSING_SHEET

SHEET = FIELDS_SHEET  # its labels head its rows: each a field, so said (model.in_sheet)


@dataclass
class TournamentSheet:
    workbook: Workbook
    values: dict[str, tuple[object, SourceRef]]
    sheet_ref: SourceRef
    fields: dict[str, tuple[str, ...]]  # key -> labels, the first as printed

    def ref(self, key: str) -> SourceRef:
        return self.values[key][1] if key in self.values else self.sheet_ref

    def read(self, key: str, parse, problems: list[Problem], required: bool = True, fill: str | None = None):
        """The field `key` parsed, or None after a located problem; `fill`, the fix of an empty one: a
        field of a few values says them, as a value it refuses does (a circuit's parse gives them),
        where « remplissez-le » left the club to guess; a date its format (`DATE_FIX`), whoever reads it."""
        if fill is None:
            fill = DATE_FIX if parse is date else "remplissez-le"
        if key not in self.values:
            if required:
                label = self.fields[key][0]
                problems.append(MISSING_FIELD(self.sheet_ref, label=label))
            return None
        value, ref = self.values[key]
        sheet = self.workbook.sheet(SHEET)
        assert sheet is not None  # read_tournament_sheet built self from this sheet
        return read_cell(value, lambda: ref, sheet.untrusted_formulas, parse, problems, required,
                         (f"le champ « {self.fields[key][0]} » est vide", fill))


def read_name_and_date(sheet: TournamentSheet, today, problems: list[Problem]):
    """The `Nom` and `Date` every tournament has; a date after `today` is refused."""
    name = sheet.read("nom", text, problems)
    day = sheet.read("date", date, problems)
    if day and day > today:
        problems.append(FUTURE_DATE(sheet.ref("date"), day=date_long(day)))
    return name, day


def read_tournament_sheet(workbook: Workbook, problems: list[Problem],
                          circuit_fields: dict[str, tuple[str, ...]]) -> TournamentSheet | None:
    """The `Tournoi` sheet's fields, common ones (`COMMON_FIELDS`) and `circuit_fields`, in any order."""
    fields = {**COMMON_FIELDS, **circuit_fields}
    by_label = {normalise_label(label): key for key, labels in fields.items() for label in labels}
    sheet = workbook.sheet(SHEET)
    if sheet is None:
        problems.append(MISSING_SHEET(workbook.ref(), sheet=SHEET, present=workbook.present(),
                                      fix="ajoutez une feuille « Tournoi » avec les champs Circuit, Nom, Date…"))
        return None
    values: dict[str, tuple[object, SourceRef]] = {}
    for row, cells in enumerate(sheet.rows):
        filled = [(col, value) for col, value in enumerate(cells) if not is_empty(value)]
        if not filled:
            continue
        key = by_label.get(normalise_label(shown(filled[0][1])))
        if key is None or key in values:
            continue
        value_col = filled[1][0] if len(filled) > 1 else filled[0][0] + 1
        value = filled[1][1] if len(filled) > 1 else ""
        values[key] = (value, SourceRef(workbook.label, sheet.name, cell_name(row, value_col),
                                        fields[key][0]))
    return TournamentSheet(workbook, values, workbook.ref(sheet), fields)
