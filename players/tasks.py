"""The players area's Celery tasks: thin, idempotent, ``acks_late``; they take ids, re-fetch, call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from casino import task_names
from casino.context import RequestContext, acting_as
from players.edges import edges_for
from players.selectors import resolved_config
from players.services.slips import slip_rate
from tables.models import Table

RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "max_retries": 5,
    "acks_late": True,
}


@shared_task(name=task_names.RATE_SLIP, **RETRY)
def rate_slip(slip_id: int) -> int | None:
    """Fix a closed slip's rating (computing the house edge if it is not cached); a second run finds it done."""
    with acting_as(RequestContext(channel="task")):
        row = slip_rate(slip_id=slip_id)
    return row.pk if row is not None else None


@shared_task(name=task_names.WARM_HOUSE_EDGE, **RETRY)
def warm_house_edge(table_id: int) -> int:
    """Compute (once) the house edges of a table's rules, so that rating its slips never waits for them."""
    table = Table.objects.filter(pk=table_id).first()
    found = resolved_config(table) if table is not None else None
    if found is None:
        return 0
    return len(edges_for(found[0], found[1], compute=True) or {})
