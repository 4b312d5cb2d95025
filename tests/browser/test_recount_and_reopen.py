"""From sign-in: a closer and a drop box counted again from the closing screen (a reason, two signatures), the
originals shown struck through and the figures reading the recounts; a table's close reopened once by a shift
manager with a reason, shown struck through, and the table closed again after a recount. The records are read back after each step;
screenshots at both sizes; axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.models import CountKind, DropCount, InventoryCount, TableCloseReopening, TableShiftClose
from accounting.selectors import table_shift_figures
from accounting.services import shifts
from casino.core.roles import Role
from tests.accounting.test_worked_shift import work_the_shift
from tests.browser.conftest import axe_violations
from tests.browser.test_queue_and_corrections import sign_as_other
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", "main .btn"]


def test_a_closer_and_a_drop_box_are_counted_again_from_the_closing_screen(screens, floor):
    # given the worked shift at BAC1: closer 2 040.00, drop 800.00 (variance −1.25)
    people = work_the_shift(floor)
    original = InventoryCount.objects.get(kind=CountKind.CLOSER)
    page = screens.page()
    screens.login(page, "pm")
    page.goto(f"/accounting/shifts/{floor.shift.pk}/")
    closer_row = page.locator("[data-table='BAC1'] [data-count='closer']")
    expect(closer_row).to_contain_text("040")
    screens.shots(page, "closing-counts", LAYOUT)
    assert axe_violations(page) == []

    # when the pit manager recounts the closer: one 1.00 chip more, a reason, the dealer signs too
    closer_row.get_by_role("button", name="Recount", exact=True).click()
    expect(page.get_by_role("heading", name="Recount the closing inventory")).to_be_visible()
    page.get_by_label("Reason").fill("a 1.00 chip was under the float")
    sign_as_other(page, "The dealer", "dealer", "pass")
    page.locator("#recount").get_by_label("€1 chips").fill("41")
    page.get_by_role("button", name="Sign and record the recount").click()

    # then the recount is recorded, linked to the closer it replaces, which is kept as it was
    expect(page.locator(".messages")).to_contain_text("Closing inventory of BAC1 counted again")
    recount = InventoryCount.objects.get(supersedes=original)
    assert (recount.total, recount.reason, InventoryCount.objects.get(pk=original.pk).total) == (
        204_100, "a 1.00 chip was under the float", 204_000)
    expect(page.locator("section[aria-labelledby='closer-title'] [data-field='superseded'] del")).to_contain_text("040")
    screens.shots(page, "cage-closer-recounted", LAYOUT + ["del"])
    assert axe_violations(page) == []

    # and the closing screen shows the original struck through and the figures reading the recount
    page.goto(f"/accounting/shifts/{floor.shift.pk}/")
    expect(closer_row).to_contain_text("superseded by recount: a 1.00 chip was under the float, signed by")
    expect(closer_row.locator("del")).to_contain_text("040")
    expect(page.locator("[data-table='BAC1'] [data-field='variance']")).to_contain_text("0.25")
    assert table_shift_figures(floor.table, floor.shift).variance == -25

    # when the count team recounts the drop box from the closing screen
    counter = screens.page()
    screens.login(counter, people.counter.username)
    counter.goto(f"/accounting/cage/drop/?table={floor.table.pk}&shift={floor.shift.pk}")
    counter.get_by_role("button", name="Recount", exact=True).click()
    counter.get_by_label("Currency notes").fill("605.00")
    counter.get_by_label("Reason").fill("a note stuck in the box")
    sign_as_other(counter, "The second counter", people.counter2.username, "pass")
    counter.get_by_role("button", name="Both sign: record the recount").click()
    # then the drop is the recount's and the soft count it replaces is struck through
    expect(counter.locator(".messages")).to_contain_text("Drop box of BAC1 counted again")
    drop = DropCount.objects.get(supersedes__isnull=False)
    assert (drop.cash, drop.total, drop.reason) == (60_500, 80_500, "a note stuck in the box")
    expect(counter.locator("[data-field='superseded'] del")).to_contain_text("800")
    screens.shots(counter, "cage-drop-recounted", LAYOUT + ["del"])
    assert axe_violations(counter) == []


def test_a_shift_manager_reopens_a_close_once_and_the_table_closes_again(screens, floor):
    # given BAC1's worked shift closed by its pit manager (variance −1.25)
    work_the_shift(floor)
    first = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    UserFactory(username="boss", roles=[Role.PIT_MANAGER, Role.SHIFT_MANAGER])
    page = screens.page()
    screens.login(page, "boss")
    page.goto(f"/accounting/shifts/{floor.shift.pk}/")
    table = page.locator("[data-table='BAC1']")
    expect(table.locator("[data-field='state']")).to_contain_text("Closed")
    # when the shift manager sends the reopening without a reason, then with one
    table.get_by_label("Reason").fill("   ")
    table.get_by_role("button", name="Reopen this table's close").click()
    expect(page.locator(".messages")).to_contain_text("write the reason first")
    assert not TableCloseReopening.objects.exists()
    table.get_by_label("Reason").fill("the closer was miscounted")
    screens.shots(page, "closing-reopen-form", LAYOUT + ["textarea"])
    assert axe_violations(page) == []
    table.get_by_role("button", name="Reopen this table's close").click()

    # then the close is kept and shown struck through, the table open again, and no second reopening offered
    expect(page.locator(".messages")).to_contain_text("BAC1 is open again for correction")
    reopening = TableCloseReopening.objects.get()
    assert (reopening.close_id, reopening.reason, reopening.reopened_by.username) == (
        first.pk, "the closer was miscounted", "boss")
    expect(table.locator("[data-field='reopened'] del")).to_contain_text("variance")
    expect(table.locator("[data-field='reopened']")).to_contain_text("reopened")
    expect(table.locator("[data-field='reopened']")).to_contain_text("the closer was miscounted")
    expect(table.get_by_role("button", name="Reopen this table's close")).to_have_count(0)
    screens.shots(page, "closing-reopened", LAYOUT + ["del"])
    assert axe_violations(page) == []

    # when the pit manager recounts the closer and closes the table again
    pm = screens.page("pm")
    pm.goto(f"/accounting/shifts/{floor.shift.pk}/")
    row = pm.locator("[data-table='BAC1'] [data-count='closer']")
    row.get_by_role("button", name="Recount", exact=True).click()
    pm.locator("#recount").get_by_label("€1 chips").fill("41")
    pm.get_by_label("Reason").fill("one 1.00 chip under the float")
    sign_as_other(pm, "The dealer", "dealer", "pass")
    pm.get_by_role("button", name="Sign and record the recount").click()
    expect(pm.locator(".messages")).to_contain_text("counted again")
    pm.goto(f"/accounting/shifts/{floor.shift.pk}/")
    pm.get_by_label("Yes, close BAC1").check()
    pm.get_by_role("button", name="Close BAC1 for this shift").click()
    # then the close in force is the new one, with the recount's closer; the first is kept
    expect(pm.locator(".messages")).to_contain_text("BAC1 is closed for the shift")
    second = TableShiftClose.objects.standing().get(table=floor.table, shift=floor.shift)
    assert (second.closer_total, second.variance, TableShiftClose.objects.count()) == (204_100, -25, 2)
    expect(pm.locator("[data-table='BAC1'] [data-field='reopened'] del")).to_have_count(1)
