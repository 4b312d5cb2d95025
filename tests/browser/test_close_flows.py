"""Closing a table's shift and the casino's shift, the reconciliation, the reports and their exports:
from signing in, through the screens under /accounting/, with the records checked afterwards.

The shift is BAC1's worked shift (tests/accounting/test_worked_shift.py): count win 90.00, rounds
win 91.25, variance −1.25 (the tray is 1.25 short).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from accounting import figures
from accounting.hold import edges_prepare
from accounting.models import (
    Alert,
    CountKind,
    ExportStatus,
    Reconciliation,
    ReportExport,
    ShiftReconciliation,
    TableShiftClose,
)
from accounting.money import money_text, money_words, percent_text
from accounting.selectors import table_shift_figures
from accounting.services import counts, reconcile, shifts, slips
from casino.audit.models import AuditRecord
from casino.audit.services import audit_log
from casino.words import shift_words
from tables.models import Settlement, ShiftStatus
from tests.accounting.helpers import BANKER_WINS, play_round, sig
from tests.accounting.test_worked_shift import CLOSER, OPENER, count, slip, work_the_shift
from tests.browser.conftest import assert_labelled, axe_violations

pytestmark = pytest.mark.browser

LAYOUT = ["header.app nav a", "header.app button", "h1", "main h2", "main .btn"]


def eur(minor: int | None) -> str:
    return money_words(minor)  # the one money format (accounting.money)


def work_until_the_counts(floor):
    """BAC1's worked shift up to the end of play: the opener, a fill, a credit, a marker, two rounds, a
    marker payment; the closer and the soft count are not in yet, and one fill is still at the cage."""
    from tests.accounting.helpers import staff

    people = staff(floor)
    count(floor, CountKind.OPENER, OPENER)
    slip(floor, people, "fill", {"2500": 20})
    slip(floor, people, "credit", {"10000": 3})
    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="P. Smith", amount=20_000, supervisor=sig(floor.manager),
                                dealer=sig(floor.dealer))
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000), (3, "tie", 500)], BANKER_WINS)
    play_round(floor.table, floor.dealer, [(4, "player", 10_000)], BANKER_WINS)
    slips.marker_pay(actor=floor.manager, marker_id=marker.pk, amount=5_000, at_table=True, signer=sig(floor.dealer))
    waiting = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                                 chips={"500": 10})
    return people, waiting


def check_screen(screens, page, name, extra=()):
    assert_labelled(page)
    assert axe_violations(page) == []
    screens.shots(page, name, [*LAYOUT, *extra])


def test_a_pit_manager_sees_what_is_missing_then_closes_the_table_and_the_shift(screens, floor):
    # given BAC1's shift played, without its closer or its soft count, and a fill not yet issued by the cage
    people, waiting = work_until_the_counts(floor)

    # when the pit manager signs in and opens the shift from the closing screen
    page = screens.page("pm")
    page.get_by_role("link", name="Closing").first.click()
    expect(page.get_by_role("heading", name="Shifts: closing and reconciliation")).to_be_visible()
    check_screen(screens, page, "closing-shifts", [".shift-list"])
    page.get_by_role("link", name=str(floor.shift)).click()

    # then the table says, in words, what is missing before it can close, and offers no close
    table = page.locator("article[data-table='BAC1']")
    expect(table.locator("[data-field='state']")).to_have_text("Cannot close yet. Missing:")
    missing = table.locator("ul.missing li")
    expect(missing).to_have_text([
        "No closing chip count (the closer) has been recorded.",
        "The drop box has not been counted (no soft count).",
        f"Fill slip {waiting.reference} was asked for, and the cage has not issued it.",
    ])
    expect(table.get_by_role("button", name=re.compile("^Close"))).to_have_count(0)
    # (its opener can be counted again: the one control it offers)
    expect(table.get_by_role("button")).to_have_text(["Recount"])
    # and the shift cannot close while BAC1 is open
    expect(page.locator("[data-missing='shift'] li")).to_have_text(["BAC1 (Main pit) is not closed yet."])
    expect(page.get_by_role("button", name=re.compile("Close the shift"))).to_have_count(0)
    expect(page.locator("[data-field='reconciled']")).to_contain_text("The shift is still running")
    check_screen(screens, page, "closing-shift-missing", ["article.table-close", "ul.missing li"])

    # when the pit and the count team bring the closer and the soft count, the cage voids its fill
    count(floor, CountKind.CLOSER, CLOSER)
    counts.drop_count_record(actor=people.counter, table_id=floor.table.pk, shift_id=floor.shift.pk, cash=60_000,
                             chips=0, markers=20_000, counter_one=sig(people.counter), counter_two=sig(people.counter2))
    slips.slip_void_request(actor=floor.manager, slip_id=waiting.pk, reason="not needed")
    slips.slip_void_approve(actor=floor.accountant, slip_id=waiting.pk)
    page.reload()
    # then nothing is missing, and the figures as they stand are accounting.figures'
    expect(table.locator("[data-field='state']")).to_have_text("Nothing is missing: it can close.")
    standing = table_shift_figures(floor.table, floor.shift)
    assert standing.count_win == figures.count_win(opener=250_000, closer=204_000, fills=50_000, credits=30_000,
                                                   drop=80_000, marker_payments=5_000) == 9_000
    expect(table.locator("[data-field='count_win']")).to_have_text(eur(standing.count_win))
    expect(table.locator("[data-field='variance']")).to_have_text(eur(standing.variance))

    # when they close BAC1, signing with their session
    expect(table).to_contain_text("Signed by you")
    table.get_by_label("Yes, close BAC1: I have checked the figures").check()  # the close is confirmed first
    table.get_by_role("button", name="Close BAC1 for this shift").click()

    # then BAC1 is closed and its fixed figures are the close's, as accounting.figures defines them
    expect(page.get_by_text("BAC1 is closed for the shift: count win €90.00, variance -€1.25.")).to_be_visible()
    close = TableShiftClose.objects.get(table=floor.table, shift=floor.shift)
    assert close.closed_by == floor.manager
    expected = {
        "opener": eur(close.opener_total), "closer": eur(close.closer_total), "fills": eur(close.fills),
        "credits": eur(close.credits), "drop": eur(close.drop), "marker_payments": eur(close.marker_payments),
        "count_win": eur(figures.count_win(opener=close.opener_total, closer=close.closer_total, fills=close.fills,
                                           credits=close.credits, drop=close.drop,
                                           marker_payments=close.marker_payments)),
        "hold": f"{percent_text(figures.hold(close.count_win, close.drop))} %",
        "rounds_win": eur(close.rounds_win), "handle": eur(close.handle),
        "statistical_hold": f"{percent_text(figures.statistical_hold(close.rounds_win, close.handle))} %",
        "pool_change": eur(close.pool_change),
        "variance": eur(figures.variance(close.count_win, close.rounds_win, close.pool_change)),
    }
    assert expected["count_win"] == "€90.00"
    assert expected["variance"] == "-€1.25"
    assert expected["hold"] == "11.25 %"
    for key, text in expected.items():
        expect(table.locator(f"[data-field='{key}']")).to_have_text(text)
    expect(table.locator("[data-field='state']")).to_contain_text("Closed")

    # and the shift can close now: the pit manager closes it (the games' house edges, which the
    # reconciliation run on the close reads, computed beforehand as the job computes them before its lock)
    edges_prepare(Settlement.objects.filter(round__shift=floor.shift))
    expect(page.locator("[data-missing='shift']")).to_have_count(0)
    page.get_by_role("button", name=f"Close the shift {shift_words(floor.shift)}").click()

    # then it is closed, and its reconciliation (run at once here) shows BAC1's one variance and the tolerance
    expect(page.get_by_text("The shift is closed. It has been reconciled")).to_be_visible()
    floor.shift.refresh_from_db()
    assert floor.shift.status == ShiftStatus.CLOSED
    assert floor.shift.closed_by == floor.manager
    result = Reconciliation.objects.get(shift=floor.shift, table=floor.table)
    assert (result.rounds_win, result.count_win, result.variance) == (close.rounds_win, close.count_win, -125)
    row = page.locator("#reconciliation tr[data-table='BAC1']")
    expect(row.locator("[data-field='result']")).to_have_text("Differences found")
    expect(row.locator("[data-field='rounds_win']")).to_have_text(eur(close.rounds_win))
    expect(row.locator("[data-field='count_win']")).to_have_text(eur(close.count_win))
    expect(row.locator("[data-field='variance']")).to_have_text("-€1.25")
    rec = page.locator("#reconciliation article[data-table='BAC1']")
    expect(rec).to_contain_text("The counts and the rounds differ by -€1.25.")
    expect(rec.locator("[data-field='acceptance']")).to_have_text("Within the tolerance of €100.00.")
    expect(page.locator("[data-field='tolerance']")).to_contain_text("under €100.00")
    assert AuditRecord.objects.filter(action="table.shift_close", actor=floor.manager).count() == 1
    assert AuditRecord.objects.filter(action="shift.close", actor=floor.manager).count() == 1
    check_screen(screens, page, "closing-shift-reconciled", ["article.table-close", "article.rec", ".rec-table"])


def test_a_variance_over_the_tolerance_is_accepted_with_a_reason(screens, floor, settings):
    # given a tolerance of 1.00 and BAC1 closed 1.25 short, the shift closed and reconciled
    settings.CROUPIER = {**settings.CROUPIER, "VARIANCE_ALERT": 100}
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    assert ShiftReconciliation.objects.filter(shift=floor.shift).exists()

    # when the pit manager opens the shift
    page = screens.page("pm", at=f"/accounting/shifts/{floor.shift.pk}/")
    rec = page.locator("#reconciliation article[data-table='BAC1']")
    # then the variance is over the tolerance and not accepted yet
    expect(rec.locator("[data-field='acceptance']")).to_have_text("Over the tolerance of €1.00: not accepted yet.")
    # when they accept it, writing why
    rec.get_by_label("Why is the variance of BAC1 accepted?").fill("Chip dropped behind the float; found next shift")
    rec.get_by_role("button", name="Accept the variance of BAC1").click()
    # then who accepted it and why are shown, and stored on the variance's alert
    expect(rec.locator("[data-field='acceptance']")).to_contain_text(
        "by pm: “Chip dropped behind the float; found next shift”")
    alert = Alert.objects.get(kind="variance", shift=floor.shift, table=floor.table)
    assert alert.acknowledged_by == floor.manager
    assert alert.ack_note == "Chip dropped behind the float; found next shift"
    check_screen(screens, page, "closing-variance-accepted", ["article.rec"])

    # and the accountant sees the acceptance, with no form of their own (pit managers accept)
    accountant = screens.page("accountant", at=f"/accounting/shifts/{floor.shift.pk}/")
    expect(accountant.locator("#reconciliation tr[data-table='BAC1'] [data-field='acceptance']")).to_contain_text(
        "Chip dropped")
    expect(accountant.get_by_role("button", name=re.compile("Accept"))).to_have_count(0)


def test_an_accountant_runs_the_reconciliation_nobody_ran(screens, floor):
    # given a shift that ended two days ago with BAC1's opener counted, never closed nor reconciled
    count(floor, CountKind.OPENER, OPENER)
    now = timezone.now()
    type(floor.shift).objects.filter(pk=floor.shift.pk).update(starts_at=now - dt.timedelta(hours=56),
                                                               ends_at=now - dt.timedelta(hours=48))
    assert reconcile.shift_is_due(type(floor.shift).objects.get(pk=floor.shift.pk))
    # and a pit manager asked for it while no job worker was running (the request is on record, the job never ran)
    with transaction.atomic():
        audit_log(actor=floor.manager, action="shift.reconcile_request", object_type="shift", object_id=floor.shift.pk,
                  after={"queued": True})

    # when the accountant goes from their home to the shift
    page = screens.page("accountant", at="/accounting/")
    page.get_by_role("link", name="Shifts: closing and reconciliation").click()
    row = page.locator(f"tr[data-shift='{floor.shift.pk}']")
    expect(row).to_contain_text("not yet")
    row.get_by_role("link").click()
    # then it is not reconciled, and they may run it; they may not close anything (pit managers close)
    expect(page.locator("[data-field='reconciled']")).to_have_text("This shift has not been reconciled yet.")
    expect(page.locator("[data-field='pending']")).to_contain_text(re.compile(r"Asked for .*: waiting 0\xa0minutes"))
    expect(page.get_by_role("button", name=re.compile("^Close"))).to_have_count(0)
    check_screen(screens, page, "closing-reconcile-due")

    # when they run it
    page.get_by_role("button", name="Reconcile the shift now").click()

    # then the job has run (at once here) and its result is shown: BAC1's missing counts in words
    expect(page.get_by_text("The reconciliation has run: the result is below.")).to_be_visible()
    run = ShiftReconciliation.objects.get(shift=floor.shift)
    assert run.status == "variance"
    rec = page.locator("#reconciliation article[data-table='BAC1']")
    expect(rec.locator("h3")).to_have_text("BAC1: Differences found")
    expect(rec).to_contain_text("A count was missing: the closing chip count.")
    expect(rec).to_contain_text("A count was missing: the soft count of the drop.")
    expect(rec.locator("[data-field='acceptance']")).to_have_text("No count win: a count was missing.")
    assert AuditRecord.objects.filter(action="shift.reconcile_request", actor=floor.accountant,
                                      object_id=str(floor.shift.pk)).count() == 1
    # and it is written once: the button is gone
    expect(page.get_by_role("button", name="Reconcile the shift now")).to_have_count(0)


def test_an_accountant_exports_a_report_as_xlsx_from_the_screen(screens, floor):
    # given BAC1's worked shift, closed
    work_the_shift(floor)
    close = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)

    # when the accountant opens the reports and narrows the revenue report to BAC1, by table
    page = screens.page("accountant")
    page.get_by_role("link", name="Reports on screen, and exports").click()
    page.get_by_role("link", name="Table games revenue").click()
    page.get_by_label("Table", exact=True).select_option(str(floor.table.pk))
    page.get_by_label("Rows", exact=True).select_option("table")
    page.get_by_role("button", name="Show").click()

    # then the figures are on screen, the close's (once the narrowed report has loaded)
    expect(page.locator("[data-field='summary']")).to_contain_text("table BAC1, by table")
    figures_table = page.locator("table.report-figures")
    expect(figures_table.locator("thead th", has_text="Count win (EUR)")).to_have_count(1)
    headers = [h.strip() for h in figures_table.locator("thead th").all_text_contents()]
    col = headers.index("Count win (EUR)")
    first = figures_table.locator("tbody tr").first.locator("th, td")  # the first column is the row's header
    on_screen = first.nth(col).text_content()
    assert on_screen == money_text(close.count_win, grouping=True) == "90.00"
    check_screen(screens, page, "reports-revenue", [".report-tabs a", "form.filters .filter"])

    # when they export it as XLSX
    page.get_by_role("button", name="Export as XLSX (Excel)").click()

    # then the export is listed as ready (the job ran at once here), with its download
    item = page.locator("#exports li").first
    expect(item).to_have_attribute("data-status", "done")
    expect(item).to_contain_text("Ready: waited")
    export = ReportExport.objects.get(requested_by=floor.accountant)
    assert (export.report, export.format, export.status) == ("revenue", "xlsx", ExportStatus.DONE)
    assert export.filters == {"table": floor.table.pk, "group": "table"}
    with page.expect_download() as info:
        item.get_by_role("link", name="Download Table games revenue (XLSX (Excel))").click()
    download = info.value
    assert download.suggested_filename == "revenue.xlsx"

    # and the file's count win is the screen's
    from openpyxl import load_workbook

    with open(download.path(), "rb") as file:
        sheet = load_workbook(io.BytesIO(file.read()), read_only=True).active
    rows = list(sheet.iter_rows(values_only=True))
    assert "Covers: Closed table shifts only" in str(rows[0][0])  # the file opens with what the report covers
    at = next(i for i, row in enumerate(rows) if "Count win (EUR)" in row)  # then its header row
    assert rows[at][col] == "Count win (EUR)"
    assert rows[at + 1][0] == "BAC1"
    assert Decimal(rows[at + 1][col]).quantize(Decimal("0.01")) == Decimal(on_screen.replace(",", ""))
    assert AuditRecord.objects.filter(action="export", actor=floor.accountant, object_id="revenue.xlsx").count() == 1


def test_a_queued_export_shows_how_long_it_has_waited_and_its_progress_follows(screens, floor):
    # given an export waiting for a worker for three minutes
    export = ReportExport.objects.create(report="variance", format="pdf", requested_by=floor.accountant,
                                         status=ExportStatus.QUEUED,
                                         created_at=timezone.now() - dt.timedelta(minutes=3))
    # when the accountant opens the reports
    page = screens.page("accountant", at="/accounting/reports/?report=variance")
    # then it is waiting, for how long, and the list follows it
    item = page.locator(f"#exports li[data-export='{export.pk}']")
    expect(item).to_contain_text("Variance report as PDF")
    expect(item).to_contain_text("Waiting to start, for 3\xa0minutes")
    expect(page.locator("#exports")).to_have_attribute("data-polling", "yes")
    check_screen(screens, page, "reports-export-queued", ["#exports li"])
    # when a worker picks it up and writes 40 %
    ReportExport.objects.filter(pk=export.pk).update(status=ExportStatus.RUNNING, progress=40, rows_done=4,
                                                      rows_total=10, started_at=timezone.now())
    # then the screen shows it without a reload
    expect(item).to_contain_text("Being written: 40 % (4 of 10 rows), after waiting 3\xa0minutes")
    expect(item.locator("progress")).to_have_attribute("value", "40")


def test_who_may_do_what_on_the_closing_screens(screens, floor):
    # given BAC1's shift under way: its opener counted
    count(floor, CountKind.OPENER, OPENER)
    shift_url = f"/accounting/shifts/{floor.shift.pk}/"

    # a dealer is refused every screen
    page = screens.page("dealer")
    response = page.goto("/accounting/shifts/")
    assert response.status == 403
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    assert axe_violations(page) == []
    dealer = Client()
    dealer.force_login(floor.dealer)
    for url in (shift_url, "/accounting/reports/", "/accounting/reports/exports/"):
        assert dealer.get(url).status_code == 403

    # the auditor reads the shift, with no button to close, reconcile or accept; the reports are not theirs
    page = screens.page("auditor", at=shift_url)
    expect(page.locator("article[data-table='BAC1'] [data-field='opener']")).to_have_text("€2,500.00")
    expect(page.locator("main form")).to_have_count(0)
    auditor = Client()
    auditor.force_login(floor.auditor)
    assert auditor.get("/accounting/reports/").status_code == 403

    # the other pit's manager does not see BAC1
    page = screens.page("pm2", at=shift_url)
    expect(page.locator("article[data-table='BAC1']")).to_have_count(0)
    expect(page.get_by_text("1 more table of other pits is not shown.")).to_be_visible()

    # and the actions refuse them too, writing nothing
    for user, status in ((floor.dealer, 403), (floor.auditor, 403), (floor.accountant, 403)):
        client = Client()
        client.force_login(user)
        response = client.post(f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/")
        assert response.status_code == status
        assert client.post(f"/accounting/shifts/{floor.shift.pk}/close/").status_code == 403
    client = Client()
    client.force_login(floor.other_manager)
    response = client.post(f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/", follow=True)
    assert "Only a pit manager of that table&#x27;s pit may do this." in response.content.decode()
    client = Client()
    client.force_login(floor.auditor)
    assert client.post(f"/accounting/shifts/{floor.shift.pk}/reconcile/").status_code == 403
    assert client.post("/accounting/reports/export/", {"report": "revenue", "format": "csv"}).status_code == 403
    assert not TableShiftClose.objects.exists()
    assert not ReportExport.objects.exists()
    assert type(floor.shift).objects.get(pk=floor.shift.pk).status == ShiftStatus.OPEN
