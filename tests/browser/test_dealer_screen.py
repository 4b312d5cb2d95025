"""The dealer's screen in a real browser: tap a whole round, refused cards, lost requests, undo."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from playwright.sync_api import expect

from accounting.models import LedgerTransaction
from casino.audit.models import AuditRecord
from casino.core.models import IdempotencyRecord, StaffProfile
from casino.core.roles import Role
from tables.models import Bet, Round, RoundEvent, Settlement
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout, axe_violations
from tests.browser.dealer_steps import (
    DEALER_LAYOUT,
    button,
    close_betting,
    idle,
    open_round,
    pay_rows,
    place_bet,
    say,
    tap_card,
)
from tests.factories import TableFactory, UserFactory, assign

pytestmark = pytest.mark.browser
REFUSED_NINE = "Every 9 of spades the shoe holds is already out: check the card."


def check_both_sizes(screens, page, name: str) -> None:
    """Screenshot and layout check at the tablet's size and at a phone's, back to the tablet."""
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, DEALER_LAYOUT)
        screens.shot(page, name)
    page.set_viewport_size(TABLET)


def test_dealer_taps_a_whole_baccarat_round_and_follows_the_pay_list(screens, floor):
    # given the dealer signs in on the table's tablet
    page = screens.page()
    page.goto("/")
    expect(page).to_have_url(f"{screens.base_url}/login/?next=/")
    screens.shot(page, "login")
    assert_layout(page, ["header.app a", "h1", "label", "input", "button"])
    screens.login(page, "dealer")
    expect(page).to_have_url(f"{screens.base_url}/dealer/BAC1/")
    expect(say(page)).to_have_text("Open a round to take bets")
    screens.shot(page, "dealer-idle")

    # when they open a round and tap three bets: banker 25.00 at seat 1, player 10.00 at 2, tie 5.00 at 3
    open_round(page)
    place_bet(page, 1, "banker", ["€25.00"])
    place_bet(page, 2, "player", ["€5.00", "€5.00"])
    button(page, "Seat 3").click()
    button(page, "Tie").click()
    button(page, "Add chip €1.00").click()
    expect(page.locator("#panel-bets .hint")).to_have_text("Under the minimum €5.00")
    button(page, "Clear the stake").click()
    button(page, "Add chip €5.00").click()
    assert_labelled(page)
    check_both_sizes(screens, page, "dealer-bets")
    button(page, "Place bet").click()
    idle(page)
    expect(page.locator("#bets-total")).to_have_text("3 bets · €40.00")
    close_betting(page)
    expect(say(page)).to_have_text("Deal card 1 to the player")

    # and tap the six cards, the screen saying what comes next after each
    said = []
    for card in ["9S", "KH", "5D", "3C", "2H"]:
        tap_card(page, card)
        said.append(say(page).inner_text())
        if card == "3C":
            check_both_sizes(screens, page, "dealer-cards")
    tap_card(page, "4S")

    # then the engine guided every card ("Player draws on 4") and the pay list is by seat
    assert said == [
        "Deal card 2 to the banker",
        "Deal card 3 to the player",
        "Deal card 4 to the banker",
        "Player draws on 4",
        "Banker draws on 3 (player's third card counts 2)",
    ]
    expect(say(page)).to_have_text("Banker wins 7 over 6: pay and collect")
    assert pay_rows(page) == [
        ["Seat 1", "Banker", "€25.00", "Win", "Pay €23.75", "€1.25"],
        ["Seat 2", "Player", "€10.00", "Lose", "Collect €10.00", "—"],
        ["Seat 3", "Tie", "€5.00", "Lose", "Collect €5.00", "—"],
    ]
    expect(page.locator("#pay-list tfoot")).to_contain_text("Pay €23.75 · collect €15.00")
    expect(page.locator("#pay-totals")).to_have_text("Pay €23.75 · collect €15.00")
    assert_labelled(page)
    check_both_sizes(screens, page, "dealer-pay-list")
    assert Settlement.objects.count() == 0  # nothing is settled until the dealer confirms

    # when the dealer confirms, the round settles once and the next can open
    button(page, "Paid and collected: confirm").click()
    idle(page)
    expect(say(page)).to_have_text("Banker wins 7 over 6 · settled")
    expect(button(page, "Open next round")).to_be_visible()
    screens.shot(page, "dealer-settled")
    settlement = Settlement.objects.get()
    assert (settlement.house_net, settlement.commission, settlement.handle) == (-875, 125, 4000)
    assert LedgerTransaction.objects.filter(source_type="round").count() == 1
    assert Round.objects.get().status == "settled"
    assert IdempotencyRecord.objects.filter(user=floor.dealer).count() == 12  # open, 3 bets, close, 6 cards, settle


def test_an_impossible_card_is_refused_on_the_spot_with_the_engines_words(screens, floor):
    # given a one-deck baccarat table
    floor.table.config = {"decks": 1}
    floor.table.save(update_fields=["config"])
    page = screens.page("dealer")
    open_round(page)
    place_bet(page, 1, "player", ["€5.00", "€5.00"])
    close_betting(page)
    tap_card(page, "9S")

    # when the dealer keys the nine of spades again
    tap_card(page, "9S")

    # then the screen refuses it, saying why in the dealer's words, and still asks for the same card
    expect(page.locator("#error")).to_have_text(REFUSED_NINE)
    expect(say(page)).to_have_text("Deal card 2 to the banker")
    screens.shot(page, "dealer-refused-card")
    assert list(RoundEvent.objects.values_list("payload", flat=True)) == [{"card": "9S", "to": "player"}]
    # and the right card goes through, clearing the message
    tap_card(page, "KH")
    expect(page.locator("#error")).to_be_hidden()
    expect(say(page)).to_have_text("Deal card 3 to the player")


def test_a_dropped_request_is_retried_without_a_duplicate(screens, floor):
    page = screens.page("dealer")
    open_round(page)
    lost = {"answer": 0, "request": 0}

    def lose_first_answer(route):
        # the bet reaches the server and is written, but its answer never reaches the tablet
        if lost["answer"] == 0:
            lost["answer"] += 1
            route.fetch()
            route.abort("connectionreset")
            return
        route.continue_()

    def lose_first_request(route):
        # the card never reaches the server
        if lost["request"] == 0:
            lost["request"] += 1
            route.abort("internetdisconnected")
            return
        route.continue_()

    page.route("**/api/rounds/*/bets/", lose_first_answer)
    page.route("**/api/rounds/*/events/", lose_first_request)

    # when the bet's answer is lost, the screen says it is offline and sends it again with the same key
    button(page, "Seat 4").click()
    button(page, "Banker").click()
    button(page, "Add chip €100.00").click()
    button(page, "Place bet").click()
    expect(page.locator("#offline")).to_be_visible()
    screens.shot(page, "dealer-offline")
    idle(page)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#bets-total")).to_have_text("1 bet · €100.00")

    # and a card whose request is lost is sent again
    close_betting(page)
    tap_card(page, "9S")
    expect(say(page)).to_have_text("Deal card 2 to the banker")

    # then each entry exists once
    assert lost == {"answer": 1, "request": 1}
    assert list(Bet.objects.values_list("seat", "type", "amount")) == [(4, "banker", 10000)]
    assert list(RoundEvent.objects.values_list("payload", flat=True)) == [{"card": "9S", "to": "player"}]
    bet_keys = IdempotencyRecord.objects.filter(path__endswith="/bets/")
    assert bet_keys.count() == 1


def test_undo_the_last_card_with_the_supervisors_name_and_pin(screens, floor):
    # given the pit manager has a signing PIN, and a card keyed by mistake
    StaffProfile.objects.filter(user=floor.manager).update(pin_hash=make_password("2468"), display_name="Paula Marsh")
    page = screens.page("dealer")
    open_round(page)
    place_bet(page, 1, "banker", ["€25.00"])
    close_betting(page)
    for card in ["9S", "KH", "5D", "3C"]:  # 3C keyed by mistake for 3D
        tap_card(page, card)

    # when the dealer asks for an undo: the pit's manager is listed by name, and a wrong PIN is tapped
    button(page, "Undo last card…").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Take back 3 of clubs (entry 4).")
    expect(dialog.get_by_role("radio")).to_have_text(["Paula Marsh"])
    expect(dialog.get_by_role("radio", name="Paula Marsh")).to_have_attribute("aria-checked", "true")  # the only one
    for digit in "1357":
        button(page, f"Digit {digit}").click()
    expect(page.locator("#pin-dots")).to_have_text("••••")
    button(page, "Approve undo").click()
    expect(dialog.get_by_role("alert")).to_have_text(
        "That PIN is wrong for the supervisor picked: check the name and tap the PIN again.")
    assert RoundEvent.objects.filter(undone_at__isnull=False).count() == 0
    # the wrong PIN was a refused signature, not a failed sign-in of the supervisor
    assert AuditRecord.objects.filter(action="signature.refused", actor_username="dealer").count() == 1
    assert not AuditRecord.objects.filter(action__in=["auth.login_failed", "auth.lockout"]).exists()

    # and then the right PIN, on the pad and on a hardware keypad (Delete takes a digit back)
    expect(page.locator("#pin-dots")).to_have_text("—")
    for digit in "24":
        button(page, f"Digit {digit}").click()
    page.keyboard.type("69")
    page.keyboard.press("Backspace")
    page.keyboard.type("8")
    assert axe_violations(page) == []
    check_dialog_sizes(screens, page, "dealer-undo-pin")
    button(page, "Approve undo").click()

    # then the card is taken back and the engine asks for it again
    expect(dialog).to_be_hidden()
    expect(say(page)).to_have_text("Deal card 4 to the banker")
    tap_card(page, "3D")
    undone = RoundEvent.objects.get(undone_at__isnull=False)
    assert (undone.payload, undone.undone_by, undone.undo_approved_by) == ({"card": "3C", "to": "banker"}, floor.dealer, floor.manager)
    assert [e.payload["card"] for e in RoundEvent.objects.filter(undone_at__isnull=True).order_by("seq")] == [
        "9S",
        "KH",
        "5D",
        "3D",
    ]


def check_dialog_sizes(screens, page, name: str) -> None:
    """An open dialog shot at both sizes, its buttons at least 44 px, back to the tablet's size."""
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        small = page.evaluate("""() => [...document.querySelectorAll('dialog[open] button')]
          .map(b => b.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length""")
        assert small == 0
        screens.shot(page, name)
    page.set_viewport_size(TABLET)


