"""The pit dashboard's live part, refreshed with its ETag: nothing changed keeps the tiles as they are (a 304),
a round settled at the pit's table comes in without a reload. From signing in, at 1024x768 and on a phone."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout, axe_violations
from tests.players.helpers import BANKER_WINS, play_round

pytestmark = pytest.mark.browser
LAYOUT = ["header.app nav a", "header.app button", "h1", "main h2"]


def test_an_unchanged_refresh_keeps_the_tiles_and_a_settled_round_comes_in(screens, floor):
    # (the screen's templates compiled once before the browser's first visit, which has 10 s on a loaded machine)
    warm = Client()
    warm.force_login(floor.manager)
    assert warm.get("/pit/").status_code == 200
    # given the pit manager on the dashboard
    page = screens.page("pm", at="/pit/")
    tile = page.locator('#live .tile[data-table="BAC1"]')
    expect(tile.locator('[data-field="rounds"]')).to_have_text("0")
    page.evaluate("() => { window.stayedOnThePage = true; }")
    # when a refresh finds nothing changed (the server answers 304 to the part's ETag)
    expect(page.locator("body")).to_have_attribute("data-live-unchanged", re.compile(r"[1-9]\d*"), timeout=15_000)
    # then the tiles are still there, as they were, and the time of the last check moved on
    expect(tile.locator('[data-field="rounds"]')).to_have_text("0")
    expect(page.locator("#updated-at")).to_have_text(re.compile(r"\d{2}:\d{2}:\d{2}"))
    # when a round settles at the pit's table
    play_round(floor.table, floor.dealer, [(1, "banker", 10_000)], BANKER_WINS)
    # then the next refresh brings it in, on the same page
    expect(tile.locator('[data-field="rounds"]')).to_have_text("1", timeout=15_000)
    assert page.evaluate("() => window.stayedOnThePage") is True
    assert_labelled(page)
    assert axe_violations(page) == []
    for size in (TABLET, PHONE):
        page.set_viewport_size(size)
        assert_layout(page, LAYOUT)
        screens.shot(page, "pit-live-after-unchanged-refresh")
