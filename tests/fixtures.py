"""The floor as tests need it: a pit, a baccarat table, an open shift, staff of every role."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _audit_anchors(request: Any, tmp_path: Any) -> None:
    """Each test anchors the audit trail's checkpoints in a directory of its own (casino/audit/verification.py).
    Without Django (``-p no:django``: the engine tests) there are no settings to set."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    request.getfixturevalue("settings").AUDIT_ANCHOR_DIR = str(tmp_path / "audit-anchors")


@pytest.fixture(autouse=True)
def _language_reset(request: Any) -> Any:
    """Each test starts and ends in the default language: a request made as a person who reads Spanish leaves
    Spanish active in the thread (the middleware activates the reader's language and nothing deactivates it), and
    the next test would read its English words translated."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def floor(db: Any) -> Any:
    from tests.factories import build_floor

    return build_floor()


@pytest.fixture
def api() -> Any:
    from tests.client import APIClient

    return APIClient()


def as_user(user: Any) -> Any:
    from tests.client import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def dealer_api(floor: Any) -> Any:
    return as_user(floor.dealer)


@pytest.fixture
def manager_api(floor: Any) -> Any:
    return as_user(floor.manager)


@pytest.fixture
def now() -> dt.datetime:
    from django.utils import timezone

    return timezone.now()


def sqlite_env(folder: Any) -> dict[str, str]:
    """The environment of a process of the embedded mode on the SQLite database in ``folder`` (its audit anchors
    beside it; never the repository's var/), without this run's Django, pytest or Celery settings."""
    import os
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "CELERY_"))}
    env.update({"DATABASE_URL": f"sqlite:///{folder / 'croupier.sqlite3'}", "DJANGO_SETTINGS_MODULE": "casino.settings",
                "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "AUDIT_ANCHOR_DIR": str(folder / "anchors")})
    return env


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: Any) -> Any:
    """A SQLite database migrated as `make run` migrates it (``manage.py migrate`` in a process of its own), once
    per run: the embedded mode's tests copy it (:func:`fresh_sqlite`) instead of each migrating its own, which
    took 20–40 s apiece. Its directory also holds what the migration wrote beside it (the audit's anchors).
    Under xdist one worker migrates it (the workers' temporary directories share a parent that is the run's
    own), the others wait for it under a lock and read the same copy."""
    import fcntl
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # this run's, shared by its workers (alone, the parent is every run's)
    folder = shared / "sqlite-migrated"
    with open(shared / "sqlite-migrated.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "migrated").exists():
            folder.mkdir(exist_ok=True)
            done = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root,
                                  env=sqlite_env(folder),
                                  capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
            (folder / "migrated").touch()
    return folder


def fresh_sqlite(migrated: Any, folder: Any) -> None:
    """``folder`` gets a copy of the migrated SQLite database (``croupier.sqlite3``, with its write-ahead log if
    one is left) and of the anchors the migration wrote (``anchors/``): the state ``manage.py migrate`` leaves."""
    import shutil

    for name in ("croupier.sqlite3", "croupier.sqlite3-wal", "croupier.sqlite3-shm"):
        if (migrated / name).exists():
            shutil.copy2(migrated / name, folder / name)
    if (migrated / "anchors").exists():
        shutil.copytree(migrated / "anchors", folder / "anchors", dirs_exist_ok=True)


@pytest.fixture(scope="session")
def bench_env(django_db_setup: Any) -> dict[str, str]:
    """The environment a benchmark runs in from the suite: its databases are copies of this run's migrated
    template (``BENCH_TEMPLATE_DATABASE``: nothing left to migrate), on the suite's server and broker."""
    import os
    from pathlib import Path

    from django.conf import settings
    from django.db import connection

    from tests.dbbackend.base import template_name

    db = connection.settings_dict  # the test database's, once the session built it (the tests below ask for it)
    admin = db["TEST"]["PRIVILEGED"]
    password = f":{admin['PASSWORD']}" if admin.get("PASSWORD") else ""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_", "CELERY_", "BENCH_"))}
    env.update({
        "BENCH_SERVER_URL": f"postgres://{admin['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}",
        "BENCH_TEMPLATE_DATABASE": template_name(db["NAME"]),
        "BENCH_REDIS_URL": settings.CELERY_BROKER_URL,
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    })
    return env
