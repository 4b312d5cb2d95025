"""The lockouts screen in a real browser: a supervisor lifts a dealer's lockout and an address's slowdown."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from casino.auth import login_failure_record
from casino.core.models import LoginThrottle
from tests.browser.conftest import axe_violations

pytestmark = pytest.mark.browser

LAYOUT = ["h1", "table", "form.filters label", "form.filters button", "td .btn"]
SHARED = "10.20.0.1"


def test_a_supervisor_lifts_a_dealers_lockout_and_an_address_slowdown_from_the_screen(screens, floor, settings):
    # given a dealer locked out after a stranger's guesses from another terminal
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2, 3
    for _ in range(2):
        login_failure_record(username="dealer", addr="10.66.0.9")
    assert LoginThrottle.objects.filter(key="user:dealer|10.66.0.9", locked_until__isnull=False).exists()
    # and tablets behind one address slowed by someone's random usernames (a wait long enough to see it)
    settings.LOGIN_ADDRESS_DELAY_SECONDS = settings.LOGIN_ADDRESS_MAX_DELAY_SECONDS = 300
    for i in range(3):
        login_failure_record(username=f"nobody{i}", addr=SHARED)
    assert LoginThrottle.objects.filter(key=f"addr:{SHARED}", locked_until__isnull=False).exists()
    # when the pit manager opens the lockouts from the menu
    page = screens.page("pm")
    page.get_by_role("link", name="Lockouts").click()
    row = page.get_by_role("row", name="dealer Unlock dealer")
    expect(row).to_contain_text("signing in from 10.66.0.9")
    expect(row).to_contain_text("2")
    address_row = page.get_by_role("row", name=f"{SHARED} Unlock address {SHARED}")
    expect(address_row).to_contain_text("slowed")
    expect(address_row).to_contain_text("3")
    screens.shots(page, "staff-lockouts", LAYOUT)
    assert axe_violations(page) == []
    # and lifts the address's slowdown
    address_row.get_by_role("button", name=f"Unlock address {SHARED}").click()
    # then the page says so in words, and the address is gone from the list and from the database
    expect(page.get_by_text(f"{SHARED} is unlocked (1 count cleared).")).to_be_visible()
    expect(page.get_by_role("row", name=f"{SHARED} Unlock address {SHARED}")).to_have_count(0)
    assert not LoginThrottle.objects.filter(key=f"addr:{SHARED}").exists()
    # and unlocks the dealer
    page.get_by_role("row", name="dealer Unlock dealer").get_by_role("button", name="Unlock dealer").click()
    expect(page.get_by_text("dealer is unlocked (1 count cleared).")).to_be_visible()
    expect(page.get_by_text("No lockout in force.")).to_be_visible()
    assert not LoginThrottle.objects.filter(key__startswith="user:dealer|").exists()
    screens.shots(page, "staff-lockouts-unlocked", LAYOUT[:4])
    assert axe_violations(page) == []
