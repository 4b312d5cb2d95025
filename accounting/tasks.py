"""Accounting's Celery tasks: thin, idempotent, ``acks_late``; they take ids, re-fetch and call a service."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from accounting.services import reconcile, running
from accounting.services.alerts import large_bet_check, round_result_check
from accounting.services.exports import export_run
from casino import task_names
from casino.context import RequestContext, acting_as
from casino.outbox import enqueue

RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "max_retries": 5,
    "acks_late": True,
}


@shared_task(name=task_names.RECONCILE_SHIFT, **RETRY)
def reconcile_shift(shift_id: int) -> dict[str, Any]:
    """Reconcile one shift (a second run returns the first result)."""
    with acting_as(RequestContext(channel="task")):
        run = reconcile.reconcile_shift(shift_id=shift_id)
    return {"shift": shift_id, "reconciliation": run.pk, "status": run.status, "causes": run.causes}


@shared_task(name=task_names.RECONCILE_DUE_SHIFTS, acks_late=True)
def reconcile_due_shifts() -> list[int]:
    """Beat: queue a reconciliation for every closed (or long-ended) shift not reconciled yet."""
    ids = reconcile.due_shift_ids()
    for shift_id in ids:
        enqueue(task_names.RECONCILE_SHIFT, args=[shift_id], dedupe_key=f"reconcile_shift:{shift_id}")
    return ids


@shared_task(name=task_names.CHECK_RUNNING_FIGURES, **RETRY)
def check_running_figures() -> dict[str, Any]:
    """Beat, nightly: recompute the recent shifts' running figures from the records; an alert per difference."""
    with acting_as(RequestContext(channel="task")):
        return running.check_recent()


@shared_task(name=task_names.LARGE_BET_ALERT, **RETRY)
def large_bet_alert(bet_id: int) -> int | None:
    with acting_as(RequestContext(channel="task")):
        alert = large_bet_check(bet_id=bet_id)
    return alert.pk if alert else None


@shared_task(name=task_names.ROUND_RESULT_ALERT, **RETRY)
def round_result_alert(round_id: int) -> int | None:
    with acting_as(RequestContext(channel="task")):
        alert = round_result_check(round_id=round_id)
    return alert.pk if alert else None


@shared_task(name=task_names.REPORT_EXPORT, **RETRY)
def report_export(export_id: int) -> str:
    """Write a report export's file, with progress; a finished export is left as it is."""
    with acting_as(RequestContext(channel="task")):
        export = export_run(export_id=export_id)
    return export.status
