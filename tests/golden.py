"""Golden files: reviewed outputs a test compares with. After an intended change, regenerate
them with REPORTGEN_UPDATE_GOLDEN=1 and review their diff like code.

A CI run (the `CI` environment variable set, as CI services do) must compare, never rewrite: there
REPORTGEN_UPDATE_GOLDEN=1 is refused as soon as this module is imported, before any test runs."""

import json
import os
from pathlib import Path

FOLDER = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REPORTGEN_UPDATE_GOLDEN") == "1"
ON_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")

if UPDATE and ON_CI:
    raise RuntimeError(
        "REPORTGEN_UPDATE_GOLDEN=1 is refused when CI is set: a CI run compares the outputs with "
        "tests/golden/, it never rewrites them. Regenerate the golden files on your machine, review "
        "their diff and commit it.")


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
