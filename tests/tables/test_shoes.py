"""The shoe as a sequence: a new shoe marked with one tap between rounds, the rounds after it name it, and a
card the shoe can no longer hold is refused in words with nothing written."""

from __future__ import annotations

from casino.audit.models import AuditRecord
from tables.models import Round, Shoe, Table
from tests.fixtures import as_user
from tests.tables.helpers import BANKER_WIN, counts, open_round

BET = {"seat": 1, "type": "banker", "amount": 2500}


def _deal(client, table, cards) -> str:
    rnd = open_round(client, table)
    url = f"/api/rounds/{rnd['id']}"
    assert client.post(f"{url}/bets/", BET, format="json").status_code == 201
    assert client.post(f"{url}/close-betting/").status_code == 200
    for card in cards:
        answer = client.post(f"{url}/events/", {"card": card}, format="json")
        assert answer.status_code == 201, answer.json()
    return url


def test_the_dealer_marks_a_new_shoe_and_the_rounds_after_it_name_it(floor, dealer_api):
    # given a round dealt before any shoe was marked
    _deal(dealer_api, floor.table, BANKER_WIN)
    # when the dealer marks a new shoe with one tap (and again for the next)
    first = dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {}, format="json")
    # then the settle is due first: a shoe changes between rounds
    assert first.status_code == 409, first.json()
    assert first.json()["error"]["code"] == "round_in_progress"
    assert dealer_api.post(f"{_settle_url(floor)}/settle/").status_code == 200
    first = dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {"cut_card": 350}, format="json")
    assert first.status_code == 201, first.json()
    assert first.json() | {"id": 0, "opened_at": ""} == {"id": 0, "table": "BAC1", "number": 1, "decks": 8,
                                                         "cut_card": 350, "burn": 1, "opened_at": ""}
    url = _deal(dealer_api, floor.table, BANKER_WIN)
    # then the round names its shoe, the earlier one none
    shoe = Shoe.objects.get(table=floor.table)
    assert list(Round.objects.filter(table=floor.table).order_by("number").values_list("shoe", flat=True)) == [
        None, shoe.pk]
    record = AuditRecord.objects.filter(action="shoe.open").get()
    assert (record.actor_username, record.after) == ("dealer", {"number": 1, "decks": 8, "cut_card": 350, "burn": 1})
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    second = dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {}, format="json")
    assert second.json()["number"] == 2


def _settle_url(floor) -> str:
    return f"/api/rounds/{Round.objects.get(table=floor.table, status='dealing').pk}"


def test_a_card_the_shoe_no_longer_holds_is_refused_and_nothing_is_written(floor, dealer_api):
    # given a one-deck shoe whose first round dealt the nine of spades
    Table.objects.filter(pk=floor.table.pk).update(config={"decks": 1})
    assert dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {}, format="json").status_code == 201
    url = _deal(dealer_api, floor.table, BANKER_WIN)
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    url = _deal(dealer_api, floor.table, [])
    before = counts()
    # when the dealer enters the nine of spades again (as 9s)
    answer = dealer_api.post(f"{url}/events/", {"card": "9s"}, format="json")
    # then it is refused in words, naming the card and the shoe, and nothing is written
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("card_not_in_shoe", "card")
    assert "9S" in error["message"]
    assert "shoe 1" in error["message"]
    assert counts() == before
    # and another card is taken; a new shoe takes the nine of spades again
    assert dealer_api.post(f"{url}/events/", {"card": "9H"}, format="json").status_code == 201


def test_a_voided_rounds_cards_do_not_count_and_a_new_shoe_starts_afresh(floor, dealer_api):
    Table.objects.filter(pk=floor.table.pk).update(config={"decks": 1})
    assert dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {}, format="json").status_code == 201
    url = _deal(dealer_api, floor.table, BANKER_WIN)
    assert dealer_api.post(f"{url}/settle/").status_code == 200
    assert dealer_api.post(f"/api/tables/{floor.table.pk}/shoes/", {}, format="json").status_code == 201
    _deal(dealer_api, floor.table, BANKER_WIN)  # the same cards, from the new shoe


def test_who_may_mark_a_shoe_and_what_is_refused(floor, dealer_api, manager_api, api):
    path = f"/api/tables/{floor.table.pk}/shoes/"
    before = counts()
    # another table's dealer, an accountant, nobody signed in: refused
    assert as_user(floor.other_dealer).post(path, {}, format="json").status_code == 403
    assert as_user(floor.accountant).post(path, {}, format="json").status_code == 403
    assert api.post(path, {}, format="json").status_code in (401, 403)
    # a cut card outside the shoe, a burn that is not a number, a table that is not there: 400 and 404
    bad = manager_api.post(path, {"cut_card": 9999}, format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "bad_cut_card"
    assert manager_api.post(path, {"burn": "two"}, format="json").status_code == 400
    assert manager_api.post("/api/tables/999999/shoes/", {}, format="json").status_code == 404
    assert Shoe.objects.count() == 0
    assert counts()["AuditRecord"] == before["AuditRecord"]
    # the pit manager may
    assert manager_api.post(path, {"burn": 0}, format="json").status_code == 201
