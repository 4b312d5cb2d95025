"""Fills and credits (numbering, signatures, voids), markers, denominations, and the alerts."""

from __future__ import annotations

import pytest

from accounting.models import Alert, ChipSet, LedgerTransaction, Marker, MarkerPayment, Slip
from accounting.services import alerts, counts, slips
from casino.errors import Conflict, Forbidden, InvalidInput
from tables.services import rounds
from tests.accounting.helpers import BANKER_WINS, PLAYER_WINS, balances_by_code, play_round, sig, staff


def request(floor, kind="fill", chips=None):
    return slips.slip_request(
        actor=floor.manager, kind=kind, table_id=floor.table.pk, shift_id=floor.shift.pk, chips=chips or {"2500": 4}
    )


def test_slips_are_numbered_in_sequence_per_kind_and_the_report_accounts_for_every_number(floor):
    people = staff(floor)
    # given three fills and a credit: one fill received, one voided, one outstanding
    f1, f2, f3 = request(floor), request(floor), request(floor)
    c1 = request(floor, "credit", {"10000": 1})
    slips.slip_issue(actor=floor.manager, slip_id=f1.pk, signer=sig(people.cashier))
    slips.slip_receive(actor=floor.manager, slip_id=f1.pk, signer=sig(floor.dealer))
    slips.slip_void_request(actor=floor.manager, slip_id=f2.pk, reason="keyed the wrong table")
    slips.slip_void_approve(actor=floor.accountant, slip_id=f2.pk)

    # then numbers run 1, 2, 3 for fills and 1 for credits
    assert [(s.kind, s.number) for s in (f1, f2, f3, c1)] == [("fill", 1), ("fill", 2), ("fill", 3), ("credit", 1)]
    assert f1.reference == f"F{f1.year}-000001"
    report = slips.slip_numbers(kind="fill", year=f1.year)
    assert report == {
        "kind": "fill",
        "year": f1.year,
        "last_number": 3,
        "used": [1],
        "outstanding": [3],
        "voided": [{"number": 2, "reason": "keyed the wrong table", "table": "BAC1"}],
        "gaps": [],
    }


def test_a_received_fill_posts_tray_by_denomination_against_the_cage(floor):
    people = staff(floor)
    s = request(floor, chips={"2500": 4, "500": 10})
    slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=sig(people.cashier))
    assert not LedgerTransaction.objects.exists()  # nothing posts until the table receives the chips
    slips.slip_receive(actor=floor.manager, slip_id=s.pk, signer=sig(floor.dealer))
    assert balances_by_code() == {"table:BAC1:tray:2500": 10_000, "table:BAC1:tray:500": 5_000, "cage": -15_000}


def test_signatures_must_be_three_different_people_with_the_right_roles(floor):
    people = staff(floor)
    s = request(floor)
    # the requester cannot also issue: a pit manager is not the cage (and one person signs one step)
    with pytest.raises(InvalidInput) as same:
        slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=sig(floor.manager))
    assert same.value.code == "signer_role"
    slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=sig(people.cashier))
    # the table-side receiver of a fill is a dealer; the cage's signer cannot receive too
    with pytest.raises(InvalidInput) as role:
        slips.slip_receive(actor=floor.manager, slip_id=s.pk, signer=sig(floor.accountant))
    assert role.value.code == "signer_role"
    with pytest.raises(InvalidInput) as unknown:
        slips.slip_receive(actor=floor.manager, slip_id=s.pk, signer="NOPE")  # an id is no signature
    assert unknown.value.code == "signature_required"
    assert Slip.objects.get(pk=s.pk).status == "issued"
    assert not LedgerTransaction.objects.exists()


def test_a_void_needs_a_reason_and_a_second_independent_person(floor):
    people = staff(floor)
    s = request(floor)
    slips.slip_issue(actor=floor.manager, slip_id=s.pk, signer=sig(people.cashier))
    slips.slip_receive(actor=floor.manager, slip_id=s.pk, signer=sig(floor.dealer))
    with pytest.raises(InvalidInput):
        slips.slip_void_request(actor=floor.manager, slip_id=s.pk, reason="   ")
    slips.slip_void_request(actor=floor.manager, slip_id=s.pk, reason="chips never left the cage")
    # not by the one who asked
    with pytest.raises(Forbidden) as same:
        slips.slip_void_approve(actor=floor.manager, slip_id=s.pk)
    assert same.value.code in ("same_person", "not_independent")
    # not by a signer of the slip (the cashier, were they an accountant)
    people.cashier.groups.add(*floor.accountant.groups.all())
    with pytest.raises(Forbidden) as signer:
        slips.slip_void_approve(actor=people.cashier, slip_id=s.pk)
    assert signer.value.code == "not_independent"
    assert Slip.objects.get(pk=s.pk).status == "received"
    # an accountant approves: the posting is reversed, never edited
    slips.slip_void_approve(actor=floor.accountant, slip_id=s.pk)
    assert Slip.objects.get(pk=s.pk).status == "voided"
    assert LedgerTransaction.objects.filter(kind="reversal").count() == 1
    assert {k: v for k, v in balances_by_code().items() if v} == {}


