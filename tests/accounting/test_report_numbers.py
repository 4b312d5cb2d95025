"""Report cells by reader: the screen and the PDF write numbers, days and times as the reader's language does;
the CSV keeps one machine form and says so first; the XLSX holds numbers and dates with number formats in the
reader's form (accounting/reports/base.py)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format
from openpyxl import load_workbook

from accounting.reports import Filters, get_report
from accounting.reports.base import DATE, DATETIME, INT, MONEY, PERCENT, Column, column_formatter, xlsx_date_format
from accounting.reports.pdf import _pdf_formatter
from casino.core.models import StaffProfile
from tests.accounting.test_reports import download, pdf_text, worked  # noqa: F401 - the fixture

MONEY_COL = Column("handle", "Handle", MONEY)
COUNT_COL = Column("rounds", "Rounds", INT)
SLIP_COL = Column("slip", "Slip", INT, identifier=True)
HOLD_COL = Column("hold", "Hold %", PERCENT)


def _cells(language: str) -> list[str]:
    with translation.override(language):
        return [
            column_formatter(MONEY_COL, reader=True)(123456789),
            column_formatter(COUNT_COL, reader=True)(12345),
            column_formatter(SLIP_COL, reader=True)(12345),
            column_formatter(HOLD_COL, reader=True)(Fraction(1, 8)),
            column_formatter(MONEY_COL, reader=True)(-5),
        ]


def test_a_readers_cells_follow_their_language():
    assert _cells("en") == ["1,234,567.89", "12,345", "12345", "12.50", "-0.05"]
    # Spanish: a (non-breaking) space between thousands, a comma before decimals; a slip's number is a name,
    # never grouped
    assert _cells("es") == ["1\u00a0234\u00a0567,89", "12\u00a0345", "12345", "12,50", "-0,05"]
    # Chinese floors write money by threes with commas (casino.money's fallback)
    assert _cells("zh-hant")[0] == "1,234,567.89"


def test_the_machine_form_is_the_same_in_every_language():
    for language in ("en", "es", "zh-hans"):
        with translation.override(language):
            assert column_formatter(MONEY_COL)(123456789) == "1234567.89"
            assert column_formatter(HOLD_COL)(Fraction(1, 8)) == "12.50"
            assert column_formatter(COUNT_COL)(12345) == "12345"


def test_the_pdf_writes_the_readers_form():
    with translation.override("es"):
        assert _pdf_formatter(MONEY_COL)(123456789) == "1\u00a0234\u00a0567,89"
        assert _pdf_formatter(COUNT_COL)(12345) == "12\u00a0345"
        assert _pdf_formatter(SLIP_COL)(12345) == "12345"
        assert _pdf_formatter(MONEY_COL)(None) == ""


def _spanish(user) -> None:
    StaffProfile.objects.update_or_create(user=user, defaults={"language": "es"})


def test_a_spanish_accountant_reads_the_report_screen_and_pdf_in_spanish_numbers(worked):  # noqa: F811
    # given the worked shift's revenue, and an accountant who reads Spanish
    accountant = worked.accountant
    _spanish(accountant)
    report = get_report("revenue", Filters())
    handle = next(i for i, c in enumerate(report.columns) if c.key == "handle")
    rows = list(report.rows())
    minor = sum(r[handle] for r in rows)
    assert minor >= 1000, minor  # a figure with decimals to write: the decimal separator shows
    with translation.override("es"):
        spanish = column_formatter(report.columns[handle], reader=True)(minor)
    with translation.override("en"):
        english = column_formatter(report.columns[handle], reader=True)(minor)
    assert spanish == english.replace(".", ",") != english  # "140,00" against "140.00"
    web = Client()
    web.force_login(accountant)
    # when they open the report screen
    page = web.get("/accounting/reports/", {"report": "revenue"}).content.decode()
    # then the total handle is in Spanish form
    assert f">{spanish}<" in page.replace("\n", "").replace(" ", "")
    # and the PDF the same (asked for by the same person, in their language)
    api = web
    text = pdf_text(download(api, "revenue", "pdf"))
    assert spanish in text
    # while the CSV keeps the machine form, and says so first
    rows = list(csv.reader(io.StringIO(download(api, "revenue", "csv").decode("utf-8-sig"))))
    assert "1234.56" in rows[0][0]
    total = rows[-1][rows[1].index(report.columns[handle].header())]
    sign = "-" if minor < 0 else ""
    assert total == f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"
    # and the XLSX holds the number itself, formatted with grouping by the spreadsheet
    sheet = load_workbook(io.BytesIO(download(api, "revenue", "xlsx"))).active
    last = list(sheet.iter_rows())[-1]
    cell = last[handle]
    assert cell.value * 100 == minor
    assert cell.number_format == "#,##0.00"


DAY_COL = Column("gaming_date", "Gaming date", DATE)
TIME_COL = Column("at", "At", DATETIME)


def test_days_and_times_by_reader_and_for_programs():
    day, moment = dt.date(2026, 11, 27), dt.datetime(2026, 11, 27, 10, 27, 32, tzinfo=dt.UTC)
    expected = {"en": ("11/27/2026", 'mm/dd/yyyy'), "es": ("27/11/2026", "dd/mm/yyyy"),
                "zh-hant": ("2026年11月27日", 'yyyy"年"m"月"d"日"'), "zh-hans": ("2026年11月27日", 'yyyy"年"m"月"d"日"')}
    for language, (short, spreadsheet) in expected.items():
        with translation.override(language):
            assert column_formatter(DAY_COL, reader=True)(day) == short
            assert column_formatter(TIME_COL, reader=True)(moment) == f"{short} 10:27:32"  # TIME_ZONE is UTC here
            assert _pdf_formatter(DAY_COL)(day) == short
            assert _pdf_formatter(TIME_COL)(moment) == f"{short} 10:27:32"
            assert xlsx_date_format() == spreadsheet
            assert xlsx_date_format(time=True) == f"{spreadsheet} hh:mm:ss"
            # programs read one form whatever the language
            assert column_formatter(DAY_COL)(day) == "2026-11-27"
            assert column_formatter(TIME_COL)(moment) == "2026-11-27 10:27:32"


@pytest.mark.parametrize("language", ["es", "zh-hant"])
def test_a_report_writes_its_days_in_the_readers_language(worked, language):  # noqa: F811
    # given a reader of the language and the worked shift's revenue by shift, from its gaming day
    StaffProfile.objects.update_or_create(user=worked.accountant, defaults={"language": language})
    day = worked.shift.gaming_date
    with translation.override(language):
        short, long = date_format(day, "SHORT_DATE_FORMAT"), date_format(day, "DATE_FORMAT")
        spreadsheet = xlsx_date_format()
    assert short != day.isoformat()
    web = Client()
    web.force_login(worked.accountant)
    filters = {"group": "shift", "date_from": day.isoformat()}
    # the screen: the day's cell in the short form, the filters' line in the long one
    page = web.get("/accounting/reports/", {"report": "revenue", **filters}).content.decode()
    assert f">{short}<" in page.replace("\n", "").replace(" ", "")
    assert long in page
    # the PDF: the same cells and header
    text = " ".join(pdf_text(download(web, "revenue", "pdf", **filters)).split())
    assert short in text
    assert long in text
    assert day.isoformat() not in text
    # the XLSX: a real date, shown in the reader's form; its first line in their words
    sheet = load_workbook(io.BytesIO(download(web, "revenue", "xlsx", **filters))).active
    dated = [c for c in sheet[3] if c.is_date]
    assert dated, [c.value for c in sheet[3]]
    assert all(c.number_format == spreadsheet for c in dated)
    assert dated[0].value.date() == day
    assert long in sheet["A1"].value
    # the CSV: year-month-day, in its cells and its first line
    rows = list(csv.reader(io.StringIO(download(web, "revenue", "csv", **filters).decode("utf-8-sig"))))
    assert day.isoformat() in rows[0][0]
    assert short not in rows[0][0]
    assert day.isoformat() in rows[2]
