# Two commands for a fresh machine with only Python 3.11+ and the package registries:
#   make run    install into .venv and run the ladder on embedded defaults
#   make test   install the test dependencies into .venv and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint install install-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'

run: install
	$(BIN)/ladder up

test: install-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 --dist worksteal $(PYTEST_ARGS)

lint: install-test
	$(BIN)/ruff check .

# The site's rules pages ship each game's section of docs/rules.md inside the game's package (and the author docs, ladder/docs)
.PHONY: rules
rules: install
	$(BIN)/python -m ladder.rules_doc
	$(BIN)/python -m ladder.web.site_docs
