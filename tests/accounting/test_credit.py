"""Markers as credit (issue 29): a player's credit line approved by someone with the authority for its amount,
a marker refused over the line in words (nothing written), and what is owed by age on screen and in exports."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, transaction
from django.test import Client
from django.utils import timezone

from accounting.models import CreditLine, LedgerTransaction, Marker
from accounting.reports import Filters
from accounting.reports.definitions import MarkerAgingReport, aging_bucket
from accounting.services import credit, slips
from tests.accounting.helpers import sig, staff
from tests.fixtures import as_user

URL = "/api/accounting"


def line(floor, player="Ms Lee", limit=100_000, approver=None):
    approver = approver or floor.manager
    return as_user(approver).post(f"{URL}/credit-lines/", {"player": player, "limit": limit,
                                                           "approver": {"username": approver.username}},
                                  format="json")


def marker_body(floor, amount, player="Ms Lee"):
    return {"table": floor.table.pk, "shift": floor.shift.pk, "player": player, "amount": amount,
            "supervisor": {"username": floor.manager.username}, "dealer": sig(floor.dealer)}


def test_who_may_approve_what(floor):
    # a pit manager approves a line up to 5 000.00, an accountant up to 50 000.00 (the settings' defaults)
    assert line(floor, limit=500_000).status_code == 201
    over = line(floor, limit=500_001)
    assert (over.status_code, over.json()["error"]["code"]) == (403, "over_approval_limit")
    assert over.json()["error"]["message"] == (
        "approver: pm approves credit lines up to €5,000.00; a line of €5,000.01 needs someone with that authority")
    assert line(floor, limit=5_000_000, approver=floor.accountant).status_code == 201
    assert line(floor, limit=5_000_001, approver=floor.accountant).status_code == 403
    # a dealer or an auditor approves none; the admin any
    assert line(floor, limit=100, approver=floor.dealer).status_code == 403
    assert line(floor, limit=100_000_000, approver=floor.admin).status_code == 201
    # each approval is kept; the latest is the line in force
    assert [c.limit for c in CreditLine.objects.order_by("id")] == [500_000, 5_000_000, 100_000_000]
    assert credit.credit_line_of("ms lee").limit == 100_000_000


def test_a_marker_over_the_line_is_refused_in_words_and_nothing_is_written(floor):
    assert line(floor, limit=100_000).status_code == 201  # 1 000.00
    manager = as_user(floor.manager)
    assert manager.post(f"{URL}/markers/", marker_body(floor, 60_000), format="json").status_code == 201
    before = (Marker.objects.count(), LedgerTransaction.objects.count())
    # when a second marker would take her past the line
    over = manager.post(f"{URL}/markers/", marker_body(floor, 50_000, player="MS LEE"), format="json")
    # then refused, saying the line, what is owed and by how much it is over
    assert over.status_code == 409
    assert over.json()["error"]["code"] == "over_credit_line"
    assert over.json()["error"]["message"] == (
        "MS LEE's credit line is €1,000.00 and €600.00 is owed: a marker of €500.00 would be €100.00 over it")
    assert (Marker.objects.count(), LedgerTransaction.objects.count()) == before
    # a payment frees the line again
    first = Marker.objects.get()
    slips.marker_pay(actor=floor.manager, marker_id=first.pk, amount=10_000, at_table=True, signer=sig(floor.dealer))
    assert manager.post(f"{URL}/markers/", marker_body(floor, 50_000), format="json").status_code == 201
    assert credit.owed_by("Ms Lee") == 100_000


def test_a_player_without_a_line_takes_no_marker_when_the_house_says_so(floor, settings):
    settings.CROUPIER = {**settings.CROUPIER, "MARKER_NEEDS_CREDIT_LINE": True}
    refused = as_user(floor.manager).post(f"{URL}/markers/", marker_body(floor, 1_000, player="Mr Roe"),
                                          format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "no_credit_line")
    assert refused.json()["error"]["message"].startswith("Mr Roe has no credit line")
    assert Marker.objects.count() == 0


def test_a_credit_line_is_never_changed_in_the_database(floor):
    assert line(floor).status_code == 201
    with pytest.raises(DatabaseError), transaction.atomic():
        CreditLine.objects.update(limit=10**9)
    assert CreditLine.objects.get().limit == 100_000


def test_aging_buckets_and_the_report(floor):
    assert [aging_bucket(d) for d in (0, 30, 31, 60, 61, 90, 91, 400)] == [0, 0, 1, 1, 2, 2, 3, 3]
    people = staff(floor)
    issued = [slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                 player=f"P{n}", amount=10_000 * (n + 1), supervisor={"username": "pm"},
                                 dealer=sig(floor.dealer)) for n in range(4)]
    slips.marker_pay(actor=people.cashier, marker_id=issued[1].pk, amount=5_000, at_table=False,
                     signer={"username": "cashier"})
    slips.marker_write_off(actor=floor.accountant, marker_id=issued[3].pk, reason="gone abroad",
                           accountant={"username": "accountant"}, second=sig(floor.manager))
    today = timezone.localdate()
    # as of today, 45, 75 and 120 days on, what is owed (issued, less paid, less written off) is in that age's column
    owed = {issued[0].reference: 10_000, issued[1].reference: 15_000, issued[2].reference: 30_000}
    for days, column in ((0, 0), (30, 0), (45, 1), (75, 2), (90, 2), (120, 3)):
        rows = list(MarkerAgingReport(Filters(date_to=today + dt.timedelta(days=days))).rows())
        assert {r[0]: r[6] for r in rows} == owed, days
        for row in rows:
            assert row[4] == days
            assert row[7:] == tuple(row[6] if i == column else None for i in range(4)), (days, row)
    # as of the day before they were issued, nothing was owed yet
    assert list(MarkerAgingReport(Filters(date_to=today - dt.timedelta(days=1))).rows()) == []
    # in the exports: the CSV carries the age columns and the total owed
    csv = as_user(floor.accountant).get(f"{URL}/reports/marker_aging/", {"format": "csv"})
    assert csv.status_code == 200
    text = b"".join(csv.streaming_content if csv.streaming else [csv.content]).decode("utf-8-sig")
    assert "Owed 0–30 days (EUR)" in text
    assert text.splitlines()[-1].startswith("TOTAL")
    assert ",550.00," in text.splitlines()[-1]
    # on the markers screen, by age
    browser = Client()
    browser.force_login(floor.manager)
    page = browser.get("/accounting/cage/markers/").content.decode()
    assert "What is owed, by age" in page
    assert page.count("€550.00") >= 2  # 0–30 days and the total
