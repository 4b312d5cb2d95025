"""Every kind of change leaves its audit record, with who, where, what, before and after."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.utils import timezone

from casino.audit.models import AuditRecord
from casino.audit.services import GENESIS, audit_log, compute_hash
from casino.context import RequestContext, acting_as
from tables.models import Assignment, Round, RoundStatus, Shift, ShiftType, Table
from tables.services import floor as floor_services
from tables.services import rounds

CARDS = ["9S", "KH", "5D", "3C", "2H", "4S"]  # player 9+5+2 = 6, banker 0+3+4 = 7: banker wins


def last_record() -> AuditRecord:
    return AuditRecord.objects.order_by("-id").first()


def played_round(floor, *, bets=(("banker", 2500),)) -> Round:
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    for seat, (kind, amount) in enumerate(bets, start=1):
        rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=seat, type=kind, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in CARDS:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    return rnd


def test_round_open_is_recorded_with_who_where_and_what(floor):
    # given a dealer at their tablet
    with acting_as(RequestContext(client_addr="10.0.0.7", device="tablet-BAC1", channel="api")):
        # when they open a round
        rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    # then its record names the dealer, the device, the round and what it opened with
    rec = last_record()
    assert (rec.chain, rec.action, rec.object_type, rec.object_id, rec.table_code) == (
        "table:BAC1", "round.open", "round", str(rnd.pk), "BAC1")
    assert (rec.actor_id, rec.actor_username, rec.actor_role) == (floor.dealer.pk, "dealer", "dealer")
    assert (rec.client_addr, rec.device, rec.channel) == ("10.0.0.7", "tablet-BAC1", "api")
    assert rec.before is None
    opened = {"number": 1, "game": "baccarat", "config": rnd.config, "shift": floor.shift.pk}
    assert {k: rec.after[k] for k in opened} == opened  # (pool games add what they carry in)
    assert (rec.seq, rec.prev_hash, rec.hash) == (1, GENESIS, compute_hash(rec))
    assert abs(rec.created_at - timezone.now()) < dt.timedelta(seconds=5)


def test_bet_is_recorded_with_its_document(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    bet = rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=3, type="player", amount=1500)
    rec = last_record()
    assert (rec.action, rec.object_type, rec.object_id) == ("bet.place", "bet", str(bet.pk))
    assert rec.after == {"round": rnd.pk, "id": "b1", "seat": 3, "type": "player", "amount": 1500}
    assert rec.seq == 2
    assert rec.prev_hash == AuditRecord.objects.get(chain="table:BAC1", seq=1).hash


def test_close_betting_and_each_card_are_recorded(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=2500)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    closed = last_record()
    assert (closed.action, closed.before, closed.after) == ("round.close_betting", {"status": "open"},
                                                            {"status": "betting_closed"})
    rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": "9S"})
    first = last_record()
    assert (first.action, first.object_id) == ("event.post", str(rnd.pk))
    assert first.before == {"status": "betting_closed", "events": 0}
    assert first.after == {"seq": 0, "event": {"card": "9S"},
                           "next": {"expect": "card", "to": "banker", "say": "Deal card 2 to the banker",
                                    "message": [{"id": "deal_banker_card", "params": {"n": 2}}]}}
    rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": "KH"})
    second = last_record()
    assert second.before == {"status": "dealing", "events": 1}
    assert second.after["seq"] == 1
    assert second.after["event"] == {"card": "KH"}


def test_settlement_is_recorded_with_every_bet_result(floor):
    rnd = played_round(floor, bets=(("banker", 2500), ("player", 1000)))
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)
    rec = last_record()
    assert (rec.action, rec.object_id, rec.before) == ("round.settle", str(rnd.pk), {"status": "dealing"})
    assert rec.after["status"] == "settled"
    assert rec.after["house"] == {"net": -2375 + 1000, "commission": 125, "rake": 0}
    assert rec.after["bets"] == [{"id": "b1", "result": "win", "net": 2375, "commission": 125},
                                 {"id": "b2", "result": "lose", "net": -1000, "commission": 0}]
    assert rec.after["outcome"]["winner"] == "banker"


def test_void_request_and_approval_are_recorded(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.round_void_request(round_id=rnd.pk, actor=floor.dealer, reason="card exposed")
    asked = last_record()
    assert (asked.action, asked.actor_username, asked.before, asked.after) == (
        "round.void_request", "dealer", None, {"reason": "card exposed"})
    rounds.round_void_approve(round_id=rnd.pk, actor=floor.manager)
    approved = last_record()
    assert (approved.action, approved.actor_username, approved.actor_role) == ("round.void", "pm", "pit_manager")
    assert approved.before == {"status": "open"}
    assert approved.after == {"status": "voided", "reason": "card exposed", "requested_by": floor.dealer.pk}


def test_table_update_records_every_field_before_and_after(floor):
    floor_services.table_update(table_id=floor.table.pk, actor=floor.manager, min_bet=1000, max_bet=200_000)
    rec = last_record()
    assert (rec.chain, rec.action, rec.object_type, rec.object_id) == ("table:BAC1", "table.update", "table",
                                                                       str(floor.table.pk))
    common = {"name": floor.table.name, "config": {}, "seats": 7, "status": "open"}
    assert rec.before == {**common, "min_bet": 500, "max_bet": 500_000}
    assert rec.after == {**common, "min_bet": 1000, "max_bet": 200_000}


def test_shift_open_is_recorded_on_the_casino_chain(floor):
    shift_type = ShiftType.objects.create(code="swing", name="Swing", starts=dt.time(14), ends=dt.time(22))
    day = dt.date(2026, 3, 1)
    shift = floor_services.shift_open(shift_type_id=shift_type.pk, gaming_date=day, actor=floor.manager)
    rec = last_record()
    assert (rec.chain, rec.action, rec.object_id, rec.table_code) == ("casino", "shift.open", str(shift.pk), "")
    assert rec.after == {"type": "swing", "gaming_date": "2026-03-01", "starts_at": str(shift.starts_at),
                         "ends_at": str(shift.ends_at)}


def test_assignment_create_and_relieve_are_recorded(floor):
    dealer3 = floor.other_dealer
    Assignment.objects.filter(dealer=dealer3).update(relieved_at=timezone.now())
    assignment = floor_services.assignment_create(dealer_id=dealer3.pk, table_id=floor.table.pk,
                                                  shift_id=floor.shift.pk, starts_at=None, ends_at=None,
                                                  actor=floor.manager)
    made = last_record()
    assert (made.action, made.object_id, made.table_code) == ("assignment.create", str(assignment.pk), "BAC1")
    assert made.after == {"dealer": "dealer2", "table": "BAC1", "shift": floor.shift.pk,
                          "starts_at": str(floor.shift.starts_at), "ends_at": str(floor.shift.ends_at)}
    relieved = floor_services.assignment_relieve(assignment_id=assignment.pk, actor=floor.manager)
    rec = last_record()
    assert (rec.action, rec.before, rec.after) == ("assignment.relieve", {"relieved_at": None},
                                                   {"relieved_at": str(relieved.relieved_at)})


def test_ledger_reversal_is_recorded(floor):
    from accounting.models import LedgerTransaction
    from accounting.services.ledger import transaction_reverse

    rnd = played_round(floor)
    rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)
    original = LedgerTransaction.objects.get(source_type="round", source_id=str(rnd.pk))
    reversal = transaction_reverse(txn_id=original.pk, actor=floor.admin, reason="wrong table")
    rec = last_record()
    assert (rec.chain, rec.action, rec.object_type, rec.object_id) == ("casino", "ledger.reverse",
                                                                       "ledger_transaction", str(reversal.pk))
    assert (rec.before, rec.after) == ({"transaction": original.pk}, {"reversal": reversal.pk,
                                                                      "reason": "wrong table"})
    assert (rec.actor_username, rec.actor_role) == ("admin", "admin")


# -- a change whose audit record cannot be written does not happen ------------------------------

def _failing_audit(**kwargs):
    raise RuntimeError("audit store unavailable")


@pytest.mark.parametrize("module", ["tables.services.rounds"])
def test_round_open_is_rolled_back_when_its_audit_write_fails(floor, module):
    # given an audit write that fails
    before = (Round.objects.count(), AuditRecord.objects.count())
    with mock.patch(f"{module}.audit_log", side_effect=_failing_audit), pytest.raises(RuntimeError):
        # when a dealer opens a round
        rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    # then no round was opened and nothing recorded
    assert (Round.objects.count(), AuditRecord.objects.count()) == before


def test_settlement_is_rolled_back_with_its_ledger_when_its_audit_write_fails(floor):
    from accounting.models import Entry, LedgerTransaction
    from tables.models import Settlement

    rnd = played_round(floor)
    audits = AuditRecord.objects.count()
    with mock.patch("tables.services.rounds.audit_log", side_effect=_failing_audit), pytest.raises(RuntimeError):
        rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.DEALING
    assert (Settlement.objects.count(), LedgerTransaction.objects.count(), Entry.objects.count()) == (0, 0, 0)
    assert AuditRecord.objects.count() == audits


def test_table_update_is_rolled_back_when_its_audit_write_fails(floor):
    with mock.patch("tables.services.floor.audit_log", side_effect=_failing_audit), pytest.raises(RuntimeError):
        floor_services.table_update(table_id=floor.table.pk, actor=floor.manager, max_bet=1000)
    assert Table.objects.get(pk=floor.table.pk).max_bet == 500_000


def test_shift_open_is_rolled_back_when_its_audit_write_fails(floor):
    shift_type = ShiftType.objects.create(code="swing", name="Swing", starts=dt.time(14), ends=dt.time(22))
    shifts = Shift.objects.count()
    with mock.patch("tables.services.floor.audit_log", side_effect=_failing_audit), pytest.raises(RuntimeError):
        floor_services.shift_open(shift_type_id=shift_type.pk, gaming_date=dt.date(2026, 3, 1), actor=floor.manager)
    assert Shift.objects.count() == shifts


def test_a_group_change_is_rolled_back_when_its_audit_write_fails(floor):
    from django.contrib.auth.models import Group
    from django.db import transaction

    group = Group.objects.get(name="auditor")
    with mock.patch("casino.audit.receivers.audit_log", side_effect=_failing_audit), pytest.raises(RuntimeError), \
            transaction.atomic():  # the admin's transaction (Django adds and signals inside it)
        floor.nobody.groups.add(group)
    assert list(floor.nobody.groups.all()) == []


def test_audit_log_refuses_to_run_outside_a_transaction(transactional_db):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit_log(actor=None, action="x", object_type="y", object_id=1)
    assert AuditRecord.objects.count() == 0
