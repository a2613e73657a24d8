# Two commands on a fresh machine:
#   make demo   — set up, record a demo campaign into ./demo.db, print its log and verify it
#   make test   — set up, start a throwaway PostgreSQL, run the whole test suite
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed-stamp

.PHONY: demo test install postgres chromium clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" bash fixtures/demo.sh demo.db

postgres:
	@bash scripts/ensure-postgres.sh

chromium:
	@bash scripts/ensure-chromium.sh

test: $(STAMP) postgres chromium
	$(BIN)/pytest

clean:
	rm -rf $(VENV) demo.db demo.db-wal demo.db-shm
