"""A Celery worker process killed with SIGKILL in the middle of a job: the job runs again, once, to the same end.

A real worker (prefork, one child) listens on a queue of its own in the run's own Redis server. The job is
stalled at a point inside its work (``tests/faults/worker.py``), the child running it is killed
with SIGKILL, and ``acks_late`` + ``reject_on_worker_lost`` (settings) put the message back: the
worker's next child runs it to the end.
"""

from __future__ import annotations

import os
import signal

import pytest
from django.db import transaction
from django.utils import timezone

from accounting.models import Reconciliation, ShiftReconciliation
from accounting.services import reconcile
from casino.audit.models import AuditRecord, AuditVerification
from casino.audit.verification import audit_verification_request
from tables.models import Shift
from tests.accounting.helpers import BANKER_WINS, PLAYER_WINS, play_round
from tests.faults.helpers import Worker, broker_at, drop_queue, fresh_queue, wait_for


class _Rollback(Exception):
    pass


def _reconciliation(shift_id: int) -> tuple:
    run = ShiftReconciliation.objects.get(shift_id=shift_id)
    tables = sorted((r.table.code, r.status, r.rounds, r.rounds_recomputed, r.rounds_mismatched, r.rounds_win,
                     r.count_win, r.variance, [c["cause"] for c in r.causes])
                    for r in Reconciliation.objects.filter(shift_id=shift_id).select_related("table"))
    return (run.status, run.tables, run.rounds, run.causes), tables


def _kill_when_stalled(marker, worker: Worker) -> int:
    pid = int(wait_for(lambda: marker.exists() and marker.read_text(), timeout=60,
                       what=lambda: f"the job to reach its stall point; worker log:\n{worker.log()}"))
    os.kill(pid, signal.SIGKILL)
    return pid


@pytest.mark.django_db(transaction=True)
def test_reconcile_shift_killed_midway_runs_again_to_the_same_result(floor, settings, tmp_path, redis_url):
    # given a shift that ended two days ago, with a round at each of its two tables
    settings.CELERY_TASK_ALWAYS_EAGER = False
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000)], BANKER_WINS)
    play_round(floor.other_table, floor.other_dealer, [(1, "player", 5000)], PLAYER_WINS)
    Shift.objects.filter(pk=floor.shift.pk).update(starts_at=timezone.now() - timezone.timedelta(days=2, hours=8),
                                                   ends_at=timezone.now() - timezone.timedelta(days=2))
    # and what a clean run finds (run here, then rolled back)
    found = []

    def clean_run_rolled_back() -> None:
        with transaction.atomic():
            reconcile.reconcile_shift(shift_id=floor.shift.pk)
            found.append(_reconciliation(floor.shift.pk))
            raise _Rollback

    with pytest.raises(_Rollback):
        clean_run_rolled_back()
    expected = found[0]
    assert ShiftReconciliation.objects.count() == 0

    # when the job is queued and its worker process is killed after reconciling the first table
    queue, marker = fresh_queue(), tmp_path / "stalled"
    worker = Worker(queue, broker=redis_url, slow="accounting.services.reconcile:_crash_point=60", marker=marker,
                    log=tmp_path / "worker.log")
    try:
        with broker_at(redis_url, queue=queue):
            assert reconcile.reconcile_request(actor=floor.manager, shift_id=floor.shift.pk) is None
        killed = _kill_when_stalled(marker, worker)
        # then the message goes back to the queue, a new worker process runs it and it completes
        wait_for(lambda: ShiftReconciliation.objects.exists(), timeout=60,
                 what=lambda: f"the reconciliation; worker log:\n{worker.log()}")
    finally:
        worker.stop()
        drop_queue(redis_url, queue)
    assert "WorkerLostError" in worker.log() or f"pid:{killed}" in worker.log() or "signal 9" in worker.log()
    # once, with the clean run's result; the killed run left nothing (its transaction rolled back)
    assert _reconciliation(floor.shift.pk) == expected
    assert ShiftReconciliation.objects.count() == 1
    assert Reconciliation.objects.count() == 2
    assert AuditRecord.objects.filter(action="shift.reconcile").count() == 1


@pytest.mark.django_db(transaction=True)
def test_verify_audit_killed_midway_runs_again_to_the_same_result(floor, settings, tmp_path, redis_url):
    # given an audit trail with rounds in it, and what a clean verification finds
    settings.CELERY_TASK_ALWAYS_EAGER = False
    play_round(floor.table, floor.dealer, [(1, "banker", 2500)], BANKER_WINS)
    records = AuditRecord.objects.count()
    chains = AuditRecord.objects.values("chain").distinct().count()

    # when a verification is requested and its worker process is killed in the middle of the walk
    queue, marker = fresh_queue(), tmp_path / "stalled"
    worker = Worker(queue, broker=redis_url, slow="casino.audit.verification:_walk_all=60", marker=marker,
                    log=tmp_path / "worker.log")
    try:
        with broker_at(redis_url, queue=queue):
            requested = audit_verification_request(actor=floor.auditor)
        _kill_when_stalled(marker, worker)
        # then the job runs again and the verification completes
        wait_for(lambda: AuditVerification.objects.filter(pk=requested.pk, status="done").exists(), timeout=60,
                 what=lambda: f"the verification to finish; worker log:\n{worker.log()}")
    finally:
        worker.stop()
        drop_queue(redis_url, queue)
    done = AuditVerification.objects.get(pk=requested.pk)
    # records: the trail as it was, plus the request's own audit record if the request writes one
    assert (done.ok, done.chains, done.breaks) == (True, chains, [])
    assert done.records >= records
    assert AuditVerification.objects.count() == 1
