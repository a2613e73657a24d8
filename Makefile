# Two commands on a fresh machine:
#   make demo   — set up, record a demo campaign into ./demo.db, print its log and verify it
#   make test   — set up (PostgreSQL's server, tmux and chromium too, if missing), run the whole test suite
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed-stamp

.PHONY: demo test install postgres tmux chromium clean

# PYTHONWARNINGS reaches the build backend: setuptools' notice on every editable install
# ("Please be careful with folders…") read to newcomers as a failure.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" bash fixtures/demo.sh demo.db

postgres:
	@bash scripts/ensure-postgres.sh

tmux:
	@bash scripts/ensure-tmux.sh

chromium:
	@bash scripts/ensure-chromium.sh

test: $(STAMP) postgres tmux chromium
	$(BIN)/pytest

clean:
	rm -rf $(VENV) demo.db demo.db-wal demo.db-shm demo.db.key demo.db.checkpoint demo.db.secrets
