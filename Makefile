# reportgen — league bulletins from the clubs' result workbooks.
# `make` sets everything up and builds the example league; `make test` runs the tests.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXAMPLE := examples/league
# The league `make` builds: inputs/ as soon as it holds a workbook, the example league until then.
LEAGUE := $(shell find inputs -name '*.xls*' ! -name '~$$*' 2>/dev/null | grep -q . && echo inputs || echo $(EXAMPLE))

.DEFAULT_GOAL := all
.PHONY: all system install build check test lint example clean distclean help

all: build ## Install (first time) and build every bulletin from inputs/ (or the example league) into outputs/

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

system: ## Install the system packages of system-packages.txt (apt-get), or say the command to run
	@PYTHON=$(PYTHON) scripts/system-packages.sh install

$(STAMP): pyproject.toml constraints.txt | system
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

install: system $(STAMP) ## Create .venv and install reportgen with its dependencies

build: system $(STAMP) ## Build bulletins (HTML, PDF) and annexes (XLSX) into outputs/
	@[ "$(LEAGUE)" = inputs ] || echo "inputs/ ne contient aucun classeur : construction de la ligue d'exemple ($(EXAMPLE))"
	$(BIN)/reportgen build --inputs $(LEAGUE) --outputs outputs

check: system $(STAMP) ## Validate the workbooks in inputs/ and list every problem
	$(BIN)/reportgen check --inputs $(LEAGUE)

test: system $(STAMP) ## Run the whole test suite
	$(BIN)/pytest -q

lint: $(STAMP) ## Check the code: ruff (unused names, import order, syntax), then mypy (types)
	$(BIN)/ruff check reportgen tests scripts
	$(BIN)/mypy reportgen

example: $(STAMP) ## Regenerate the example league in examples/league/ (seeded, reproducible)
	$(BIN)/python scripts/generate_example_league.py $(EXAMPLE)

clean: ## Remove outputs/ (never archive/: the archived seasons and the send log)
	rm -rf outputs

distclean: clean ## Remove outputs/ and .venv
	rm -rf $(VENV)
