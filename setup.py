"""What pyproject.toml cannot say: the packages are those found under reportgen/ (a new circuit
folder ships with no line anywhere), plus the templates/ folder, mapped to `reportgen.templates` in
pyproject.toml (a mapped folder rules out pyproject's own discovery)."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["reportgen", "reportgen.*"]), "reportgen.templates"])