def test_a_blackjack_round_with_a_split(screens, floor):
    # given a blackjack table with its own dealer
    table = TableFactory(
        code="BJ1", name="Blackjack 1", pit=floor.pit, game="blackjack", min_bet=500, max_bet=500_000, seats=7
    )
    bj_dealer = UserFactory(username="bjdealer", roles=[Role.DEALER])
    assign(bj_dealer, table, floor.shift, floor.manager)
    page = screens.page("bjdealer")
    expect(page).to_have_url(f"{screens.base_url}/dealer/BJ1/")
    open_round(page)
    place_bet(page, 1, None, ["€5.00", "€5.00"])
    close_betting(page)

    # when seat 1 is dealt two eights against a six and splits
    for card in ["8S", "6H", "8D"]:
        tap_card(page, card)
    expect(say(page)).to_have_text("Seat 1: 16 against a 6: hit, stand or split?")
    expect(page.locator("#deal-work .widget button")).to_have_text(["Hit", "Stand", "Split"])
    check_both_sizes(screens, page, "dealer-blackjack-choice")
    button(page, "Split").click()
    idle(page)
    expect(say(page)).to_have_text("Seat 1, first hand: card")
    tap_card(page, "3C")
    expect(page.locator("#deal-work .widget button")).to_have_text(["Hit", "Stand", "Double"])
    button(page, "Stand").click()
    idle(page)
    tap_card(page, "TC")
    button(page, "Stand").click()
    idle(page)
    expect(say(page)).to_have_text("Turn the dealer's hole card")
    tap_card(page, "TD")
    expect(say(page)).to_have_text("Dealer draws on 16")
    tap_card(page, "9H")

    # then both hands win against the dealer's bust, each on its own line: pay 10.00 on each 10.00 stake
    expect(say(page)).to_have_text("Dealer busts with 25: pay and collect")
    assert pay_rows(page) == [
        ["Seat 1, hand 1", "Bet", "€10.00", "Win", "Pay €10.00", "—"],
        ["Seat 1, hand 2", "Bet", "€10.00", "Win", "Pay €10.00", "—"],
    ]
    expect(page.locator("#hands")).to_contain_text("Seat 1, hand 1")
    expect(page.locator("#hands")).to_contain_text("Seat 1, hand 2")
    check_both_sizes(screens, page, "dealer-blackjack-pay-list")
    button(page, "Paid and collected: confirm").click()
    idle(page)
    settlement = Settlement.objects.get(round__table=table)
    assert settlement.house_net == -2000
    assert [(line.result, line.net) for line in settlement.lines.all()] == [("win", 2000)]


