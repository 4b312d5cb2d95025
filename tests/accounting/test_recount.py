"""A recount supersedes a count (docs/accounting.md, "Corrections"): a new record linked to the count it replaces,
with a reason and the same two signatures; the original is kept and never edited; the figures read the latest
count of the chain; refused in words, nothing written, once the table's shift is closed, without a reason, with a
wrong signer, or of a count already superseded."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from accounting.models import CountKind, DropCount, InventoryCount, LedgerTransaction, TableFigures
from accounting.selectors import table_shift_figures
from accounting.services import counts, shifts
from casino.audit.models import AuditRecord
from casino.errors import Conflict, DomainError, Forbidden, InvalidInput, NotFound
from tests.accounting.helpers import sig
from tests.accounting.test_worked_shift import CLOSER, work_the_shift
from tests.fixtures import as_user

pytestmark = pytest.mark.django_db

RECOUNTED = {"10000": 7, "2500": 40, "500": 60, "100": 41}  # one 100 chip more than CLOSER: 204 100


def closer_of(floor):
    return InventoryCount.objects.get(table=floor.table, shift=floor.shift, kind=CountKind.CLOSER)


def recount(floor, count, chips=RECOUNTED, **extra):
    fields = {"actor": floor.manager, "count_id": count.pk, "chips": chips, "dealer": sig(floor.dealer),
              "supervisor": sig(floor.manager), "reason": "a 100 chip was under the float", **extra}
    return counts.inventory_recount(**fields)


def written():
    return (InventoryCount.objects.count(), DropCount.objects.count(), LedgerTransaction.objects.count(),
            AuditRecord.objects.filter(action__endswith="recount").count(),
            list(TableFigures.objects.values_list("opener", "closer", "drop")))


def test_a_closer_recount_supersedes_the_closer_and_the_figures_read_it(floor):
    # given the worked shift, its closer 204 000 (variance −125)
    work_the_shift(floor)
    original = closer_of(floor)
    assert table_shift_figures(floor.table, floor.shift).variance == -125

    # when the closer is counted again, one 100 chip more
    new = recount(floor, original)

    # then the recount is a new count linked to the original, which is kept as it was
    assert (new.supersedes_id, new.kind, new.total, new.reason) == (original.pk, "closer", 204_100,
                                                                   "a 100 chip was under the float")
    kept = InventoryCount.objects.get(pk=original.pk)
    assert (kept.total, kept.chips, kept.superseded_by.pk) == (204_000, CLOSER, new.pk)
    # and the running figures and the recomputed ones read the recount only
    assert table_shift_figures(floor.table, floor.shift).closer_total == 204_100
    assert table_shift_figures(floor.table, floor.shift, recompute=True).variance == -25
    # and the close fixes the recount
    close = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    assert (close.closer_id, close.closer_total, close.variance) == (new.pk, 204_100, -25)
    # and it is audited with the count it replaced
    record = AuditRecord.objects.get(action="count.recount")
    assert (record.before["total"], record.after["total"], record.after["reason"]) == (
        204_000, 204_100, "a 100 chip was under the float")


def test_an_opener_recount_moves_the_trays_by_the_difference(floor):
    # given the worked shift, its opener 250 000 issued from the bankroll
    work_the_shift(floor)
    opener = InventoryCount.objects.get(table=floor.table, shift=floor.shift, kind=CountKind.OPENER)
    # when it is counted again with one 2 500 chip fewer
    new = recount(floor, opener, chips={"2500": 39, "500": 100, "10000": 10})
    # then the tray is moved by −2 500 against the bankroll, in one posting of the recount
    txn = LedgerTransaction.objects.get(source_type="count", source_id=str(new.pk))
    assert sorted(e.amount for e in txn.entries.all()) == [-2_500, 2_500]
    assert table_shift_figures(floor.table, floor.shift, recompute=True).opener_total == 247_500


def test_a_drop_recount_by_two_counters_supersedes_the_soft_count(floor):
    people = work_the_shift(floor)
    counter, counter2 = people.counter, people.counter2
    original = DropCount.objects.get(table=floor.table, shift=floor.shift)
    # when the box is counted again: 500 more in cash
    new = counts.drop_recount(actor=counter, drop_id=original.pk, cash=60_500, chips=0, markers=20_000,
                              counter_one=sig(counter), counter_two=sig(counter2), reason="a note stuck in the box")
    # then the drop is the recount's, the cage has the 500 more, and the original is kept
    assert table_shift_figures(floor.table, floor.shift).drop == 80_500
    assert table_shift_figures(floor.table, floor.shift, recompute=True).drop == 80_500
    txn = LedgerTransaction.objects.get(source_type="drop", source_id=str(new.pk))
    assert sorted(e.amount for e in txn.entries.all()) == [-500, 500]
    assert DropCount.objects.get(pk=original.pk).total == 80_000
    # and a pit manager does not count the drop again
    before = written()
    with pytest.raises(Forbidden):
        counts.drop_recount(actor=floor.manager, drop_id=new.pk, cash=1, chips=0, markers=0,
                            counter_one=sig(floor.manager), counter_two=sig(counter2), reason="x")
    assert written() == before


@pytest.mark.parametrize(
    ("change", "error", "code"),
    [
        ({"reason": "  "}, InvalidInput, "reason_required"),
        ({"dealer": "other"}, Forbidden, "not_the_tables_dealer"),
        ({"supervisor": "dealer"}, InvalidInput, "signer_role"),
        ({"chips": {}}, InvalidInput, "empty_tray_unconfirmed"),
        ({"actor": "other_manager"}, NotFound, "unknown_count"),
    ],
)
def test_a_recount_is_refused_in_words_and_writes_nothing(floor, change, error, code):
    work_the_shift(floor)
    original = closer_of(floor)
    extra = dict(change)
    if extra.get("dealer") == "other":
        extra["dealer"] = sig(floor.other_dealer)
    if extra.get("supervisor") == "dealer":
        extra["supervisor"] = sig(floor.dealer)
    if extra.get("actor") == "other_manager":
        extra["actor"] = floor.other_manager
        extra["supervisor"] = sig(floor.other_manager)
    before = written()
    with pytest.raises(error) as refused:
        recount(floor, original, **extra)
    assert refused.value.code == code
    assert refused.value.message
    assert written() == before


def test_a_superseded_count_and_a_closed_table_shift_are_not_recounted(floor):
    work_the_shift(floor)
    original = closer_of(floor)
    recount(floor, original)
    before = written()
    # a count already superseded: the latest one is recounted
    with pytest.raises(Conflict) as refused:
        recount(floor, original)
    assert refused.value.code == "count_superseded"
    assert "already superseded" in refused.value.message
    assert written() == before
    # a closed table shift: sealed
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    latest = InventoryCount.objects.get(supersedes=original)
    before = written()
    with pytest.raises(DomainError) as refused:
        recount(floor, latest)
    assert refused.value.code == "table_shift_closed"
    assert written() == before


def test_the_database_refuses_editing_a_count_and_a_recount_of_another_place(floor):
    work_the_shift(floor)
    original = closer_of(floor)
    new = recount(floor, original)
    opener = InventoryCount.objects.get(table=floor.table, shift=floor.shift, kind=CountKind.OPENER)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:  # no privilege, and sealed
        cursor.execute("UPDATE accounting_inventorycount SET total = 1 WHERE id = %s", [original.pk])
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:  # a closer chained to an opener
        cursor.execute(
            "INSERT INTO accounting_inventorycount (table_id, shift_id, kind, chips, total, dealer_signer_id, "
            "supervisor_signer_id, rolled, supersedes_id, reason, recorded_by_id, recorded_at) SELECT table_id, "
            "shift_id, 'closer', chips, total, dealer_signer_id, supervisor_signer_id, false, %s, 'x', recorded_by_id, "
            "recorded_at FROM accounting_inventorycount WHERE id = %s", [opener.pk, new.pk])
    assert InventoryCount.objects.get(pk=original.pk).total == 204_000


def test_the_api_recounts_once_per_idempotency_key_and_refuses_in_words(floor):
    work_the_shift(floor)
    original = closer_of(floor)
    api = as_user(floor.manager)
    body = {"chips": RECOUNTED, "dealer": sig(floor.dealer), "supervisor": {"username": "pm"}, "reason": "recount"}
    url = f"/api/accounting/counts/{original.pk}/recount/"
    refused = api.post(url, {**body, "reason": ""}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "reason_required"
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="rc-1")
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="rc-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert first.json()["supersedes"] == original.pk
    assert InventoryCount.objects.filter(supersedes=original).count() == 1
    listed = {c["id"]: c for c in api.get(f"/api/accounting/counts/?table={floor.table.pk}").json()["results"]}
    assert listed[original.pk]["superseded_by"] == first.json()["id"]
    assert api.post(url, body, format="json").json()["error"]["code"] == "count_superseded"
