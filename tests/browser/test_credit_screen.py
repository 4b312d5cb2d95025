"""From sign-in: a pit manager sets a player's credit line on the Credit lines screen (refused over their approval
authority, in words, nothing written), the line, used and available shown there, in the marker issue form and on
the player's page; a marker over what is available refused in words. Screenshots at both sizes; axe-core clean."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounting.models import CreditLine, Marker
from tests.browser.conftest import axe_violations
from tests.browser.test_queue_and_corrections import sign_as_other
from tests.players.helpers import make_player

pytestmark = pytest.mark.browser

def amount(digits: str) -> re.Pattern[str]:
    """An amount as the screens write it, with or without a thousands separator ("4000.00" → 4,000.00)."""
    whole, cents = digits.split(".")
    return re.compile(rf"{whole[:-3]}[ ,\u202f]?{whole[-3:]}\.{cents}")


LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", "main .btn"]


def test_a_credit_line_is_set_on_screen_and_markers_stay_within_it(screens, floor):
    player = make_player(floor, first="Paula", last="Smith", card=None)
    page = screens.page()
    screens.login(page, "pm")
    page.get_by_role("link", name="Cage", exact=True).click()
    page.get_by_role("link", name="Credit lines").click()
    expect(page.get_by_role("heading", name="Credit lines", exact=True)).to_be_visible()

    # when the pit manager approves a line over their authority (5 000.00)
    page.get_by_label("Player (name or account, as on the markers)").fill("Paula Smith")
    page.get_by_role("textbox", name="Credit line").fill("6000")
    page.get_by_role("button", name="Approve the credit line").click()
    # then it is refused in words and nothing is written
    expect(page.locator("#cage-error")).to_contain_text("approves credit lines up to")
    assert not CreditLine.objects.exists()
    screens.shots(page, "cage-credit-refused", LAYOUT)
    assert axe_violations(page) == []

    # when within it
    page.get_by_role("textbox", name="Credit line").fill("4000")
    page.get_by_role("button", name="Approve the credit line").click()
    expect(page.locator(".messages")).to_contain_text("Credit line of Paula Smith set to")
    line = CreditLine.objects.get()
    assert (line.player, line.limit, line.approver.user.username) == ("Paula Smith", 400_000, "pm")
    row = page.locator("tr[data-player='Paula Smith']")
    expect(row.locator("[data-field='line']")).to_contain_text(amount("4000.00"))
    expect(row.locator("[data-field='available']")).to_contain_text(amount("4000.00"))
    screens.shots(page, "cage-credit-lines", LAYOUT)
    assert axe_violations(page) == []

    # when a marker of 3 000.00 is issued, then one of 1 500.00 (500.00 over what is left)
    page.get_by_role("link", name="Markers", exact=True).click()
    issue = page.locator("section[aria-labelledby='issue-title']")
    expect(issue.locator("tr[data-player='Paula Smith'] [data-field='available']")).to_contain_text(amount("4000.00"))
    issue.get_by_label("Player (name or account)").fill("Paula Smith")
    issue.get_by_label("Amount").fill("3000")
    sign_as_other(page, "The dealer", "dealer", "pass")
    issue.get_by_role("button", name="Sign and issue the marker").click()
    expect(page.locator(".messages")).to_contain_text("issued to Paula Smith")
    page.get_by_role("link", name="Markers", exact=True).click()
    issue = page.locator("section[aria-labelledby='issue-title']")
    expect(issue.locator("tr[data-player='Paula Smith'] [data-field='available']")).to_contain_text(amount("1000.00"))
    issue.get_by_label("Player (name or account)").fill("Paula Smith")
    issue.get_by_label("Amount").fill("1500")
    sign_as_other(page, "The dealer", "dealer", "pass")
    issue.get_by_role("button", name="Sign and issue the marker").click()
    # then the second is refused in words, the form showing the player's line, used and available
    expect(page.locator("#cage-error")).to_contain_text("over it")
    expect(page.locator("[data-field='standing']")).to_contain_text("used")
    expect(page.locator("[data-field='standing']")).to_contain_text("available")
    assert list(Marker.objects.values_list("amount", flat=True)) == [300_000]
    screens.shots(page, "cage-marker-over-line", LAYOUT + ["textarea"])
    assert axe_violations(page) == []

    # and the player's page shows the line, used and available
    page.goto(f"/players/{player.pk}/")
    credit = page.locator("dl[data-field='credit']")
    expect(credit.locator("[data-field='line']")).to_contain_text(amount("4000.00"))
    expect(credit.locator("[data-field='used']")).to_contain_text(amount("3000.00"))
    expect(credit.locator("[data-field='available']")).to_contain_text(amount("1000.00"))
    screens.shots(page, "player-credit", LAYOUT)
    assert axe_violations(page) == []
