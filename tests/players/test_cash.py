"""The multiple transaction log: a player's cash per gaming day, the threshold, one alert and one report line."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from accounting.models import Alert
from casino.audit.models import AuditRecord
from casino.errors import Conflict
from players.models import BuyIn, CashTransaction, CashTransactionReport, RatingSlip
from players.services import cash, slips
from tables.models import Shift
from tests.players.helpers import compliance_user, make_player


def test_crossing_the_threshold_across_tables_and_transactions_raises_one_alert_and_one_report_line(floor):
    # given a player rated at two tables in the same gaming day (threshold: above 10,000.00)
    player = make_player(floor)
    at_bac1 = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk)
    at_bac2 = slips.slip_open(actor=floor.other_dealer, table_id=floor.other_table.pk, seat=2, player_id=player.pk)
    officer = compliance_user()
    # when cash comes in: 4,000.00 at BAC1, 3,000.00 at BAC2, 3,000.00 front money at the cage: 10,000.00, not above
    slips.buy_in_record(actor=floor.dealer, slip_id=at_bac1.pk, method="cash", amount=400_000)
    slips.buy_in_record(actor=floor.other_dealer, slip_id=at_bac2.pk, method="cash", amount=300_000)
    cash.cash_transaction_record(actor=officer, kind="front_money_deposit", amount=300_000, player_id=player.pk)
    assert (Alert.objects.count(), CashTransactionReport.objects.count()) == (0, 0)
    # and 0.01 more at BAC1 takes the day above the threshold; then 5,000.00 more at BAC2
    slips.buy_in_record(actor=floor.dealer, slip_id=at_bac1.pk, method="cash", amount=1)
    crossing = CashTransaction.objects.latest("id")
    slips.buy_in_record(actor=floor.other_dealer, slip_id=at_bac2.pk, method="cash", amount=500_000)
    # and cash going out is its own total (2,000.00 redeemed: below)
    cash.cash_transaction_record(actor=officer, kind="chip_redemption", amount=200_000, card_number="C1001")

    # then exactly one alert for the pit and one report line, on the transaction that crossed
    alert = Alert.objects.get()
    assert (alert.kind, alert.severity, alert.table, alert.shift) == (
        "cash_threshold",
        "warning",
        floor.table,
        floor.shift,
    )
    assert alert.message == (
        "Ada Lovelace (card C1001): cash in 10000.01 on gaming day "
        f"{floor.shift.gaming_date} is above 10000.00; a cash transaction report line was made"
    )
    line = CashTransactionReport.objects.get()
    assert (line.player, line.gaming_date, line.direction) == (player, floor.shift.gaming_date, "in")
    assert (line.total, line.transactions, line.threshold, line.crossing, line.alert) == (
        1_000_001,
        4,
        1_000_000,
        crossing,
        alert,
    )
    # the log has every transaction, on the gaming day of the shift
    assert list(CashTransaction.objects.order_by("id").values_list("direction", "kind", "amount", "location")) == [
        ("in", "buy_in", 400_000, "BAC1"),
        ("in", "buy_in", 300_000, "BAC2"),
        ("in", "front_money_deposit", 300_000, "cage"),
        ("in", "buy_in", 1, "BAC1"),
        ("in", "buy_in", 500_000, "BAC2"),
        ("out", "chip_redemption", 200_000, "cage"),
    ]
    assert set(CashTransaction.objects.values_list("gaming_date", flat=True)) == {floor.shift.gaming_date}
    assert AuditRecord.objects.filter(action="cash.report").count() == 1
    assert AuditRecord.objects.filter(action="cash.record").count() == 6
    assert BuyIn.objects.filter(method="cash").count() == 4


def test_each_gaming_day_has_its_own_total(floor):
    # given 6,000.00 in on one gaming day, then a new shift of the next gaming day and 6,000.00 more
    player = make_player(floor)
    officer = compliance_user()
    cash.cash_transaction_record(actor=officer, kind="front_money_deposit", amount=600_000, player_id=player.pk)
    now = timezone.now()
    Shift.objects.create(
        shift_type=floor.shift.shift_type,
        gaming_date=floor.shift.gaming_date + dt.timedelta(days=1),
        starts_at=now - dt.timedelta(minutes=5),
        ends_at=now + dt.timedelta(hours=8),
        opened_by=floor.manager,
    )
    cash.cash_transaction_record(actor=officer, kind="front_money_deposit", amount=600_000, player_id=player.pk)
    # then neither day is above the threshold
    assert sorted(CashTransaction.objects.values_list("gaming_date", flat=True)) == [
        floor.shift.gaming_date,
        floor.shift.gaming_date + dt.timedelta(days=1),
    ]
    assert (Alert.objects.count(), CashTransactionReport.objects.count()) == (0, 0)


def test_anonymous_cash_above_the_threshold_is_refused_until_the_player_is_identified(floor):
    # given an anonymous slip with 9,000.00 bought in
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=6, description="grey suit")
    slips.buy_in_record(actor=floor.dealer, slip_id=slip.pk, method="cash", amount=900_000)
    rows = CashTransaction.objects.count()
    # when 2,000.00 more is offered anonymously
    with pytest.raises(Conflict) as refused:
        slips.buy_in_record(actor=floor.dealer, slip_id=slip.pk, method="cash", amount=200_000)
    # then it is refused and nothing is written
    assert refused.value.code == "identification_required"
    assert CashTransaction.objects.count() == rows
    assert BuyIn.objects.count() == 1
    # when the player is identified, the anonymous 9,000.00 counts as theirs, and the 2,000.00 goes through
    player = make_player(floor, card="C2002")
    slips.slip_identify(actor=floor.dealer, slip_id=slip.pk, card_number="C2002")
    assert CashTransactionReport.objects.count() == 0
    slips.buy_in_record(actor=floor.dealer, slip_id=slip.pk, method="cash", amount=200_000)
    line = CashTransactionReport.objects.get()
    assert (line.player, line.total, line.transactions) == (player, 1_100_000, 2)
    assert Alert.objects.filter(kind="cash_threshold").count() == 1


def test_a_marker_buy_in_is_credit_not_cash(floor):
    from accounting.services.slips import marker_issue
    from tests.accounting.helpers import sig

    # given a marker of 20,000.00 signed at BAC1 and a slip there
    player = make_player(floor)
    slip = slips.slip_open(actor=floor.manager, table_id=floor.table.pk, seat=2, player_id=player.pk)
    marker = marker_issue(
        actor=floor.manager,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        player="Ada Lovelace",
        amount=2_000_000,
        supervisor=sig(floor.manager),
        dealer=sig(floor.dealer),
    )
    # when it is recorded as the slip's buy-in
    buy_in = slips.buy_in_record(actor=floor.dealer, slip_id=slip.pk, method="marker", marker_id=marker.pk)
    # then the buy-in is the marker's amount, no cash is logged, no report; a second use is refused
    assert (buy_in.amount, buy_in.marker, buy_in.cash_transaction) == (2_000_000, marker, None)
    assert CashTransaction.objects.count() == 0
    assert CashTransactionReport.objects.count() == 0
    with pytest.raises(Conflict) as again:
        slips.buy_in_record(actor=floor.dealer, slip_id=slip.pk, method="marker", marker_id=marker.pk)
    assert again.value.code == "marker_used"
    assert BuyIn.objects.count() == 1


def test_the_log_and_the_report_lines_are_append_only(floor):
    player = make_player(floor)
    txn = cash.cash_transaction_record(
        actor=compliance_user(), kind="front_money_deposit", amount=1_500_000, player_id=player.pk
    )
    line = CashTransactionReport.objects.get()
    for qs, change in (
        (CashTransaction.objects.filter(pk=txn.pk), {"amount": 1}),
        (CashTransactionReport.objects.filter(pk=line.pk), {"total": 1_000_001}),
    ):
        # refused by the database: the service role has no such privilege, and the trigger stands behind it
        with pytest.raises(DatabaseError), transaction.atomic():
            qs.update(**change)
        with pytest.raises(DatabaseError), transaction.atomic():
            qs.delete()
    assert CashTransaction.objects.get(pk=txn.pk).amount == 1_500_000


def test_a_closed_slip_cannot_change_in_the_database(floor):
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1)
    slips.slip_close(actor=floor.dealer, slip_id=slip.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingSlip.objects.filter(pk=slip.pk).update(seat=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingSlip.objects.filter(pk=slip.pk).delete()
    assert RatingSlip.objects.get(pk=slip.pk).seat == 1
