"""The templates, stylesheet and fonts, installed as the package `reportgen.templates`.

This folder is edited here, at the top of the repository; pyproject.toml maps it to
`reportgen.templates` so that `importlib.resources.files("reportgen.templates")` finds it in the
editable install of `make` and in a built wheel alike (reportgen/render/html.py).
"""
