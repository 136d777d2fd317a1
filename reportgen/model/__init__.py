"""The types every layer shares: where a value comes from, what is wrong with it, the events the
circuits parse, the documents, annexes and standings they describe.

This package imports nothing of reportgen's but itself: `ingest`, `scoring`, `circuits` and `render` all
build on it (docs/architecture.md, "Layers").

Its modules: `cells.py` (where a value comes from, what is wrong with it), `events.py` (what the
circuits parse), `documents.py` (what they describe for the renderers, input changes, e-mail
drafts), `rankings.py` (standings), `report.py` (a circuit's report, a task's progress); every name
is imported from `reportgen.model` itself.
"""

from reportgen.model.cells import (
    Level,
    MistypedName,
    Problem,
    ReportgenError,
    SourceRef,
    cell_name,
    cell_position,
    column_index,
    column_letter,
    put_back,
    shown_path,
)
from reportgen.model.documents import (
    INPUT_KINDS,
    Annex,
    AnnexColumn,
    AnnexSheet,
    Attachment,
    Cell,
    ClubSection,
    Deferred,
    Document,
    InputChange,
    InputRule,
    MadeFrom,
    Message,
    SheetEdit,
)
from reportgen.model.events import (
    Entry,
    Event,
    ResultRow,
    place_number,
)
from reportgen.model.rankings import (
    DECIDED_HEADER,
    DECIDED_WIDTH,
    IDENTITY_COLUMNS,
    RANK_AND_PLAYER,
    Column,
    LeftOut,
    Legend,
    Move,
    Ranking,
    RankingRow,
    Scope,
    ScopeKind,
    Status,
    headings,
    move,
    played_days,
    provisional_title,
    published_title,
)
from reportgen.model.report import (
    SILENT,
    Messages,
    Progress,
    Report,
    ResultColumn,
)

__all__ = [
    "Annex",
    "AnnexColumn",
    "AnnexSheet",
    "Attachment",
    "Cell",
    "ClubSection",
    "Column",
    "DECIDED_HEADER",
    "DECIDED_WIDTH",
    "Deferred",
    "Document",
    "MadeFrom",
    "Move",
    "Entry",
    "Event",
    "IDENTITY_COLUMNS",
    "INPUT_KINDS",
    "InputChange",
    "InputRule",
    "Message",
    "Messages",
    "MistypedName",
    "Level",
    "LeftOut",
    "Legend",
    "Problem",
    "Progress",
    "RANK_AND_PLAYER",
    "Ranking",
    "RankingRow",
    "Report",
    "ResultColumn",
    "ReportgenError",
    "ResultRow",
    "SILENT",
    "Scope",
    "ScopeKind",
    "SheetEdit",
    "SourceRef",
    "Status",
    "cell_name",
    "cell_position",
    "column_index",
    "column_letter",
    "put_back",
    "shown_path",
    "headings",
    "move",
    "place_number",
    "played_days",
    "provisional_title",
    "published_title",
]
