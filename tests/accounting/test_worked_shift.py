"""A shift at BAC1 worked by hand: counts, a fill, a credit, a marker, two rounds, the drop → win, hold, variance.

opener   2500×40 + 500×100 + 10000×10                    = 250 000   (first ever: from the bankroll)
fill     2500×20                                         =  50 000
credit   10000×3                                         =  30 000
marker   issued at the table for chips                   =  20 000, of which 5 000 paid back in chips
round 1  banker 2 500 wins (net +2 375, commission 125), player 1 000 and tie 500 lose → house −875
round 2  player 10 000 loses                                                           → house +10 000
rounds win = −875 + 10 000 = 9 125 (commission 125, handle 14 000)
drop     cash 60 000, chips 0, marker copies 20 000      =  80 000
closer   10000×7 + 2500×40 + 500×60 + 100×40             = 204 000

count win = closer + credits + drop − opener − fills − marker payments
          = 204 000 + 30 000 + 80 000 − 250 000 − 50 000 − 5 000 = 9 000
hold      = 9 000 / 80 000 = 9/80 = 11.25 %
variance  = count win − rounds win − pool change = 9 000 − 9 125 − 0 = −125 (the tray is 125 short)
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from accounting.models import Alert, CountKind, LedgerTransaction, TableShiftClose
from accounting.money import percent_text
from accounting.selectors import ledger_sum, table_shift_figures
from accounting.services import counts, shifts, slips
from accounting.services.shifts import CloseRefused
from casino.audit.models import AuditRecord
from tables.models import Assignment, Shift
from tests.accounting.helpers import BANKER_WINS, balances_by_code, play_round, sig, staff
from tests.factories import assign, open_shift

OPENER = {"2500": 40, "500": 100, "10000": 10}
CLOSER = {"10000": 7, "2500": 40, "500": 60, "100": 40}


def count(floor, kind, chips, shift=None):
    if shift is not None and not Assignment.objects.filter(dealer=floor.dealer, table=floor.table, shift=shift).exists():
        assign(floor.dealer, floor.table, shift, floor.manager)  # the table's dealer in that shift signs its counts
    return counts.inventory_count_record(
        actor=floor.manager,
        table_id=floor.table.pk,
        shift_id=(shift or floor.shift).pk,
        kind=kind,
        chips=chips,
        dealer=sig(floor.dealer),
        supervisor=sig(floor.manager),
    )


def slip(floor, people, kind, chips):
    s = slips.slip_request(
        actor=floor.manager,
        kind=kind,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        chips=chips,
    )
    cage, table_side = sig(people.cashier), sig(floor.dealer)
    s = slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=cage if kind == "fill" else table_side)
    return slips.slip_receive(actor=floor.manager, slip_id=s.pk, signer=table_side if kind == "fill" else cage)


def work_the_shift(floor):
    people = staff(floor)
    count(floor, CountKind.OPENER, OPENER)
    slip(floor, people, "fill", {"2500": 20})
    slip(floor, people, "credit", {"10000": 3})
    marker = slips.marker_issue(
        actor=floor.manager,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        player="P. Smith",
        amount=20_000,
        supervisor=sig(floor.manager),
        dealer=sig(floor.dealer),
    )
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000), (3, "tie", 500)], BANKER_WINS)
    play_round(floor.table, floor.dealer, [(4, "player", 10_000)], BANKER_WINS)
    slips.marker_pay(
        actor=floor.manager, marker_id=marker.pk, amount=5_000, at_table=True, signer=sig(floor.dealer)
    )
    count(floor, CountKind.CLOSER, CLOSER)
    counts.drop_count_record(
        actor=people.counter,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        cash=60_000,
        chips=0,
        markers=20_000,
        counter_one=sig(people.counter),
        counter_two=sig(people.counter2),
    )
    return people


def test_the_worked_shift_gives_the_hand_computed_win_hold_and_variance(floor):
    # given the shift above
    work_the_shift(floor)

    # when the pit manager closes the table
    close = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)

    # then the figures are the hand computation
    assert (close.opener_total, close.closer_total, close.fills, close.credits, close.drop) == (
        250_000,
        204_000,
        50_000,
        30_000,
        80_000,
    )
    assert (close.marker_payments, close.markers_issued) == (5_000, 20_000)
    assert close.count_win == 204_000 + 30_000 + 80_000 - 250_000 - 50_000 - 5_000 == 9_000
    assert (close.rounds, close.handle, close.rounds_win, close.commission) == (2, 14_000, 9_125, 125)
    assert close.pool_change == 0
    assert close.variance == 9_000 - 9_125 == -125
    figures = table_shift_figures(floor.table, floor.shift)
    assert figures.hold == Fraction(9, 80)
    assert percent_text(figures.hold) == "11.25"

    # and the ledger agrees, account by account
    b = balances_by_code()
    assert {k: v for k, v in b.items() if k.startswith("table:BAC1:tray:")} == {
        "table:BAC1:tray:10000": 70_000,
        "table:BAC1:tray:2500": 100_000,
        "table:BAC1:tray:500": 30_000,
        "table:BAC1:tray:100": 4_000,
    }
    assert b["table:BAC1:tray"] == 0  # the shift's unallocated movements are cleared at close
    assert b["table:BAC1:drop"] == 0  # the cash counted matches the chips sold, up to the variance
    assert b["table:BAC1:win"] == -9_000
    assert b["table:BAC1:commission"] == -125
    assert b["table:BAC1:variance"] == 125  # a shortage is a debit
    assert b["markers"] == 15_000  # issued 20 000, paid 5 000
    assert b["cage"] == -50_000 + 30_000 + 60_000
    assert b["bankroll"] == -250_000
    assert sum(b.values()) == 0
    # count win = −(win + commission + rake + variance + pool) over the shift's postings
    revenue = ["table:BAC1:win", "table:BAC1:commission", "table:BAC1:rake", "table:BAC1:variance", "table:BAC1:pool"]
    assert -ledger_sum(codes=revenue, table=floor.table, shift=floor.shift) == close.count_win
    assert AuditRecord.objects.filter(action="table.shift_close", object_id=str(close.pk)).count() == 1


def test_close_refuses_naming_every_missing_count_and_live_round(floor):
    # given an opener only, and a round still open for bets
    count(floor, CountKind.OPENER, OPENER)
    from tables.services import rounds

    live = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    before = LedgerTransaction.objects.count()

    # when the pit manager tries to close
    with pytest.raises(CloseRefused) as refused:
        shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)

    # then it names what is missing and writes nothing
    assert refused.value.missing == [
        "closing inventory count",
        "soft count of the drop",
        f"round #{live.number} is open",
    ]
    assert refused.value.as_dict()["code"] == "close_refused"
    assert TableShiftClose.objects.count() == 0
    assert LedgerTransaction.objects.count() == before


def test_close_refuses_while_a_slip_is_in_transit(floor):
    people = staff(floor)
    count(floor, CountKind.OPENER, OPENER)
    s = slips.slip_request(
        actor=floor.manager,
        kind="fill",
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        chips={"2500": 4},
    )
    slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=sig(people.cashier))
    count(floor, CountKind.CLOSER, OPENER)
    counts.drop_count_record(
        actor=people.counter,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        cash=0,
        chips=0,
        markers=0,
        counter_one=sig(people.counter),
        counter_two=sig(people.counter2),
    )
    with pytest.raises(CloseRefused) as refused:
        shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    assert refused.value.missing == [f"fill slip {s.reference} is issued, not received"]


def test_next_shift_opener_rolls_from_the_closer_or_reports_a_discrepancy(floor, settings):
    # given the worked shift closed
    people = work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    swing = open_shift(floor.manager, code="swing")
    Shift.objects.filter(pk=swing.pk).update(
        starts_at=floor.shift.ends_at, ends_at=floor.shift.ends_at + (floor.shift.ends_at - floor.shift.starts_at)
    )
    grave = open_shift(floor.manager, code="grave")
    Shift.objects.filter(pk=grave.pk).update(
        starts_at=floor.shift.ends_at + (floor.shift.ends_at - floor.shift.starts_at),
        ends_at=floor.shift.ends_at + 2 * (floor.shift.ends_at - floor.shift.starts_at),
    )

    # when the next shift's opener is rolled from the last closer
    rolled = counts.inventory_roll(actor=floor.manager, table_id=floor.table.pk, shift_id=swing.pk)

    # then it is the closer, with no discrepancy and no posting
    assert (rolled.chips, rolled.total, rolled.rolled, rolled.discrepancy_gross) == (
        {"100": 40, "500": 60, "2500": 40, "10000": 7},
        204_000,
        True,
        0,
    )
    assert not LedgerTransaction.objects.filter(source_type="count", source_id=str(rolled.pk)).exists()

    # and a counted opener that differs raises an alert by the thresholds (report > 2 500, escalate ≥ 10 000)
    count(floor, CountKind.CLOSER, {"10000": 7, "2500": 40, "500": 60, "100": 40}, shift=swing)
    counts.drop_count_record(
        actor=people.counter,
        table_id=floor.table.pk,
        shift_id=swing.pk,
        cash=0,
        chips=0,
        markers=0,
        counter_one=sig(people.counter),
        counter_two=sig(people.counter2),
    )
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=swing.pk)
    settings.CROUPIER = {**settings.CROUPIER, "COUNT_DISCREPANCY_REPORT": 2_000}
    # a 2 500 chip missing and a 500 swapped for five 100s: net −2 500, gross 2 500 + 500 + 500
    short = count(floor, CountKind.OPENER, {"10000": 7, "2500": 39, "500": 59, "100": 45}, shift=grave)
    assert (short.discrepancy_net, short.discrepancy_gross) == (-2_500, 3_500)
    alert = Alert.objects.get(kind="count_discrepancy")
    assert (alert.severity, alert.table, alert.shift_id) == ("warning", floor.table, grave.pk)
    # the tray accounts follow the count; the difference is the discrepancy account's
    b = balances_by_code()
    assert b["table:BAC1:tray:2500"] == 39 * 2500
    assert b["table:BAC1:tray:100"] == 45 * 100
    assert b["table:BAC1:discrepancy"] == 2_500


def test_discrepancy_thresholds_warn_above_report_and_escalate_at_escalate(floor, settings):
    settings.CROUPIER = {**settings.CROUPIER, "COUNT_DISCREPANCY_REPORT": 2_500, "COUNT_DISCREPANCY_ESCALATE": 10_000}
    from accounting.models import AlertSeverity
    from accounting.services.alerts import severity_for

    assert severity_for(2_500, report=2_500, escalate=10_000) is None
    assert severity_for(2_600, report=2_500, escalate=10_000) == AlertSeverity.WARNING
    assert severity_for(-9_999, report=2_500, escalate=10_000) == AlertSeverity.WARNING
    assert severity_for(10_000, report=2_500, escalate=10_000) == AlertSeverity.CRITICAL
