"""Are the background jobs being run? Read from the heartbeats, the outbox and the audit verifications.

A job is late once twice its period has passed without a success (and at least a minute more than
its period: ``JOB_LATE_SLACK``): a run can start up to one period late and take a while. One rule for every job,
so that what the banner, readiness, the metrics and the alerts say agree.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from casino.audit.models import AuditVerification, VerificationStatus
from casino.core.models import Outbox, OutboxStatus
from casino.ops import probes, registry
from casino.ops.jobs import BEAT, WORKER
from casino.ops.models import JobHeartbeat
from casino.ops.registry import Finding

log = logging.getLogger("croupier.ops")

AUDIT_VERIFY_TASK = "casino.audit.tasks.verify_audit"


def late_after(period: float) -> int:
    """Seconds without a success after which a job of this period is late (``JOB_LATE_SLACK``: 60 s)."""
    return int(max(2 * period, period + settings.JOB_LATE_SLACK))


def schedule_period(task_name: str) -> int | None:
    """The beat period (seconds) of ``task_name``, or None when beat does not schedule it."""
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        if entry.get("task") == task_name:
            schedule = entry["schedule"]
            if isinstance(schedule, dt.timedelta):
                return int(schedule.total_seconds())
            if isinstance(schedule, int | float):
                return int(schedule)
    return None


def jobs_expected() -> bool:
    """Whether a worker and beat are expected here (not the embedded mode, where jobs run in process)."""
    return bool(settings.OPS_EXPECT_WORKER)


def heartbeats() -> dict[str, JobHeartbeat]:
    return {hb.name: hb for hb in JobHeartbeat.objects.all()}


def ago(moment: dt.datetime | None, now: dt.datetime) -> str:
    """How long ago, in a person's words: "47 min", "3 h 5 min", "2 days"."""
    if moment is None:
        return "never"
    return duration_text((now - moment).total_seconds())


