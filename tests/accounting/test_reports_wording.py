"""Every report of the demo floor's day — on screen, and as CSV, XLSX and PDF — in a reader's words: no
snake_case code, machine time, employee id, chip count in minor units, ungrouped amount, JSON or stored
code in place of its label (the scanner: tests/wording/scan.py).

A CSV's and an XLSX's money and counts are numbers for a spreadsheet (no thousands separator by design):
their text columns, header and preamble are scanned; the screen and the PDF are scanned whole."""

from __future__ import annotations

import csv
import io
import subprocess

import pytest
from django.test import Client
from openpyxl import load_workbook

from accounting.reports import REPORTS, Filters, get_report
from accounting.reports.base import TEXT
from tests.fixtures import as_user
from tests.wording.scan import known_codes, scan_cells, scan_html, scan_text

# a settled bet's id as the dealer's screen numbered it ("b1"), and the engines' edge families, are names
ALLOWED = {
    "accountant",  # the signed-in person's login in the menu: the demo's logins are named after their roles
    "cashier",  # the demo's cashier, a signer, is named after the role too (its display name is its login)
}


@pytest.fixture
def demo_day(db):
    from accounting.demo import play_day
    from tables.demo import build_demo_floor

    demo = build_demo_floor()
    play_day(demo, rounds_per_shift=16, earlier_shifts=1, seed=3)
    return demo


def _download(client, name: str, fmt: str) -> bytes:
    answer = client.get(f"/api/accounting/reports/{name}/", {"format": fmt})
    assert answer.status_code == 200, getattr(answer, "content", b"")[:300]
    return b"".join(answer.streaming_content) if answer.streaming else b"".join(answer)


def test_every_report_of_the_demo_day_speaks_words(demo_day):
    codes = known_codes()
    accountant = demo_day.users["accountant"]
    api = as_user(accountant)
    web = Client()
    web.force_login(accountant)
    found = []
    for name in sorted(REPORTS):
        found += [f"{name}: {f}" for f in findings(api, web, name, codes)]
    assert not found, "\n".join(sorted(set(found))[:80])


def findings(api, web, name: str, codes: set[str]) -> list:
    columns = get_report(name, Filters()).columns
    texts = [i for i, c in enumerate(columns) if c.kind == TEXT]
    found = []
    # the screen
    page = web.get("/accounting/reports/", {"report": name})
    assert page.status_code == 200
    found += scan_html(page.content.decode(), codes=codes, allowed=ALLOWED)
    # CSV: the preamble, the header and the text cells
    rows = list(csv.reader(io.StringIO(_download(api, name, "csv").decode("utf-8-sig"))))
    assert len(rows) >= 3, name
    found += scan_text(rows[0][0], allowed=ALLOWED)
    found += scan_cells(rows[1], codes=codes, allowed=ALLOWED)
    found += scan_cells([r[i] for r in rows[2:] for i in texts if i < len(r) and r[i]], codes=codes,
                        allowed=ALLOWED)
    # XLSX: the same, the numbers being numbers
    sheet = load_workbook(io.BytesIO(_download(api, name, "xlsx")), read_only=True).active
    values = list(sheet.iter_rows(values_only=True))
    found += scan_text(str(values[0][0]), allowed=ALLOWED)
    found += scan_cells([v for row in values[1:] for v in row if isinstance(v, str)], codes=codes, allowed=ALLOWED)
    # PDF: all of it, as a reader sees it
    pdf = subprocess.run(["pdftotext", "-layout", "-", "-"], input=_download(api, name, "pdf"), capture_output=True,
                         check=True).stdout.decode()
    found += scan_text(pdf, allowed=ALLOWED)
    return found
