"""Test settings: the real PostgreSQL and Redis on 127.0.0.1 (README, "Quick start"), fast hashing."""

from __future__ import annotations

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/croupier")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")

from casino.settings import *  # noqa: E402,F403
from casino.settings import DATABASES  # noqa: E402

DATABASES["default"]["CONN_MAX_AGE"] = 0
# pytest-django empties tables between transactional tests with TRUNCATE, which the append-only
# triggers allow only in a session that sets this (row UPDATE/DELETE stay refused).
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c croupier.test_teardown=on"
DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_croupier")}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Jobs run in process in most tests; tests of the broker itself use Redis for real.
CELERY_TASK_ALWAYS_EAGER = True
OPS_EXPECT_WORKER = False  # jobs run in process here; tests of the heartbeats turn it on
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": "1000/min"}}  # noqa: F405