def duration_text(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 90:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 90:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{hours // 24} days"


def _when(moment: dt.datetime, now: dt.datetime) -> str:
    local = timezone.localtime(moment)
    same_day = local.date() == timezone.localtime(now).date()
    return local.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")


@dataclass(frozen=True, slots=True)
class Beat:
    """One heartbeat as readiness and the metrics report it."""

    name: str
    last: dt.datetime | None
    late_after: int
    host: str = ""

    def age(self, now: dt.datetime) -> float | None:
        return None if self.last is None else max(0.0, (now - self.last).total_seconds())

    def late(self, now: dt.datetime, *, since: dt.datetime | None = None, strict: bool = False) -> bool:
        """Late when its last success is older than ``late_after``; never having run is late once the
        jobs have been running here (``since``) that long; without a reference, at once when ``strict``
        (readiness: not ready until it has answered), otherwise not (no alert before one was due)."""
        if self.last is not None:
            return (now - self.last).total_seconds() > self.late_after
        if since is None:
            return strict
        return (now - since).total_seconds() > self.late_after


def heartbeat_period() -> int:
    return schedule_period(WORKER) or settings.HEARTBEAT_EVERY


def worker_beat(beats: dict[str, JobHeartbeat]) -> Beat:
    row = beats.get(WORKER)
    return Beat("worker", row.last_success_at if row else None, late_after(heartbeat_period()), row.host if row else "")


def beat_beat(beats: dict[str, JobHeartbeat]) -> Beat:
    row = beats.get(BEAT)
    return Beat("beat", row.last_success_at if row else None, late_after(heartbeat_period()), row.host if row else "")


def job_beat(beats: dict[str, JobHeartbeat], task_name: str, *, period: int | None = None) -> Beat | None:
    """A scheduled job's heartbeat (None when beat does not schedule it)."""
    period = period or schedule_period(task_name)
    if period is None:
        return None
    row = beats.get(task_name)
    return Beat(task_name, row.last_success_at if row else None, late_after(period), row.host if row else "")


def jobs_seen_since(beats: dict[str, JobHeartbeat]) -> dt.datetime | None:
    """When jobs (or the web processes' watch, ``casino.ops.watch``) were first seen running here: the
    reference for a job that never succeeded. None before anything has run: nothing is late then (on a
    first start, the worker's first heartbeat is not yet due)."""
    firsts = [row.first_seen_at for row in beats.values()]
    return min(firsts) if firsts else None


def outbox_state() -> tuple[int, dt.datetime | None]:
    """Pending jobs not yet handed to the broker, and the oldest one's time."""
    pending = Outbox.objects.filter(status=OutboxStatus.PENDING)
    figures = pending.aggregate(oldest=Min("created_at"))
    return pending.count(), figures["oldest"]


def last_verification() -> AuditVerification | None:
    """The last audit verification that walked every chain (whatever it found)."""
    return (AuditVerification.objects.filter(status=VerificationStatus.DONE).order_by("-finished_at")
            .only("finished_at", "ok").first())


def last_ok_verification_at() -> dt.datetime | None:
    return (AuditVerification.objects.filter(status=VerificationStatus.DONE, ok=True).order_by("-finished_at")
            .values_list("finished_at", flat=True).first())


# -- what is late ----------------------------------------------------------------------------------

def _worker_finding(now: dt.datetime, beats: dict[str, JobHeartbeat]) -> Finding | None:
    worker = worker_beat(beats)
    if not worker.late(now, since=jobs_seen_since(beats)):
        return None
    since = (f"since {_when(worker.last, now)} ({ago(worker.last, now)} ago)" if worker.last
             else "yet")
    return Finding("worker", "Job worker", worker.last, worker.late_after,
                   f"No job worker has answered {since}: exports stay queued, shift reconciliations and audit "
                   f"checks do not run. Tell IT: the Croupier worker is not running.", "critical")


def _beat_finding(now: dt.datetime, beats: dict[str, JobHeartbeat]) -> Finding | None:
    beat = beat_beat(beats)
    if not beat.late(now, since=jobs_seen_since(beats)):
        return None
    since = f"since {_when(beat.last, now)} ({ago(beat.last, now)} ago)" if beat.last else "yet"
    return Finding("beat", "Job scheduler", beat.last, beat.late_after,
                   f"The job scheduler has not sent a job {since}: scheduled reconciliations, audit checks and "
                   f"checkpoints do not start. Tell IT: Croupier's beat is not running or cannot send.", "critical")


def _broker_finding(now: dt.datetime, beats: dict[str, JobHeartbeat], late: list[Finding]) -> Finding:
    """The worker or beat is late and the job queue's Redis does not answer: that is the cause to name
    (a worker that is up cannot receive a job, beat cannot send one), once per stall."""
    last = max((f.since for f in late if f.since is not None), default=None)
    since = f"since {_when(last, now)} ({ago(last, now)} ago)" if last else "yet"
    return Finding("broker", "Job queue", last, max(f.late_after for f in late),
                   f"The job queue (Redis) cannot be reached, so no background job has run {since}: rounds still "
                   f"settle and their jobs wait in the database, none lost, but exports, shift reconciliations and "
                   f"audit checks wait until it is back. Tell IT: Croupier's Redis is not reachable.", "critical",
                   {"jobs": [f.key for f in late]})


def _outbox_finding(now: dt.datetime) -> Finding | None:
    count, oldest = outbox_state()
    limit = settings.OUTBOX_STUCK_AFTER
    if oldest is None or (now - oldest).total_seconds() <= limit:
        return None
    return Finding("outbox", "Job queue", oldest, limit,
                   f"{count} job{'s' if count != 1 else ''} waiting since {_when(oldest, now)} ({ago(oldest, now)}) "
                   f"to be handed to the job queue: the broker (Redis) may be down. Tell IT.", "critical",
                   {"count": count})


def _verification_finding(now: dt.datetime, beats: dict[str, JobHeartbeat]) -> Finding | None:
    period = schedule_period(AUDIT_VERIFY_TASK)
    if period is None:
        return None
    last = last_verification()
    beat = Beat("audit_verification", last.finished_at if last else None, late_after(period))
    if not beat.late(now, since=jobs_seen_since(beats)):
        return None
    when = f"was last verified at {_when(beat.last, now)} ({ago(beat.last, now)} ago)" if beat.last \
        else "has not been verified yet"
    return Finding("audit_verification", "Audit trail verification", beat.last, beat.late_after,
                   f"The audit trail {when}; it is due every {duration_text(period)}. "
                   f"Tell IT: the audit verification job is not running.", facts={"period": period})


def job_finding(*, key: str, title: str, task_name: str, what: str, now: dt.datetime,
                beats: dict[str, JobHeartbeat]) -> Finding | None:
    """The finding for a scheduled job ``task_name`` that has not succeeded in time (for the areas' checks)."""
    beat = job_beat(beats, task_name)
    if beat is None or not beat.late(now, since=jobs_seen_since(beats)):
        return None
    period = schedule_period(task_name) or 0
    when = f"has not run since {_when(beat.last, now)} ({ago(beat.last, now)} ago)" if beat.last \
        else "has not run yet"
    return Finding(key, title, beat.last, beat.late_after,
                   f"{what} {when}; it is due every {duration_text(period)}. "
                   f"Tell IT: the job is failing or not running.", facts={"period": period})


def stale_findings(now: dt.datetime | None = None) -> list[Finding]:
    """Every background job that is late now, the worker and beat first."""
    now = now or timezone.now()
    found: list[Finding | None] = [_outbox_finding(now)]
    if jobs_expected():
        beats = heartbeats()
        processes = [f for f in (_worker_finding(now, beats), _beat_finding(now, beats)) if f is not None]
        if processes and probes.broker_down():
            processes = [_broker_finding(now, beats, processes)]
        found = [*processes, *found, _verification_finding(now, beats)]
        for check in registry.stale_checks:
            found.extend(check(now, beats))
    return [f for f in found if f is not None]


def alert_findings(findings: Iterable[Finding]) -> None:
    for finding in findings:
        for sink in registry.alert_sinks:
            sink(finding)


def stale_jobs_alert(now: dt.datetime | None = None) -> list[Finding]:
    """Raise an alert (through the registered sinks) for every late job; returns them."""
    findings = stale_findings(now)
    alert_findings(findings)
    if findings:
        log.warning("late jobs: %s", ", ".join(f.key for f in findings))
    return findings