def test_a_carousel_game_on_the_triangle_keypad_with_bets_between_stages(screens, floor):
    # given a Carousel table (the triangle deck, 1 to 10) dealt by its pit manager
    TableFactory(
        code="CAR1",
        name="Carousel 1",
        pit=floor.pit,
        game="carousel",
        config={"limit": 100},
        min_bet=100,
        max_bet=100,
        seats=6,
    )
    page = screens.page("pm")
    page.goto("/dealer/CAR1/")
    open_round(page)
    close_betting(page)
    expect(say(page)).to_have_text("Deal to hand 1")
    expect(page.locator("#keypad-standard")).to_be_hidden()

    # when the six foundation cards are tapped on the 1–10 keypad
    for card in ["3", "4", "6", "7", "8", "9"]:
        button(page, f"Card {card}").click()
        idle(page)
    expect(say(page)).to_have_text("Betting round 1: take bets")
    # and two players bet on how many hands survive, between the stages, in turn from the button (seat 1):
    # seat 2, between them, passes
    for seat, number in [(1, "4"), (2, None), (3, "5")]:
        if number is None:
            button(page, f"Seat {seat} passes").click()
            idle(page)
            continue
        button(page, f"Seat {seat}").click()
        button(page, f"Hands to survive: {number}").click()
        button(page, "Record bet").click()
        idle(page)
    expect(button(page, "Undo last card…")).to_be_hidden()  # a bet is not undone: the round is voided
    assert_labelled(page)
    check_both_sizes(screens, page, "dealer-carousel")
    for card in ["10", "10", "10", "6", "8", "7"]:
        button(page, f"Card {card}").click()
        idle(page)

    # then the engine moves to the next betting round; every entry was recorded once, in order
    expect(say(page)).to_have_text("Betting round 2: take bets")
    rnd = Round.objects.get(table__code="CAR1")
    assert [e.payload.get("card") or e.payload.get("action") or e.payload["bet"]["number"]
            for e in rnd.events.order_by("seq")] == [
        "3",
        "4",
        "6",
        "7",
        "8",
        "9",
        4,
        "pass",
        5,
        "10",
        "10",
        "10",
        "6",
        "8",
        "7",
    ]
    assert list(Bet.objects.filter(round=rnd).values_list("seat", "type", "amount", "event_index")) == [
        (1, "count", 100, 6),
        (3, "count", 100, 8),
    ]
