"""Where each tournament's files go, under the circuit's output folder: `<year>/<workbook>/…`."""

from __future__ import annotations

from pathlib import PurePosixPath

from reportgen.circuits.common import slug


def event_folder(event_id: str, year: int) -> str:
    """The folder of one tournament: its year and its workbook's name (« poules/Open d'été.xlsx »
    -> 2026/open-d-ete)."""
    return f"{year}/{slug(PurePosixPath(event_id).stem)}"
