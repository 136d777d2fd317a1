"""Where each tournament's files go, under the circuit's output folder: `<year>/<workbook>/…`."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import PurePosixPath


def slug(text: str) -> str:
    """Lower-case ASCII words joined by hyphens (« LÉGER Zoé » -> leger-zoe); a digest for a text
    without any such letter."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", plain)
    return "-".join(words)[:60].strip("-") or hashlib.sha256(text.encode()).hexdigest()[:10]


def event_folder(event_id: str, year: int) -> str:
    """The folder of one tournament: its year and its workbook's name (« poules/Open d'été.xlsx »
    -> 2026/open-d-ete)."""
    return f"{year}/{slug(PurePosixPath(event_id).stem)}"
