"""A supervisor corrects a pay list the dealer confirmed: a record written once beside the settlement, its money
posted on its own, audited, and counted against the dealer who confirmed it (docs/game_protection.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, transaction
from django.test import Client
from django.utils import timezone

from accounting.models import LedgerTransaction
from casino.audit.models import AuditRecord
from casino.errors import Conflict, Forbidden, InvalidInput
from tables.models import PayCorrection, Settlement
from tables.selectors import dealer_activity
from tables.services import rounds
from tables.services.pay_corrections import paid_nets, pay_correct
from tests.accounting.helpers import balances_by_code, ledger_is_balanced, play_round

# player 5 + 4 = 9 against banker K + 2 = 2: the player wins on naturals, nobody draws
PLAYER_WINS = ["5S", "KH", "4D", "2C"]


@pytest.fixture
def settled(floor):
    """A baccarat round the dealer settled: 100.00 on the player (won, +100.00), 50.00 on the banker (lost)."""
    return play_round(floor.table, floor.dealer, [(1, "player", 10_000), (2, "banker", 5_000)], PLAYER_WINS)


def _bets(settlement: Settlement) -> dict[int, str]:
    return {line.bet.seat: line.bet.client_id for line in settlement.lines.select_related("bet")}


def test_a_supervisor_corrects_the_pay_list_and_it_is_posted_audited_and_counted_against_the_dealer(floor, settled):
    # given the dealer's settled round, its pay list as confirmed
    bets = _bets(settled)
    assert paid_nets(settled) == {bets[1]: 10_000, bets[2]: -5_000}
    before = balances_by_code()
    # when a pit manager records that seat 1 was overpaid: it should have been 95.00
    correction = pay_correct(round_id=settled.round_id, actor=floor.manager,
                             lines=[{"bet": bets[1], "net": 9_500}, {"bet": bets[2], "net": -5_000}],
                             reason="paid 100.00 on a 95.00 win")
    # then only the bet that changed is recorded, against the dealer who confirmed the pay list
    assert (correction.confirmed_by, correction.corrected_by, correction.house_change) == (
        floor.dealer, floor.manager, 500)
    assert correction.lines == [{"bet": bets[1], "seat": 1, "type": "player", "was": 10_000, "net": 9_500}]
    assert paid_nets(settled) == {bets[1]: 9_500, bets[2]: -5_000}
    # and the settlement stays as confirmed; the money is a transaction of its own, balanced
    settled.refresh_from_db()
    assert settled.house_net == -5_000
    txn = LedgerTransaction.objects.get(source_type="pay_correction", source_id=str(correction.pk))
    after = balances_by_code()
    code = floor.table.code
    assert after[f"table:{code}:tray"] - before.get(f"table:{code}:tray", 0) == 500
    assert after[f"table:{code}:win"] - before.get(f"table:{code}:win", 0) == -500
    assert txn.posted_by == floor.manager
    assert ledger_is_balanced()[0] == []
    # and audited
    record = AuditRecord.objects.get(action="round.pay_correct")
    assert record.after["bets"] == {bets[1]: 9_500}
    assert record.after["confirmed_by"] == floor.dealer.pk
    # and the dealer's figures count one pay list corrected
    now = timezone.now()
    found = {a.dealer: a for a in dealer_activity([floor.table], since=now - dt.timedelta(days=1), until=now)[
        "baccarat"]}
    assert (found["dealer"].rounds, found["dealer"].pay_corrected) == (1, 1)
    # and a second correction of the same round is another row against the last figures, the round counted once
    pay_correct(round_id=settled.round_id, actor=floor.manager, lines=[{"bet": bets[1], "net": 10_000}],
                reason="the first correction was wrong: 100.00 was right")
    assert PayCorrection.objects.filter(round_id=settled.round_id).count() == 2
    assert PayCorrection.objects.order_by("-id").first().lines[0]["was"] == 9_500
    found = {a.dealer: a for a in dealer_activity([floor.table], since=now - dt.timedelta(days=1),
                                                  until=timezone.now())["baccarat"]}
    assert found["dealer"].pay_corrected == 1


@pytest.mark.parametrize(
    ("lines", "reason", "error", "code"),
    [
        ([], "why", InvalidInput, "lines_required"),
        ([{"bet": "nope", "net": 1}], "why", InvalidInput, "unknown_bet"),
        ([{"bet": "SEAT1", "net": 1.5}], "why", InvalidInput, "bad_net"),
        ([{"bet": "SEAT1", "net": True}], "why", InvalidInput, "bad_net"),
        ([{"bet": "SEAT1", "net": 10_000}], "why", InvalidInput, "nothing_changed"),
        ([{"bet": "SEAT1", "net": 1}, {"bet": "SEAT1", "net": 2}], "why", InvalidInput, "duplicate_bet"),
        ([{"bet": "SEAT1", "net": 1}], "   ", InvalidInput, "reason_required"),
    ],
)
def test_a_bad_correction_is_refused_in_words_and_nothing_is_written(floor, settled, lines, reason, error, code):
    # given the seat 1 bet's id in place of the placeholder
    bet = _bets(settled)[1]
    lines = [{**line, "bet": bet if line["bet"] == "SEAT1" else line["bet"]} for line in lines]
    txns = LedgerTransaction.objects.count()
    # when / then
    with pytest.raises(error) as refused:
        pay_correct(round_id=settled.round_id, actor=floor.manager, lines=lines, reason=reason)
    assert refused.value.code == code
    assert (PayCorrection.objects.count(), LedgerTransaction.objects.count()) == (0, txns)


def test_the_dealer_who_confirmed_it_and_a_dealer_may_not_correct_and_a_live_round_has_no_pay_list(floor, settled):
    bet = _bets(settled)[1]
    # the dealer at the table is no pit manager
    with pytest.raises(Forbidden):
        pay_correct(round_id=settled.round_id, actor=floor.dealer, lines=[{"bet": bet, "net": 1}], reason="x")
    # a pit manager who confirmed the pay list themselves may not correct it
    own = play_round(floor.table, floor.manager, [(1, "player", 10_000)], PLAYER_WINS)
    own_bet = _bets(own)[1]
    with pytest.raises(Forbidden) as refused:
        pay_correct(round_id=own.round_id, actor=floor.manager, lines=[{"bet": own_bet, "net": 1}], reason="x")
    assert refused.value.code == "same_person"
    # a round still being dealt has no pay list to correct
    live = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    with pytest.raises(Conflict) as refused:
        pay_correct(round_id=live.pk, actor=floor.manager, lines=[{"bet": bet, "net": 1}], reason="x")
    assert refused.value.code == "round_open"
    assert PayCorrection.objects.count() == 0


def test_a_correction_is_never_edited_nor_deleted(floor, settled):
    bet = _bets(settled)[1]
    correction = pay_correct(round_id=settled.round_id, actor=floor.manager, lines=[{"bet": bet, "net": 0}],
                             reason="a push, not a win")
    for change in (lambda: PayCorrection.objects.filter(pk=correction.pk).update(reason="edited"),
                   lambda: PayCorrection.objects.filter(pk=correction.pk).delete()):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()
    assert PayCorrection.objects.get(pk=correction.pk).reason == "a push, not a win"


def test_the_api_and_the_pit_round_page_record_a_correction(floor, settled, manager_api, dealer_api):
    bet = _bets(settled)[1]
    url = f"/api/rounds/{settled.round_id}/pay-correction/"
    # a dealer is refused, in words
    refused = dealer_api.post(url, {"lines": [{"bet": bet, "net": 0}], "reason": "push"}, format="json")
    assert refused.status_code == 403
    # a bad line is a 400 naming it
    bad = manager_api.post(url, {"lines": [{"bet": "x", "net": 0}], "reason": "push"}, format="json")
    assert bad.status_code == 400
    assert "no bet x on this round's pay list" in str(bad.json())
    # the pit manager records it through the API
    done = manager_api.post(url, {"lines": [{"bet": bet, "net": 0}], "reason": "push"}, format="json")
    assert done.status_code == 201
    assert (done.json()["house_change"], done.json()["confirmed_by"]) == (10_000, "dealer")
    # and on the pit's round page, in money as typed (a minus sign when collected)
    client = Client()
    client.force_login(floor.manager)
    page = client.get(f"/pit/rounds/{settled.round_id}/").content.decode()
    assert 'id="pay-correction-form"' in page
    assert "Seat 1: €100.00 on the pay list, €0.00 as corrected." in page
    form = {"reason": "the banker bet pushed", f"net-{_bets(settled)[2]}": "0", "form_key": "k1"}
    answer = client.post(f"/pit/rounds/{settled.round_id}/pay-correction/", form, follow=True)
    assert answer.status_code == 200
    assert PayCorrection.objects.count() == 2
    assert PayCorrection.objects.order_by("-id").first().lines[0]["was"] == -5_000
    typed_badly = client.post(f"/pit/rounds/{settled.round_id}/pay-correction/",
                              {"reason": "r", f"net-{bet}": "lots", "form_key": "k2"}, follow=True)
    assert typed_badly.status_code == 200
    assert PayCorrection.objects.count() == 2
