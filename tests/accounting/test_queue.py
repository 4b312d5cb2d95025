"""The accountant's queue (/accounting/queue/): what waits for the accountant or the cage, and acting on it
there: a slip void approved, a variance accepted with a reason, a reconciliation run; who may, refused in
words with nothing written."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from accounting.models import Alert, CountKind, ShiftReconciliation, Slip, SlipStatus
from accounting.selectors import accountant_queue
from accounting.services import alerts, reconcile, slips
from casino.audit.models import AuditRecord
from casino.errors import Forbidden, InvalidInput
from tables.models import Shift
from tests.accounting.test_worked_shift import CLOSER, OPENER, count
from tests.factories import open_shift

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def waiting(floor):
    """A fill whose void the pit manager asked for, a variance over the tolerance, BAC1's closer without its
    soft count, and a shift that ended two days ago and was never reconciled."""
    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    slips.slip_void_request(actor=floor.manager, slip_id=slip.pk, reason="asked for the wrong table")
    variance = alerts.alert_raise(kind="variance", severity="critical", message="variance -2.50 at BAC1",
                                  dedupe_key="variance:test", table=floor.table, shift=floor.shift,
                                  data={"variance": -250})
    count(floor, CountKind.OPENER, OPENER)
    count(floor, CountKind.CLOSER, CLOSER)
    old = open_shift(floor.manager, code="old")
    Shift.objects.filter(pk=old.pk).update(starts_at=timezone.now() - dt.timedelta(days=2, hours=8),
                                           ends_at=timezone.now() - dt.timedelta(days=2))
    return slip, variance, old


def test_the_queue_lists_what_waits_and_the_accountant_acts_on_it(floor):
    slip, variance, old = waiting(floor)
    found = accountant_queue(reconcile.due_shift_ids())
    assert ([s.pk for s in found.slip_voids], [a.pk for a in found.variances],
            [c.table.code for c in found.soft_counts], [s.pk for s in found.reconciliations]) == (
        [slip.pk], [variance.pk], ["BAC1"], [old.pk])
    client = client_of(floor.accountant)
    page = client.get("/accounting/queue/").content.decode()
    for text in (f"Approve the void of {slip.reference}", "Accept the variance of BAC1", "See the drop box of BAC1",
                 f"Run the reconciliation of {old}", "“asked for the wrong table”"):
        assert text in page
    # when the accountant approves the void, accepts the variance (a reason is required) and runs the reconciliation
    client.post(f"/accounting/queue/slips/{slip.pk}/void/approve/")
    empty = client.post(f"/accounting/variances/{variance.pk}/accept/", {"reason": " ", "back": "queue"}, follow=True)
    assert "write why the variance is accepted" in empty.content.decode()
    client.post(f"/accounting/variances/{variance.pk}/accept/", {"reason": "a chip found under the table",
                                                                  "back": "queue"})
    client.post(f"/accounting/shifts/{old.pk}/reconcile/", {"back": "queue"})
    # then each is done, by the accountant, and only the drop box still waits
    stored = Slip.objects.get(pk=slip.pk)
    assert (stored.status, stored.voided_by) == (SlipStatus.VOIDED, floor.accountant)
    accepted = Alert.objects.get(pk=variance.pk)
    assert (accepted.acknowledged_by, accepted.ack_note) == (floor.accountant, "a chip found under the table")
    # (the request is queued for when the transaction commits: a test's never does, so the job is run here)
    assert AuditRecord.objects.filter(action="shift.reconcile_request", object_id=str(old.pk)).exists()
    reconcile.reconcile_shift(shift_id=old.pk)
    assert ShiftReconciliation.objects.filter(shift=old).exists()
    left = accountant_queue(reconcile.due_shift_ids())
    assert (left.total, [c.table.code for c in left.soft_counts]) == (1, ["BAC1"])


def test_the_queue_and_its_actions_refuse_others_in_words(floor):
    slip, variance, _ = waiting(floor)
    for user in (floor.dealer, floor.auditor, floor.manager):
        assert client_of(user).get("/accounting/queue/").status_code == 403
        assert client_of(user).post(f"/accounting/queue/slips/{slip.pk}/void/approve/").status_code == 403
    for user in (floor.dealer, floor.auditor, floor.other_manager):
        with pytest.raises(Forbidden):
            alerts.variance_accept(alert_id=variance.pk, actor=user, note="fine")
    with pytest.raises(InvalidInput) as refused:
        alerts.variance_accept(alert_id=variance.pk, actor=floor.accountant, note="")
    assert refused.value.code == "reason_required"
    # the pit manager who asked for the void cannot approve it, in the queue or anywhere
    assert Slip.objects.get(pk=slip.pk).status != SlipStatus.VOIDED
    assert Alert.objects.get(pk=variance.pk).acknowledged_at is None