def test_markers_post_to_receivables_and_refuse_overpayment(floor):
    people = staff(floor)
    marker = slips.marker_issue(
        actor=floor.manager,
        table_id=floor.table.pk,
        shift_id=floor.shift.pk,
        player="A. Player",
        amount=50_000,
        supervisor=sig(floor.manager),
        dealer=sig(floor.dealer),
    )
    slips.marker_pay(
        actor=floor.manager, marker_id=marker.pk, amount=20_000, at_table=True, signer=sig(floor.dealer)
    )
    slips.marker_pay(
        actor=floor.accountant, marker_id=marker.pk, amount=25_000, at_table=False, signer=sig(people.cashier)
    )
    with pytest.raises(Conflict) as over:
        slips.marker_pay(
            actor=floor.accountant, marker_id=marker.pk, amount=5_001, at_table=False, signer=sig(people.cashier)
        )
    assert over.value.code == "overpayment"
    assert Marker.objects.get(pk=marker.pk).paid == 45_000
    assert MarkerPayment.objects.count() == 2
    assert balances_by_code() == {"markers": 5_000, "table:BAC1:tray": -30_000, "cage": 25_000}


def test_denominations_per_table_override_the_casino_and_bound_the_counts(floor):
    assert counts.denominations_for(floor.table) == [100, 500, 2500, 10000, 50000, 100000, 500000]
    counts.denominations_set(actor=floor.admin, denominations=[100, 500, 1000, 5000])
    counts.denominations_set(actor=floor.manager, table_id=floor.table.pk, denominations=[500, 2500])
    assert counts.denominations_for(floor.other_table) == [100, 500, 1000, 5000]
    assert counts.denominations_for(floor.table) == [500, 2500]
    with pytest.raises(InvalidInput) as refused:
        request(floor, chips={"1000": 2})
    assert refused.value.code == "unknown_denomination"
    with pytest.raises(Forbidden):
        counts.denominations_set(actor=floor.manager, denominations=[1])  # casino-wide is the admin's
    with pytest.raises(Forbidden):
        counts.denominations_set(actor=floor.other_manager, table_id=floor.table.pk, denominations=[1])
    assert ChipSet.objects.count() == 2


def test_a_large_bet_raises_one_alert_after_commit(floor, django_capture_on_commit_callbacks):
    # given an open round
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    # when a bet at the large-bet threshold (500 000) is placed, and a small one
    with django_capture_on_commit_callbacks(execute=True):
        big = rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="banker", amount=500_000)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=2, type="player", amount=499_900)
    # then one alert, for the big one
    alert = Alert.objects.get()
    assert (alert.kind, alert.severity, alert.table, alert.shift) == ("large_bet", "warning", floor.table, floor.shift)
    assert alert.data["bet"] == big.pk
    assert alerts.large_bet_check(bet_id=big.pk).pk == alert.pk  # checked again: still one alert
    assert Alert.objects.count() == 1


def test_a_large_house_loss_raises_an_alert(floor, settings, django_capture_on_commit_callbacks):
    settings.CROUPIER = {**settings.CROUPIER, "LARGE_LOSS": 20_000}
    with django_capture_on_commit_callbacks(execute=True):
        play_round(floor.table, floor.dealer, [(1, "player", 20_000)], PLAYER_WINS)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(floor.table, floor.dealer, [(1, "player", 20_000)], BANKER_WINS)
    alert = Alert.objects.get()
    assert alert.kind == "large_loss"
    assert alert.data["house_net"] == -20_000


def test_pit_managers_acknowledge_alerts_of_their_pits_once(floor):
    alert = alerts.alert_raise(kind="variance", severity="warning", message="m", dedupe_key="k", table=floor.table)
    with pytest.raises(Forbidden):
        alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.other_manager)
    with pytest.raises(Forbidden):
        alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.accountant)
    acked = alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.manager, note="recounted")
    assert (acked.acknowledged_by, acked.ack_note) == (floor.manager, "recounted")
    with pytest.raises(Conflict):
        alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.manager)
