"""The closing and reports screens' refusals, in the user's words, and what they leave in the records
(accounting/views/closes.py; the flows from signing in are tests/browser/test_close_flows.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounting.models import ExportStatus, ReportExport, ShiftReconciliation, TableShiftClose
from accounting.services import exports, shifts
from accounting.views.closes import REFUSALS, refusal_text
from casino.core.roles import Role
from casino.errors import InvalidInput
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.accounting.test_worked_shift import work_the_shift
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_is_a_sentence_without_codes(code):
    text = REFUSALS[code]
    assert text.endswith(".")
    assert "_" not in text
    assert "POST" not in text
    assert "API" not in text


def test_a_filter_refusal_names_the_filter_in_words():
    assert refusal_text(InvalidInput("date_from is after date_to", code="bad_filter", field="date_from")) == (
        "The start date is after the end date.")
    assert refusal_text(InvalidInput("no table 9", code="unknown_table", field="table")) == "There is no such table."
    assert refusal_text(InvalidInput("x", code="unsupported_filter", field="dealer")) == (
        "This report cannot be narrowed by dealer.")


def test_closing_a_closed_table_again_says_so_and_keeps_one_close(floor):
    # given BAC1 closed
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    # when the close is sent again (a second tab, a double tap)
    response = signed_in(floor.manager).post(
        f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/", {"confirm": "yes"}, follow=True)
    # then the screen says it is already closed, and there is still one close
    assert "BAC1: That table is already closed for this shift." in page_text(response)
    assert TableShiftClose.objects.filter(table=floor.table, shift=floor.shift).count() == 1


def test_a_table_with_something_missing_is_not_closed_and_the_screen_says_what(floor):
    response = signed_in(floor.manager).post(
        f"/accounting/shifts/{floor.shift.pk}/tables/{floor.table.pk}/close/", {"confirm": "yes"}, follow=True)
    assert "BAC1: It cannot close yet: opening inventory count; closing inventory count; soft count of the drop." in (
        page_text(response))
    assert not TableShiftClose.objects.exists()


def test_a_shift_still_running_is_not_reconciled_on_demand(floor):
    response = signed_in(floor.accountant).post(f"/accounting/shifts/{floor.shift.pk}/reconcile/", follow=True)
    assert "This shift is still running: it is reconciled once it is closed or has ended." in page_text(response)
    assert not ShiftReconciliation.objects.exists()


def test_an_export_in_an_unknown_format_is_refused_in_words(floor):
    response = signed_in(floor.accountant).post("/accounting/reports/export/", {"report": "revenue", "format": "docx"},
                                                follow=True)
    assert "The export did not start. Choose CSV, XLSX or PDF." in page_text(response)
    assert not ReportExport.objects.exists()


def test_an_export_is_downloaded_by_whoever_asked_for_it_only(floor, django_capture_on_commit_callbacks):
    # given the accountant's CSV export, written (jobs run at once in the tests, once the request commits)
    with django_capture_on_commit_callbacks(execute=True):
        export = exports.export_request(actor=floor.accountant, report="revenue", fmt="csv", filters={})
    export.refresh_from_db()
    assert export.status == ExportStatus.DONE
    url = f"/accounting/reports/exports/{export.pk}/download/"
    # then they download it
    response = signed_in(floor.accountant).get(url)
    assert response.status_code == 200
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[0].startswith('"Table games revenue. Covers: Closed table shifts only')
    assert lines[1].startswith("Gaming date,Shift,Table shifts,")
    # and another accountant does not even learn that it exists
    other = UserFactory(username="accountant2", roles=[Role.ACCOUNTANT])
    assert signed_in(other).get(url).status_code == 404


def test_a_report_with_a_reversed_date_range_shows_why_and_no_figures(floor):
    response = signed_in(floor.accountant).get("/accounting/reports/?report=revenue&date_from=2026-02-01&date_to=2026-01-01")
    text = page_text(response)
    assert response.status_code == 200
    assert "The start date is after the end date." in text
    assert "Export as CSV" not in text


def test_a_report_too_long_for_the_screen_is_cut_and_points_to_the_export(floor, settings):
    # given a screen limit of one row and a round with three bets
    settings.CROUPIER = {**settings.CROUPIER, "EXPORT_SYNC_MAX_ROWS": 1}
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000), (3, "tie", 500)], BANKER_WINS)
    # when the accountant shows the settled bets
    text = page_text(signed_in(floor.accountant).get("/accounting/reports/?report=bets"))
    # then the screen stops reading after the limit, says so, and shows no total it did not compute
    assert ("More than 1 rows · no filter: every gaming date, every table · the first 100 are shown here; narrow "
            "the filters, or export it") in text
    assert "Total" not in text
    assert "Export as XLSX (Excel)" in text


def test_a_report_on_screen_says_what_it_covers_and_refuses_a_filter_it_does_not_take(floor):
    # given a round played at the floor's table, its shift still open
    play_round(floor.table, floor.dealer, [(1, "banker", 2500)], BANKER_WINS)
    client = signed_in(floor.accountant)
    # when the accountant opens the revenue report while the floor's table shift is still open
    text = page_text(client.get("/accounting/reports/?report=revenue"))
    # then its header says it counts closed table shifts only, and that one is not yet counted
    assert "Covers: Closed table shifts only" in text
    assert "Not yet counted: 1 table shift still open." in text
    # and a filter the report does not take is refused in words, no figures shown
    refused = client.get(f"/accounting/reports/?report=revenue&dealer={floor.dealer.username}")
    assert "This report cannot be narrowed by dealer." in page_text(refused)
    assert "Export as CSV" not in page_text(refused)


def test_a_report_screen_shows_words_not_codes_with_the_other_columns_one_tap_away(floor):
    # given a settled round
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000)], BANKER_WINS)
    response = signed_in(floor.accountant).get("/accounting/reports/?report=bets")
    html = response.content.decode()
    # then the screen's columns are shown, the rest marked extra behind "All columns"
    assert 'id="all-columns"' in html
    header = response.context["header"]
    assert [h for h, _num, extra in header if not extra] == [
        "Settled", "Table", "Round", "Type", "Stake as placed (EUR)", "Result", "Player net (EUR)"]
    # and cells are words: bet types and results, the dealer by name, times without a Z
    rows = [[v for v, _n, _e in r] for r in response.context["rows"]]
    assert {r[6] for r in rows} == {"Banker", "Player"}
    assert {r[8] for r in rows} <= {"Won", "Lost", "Push"}
    assert all("T" not in r[0] and not r[0].endswith("Z") for r in rows)


def test_the_accounting_pages_closed_shifts_follow_its_filters_and_page(floor):
    # given the floor's table worked and closed for its shift
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    client = signed_in(floor.accountant)
    everything = client.get("/accounting/")
    assert [c["table"] for c in everything.context["closes"]] == [floor.table.code]
    # when the page is filtered to another pit's table, or to days before the shift, the list follows
    other = client.get(f"/accounting/?date_to={floor.shift.gaming_date.replace(year=2000)}")
    assert other.context["closes"] == []
    assert "No closed table shift matches these filters." in page_text(other)
    assert client.get("/accounting/?page=2").status_code == 200
