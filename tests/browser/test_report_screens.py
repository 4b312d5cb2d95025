"""The reports, the audit trail and the pit's alerts as a person uses them (Playwright in Debian's chromium):
what a report covers above its figures, its columns fitting a 1024 × 768 frame with the rest one tap away,
its total row in sight, filters and menu that fit a phone; the audit trail found by a part of a word and
read as a change; axe-core clean."""

from __future__ import annotations

import pytest
from django.db import transaction
from playwright.sync_api import expect

from accounting.services import alerts, reconcile, shifts
from casino.audit.services import audit_log
from tests.accounting.test_worked_shift import work_the_shift
from tests.browser.conftest import PHONE, TABLET, assert_labelled, assert_layout, axe_violations

pytestmark = pytest.mark.browser

REPORT_LAYOUT = ["header.app nav a", "header.app button", "h1", "h2", ".scope", "form.filters .filter",
                 "form.filters button", ".report-tabs a"]

FITS = """() => {
  const wrap = document.querySelector('.report-wrap');
  const table = wrap.querySelector('table');
  const frame = wrap.getBoundingClientRect();
  const total = [...document.querySelectorAll('tr.total td, tr.total th')].filter(c => c.offsetParent !== null);
  return {table: table.getBoundingClientRect().width, frame: frame.width,
          totalInside: total.every(c => { const r = c.getBoundingClientRect();
                                          return r.left >= frame.left - 1 && r.right <= frame.right + 1; }),
          totals: total.map(c => c.textContent.trim())};
}"""


@pytest.fixture
def closed(floor):
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    reconcile.reconcile_shift(shift_id=floor.shift.pk)
    return floor


def test_each_report_says_what_it_covers_and_fits_its_frame(screens, closed):
    page = screens.page(closed.accountant.username)
    for name in ("revenue", "fills_credits", "variance", "large_transactions", "dealers", "bets",
                 "statistical_hold", "marker_aging"):
        page.goto(f"/accounting/reports/?report={name}")
        # the scope sits above the figures
        expect(page.locator('[data-field="scope"]')).to_contain_text("Covers:")
        if not page.locator(".report-wrap").count():
            continue  # nothing to show (the summary says so)
        # at 1024 × 768 the screen's columns fit the frame and the total row is in sight
        fit = page.evaluate(FITS)
        assert fit["table"] <= fit["frame"] + 1, (name, fit)
        assert fit["totalInside"], (name, fit)
        assert axe_violations(page) == [], name
    # the revenue report reads closed table shifts only and says so
    page.goto("/accounting/reports/?report=revenue")
    expect(page.locator('[data-field="scope"]')).to_contain_text("Closed table shifts only")
    # the fills log's total row shows its figures on screen
    page.goto("/accounting/reports/?report=fills_credits")
    fit = page.evaluate(FITS)
    assert any(t and t[0].isdigit() for t in fit["totals"][1:]), fit
    screens.shot(page, "report-fills-credits")
    # the other columns are one tap away; the first column stays in sight when the table scrolls
    extra = page.locator("th.extra").first
    expect(extra).to_be_hidden()
    page.get_by_text("All columns").click()
    expect(extra).to_be_visible()
    page.locator(".report-wrap").evaluate("el => el.scrollLeft = el.scrollWidth")
    first = page.locator(".report-figures tbody th").first
    box, frame = first.bounding_box(), page.locator(".report-wrap").bounding_box()
    assert box["x"] >= frame["x"] - 1
    screens.shot(page, "report-fills-credits-all-columns")
    assert_labelled(page)
    assert axe_violations(page) == []
    # a phone: the filters and the menu fit, and the menu leaves the screen to the report
    page.set_viewport_size(PHONE)
    page.goto("/accounting/reports/?report=revenue")
    assert_layout(page, REPORT_LAYOUT)
    header = page.locator("header.app").bounding_box()
    assert header["height"] <= 110, header
    screens.shot(page, "report-revenue")
    assert axe_violations(page) == []
    page.set_viewport_size(TABLET)


def test_a_filter_the_report_does_not_take_is_refused_in_words(screens, closed):
    page = screens.page(closed.accountant.username)
    page.goto(f"/accounting/reports/?report=revenue&dealer={closed.dealer.username}")
    expect(page.locator('[data-field="refusal"]')).to_have_text("This report cannot be narrowed by dealer.")
    expect(page.get_by_role("button", name="Export as CSV")).to_have_count(0)


def test_the_audit_trail_is_found_by_a_part_of_a_word_and_reads_as_a_change(screens, floor):
    # given a void and a limit change in the trail
    with transaction.atomic():
        audit_log(actor=floor.manager, action="round.void", object_type="round", object_id=7, table_code="BAC1",
                  before={"status": "settled"}, after={"status": "voided", "reason": "misdeal"})
        audit_log(actor=floor.manager, action="table.update", object_type="table", object_id=5, table_code="BAC1",
                  before={"max_bet": 500_000}, after={"max_bet": 100_000})
    page = screens.page(floor.auditor.username)
    page.goto("/audit/")
    # when the auditor types "void" as the action
    page.get_by_label("Action").fill("void")
    page.get_by_role("button", name="Filter").click()
    # then the void is found, in words, its change as field, was, now
    rows = page.locator(".records > table > tbody > tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Round voided")
    expect(rows.first.locator(".change-table")).to_contain_text("misdeal")
    # and the limit change reads in money, not minor units
    page.goto("/audit/?action=update&match=parts")
    expect(page.locator(".change-table").first).to_contain_text("€5,000.00")
    # the pick-lists: role and table
    page.get_by_label("Role").select_option("pit_manager")
    page.get_by_label("Table").select_option("BAC1")
    assert_labelled(page)
    assert axe_violations(page) == []
    screens.shots(page, "audit-trail", ["header.app nav a", "h1", "h2", "form.filters label", "form.filters button"])


def test_the_pit_alerts_page_pages(screens, floor):
    for n in range(25):
        alerts.alert_raise(kind="variance", severity="warning", message=f"short {n}", dedupe_key=f"k{n}",
                           table=floor.table)
    page = screens.page(floor.manager.username)
    page.goto("/pit/alerts/")
    expect(page.locator("#open-alerts > li")).to_have_count(20)
    page.get_by_role("link", name="older →").first.click()
    expect(page.locator("#open-alerts > li")).to_have_count(5)
    assert axe_violations(page) == []
    screens.shots(page, "pit-alerts-paged", ["header.app nav a", "h1", "h2", ".alert-item"])
