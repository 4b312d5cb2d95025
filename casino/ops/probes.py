"""Pinging Redis from any process (readiness, the metrics, the stale-job check): one client per URL,
a one-second limit, and the problem named without the message (which may carry a host or a password)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import urlparse

from django.conf import settings
from redis import Redis
from redis.exceptions import RedisError

TIMEOUT = 1.0  # seconds: a probe never waits longer on Redis
_clients: dict[str, Redis] = {}


@dataclass(frozen=True, slots=True)
class Ping:
    ok: bool
    ms: float
    problem: str = ""  # the exception's class name when not ok


def problem(exc: BaseException) -> str:
    """What went wrong without the message (which may carry a host, a user or a URL)."""
    return type(exc).__name__


def _client(url: str) -> Redis:
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)
    return client


def ping(url: str) -> Ping:
    started = time.perf_counter()
    try:
        _client(url).ping()
    except (RedisError, OSError) as exc:
        return Ping(False, round((time.perf_counter() - started) * 1000, 1), problem(exc))
    return Ping(True, round((time.perf_counter() - started) * 1000, 1))


def broker_url() -> str | None:
    """The job queue's Redis URL when there is one to ping (None: jobs run in process, or not Redis)."""
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url or urlparse(url).scheme not in ("redis", "rediss"):
        return None
    return str(url)


def broker_down() -> str | None:
    """The problem when the job queue's Redis does not answer now; None when it does (or is not checked)."""
    url = broker_url()
    if url is None:
        return None
    answer = ping(url)
    return None if answer.ok else answer.problem
