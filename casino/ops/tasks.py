"""Operations jobs: the worker heartbeat and the stale-job check. Beat schedules both (settings)."""

from __future__ import annotations

from celery import shared_task

from casino.context import RequestContext, acting_as


@shared_task(name="casino.ops.heartbeat", ignore_result=True)
def heartbeat() -> str:
    """A worker ran this: its run is the worker's heartbeat (``casino.ops.jobs`` records every run)."""
    return "alive"


@shared_task(name="casino.ops.check_jobs", ignore_result=True, acks_late=True)
def check_jobs() -> list[str]:
    """Raise an alert for every job that is late (once per stall); returns their keys."""
    # on use: Celery imports task modules as it sets up, before the models may be read
    from casino.ops.status import stale_jobs_alert

    with acting_as(RequestContext(channel="task")):
        return [finding.key for finding in stale_jobs_alert()]
