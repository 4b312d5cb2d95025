"""The dealer's screen: a bet refused at placement in the dealer's words, a bet taken back and one
corrected before close (audited, never deleted), a void asked for from the screen, and axe-core."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from casino.audit.models import AuditRecord
from tables.models import Bet, BetWithdrawal, Round
from tests.browser.conftest import PHONE, TABLET, axe_violations
from tests.browser.dealer_steps import button, close_betting, idle, open_round, place_bet, say
from tests.tables.helpers import counts

pytestmark = pytest.mark.browser


def test_a_bet_over_the_limit_is_refused_at_placement_in_the_dealers_words(screens, floor):
    # given an open round at a table whose maximum is 5000.00
    page = screens.page("dealer")
    open_round(page)
    before = counts()
    # when the dealer types 6000 for the banker at seat 2 and places it
    button(page, "Seat 2").click()
    button(page, "Banker").click()
    page.get_by_label("Stake, typed").fill("6000")
    expect(page.locator("#panel-bets .hint")).to_have_text("Over the maximum €5,000.00")
    button(page, "Place bet").click()
    idle(page)
    # then it is refused at once, in the dealer's words, and nothing is written
    expect(page.locator("#error")).to_have_text("€6,000.00 is over the table maximum of €5,000.00.")
    screens.shot(page, "dealer-bet-refused")
    assert counts() == before
    # and a bet the table takes, from a chip, goes down and clears the message
    page.get_by_label("Stake, typed").fill("")
    button(page, "Add chip €25.00").click()
    button(page, "Place bet").click()
    idle(page)
    expect(page.locator("#error")).to_be_hidden()
    assert list(Bet.objects.values_list("seat", "type", "amount")) == [(2, "banker", 2500)]


def test_a_bet_taken_back_and_one_corrected_before_close(screens, floor):
    page = screens.page("dealer")
    open_round(page)
    place_bet(page, 1, "banker", ["€25.00"])
    place_bet(page, 2, "player", ["€5.00"])

    # when the player at seat 1 takes the banker bet back
    button(page, "Take back seat 1 Banker €25.00").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Seat 1: Banker €25.00")
    screens.shot(page, "dealer-take-back")
    button(page, "The player took the bet back").click()
    idle(page)
    # and the seat 2 bet is corrected to a tie at seat 3 for 10.00
    button(page, "Correct seat 2 Player €5.00").click()
    button(page, "Seat 3").click()
    button(page, "Tie").click()
    button(page, "Add chip €5.00").click()
    expect(page.locator("#panel-bets .stake-amount")).to_have_text("€10.00")
    button(page, "Save correction").click()
    idle(page)

    # then the screen lists only the corrected bet; both originals stay on record, taken back, audited
    expect(page.locator("#bets-list li")).to_have_count(1)
    expect(page.locator("#bets-total")).to_have_text("1 bet · €10.00")
    rnd = Round.objects.get()
    assert rnd.document["bets"] == [{"id": "b3", "seat": 3, "type": "tie", "amount": 1000}]
    assert list(Bet.objects.order_by("id").values_list("client_id", "seat", "type", "amount")) == [
        ("b1", 1, "banker", 2500), ("b2", 2, "player", 500), ("b3", 3, "tie", 1000)]
    assert [(w.bet.client_id, w.reason, w.replaced_by and w.replaced_by.client_id, w.withdrawn_by)
            for w in BetWithdrawal.objects.order_by("id")] == [
        ("b1", "The player took the bet back", None, floor.dealer), ("b2", "Corrected", "b3", floor.dealer)]
    records = AuditRecord.objects.filter(action="bet.withdraw").order_by("seq")
    assert [(r.before["id"], r.after["reason"], r.after["replaced_by"]) for r in records] == [
        ("b1", "The player took the bet back", None),
        ("b2", "Corrected", {"id": "b3", "seat": 3, "type": "tie", "amount": 1000}),
    ]
    # and betting closes on the corrected bet alone
    close_betting(page)
    expect(say(page)).to_have_text("Deal card 1 to the player")


def test_a_void_asked_for_from_the_screen_is_recorded_for_the_pit(screens, floor):
    page = screens.page("dealer")
    open_round(page)
    place_bet(page, 1, "banker", ["€25.00"])
    close_betting(page)
    # when the dealer asks for a void: a card was exposed
    button(page, "Ask for a void…").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        screens.shot(page, "dealer-void-request")
    page.set_viewport_size(TABLET)
    button(page, "A card was exposed").click()
    idle(page)
    # then the request is recorded with its reason and who asked; the screen says it waits for the pit
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(page.locator("#void-pending")).to_have_text(
        "Void asked for: “A card was exposed”. A pit manager approves it on the pit screen.")
    rnd = Round.objects.get()
    assert (rnd.status, rnd.void_reason, rnd.void_requested_by) == ("betting_closed", "A card was exposed", floor.dealer)
    record = AuditRecord.objects.get(action="round.void_request")
    assert (record.actor_id, record.after) == (floor.dealer.pk, {"reason": "A card was exposed"})
    screens.shot(page, "dealer-void-requested")
    expect(button(page, "Ask for a void…")).to_be_hidden()


def test_the_dealer_screen_has_no_serious_accessibility_violations(screens, floor):
    page = screens.page("dealer")
    found = {"idle": axe_violations(page)}
    open_round(page)
    place_bet(page, 1, "banker", ["€25.00"])
    found["bets"] = axe_violations(page)
    close_betting(page)
    found["cards"] = axe_violations(page)
    button(page, "Take back seat 1 Banker €25.00").count()  # gone once betting closed
    button(page, "Ask for a void…").click()
    found["void dialog"] = axe_violations(page)
    button(page, "Cancel").click()
    page.set_viewport_size(PHONE)
    found["cards, phone"] = axe_violations(page)
    assert {k: v for k, v in found.items() if v} == {}
