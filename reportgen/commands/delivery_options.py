"""The options the delivery commands share (`mail`, `remind`, `inbox`, `archive`, `history`, `publish`):
where the published files and the archive are; each command takes only those it reads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

OutputsOption = Annotated[Path, typer.Option("--outputs", help="Dossier des bulletins publiés (ce que produit make).")]
ArchiveOption = Annotated[Path, typer.Option("--archive", help="Dossier de l’archive (saisons figées, base de "
                                                                "données, journal des envois).")]
