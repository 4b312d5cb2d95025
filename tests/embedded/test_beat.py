"""The embedded mode's beat: with no broker, the jobs beat would run (reconcile the shifts nobody
reconciled, sign the audit trail's chain heads) run in the web server's process."""

from __future__ import annotations

from django.utils import timezone

from accounting.models import ShiftReconciliation
from accounting.services import shifts
from casino import embedded
from casino.audit.models import AuditCheckpoint
from tables.models import Shift
from tests.accounting.test_worked_shift import work_the_shift


def test_only_the_embedded_development_server_starts_the_beat(settings):
    settings.CELERY_TASK_ALWAYS_EAGER, settings.CELERY_BROKER_URL = True, ""
    assert embedded.enabled(["manage.py", "runserver", "127.0.0.1:8000", "--noreload"])
    assert not embedded.enabled(["manage.py", "migrate"])
    assert not embedded.enabled(["pytest"])
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/10"  # a broker: Celery beat runs them
    assert not embedded.enabled(["manage.py", "runserver", "--noreload"])


def test_every_job_is_due_at_first_and_then_on_its_interval():
    schedule = {"a": {"task": "x.a", "schedule": 60}, "b": {"task": "x.b", "schedule": 5},
                "relay": {"task": "casino.outbox.relay", "schedule": 5}}
    last: dict[str, float] = {}
    assert embedded.due(schedule, last, 100.0) == [("a", "x.a"), ("b", "x.b")]  # the relay is a broker's
    last.update(a=100.0, b=100.0)
    assert embedded.due(schedule, last, 104.0) == []
    assert embedded.due(schedule, last, 105.0) == [("b", "x.b")]


def test_a_tick_reconciles_the_shift_nobody_reconciled_and_signs_the_trail(floor, django_capture_on_commit_callbacks):
    # given a worked shift that ended two days ago, its table closed, never reconciled
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    Shift.objects.filter(pk=floor.shift.pk).update(
        ends_at=timezone.now() - timezone.timedelta(days=2), starts_at=timezone.now() - timezone.timedelta(days=2, hours=8)
    )
    # when the embedded beat ticks (its jobs run in process, as on commit)
    with django_capture_on_commit_callbacks(execute=True):
        ran = embedded.run_due({})
    # then the shift is reconciled and the chain heads are signed
    assert {"accounting.reconcile_due_shifts", "casino.audit.tasks.audit_checkpoint"} <= set(ran)
    assert ShiftReconciliation.objects.filter(shift=floor.shift).count() == 1
    assert AuditCheckpoint.objects.exists()
