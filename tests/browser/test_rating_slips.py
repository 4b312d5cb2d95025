"""Rating slips in a real browser: the dealer's panel and the pit dashboard's open slips."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from players.models import BuyIn, RatingSlip
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout

pytestmark = pytest.mark.browser

PANEL_LAYOUT = [
    "#slips-panel summary",
    "#slips-list li",
    "#slip-open label",
    "#slip-open button",
    ".slip-actions .btn",
    ".slip-actions input",
]


def test_the_dealer_opens_buys_in_pauses_and_closes_a_slip_from_the_panel(screens, floor):
    from players.services.players import player_create

    player_create(actor=floor.manager, first_name="Ada", last_name="Lovelace", card_number="C1001")
    page = screens.page("dealer")
    expect(page).to_have_url(f"{screens.base_url}/dealer/BAC1/")
    # when the dealer opens the panel and seats the card holder at seat 3 with an estimate of 25.00
    page.locator("#slips-panel summary").click()
    expect(page.locator("#slips-list")).to_have_text("No open slip.")
    page.locator("#slip-open select[name=seat]").select_option("3")
    page.get_by_label("Card number").fill("C1001")
    page.get_by_label("Estimated average bet").fill("25")
    page.get_by_role("button", name="Open slip").click()
    row = page.locator("#slips-list li").first
    expect(row).to_contain_text("Seat 3")
    expect(row).to_contain_text("Ada Lovelace")
    # and records a 500.00 cash buy-in, then pauses
    page.get_by_label("Cash buy-in at seat 3").fill("500")
    row.get_by_role("button", name="Buy-in").click()
    expect(row).to_contain_text("buy-in €500.00")
    row.get_by_role("button", name="Pause").click()
    expect(row).to_contain_text("paused")
    assert_labelled(page)
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, PANEL_LAYOUT)
        screens.shot(page, "dealer-rating-slips")
    page.set_viewport_size(TABLET)
    # then closes it (confirming)
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Close").click()
    expect(page.locator("#slips-list")).to_have_text("No open slip.")
    slip = RatingSlip.objects.get()
    assert (slip.seat, slip.status, slip.estimated_average_bet, slip.player.card_number) == (3, "closed", 2500, "C1001")
    assert list(BuyIn.objects.values_list("method", "amount")) == [("cash", 50_000)]


def test_a_refused_slip_shows_the_servers_words(screens, floor):
    page = screens.page("dealer")
    page.locator("#slips-panel summary").click()
    page.locator("#slip-open select[name=seat]").select_option("1")
    page.get_by_label("Card number").fill("NOBODY")
    page.get_by_role("button", name="Open slip").click()
    expect(page.locator(".slips-error")).to_have_text("no player has the card NOBODY")
    assert RatingSlip.objects.count() == 0


def test_the_pit_manager_pauses_and_closes_from_the_dashboard(screens, floor):
    from players.services import slips

    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=2, description="blue tie")
    page = screens.page("pm")
    expect(page).to_have_url(f"{screens.base_url}/pit/")
    row = page.locator(f'tr[data-slip="{slip.pk}"]')
    expect(row).to_contain_text("anonymous (blue tie)")
    row.get_by_role("button", name="Pause").click()
    expect(row).to_contain_text("Paused")
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, [".open-slips h2", ".open-slips .table-wrap", ".players-panels .roll"])
        screens.shot(page, "pit-open-slips")
    page.set_viewport_size(TABLET)
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Close").click()
    expect(page.locator(f'tr[data-slip="{slip.pk}"]')).to_have_count(0)
    assert RatingSlip.objects.get(pk=slip.pk).status == "closed"
