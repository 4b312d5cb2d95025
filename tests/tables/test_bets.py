"""Bets while betting is open: checked at placement as close-betting checks them; taken back or corrected
as a written-once withdrawal, never an edit."""

from __future__ import annotations

import pytest

from accounting.models import Entry
from accounting.services.reconcile import ShiftRecords, _compare_round
from casino.audit.models import AuditRecord
from tables.models import Bet, BetWithdrawal, Round, Settlement
from tables.selectors import round_table_now
from tests.factories import TableFactory, UserFactory, assign
from tests.tables.helpers import BANKER_WIN, counts, open_round


def bet(client, rnd: dict, **body):
    return client.post(f"/api/rounds/{rnd['id']}/bets/", body, format="json")


def withdraw(client, rnd: dict, **body):
    return client.post(f"/api/rounds/{rnd['id']}/bets/withdraw/", body, format="json")


@pytest.fixture
def pontoon(floor):
    table = TableFactory(code="PON1", pit=floor.pit, game="pontoon", config={"banker_seat": 1}, min_bet=500,
                         max_bet=10_000, seats=7)
    dealer = UserFactory(username="pondealer", roles=["dealer"])
    assign(dealer, table, floor.shift, floor.manager)
    from tests.fixtures import as_user

    return table, as_user(dealer)


# -- checked at placement ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "params"),
    [
        ({"seat": 1, "type": "banker", "amount": 100}, "under_table_min", None),
        ({"seat": 1, "type": "banker", "amount": 10**9}, "over_table_max", None),
        ({"seat": 1, "type": "dragon", "amount": 1000}, "bad_bet_type", None),
        ({"seat": 9, "type": "banker", "amount": 1000}, "bad_seat", {"seat": 9, "seats": 7}),
    ],
)
def test_a_wrong_bet_is_refused_at_placement_and_nothing_is_written(floor, dealer_api, body, code, params):
    # given an open round
    rnd = open_round(dealer_api, floor.table)
    before = counts()
    # when the dealer places a bet the table does not take
    answer = bet(dealer_api, rnd, **body)
    # then it is refused at once, saying why, and nothing is written
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert error["code"] == code
    if params is not None:
        assert error["params"] == params
    assert counts() == before
    assert Round.objects.get(pk=rnd["id"]).document == {"bets": [], "events": []}


def test_a_pair_bet_at_a_table_without_pair_bets_is_refused_at_placement(floor, dealer_api):
    floor.table.config = {"pair_bets": False}
    floor.table.save(update_fields=["config"])
    rnd = open_round(dealer_api, floor.table)
    before = counts()
    answer = bet(dealer_api, rnd, seat=1, type="player_pair", amount=1000)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_bet_type"
    assert counts() == before


def test_a_pontoon_bet_at_the_banks_seat_is_refused_at_placement_not_at_close(floor, pontoon):
    # given a pontoon table whose bank is at seat 1 (the engine's load alone takes such a bet)
    table, api = pontoon
    rnd = open_round(api, table)
    before = counts()
    # when a bet is placed at the bank's seat
    answer = bet(api, rnd, seat=1, type="bet", amount=1000)
    # then it is refused now with the engine's reason, not later at close-betting
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"]["code"] == "bad_bet"
    assert "holds the bank" in answer.json()["error"]["message"]
    assert counts() == before
    # and a bet at another seat goes down
    assert bet(api, rnd, seat=2, type="bet", amount=1000).status_code == 201


def test_an_incomplete_set_of_bets_still_takes_bets_one_by_one(floor):
    # given a chemin de fer table: a coup needs the bank and a punto, taken in either order
    table = TableFactory(code="CDF1", pit=floor.pit, game="chemin_de_fer", min_bet=500, max_bet=100_000, seats=9)
    from tests.fixtures import as_user

    api = as_user(floor.manager)
    rnd = open_round(api, table)
    # when the punto comes first, then the bank
    assert bet(api, rnd, seat=2, type="punto", amount=2000).status_code == 201
    assert bet(api, rnd, seat=1, type="bank", amount=2000).status_code == 201
    # then a second punto that over-covers the bank is refused at once
    over = bet(api, rnd, seat=3, type="punto", amount=1000)
    assert over.status_code == 400, over.json()
    assert Bet.objects.filter(round_id=rnd["id"]).count() == 2


def test_the_table_now_says_who_holds_the_bank_and_what_each_seat_may_bet(floor, pontoon):
    # given a pontoon round open for bets, the bank at seat 1 and a bet at seat 2
    table, api = pontoon
    rnd = open_round(api, table)
    assert bet(api, rnd, seat=2, type="bet", amount=1000).status_code == 201
    # when the engine is asked what the table waits for
    now = round_table_now(Round.objects.get(pk=rnd["id"]))
    # then the bank is at seat 1, which may not bet; the other seats may
    assert (now.bank, now.due) == (1, "bets")
    assert now.seat(1).why == "Seat 1 holds the bank and cannot bet against it"
    assert now.seat(3).bets == ("bet",)
    assert now.as_dict(3)["seats"][1] == {"seat": 2, "bets": ["bet"], "actions": [], "why": None}


# -- taken back or corrected ---------------------------------------------------------------------


