"""Reports: columns, filters, rows as a generator, and three writers (CSV, XLSX, PDF) that never hold
the whole report in memory. CSV streams; XLSX uses openpyxl's write-only mode; PDF draws page by page.

Money is carried as integer minor units until the writer formats it (``money_text``: exact, no floats);
percentages as exact fractions, rounded half away from zero to two decimals when written.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import IO, Any, ClassVar

from accounting.money import digits, money_decimal, money_text, percent_decimal, percent_text
from casino.errors import InvalidInput

TEXT, INT, MONEY, PERCENT, DATE, DATETIME = "text", "int", "money", "percent", "date", "datetime"
Progress = Callable[[int], None]
CHUNK_ROWS = 2_000  # rows per streamed CSV chunk and per progress report


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str = TEXT
    total: bool = False  # summed in the TOTAL row


@dataclass(frozen=True)
class Filters:
    """The filters every report understands (each report uses those that apply to it)."""

    date_from: dt.date | None = None  # gaming date, inclusive
    date_to: dt.date | None = None
    shift: int | None = None
    table: str | None = None  # table code
    pit: str | None = None  # pit code
    game: str | None = None
    dealer: str | None = None  # username
    group: str | None = None  # revenue: shift, day, table, pit, game
    kind: str | None = None  # fills and credits: fill or credit
    threshold: int | None = None  # large transactions, minor units

    @classmethod
    def parse(cls, params: Any) -> Filters:
        """From query parameters or stored JSON; a bad value is refused naming the parameter."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = params.get(f.name) if hasattr(params, "get") else None
            if raw in (None, ""):
                continue
            if f.name in ("date_from", "date_to"):
                try:
                    values[f.name] = dt.date.fromisoformat(str(raw))
                except ValueError:
                    raise InvalidInput(
                        f"{f.name} must be a date (YYYY-MM-DD)", code="bad_filter", field=f.name
                    ) from None
            elif f.name in ("shift", "threshold"):
                try:
                    values[f.name] = int(str(raw))
                except ValueError:
                    raise InvalidInput(f"{f.name} must be a whole number", code="bad_filter", field=f.name) from None
                if values[f.name] < 0:
                    raise InvalidInput(f"{f.name} must not be negative", code="bad_filter", field=f.name)
            else:
                values[f.name] = str(raw)[:64]
        if values.get("date_from") and values.get("date_to") and values["date_from"] > values["date_to"]:
            raise InvalidInput("date_from is after date_to", code="bad_filter", field="date_from")
        return cls(**values)

    def as_json(self) -> dict[str, Any]:
        return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in asdict(self).items() if v is not None}


class Report:
    """A report: ``rows()`` yields tuples in column order, with raw values (ints for money)."""

    name: ClassVar[str]
    title: ClassVar[str]
    columns: tuple[Column, ...]  # a class attribute; a report whose columns depend on its filters sets its own
    filters_used: ClassVar[tuple[str, ...]] = ("date_from", "date_to", "shift", "table", "pit", "game")

    def __init__(self, filters: Filters) -> None:
        self.filters = filters

    def rows(self) -> Iterator[tuple[Any, ...]]:  # pragma: no cover - abstract
        raise NotImplementedError

    def count(self) -> int:
        return sum(1 for _ in self.rows())

    def total_row(self, sums: dict[str, int]) -> tuple[Any, ...]:
        """The TOTAL row from the summed columns; reports with ratios override to add them."""
        row: list[Any] = []
        for i, c in enumerate(self.columns):
            row.append("TOTAL" if i == 0 else sums.get(c.key) if c.total else None)
        return tuple(row)

    def ratio_totals(self, sums: dict[str, int]) -> dict[str, Fraction | None]:
        return {}

    def copy_sql(self) -> tuple[str, list[Any]] | None:
        """A PostgreSQL query producing exactly the CSV data rows, for ``COPY … TO STDOUT`` (or None)."""
        return None

    def totals_sql(self) -> dict[str, int] | None:
        """The TOTAL row's sums by an aggregate query (with ``copy_sql``)."""
        return None

    def header(self) -> list[str]:
        return [c.title for c in self.columns]

    def filename(self, fmt: str) -> str:
        return f"{self.name}.{fmt}"


def _accumulate(report: Report, rows: Iterable[tuple[Any, ...]], sums: dict[str, int]) -> Iterator[tuple[Any, ...]]:
    summed = [(i, c.key) for i, c in enumerate(report.columns) if c.total]
    totals = [0] * len(summed)
    seen = [False] * len(summed)
    for row in rows:
        for j, (i, _) in enumerate(summed):
            value = row[i]
            if value is not None:
                totals[j] += value
                seen[j] = True
        yield row
    for j, (_, key) in enumerate(summed):
        if seen[j]:
            sums[key] = totals[j]


