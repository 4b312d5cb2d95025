"""Shared fixtures. Database fixtures live in ``tests/fixtures.py`` and are loaded as a plugin
only when Django is (engine tests run with ``-p no:django`` and need none of it)."""

from __future__ import annotations

pytest_plugins = ["tests.fixtures"]

# Property tests judge what comes out, never how fast: no per-example deadline (Hypothesis's default is 200 ms,
# which a loaded machine can exceed) and no "too slow" health check (no test may depend on a quiet
# machine). A test that needs its own settings still sets them.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("croupier")
