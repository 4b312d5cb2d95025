"""Audit jobs: verify the trail, sign checkpoints, make the coming months' partitions.

Thin: re-fetch by id, call one service.

All are idempotent before they are ``acks_late``: a redelivered verification finds its row taken
or done; a repeated checkpoint run signs nothing new; a repeated partition run makes nothing new.
Beat schedules them (settings).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from casino import task_names
from casino.audit.archive import partitions_ensure
from casino.audit.verification import audit_checkpoint_create, audit_verification_run, audit_verify
from casino.context import RequestContext, acting_as

_RETRY = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 30, "retry_backoff_max": 600,
          "max_retries": 5}


@shared_task(name=task_names.AUDIT_VERIFY, acks_late=True, **_RETRY)
def verify_audit(verification_id: int | None = None, full: bool = False) -> int | None:
    """Walk every chain. With an id, run that requested verification (API, web); without, a scheduled one
    (from each chain's last signed checkpoint, or ``full``: from the first record)."""
    with acting_as(RequestContext(channel="task")):
        if verification_id is None:
            return audit_verify(trigger="beat", full=full).pk
        verification = audit_verification_run(verification_id=verification_id)
    return verification.pk if verification is not None else None


@shared_task(name=task_names.AUDIT_CHECKPOINT, acks_late=True, **_RETRY)
def audit_checkpoint() -> int:
    """Sign the head of every chain that grew; returns how many checkpoints were written."""
    with acting_as(RequestContext(channel="task")):
        return len(audit_checkpoint_create())


@shared_task(name=task_names.AUDIT_PARTITIONS, acks_late=True, **_RETRY)
def audit_partitions(months_ahead: int | None = None) -> list[str]:
    """Make the audit records' monthly partitions ahead of time (PostgreSQL); the names of those made."""
    ahead = months_ahead if months_ahead is not None else settings.AUDIT_PARTITIONS_AHEAD
    with acting_as(RequestContext(channel="task")):
        return partitions_ensure(ahead)
