"""The card room's screens in a browser (Playwright in Debian's chromium): open a sheet, enter deals,
see the running totals, the refusal and the winner."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardroom.models import ScoreSheet, SheetDeal
from tests.browser.conftest import PHONE, assert_labelled, assert_layout, axe_violations

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", ".kv div", "table", "form button"]


def fill_hearts(page, hearts: dict[str, int], queen: str) -> None:
    form = page.locator("#deal-form")  # the correction form below has the same labelled fields
    for player, n in hearts.items():
        form.get_by_label(f"hearts taken by {player}").fill(str(n))
    form.get_by_label(f"{queen} took the queen of spades").check()
    form.get_by_role("button", name="Record deal").click()


def test_a_dealer_keeps_a_hearts_sheet_on_screen(screens, floor):
    # given the dealer on the card-room page
    page = screens.page("dealer", at="/cardroom/")
    expect(page.get_by_role("link", name="Card room")).to_have_attribute("aria-current", "page")
    # when they open a Hearts sheet to 26 for four players
    page.get_by_label("Table").select_option(str(floor.table.pk))
    page.locator("form[data-build=open] select[name=game]").select_option("hearts")  # its name: "Game" and the game chosen
    page.get_by_label("Players (in seat order, commas between)").fill("ann, bob, cy, dee")
    # the game's rules are labelled fields in its own words (no JSON to type)
    rules = page.locator('fieldset[data-game="hearts"]')
    expect(rules).to_be_visible()
    expect(page.locator('fieldset[data-game="euchre"]')).to_be_hidden()
    rules.get_by_label("Game to").fill("26")
    rules.get_by_label("Shooting the moon").select_option("none")
    page.get_by_role("button", name="Open sheet").click()
    page.wait_for_url("**/cardroom/sheets/*/")
    sheet = ScoreSheet.objects.get()
    # and enter a deal that misses a heart: the server's refusal is shown, nothing recorded
    fill_hearts(page, {"bob": 12}, "cy")
    expect(page.locator("#error")).to_contain_text("The players took 12 hearts: all 13 must be accounted for")
    assert SheetDeal.objects.count() == 0
    # then two good deals: the running totals, and the winner once bob reaches 26
    fill_hearts(page, {"bob": 13}, "cy")
    expect(page.locator('tr[data-deal="1"]')).to_contain_text("13")
    # the correction form has the deal's own labelled fields, filled in with the last deal as entered (no JSON)
    correction = page.locator("#correct-form")
    expect(correction.get_by_label("hearts taken by bob")).to_have_value("13")
    expect(correction.get_by_label("cy took the queen of spades")).to_be_checked()
    expect(correction.locator("textarea")).to_have_count(0)
    fill_hearts(page, {"bob": 13}, "dee")
    expect(page.locator("#sheet-winner")).to_have_text("ann")
    expect(page.locator("tfoot")).to_contain_text("26")
    assert ScoreSheet.objects.get(pk=sheet.pk).status == "finished"
    assert_labelled(page)
    assert_layout(page, LAYOUT)
    screens.shot(page, "cardroom-hearts-sheet")
    page.set_viewport_size(PHONE)
    assert_layout(page, ["header.app nav a", "h1", "h2"])


def test_the_build_check_on_a_crazy_casino_sheet(screens, floor, dealer_api):
    answer = dealer_api.post(
        "/api/cardroom/sheets/",
        {"table": floor.table.pk, "game": "crazy_casino", "players": ["ann", "bob"]},
        format="json",
    )
    page = screens.page("dealer", at=f"/cardroom/sheets/{answer.json()['id']}/")
    page.get_by_label("Cards to build (spaces between: 9H 4D 6S)").fill("AS KS JH JD")
    page.get_by_label("Captured by / left for (optional)").fill("5C")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#build-answer")).to_contain_text("5♣: yes")
    expect(page.locator("#build-answer")).to_contain_text("black 3")
    screens.shot(page, "cardroom-crazy-casino-sheet")


def test_a_carousel_hand_entered_on_screen_with_the_meld_check(screens, floor, dealer_api):
    answer = dealer_api.post(
        "/api/cardroom/sheets/",
        {"table": floor.table.pk, "game": "carousel_rummy", "players": ["ann", "bob"]},
        format="json",
    )
    page = screens.page("dealer", at=f"/cardroom/sheets/{answer.json()['id']}/")
    # the meld check: the rule book's K-A-2 is not a sequence
    page.get_by_label("Melds (a semicolon between melds, cards with spaces: 8D 9D 10D; JD JS JH)").fill("8D 9D 10D; KS AS 2S")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#meld-answer")).to_contain_text("KS AS 2S: not valid — an ace may start or end a sequence")
    # ann knocks on 3 (A♣ 2♦) holding a set; bob has K♠ 9♦
    page.get_by_role("radio", name="ann").check()
    page.locator('input[name="deadwood:ann"]').fill("AC 2D")
    page.locator('input[name="melds:ann"]').fill("7H 7S JK=7D")
    page.locator('input[name="deadwood:bob"]').fill("KS 9D")
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator('tr[data-deal="1"]')).to_contain_text("+16")
    expect(page.locator('tr[data-deal="1"]')).to_contain_text("ann wins on the knock: 16")
    screens.shot(page, "cardroom-carousel-sheet")


def test_a_euchre_deal_entered_by_its_labelled_fields(screens, floor, dealer_api):
    # a game whose entry its engine declares (tables/scoring/entry.py): the maker by name, the tricks, a box for alone
    answer = dealer_api.post(
        "/api/cardroom/sheets/",
        {"table": floor.table.pk, "game": "euchre", "players": ["ann", "bob", "cy", "dee"]},
        format="json",
    )
    page = screens.page("dealer", at=f"/cardroom/sheets/{answer.json()['id']}/")
    form = page.locator("#deal-form")
    expect(page.locator("textarea")).to_have_count(0)
    expect(page.get_by_text("JSON")).to_have_count(0)
    # all passed: the rest of the form is not entered
    form.get_by_label("All passed (no score)").check()
    expect(form.get_by_label("Maker", exact=True)).to_be_disabled()
    form.get_by_label("All passed (no score)").uncheck()
    # a refusal in words: no maker chosen
    form.get_by_label("Tricks taken by the maker's side").fill("4")
    form.get_by_role("button", name="Record deal").click()
    expect(page.locator("#error")).to_be_visible()
    assert SheetDeal.objects.count() == 0
    # ann makes four tricks: her side scores 1
    form.get_by_label("Maker", exact=True).select_option("ann")
    form.get_by_role("button", name="Record deal").click()
    expect(page.locator('tr[data-deal="1"]')).to_contain_text("+1")
    assert SheetDeal.objects.get().entry == {"maker": "ann", "tricks": 4}
    # then a lone march by bob: 4 to bob & dee
    form.get_by_label("Maker", exact=True).select_option("bob")
    form.get_by_label("Alone (a lone hand)").check()
    form.get_by_label("Tricks taken by the maker's side").fill("5")
    form.get_by_role("button", name="Record deal").click()
    expect(page.locator("tfoot")).to_contain_text("4")
    # the correction form: the same fields, filled in with the deal as it was entered
    correction = page.locator("#correct-form")
    expect(correction.get_by_label("Maker", exact=True)).to_have_value("bob")
    expect(correction.get_by_label("Alone (a lone hand)")).to_be_checked()
    expect(correction.get_by_label("Tricks taken by the maker's side")).to_have_value("5")
    correction.get_by_label("Deal", exact=True).fill("1")
    correction.get_by_label("Deal", exact=True).dispatch_event("change")
    expect(correction.get_by_label("Maker", exact=True)).to_have_value("ann")
    expect(correction.get_by_label("Alone (a lone hand)")).not_to_be_checked()
    assert axe_violations(page) == []
    screens.shots(page, "cardroom-euchre-sheet", LAYOUT)
