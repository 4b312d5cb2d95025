"""``/health/live``, ``/health/serve`` and ``/health/ready``: for the orchestrator, the load balancer and
the monitoring.

Answered by the first middleware, before host validation, the HTTPS redirect, sessions and
authentication: a probe needs no account, no ``Host`` from ``ALLOWED_HOSTS`` and no TLS, and the
body names each check with its figure and nothing secret (no address, no password, no URL).

* live: the process answers (200), nothing else is touched (for restarting a hung process);
* serve: what this web process needs to serve the floor, PostgreSQL reachable and migrated, and
  nothing else (the load balancer's probe: Redis, the worker, beat and the outbox never take a web
  process out of the pool, since rounds bet, deal and settle without them);
* ready: all of it, for the monitoring and a deploy's go/no-go: PostgreSQL, Redis (cache and
  broker), a worker ran the heartbeat job recently, beat sent a job recently, the outbox's oldest
  unsent job is young enough. 503 when any fails, and a late worker or beat is put down to its
  cause: the job queue's Redis unreachable (``cause: broker``) or the process itself
  (``cause: worker`` / ``beat``). ``?checks=database,redis`` judges only those.

A failing ready probe also raises the stale-job alerts (at most once a minute per process); the
web processes raise them on a timer too (``casino.ops.watch``), so they appear on the screens even
when the worker, beat or the broker that would raise them is down and nobody probes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from casino.ops import probes, status

log = logging.getLogger("croupier.ops")

LIVE_PATHS = ("/health/live", "/health/live/")
SERVE_PATHS = ("/health/serve", "/health/serve/")
READY_PATHS = ("/health/ready", "/health/ready/")
SERVE_CHECKS = ["database"]  # what a web process needs to serve the floor
ALERT_EVERY = 60.0  # seconds between stale-job alert runs from this process's probes
_migrated = False  # once every migration is applied it stays so for this code: no need to look again
_alerted_at = 0.0


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


_problem = probes.problem


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
        body["error"] = f"{pending} migration(s) not applied: run manage.py db_setup (docs/operations.md, Upgrade)"
    return body


def _ping(url: str) -> dict[str, Any]:
    answer = probes.ping(url)
    if not answer.ok:
        return {"ok": False, "error": f"unreachable ({answer.problem})", "ms": answer.ms}
    return {"ok": True, "ms": answer.ms}


def check_redis() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"ok": True, "configured": False}
    return _ping(settings.REDIS_URL)


class _Broker:
    """The job queue's Redis, pinged at most once per readiness answer (the broker, worker and beat checks)."""

    def __init__(self) -> None:
        self._answer: dict[str, Any] | None = None

    def check(self) -> dict[str, Any]:
        if self._answer is None:
            url = settings.CELERY_BROKER_URL
            if settings.CELERY_TASK_ALWAYS_EAGER or not url:
                self._answer = {"ok": True, "configured": False, "jobs": "run in process"}
            elif probes.broker_url() is None:
                self._answer = {"ok": True, "configured": True, "checked": False}
            else:
                self._answer = _ping(url)
        return dict(self._answer)


_WHY = {
    "worker": "no worker has run the heartbeat job in time: the worker is not running (or is stuck)",
    "beat": "beat has sent no job in time: beat is not running, or every send fails",
}


def _beat_body(beat: status.Beat, now: Any, broker: _Broker) -> dict[str, Any]:
    age = beat.age(now)
    late = beat.late(now, strict=True)
    body: dict[str, Any] = {"ok": not late, "last_seen": beat.last.isoformat() if beat.last else None,
                            "age_seconds": None if age is None else round(age, 1),
                            "late_after_seconds": beat.late_after}
    if beat.host:
        body["host"] = beat.host
    if late:
        down = broker.check()
        if not down["ok"]:  # the process may well be up: it is the job queue it cannot reach
            body["cause"] = "broker"
            body["error"] = (f"the job queue's Redis is {down['error']}: no job reaches a worker"
                             if beat.name == "worker" else f"the job queue's Redis is {down['error']}: beat cannot "
                             f"send")
        else:
            body["cause"] = beat.name
            body["error"] = _WHY[beat.name]
    return body


def _jobs_check(pick: Callable[[dict[str, Any]], status.Beat], broker: _Broker) -> dict[str, Any]:
    if not status.jobs_expected():
        return {"ok": True, "expected": False, "jobs": "run in process"}
    try:
        beats = status.heartbeats()
    except DatabaseError as exc:
        return {"ok": False, "error": f"database unavailable ({_problem(exc)})"}
    return _beat_body(pick(beats), timezone.now(), broker)


def check_broker(broker: _Broker | None = None) -> dict[str, Any]:
    return (broker or _Broker()).check()


def check_worker(broker: _Broker | None = None) -> dict[str, Any]:
    return _jobs_check(status.worker_beat, broker or _Broker())


def check_beat(broker: _Broker | None = None) -> dict[str, Any]:
    return _jobs_check(status.beat_beat, broker or _Broker())


def check_outbox() -> dict[str, Any]:
    try:
        count, oldest = status.outbox_state()
    except DatabaseError as exc:
        return {"ok": False, "error": f"database unavailable ({_problem(exc)})"}
    age = 0.0 if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())
    limit = settings.OUTBOX_STUCK_AFTER
    return {"ok": age <= limit, "pending": count, "oldest_age_seconds": round(age, 1),
            "stuck_after_seconds": limit}


CHECKS: dict[str, Callable[[_Broker], dict[str, Any]]] = {
    "database": lambda _: check_database(),
    "redis": lambda _: check_redis(),
    "broker": check_broker,
    "worker": check_worker,
    "beat": check_beat,
    "outbox": lambda _: check_outbox(),
}


def readiness(names: list[str] | None = None) -> tuple[bool, dict[str, Any]]:
    """Run the checks (all, or ``names``); the database first, and the checks that need it skipped
    (reported failed) when it is unreachable, so a probe never waits on it twice."""
    names = names or list(CHECKS)
    broker = _Broker()
    results: dict[str, Any] = {}
    for name in names:
        database_down = results.get("database", {}).get("error", "").startswith("unreachable")
        if name in ("worker", "beat", "outbox") and database_down:
            results[name] = {"ok": False, "error": "database unavailable"}
            continue
        results[name] = CHECKS[name](broker)
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


def serve_response() -> HttpResponse:
    """The load balancer's probe: 200 while this web process can serve the floor (the database), whatever
    Redis, the worker, beat and the outbox do (readiness and the metrics report those)."""
    ok, results = readiness(SERVE_CHECKS)
    if not ok:
        log.warning("cannot serve: %s", ", ".join(n for n, r in results.items() if not r["ok"]))
    body = {"status": "ok" if ok else "fail", "checks": results,
            "failing": [n for n, r in results.items() if not r["ok"]]}
    return JsonResponse(body, status=200 if ok else 503, headers={"Cache-Control": "no-store"})


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
        if path in LIVE_PATHS or path in SERVE_PATHS or path in READY_PATHS:
            if request.method not in ("GET", "HEAD"):
                return JsonResponse({"status": "method not allowed"}, status=405, headers={"Allow": "GET, HEAD"})
            if path in LIVE_PATHS:
                return JsonResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})
            if path in SERVE_PATHS:
                return serve_response()
            return ready_response(request)
        return self.get_response(request)
