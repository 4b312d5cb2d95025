"""Every bad request: a 4xx naming the problem, and nothing written."""

from __future__ import annotations

import json

import pytest

from tests.tables.helpers import counts, open_round


@pytest.fixture
def live(floor, dealer_api):
    """An open round at the dealer's table with one bet."""
    rnd = open_round(dealer_api, floor.table)
    dealer_api.post(f"/api/rounds/{rnd['id']}/bets/", {"seat": 1, "type": "player", "amount": 1000}, format="json")
    return f"/api/rounds/{rnd['id']}"


def refused(client, url, body, *, status, code=None, field=None, event=None, **extra):
    before = counts()
    response = client.post(url, body, **({"format": "json"} if not extra else extra))
    assert response.status_code == status, response.content
    error = response.json()["error"]
    if code is not None:
        assert error["code"] == code, error
    if field is not None:
        assert error.get("field") == field, error
    if event is not None:
        assert error.get("event") == event, error
    assert error["message"]
    assert counts() == before, "a refused request wrote something"
    return error


def test_unknown_table(floor, dealer_api):
    refused(dealer_api, "/api/rounds/", {"table": 999_999}, status=404, code="unknown_table", field="table")


def test_unknown_round(floor, dealer_api):
    refused(dealer_api, "/api/rounds/999999/bets/", {"seat": 1, "type": "player", "amount": 1000}, status=404)


def test_bet_over_the_table_maximum(live, dealer_api):
    error = refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "player", "amount": 500_001}, status=400,
                    code="over_table_max", field="amount")
    assert error["message"] == "€5,000.01 is over the table maximum of €5,000.00."  # the dealer's words, in money


def test_bet_under_the_table_minimum(live, dealer_api):
    refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "player", "amount": 499}, status=400,
            code="under_table_min", field="amount")


@pytest.mark.parametrize("amount", [-100, 0, 12.5, "1000", True, None, 10**13])
def test_negative_fractional_or_non_integer_amounts(live, dealer_api, amount):
    refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "player", "amount": amount}, status=400,
            field="amount")


def test_unknown_bet_type_and_seat(live, dealer_api):
    refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "dragon", "amount": 1000}, status=400,
            code="bad_bet_type", field="type")
    refused(dealer_api, f"{live}/bets/", {"seat": 8, "type": "player", "amount": 1000}, status=400,
            code="bad_seat", field="seat")
    refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "player", "amount": 1000, "colour": "red"},
            status=400, code="bad_bet", field="colour")


def test_bet_after_betting_closed(live, dealer_api):
    dealer_api.post(f"{live}/close-betting/")
    refused(dealer_api, f"{live}/bets/", {"seat": 2, "type": "player", "amount": 1000}, status=409,
            code="betting_closed")


def test_card_before_betting_closed(live, dealer_api):
    refused(dealer_api, f"{live}/events/", {"card": "AS"}, status=409, code="betting_open")


@pytest.mark.parametrize("card", ["ZZ", "1S", "AX", "JK", 7, "", "A"])
def test_malformed_card(live, dealer_api, card):
    dealer_api.post(f"{live}/close-betting/")
    refused(dealer_api, f"{live}/events/", {"card": card}, status=400, code="bad_card", event=0)


def test_card_the_shoe_cannot_hold(floor, dealer_api):
    # given a single-deck table: a second king of spades cannot exist
    floor.table.config = {"decks": 1}
    floor.table.save()
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    dealer_api.post(f"{url}/close-betting/")
    assert dealer_api.post(f"{url}/events/", {"card": "KS"}, format="json").status_code == 201
    refused(dealer_api, f"{url}/events/", {"card": "ks"}, status=400, code="card_exhausted", event=1)


def test_card_out_of_turn(live, dealer_api):
    dealer_api.post(f"{live}/close-betting/")
    refused(dealer_api, f"{live}/events/", {"card": "AS", "to": "banker"}, status=400, code="out_of_turn", event=0)
    refused(dealer_api, f"{live}/events/", {"seat": 1, "action": "hit"}, status=400, code="out_of_turn", event=0)


def test_cards_after_the_coup_is_complete(live, dealer_api):
    dealer_api.post(f"{live}/close-betting/")
    for card in ["9S", "8H", "KD", "KC"]:  # naturals: player 9, banker 8
        dealer_api.post(f"{live}/events/", {"card": card}, format="json")
    refused(dealer_api, f"{live}/events/", {"card": "2S"}, status=400, code="out_of_turn", event=4)


def test_malformed_json(live, dealer_api):
    error = refused(dealer_api, f"{live}/bets/", '{"seat": 1, "type": ', status=400, code="malformed_json",
                    content_type="application/json")
    assert "JSON" in error["message"]


def test_wrong_content_type(live, dealer_api):
    refused(dealer_api, f"{live}/bets/", "seat=1&type=player&amount=1000", status=415,
            content_type="application/x-www-form-urlencoded")


def test_huge_body(live, dealer_api):
    body = json.dumps({"seat": 1, "type": "player", "amount": 1000, "pad": "x" * 400_000})
    refused(dealer_api, f"{live}/bets/", body, status=413, code="body_too_large", content_type="application/json")


@pytest.mark.parametrize("body", ["[]", "null", "42", '"card"', "{}"])
def test_event_must_be_a_json_object(live, dealer_api, body):
    dealer_api.post(f"{live}/close-betting/")
    refused(dealer_api, f"{live}/events/", body, status=400, content_type="application/json")


def test_dealer_acting_on_another_table(floor, dealer_api):
    # the dealer of BAC1 tries to open a round at BAC2
    refused(dealer_api, "/api/rounds/", {"table": floor.other_table.pk}, status=403, code="not_assigned")


def test_dealer_acting_on_another_tables_round(floor, dealer_api):
    from tests.fixtures import as_user

    other = open_round(as_user(floor.other_dealer), floor.other_table)
    refused(dealer_api, f"/api/rounds/{other['id']}/bets/", {"seat": 1, "type": "player", "amount": 1000},
            status=403)
