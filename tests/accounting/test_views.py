"""The accountant's page renders the reports, closes and alerts; others are turned away."""

from __future__ import annotations

from django.test import Client

from accounting.services import alerts, shifts
from tests.accounting.test_worked_shift import work_the_shift


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_accounting_page_shows_downloads_closes_and_alerts(floor):
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    alerts.alert_raise(
        kind="large_bet", severity="warning", message="large bet 5000.00", dedupe_key="x", table=floor.table
    )
    page = signed_in(floor.accountant).get("/accounting/", {"table": floor.table.pk})
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/api/accounting/reports/revenue/?table={floor.table.pk}&amp;format=csv" in html
    assert "11.25" in html
    assert "-1.25" in html
    assert "large bet 5000.00" in html


def test_only_accountants_see_the_accounting_page(floor):
    for user in (floor.manager, floor.dealer, floor.auditor):
        assert signed_in(user).get("/accounting/").status_code == 403
    assert Client().get("/accounting/").status_code == 302  # to the login page
