"""Advantage play on the pit's screens (issue 35): the dashboard's panel, the player's page that explains the
flag in words, and the report's downloads — at 1024×768 and 390×844, axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from players.edges import edges_for
from tables.engines.blackjack import BLACKJACK
from tables.models import Round, Shoe
from tests.browser.conftest import PHONE, TABLET, axe_violations
from tests.players.advantage_helpers import record_counter

pytestmark = pytest.mark.browser

PANEL_LAYOUT = ["header.app nav a", "h1", "#advantage h2", "#advantage-table", "#advantage .footnote a"]
PLAYER_LAYOUT = ["header.app nav a", "h1", "#advantage-play h2", "#advantage-bets", "#advantage-back",
                 "#advantage-skill"]


@pytest.fixture
def counter(floor):
    _, player, _ = record_counter(floor, shoes=12)
    edges_for("blackjack", BLACKJACK.resolve_config({}), compute=True)  # the job a slip's opening queues
    return player


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_the_pit_sees_the_counter_on_the_panel_and_the_flag_in_words_on_the_players_page(screens, counter, size):
    # given a counter's recorded shoes at a blackjack table of the pit manager's pit
    page = screens.page("pm", size=size)
    # when the pit manager opens the dashboard
    page.goto("/pit/")
    panel = page.locator("#advantage")
    # then the panel lists the counter, flagged
    row = panel.locator(f"tr[data-player='{counter.pk}']")
    expect(row.locator("th")).to_have_text("Carl Counter")
    expect(row.locator("[data-field=flags]")).to_have_text("bets follow the count")
    expect(row.locator("[data-field=spread]")).to_have_text("8.0×")
    panel.scroll_into_view_if_needed()
    screens.shots(page, "pit-advantage-panel", PANEL_LAYOUT)
    assert axe_violations(page) == []
    # when they follow the player's link
    row.get_by_role("link", name="Carl Counter").click()
    # then the page says what was seen, over how many rounds, and how unlikely by chance
    section = page.locator("#advantage-play")
    expect(section.locator("#advantage-bets strong")).to_have_text("Flag: the bets follow the count.")
    expect(section.locator("#advantage-bets")).to_contain_text("10.00 to ")
    expect(section.locator("#advantage-bets")).to_contain_text("80.00 (a spread of 8.0×)")
    expect(section.locator("#advantage-bets")).to_contain_text("ignore the count would follow")
    expect(section.locator("#advantage-seen")).to_contain_text("rounds played at BJ1.")
    expect(section.locator("#advantage-skill")).to_contain_text("0 of them not basic strategy's")
    screens.shots(page, "player-advantage", PLAYER_LAYOUT)
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_the_pit_downloads_the_advantage_report(screens, counter, size):
    page = screens.page("pm", size=size)
    page.goto("/pit/")
    links = page.locator("#advantage .footnote")
    for fmt in ("CSV", "XLSX", "PDF"):
        with page.expect_download() as info:
            links.get_by_role("link", name=fmt).click()
        download = info.value
        assert download.suggested_filename.endswith(f".{fmt.lower()}")
        if fmt == "CSV":
            lines = open(download.path(), encoding="utf-8-sig").read().splitlines()
            assert lines[0].startswith('"Advantage play. Covers: ')  # what the report covers
            assert lines[1].startswith("Player,Card,Tables,Rounds,Smallest bet")
            assert lines[2].startswith("Carl Counter,,BJ1,")
            assert lines[2].endswith("bets follow the count")


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_the_dealer_marks_a_new_shoe_with_one_tap_between_rounds(screens, floor, size):
    # given the dealer's screen at a baccarat table, no shoe marked yet
    page = screens.page("dealer", size=size)
    page.goto("/dealer/BAC1/")
    expect(page.locator("#shoe-label")).to_have_text("No shoe marked yet")
    # when they tap "New shoe"
    page.get_by_role("button", name="New shoe").click()
    # then the screen names the shoe, the record holds it, and the next round is dealt from it
    expect(page.locator("#shoe-label")).to_have_text("Shoe 1")
    shoe = Shoe.objects.get(table=floor.table)
    assert (shoe.number, shoe.decks, shoe.burn, shoe.opened_by) == (1, 8, 1, floor.dealer)
    assert axe_violations(page) == []
    screens.shot(page, "dealer-new-shoe")
    page.get_by_role("button", name="Open round").click()
    expect(page.locator("#new-shoe")).to_be_hidden()  # a shoe changes between rounds only
    expect(page.locator("#shoe-label")).to_have_text("Shoe 1")
    assert Round.objects.get(table=floor.table).shoe == shoe
