"""The embedded mode's beat: with no broker (``make run`` without ``CELERY_BROKER_URL``), tasks run in
the process, and the jobs Celery beat would run on a schedule run in a thread of the web server.

So the demo on a laptop behaves like the floor: a closed shift that nobody reconciled is picked up by
``accounting.reconcile_due_shifts``, the audit trail's chain heads are signed (``audit_checkpoint``)
and verified. The outbox relay is left out: in this mode a job runs when its transaction commits.
Started by ``casino.core``'s app config when ``runserver`` serves; never with a broker, never in tests.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

SKIP = {"casino.outbox.relay"}  # a broker's job: in process, jobs run on commit
FIRST_RUN_AFTER_S = 10.0  # let the server start first
_started = threading.Event()


def enabled(argv: list[str] | None = None) -> bool:
    """Embedded (tasks in process, no broker) and this process is the development server that serves."""
    argv = sys.argv if argv is None else argv
    if not settings.CELERY_TASK_ALWAYS_EAGER or settings.CELERY_BROKER_URL:
        return False
    if argv[1:2] != ["runserver"]:
        return False
    import os

    return "--noreload" in argv or os.environ.get("RUN_MAIN") == "true"  # the reloader's child serves


def _is_due(schedule: Any, since: float) -> bool:
    """Whether an entry last run ``since`` seconds ago is due: a number or a timedelta is its period; a Celery
    schedule (a crontab: the nightly check) says so itself, from when it last ran."""
    if isinstance(schedule, int | float | dt.timedelta):
        period = schedule.total_seconds() if isinstance(schedule, dt.timedelta) else float(schedule)
        return since >= period
    last_run = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=since)
    return bool(schedule.is_due(last_run).is_due)


def due(schedule: dict[str, dict[str, Any]], last: dict[str, float], now: float) -> list[tuple[str, str]]:
    """The (entry, task) pairs due since they last ran (all of them the first time)."""
    out = []
    for name, entry in schedule.items():
        if entry["task"] in SKIP:
            continue
        if name not in last or _is_due(entry["schedule"], now - last[name]):
            out.append((name, entry["task"]))
    return out


def run_due(last: dict[str, float], now: float | None = None) -> list[str]:
    """Run every due job once, in this thread; returns the tasks run. A failing job is logged, not raised:
    the next tick tries it again, as beat would."""
    # on use: importing the Celery app sets it up from the Django settings (casino/celery.py)
    from casino.celery import app

    now = time.monotonic() if now is None else now
    ran = []
    for name, task_name in due(settings.CELERY_BEAT_SCHEDULE, last, now):
        last[name] = now
        task = app.tasks.get(task_name)
        if task is None:
            app.loader.import_default_modules()
            task = app.tasks[task_name]
        result = task.apply(throw=False)
        if result.failed():
            log.warning("embedded beat: %s failed: %s", task_name, result.result)
        ran.append(task_name)
    return ran


def _loop() -> None:
    time.sleep(FIRST_RUN_AFTER_S)
    last: dict[str, float] = {}
    while True:
        close_old_connections()  # this thread's own connection: like a worker, one that went away is replaced
        run_due(last)
        close_old_connections()
        time.sleep(5.0)


def start() -> bool:
    """Start the beat thread once, if this process is the embedded development server."""
    if not enabled() or _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_loop, name="embedded-beat", daemon=True).start()
    log.info("embedded mode: the beat's jobs (reconcile due shifts, audit checkpoints) run in this process")
    return True
