"""League settings: defaults, overridden by an optional `reportgen.toml` in the inputs folder.

    [league]
    name = "Ligue Grand Sud"

    [circuits.grand-sud]
    min_counted_results = 1
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen.model import Problem, SourceRef

SETTINGS_FILE = "reportgen.toml"


@dataclass(frozen=True)
class League:
    name: str = "Ligue Grand Sud des clubs de Des Chiffres et des Lettres"
    circuits: dict[str, Any] = field(default_factory=dict)  # slug -> that circuit's Settings


def load(inputs: Path, defaults: dict[str, Any], problems: list[Problem]) -> League:
    """The league's settings; `defaults` maps each circuit slug to its default Settings."""
    path = inputs / SETTINGS_FILE
    raw: dict[str, Any] = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            problems.append(Problem(SourceRef(SETTINGS_FILE), f"le fichier de réglages est illisible ({error})"))
    circuits = dict(defaults)
    for slug, overrides in raw.get("circuits", {}).items():
        if slug not in defaults:
            problems.append(Problem(SourceRef(SETTINGS_FILE), f"le circuit « {slug} » n'existe pas",
                                    "circuits connus : " + ", ".join(defaults)))
            continue
        known = {f.name: f for f in dataclasses.fields(defaults[slug])}
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            problems.append(Problem(SourceRef(SETTINGS_FILE), f"réglage inconnu pour {slug} : {', '.join(unknown)}",
                                    "réglages possibles : " + ", ".join(known)))
            continue
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()}
        circuits[slug] = dataclasses.replace(defaults[slug], **values)
    return League(name=raw.get("league", {}).get("name", League.name), circuits=circuits)
