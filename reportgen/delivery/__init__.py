"""Delivery: the bulletins e-mailed to the clubs (drafts, sending, the send log), the yearly
archive (frozen files, their manifest, the league's database) and players' history.

It sits above the pipeline (it reads leagues through `pipeline.load` and `pipeline.score`) and
below the CLI; the database is `archive/league.sqlite` (docs/archive.md)."""
