"""``/health/live`` and ``/health/ready``: for the load balancer, the orchestrator and the monitoring.

Answered by the first middleware, before host validation, the HTTPS redirect, sessions and
authentication: a probe needs no account, no ``Host`` from ``ALLOWED_HOSTS`` and no TLS, and the
body names each check with its figure and nothing secret (no address, no password, no URL).

* live: the process answers (200), nothing else is touched;
* ready: PostgreSQL reachable and migrated, Redis (cache and broker) reachable, a worker ran the
  heartbeat job recently, beat sent a job recently, the outbox's oldest unsent job is young
  enough. 503 when any fails. ``?checks=database,redis`` judges only those (what a load balancer
  should ask of a web process: a dead worker must not take the floor's screens offline).

A failing ready probe also raises the stale-job alerts (at most once a minute per process), so
they appear on the screens even when the worker or the broker that would raise them is down.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from redis import Redis
from redis.exceptions import RedisError

from casino.ops import status

log = logging.getLogger("croupier.ops")

LIVE_PATHS = ("/health/live", "/health/live/")
READY_PATHS = ("/health/ready", "/health/ready/")
ALERT_EVERY = 60.0  # seconds between stale-job alert runs from this process's probes
_migrated = False  # once every migration is applied it stays so for this code: no need to look again
_redis_clients: dict[str, Redis] = {}
_alerted_at = 0.0


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _problem(exc: BaseException) -> str:
    """What went wrong without the message (which may carry a host, a user or a URL)."""
    return type(exc).__name__


def check_database() -> dict[str, Any]:
    global _migrated
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pending = 0
        if not _migrated:
            executor = MigrationExecutor(connection)
            pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
            _migrated = pending == 0
    except DatabaseError as exc:
        connection.close_if_unusable_or_obsolete()
        return {"ok": False, "error": f"unreachable ({_problem(exc)})", "ms": _ms(started)}
    body: dict[str, Any] = {"ok": pending == 0, "ms": _ms(started), "migrations_pending": pending}
    if pending:
        body["error"] = f"{pending} migration(s) not applied: run manage.py migrate"
    return body


def _redis(url: str) -> Redis:
    client = _redis_clients.get(url)
    if client is None:
        client = _redis_clients[url] = Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    return client


def _ping(url: str) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        _redis(url).ping()
    except (RedisError, OSError) as exc:
        return {"ok": False, "error": f"unreachable ({_problem(exc)})", "ms": _ms(started)}
    return {"ok": True, "ms": _ms(started)}


def check_redis() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"ok": True, "configured": False}
    return _ping(settings.REDIS_URL)


def check_broker() -> dict[str, Any]:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url:
        return {"ok": True, "configured": False, "jobs": "run in process"}
    if urlparse(url).scheme not in ("redis", "rediss"):
        return {"ok": True, "configured": True, "checked": False}
    return _ping(url)


def _beat_body(beat: status.Beat, now: Any) -> dict[str, Any]:
    age = beat.age(now)
    body: dict[str, Any] = {"ok": not beat.late(now), "last_seen": beat.last.isoformat() if beat.last else None,
                            "age_seconds": None if age is None else round(age, 1),
                            "late_after_seconds": beat.late_after}
    if beat.host:
        body["host"] = beat.host
    return body


def _jobs_check(pick: Callable[[dict[str, Any]], status.Beat]) -> dict[str, Any]:
    if not status.jobs_expected():
        return {"ok": True, "expected": False, "jobs": "run in process"}
    try:
        beats = status.heartbeats()
    except DatabaseError as exc:
        return {"ok": False, "error": f"database unavailable ({_problem(exc)})"}
    return _beat_body(pick(beats), timezone.now())


def check_worker() -> dict[str, Any]:
    return _jobs_check(status.worker_beat)


def check_beat() -> dict[str, Any]:
    return _jobs_check(status.beat_beat)


def check_outbox() -> dict[str, Any]:
    try:
        count, oldest = status.outbox_state()
    except DatabaseError as exc:
        return {"ok": False, "error": f"database unavailable ({_problem(exc)})"}
    age = 0.0 if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())
    limit = settings.OUTBOX_STUCK_AFTER
    return {"ok": age <= limit, "pending": count, "oldest_age_seconds": round(age, 1),
            "stuck_after_seconds": limit}


CHECKS: dict[str, Callable[[], dict[str, Any]]] = {
    "database": check_database,
    "redis": check_redis,
    "broker": check_broker,
    "worker": check_worker,
    "beat": check_beat,
    "outbox": check_outbox,
}


def readiness(names: list[str] | None = None) -> tuple[bool, dict[str, Any]]:
    """Run the checks (all, or ``names``); the database first, and the checks that need it skipped
    (reported failed) when it is unreachable, so a probe never waits on it twice."""
    names = names or list(CHECKS)
    results: dict[str, Any] = {}
    for name in names:
        database_down = results.get("database", {}).get("error", "").startswith("unreachable")
        if name in ("worker", "beat", "outbox") and database_down:
            results[name] = {"ok": False, "error": "database unavailable"}
            continue
        results[name] = CHECKS[name]()
    return all(r["ok"] for r in results.values()), results


def _raise_stale_alerts() -> None:
    global _alerted_at
    if time.monotonic() - _alerted_at < ALERT_EVERY:
        return
    _alerted_at = time.monotonic()
    try:
        status.stale_jobs_alert()
    except DatabaseError as exc:
        log.warning("stale-job alerts not raised: %s", exc)


def ready_response(request: HttpRequest) -> HttpResponse:
    wanted = [n.strip() for n in request.GET.get("checks", "").split(",") if n.strip()]
    unknown = sorted(set(wanted) - set(CHECKS))
    if unknown:
        return JsonResponse({"status": "bad request", "error": f"unknown check(s): {', '.join(unknown)}",
                             "checks_known": list(CHECKS)}, status=400)
    ok, results = readiness(wanted or None)
    if not ok:
        log.warning("not ready: %s", ", ".join(n for n, r in results.items() if not r["ok"]))
        if results.get("database", {"ok": True})["ok"]:
            _raise_stale_alerts()
    body = {"status": "ok" if ok else "fail", "checks": results,
            "failing": [n for n, r in results.items() if not r["ok"]]}
    return JsonResponse(body, status=200 if ok else 503, headers={"Cache-Control": "no-store"})


class HealthMiddleware:
    """First in ``MIDDLEWARE``: answers the two probes before anything else looks at the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path in LIVE_PATHS or path in READY_PATHS:
            if request.method not in ("GET", "HEAD"):
                return JsonResponse({"status": "method not allowed"}, status=405, headers={"Allow": "GET, HEAD"})
            if path in LIVE_PATHS:
                return JsonResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})
            return ready_response(request)
        return self.get_response(request)
