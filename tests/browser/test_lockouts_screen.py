"""The lockouts screen in a real browser: a supervisor lifts a dealer's lockout."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from casino.auth import login_failure_record
from casino.core.models import LoginThrottle

pytestmark = pytest.mark.browser

LAYOUT = ["h1", "table", "form.filters label", "form.filters button", "td .btn"]


def test_a_supervisor_lifts_a_dealers_lockout_from_the_screen(screens, floor, settings):
    # given a dealer locked out after a stranger's guesses from another terminal
    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        login_failure_record(username="dealer", addr="10.66.0.9")
    assert LoginThrottle.objects.filter(key="user:dealer|10.66.0.9", locked_until__isnull=False).exists()
    # when the pit manager opens the lockouts from the menu
    page = screens.page("pm")
    page.get_by_role("link", name="Lockouts").click()
    row = page.get_by_role("row", name="dealer Unlock dealer")
    expect(row).to_contain_text("signing in from 10.66.0.9")
    expect(row).to_contain_text("2")
    screens.shots(page, "staff-lockouts", LAYOUT)
    # and unlocks the dealer
    row.get_by_role("button", name="Unlock dealer").click()
    # then the page says so in words, the lockout is gone from the list and from the database
    expect(page.get_by_text("dealer is unlocked (1 count cleared).")).to_be_visible()
    expect(page.get_by_text("No lockout in force.")).to_be_visible()
    assert not LoginThrottle.objects.filter(key__startswith="user:dealer|").exists()
    screens.shot(page, "staff-lockouts-unlocked")
