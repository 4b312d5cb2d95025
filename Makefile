# Croupier — the two commands a newcomer needs are `make run` and `make test` (README).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The locked, hashed installs (pip-tools): requirements-dev.txt for development, tests and `make run`
# (the service, its dev tools and honcho), requirements.txt for the service alone. `make lock` rewrites
# both from pyproject.toml; a change to either file reinstalls.
LOCK := requirements-dev.txt
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(LOCK) | cksum | cut -d' ' -f1)
COMPILE := $(VENV)/bin/pip-compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
	--no-emit-find-links
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO_ROUNDS ?= 60

.PHONY: run test lint bench faults venv lock clean locale

venv: $(STAMP)

$(STAMP): pyproject.toml $(LOCK)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	@PYTHONWARNINGS=ignore::Warning $(PY) -m pip install --quiet --no-deps --no-build-isolation -e .  # (setuptools warns on every editable install)
	@rm -f $(VENV)/.installed-* && touch $@

# The catalogs (docs/languages.md): every marked message extracted into locale/ for each language, then compiled
# to the .mo files the server reads (committed, so a clean clone needs no gettext). Needs gettext's tools.
# --keyword=N_: the pure packages' marker (tables/scoring/refusals.py; tables/management/commands/makemessages.py).
LOCALES := -l en -l zh_Hant -l zh_Hans -l es
locale: $(STAMP)
	@$(PY) manage.py makemessages -d django $(LOCALES) --keyword=N_ --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=static/vendor --ignore=bench --ignore=artifacts
	@$(PY) manage.py makemessages -d djangojs $(LOCALES) --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=static/vendor --ignore=bench --ignore=artifacts
	@$(PY) manage.py compilemessages --ignore=.venv

# After a change to the dependencies in pyproject.toml: pin them (and what they need) with hashes.
lock: $(STAMP)
	@$(COMPILE) -o requirements.txt pyproject.toml
	@$(COMPILE) --extra dev --extra procfile -o $(LOCK) pyproject.toml

# Embedded default: SQLite, Celery tasks in process, demo floor. With DATABASE_URL and
# CELERY_BROKER_URL set: PostgreSQL + Redis, web + worker + beat under honcho (Procfile); the database's
# owner and service roles are set up first (DATABASE_OWNER_URL, DATABASE_ADMIN_URL: docs/operations.md).
run: $(STAMP)
	@case "$$DATABASE_URL" in \
		postgres*) $(PY) manage.py db_setup -v0 ;; \
		*) $(PY) manage.py migrate --noinput -v0 ;; \
	esac
	@$(PY) manage.py collectstatic --noinput -v0
	@$(PY) manage.py demo --rounds $(DEMO_ROUNDS) --if-empty --background  # the day written while it serves
	@echo "Croupier on http://$(HOST):$(PORT)/  API docs http://$(HOST):$(PORT)/api/docs/  admin http://$(HOST):$(PORT)/admin/"
	@echo "Health http://$(HOST):$(PORT)/health/live  http://$(HOST):$(PORT)/health/ready  metrics http://$(HOST):$(PORT)/metrics  (docs/operations.md)"
	@if [ -n "$$DATABASE_URL" ] && [ -n "$$CELERY_BROKER_URL" ]; then \
		echo "PostgreSQL + Redis: web, Celery worker and beat (honcho, Procfile)"; \
		HOST=$(HOST) PORT=$(PORT) exec $(VENV)/bin/honcho start -f Procfile; \
	else \
		echo "Embedded mode: SQLite at var/, Celery tasks run in process"; \
		exec $(PY) manage.py runserver $(HOST):$(PORT) --noreload; \
	fi

# The whole suite on PostgreSQL and Redis: those at DATABASE_URL / REDIS_URL / CELERY_BROKER_URL
# (default 127.0.0.1) when they answer, otherwise throwaway ones started and removed by
# casino/services_check.py (initdb in a temporary directory, redis-server on a free port).
# The engines' tests and examples run without Django (they need no database: docs/extending.md), in one process
# beside everything else (TEST_WORKERS xdist workers; the fault tests are one group, on one of them): the engines use the
# CPU the others leave while they wait (the template database being built, servers starting, timers). Their
# report follows the rest's; either failing fails `make test`. With PYTEST_ARGS (a path, -k …) the suite runs
# once, as asked.
ENGINE_TESTS := tests/engines tables/engines
# xdist workers: two on two cores (a third, tried on 2026-11-28, oversubscribed them: three browsers, the fault
# tests' servers and PostgreSQL at a load average of 8 to 11, and the suite was no faster)
TEST_WORKERS ?= 2
test: $(STAMP)
	@if [ -z "$(PYTEST_ARGS)" ]; then \
		engines_log=$$(mktemp); \
		$(VENV)/bin/pytest $(ENGINE_TESTS) -p no:django -q >"$$engines_log" 2>&1 & engines=$$!; \
		trap 'kill $$engines 2>/dev/null; rm -f "$$engines_log"' EXIT; \
		$(PY) -m casino.services_check -- $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup -q $(addprefix --ignore=,$(ENGINE_TESTS)); \
		rest=$$?; wait $$engines; engines_status=$$?; \
		echo "== the engines' tests and examples, without Django ($(ENGINE_TESTS)):"; cat "$$engines_log"; \
		[ $$engines_status -eq 0 ] || exit $$engines_status; exit $$rest; \
	else \
		$(PY) -m casino.services_check -- $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup -q $(PYTEST_ARGS); \
	fi

# ruff; import-linter (the engines' purity and the one-way layers, docs/architecture.md); mypy (pyproject.toml).
lint: $(STAMP)
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/lint-imports
	@$(VENV)/bin/mypy

# Every benchmark at full size (bench/common.py is their shared helpers, not one); each prints one JSON line
# last (bench/mixed.py: 1,000 tables at dealer pace, 10 pit dashboards, the month's export and the audit's full
# verification, each alone then together). The suite runs each at a small size (tests/test_benchmarks.py), so none
# stops working unnoticed.
bench: $(STAMP)
	@for b in bench/*.py; do [ "$$b" = bench/common.py ] && continue; echo "== $$b"; $(PY) $$b || exit 1; done

# The fault tests alone (they also run in `make test`): broker down, killed workers, a stopped
# PostgreSQL under load, schemathesis, login lockout and security headers. Serial: they start
# their own servers and workers.
faults: $(STAMP)
	@$(PY) -m casino.services_check -- $(VENV)/bin/pytest tests/faults -m faults -q $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var staticfiles
