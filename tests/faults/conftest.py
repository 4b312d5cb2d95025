"""Fault tests: the service under broken brokers, killed workers, a stopped database and fuzzing.

All of them run in one xdist group (some start subprocesses: workers, gunicorn, servers), so
``make test`` keeps them on one worker; ``make faults`` runs just these. Their broker is a Redis
server of their own on a free port (``redis_url``), and their PostgreSQL clusters are their own
too: two runs on one machine never touch each other's queues or data.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/faults/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.faults)
            if item.config.pluginmanager.hasplugin("xdist"):
                item.add_marker(pytest.mark.xdist_group("faults"))


@contextlib.contextmanager
def _own_redis() -> Iterator[object]:
    """A throwaway Redis server (no persistence, a free loopback port), destroyed afterwards."""
    from casino.devservers import ThrowawayRedis

    try:
        server = ThrowawayRedis()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    server.start()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[object]:
    """This run's broker for the fault tests."""
    with _own_redis() as server:
        yield server


@pytest.fixture
def private_redis() -> Iterator[object]:
    """A Redis server for one test alone (which may stop it)."""
    with _own_redis() as server:
        yield server


@pytest.fixture(scope="session")
def redis_url(redis_server: object) -> str:
    return redis_server.url()  # type: ignore[attr-defined]
