# Croupier — the two commands a newcomer needs are `make run` and `make test` (README).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO_ROUNDS ?= 60

.PHONY: run test lint bench faults venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@$(PY) -m pip install --quiet -e ".[dev]"
	@rm -f $(VENV)/.installed-* && touch $@

# Embedded default: SQLite, Celery tasks in process, demo floor. With DATABASE_URL and
# CELERY_BROKER_URL set: PostgreSQL + Redis, web + worker + beat under honcho (Procfile); the database's
# owner and service roles are set up first (DATABASE_OWNER_URL, DATABASE_ADMIN_URL: docs/operations.md).
run: $(STAMP)
	@case "$$DATABASE_URL" in \
		postgres*) $(PY) manage.py db_setup -v0 ;; \
		*) $(PY) manage.py migrate --noinput -v0 ;; \
	esac
	@$(PY) manage.py collectstatic --noinput -v0
	@$(PY) manage.py demo --rounds $(DEMO_ROUNDS) --if-empty
	@echo "Croupier on http://$(HOST):$(PORT)/  API docs http://$(HOST):$(PORT)/api/docs/  admin http://$(HOST):$(PORT)/admin/"
	@if [ -n "$$DATABASE_URL" ] && [ -n "$$CELERY_BROKER_URL" ]; then \
		echo "PostgreSQL + Redis: web, Celery worker and beat (honcho, Procfile)"; \
		HOST=$(HOST) PORT=$(PORT) exec $(VENV)/bin/honcho start -f Procfile; \
	else \
		echo "Embedded mode: SQLite at var/, Celery tasks run in process"; \
		exec $(PY) manage.py runserver $(HOST):$(PORT) --noreload; \
	fi

# The whole suite on the real PostgreSQL and Redis at 127.0.0.1.
test: $(STAMP)
	@$(PY) -m casino.services_check
	@$(VENV)/bin/pytest -n 2 --dist loadgroup -q $(PYTEST_ARGS)

lint: $(STAMP)
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/lint-imports

# Every benchmark (bench/common.py is their shared helpers, not one); each prints one JSON line last.
bench: $(STAMP)
	@for b in bench/*.py; do [ "$$b" = bench/common.py ] && continue; echo "== $$b"; $(PY) $$b || exit 1; done

# The fault tests alone (they also run in `make test`): broker down, killed workers, a stopped
# PostgreSQL under load, schemathesis, login lockout and security headers. Serial: they start
# their own servers and workers.
faults: $(STAMP)
	@$(VENV)/bin/pytest tests/faults -m faults -q $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var staticfiles