def _total(report: Report, sums: dict[str, int]) -> tuple[Any, ...]:
    row = list(report.total_row(sums))
    ratios = report.ratio_totals(sums)
    for i, c in enumerate(report.columns):
        if c.key in ratios:
            row[i] = ratios[c.key]
    return tuple(row)


# -- cells ----------------------------------------------------------------------------------------


def utc_text(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def text_cell(value: Any, kind: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):  # text, or the TOTAL label in the first column
        return value
    if kind == MONEY:
        return money_text(value)
    if kind == PERCENT:
        return percent_text(value)
    if kind == DATETIME:
        return utc_text(value)
    if kind == DATE:
        return value.isoformat()
    return str(value)


def _text_row(report: Report, row: tuple[Any, ...]) -> list[str]:
    return [text_cell(v, c.kind) for v, c in zip(row, report.columns)]


def _money_formatter(places: int) -> Callable[[Any], Any]:
    scale = 10**places

    def money(v: Any) -> Any:
        if v is None:
            return None
        whole, part = divmod(-v if v < 0 else v, scale)
        return f"{'-' if v < 0 else ''}{whole}.{part:0{places}d}" if places else f"{'-' if v < 0 else ''}{whole}"

    return money


def _datetime_formatter(v: Any) -> Any:
    if v is None:
        return None
    if v.utcoffset():
        v = v.astimezone(dt.UTC)
    return v.isoformat()[:19] + "Z"  # YYYY-MM-DDTHH:MM:SS, as utc_text writes it (seconds, no fraction)


def _fast_row_formatter(report: Report) -> Callable[[tuple[Any, ...]], list[Any]]:
    """Data rows for the csv module, with the same text as ``text_cell``: the csv module already writes
    None as empty, ints and dates as ``str`` does; only money, percentages and times need work."""
    converters: list[tuple[int, Callable[[Any], Any]]] = []
    for i, c in enumerate(report.columns):
        if c.kind == MONEY:
            converters.append((i, _money_formatter(digits())))
        elif c.kind == DATETIME:
            converters.append((i, _datetime_formatter))
        elif c.kind == PERCENT:
            converters.append((i, percent_text))

    def convert(row: tuple[Any, ...]) -> list[Any]:
        out = list(row)
        for i, f in converters:
            out[i] = f(out[i])
        return out

    return convert


# -- CSV ----------------------------------------------------------------------------------------


def _csv_line_writer() -> tuple[io.StringIO, Any]:
    buffer = io.StringIO()
    return buffer, csv.writer(buffer, lineterminator="\n")


def csv_chunks(report: Report, *, progress: Progress | None = None, use_copy: bool = True) -> Iterator[bytes]:
    """The report as CSV, in chunks of bytes: header, data rows, then the TOTAL row.

    On PostgreSQL a report with ``copy_sql`` streams its data rows straight from ``COPY … TO STDOUT``
    (the same text, built by the database); otherwise rows are formatted here, ``CHUNK_ROWS`` at a time.
    """
    buffer, writer = _csv_line_writer()
    writer.writerow(report.header())
    copy = report.copy_sql() if use_copy else None
    from django.db import connection

    if copy is not None and connection.vendor == "postgresql":
        yield buffer.getvalue().encode()
        sql, params = copy
        connection.ensure_connection()
        done = 0
        with connection.connection.cursor() as cursor:
            with cursor.copy(f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", params) as stream:
                for data in stream:
                    yield bytes(data)
                    done += 1
                    if progress and done % 64 == 0:
                        progress(-1)
        totals = report.totals_sql() or {}
        buffer, writer = _csv_line_writer()
        writer.writerow(_text_row(report, _total(report, totals)))
        yield buffer.getvalue().encode()
        return
    sums: dict[str, int] = {}
    done = 0
    convert = _fast_row_formatter(report)
    batch: list[list[Any]] = []
    for row in _accumulate(report, report.rows(), sums):
        batch.append(convert(row))
        if len(batch) == CHUNK_ROWS:
            writer.writerows(batch)
            batch.clear()
            done += CHUNK_ROWS
            yield buffer.getvalue().encode()
            buffer.seek(0)
            buffer.truncate()
            if progress:
                progress(done)
    writer.writerows(batch)
    done += len(batch)
    writer.writerow(_text_row(report, _total(report, sums)))
    yield buffer.getvalue().encode()
    if progress:
        progress(done)


def write_csv(report: Report, out: IO[bytes], *, progress: Progress | None = None) -> None:
    for chunk in csv_chunks(report, progress=progress):
        out.write(chunk)


# -- XLSX ----------------------------------------------------------------------------------------


def write_xlsx(report: Report, out: IO[bytes] | str, *, progress: Progress | None = None) -> None:
    """openpyxl in write-only mode: rows go to a temporary file as they come, memory stays flat."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=report.title[:31])
    bold = Font(bold=True)
    header = []
    for title in report.header():
        cell = WriteOnlyCell(sheet, value=title)
        cell.font = bold
        header.append(cell)
    sheet.append(header)
    places = digits()
    money_format = "#,##0" + ("." + "0" * places if places else "")
    kinds = [c.kind for c in report.columns]

    def cells(row: tuple[Any, ...], *, bold_row: bool = False) -> list[Any]:
        out_row: list[Any] = []
        for value, kind in zip(row, kinds):
            if value is None:
                out_row.append(None)
                continue
            if isinstance(value, str):
                cell = WriteOnlyCell(sheet, value=value)
            elif kind == MONEY:
                cell = WriteOnlyCell(sheet, value=money_decimal(value))
                cell.number_format = money_format
            elif kind == PERCENT:
                cell = WriteOnlyCell(sheet, value=percent_decimal(value))
                cell.number_format = "0.00"
            elif kind == DATETIME:
                cell = WriteOnlyCell(sheet, value=value.astimezone(dt.UTC).replace(tzinfo=None))
                cell.number_format = "yyyy-mm-dd hh:mm:ss"
            else:
                cell = WriteOnlyCell(sheet, value=value)
            if bold_row:
                cell.font = bold
            out_row.append(cell)
        return out_row

    sums: dict[str, int] = {}
    done = 0
    for row in _accumulate(report, report.rows(), sums):
        sheet.append(cells(row))
        done += 1
        if progress and done % CHUNK_ROWS == 0:
            progress(done)
    sheet.append(cells(_total(report, sums), bold_row=True))
    workbook.save(out)
    if progress:
        progress(done)


# -- PDF ------------------------------------------------------------------------------------------


def write_pdf(report: Report, out: IO[bytes] | str, *, progress: Progress | None = None, subtitle: str = "") -> None:
    """A plain landscape table drawn row by row; each page is compressed and written as it completes."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen.canvas import Canvas

    width, height = landscape(A4)
    margin, line, size = 28, 11, 7
    canvas = Canvas(out, pagesize=(width, height), pageCompression=1)
    canvas.setTitle(report.title)
    columns = report.columns
    weights = [max(len(c.title), 12 if c.kind in (DATETIME, TEXT) else 10) for c in columns]
    scale = (width - 2 * margin) / sum(weights)
    xs, x = [], margin
    for w in weights:
        xs.append(x)
        x += w * scale
    page = 0

    def clip(text: str, room: float) -> str:
        while text and stringWidth(text, "Helvetica", size) > room - 3:
            text = text[:-1]
        return text

    def start_page() -> float:
        nonlocal page
        page += 1
        canvas.setFont("Helvetica-Bold", 11)
        canvas.drawString(margin, height - margin, report.title)
        canvas.setFont("Helvetica", 7)
        canvas.drawRightString(width - margin, height - margin, f"{subtitle}  page {page}")
        y = height - margin - 2 * line
        canvas.setFont("Helvetica-Bold", size)
        for i, c in enumerate(columns):
            canvas.drawString(xs[i], y, clip(c.title, weights[i] * scale))
        canvas.line(margin, y - 3, width - margin, y - 3)
        canvas.setFont("Helvetica", size)
        return y - line - 2

    def draw(row: tuple[Any, ...], y: float) -> None:
        for i, (value, c) in enumerate(zip(row, columns)):
            text = clip(text_cell(value, c.kind), weights[i] * scale)
            if c.kind in (MONEY, INT, PERCENT):
                canvas.drawRightString(xs[i] + weights[i] * scale - 3, y, text)
            else:
                canvas.drawString(xs[i], y, text)

    y = start_page()
    sums: dict[str, int] = {}
    done = 0
    for row in _accumulate(report, report.rows(), sums):
        if y < margin + line:
            canvas.showPage()
            y = start_page()
        draw(row, y)
        y -= line
        done += 1
        if progress and done % CHUNK_ROWS == 0:
            progress(done)
    if y < margin + 2 * line:
        canvas.showPage()
        y = start_page()
    canvas.line(margin, y + line - 3, width - margin, y + line - 3)
    canvas.setFont("Helvetica-Bold", size)
    draw(_total(report, sums), y)
    canvas.showPage()
    canvas.save()
    if progress:
        progress(done)


WRITERS = {"csv": write_csv, "xlsx": write_xlsx, "pdf": write_pdf}
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}
