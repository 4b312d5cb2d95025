"""Reports as documents and as an API: filters refused before a byte is written, in every format; the PDF
an accountant prints (header, page numbers, aligned columns, every name in its own script); formula cells
neutralised in every CSV and XLSX (the audit trail's too); the API's edges (401, JSON 404, a favicon)."""

from __future__ import annotations

import csv
import io
import re
import subprocess

import pytest
from django.test import Client
from django.utils.formats import date_format
from openpyxl import load_workbook

from accounting.reports import REPORTS
from accounting.services import shifts, slips
from casino.audit import offline
from casino.audit.models import AuditRecord
from tests.accounting.helpers import sig
from tests.accounting.test_worked_shift import work_the_shift
from tests.fixtures import as_user

FORMATS = ["json", "csv", "xlsx", "pdf"]
NAMES = "Zoë Łukasz 王伟"
FORMULA = '=HYPERLINK("http://evil.example/x","Pay here")'


@pytest.fixture
def worked(floor):
    work_the_shift(floor)
    for player, amount in ((NAMES, 600_000), (FORMULA, 700_000)):
        slips.marker_issue(
            actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk, player=player, amount=amount,
            supervisor=sig(floor.manager), dealer=sig(floor.dealer),
        )
    return floor


def get(client, name: str, fmt: str, **params):
    return client.get(f"/api/accounting/reports/{name}/", {"format": fmt, **params})


def body(answer) -> bytes:
    return b"".join(answer.streaming_content) if answer.streaming else b"".join(answer)


def pdf_text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


# -- filters ----------------------------------------------------------------------------------------

BAD = [
    ("revenue", {"table": "999999"}, "table", "unknown_table"),
    ("revenue", {"table": "BAC1"}, "table", "bad_filter"),  # a table is named by its id, as everywhere
    ("revenue", {"shift": "999999"}, "shift", "unknown_shift"),
    ("revenue", {"pit": "nopit"}, "pit", "unknown_pit"),
    ("revenue", {"game": "snap"}, "game", "unknown_game"),
    ("dealers", {"dealer": "ghost"}, "dealer", "unknown_dealer"),
    ("revenue", {"dealer": "dealer"}, "dealer", "unsupported_filter"),  # revenue is not per dealer
    ("revenue", {"colour": "red"}, "colour", "unknown_filter"),
    ("revenue", {"group": "moon"}, "group", "bad_filter"),
    ("fills_credits", {"kind": "bogus"}, "kind", "bad_filter"),
    ("bets", {"date_from": "yesterday"}, "date_from", "bad_filter"),
    ("bets", {"date_from": "2026-03-02", "date_to": "2026-03-01"}, "date_from", "bad_filter"),
    ("large_transactions", {"threshold": "-5"}, "threshold", "bad_filter"),
    ("statistical_hold", {"table": "0x1"}, "table", "bad_filter"),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("name", "params", "field", "code"), BAD)
def test_a_bad_filter_is_a_400_naming_it_in_every_format_and_nothing_is_exported(
    floor, name, params, field, code, fmt
):
    answer = get(as_user(floor.accountant), name, fmt, **params)
    assert answer.status_code == 400, body(answer)[:200]
    assert answer["Content-Type"] == "application/json"
    error = answer.json()["error"]
    assert (error["field"], error["code"]) == (field, code)
    assert not AuditRecord.objects.filter(action="export").exists()


@pytest.mark.parametrize("fmt", ["docx", "CSV", "html"])
def test_an_unknown_format_is_a_400_naming_the_format(floor, fmt):
    answer = get(as_user(floor.accountant), "revenue", fmt)
    assert answer.status_code == 400
    assert (answer.json()["error"]["field"], answer.json()["error"]["code"]) == ("format", "bad_format")


