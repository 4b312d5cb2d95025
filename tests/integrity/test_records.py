"""Every sealed financial record held to the audit trail, and the ledger held to its invariants (issue: "owner-level
edits outside rounds go unseen": a received fill slip's total, a closer count and one ledger line changed by the
owner with triggers off, and ``verify_audit`` and ``verify_audit --full`` both exit 0)."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from accounting.integrity import ledger_against_records
from accounting.models import (
    DropCount,
    Entry,
    InventoryCount,
    LedgerTransaction,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    Reconciliation,
    ShiftReconciliation,
    Slip,
    TableShiftClose,
)
from accounting.services import ledger, reconcile, shifts, slips
from casino.audit.verification import audit_verify
from tables.engines import registry
from tables.models import Round, Settlement
from tests.accounting.helpers import BANKER_WINS, play_round, sig
from tests.accounting.test_worked_shift import work_the_shift
from tests.extending import test_toy_game as toy_module
from tests.factories import build_floor
from tests.tamper import as_owner


@pytest.fixture
def worked(transactional_db):
    """The worked shift at BAC1 (counts, a fill, a credit, a marker paid in part, two rounds, the drop), a second
    marker written off, the table and the shift closed and reconciled: every kind of sealed record."""
    floor = build_floor()
    people = work_the_shift(floor)
    other = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                               player="Q. Jones", amount=3_000, supervisor=sig(floor.manager), dealer=sig(floor.dealer))
    slips.marker_write_off(actor=floor.accountant, marker_id=other.pk, reason="gone abroad",
                           accountant=sig(floor.accountant), second=sig(floor.manager))
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    reconcile.reconcile_shift(shift_id=floor.shift.pk)
    floor.people = people
    return floor


@pytest.fixture
def toy_game():
    """The toy pool game of tests/extending, registered for the test."""
    registry.register(toy_module.ToyColourPool())
    yield toy_module.TOY
    registry.unregister(toy_module.TOY)


def _messages(full: bool = False) -> list[str]:
    result = audit_verify(full=full)
    return sorted(b["message"] for b in result.breaks)


def _both(expected: list[str]) -> None:
    """The hourly and the full verification both report exactly ``expected`` (as prefixes)."""
    for full in (False, True):
        found = _messages(full)
        assert len(found) == len(expected), (full, found)
        for message, prefix in zip(found, sorted(expected), strict=True):
            assert message.startswith(prefix), (full, message, prefix)


def test_the_untouched_records_verify(worked):
    assert audit_verify().ok is True
    assert audit_verify(full=True).ok is True
    assert {LedgerTransaction.objects.filter(source_type=k).count() for k in
            ("fill", "credit", "count", "drop", "marker", "marker_payment", "marker_write_off", "table_close",
             "round")} == {1, 2}


def test_a_received_fill_slips_total_is_caught(worked):
    fill = Slip.objects.get(kind="fill")
    as_owner(("UPDATE accounting_slip SET total = 4500000 WHERE id = %s", [fill.pk]), triggers_off=["accounting_slip"])
    ref = f"fill slip F{fill.year}-{fill.number:06d} at BAC1 (slip {fill.pk})"
    txn = LedgerTransaction.objects.get(source_type="fill")
    _both([f"{ref} differs from its audit record",
           f"ledger transaction {txn.pk} (fill, fill {fill.pk} at BAC1) does not post what its record says: "
           f"cage -50000 where its record gives -4500000"])
    out = io.StringIO()
    with pytest.raises(CommandError, match="audit trail broken"):
        call_command("verify_audit", "--full", stdout=out)
    assert f"record_mismatch: {ref} differs from its audit record" in out.getvalue()


def test_a_closer_count_raised_is_caught(worked):
    closer = InventoryCount.objects.get(kind="closer")
    as_owner(("UPDATE accounting_inventorycount SET total = total + 500000, "
              "chips = jsonb_set(chips, '{10000}', to_jsonb((chips->>'10000')::int + 50)) WHERE id = %s",
              [closer.pk]), triggers_off=["accounting_inventorycount"])
    txn = LedgerTransaction.objects.get(source_type="table_close")
    _both([f"closer count at BAC1 (count {closer.pk}) differs from its audit record",
           f"ledger transaction {txn.pk} (table_close, table_close {txn.source_id} at BAC1) does not post what its "
           f"record says: table:BAC1:tray:10000 "])


def test_a_soft_count_changed_is_caught(worked):
    drop = DropCount.objects.get()
    as_owner(("UPDATE accounting_dropcount SET cash = cash - 10000, total = total - 10000 WHERE id = %s", [drop.pk]),
             triggers_off=["accounting_dropcount"])
    drop_txn = LedgerTransaction.objects.get(source_type="drop")
    close_txn = LedgerTransaction.objects.get(source_type="table_close")
    _both([f"soft count at BAC1 (drop count {drop.pk}) differs from its audit record",
           f"ledger transaction {drop_txn.pk} (drop, drop {drop.pk} at BAC1) does not post what its record says: "
           "cage 60000 where its record gives 50000; table:BAC1:drop -60000 where its record gives -50000",
           f"ledger transaction {close_txn.pk} (table_close, table_close {close_txn.source_id} at BAC1) does not post "
           "what its record says: table:BAC1:drop 60000 where its record gives 50000"])


def test_a_marker_changed_is_caught(worked):
    marker = Marker.objects.get(player="P. Smith")
    as_owner(("UPDATE accounting_marker SET amount = 12000, player = 'Nobody' WHERE id = %s", [marker.pk]),
             triggers_off=["accounting_marker"])
    txn = LedgerTransaction.objects.get(source_type="marker", source_id=str(marker.pk))
    ref = f"marker M{marker.year}-{marker.number:06d} (marker {marker.pk})"
    _both([f"{ref} differs from its audit record",
           f"ledger transaction {txn.pk} (marker, marker {marker.pk} at BAC1) does not post what its record says: "
           "markers 20000 where its record gives 12000; table:BAC1:tray -20000 where its record gives -12000"])


def test_a_marker_payment_and_a_write_off_changed_are_caught(worked):
    payment = MarkerPayment.objects.get()
    write_off = MarkerWriteOff.objects.get()
    as_owner(("UPDATE accounting_markerpayment SET amount = 500 WHERE id = %s", [payment.pk]),
             ("UPDATE accounting_markerwriteoff SET amount = 300, reason = 'paid' WHERE id = %s", [write_off.pk]),
             triggers_off=["accounting_markerpayment", "accounting_markerwriteoff"])
    paid = Marker.objects.get(pk=payment.marker_id)
    written = Marker.objects.get(pk=write_off.marker_id)
    pay_txn = LedgerTransaction.objects.get(source_type="marker_payment")
    off_txn = LedgerTransaction.objects.get(source_type="marker_write_off")
    _both([f"payment {payment.pk} on marker M{paid.year}-{paid.number:06d} (marker {paid.pk}) differs from its "
           "audit record",
           f"write-off {write_off.pk} of marker M{written.year}-{written.number:06d} (marker {written.pk}) differs "
           "from its audit record",
           f"ledger transaction {pay_txn.pk} (marker_payment, marker_payment {payment.pk} at BAC1) does not post",
           f"ledger transaction {off_txn.pk} (marker_write_off, marker_write_off {write_off.pk}) does not post"])


def test_a_table_close_changed_is_caught(worked):
    close = TableShiftClose.objects.get()
    as_owner(("UPDATE accounting_tableshiftclose SET rounds_win = rounds_win + 125, variance = variance - 125 "
              "WHERE id = %s", [close.pk]), triggers_off=["accounting_tableshiftclose"])
    txn = LedgerTransaction.objects.get(source_type="table_close")
    _both([f"table close of BAC1 (close {close.pk}) differs from its audit record",
           f"ledger transaction {txn.pk} (table_close, table_close {close.pk} at BAC1) does not post what its record "
           "says"])


def test_a_reconciliation_changed_is_caught(worked):
    result = Reconciliation.objects.get()
    run = ShiftReconciliation.objects.get()
    status = "balanced" if result.status == "variance" else "variance"
    as_owner(("UPDATE accounting_reconciliation SET status = %s, variance = 0, causes = '[]' WHERE id = %s",
              [status, result.pk]),
             ("UPDATE accounting_shiftreconciliation SET status = %s, causes = 0 WHERE id = %s", [status, run.pk]),
             triggers_off=["accounting_reconciliation", "accounting_shiftreconciliation"])
    _both([f"reconciliation of BAC1 for shift {result.shift_id} (reconciliation {result.pk}) differs from its audit "
           "record",
           f"reconciliation of shift {run.shift_id} (shift reconciliation {run.pk}) differs from its audit record"])


def test_a_ledger_line_raised_is_caught(worked):
    # the issue's case: one line raised by 100,000, so the ledger no longer sums to zero
    txn = LedgerTransaction.objects.get(source_type="credit")
    line = Entry.objects.filter(transaction=txn, account__code="cage").get()
    as_owner(("UPDATE accounting_entry SET amount = amount + 100000 WHERE id = %s", [line.pk]),
             triggers_off=["accounting_entry"])
    slip = Slip.objects.get(kind="credit")
    hourly = [f"ledger transaction {txn.pk} (credit, credit {slip.pk} at BAC1) does not balance",
              f"ledger transaction {txn.pk} (credit, credit {slip.pk} at BAC1) does not post what its record says: "
              "cage 130000 where its record gives 30000"]
    assert _messages() == sorted(hourly)
    entries = Entry.objects.count()
    assert _messages(full=True) == sorted([*hourly, f"the ledger does not sum to zero: its {entries} lines sum to "
                                                    "100000"])


def test_a_balanced_change_to_a_rounds_postings_is_caught(transactional_db):
    # given a baccarat round the house won 7,500 on (the player's bet lost): tray +7,500, table win -7,500
    floor = build_floor()
    settlement = play_round(floor.table, floor.dealer, [(1, "player", 7_500)], BANKER_WINS)
    rnd = Round.objects.get(pk=settlement.round_id)
    txn = LedgerTransaction.objects.get(source_type="round", source_id=str(rnd.pk))
    assert {e.account.code: e.amount for e in txn.entries.all()} == {"table:BAC1:tray": 7_500,
                                                                    "table:BAC1:win": -7_500}
    assert audit_verify().ok is True
    # when the owner moves both lines to 2,500 (the transaction still balances, the ledger still sums to zero)
    as_owner(("UPDATE accounting_entry SET amount = sign(amount) * 2500 WHERE transaction_id = %s", [txn.pk]),
             triggers_off=["accounting_entry"])
    # then the postings are held to the settlement, in both verifications
    _both([f"ledger transaction {txn.pk} (round, round {rnd.pk} at BAC1) does not post what its record says: "
           "table:BAC1:tray 2500 where its record gives 7500; table:BAC1:win -2500 where its record gives -7500"])


def test_a_deleted_posting_and_an_inserted_slip_are_caught(worked):
    marker_txn = LedgerTransaction.objects.get(source_type="marker", source_id=str(Marker.objects.get(
        player="P. Smith").pk))
    fill = Slip.objects.get(kind="fill")
    as_owner(("DELETE FROM accounting_entry WHERE transaction_id = %s", [marker_txn.pk]),
             ("DELETE FROM accounting_ledgertransaction WHERE id = %s", [marker_txn.pk]),
             ("INSERT INTO accounting_slip (kind, year, number, table_id, shift_id, chips, total, status, "
              "requested_by_id, request_signer_id, requested_at, void_reason, voided_from) SELECT kind, year, "
              "number + 100, table_id, shift_id, chips, total, 'requested', requested_by_id, request_signer_id, "
              "requested_at, '', '' FROM accounting_slip WHERE id = %s", [fill.pk]),
             triggers_off=["accounting_entry", "accounting_ledgertransaction", "accounting_slip"])
    marker = Marker.objects.get(pk=marker_txn.source_id)
    added = Slip.objects.get(number=fill.number + 100)
    _both([f"marker M{marker.year}-{marker.number:06d} (marker {marker.pk}) has no posting in the ledger",
           f"fill slip F{added.year}-{added.number:06d} at BAC1 (slip {added.pk}) has no audit record"])


def test_the_hourly_verification_leaves_old_records_to_the_full_one(worked):
    # the worked shift put two weeks back (as history is): the hourly run no longer reads its records
    back = timezone.now() - dt.timedelta(days=14)
    as_owner(("UPDATE tables_shift SET starts_at = %s, ends_at = %s WHERE id = %s",
              [back, back + dt.timedelta(hours=8), worked.shift.pk]), triggers_off=["tables_shift"])
    fill = Slip.objects.get(kind="fill")
    as_owner(("UPDATE accounting_slip SET total = 4500000 WHERE id = %s", [fill.pk]), triggers_off=["accounting_slip"])
    assert _messages() == []
    assert len(_messages(full=True)) == 2


def test_a_pool_games_postings_are_held_to_their_settlements(floor, toy_game):
    # given the toy pool game's rounds (a pool carried to the next round: the tray against the pot, rake)
    toy_module.test_a_toy_game_is_played_posted_counted_and_reconciled(floor, toy_game)
    # then its postings are what its settlements give (the pool change as the figures define it)
    assert LedgerTransaction.objects.filter(source_type="round", entries__account__code="table:TOY1:pool").exists()
    assert ledger_against_records() == []
    assert ledger_against_records(since=timezone.now() - dt.timedelta(days=2)) == []


def test_a_reversal_by_hand_is_caught_and_one_by_the_service_is_not(worked):
    # given a credit slip's posting reversed through the service (audited)
    credit = LedgerTransaction.objects.get(source_type="credit")
    ledger.transaction_reverse(txn_id=credit.pk, actor=worked.accountant, reason="keyed twice")
    assert audit_verify(full=True).ok is True
    # when the owner writes a reversal of the fill's posting by hand (its lines the exact negation)
    fill = LedgerTransaction.objects.get(source_type="fill")
    as_owner(("INSERT INTO accounting_ledgertransaction (kind, source_type, source_id, memo, reverses_id, table_id, "
              "shift_id, posted_at) SELECT 'reversal', 'reversal', id::text, 'oops', id, table_id, shift_id, now() "
              "FROM accounting_ledgertransaction WHERE id = %s", [fill.pk]),
             ("INSERT INTO accounting_entry (transaction_id, account_id, amount) SELECT (SELECT max(id) FROM "
              "accounting_ledgertransaction), account_id, -amount FROM accounting_entry WHERE transaction_id = %s",
              [fill.pk]),
             triggers_off=["accounting_ledgertransaction", "accounting_entry"])
    forged = LedgerTransaction.objects.get(reverses=fill)
    # then it is named: no audit record states it
    _both([f"ledger transaction {forged.pk} (reversal, reversal {fill.pk} at BAC1) is a reversal that no "
           "ledger.reverse audit record states"])


def test_named_pools_are_expected_as_the_ledger_posts_them(floor):
    # given a settled pool round whose answer names its pools (Carousel: count and pony), posted by the service
    now = timezone.now()
    document = {"status": "settled", "house": {"net": 30, "commission": 0, "rake": 30}, "bets": [],
                "pool": {"carry_in": 100, "carry_out": 160},
                "pools": {"count": {"carry_in": 100, "carry_out": 140}, "pony": {"carry_in": 0, "carry_out": 20}}}
    rnd = Round.objects.create(table=floor.table, shift=floor.shift, number=1, game="carousel", config={},
                               status="settled", dealer=floor.dealer, opened_at=now, settled_at=now, state=document)
    settlement = Settlement.objects.create(round=rnd, house_net=30, commission=0, rake=30, handle=0, pool_change=60,
                                           document=document, settled_by=floor.dealer, settled_at=now)
    txn = ledger.round_post(settlement=settlement)
    assert {e.account.code: e.amount for e in txn.entries.all()} == {
        "table:BAC1:tray": 90, "table:BAC1:rake": -30, "table:BAC1:pool:count": -40, "table:BAC1:pool:pony": -20}
    # then the checks expect exactly those lines (round_line_codes in SQL), in both runs
    assert ledger_against_records() == []
    assert ledger_against_records(since=now - dt.timedelta(days=2)) == []
