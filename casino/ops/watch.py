"""The web processes' watch: the stale-job check on a timer, so that an alert needs no worker, no beat
and no broker (the very things whose failure it reports) and nobody probing readiness.

gunicorn starts one watcher thread in each worker process (``casino/gunicorn.conf.py``,
``post_worker_init``). Every ``OPS_WATCH_EVERY`` seconds each wakes and tries to claim the round: a
conditional update of the ``casino.ops.watch`` heartbeat row, which only one process in the whole
deployment wins per period. The winner runs :func:`casino.ops.status.stale_jobs_alert` (an accounting
alert per late job, once per stall) and records the run on that row. The row's ``first_seen_at`` is when
a web process first watched here: the reference before which a worker that has never answered is not
yet late (no alert on a first start before the first heartbeat was due).
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading

from django.conf import settings
from django.db import DatabaseError, IntegrityError, close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from casino.context import RequestContext, acting_as
from casino.ops import status
from casino.ops.jobs import WATCH, job_record
from casino.ops.models import JobHeartbeat

log = logging.getLogger("croupier.ops")
_started: threading.Thread | None = None
_lock = threading.Lock()


def mark_started(now: dt.datetime | None = None) -> None:
    """Create the watch's row if it is missing: the moment the web processes first watched here."""
    now = now or timezone.now()
    if JobHeartbeat.objects.filter(name=WATCH).exists():
        return
    try:
        with transaction.atomic():
            JobHeartbeat.objects.create(name=WATCH, first_seen_at=now, runs=0, failures=0, host="web")
    except IntegrityError:
        pass  # another process made it meanwhile


def claim(now: dt.datetime, every: float) -> bool:
    """Whether this process runs this period's check: one conditional update, won by one process."""
    before = now - dt.timedelta(seconds=every * 0.9)
    won = JobHeartbeat.objects.filter(Q(last_started_at__isnull=True) | Q(last_started_at__lte=before),
                                      name=WATCH).update(last_started_at=now)
    return won == 1


def watch_once(*, every: float | None = None, now: dt.datetime | None = None) -> list[str] | None:
    """Run the stale-job check if no other web process has in this period; returns the late jobs' keys,
    or None when another process had the turn."""
    every = settings.OPS_WATCH_EVERY if every is None else every
    now = now or timezone.now()
    mark_started(now)
    if not claim(now, every):
        return None
    with acting_as(RequestContext(channel="system")):
        keys = [finding.key for finding in status.stale_jobs_alert(now)]
    job_record(name=WATCH, ok=True, host="web")
    return keys


def _loop(every: float) -> None:
    # a random first wait: the processes of a deployment do not all wake at once
    wait = random.uniform(1.0, min(every, 10.0))
    stop = threading.Event()
    while not stop.wait(wait):
        wait = every
        try:
            close_old_connections()
            watch_once(every=every)
        except DatabaseError as exc:  # the database is down: readiness and the probes say so
            log.warning("stale-job watch skipped: %s", exc)
        except Exception:
            log.exception("stale-job watch failed")
        finally:
            connection.close()  # this thread's own connection: never left open between rounds


def start() -> bool:
    """Start this process's watcher thread once (``OPS_WATCH_EVERY`` > 0 and a worker expected)."""
    global _started
    every = float(settings.OPS_WATCH_EVERY)
    if every <= 0 or not status.jobs_expected():
        return False
    with _lock:
        if _started is not None and _started.is_alive():
            return False
        _started = threading.Thread(target=_loop, args=(every,), name="croupier-stale-job-watch", daemon=True)
        _started.start()
    return True
