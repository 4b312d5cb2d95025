"""A table's close reopened once by a shift manager, with a reason, before the shift closes (docs/accounting.md,
"Corrections"): the close is kept (superseded) and its posting reversed, the table's shift is open again for a
recount, and it closes again; the database holds "once", "not after the shift closed" and "never edited"."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from accounting.models import CountKind, InventoryCount, LedgerTransaction, TableCloseReopening, TableShiftClose
from accounting.reports import get_report, parse_filters
from accounting.services import counts, shifts
from casino.audit.models import AuditRecord
from casino.core.roles import Role
from casino.errors import Conflict, Forbidden, InvalidInput
from tests.accounting.helpers import ledger_is_balanced, sig
from tests.accounting.test_recount import RECOUNTED
from tests.accounting.test_worked_shift import work_the_shift
from tests.factories import UserFactory
from tests.fixtures import as_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(floor):
    return UserFactory(username="boss", roles=[Role.PIT_MANAGER, Role.SHIFT_MANAGER])


def closed(floor):
    work_the_shift(floor)
    return shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)


def reopen(floor, actor, reason="the closer was miscounted"):
    return shifts.table_close_reopen(actor=actor, table_id=floor.table.pk, shift_id=floor.shift.pk, reason=reason)


def written():
    return (TableCloseReopening.objects.count(), TableShiftClose.objects.count(), LedgerTransaction.objects.count(),
            AuditRecord.objects.filter(action="table.close_reopen").count())


def test_a_reopened_close_is_kept_and_the_table_closes_again_after_a_recount(floor, boss):
    # given BAC1 closed with variance −125
    first = closed(floor)
    posting = LedgerTransaction.objects.get(source_type="table_close", source_id=str(first.pk))

    # when the shift manager reopens it
    reopening = reopen(floor, boss)

    # then the close is kept, superseded, its posting reversed, and the reopening audited
    assert (reopening.close_id, reopening.reason, reopening.reopened_by) == (first.pk, "the closer was miscounted",
                                                                               boss)
    assert reopening.reversal.reverses_id == posting.pk
    assert sorted(e.amount for e in reopening.reversal.entries.all()) == sorted(
        -e.amount for e in posting.entries.all())
    assert not TableShiftClose.objects.standing().filter(table=floor.table, shift=floor.shift).exists()
    record = AuditRecord.objects.get(action="table.close_reopen")
    assert (record.before["close"], record.after["reason"]) == (first.pk, "the closer was miscounted")

    # and the table's shift takes a recount of the closer, then closes again with the new closer
    closer = InventoryCount.objects.get(kind=CountKind.CLOSER)
    counts.inventory_recount(actor=floor.manager, count_id=closer.pk, chips=RECOUNTED, dealer=sig(floor.dealer),
                             supervisor=sig(floor.manager), reason="one 1.00 chip under the float")
    second = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    assert (second.closer_total, second.variance, TableShiftClose.objects.get(pk=first.pk).variance) == (
        204_100, -25, -125)
    assert TableShiftClose.objects.standing().get(table=floor.table, shift=floor.shift) == second
    assert ledger_is_balanced()[0] == []
    # and the shift closes with the close in force
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)

    # and the variance report shows the close in force, with the reopening and the recount in words
    rows = list(get_report("variance", parse_filters("variance", {"shift": str(floor.shift.pk)})).rows())
    assert len(rows) == 1
    assert rows[0][14] == -25
    assert "reopened by boss: the closer was miscounted" in rows[0][-1]
    assert "superseded by recount" in rows[0][-1]


@pytest.mark.parametrize("who", ["manager", "accountant"])
def test_only_a_shift_manager_reopens_a_close(floor, who):
    closed(floor)
    before = written()
    with pytest.raises(Forbidden) as refused:
        reopen(floor, getattr(floor, who))
    assert refused.value.code == "shift_manager_required"
    assert written() == before


def test_a_close_is_reopened_once_with_a_reason_before_the_shift_closes(floor, boss):
    closed(floor)
    before = written()
    with pytest.raises(InvalidInput) as refused:
        reopen(floor, boss, reason="  ")
    assert refused.value.code == "reason_required"
    assert written() == before
    reopen(floor, boss)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    before = written()
    with pytest.raises(Conflict) as refused:  # a second reopening
        reopen(floor, boss, reason="once more")
    assert refused.value.code == "already_reopened"
    assert "reopened once" in refused.value.message
    assert written() == before
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    with pytest.raises(Conflict) as refused:  # a closed shift
        reopen(floor, boss, reason="after the shift")
    assert refused.value.code in ("shift_closed", "already_reopened")
    assert written() == before


def test_a_closed_shift_refuses_a_reopening(floor, boss):
    closed(floor)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    before = written()
    with pytest.raises(Conflict) as refused:
        reopen(floor, boss)
    assert refused.value.code == "shift_closed"
    assert written() == before


def _insert_reopening(close_id, table_id, shift_id, user_id):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("INSERT INTO accounting_tableclosereopening (close_id, table_id, shift_id, reason, "
                       "reopened_by_id, reopened_at) VALUES (%s, %s, %s, 'sql', %s, now())",
                       [close_id, table_id, shift_id, user_id])


def test_the_database_holds_once_not_after_the_shift_and_never_edited(floor, boss):
    first = closed(floor)
    reopening = reopen(floor, boss)
    second = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    # the service role's SQL: a second reopening, an edit, a deletion, a second close in force
    with pytest.raises(IntegrityError):
        _insert_reopening(second.pk, floor.table.pk, floor.shift.pk, boss.pk)
    for sql in ("UPDATE accounting_tableclosereopening SET reason = 'x' WHERE id = %s",
                "DELETE FROM accounting_tableclosereopening WHERE id = %s"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [reopening.pk])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE accounting_tableshiftclose SET variance = 0, count_win = rounds_win + pool_change "
                       "WHERE id = %s", [first.pk])
    # the closed table shift is still sealed: no new count in it
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO accounting_inventorycount (table_id, shift_id, kind, chips, total, dealer_signer_id, "
            "supervisor_signer_id, rolled, supersedes_id, reason, recorded_by_id, recorded_at) SELECT table_id, "
            "shift_id, kind, chips, total, dealer_signer_id, supervisor_signer_id, false, id, 'x', recorded_by_id, "
            "recorded_at FROM accounting_inventorycount WHERE id = %s", [second.closer_id])
    assert TableCloseReopening.objects.get(pk=reopening.pk).reason == "the closer was miscounted"


def test_the_database_refuses_a_reopening_once_the_shift_closed(floor, boss):
    # given the other table closed in a shift now closed, and no reopening
    first = closed(floor)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    with pytest.raises(IntegrityError):
        _insert_reopening(first.pk, floor.table.pk, floor.shift.pk, boss.pk)
    assert not TableCloseReopening.objects.exists()


def test_the_api_reopens_once_per_key_and_refuses_a_pit_manager(floor, boss):
    closed(floor)
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "reason": "miscounted"}
    refused = as_user(floor.manager).post("/api/accounting/table-closes/reopen/", body, format="json")
    assert refused.status_code == 403
    api = as_user(boss)
    first = api.post("/api/accounting/table-closes/reopen/", body, format="json", HTTP_IDEMPOTENCY_KEY="ro-1")
    again = api.post("/api/accounting/table-closes/reopen/", body, format="json", HTTP_IDEMPOTENCY_KEY="ro-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert TableCloseReopening.objects.count() == 1
    closes = as_user(floor.accountant).get(f"/api/accounting/table-closes/?shift={floor.shift.pk}").json()["results"]
    assert closes[0]["reopened"]["reason"] == "miscounted"
