"""Every report downloads in every format, and its totals match the ledger (the worked shift)."""

from __future__ import annotations

import csv
import io
import subprocess
import tempfile

import pytest
from openpyxl import load_workbook

from accounting.models import ExportStatus, ReportExport
from accounting.reports import REPORTS, Filters, csv_chunks, get_report
from accounting.selectors import ledger_sum
from accounting.services import reconcile, shifts
from casino.audit.models import AuditRecord
from tests.accounting.test_worked_shift import work_the_shift
from tests.fixtures import as_user

REVENUE = ["table:BAC1:win", "table:BAC1:commission", "table:BAC1:rake", "table:BAC1:variance", "table:BAC1:pool"]


@pytest.fixture
def worked(floor):
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    reconcile.reconcile_shift(shift_id=floor.shift.pk)
    return floor


def minor(text: str) -> int:
    """'-91.25' → -9125, exactly."""
    sign = -1 if text.startswith("-") else 1
    whole, _, part = text.lstrip("-").partition(".")
    return sign * (int(whole) * 100 + int(part or 0))


def pdf_text(body: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(body)
        f.flush()
        return subprocess.run(["pdftotext", "-layout", f.name, "-"], capture_output=True, text=True, check=True).stdout


def download(client, name: str, fmt: str, **filters) -> bytes:
    response = client.get(f"/api/accounting/reports/{name}/", {"format": fmt, **filters})
    assert response.status_code == 200, getattr(response, "content", b"")[:300]
    return b"".join(response.streaming_content) if response.streaming else b"".join(response)


def total_row(client, name: str, **filters) -> dict[str, str]:
    rows = list(csv.reader(io.StringIO(download(client, name, "csv", **filters).decode("utf-8-sig"))))
    assert rows[-1][0] == "TOTAL"
    return dict(zip(rows[1], rows[-1]))  # rows[0]: the preamble (what the report covers)


@pytest.mark.parametrize("name", sorted(REPORTS))
@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf", "json"])
def test_each_report_downloads_in_each_format(worked, name, fmt):
    # given the worked shift; when each report is taken in each format
    client = as_user(worked.accountant)
    date = str(worked.shift.gaming_date)
    body = download(client, name, fmt, date_from=date)
    report = get_report(name, Filters(date_from=worked.shift.gaming_date))
    scope = report.scope_text()
    # then each copy says what the report covers, its filters in words, the currency and the time zone
    if fmt == "csv":
        assert body.startswith("\ufeff".encode())  # a byte order mark: spreadsheet tools read UTF-8
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
        assert rows[0] == [report.preamble(machine=True)]
        assert "no thousands separator (1234.56)" in rows[0][0]  # the figures' form said
        assert f"Covers: {scope}" in rows[0][0]
        assert f"gaming dates {date} to today" in rows[0][0]
        assert rows[1] == report.header()
        assert rows[-1][0] == "TOTAL"
    elif fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(body), read_only=True).active
        rows = list(sheet.iter_rows(values_only=True))
        assert rows[0][0] == report.preamble()
        assert list(rows[1]) == report.header()
        assert rows[-1][0] == "TOTAL"
    elif fmt == "pdf":
        assert body.startswith(b"%PDF-")
        assert body.rstrip().endswith(b"%%EOF")
        text = " ".join(pdf_text(body).split())
        assert f"Covers: {scope}" in text
        assert "Amounts in EUR; times in" in text
    else:
        import json

        data = json.loads(body)
        assert data["report"] == name
        assert data["scope"] == scope
        assert data["preamble"] == report.preamble()
    assert AuditRecord.objects.filter(action="export", object_id=f"{name}.{fmt}").count() == 1


def test_revenue_totals_match_the_ledger(worked):
    client = as_user(worked.accountant)
    total = total_row(client, "revenue", group="table")
    win = -ledger_sum(codes=REVENUE, table=worked.table, shift=worked.shift)
    assert minor(total["Count win (EUR)"]) == win == 9_000
    assert minor(total["Commission (in rounds win) (EUR)"]) == -ledger_sum(codes=["table:BAC1:commission"]) == 125
    assert minor(total["Variance (count win − rounds win − pool change) (EUR)"]) == -ledger_sum(
        codes=["table:BAC1:variance"]) == -125
    assert minor(total["Drop (EUR)"]) == 80_000
    assert total["Hold % (count win ÷ drop)"] == "11.25"
    assert minor(total["Marker payments at the table (out of count win) (EUR)"]) == 5_000
    assert minor(total["Rounds win (EUR)"]) == -ledger_sum(codes=REVENUE[:3], table=worked.table, kinds=["round"])


def test_fills_and_credits_totals_match_the_ledger(worked):
    total = total_row(as_user(worked.accountant), "fills_credits")
    assert minor(total["Fills posted (EUR)"]) == -ledger_sum(codes=["cage"], kinds=["fill"]) == 50_000
    assert minor(total["Credits posted (EUR)"]) == ledger_sum(codes=["cage"], kinds=["credit"]) == 30_000