def test_players_and_slots_reports_refuse_the_same_way(floor):
    accountant = as_user(floor.accountant)
    answer = accountant.get("/api/players/reports/ratings/", {"format": "csv", "table": "999999"})
    assert (answer.status_code, answer.json()["error"]["field"]) == (400, "table")
    answer = accountant.get("/api/players/reports/ratings/", {"format": "csv", "group": "day"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "unsupported_filter")
    answer = accountant.get("/api/slots/reports/slot_hold/", {"format": "pdf", "machine": "NOPE-9"})
    assert (answer.status_code, answer.json()["error"]["field"]) == (400, "machine")
    answer = accountant.get("/api/slots/reports/slot_liabilities/", {"format": "csv", "date_from": "2026-01-01"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "unsupported_filter")
    assert accountant.get("/api/slots/reports/slot_hold/", {"format": "docx"}).status_code == 400


def test_the_statistical_hold_endpoint_names_a_table_by_id(worked):
    accountant = as_user(worked.accountant)
    [row] = accountant.get("/api/accounting/statistical-hold/", {"table": worked.table.pk}).json()
    assert (row["table"], row["handle"], row["win"], row["statistical_hold"]) == ("BAC1", 14_000, 9_125, "73/112")
    refused = accountant.get("/api/accounting/statistical-hold/", {"table": "BAC1"})
    assert (refused.status_code, refused.json()["error"]["field"]) == (400, "table")


def test_a_large_export_job_refuses_a_bad_filter_when_asked_not_in_the_job(floor):
    answer = as_user(floor.accountant).post(
        "/api/accounting/exports/", {"report": "fills_credits", "format": "csv", "filters": {"kind": "bogus"}},
        format="json", HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert (answer.status_code, answer.json()["error"]["field"]) == (400, "kind")


# -- documents ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_each_pdf_has_a_header_page_numbers_and_right_aligned_figures(worked, name):
    text = pdf_text(body(get(as_user(worked.accountant), name, "pdf", date_from=str(worked.shift.gaming_date))))
    assert "Croupier — " in text
    flat = " ".join(text.split())
    assert f"Filters: gaming dates {date_format(worked.shift.gaming_date, 'DATE_FORMAT')} to today" in flat
    assert "Covers: " in flat
    assert "Amounts in EUR; times in UTC." in flat
    assert re.search(r"Generated \d\d/\d\d/\d{4} \d\d:\d\d:\d\d by accountant\.", flat)  # English's short date
    assert re.search(r"Page 1 of \d+", text)
    assert "TOTAL" in text


def test_the_pdf_prints_every_name_and_aligns_the_columns(worked):
    client = as_user(worked.accountant)
    text = pdf_text(body(get(client, "large_transactions", "pdf", threshold="10000")))
    assert NAMES in text  # Latin with diacritics and Chinese, in embedded fonts
    assert "■" not in text
    lines = [ln for ln in text.splitlines() if re.match(r"\s*\d\d/\d\d/\d{4}", ln)]  # a row starts with its time
    assert len(lines) >= 5
    # the markers' amounts end at one column: the figures are right-aligned
    ends = {m.end() for ln in lines if "Marker" in ln for m in [re.search(r"\d[\d,]*\.\d\d(?!.*\d\.\d\d)", ln)] if m}
    assert len(ends) == 1, lines
    assert "6,000.00" in text
    assert "7,000.00" in text
    shifts.table_shift_close(actor=worked.manager, table_id=worked.table.pk, shift_id=worked.shift.pk)
    data = body(get(client, "revenue", "pdf", group="table"))
    revenue = pdf_text(data)
    assert [ln.split()[0] for ln in revenue.splitlines() if ln.strip().startswith(("BAC1", "TOTAL"))] == [
        "BAC1", "TOTAL"]
    # each figure of the table's row ends where the TOTAL's does, to the point (pdftotext -bbox gives each
    # word's box; -layout's grid of characters rounds a bold row by a character)
    boxes = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()
    words = [(float(y), float(x), w) for x, y, w in re.findall(r'xMax="([\d.]+)" yMax="([\d.]+)">([^<]+)</word>', boxes)]
    rows: dict[float, list[tuple[float, str]]] = {}
    for y, x, w in words:
        rows.setdefault(round(y), []).append((x, w))
    [bac] = [r for r in rows.values() if any(w == "BAC1" for _, w in r)]
    [total] = [r for r in rows.values() if any(w == "TOTAL" for _, w in r)]
    for figure in ("800.00", "90.00", "11.25", "91.25", "-1.25", "140.00"):
        [a] = [x for x, w in bac if w == figure]
        [b] = [x for x, w in total if w == figure]
        assert abs(a - b) < 0.5, (figure, a, b)
    fills = pdf_text(body(get(client, "fills_credits", "pdf")))
    assert "F2026-" in fills or re.search(r"F\d{4}-0000\d\d", fills)  # slip numbers whole, never cut
    assert re.search(r"[FC]\d{4}-\d{6}", fills)


def test_xlsx_has_numbers_percentages_and_dates_as_such_a_frozen_header_and_widths(worked):
    shifts.table_shift_close(actor=worked.manager, table_id=worked.table.pk, shift_id=worked.shift.pk)
    data = body(get(as_user(worked.accountant), "revenue", "xlsx", group="shift"))
    sheet = load_workbook(io.BytesIO(data)).active
    assert sheet.freeze_panes == "A3"  # the preamble and the header stay in sight
    assert sheet.column_dimensions["A"].width >= 12
    assert sheet["A1"].value.startswith("Table games revenue. Covers: Closed table shifts only")
    header = [c.value for c in sheet[2]]
    row = dict(zip(header, sheet[3]))
    assert row["Gaming date"].is_date
    assert row["Gaming date"].number_format == "mm/dd/yyyy"  # English's short date (Spanish: dd/mm/yyyy)
    assert row["Count win (EUR)"].value == 90
    assert row["Count win (EUR)"].number_format == "#,##0.00"
    hold = row["Hold % (count win ÷ drop)"]
    assert (float(hold.value), hold.number_format) == (0.1125, "0.00%")


# -- formulas ------------------------------------------------------------------------------------------


def test_a_formula_in_free_text_is_neutralised_in_csv_and_xlsx(worked):
    client = as_user(worked.accountant)
    rows = list(csv.reader(io.StringIO(body(get(client, "large_transactions", "csv", threshold="10000")).decode("utf-8-sig"))))
    players = [r[6] for r in rows if len(r) > 6 and "HYPERLINK" in r[6]]
    assert players == ["'" + FORMULA]
    sheet = load_workbook(io.BytesIO(body(get(client, "large_transactions", "xlsx", threshold="10000")))).active
    cells = [c for row in sheet.iter_rows() for c in row if isinstance(c.value, str) and "HYPERLINK" in c.value]
    assert [(c.value, c.data_type) for c in cells] == [("'" + FORMULA, "s")]  # text, not a formula
    # negative amounts stay numbers, and unneutralised
    amounts = [r[8] for r in rows[2:-1] if r[8]]
    assert "-100.00" in amounts


def test_the_audit_csv_neutralises_formulas_and_still_verifies_offline(worked):
    text = body(as_user(worked.auditor).get("/api/audit/records/export.csv")).decode()
    assert FORMULA.replace('"', '""') not in text.replace("'" + FORMULA.replace('"', '""'), "")
    rows = list(csv.DictReader(io.StringIO(text)))
    issued = [r for r in rows if r["action"] == "marker.issue" and "HYPERLINK" in r["after"]]
    assert issued
    problems, _ = offline.verify(rows)
    assert problems == []
    assert all(offline.record_hash(r) == r["hash"] for r in rows)


# -- the API's edges ---------------------------------------------------------------------------------


def test_unauthenticated_api_calls_are_401_with_a_challenge(floor, api):
    for url in ("/api/rounds/", "/api/accounting/reports/revenue/?format=csv", "/api/players/reports/ratings/"):
        answer = api.get(url)
        assert answer.status_code == 401, url
        assert answer["WWW-Authenticate"] == "Token"
        assert answer.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("path", ["/api/nope/", "/api/accounting/nothing/here/", "/api/rounds/999999999/x/"])
def test_an_unknown_api_path_is_a_json_404(floor, path, settings):
    for debug in (False, True):
        settings.DEBUG = debug
        answer = as_user(floor.accountant).get(path)
        assert answer.status_code == 404
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["error"]["code"] in ("not_found", "unknown_report")


def test_the_site_has_a_favicon(floor):
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].endswith("croupier/favicon.ico")
    page = Client().get("/login/").content.decode()
    assert 'rel="icon"' in page
