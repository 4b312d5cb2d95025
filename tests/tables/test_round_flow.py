"""A baccarat round end to end through the REST API, as the dealer plays it."""

from __future__ import annotations

from rest_framework import serializers as drf

from accounting.models import Entry, LedgerTransaction
from casino.audit.models import AuditRecord
from tables.models import Bet, Round, Settlement, SettlementLine
from tables.serializers import RoundSerializer
from tests.tables.helpers import BANKER_WIN


def open_round(client, table) -> dict:
    response = client.post("/api/rounds/", {"table": table.pk}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_full_baccarat_round_as_dealer(floor, dealer_api):
    # given an open round with a banker, a player and a tie bet
    rnd = open_round(dealer_api, floor.table)
    assert rnd["state"]["next"]["expect"] == "bets"
    url = f"/api/rounds/{rnd['id']}"
    for bet in ({"seat": 1, "type": "banker", "amount": 2500}, {"seat": 2, "type": "player", "amount": 1000},
                {"seat": 3, "type": "tie", "amount": 500}):
        assert dealer_api.post(f"{url}/bets/", bet, format="json").status_code == 201
    closed = dealer_api.post(f"{url}/close-betting/", format="json").json()
    assert closed["state"]["next"] == {"expect": "card", "to": "player", "say": "Deal card 1 to the player",
                                       "message": [{"id": "deal_player_card", "params": {"n": 1}}],
                                       "input": {"kind": "card", "to": "player", "deck": "standard"}}

    # when the dealer posts the cards one at a time: P 9S 5D, B KH 3C; player draws 2H, banker draws 4S
    nexts = []
    for card in ["9S", "KH", "5D", "3C", "2H", "4S"]:
        answer = dealer_api.post(f"{url}/events/", {"card": card}, format="json")
        assert answer.status_code == 201, answer.json()
        nexts.append(answer.json()["state"]["next"])
    settled = dealer_api.post(f"{url}/settle/", format="json")

    # then the engine guided every card and the settlement matches the hand computation
    assert [n and n["to"] for n in nexts] == ["banker", "player", "banker", "player", "banker", None]
    assert nexts[3]["say"] == "Player draws on 4"
    assert settled.status_code == 200, settled.json()
    state = settled.json()["state"]
    assert state["outcome"]["winner"] == "banker"  # player 9+5+2 = 6, banker 0+3+4 = 7
    by_id = {b["id"]: b for b in state["bets"]}
    assert (by_id["b1"]["net"], by_id["b1"]["commission"]) == (2375, 125)  # 2500 less 5 % = 125
    assert by_id["b2"]["net"] == -1000
    assert by_id["b3"]["net"] == -500
    assert state["house"] == {"net": -2375 + 1000 + 500, "commission": 125, "rake": 0}

    settlement = Settlement.objects.get(round_id=rnd["id"])
    assert (settlement.house_net, settlement.commission, settlement.handle) == (-875, 125, 4000)
    lines = {line.bet.client_id: (line.result, line.net, line.commission) for line in SettlementLine.objects.all()}
    assert lines == {"b1": ("win", 2375, 125), "b2": ("lose", -1000, 0), "b3": ("lose", -500, 0)}
    assert Round.objects.get(pk=rnd["id"]).status == "settled"
    # the ledger: tray −875 against win −1000 (credit +1000 loss) … balanced, once per round
    txn = LedgerTransaction.objects.get(source_type="round", source_id=str(rnd["id"]))
    entries = {e.account.code: e.amount for e in Entry.objects.filter(transaction=txn)}
    assert entries == {"table:BAC1:tray": -875, "table:BAC1:win": 1000, "table:BAC1:commission": -125}
    assert sum(entries.values()) == 0
    actions = list(AuditRecord.objects.filter(chain="table:BAC1").values_list("action", flat=True))
    assert actions == ["round.open", "bet.place", "bet.place", "bet.place", "round.close_betting"] + \
        ["event.post"] * 6 + ["round.settle"]


def test_settling_twice_is_409_and_writes_nothing(floor, dealer_api):
    # given a settled round
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    dealer_api.post(f"{url}/bets/", {"seat": 1, "type": "player", "amount": 1000}, format="json")
    dealer_api.post(f"{url}/close-betting/")
    for card in ["9S", "KH", "5D", "3C", "2H", "4S"]:
        dealer_api.post(f"{url}/events/", {"card": card}, format="json")
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    audits = AuditRecord.objects.count()
    # when it is settled again (a new request, no idempotency key)
    again = dealer_api.post(f"{url}/settle/")
    # then
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_settled"
    assert Settlement.objects.count() == 1
    assert LedgerTransaction.objects.count() == 1
    assert AuditRecord.objects.count() == audits


def test_settling_an_incomplete_round_says_what_is_missing(floor, dealer_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    dealer_api.post(f"{url}/close-betting/")
    dealer_api.post(f"{url}/events/", {"card": "9S"}, format="json")
    response = dealer_api.post(f"{url}/settle/")
    assert response.status_code == 409
    assert response.json()["error"] == {"code": "round_incomplete",
                                        "message": "the round is not complete: Deal card 2 to the banker",
                                        "request_id": response["X-Request-ID"]}
    assert Bet.objects.count() == 0
    assert Settlement.objects.count() == 0


def test_the_round_answer_written_out_is_what_drf_would_answer(floor, dealer_api):
    # given rounds in every state a dealer sees: open, dealing, settled
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    seen = [dealer_api.post(f"{url}/bets/", {"seat": 1, "type": "banker", "amount": 2500}, format="json").json()]
    seen.append(dealer_api.post(f"{url}/close-betting/").json())
    seen += [dealer_api.post(f"{url}/events/", {"card": c}, format="json").json() for c in BANKER_WIN]
    seen.append(dealer_api.post(f"{url}/settle/").json())
    # when each is read back, the written-out answer and DRF's field-by-field answer agree
    answer = RoundSerializer(Round.objects.select_related("table", "dealer").get(pk=rnd["id"]))
    generic = drf.ModelSerializer.to_representation(answer, answer.instance)
    assert answer.data == generic
    assert seen[-1] == generic  # the settle answer came from the service's instance, not a re-read
    assert [a["status"] for a in seen] == ["open", "betting_closed"] + ["dealing"] * len(BANKER_WIN) + ["settled"]