def test_variance_report_totals_match_the_ledger(worked):
    total = total_row(as_user(worked.accountant), "variance")
    assert minor(total["Variance (count win − rounds win − pool change) (EUR)"]) == -ledger_sum(
        codes=["table:BAC1:variance"]) == -125
    assert minor(total["Count win (EUR)"]) == -ledger_sum(codes=REVENUE) == 9_000


def test_dealer_and_bets_totals_match_the_ledger(worked):
    client = as_user(worked.accountant)
    rounds_win = -ledger_sum(codes=REVENUE[:3], kinds=["round"])
    dealers = total_row(client, "dealers")
    assert minor(dealers["Rounds win (house net) (EUR)"]) == rounds_win == 9_125
    assert (dealers["Rounds"], minor(dealers["Handle (EUR)"])) == ("2", 14_000)
    bets = total_row(client, "bets")
    assert -minor(bets["Player net (EUR)"]) == ledger_sum(codes=["table:BAC1:tray"], kinds=["round"]) == 9_125
    assert minor(bets["Commission (EUR)"]) == 125
    hold = total_row(client, "statistical_hold")
    assert minor(hold["Rounds win (EUR)"]) == rounds_win
    assert minor(hold["Handle (EUR)"]) == 14_000


def test_large_transactions_above_the_threshold_match_the_ledger(worked):
    # each kind of amount has its column and its own total: stakes are never added to markers or slips
    total = total_row(as_user(worked.accountant), "large_transactions", threshold="10000")
    assert minor(total["Stake (EUR)"]) == 10_000
    assert minor(total["Player net (EUR)"]) == -10_000
    assert minor(total["Marker (EUR)"]) == ledger_sum(codes=["markers"], kinds=["marker"]) == 20_000
    assert minor(total["Fill (EUR)"]) == -ledger_sum(codes=["cage"], kinds=["fill"]) == 50_000
    assert minor(total["Credit (EUR)"]) == ledger_sum(codes=["cage"], kinds=["credit"]) == 30_000


def test_the_copy_stream_and_the_python_writer_give_the_same_bytes(worked):
    report = get_report("bets", Filters())
    assert b"".join(csv_chunks(report)) == b"".join(csv_chunks(report, use_copy=False))
    filtered = get_report("bets", Filters(table=worked.table.pk, dealer="dealer", date_from=worked.shift.gaming_date))
    assert b"".join(csv_chunks(filtered)) == b"".join(csv_chunks(filtered, use_copy=False))


def test_bad_filters_are_400_and_reports_are_for_accountants(worked):
    client = as_user(worked.accountant)
    bad = client.get("/api/accounting/reports/revenue/", {"format": "csv", "date_from": "yesterday"})
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "date_from"
    assert client.get("/api/accounting/reports/revenue/", {"group": "moon"}).json()["error"]["field"] == "group"
    assert client.get("/api/accounting/reports/nope/").status_code == 404
    for user in (worked.manager, worked.dealer, worked.auditor, worked.nobody):
        assert as_user(user).get("/api/accounting/reports/revenue/", {"format": "csv"}).status_code == 403
    assert AuditRecord.objects.filter(action="export").count() == 0


def test_large_xlsx_runs_as_a_job_with_progress_and_a_download_link(
    worked, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    settings.CROUPIER = {**settings.CROUPIER, "EXPORT_SYNC_MAX_ROWS": 1}
    client = as_user(worked.accountant)
    # given a report too large to build in the request
    refused = client.get("/api/accounting/reports/bets/", {"format": "xlsx"})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "export_too_large"
    # when the accountant asks for the export job
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(
            "/api/accounting/exports/",
            {"report": "bets", "format": "xlsx", "filters": {"table": worked.table.pk}},
            format="json",
        )
    assert asked.status_code == 202, asked.json()
    # then the job ran: done, 100 %, 4 rows, and the file downloads
    export = client.get(f"/api/accounting/exports/{asked.json()['id']}/").json()
    assert (export["status"], export["progress"], export["rows_total"]) == ("done", 100, 4)
    file = client.get(export["download"])
    assert file.status_code == 200
    rows = list(
        load_workbook(io.BytesIO(b"".join(file.streaming_content)), read_only=True).active.iter_rows(values_only=True)
    )
    assert len(rows) == 1 + 1 + 4 + 1  # the preamble, the header, the rows, the TOTAL
    assert rows[-1][0] == "TOTAL"
    assert float(rows[-1][7]) == 140.0
    # a finished export is not written again when the job is delivered twice
    from accounting.services.exports import export_run

    again = export_run(export_id=export["id"])
    assert again.status == ExportStatus.DONE
    assert again.file.name == ReportExport.objects.get().file.name
    # others may not fetch it
    assert as_user(worked.manager).get(export["download"]).status_code == 403
