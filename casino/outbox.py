"""The transactional outbox: Celery jobs that survive a broker outage.

A service calls :func:`enqueue` inside its transaction. The job becomes an :class:`Outbox` row in
that same transaction, so it exists exactly when the change that asked for it does. Once the
transaction commits the row is sent to the broker; if Redis is down the request still succeeds
(PostgreSQL is the record) and the row stays ``pending`` until the relay sends it:

* the ``casino.outbox.relay`` beat task, every ``OUTBOX_RELAY_EVERY`` seconds;
* the next enqueue that reaches the broker (it relays what is left behind, in a bounded batch);
* ``python manage.py relay_outbox`` (by hand, or from cron where there is no beat).

Delivery is at least once: a row is sent, then marked ``sent`` with a conditional update under
``SELECT … FOR UPDATE SKIP LOCKED``, so two relays never send the same row; if the database
fails between the send and the mark the row is sent again with the same task id, which is why
every task is idempotent. In the embedded mode (``CELERY_TASK_ALWAYS_EAGER``) the job runs in
process once the transaction commits.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import threading
import time
import uuid
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import RedisError

from casino import task_names
from casino.context import request_id
from casino.core.models import Outbox, OutboxStatus

log = logging.getLogger(__name__)

# What a publish raises when the broker cannot be reached (kombu wraps most, redis-py and the socket
# layer raise the rest); anything else is a bug and propagates.
BROKER_DOWN = (BrokerOperationalError, RedisError, OSError)
RELAY_BATCH = 200
# After a refused send, this process leaves sending to the relay for a few seconds instead of trying
# (and maybe waiting on a connect timeout) in every request.
BACKOFF_SECONDS = 5.0
REQUEST_ID_HEADER = "croupier_request_id"  # the message header casino.ops.jobs reads (and sets for direct sends)
_local = threading.local()
_down_until = 0.0


def enqueue(task_name: str, *, args: list[Any] | tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None,
            dedupe_key: str | None = None) -> Outbox:
    """Write the job in the caller's transaction; send it (or run it, embedded) once that commits.

    ``args`` and ``kwargs`` must be JSON (ids, not objects). With ``dedupe_key``, a second enqueue
    while the first is still pending returns the pending row instead of adding one.
    """
    row = Outbox(task_name=task_name, args=list(args), kwargs=dict(kwargs or {}), task_id=uuid.uuid4(),
                 dedupe_key=dedupe_key, created_at=timezone.now(), request_id=request_id()[:64])
    if dedupe_key is None:
        row.save(force_insert=True)
    else:
        try:
            with transaction.atomic():  # a savepoint: a duplicate key must not spoil the caller's transaction
                row.save(force_insert=True)
        except IntegrityError:
            existing = Outbox.objects.filter(dedupe_key=dedupe_key, status=OutboxStatus.PENDING).first()
            if existing is not None:
                return existing
            row.save(force_insert=True)  # the pending one was sent meanwhile: this is a new job
    transaction.on_commit(lambda: _dispatch(row.pk), robust=True)
    return row


def _dispatch(row_id: int) -> None:
    global _down_until
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _run_in_process(row_id)
        return
    if time.monotonic() < _down_until:
        return  # the broker refused a moment ago: the relay sends this row
    if send_one(row_id):
        relay_outbox(limit=RELAY_BATCH)  # the broker answers: send what an outage may have left behind
    else:
        _down_until = time.monotonic() + BACKOFF_SECONDS


def _run_in_process(row_id: int) -> None:
    # on use: importing the Celery app sets it up from the Django settings (casino/celery.py)
    from casino.celery import app

    with transaction.atomic():
        row = Outbox.objects.select_for_update(skip_locked=True).filter(pk=row_id, status=OutboxStatus.PENDING).first()
        if row is None:
            return
        _mark_sent(row)
    task = app.tasks.get(row.task_name)
    if task is None:
        app.loader.import_default_modules()  # the apps' tasks modules (autodiscovery is lazy)
        task = app.tasks[row.task_name]
    task.apply(args=row.args, kwargs=row.kwargs, task_id=str(row.task_id))


def _connection() -> Any:
    """This thread's broker connection for the outbox: it fails at once when the broker is down.

    Celery's own producer retries a refused connection for seconds; the relay is our retry, so a
    dealer's request never waits on a dead broker longer than one connect attempt.
    """
    # on use: importing the Celery app sets it up from the Django settings (casino/celery.py)
    from casino.celery import app

    conn = getattr(_local, "connection", None)
    if conn is None:
        options = {**(app.conf.broker_transport_options or {}), "max_retries": 0}
        conn = _local.connection = app.connection_for_write(transport_options=options)
    return conn


def _drop_connection() -> None:
    conn = getattr(_local, "connection", None)
    _local.connection = None
    if conn is not None:
        with contextlib.suppress(*BROKER_DOWN):
            conn.release()


def _publish(row: Outbox) -> None:
    # on use: importing the Celery app sets it up from the Django settings (casino/celery.py)
    from casino.celery import app

    try:
        # the asking request's id, whichever process sends the row (a relay serves a request of its own)
        headers = {REQUEST_ID_HEADER: row.request_id} if row.request_id else None
        app.send_task(row.task_name, args=row.args, kwargs=row.kwargs, task_id=str(row.task_id), retry=False,
                      connection=_connection(), headers=headers)
    except BROKER_DOWN:
        _drop_connection()  # reconnect from scratch next time
        raise


def _mark_sent(row: Outbox) -> bool:
    updated = Outbox.objects.filter(pk=row.pk, status=OutboxStatus.PENDING).update(
        status=OutboxStatus.SENT, sent_at=timezone.now(), attempts=row.attempts + 1, last_error="")
    return updated == 1


def _mark_failed(row: Outbox, exc: BaseException) -> None:
    Outbox.objects.filter(pk=row.pk, status=OutboxStatus.PENDING).update(
        attempts=row.attempts + 1, last_error=f"{type(exc).__name__}: {exc}"[:500])


def send_one(row_id: int) -> bool:
    """Send one pending row now. False if the broker is down (the row stays pending); True otherwise,
    including when another relay holds or has already sent it."""
    with transaction.atomic():
        row = Outbox.objects.select_for_update(skip_locked=True).filter(pk=row_id, status=OutboxStatus.PENDING).first()
        if row is None:
            return True
        try:
            _publish(row)
        except BROKER_DOWN as exc:
            log.warning("outbox: broker unreachable, job %s %s stays pending: %s", row.pk, row.task_name, exc)
            _mark_failed(row, exc)
            return False
        _mark_sent(row)
    return True


def relay_outbox(*, limit: int | None = None, batch: int = RELAY_BATCH) -> int:
    """Send pending rows, oldest first, until none are left, the broker fails or ``limit`` is reached.

    Returns how many were sent. Safe to run in several processes at once (rows are locked with
    SKIP LOCKED and marked with a conditional update).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        ids = list(Outbox.objects.filter(status=OutboxStatus.PENDING).order_by("id").values_list("pk", flat=True)
                   [:limit])
        for row_id in ids:
            _run_in_process(row_id)
        return len(ids)
    sent = 0
    while limit is None or sent < limit:
        size = batch if limit is None else min(batch, limit - sent)
        with transaction.atomic():
            rows = list(Outbox.objects.select_for_update(skip_locked=True).filter(status=OutboxStatus.PENDING)
                        .order_by("id")[:size])
            if not rows:
                return sent
            for row in rows:
                try:
                    _publish(row)
                except BROKER_DOWN as exc:
                    log.warning("outbox: broker unreachable, %s job(s) stay pending: %s", len(rows), exc)
                    _mark_failed(row, exc)
                    return sent
                if _mark_sent(row):
                    sent += 1
    return sent


