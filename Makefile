# reportgen — league bulletins from the clubs' result workbooks.
# `make` sets everything up and builds the example league; `make test` runs the tests.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXAMPLE := examples/league
# The league `make` builds: inputs/ as soon as it holds a workbook, the example league until then. A
# workbook is any file reportgen reads (.xlsx, .xlsm, .xlsb, .xls, .ods, whatever their case), never
# Excel's lock file (~$…) nor a hidden one, as ingest/discover.py says: `reportgen build` of a folder
# without one stops (exit 2).
LEAGUE := $(shell find -H inputs ! -type d \( -iname '*.xlsx' -o -iname '*.xlsm' -o -iname '*.xlsb' -o -iname '*.xls' \
                  -o -iname '*.ods' \) ! -path '*/~$$*' ! -path '*/.*' 2>/dev/null | grep -q . \
                  && echo inputs || echo $(EXAMPLE))

.DEFAULT_GOAL := all
.PHONY: all system system-test install build check test lint example clean distclean help bench

all: build ## Installer (la première fois) et produire bulletins et annexes de inputs/ (ou de la ligue d'exemple) dans outputs/

help: ## Lister les cibles
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# What `make` checks before building costs nothing once done (a no-op `make` is reportgen alone,
# well under a second: docs/performance.md): the system packages are checked again when their list
# or the script changes (`make -B system` checks now), the Python packages when pyproject.toml or
# constraints.txt change. Both stamps are in .venv/ (`make distclean` removes them).
SYSTEM_STAMP := $(VENV)/.system-packages

system: $(SYSTEM_STAMP) ## Installer les paquets système de system-packages.txt (apt-get), ou dire la commande à lancer

$(SYSTEM_STAMP): system-packages.txt scripts/system-packages.sh
	@PYTHON=$(PYTHON) scripts/system-packages.sh install
	@mkdir -p $(VENV) && touch $(SYSTEM_STAMP)

# The packages only the tests need (marked `test` in the list: Chromium, Dovecot, OpenSSH server...):
# `make test` installs them, `make` never does.
TEST_SYSTEM_STAMP := $(VENV)/.system-packages-test

system-test: $(TEST_SYSTEM_STAMP) ## Installer aussi les paquets système dont seuls les tests ont besoin

$(TEST_SYSTEM_STAMP): system-packages.txt scripts/system-packages.sh
	@PYTHON=$(PYTHON) scripts/system-packages.sh install test
	@mkdir -p $(VENV) && touch $(TEST_SYSTEM_STAMP)

# A first install takes a minute or two: each step says what it does (in French, then English),
# and pip shows the packages it collects and installs, so that a silent terminal never looks stuck.
$(STAMP): pyproject.toml constraints.txt | system
	@echo "Création de l'environnement Python $(VENV) / creating the Python environment $(VENV)"
	$(PYTHON) -m venv $(VENV)
	@echo "Mise à jour de pip / upgrading pip"
	$(BIN)/pip install --quiet --upgrade pip
	@echo "Installation de reportgen et de ses dépendances (constraints.txt), 1 à 2 minutes la première fois / installing reportgen and its dependencies, 1-2 minutes the first time"
	$(BIN)/pip install --progress-bar on -c constraints.txt -e '.[test]'
	touch $(STAMP)

install: system $(STAMP) ## Créer .venv et y installer reportgen et ses dépendances

build: system $(STAMP) ## Produire les bulletins (HTML, PDF) et les annexes (XLSX) dans outputs/
	@[ "$(LEAGUE)" = inputs ] || echo "inputs/ ne contient aucun classeur : construction de la ligue d'exemple ($(EXAMPLE))"
	$(BIN)/reportgen build --inputs $(LEAGUE) --outputs outputs

check: system $(STAMP) ## Vérifier les classeurs sans rien publier et lister chaque problème (outputs/verification.html)
	$(BIN)/reportgen check --inputs $(LEAGUE)

# The suite runs on two cores (pytest-xdist): tests of one xdist_group share a worker (--dist
# loadgroup), the others go to whichever worker is free. TEST_WORKERS=1 runs them in one process.
TEST_WORKERS ?= 2

test: system system-test $(STAMP) ## Lancer tous les tests (sur deux cœurs : TEST_WORKERS=1 pour un seul)
	$(BIN)/pytest -q $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup)

lint: $(STAMP) ## Vérifier le code : ruff (noms inutilisés, imports, syntaxe), puis mypy (types)
	$(BIN)/ruff check reportgen tests scripts benchmarks
	$(BIN)/mypy reportgen

example: $(STAMP) ## Régénérer la ligue d'exemple dans examples/league/ (reproductible)
	$(BIN)/python scripts/generate_example_league.py $(EXAMPLE)

bench: $(STAMP) ## Mesurer chaque phase d'une construction à 1x (BENCH="--scale 10" : 10x, 100x ; BENCH="--targets" : les cibles de l'issue 27) ; docs/performance.md
	$(BIN)/python -m benchmarks $(BENCH)

clean: ## Supprimer outputs/ et les dossiers temporaires laissés par une construction interrompue (jamais archive/ : les saisons archivées et le journal des envois)
	rm -rf outputs
	@if [ -x $(BIN)/python ]; then $(BIN)/python -m reportgen.render.scratch; fi  # render/scratch.py: only those no running build holds

distclean: clean ## Supprimer outputs/ et .venv
	rm -rf $(VENV)
