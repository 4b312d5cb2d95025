"""Test settings: the real PostgreSQL and Redis on 127.0.0.1, fast hashing, the application as the service role."""

from __future__ import annotations

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/croupier")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")

from casino.settings import *  # noqa: E402,F403
from casino.settings import DATABASES  # noqa: E402

DATABASES["default"]["CONN_MAX_AGE"] = 0
_TEST_DATABASE = os.environ.get("TEST_DATABASE_NAME", "test_croupier")
DATABASES["default"]["TEST"] = {
    "NAME": _TEST_DATABASE,
    # The suite runs as the service role, as production does (tests/dbbackend): DATABASE_URL's role (postgres
    # in CI) only creates the roles and the test database and empties tables between transactional tests.
    "OWNER": os.environ.get("TEST_DATABASE_OWNER", f"{_TEST_DATABASE}_owner"),
    "SERVICE": os.environ.get("TEST_DATABASE_SERVICE", f"{_TEST_DATABASE}_app"),
}
if DATABASES["default"]["ENGINE"] == "casino.dbbackend":
    DATABASES["default"]["ENGINE"] = "tests.dbbackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEMO_DAY_MARKER = ""  # no screen here says a demo day is being written (a `make run` beside the suite writes one)
# Jobs run in process in most tests; tests of the broker itself use Redis for real.
CELERY_TASK_ALWAYS_EAGER = True
OPS_EXPECT_WORKER = False  # jobs run in process here; tests of the heartbeats turn it on
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": "1000/min"}}  # noqa: F405