def test_a_bet_taken_back_before_close_drops_out_of_the_round_and_is_audited(floor, dealer_api):
    # given three bets
    rnd = open_round(dealer_api, floor.table)
    for seat, kind, amount in [(1, "banker", 2500), (2, "player", 1000), (3, "tie", 500)]:
        assert bet(dealer_api, rnd, seat=seat, type=kind, amount=amount).status_code == 201
    # when the player at seat 2 takes their bet back
    answer = withdraw(dealer_api, rnd, bet="b2", reason="The player took the bet back")
    # then the round plays without it; its row stays, beside a withdrawal row
    assert answer.status_code == 200, answer.json()
    assert [b["id"] for b in answer.json()["document"]["bets"]] == ["b1", "b3"]
    assert Bet.objects.filter(round_id=rnd["id"]).count() == 3
    withdrawal = BetWithdrawal.objects.get()
    assert (withdrawal.bet.client_id, withdrawal.reason, withdrawal.withdrawn_by, withdrawal.replaced_by) == (
        "b2", "The player took the bet back", floor.dealer, None)
    record = AuditRecord.objects.get(action="bet.withdraw")
    assert record.object_id == str(withdrawal.bet.pk)
    assert record.before == {"round": rnd["id"], "id": "b2", "seat": 2, "type": "player", "amount": 1000}
    assert record.after == {"withdrawn": True, "reason": "The player took the bet back", "replaced_by": None}

    # and the settlement, the ledger and reconciliation's replay of the rows agree without it
    url = f"/api/rounds/{rnd['id']}"
    dealer_api.post(f"{url}/close-betting/")
    for card in BANKER_WIN:
        assert dealer_api.post(f"{url}/events/", {"card": card}, format="json").status_code == 201
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    settlement = Settlement.objects.get(round_id=rnd["id"])
    assert sorted(line.bet.client_id for line in settlement.lines.all()) == ["b1", "b3"]
    assert (settlement.handle, settlement.house_net) == (3000, -2375 + 500)
    assert sum(Entry.objects.filter(transaction__source_id=str(rnd["id"])).values_list("amount", flat=True)) == 0
    settled = Round.objects.get(pk=rnd["id"])
    assert _compare_round(settled, ShiftRecords.load(settled.shift)) == []


def test_a_bet_corrected_before_close_is_replaced_in_one_step(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    assert bet(dealer_api, rnd, seat=1, type="banker", amount=2500).status_code == 201
    # when the dealer corrects it: it was the player at seat 4, for 50.00
    answer = withdraw(dealer_api, rnd, bet="b1", reason="Corrected",
                      replacement={"seat": 4, "type": "player", "amount": 5000})
    # then the round has the corrected bet only; the withdrawal names it
    assert answer.status_code == 200, answer.json()
    assert answer.json()["document"]["bets"] == [{"id": "b2", "seat": 4, "type": "player", "amount": 5000}]
    withdrawal = BetWithdrawal.objects.get()
    assert withdrawal.replaced_by.client_id == "b2"
    assert AuditRecord.objects.get(action="bet.withdraw").after["replaced_by"] == {
        "id": "b2", "seat": 4, "type": "player", "amount": 5000}
    assert list(AuditRecord.objects.filter(chain="table:BAC1").values_list("action", flat=True)) == [
        "round.open", "bet.place", "bet.place", "bet.withdraw"]


def test_a_correction_the_table_refuses_leaves_the_bet_as_it_was(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    bet(dealer_api, rnd, seat=1, type="banker", amount=2500)
    before = counts()
    answer = withdraw(dealer_api, rnd, bet="b1", reason="Corrected",
                      replacement={"seat": 1, "type": "banker", "amount": 10**9})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "over_table_max"
    assert counts() == before
    assert BetWithdrawal.objects.count() == 0
    assert Round.objects.get(pk=rnd["id"]).document["bets"] == [
        {"id": "b1", "seat": 1, "type": "banker", "amount": 2500}]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"bet": "b9", "reason": "mistake"}, 404, "no_such_bet"),
        ({"bet": "b1", "reason": "   "}, 400, "invalid"),
        ({"bet": "b1"}, 400, "invalid"),
    ],
)
def test_taking_back_a_bet_that_is_not_there_or_without_a_reason_is_refused(floor, dealer_api, body, status, code):
    rnd = open_round(dealer_api, floor.table)
    bet(dealer_api, rnd, seat=1, type="banker", amount=2500)
    before = counts()
    answer = withdraw(dealer_api, rnd, **body)
    assert answer.status_code == status, answer.json()
    assert answer.json()["error"]["code"] == code
    assert counts() == before


def test_a_bet_is_taken_back_once_and_not_after_betting_closes(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    bet(dealer_api, rnd, seat=1, type="banker", amount=2500)
    bet(dealer_api, rnd, seat=2, type="player", amount=2500)
    assert withdraw(dealer_api, rnd, bet="b1", reason="mistake").status_code == 200
    before = counts()
    again = withdraw(dealer_api, rnd, bet="b1", reason="mistake")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "bet_withdrawn")
    dealer_api.post(f"/api/rounds/{rnd['id']}/close-betting/")
    before = counts()
    late = withdraw(dealer_api, rnd, bet="b2", reason="mistake")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "betting_closed")
    assert counts() == before


def test_only_the_tables_dealer_or_its_pit_manager_takes_a_bet_back(floor, dealer_api):
    from tests.fixtures import as_user

    rnd = open_round(dealer_api, floor.table)
    bet(dealer_api, rnd, seat=1, type="banker", amount=2500)
    before = counts()
    for user in (floor.other_dealer, floor.other_manager, floor.accountant):
        answer = withdraw(as_user(user), rnd, bet="b1", reason="mistake")
        assert answer.status_code == 403, (user.username, answer.json())
    assert counts() == before
    assert withdraw(as_user(floor.manager), rnd, bet="b1", reason="mistake").status_code == 200
