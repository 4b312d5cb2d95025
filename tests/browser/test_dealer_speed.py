"""The dealer at speed (issue 30): pay as the game decides, hand over rather than net, refusals that say why.

Each test taps on the dealer's screen from sign-in, reads the round back from the API and compares what
the screen said with the engine's own facts; screenshots at both sizes; axe-core on the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounting.services.counts import denominations_for
from floor.selectors import layout_bets
from tables.models import Round
from tables.wording import say as words
from tests.browser.conftest import PHONE, TABLET, axe_violations
from tests.browser.dealer_steps import button, idle, say
from tests.browser.tap_round import Screen, tap_bet, tap_card
from tests.browser.test_dealer_games import table_for
from tests.fixtures import as_user

pytestmark = pytest.mark.browser
Json = dict[str, Any]


def shots(screens: Any, page: Any, name: str) -> None:
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        screens.shot(page, name)
    page.set_viewport_size(TABLET)


def deal(screen: Screen, cards: list[str]) -> None:
    for card in cards:
        tap_card(screen, card, "standard")
        idle(screen.page)


# faro: a soda, then turns; stuss: no soda, and a split takes the whole bet
FARO_TURNS = {
    "faro": {"soda": ["2S"], "split_take": "€5.00", "split": "take €5.00, the rest goes back to the player."},
    "stuss": {"soda": [], "split_take": "€10.00", "split": "take all €10.00."},
}


@pytest.mark.parametrize("game", ["faro", "stuss"])
def test_faro_and_stuss_say_after_each_turn_what_to_pay_and_take_seat_by_seat(screens, floor, game):
    # given the game's table, and three bets tapped in: seat 1 on the king, seat 2 on the five coppered,
    # seat 3 on the queen
    table, dealer = table_for(game, floor)
    page = screens.page(dealer.username)
    screen = Screen(page, screens, game, denominations_for(table))
    layout = [b for b in layout_bets(game) if b["before_deal"]]
    assert [b["type"] for b in layout] == ["rank"]  # faro's call of the turn is not offered before the deal
    button(page, "Open round").click()
    idle(page)
    for bet in ({"seat": 1, "type": "rank", "rank": "K", "amount": 2000},
                {"seat": 2, "type": "rank", "rank": "5", "coppered": True, "amount": 1000},
                {"seat": 3, "type": "rank", "rank": "Q", "amount": 1000}):
        tap_bet(screen, "place-bet-panel", layout, bet, "Place bet")
    # the bets list names each bet's rank
    expect(page.locator("#bets-list li")).to_contain_text(["Seat 1Rank · king€20.00", "Seat 2Rank · 5, coppered€10.00",
                                                         "Seat 3Rank · queen€10.00"])
    button(page, "No more bets").click()
    idle(page)

    # when the first turn is dealt: the five loses, the king wins
    deal(screen, [*FARO_TURNS[game]["soda"], "5H", "KD"])

    # then the screen says at once which bets the turn decided and what to pay and take, seat by seat
    decided = page.locator("#decided")
    expect(decided.locator("h2")).to_have_text("Turn 1: loser 5 of hearts, winner king of diamonds")
    expect(decided.locator("li")).to_have_text([
        "Seat 1 on the king wins €20.00: pay it now.",
        "Seat 2 on the 5 (coppered) wins €10.00: pay it now.",
    ])
    # and the casekeeper shows each rank's cards out and to come
    expect(page.locator("#casekeeper [data-rank='K']")).to_have_attribute("aria-label", "king: 1 out, 3 to come")
    expect(page.locator("#casekeeper [data-rank='5']")).to_have_attribute("aria-label", "5: 1 out, 3 to come")
    assert axe_violations(page) == []
    shots(screens, page, f"dealer-{game}-turn-decided")

    # when the next loser card comes, the last turn's instruction stays until the turn is complete
    deal(screen, ["QH"])
    expect(decided.locator("h2")).to_have_text("Turn 1: loser 5 of hearts, winner king of diamonds")
    # and a split takes the house's share of the bet on the queen
    deal(screen, ["QS"])
    expect(decided.locator("h2")).to_have_text("Turn 2: loser queen of hearts, winner queen of spades")
    expect(decided.locator("li")).to_have_text([
        f"Seat 3 on the queen split: {FARO_TURNS[game]['split']}",
    ])
    # a turn that decides nothing says so
    deal(screen, ["3C", "4D"])
    expect(decided).to_contain_text("No bet on these ranks: nothing to pay or take.")

    # and what the screen said is the engine's settlement of each bet, read back from the API
    rnd = Round.objects.get(table=table)
    state = as_user(dealer).get(f"/api/rounds/{rnd.pk}/").json()["state"]
    rows = {r["seat"]: (r["result"], r["net"], r["turn"]) for r in state["bets"]}
    split = int(FARO_TURNS[game]["split_take"].strip("€").replace(".", ""))
    assert rows == {1: ("win", 2000, 1), 2: ("win", 1000, 1), 3: ("split", -split, 2)}
    expect(say(page)).to_have_text("Turn 4: loser card")


def test_a_refusal_says_why_and_what_to_do_from_the_engines_reason(screens, floor):
    # given a blackjack table, a round open and no bet down
    table, dealer = table_for("blackjack", floor)
    page = screens.page(dealer.username)
    button(page, "Open round").click()
    idle(page)
    # when the dealer taps "No more bets" / then the screen says why and what to do, and nothing changes
    button(page, "No more bets").click()
    idle(page)
    expect(page.locator("#error")).to_have_text("No bet is down yet: place at least one bet, then tap “No more bets”.")
    assert Round.objects.get(table=table).status == "open"
    assert axe_violations(page) == []
    shots(screens, page, "dealer-refusal-no-bets")


def test_the_bank_seat_is_shown_and_a_bet_there_is_refused_naming_the_rule(screens, floor):
    # given a pontoon table whose bank is at seat 1
    table, dealer = table_for("pontoon", floor)
    page = screens.page(dealer.username)
    button(page, "Open round").click()
    idle(page)
    # then the screen shows who holds the bank, and marks the bank's seat as one that takes no bet
    expect(page.locator("#table-now")).to_have_text("Bank: seat 1")
    expect(page.locator("#place-bet-panel [data-seat='1']")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#place-bet-panel [data-seat='1']")).to_contain_text("Bank")
    # when the dealer taps the bank's seat / then the rule is named and nothing is sent
    button(page, "Seat 1").click(force=True)  # marked aria-disabled: a tap still reaches it, to say why
    expect(page.locator("#error")).to_have_text("Seat 1 holds the bank and cannot bet against it.")
    expect(button(page, "Seat 1")).to_have_attribute("aria-pressed", "false")
    # and the server refuses the same bet in the same words, should it come another way
    rnd = Round.objects.get(table=table)
    answer = as_user(dealer).post(f"/api/rounds/{rnd.pk}/bets/", {"seat": 1, "type": "bet", "amount": 500},
                                  format="json", HTTP_IDEMPOTENCY_KEY="bank-seat-1")
    assert answer.status_code == 400
    assert words(answer.json()["error"]["code"], answer.json()["error"].get("params")) == (
        "Seat 1 holds the bank and cannot bet against it: take the bet at another seat.")
    assert rnd.bets.count() == 0
    assert axe_violations(page) == []
    shots(screens, page, "dealer-pontoon-bank-seat")


def test_the_carousel_takes_count_bets_in_turn_from_the_button_and_refuses_a_seat_out_of_turn(screens, floor):
    # given a carousel table with the button at seat 3, the foundations dealt and betting round 1 open
    table, dealer = table_for("carousel", floor)
    table.config = {**table.config, "button": 3}
    table.save(update_fields=["config"])
    page = screens.page(dealer.username)
    screen = Screen(page, screens, "carousel", denominations_for(table))
    button(page, "Open round").click()
    idle(page)
    button(page, "No more bets").click()
    idle(page)
    for card in ["1", "2", "3", "4", "5", "6"]:
        tap_card(screen, card, "triangle")
        idle(page)
    # then the screen shows the button and whose turn it is, and offers the count bet to seat 3 alone
    expect(page.locator("#table-now")).to_have_text("Button: seat 3 · Seat 3 to act")
    seat5 = page.locator("#stage-bet-panel [data-seat='5']")
    expect(seat5).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#stage-bet-panel [data-seat='3']")).not_to_have_attribute("aria-disabled", "true")
    # when the dealer taps seat 5 / then the rule is named and nothing is sent
    seat5.click(force=True)  # marked aria-disabled: a tap still reaches it, to say why
    expect(page.locator("#error")).to_have_text("Seat 3 bets first: the button is at seat 3.")
    rnd = Round.objects.get(table=table)
    events = rnd.events.count()
    # and the server refuses the same bet in the same words, should it come another way, writing nothing
    answer = as_user(dealer).post(f"/api/rounds/{rnd.pk}/events/",
                                  {"bet": {"id": "late5", "seat": 5, "type": "count", "number": 4, "amount": 500}},
                                  format="json", HTTP_IDEMPOTENCY_KEY="carousel-turn-5")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words(error["code"], error.get("params")) == "Seat 3 bets first: the button is at seat 3."
    assert rnd.events.count() == events
    assert rnd.bets.count() == 0
    assert axe_violations(page) == []
    shots(screens, page, "dealer-carousel-turn")
    # when seat 3 bets and seat 4 passes, seat 5 is to act and its bet is taken
    stage = Round.objects.get(table=table).state["next"]["input"]["bets_open"]
    tap_bet(screen, "stage-bet-panel", stage, {"seat": 3, "type": "count", "number": 6, "amount": 500}, "Record bet")
    expect(page.locator("#table-now")).to_have_text("Button: seat 3 · Seat 4 to act")
    button(page, "Seat 4 passes").click()
    idle(page)
    expect(page.locator("#table-now")).to_have_text("Button: seat 3 · Seat 5 to act")
    page.locator("#stage-bet-panel [data-seat='1']").click(force=True)
    expect(page.locator("#error")).to_have_text(
        "Seat 5 bets next: bets go in seat order from the button at seat 3.")
    stage = Round.objects.get(table=table).state["next"]["input"]["bets_open"]
    tap_bet(screen, "stage-bet-panel", stage, {"seat": 5, "type": "count", "number": 5, "amount": 500}, "Record bet")
    rnd = Round.objects.get(table=table)
    assert [(e.payload.get("bet") or e.payload).get("seat") for e in rnd.events.order_by("seq")][6:] == [3, 4, 5]
    assert sorted(rnd.bets.values_list("seat", flat=True)) == [3, 5]
    assert axe_violations(page) == []
    shots(screens, page, "dealer-carousel-turn-passed")


def test_cards_are_keyed_rank_then_suit_and_the_same_card_again_takes_one_tap(screens, floor):
    # given the baccarat table (eight decks), a bet and betting closed
    page = screens.page("dealer")
    button(page, "Open round").click()
    idle(page)
    button(page, "Seat 1").click()
    button(page, "Add chip €25.00").click()
    button(page, "Place bet").click()
    idle(page)
    button(page, "No more bets").click()
    idle(page)
    expect(page.locator(".key-hint")).to_have_text(
        "Keyboard: rank (A 2–9, T or 0 for 10, J Q K), then suit (S H D C); Esc clears.")
    # when the dealer keys 9 then S, T then H on a keyboard, and the same card again by one tap
    page.keyboard.press("9")
    expect(page.locator("#card-preview")).to_have_text("9?")
    page.keyboard.press("s")
    idle(page)
    page.keyboard.press("0")
    page.keyboard.press("h")
    idle(page)
    expect(button(page, "Again: 10 of hearts")).to_be_visible()
    button(page, "Again: 10 of hearts").click()
    idle(page)
    # then the round holds those cards, in that order, and the engine asks for the next
    rnd = Round.objects.get(table=floor.table)
    events = as_user(floor.dealer).get(f"/api/rounds/{rnd.pk}/").json()["document"]["events"]
    assert [e["card"] for e in events] == ["9S", "TH", "TH"]
    expect(say(page)).to_have_text("Deal card 4 to the banker")
    assert axe_violations(page) == []
    shots(screens, page, "dealer-keyboard-entry")


@pytest.mark.parametrize("game", ["pai_gow_poker", "pusoy"])
def test_the_house_way_is_shown_as_hands_each_card_where_it_goes(screens, floor, game):
    # given a round of the game tapped in up to the first hand to set
    import random

    from tables.engines.registry import get_engine
    from tables.simulation.autoplay import play_round
    from tests.browser.tap_round import tap_event

    table, dealer = table_for(game, floor)
    engine = get_engine(game)
    config = engine.resolve_config(table.engine_config())
    doc = next(d for d in (play_round(engine, config, random.Random(s), seats=2) for s in range(20)) if d["bets"])
    page = screens.page(dealer.username)
    screen = Screen(page, screens, game, denominations_for(table))
    layout = layout_bets(game)
    button(page, "Open round").click()
    idle(page)
    for bet in doc["bets"]:
        tap_bet(screen, "place-bet-panel", [b for b in layout if b["before_deal"]], bet, "Place bet")
    button(page, "No more bets").click()
    idle(page)
    events = doc["events"]
    k = 0
    while True:
        step = engine.play(engine.load({**doc, "events": events[:k]})).to_json()["next"]["input"]
        if step["kind"] == "set_hand":
            break
        tap_event(screen, step, events[k], layout)
        k += 1

    # then the seat's house way is shown hand by hand before it is tapped
    for hand in step["hands"]:
        shown = page.locator(f".house-way-preview [data-hand='{hand['name']}'] .card-face")
        expect(shown).to_have_count(len(step["house_way"][hand["name"]]))
    expect(page.locator(".house-way-preview").first).to_contain_text(f"House way, {step['hands'][0]['name']}")
    assert axe_violations(page) == []
    shots(screens, page, f"dealer-{game}-house-way-preview")

    # and once the round is complete, the dealer's cards stand in the house way's hands, each card in its hand
    for j in range(k, len(events)):
        step = engine.play(engine.load({**doc, "events": events[:j]})).to_json()["next"]["input"]
        tap_event(screen, step, events[j], layout)
    expect(page.locator("#confirm-settle")).to_be_visible()
    state = engine.play(engine.load(doc)).to_json()
    dealer_hand = state["hands"]["dealer"]
    for part in ("back", "middle", "front"):
        if part not in dealer_hand:
            continue
        row = page.locator(f"#hands [data-hand='dealer:{part}']")
        expect(row.locator(".card-face")).to_have_count(len(dealer_hand[part]))
        expect(row.locator(".hand-desc")).to_have_text(dealer_hand[f"{part}_hand"])
    shots(screens, page, f"dealer-{game}-house-way-hands")


def test_a_bet_placed_this_betting_round_is_corrected_before_the_next_card_and_not_after(screens, floor):
    # given a carousel round with the foundations dealt and seat 1 (the button) bet on 6 hands surviving
    table, dealer = table_for("carousel", floor)
    page = screens.page(dealer.username)
    screen = Screen(page, screens, "carousel", denominations_for(table))
    button(page, "Open round").click()
    idle(page)
    button(page, "No more bets").click()
    idle(page)
    for card in ["1", "2", "3", "4", "5", "6"]:
        tap_card(screen, card, "triangle")
        idle(page)
    stage = Round.objects.get(table=table).state["next"]["input"]["bets_open"]
    tap_bet(screen, "stage-bet-panel", stage, {"seat": 1, "type": "count", "number": 6, "amount": 500}, "Record bet")
    first = Round.objects.get(table=table).bets.get()
    # when the dealer taps "Correct" on it, picks 5 and saves
    page.locator(f"#bets-list [data-bet='{first.client_id}'] button", has_text="Correct").click()
    expect(page.locator("#stage-bet-panel")).to_contain_text("Save correction")
    assert axe_violations(page) == []
    shots(screens, page, "dealer-carousel-correct-bet")
    button(page, "Hands to survive: 5").click()
    button(page, "Save correction").click()
    idle(page)
    # then the bet plays as corrected: the list shows it, the first bet's row stays with its withdrawal
    rnd = Round.objects.get(table=table)
    live = [b for b in rnd.bets.all() if not hasattr(b, "withdrawal")]
    assert [(b.seat, b.extra.get("number")) for b in live] == [(1, 5)]
    first.refresh_from_db()
    assert first.withdrawal.replaced_by == live[0]
    expect(page.locator(f"#bets-list [data-bet='{live[0].client_id}']")).to_contain_text("number 5")
    expect(page.locator(f"#bets-list [data-bet='{first.client_id}']")).to_have_count(0)
    # when a card follows / then the bet can no longer be corrected on the screen, nor through the API
    tap_card(screen, "7", "triangle")  # the deal round's first card closes the betting round
    idle(page)
    expect(page.locator(f"#bets-list [data-bet='{live[0].client_id}'] button")).to_have_count(0)
    answer = as_user(dealer).post(
        f"/api/rounds/{rnd.pk}/events/",
        {"bet": {"id": "late", "seat": 1, "type": "count", "number": 2, "amount": 500, "replaces": live[0].client_id}},
        format="json", HTTP_IDEMPOTENCY_KEY="late-correction")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words(error["code"], error.get("params")) == (
        "Seat 1's bet cannot be corrected now: a card has been dealt since it was placed. Ask for a void to change it.")
    assert rnd.bets.count() == 2
    assert axe_violations(page) == []
    shots(screens, page, "dealer-carousel-correct-too-late")
