"""From sign-in: an empty closer is taken only once "the tray is empty" is ticked; the accountant's queue lists
what waits and the accountant acts on it there (a slip void approved, a variance accepted, a reconciliation
run). The records are read back after each step; screenshots at both sizes; axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.models import Alert, CountKind, InventoryCount, ShiftReconciliation, Slip, SlipStatus
from tests.accounting.test_queue import waiting
from tests.accounting.test_worked_shift import OPENER, count
from tests.browser.conftest import axe_violations

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", "main .btn"]


def sign_as_other(page, title: str, username: str, secret: str) -> None:
    page.get_by_role("group", name=f"{title} signs").get_by_label("Another person").check()
    page.get_by_label(f"{title}: username").fill(username)
    page.get_by_label(f"{title}: password or PIN").fill(secret)


def test_an_empty_closer_needs_the_tray_is_empty_box(screens, floor):
    # given BAC1's opener counted
    count(floor, CountKind.OPENER, OPENER)
    page = screens.page("pm")
    page.get_by_role("link", name="Cage", exact=True).click()
    expect(page.get_by_role("heading", name="Count the closing inventory")).to_be_visible()
    # when the closer is signed with an empty grid
    sign_as_other(page, "The dealer", "dealer", "pass")
    page.get_by_role("button", name="Sign and record the closer").click()
    # then it is refused in words, and nothing is recorded
    expect(page.locator("main")).to_contain_text("the count holds no chip: confirm that the tray is empty")
    assert not InventoryCount.objects.filter(kind=CountKind.CLOSER).exists()
    screens.shots(page, "cage-closer-empty-refused", LAYOUT + ["label.confirm"])
    assert axe_violations(page) == []
    # when the box is ticked and both sign again
    page.get_by_label("The tray is empty: there is no chip at all to count").check()
    page.get_by_label("The dealer: password or PIN").fill("pass")
    page.get_by_role("button", name="Sign and record the closer").click()
    # then the empty closer is recorded
    expect(page.locator(".messages")).to_contain_text("Closing inventory of BAC1 recorded: €0.00.")
    closer = InventoryCount.objects.get(kind=CountKind.CLOSER)
    assert (closer.total, closer.chips) == (0, {})


def test_the_accountant_works_through_the_queue(screens, floor):
    # given a slip void asked for, a variance over the tolerance, a drop box to count, a shift not reconciled
    slip, variance, old = waiting(floor)
    page = screens.page("accountant")
    page.get_by_role("link", name="Queue", exact=True).click()
    expect(page.get_by_role("heading", name="Waiting for the accountant")).to_be_visible()
    expect(page.locator("[data-field='total']")).to_have_text("4 things to do, oldest first.")
    expect(page.locator(f"[data-slip='{slip.pk}']")).to_contain_text("“asked for the wrong table”")
    expect(page.locator("#soft-counts")).to_contain_text("BAC1")
    assert axe_violations(page) == []
    screens.shots(page, "accountant-queue", LAYOUT + ["textarea", ".queue-item h3"])

    # when the accountant approves the void
    page.get_by_role("button", name=f"Approve the void of {slip.reference}").click()
    expect(page.locator(".messages")).to_contain_text(f"Slip {slip.reference} is voided, approved by you.")
    assert Slip.objects.get(pk=slip.pk).status == SlipStatus.VOIDED
    # and accepts the variance, saying why
    page.get_by_label("Why is the variance of BAC1 accepted?").fill("a chip found under the table")
    page.get_by_role("button", name="Accept the variance of BAC1").click()
    expect(page.locator(".messages")).to_contain_text("the variance is accepted, with your reason")
    accepted = Alert.objects.get(pk=variance.pk)
    assert (accepted.acknowledged_by, accepted.ack_note) == (floor.accountant, "a chip found under the table")
    # and runs the reconciliation
    page.get_by_role("button", name=f"Run the reconciliation of {old}").click()
    expect(page.locator(".messages")).to_contain_text("reconciliation")
    assert ShiftReconciliation.objects.filter(shift=old).exists()
    # then only the drop box waits
    expect(page.locator("[data-field='total']")).to_have_text("1 thing to do, oldest first.")
    screens.shots(page, "accountant-queue-done", LAYOUT + [".plain-list li"])
    assert axe_violations(page) == []
