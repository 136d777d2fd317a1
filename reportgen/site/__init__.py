"""The league's public website in outputs/ (issue 24): static pages drawn from what each circuit
published, openable from the file system and uploadable as is (relative links, no request leaving
the page). `data.py` writes each circuit's rankings as plain data beside its manifest; `pages.py`
draws the pages from those files; `publish.py` writes them all together, only what changed.

It sits in the render layer (beside `reportgen.render`, which it uses): it knows no circuit and
reads only the model's types and the files the circuits published."""