def pending_count() -> int:
    return Outbox.objects.filter(status=OutboxStatus.PENDING).count()


@shared_task(name=task_names.OUTBOX_RELAY, acks_late=True, ignore_result=True)
def relay() -> int:
    """Beat: send what the broker could not take when it was asked (see the module docstring)."""
    return relay_outbox()


# -- retention -------------------------------------------------------------------------------------

PURGE_BATCH = 5_000


def outbox_purge(*, now: dt.datetime | None = None, batch: int = PURGE_BATCH) -> int:
    """Delete the jobs sent more than ``OUTBOX_RETENTION_DAYS`` ago; returns how many went.

    A pending row is never deleted, however old: it is a job the broker has not taken yet (the
    relay sends it when Redis is back). Walks the primary key from the oldest row in bounded batches,
    one short transaction each, skipping pending rows, and stops at the first row created inside the
    window (a row is sent after it is created, so nothing later can be due).
    """
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.OUTBOX_RETENTION_DAYS)
    deleted, last = 0, 0
    while True:
        rows = list(Outbox.objects.filter(pk__gt=last).order_by("pk")
                    .values_list("pk", "status", "sent_at", "created_at")[:batch])
        if not rows:
            return deleted
        done = [pk for pk, status, sent_at, _ in rows if status == OutboxStatus.SENT and sent_at is not None and sent_at < cutoff]
        if done:
            deleted += Outbox.objects.filter(pk__in=done, status=OutboxStatus.SENT).delete()[0]
        if len(rows) < batch or rows[-1][3] >= cutoff:
            return deleted
        last = rows[-1][0]


@shared_task(name=task_names.OUTBOX_PURGE, acks_late=True, ignore_result=True)
def purge() -> int:
    """Beat: delete the sent jobs past their window (settings ``OUTBOX_RETENTION_DAYS``)."""
    return outbox_purge()
