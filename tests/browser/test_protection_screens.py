"""Game protection's new screens (issue 35): baccarat's tie bets on the panel and the player's page, a supervisor's
pay-list correction on the pit's round page, and the dealers' report on screen with its files — at 1024×768 and
390×844, axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import PayCorrection
from tests.accounting.helpers import play_round
from tests.browser.conftest import PHONE, TABLET, axe_violations
from tests.players.advantage_helpers import dealer_team, record_tie_bettor

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])


@SIZES
def test_the_pit_sees_tie_bets_where_the_cards_favour_them_on_the_panel_and_the_players_page(screens, floor, size):
    # given four one-deck shoes where a rated player bets the tie only where the cards left favour it
    sharp, _ = record_tie_bettor(floor, shoes=4)
    page = screens.page("pm", size=size)
    # when the pit manager opens the dashboard
    page.goto("/pit/")
    row = page.locator(f"#advantage tr[data-player='{sharp.pk}']")
    # then the panel says so in words
    expect(row.locator("[data-field=flags]")).to_have_text("tie bets where the cards favour them")
    expect(row.locator("[data-field=side_bets]")).to_contain_text("tie bets: 24 of 24 where the cards favoured them")
    page.locator("#advantage").scroll_into_view_if_needed()
    screens.shots(page, "pit-advantage-tie-bets", ["h1", "#advantage-table", "#protection-reports"])
    assert axe_violations(page) == []
    # and the player's page explains it
    row.get_by_role("link", name="Tia Ties").click()
    ties = page.locator("#advantage-ties")
    expect(ties.locator("strong")).to_have_text("Flag: tie bets where the cards left favour them.")
    expect(ties).to_contain_text("Over 52 baccarat rounds, 24 with a tie bet")
    screens.shots(page, "player-advantage-tie-bets", ["h1", "#advantage-play h2", "#advantage-ties"])
    assert axe_violations(page) == []


@SIZES
def test_a_pit_manager_corrects_a_pay_list_the_dealer_confirmed(screens, floor, size):
    # given a round the dealer settled: 100.00 on the player, won
    settled = play_round(floor.table, floor.dealer, [(1, "player", 10_000)], ["5S", "KH", "4D", "2C"])
    page = screens.page("pm", size=size)
    page.goto(f"/pit/rounds/{settled.round_id}/")
    section = page.locator("#pay-corrections")
    expect(section.locator("#no-corrections")).to_be_visible()
    # when the pit manager writes what seat 1 should have been paid, and why
    form = section.locator("#pay-correction-form")
    form.get_by_label("Seat 1, now €100.00").fill("95.00")
    form.get_by_label("Why").fill("paid 100.00 on a 95.00 win")
    screens.shots(page, "pit-round-pay-correction-form", ["h1", "#pay-corrections h2", "#pay-correction-form button"])
    assert axe_violations(page) == []
    form.get_by_role("button", name="Record the correction").click()
    # then the page shows it, on record against the dealer who confirmed the pay list
    expect(page.locator("#pay-corrections .correction")).to_contain_text("Seat 1: €100.00 on the pay list, "
                                                                         "€95.00 as corrected.")
    assert PayCorrection.objects.get().confirmed_by == floor.dealer
    screens.shots(page, "pit-round-pay-corrected", ["h1", "#pay-corrections .correction"])
    assert axe_violations(page) == []


@SIZES
def test_the_pit_opens_the_dealers_report_from_the_advantage_panel_and_takes_its_files(screens, floor, size):
    # given three dealers, one voiding far more than the others, one with a corrected pay list
    dealer_team(floor)
    page = screens.page("pm", size=size)
    page.goto("/pit/")
    # when the pit manager follows the panel's link
    page.locator("#protection-reports").get_by_role("link", name="Dealers' game protection").click()
    # then the report says what it covers and who stands out, in words
    expect(page.locator("h1")).to_have_text("Dealers' game protection")
    expect(page.locator("[data-field=scope]")).to_contain_text("Covers: Rounds opened from ")
    row = page.locator("#report-figures tbody tr", has_text="dealer4")
    expect(row).to_contain_text("Voids (under 1 in a million)")
    screens.shots(page, "dealers-report", ["h1", "[data-field=scope]", "#report-figures", "[data-field=downloads] a"])
    assert axe_violations(page) == []
    # and its files are one tap away
    for fmt in ("CSV", "XLSX", "PDF"):
        with page.expect_download() as info:
            page.locator("[data-field=downloads]").get_by_role("link", name=fmt).click()
        assert info.value.suggested_filename.endswith(f".{fmt.lower()}")
        if fmt == "CSV":
            lines = open(info.value.path(), encoding="utf-8-sig").read().splitlines()
            assert lines[0].startswith("\"Dealers' game protection. Covers: Rounds opened from ")
