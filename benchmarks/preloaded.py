"""Preloaded by the PDF fork server in `benchmarks.rebuild_phases --timeline`, after WeasyPrint and
render/pdf.py: its import marks the moment the server is ready to fork a worker (the timeline's
« WeasyPrint imported in the fork server »). Nothing else imports it."""

import os
import time

if os.environ.get("REBUILD_MARKS"):
    with open(os.environ["REBUILD_MARKS"], "a", encoding="utf-8") as marks:
        marks.write(f"{time.monotonic()!r} WeasyPrint imported in the fork server\n")
