"""The gaming day on screens, from sign-in: the pit manager opens the next shift and rolls the tables into
it on /pit/day/; the dealer's screen and the pit's table page follow at once. The records are read back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.models import CountKind, InventoryCount
from accounting.money import money_words
from casino.audit.models import AuditRecord
from tables.models import Assignment, Shift, ShiftStatus
from tests.accounting.test_day import closed_first_shift, type_covering_now
from tests.browser.conftest import axe_violations

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", ".pit-nav a", "h1", "h2", "main .btn"]


def eur(minor: int) -> str:
    return money_words(minor)  # the one money format (accounting.money)


def test_a_pit_manager_opens_the_next_shift_and_rolls_the_tables_then_the_dealer_deals(screens, floor):
    # given BAC1's shift counted, closed, and the casino's shift closed: no shift is open
    closed_first_shift(floor)
    shift_type, gaming_date = type_covering_now()
    closer = InventoryCount.objects.get(table=floor.table, shift=floor.shift, kind=CountKind.CLOSER)

    # when the pit manager signs in and opens the day's screen from the pit's menu
    page = screens.page("pm", at="/pit/")
    page.locator(".pit-nav").get_by_role("link", name="The day").click()
    expect(page.locator("[data-no-shift]")).to_contain_text("No shift is open")
    # then the shift proposed is the one under way now, on its gaming day
    expect(page.get_by_role("combobox", name="Shift")).to_have_value(str(shift_type.pk))
    expect(page.get_by_role("textbox", name="Gaming day")).to_have_value(gaming_date.isoformat())
    assert axe_violations(page) == []
    screens.shots(page, "day-open", LAYOUT + ["select", "input"])

    # when they open it
    page.get_by_role("button", name="Open the shift").click()
    expect(page.locator(".messages")).to_contain_text(f"The Late shift of {gaming_date.isoformat()} is open")
    shift = Shift.objects.get(shift_type=shift_type, gaming_date=gaming_date)
    assert (shift.status, shift.opened_by) == (ShiftStatus.OPEN, floor.manager)
    row = page.locator('[data-table="BAC1"]')
    expect(row.locator('[data-field="closer"]')).to_contain_text(f"Last closer {eur(closer.total)}")
    expect(row.locator('[data-field="opener"]')).to_contain_text("Not opened yet")

    # and roll the tables, keeping the dealers
    page.get_by_role("button", name="Roll the tables").click()

    # then BAC1's opener is its last closer, signed as it was, with no difference, and its dealer is kept
    expect(page.locator(".messages")).to_contain_text("1 table rolled")
    names = f"{closer.dealer_signer.display_name} and {closer.supervisor_signer.display_name}"
    expect(row.locator('[data-field="opener"]')).to_contain_text(
        f"Rolled: opener {eur(closer.total)}, signed by {names}; difference {eur(0)}")
    expect(row.locator('[data-field="dealer"]')).to_contain_text("Dealer: dealer")
    opener = InventoryCount.objects.get(table=floor.table, shift=shift, kind=CountKind.OPENER)
    assert (opener.chips, opener.total, opener.rolled, opener.previous_closer) == (closer.chips, closer.total, True,
                                                                                  closer)
    assert Assignment.objects.get(table=floor.table, shift=shift).dealer == floor.dealer
    assert AuditRecord.objects.filter(action="day.roll", object_id=str(shift.pk)).count() == 1
    assert axe_violations(page) == []
    screens.shots(page, "day-rolled", LAYOUT + [".day-list li"])

    # and the pit's table page shows the new shift at once
    page.goto("/pit/tables/BAC1/")
    expect(page.locator("main")).not_to_contain_text("No shift is open")

    # and the dealer, signing in, lands on the table, where a round opens in the new shift
    dealer = screens.page("dealer", at="/dealer/")
    dealer.wait_for_url("**/dealer/BAC1/")
    # (the last round of the earlier shift is on the screen: the next one opens in the new shift)
    dealer.get_by_role("button", name="Open next round").click()
    expect(dealer.get_by_role("button", name="Place bet")).to_be_visible()
    assert floor.table.rounds.order_by("-id").first().shift_id == shift.pk


def test_without_the_authority_the_day_screen_shows_no_buttons_and_a_post_is_refused(screens, floor, settings):
    # given only shift managers run the day, and no shift is open
    settings.CROUPIER = {**settings.CROUPIER, "DAY_RUN_BY": "shift_manager"}
    closed_first_shift(floor)
    shift_type, gaming_date = type_covering_now()
    # when the pit manager opens the day's screen
    page = screens.page("pm", at="/pit/day/")
    # then it says who opens shifts, and offers no button
    expect(page.locator("main")).to_contain_text("A shift manager opens the shifts.")
    expect(page.get_by_role("button", name="Open the shift")).to_have_count(0)
    # and a post anyway is refused in words, and nothing is opened
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    answer = page.request.post("/pit/day/open/", form={"shift_type": str(shift_type.pk),
                                                       "gaming_date": gaming_date.isoformat()},
                               headers={"X-CSRFToken": token, "Referer": page.url}, max_redirects=0)
    assert answer.status == 403
    assert "Only a shift manager may do this." in answer.text()
    assert not Shift.objects.filter(shift_type=shift_type).exists()
