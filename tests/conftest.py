"""Shared fixtures. Database fixtures live in ``tests/fixtures.py`` and are loaded as a plugin
only when Django is (engine tests run with ``-p no:django`` and need none of it)."""

from __future__ import annotations

pytest_plugins = ["tests.fixtures"]
