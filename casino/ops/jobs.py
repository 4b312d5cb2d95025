"""Job heartbeats and job log lines, from Celery's own signals (connected when the app is ready).

* Every task run, in a worker or in process, updates its :class:`JobHeartbeat` row (runs, failures,
  last success) and writes one log line with its request id, status and duration.
* A worker is alive when it executes ``casino.ops.heartbeat``, which beat schedules every
  ``HEARTBEAT_EVERY`` seconds (its row is the worker's heartbeat); beat is alive when it sends
  anything (the ``beat`` row, written by the beat process itself once the broker took the job). Readiness, the metrics and the
  screens read these rows: nothing asks the broker or waits on a broadcast.
* A job carries the request id of the request that asked for it (a message header; the outbox keeps it
  on the job's row, so a job relayed after a broker outage carries it too), so the job's log line and
  audit records name the same id as the request's.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import socket
import time
from contextvars import Token
from typing import Any

from celery import signals
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from casino.context import request_id, serve, serving_now, unserve
from casino.ops.models import JobHeartbeat
from casino.outbox import REQUEST_ID_HEADER

log = logging.getLogger("croupier.job")

WORKER = "casino.ops.heartbeat"  # the heartbeat task's row is the worker's heartbeat
BEAT = "beat"
WATCH = "casino.ops.watch"  # the web processes' stale-job check (casino.ops.watch)
HEADER = REQUEST_ID_HEADER  # the message header that carries the request id
BEAT_WRITE_EVERY = 10.0  # seconds: beat sends a job every few seconds; one row update is enough
_HOST = socket.gethostname()
_in_beat = False
_beat_written = 0.0
_running: dict[str, tuple[Token[Any], float]] = {}


def job_record(*, name: str, ok: bool, host: str = "", duration_ms: int | None = None, error: str = "",
               at: dt.datetime | None = None) -> None:
    """Count one run of ``name`` (a success or a failure) on its heartbeat row, creating the row once.

    Never fails the job it records: a heartbeat that cannot be written is logged and dropped.
    """
    at = at or timezone.now()
    started = at - dt.timedelta(milliseconds=duration_ms or 0)
    fields: dict[str, Any] = {"runs": F("runs") + 1, "last_started_at": started, "last_duration_ms": duration_ms,
                              "host": host[:200]}
    if ok:
        fields["last_success_at"] = at
    else:
        fields.update(failures=F("failures") + 1, last_failure_at=at, last_error=error[:300])
    try:
        with transaction.atomic():  # a savepoint: a failed write must not spoil a caller's transaction
            if JobHeartbeat.objects.filter(name=name).update(**fields):
                return
            try:
                with transaction.atomic():
                    JobHeartbeat.objects.create(
                        name=name[:200], first_seen_at=started, last_started_at=started, last_duration_ms=duration_ms,
                        host=host[:200], runs=1, failures=0 if ok else 1, last_success_at=at if ok else None,
                        last_failure_at=None if ok else at, last_error="" if ok else error[:300])
            except IntegrityError:  # created meanwhile by another process: count on it
                JobHeartbeat.objects.filter(name=name).update(**fields)
    except DatabaseError as exc:
        log.warning("job heartbeat %s not recorded: %s", name, exc)


# -- beat -------------------------------------------------------------------------------------

@signals.beat_init.connect
def _beat_started(**_: Any) -> None:
    global _in_beat
    _in_beat = True


@signals.before_task_publish.connect
def _publishing(sender: str | None = None, headers: dict[str, Any] | None = None, **_: Any) -> None:
    rid = request_id()
    if headers is not None and rid and HEADER not in headers:  # the outbox relay sets the asking request's own
        headers[HEADER] = rid


@signals.after_task_publish.connect
def _published(**_: Any) -> None:
    """Beat's heartbeat: written once a send has succeeded (a beat whose every send fails goes late)."""
    global _beat_written
    if _in_beat and time.monotonic() - _beat_written >= BEAT_WRITE_EVERY:
        _beat_written = time.monotonic()
        job_record(name=BEAT, ok=True, host=f"beat@{_HOST}")


# -- every job ----------------------------------------------------------------------------------

@signals.task_prerun.connect
def _job_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id is None:
        return
    # The request's id travels in a header; in process (embedded mode), the request is still being served.
    origin = getattr(getattr(task, "request", None), HEADER, None)
    outer = serving_now()
    rid = str(origin or (outer.request_id if outer is not None else "") or task_id)[:64]
    _running[task_id] = (serve(rid), time.perf_counter())


@signals.task_postrun.connect
def _job_finished(task_id: str | None = None, task: Any = None, state: str | None = None, retval: Any = None,
                  **_: Any) -> None:
    started = _running.pop(task_id or "", None)
    if started is None:
        return
    token, t0 = started
    duration_ms = round((time.perf_counter() - t0) * 1000)
    ok = state == "SUCCESS"
    name = getattr(task, "name", "") or "unknown"
    host = getattr(getattr(task, "request", None), "hostname", None) or _HOST
    error = f"{type(retval).__name__}: {retval}" if isinstance(retval, BaseException) else (state or "")
    try:
        job_record(name=name, ok=ok, host=host, duration_ms=duration_ms, error="" if ok else error)
        now = serving_now()
        notes = now.notes if now is not None else {}
        fields = {"request_id": request_id(), "task": name, "task_id": task_id, "status": (state or "").lower(),
                  "duration_ms": duration_ms, "user": "system", "table": notes.get("table", ""),
                  "round": notes.get("round", "")}
        if not ok:
            fields["error"] = error[:300]
        log.log(logging.INFO if ok else logging.WARNING, "job %s %s", name, (state or "").lower(),
                extra={"croupier": fields})
    finally:
        with contextlib.suppress(ValueError):  # a token of another context (should not happen): leave it
            unserve(token)
