"""Golden files: reviewed outputs a test compares with. After an intended change, regenerate
them with REPORTGEN_UPDATE_GOLDEN=1 and review their diff like code."""

import json
import os
from pathlib import Path

FOLDER = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REPORTGEN_UPDATE_GOLDEN") == "1"


def check(name: str, current: str, as_json: bool = False) -> None:
    path = FOLDER / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(current)
    expected = path.read_text()
    if as_json:
        assert json.loads(current) == json.loads(expected), f"review the diff of {name}, then REPORTGEN_UPDATE_GOLDEN=1"
    else:
        assert current == expected, f"review the diff of {name}, then REPORTGEN_UPDATE_GOLDEN=1"
