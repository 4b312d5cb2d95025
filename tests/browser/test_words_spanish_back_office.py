"""The back office in Spanish, where this stop changed it: a report's figures in the reader's number format
(the screen and the PDF; the CSV says its machine form first), a cage refusal from the screen and one from the
service in Spanish, an alert worded from its figures, a rating slip's status and flags in words. Screenshots at
1024x768 and 390x844, axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounting.services import alerts, shifts
from casino.core.models import StaffProfile
from tests.accounting.test_worked_shift import work_the_shift
from tests.browser.conftest import axe_violations
from tests.wording.scan import report, scan_html

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "h2"]


def spanish(username: str) -> None:
    StaffProfile.objects.filter(user__username=username).update(language="es")


def test_the_report_screen_writes_its_figures_as_a_spanish_reader_does(screens, floor):
    # given the worked shift closed, and an accountant who reads Spanish
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    spanish("accountant")
    # when they open the revenue report
    page = screens.page("accountant", at="/accounting/")
    page.goto("/accounting/reports/?report=revenue", timeout=60_000)  # a report reads every row: slow on a busy machine
    expect(page.locator("html")).to_have_attribute("lang", "es")
    # then its money has a decimal comma, never a decimal point
    total = page.locator("table tfoot tr, table tr.total").first
    expect(total).to_contain_text(",00")
    cells = page.locator("table td.num").all_inner_texts()
    assert cells, "the report has figures"
    assert not [c for c in cells if "." in c and c.strip() and not c.strip().startswith("—")], cells
    found = scan_html(page.content())
    assert found == [], report(found, "the revenue report in Spanish")
    screens.shots(page, "words-es-report", LAYOUT)
    assert axe_violations(page) == []


def test_a_cage_refusal_and_an_alert_read_in_spanish(screens, floor):
    # given a large bet's alert, and a pit manager who reads Spanish
    spanish("pm")
    alerts.alert_raise(kind="large_bet", severity="warning", dedupe_key="large_bet:test", table=floor.table,
                       shift=floor.shift, message="large bet 50000.00 on banker at BAC1 round #1 seat 1",
                       data={"bet": 1, "round": 1, "amount": 5_000_000, "type": "banker", "seat": 1,
                             "threshold": 1_000_000})
    # when they open the alerts
    page = screens.page("pm", at="/pit/alerts/")
    # then the alert is worded in Spanish with its money in the one format
    expect(page.locator("main")).to_contain_text("Apuesta grande de 50\u00a0000,00\u00a0€")
    found = scan_html(page.content())
    assert found == [], report(found, "the alerts in Spanish")
    screens.shots(page, "words-es-alerts", LAYOUT)
    assert axe_violations(page) == []
    # and when they count an opener that the dealer signs with a wrong password
    page.goto(f"/accounting/cage/?table={floor.table.pk}&shift={floor.shift.pk}")
    form = page.locator("form:has(input[name='chips_2500'])")
    form.locator("input[name='chips_2500']").fill("4")
    form.locator("input[name='dealer_username']").fill("dealer")
    form.locator("input[name='dealer_secret']").fill("nope")
    form.locator("button[type='submit']").first.click()
    # then the signing service's refusal is shown in Spanish, naming the signer
    expect(page.locator("#cage-error")).to_contain_text("La firma del crupier: la contraseña o el PIN de dealer no es correcto")
    expect(page.locator("h2#enter-title")).to_contain_text("Contar apertura")
    screens.shots(page, "words-es-cage-refusal", LAYOUT + ["#cage-error"])
    assert axe_violations(page) == []
