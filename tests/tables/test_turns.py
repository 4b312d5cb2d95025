"""Whose turn it is, through the API: a bet at a seat that may not act now is refused naming the rule
(Carousel's count bets in turn from the button, a pot game's seat to bet), and nothing is written."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditRecord
from tables.models import Bet, BetWithdrawal, Round
from tables.wording import say
from tests.factories import TableFactory, UserFactory, assign
from tests.fixtures import as_user
from tests.tables.helpers import counts, open_round


@pytest.fixture
def carousel(floor):
    table = TableFactory(code="CAR9", pit=floor.pit, game="carousel", config={"limit": 500, "button": 3}, seats=5)
    dealer = UserFactory(username="cardealer", roles=["dealer"])
    assign(dealer, table, floor.shift, floor.manager)
    return table, as_user(dealer)


def post(api, rnd, event):
    return api.post(f"/api/rounds/{rnd['id']}/events/", event, format="json")


def count_bet(seat, bet_id):
    return {"bet": {"id": bet_id, "seat": seat, "type": "count", "number": 4, "amount": 500}}


def test_a_carousel_bet_out_of_turn_is_refused_naming_the_button_and_nothing_is_written(carousel):
    # given a carousel round at a 5-seat table, button at seat 3, its foundations dealt
    table, api = carousel
    rnd = open_round(api, table)
    assert Round.objects.get(pk=rnd["id"]).config["seats"] == 5  # the service tells the engine the seats
    assert api.post(f"/api/rounds/{rnd['id']}/close-betting/").status_code == 200
    for card in "3 4 6 7 8 9".split():
        assert post(api, rnd, {"card": card}).status_code == 201
    shown = api.get(f"/api/rounds/{rnd['id']}/").json()
    assert (shown["table_now"]["button"], shown["table_now"]["turn"]) == (3, 3)
    seat5 = next(s for s in shown["table_now"]["seats"] if s["seat"] == 5)
    assert seat5 == {"seat": 5, "bets": [], "actions": [], "why": "Seat 3 bets first: the button is at seat 3",
                     "why_message": [{"id": "why_bets_first", "params": {"seat": 3, "button": 3}}]}
    assert shown["words"]["labels"]["Seat 3 bets first: the button is at seat 3"] == seat5["why"]
    before = counts()
    # when seat 5 bets before seat 3
    answer = post(api, rnd, count_bet(5, "x5"))
    # then it is refused, the rule named, and nothing is written
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert error["code"] == "out_of_turn"
    assert {k: error["params"][k] for k in ("seat", "turn", "button", "reason")} == {
        "seat": 5, "turn": 3, "button": 3, "reason": "turn_first"}
    assert counts() == before
    # and once seat 3 bets and seat 4 passes, seat 5's bet is taken
    assert post(api, rnd, count_bet(3, "x3")).status_code == 201
    assert post(api, rnd, {"seat": 4, "action": "pass"}).status_code == 201
    assert post(api, rnd, count_bet(5, "x5")).status_code == 201
    assert sorted(Bet.objects.filter(round_id=rnd["id"]).values_list("seat", flat=True)) == [3, 5]


# -- a bet placed during a betting round corrected before the next card --------------------------------


def test_a_bet_placed_between_stages_is_corrected_before_the_next_card_and_refused_after(carousel):
    # given a carousel round, the foundations dealt, seat 3 (the button) has bet on 4
    table, api = carousel
    rnd = open_round(api, table)
    api.post(f"/api/rounds/{rnd['id']}/close-betting/")
    for card in "3 4 6 7 8 9".split():
        post(api, rnd, {"card": card})
    assert post(api, rnd, count_bet(3, "x3")).status_code == 201
    # when the dealer corrects it to 5 (the screen's idempotency key sent twice)
    fix = {"bet": {"id": "x3b", "seat": 3, "type": "count", "number": 5, "amount": 500, "replaces": "x3"}}
    first = api.post(f"/api/rounds/{rnd['id']}/events/", fix, format="json", HTTP_IDEMPOTENCY_KEY="fix-x3")
    again = api.post(f"/api/rounds/{rnd['id']}/events/", fix, format="json", HTTP_IDEMPOTENCY_KEY="fix-x3")
    # then it plays as corrected, the first bet's row stays with its withdrawal, written once and audited
    assert first.status_code == 201, first.json()
    assert again.status_code == 201
    assert again.json() == first.json()
    placed = first.json()["state"]["next"]["betting"]["placed"]
    assert [(b["id"], b["number"]) for b in placed] == [("x3b", 5)]
    withdrawal = BetWithdrawal.objects.get(bet__client_id="x3", bet__round_id=rnd["id"])
    assert withdrawal.replaced_by.client_id == "x3b"
    assert Bet.objects.filter(round_id=rnd["id"]).count() == 2
    assert AuditRecord.objects.filter(action="bet.withdraw", object_id=str(withdrawal.bet_id)).count() == 1
    # when a card has been dealt since, a correction is refused in words, and nothing is written
    assert post(api, rnd, {"card": "10"}).status_code == 201
    before = counts()
    late = post(api, rnd, {"bet": {"id": "x3c", "seat": 3, "type": "count", "number": 2, "amount": 500,
                                   "replaces": "x3b"}})
    assert late.status_code == 400
    error = late.json()["error"]
    assert (error["code"], error["params"]["reason"]) == ("correction_too_late", "card_since")
    assert counts() == before
    assert say(error["code"], error["params"]) == (
        "Seat 3's bet cannot be corrected now: a card has been dealt since it was placed. Ask for a void to change it.")


def test_a_bet_placed_between_stages_is_withdrawn_before_the_next_card(carousel):
    table, api = carousel
    rnd = open_round(api, table)
    api.post(f"/api/rounds/{rnd['id']}/close-betting/")
    for card in "3 4 6 7 8 9".split():
        post(api, rnd, {"card": card})
    post(api, rnd, count_bet(3, "x3"))
    answer = post(api, rnd, {"withdraw": {"bet": "x3", "reason": "Entered by mistake"}})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["state"]["next"]["betting"]["placed"] == []
    assert answer.json()["state"]["next"]["betting"]["turn"] == 3  # seat 3 is to act again
    assert BetWithdrawal.objects.get(bet__client_id="x3").reason == "Entered by mistake"
    # an undo cannot take the withdrawal back: its record stays
    undo = api.post(f"/api/rounds/{rnd['id']}/events/undo/", {"approver_username": "pm", "approver_password": "pass"},
                    format="json")
    assert (undo.status_code, undo.json()["error"]["code"]) == (409, "cannot_undo_bet")
