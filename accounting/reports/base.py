"""Reports: columns, filters, rows as a generator, and three writers (CSV, XLSX, PDF) that never hold
the whole report in memory. CSV streams; XLSX uses openpyxl's write-only mode; PDF draws page by page
(``accounting.reports.pdf``); ``accounting.reports.writers`` names the three by format.

Each report says what it covers (``Report.scope``: closed table shifts only, or the open shift
too, counted as it stands) and its filters in words: the screen's header, the CSV's and XLSX's first
row, the PDF's header and the JSON's ``scope`` carry the same sentence (``Report.preamble``).
Cells are words, not codes (``accounting.reports.labels``); times are in the casino's time zone.

Money is carried as integer minor units until the writer formats it (``accounting.money``: exact, no
floats); percentages as exact fractions, rounded half away from zero when written. Every money
column's header names the currency; free text is neutralised against spreadsheet formulas
(``casino.cells``); the CSV starts with a byte order mark so spreadsheet tools read it as UTF-8.

Numbers by reader (one place: :func:`column_formatter`): the screen and the PDF write them as the
reader's language does (``1 234,56`` in Spanish); the XLSX holds real numbers with number formats, which
the spreadsheet shows in its reader's separators; the CSV and the JSON keep one machine form (a point,
no grouping), which the CSV's first line says in words.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import IO, Any, ClassVar

from django.utils import timezone
from django.utils.formats import get_format
from django.utils.translation import gettext, gettext_lazy

from accounting.money import (
    currency,
    digits,
    money_decimal,
    money_formatter,
    money_words,
    percent_decimal,
    percent_number,
    percent_text,
)
from accounting.reports import labels
from casino.cells import neutralise, sheet_text
from casino.errors import InvalidInput
from casino.money import number_words
from casino.words import day_words, short_day_words, short_when_words
from tables.engines.registry import available_games
from tables.models import Pit, Shift, Table

TEXT, INT, MONEY, PERCENT, DATE, DATETIME = "text", "int", "money", "percent", "date", "datetime"
Progress = Callable[[int], None]
CHUNK_ROWS = 2_000  # rows per streamed CSV chunk and per progress report
BOM = "\ufeff"
NOT_FILTERS = frozenset({"format", "page"})  # query parameters that choose the file or the page, not the rows


@dataclass(frozen=True)
class Column:
    key: str
    title: Any  # the words (a lazy translation: read in the language of whoever asks)
    kind: str = TEXT
    total: bool = False  # summed in the TOTAL row (only columns of like amounts)
    places: int = 2  # decimals of a percentage
    identifier: bool = False  # a number that names something (shift id, round, seat): no thousands separator
    extra: bool = False  # on screen, one tap away ("All columns"): the files always hold every column

    def header(self) -> str:
        """The title as the files write it: a money column names its currency."""
        return f"{self.title} ({currency()})" if self.kind == MONEY else str(self.title)


def refuse_unknown(params: Any, known: Collection[str], allowed: Collection[str] | None, report: str) -> None:
    """A parameter that is no filter, or a filter this report does not take, is refused naming it
    (never silently ignored: an unfiltered report would pass for a filtered one)."""
    for name in list(params.keys()) if hasattr(params, "keys") else []:
        value = params.get(name)
        if name in NOT_FILTERS or value in (None, ""):
            continue
        if name not in known:
            raise InvalidInput(gettext("there is no filter “%(name)s”; filters are %(known)s")
                               % {"name": name, "known": ", ".join(known)}, code="unknown_filter", field=name)
        if allowed is not None and name not in allowed:
            takes = ", ".join(allowed) or gettext("no filter")
            what = {"name": name, "takes": takes, "report": report}
            raise InvalidInput(
                (gettext("the report “%(report)s” is not filtered by %(name)s (it takes %(takes)s)") if report
                 else gettext("the report is not filtered by %(name)s (it takes %(takes)s)")) % what,
                code="unsupported_filter",
                field=name,
            )


def unknown_report(name: Any, reports: Collection[str]) -> str:
    return gettext("no report “%(name)s” (reports: %(reports)s)") % {"name": name, "reports": ", ".join(reports)}


def date_param(name: str, raw: Any) -> dt.date:
    try:
        return dt.date.fromisoformat(str(raw))
    except ValueError:
        raise InvalidInput(gettext("%(name)s must be a date (YYYY-MM-DD)") % {"name": name}, code="bad_filter",
                           field=name) from None


def whole_param(name: str, raw: Any, what: str = "") -> int:
    text = str(raw).strip()
    if not text.isdigit() or len(text) > 18:
        raise InvalidInput(gettext("%(name)s must be %(what)s") % {"name": name, "what": what or gettext("a whole number")},
                           code="bad_filter", field=name)
    return int(text)


def date_range(values: dict[str, Any]) -> None:
    if values.get("date_from") and values.get("date_to") and values["date_from"] > values["date_to"]:
        raise InvalidInput(gettext("date_from is after date_to"), code="bad_filter", field="date_from")


@dataclass(frozen=True)
class Filters:
    """The filters of the table-games and players reports (each report takes those in its ``filters_used``).

    A table and a shift are named by id, as everywhere in the API; a pit by its code, a dealer by
    username, a game by its engine name. Each is checked to exist: an unknown one is a 400 naming it.
    """

    date_from: dt.date | None = None  # gaming date, inclusive
    date_to: dt.date | None = None
    shift: int | None = None  # shift id
    table: int | None = None  # table id
    pit: str | None = None  # pit code
    game: str | None = None
    dealer: str | None = None  # username
    group: str | None = None  # revenue: shift, day, table, pit, game
    kind: str | None = None  # fills and credits: fill or credit
    threshold: int | None = None  # large transactions, minor units

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def parse(cls, params: Any, *, allowed: Collection[str] | None = None, report: str = "") -> Filters:
        """From query parameters or stored JSON; a bad, unknown or unsupported one is refused naming it."""
        refuse_unknown(params, cls.names(), allowed, report)
        values: dict[str, Any] = {}
        for name in cls.names():
            raw = params.get(name) if hasattr(params, "get") else None
            if raw in (None, ""):
                continue
            if name in ("date_from", "date_to"):
                values[name] = date_param(name, raw)
            elif name == "table":
                values[name] = whole_param(name, raw, gettext("a table id (a whole number, as /api/tables/ lists them)"))
            elif name == "shift":
                values[name] = whole_param(name, raw, gettext("a shift id (a whole number)"))
            elif name == "threshold":
                values[name] = whole_param(name, raw, gettext("a whole number of minor units, not negative"))
            else:
                values[name] = str(raw).strip()[:64]
        date_range(values)
        filters = cls(**values)
        filters.check_exists()
        return filters

    def check_exists(self) -> None:
        """Every named table, shift, pit, dealer and game exists."""
        from django.contrib.auth import get_user_model


        if self.table is not None and not Table.objects.filter(pk=self.table).exists():
            raise InvalidInput(gettext("no table %(table_id)s") % {"table_id": self.table}, code="unknown_table", field="table")
        if self.shift is not None and not Shift.objects.filter(pk=self.shift).exists():
            raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": self.shift}, code="unknown_shift", field="shift")
        if self.pit is not None and not Pit.objects.filter(code=self.pit).exists():
            raise InvalidInput(gettext("no pit “%(pit)s”") % {"pit": self.pit}, code="unknown_pit", field="pit")
        if self.dealer is not None and not get_user_model().objects.filter(username=self.dealer).exists():
            raise InvalidInput(gettext("no dealer “%(dealer)s”") % {"dealer": self.dealer}, code="unknown_dealer", field="dealer")
        if self.game is not None and self.game not in available_games():
            raise InvalidInput(gettext("no game “%(game)s”") % {"game": self.game}, code="unknown_game", field="game")

    def as_json(self) -> dict[str, Any]:
        return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in asdict(self).items() if v is not None}

    def describe(self, *, machine: bool = False) -> str:
        """The filters in words, for a document's header (names, never ids or codes); days as the reader's
        language writes them, or year-month-day for ``machine`` (the CSV's first line)."""
        return describe_filters(self.as_json(), machine=machine)


GROUP_WORDS = {
    "shift": gettext_lazy("by shift"), "day": gettext_lazy("by gaming date"), "table": gettext_lazy("by table"),
    "pit": gettext_lazy("by pit"), "game": gettext_lazy("by game"),
}


def filter_day(value: Any, *, machine: bool = False) -> str:
    """A filter's day (an ISO string or a date) in the header's words: the reader's date format, or
    year-month-day for ``machine``."""
    day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    return day.isoformat() if machine else day_words(day)


def describe_filters(data: dict[str, Any], *, machine: bool = False) -> str:
    """Filters (as ``Filters.as_json`` gives them) in a reader's words (days year-month-day for ``machine``)."""
    out = []
    if data.get("date_from") or data.get("date_to"):
        out.append(gettext("gaming dates {start} to {end}").format(
            start=filter_day(data["date_from"], machine=machine) if data.get("date_from") else gettext("the first"),
            end=filter_day(data["date_to"], machine=machine) if data.get("date_to") else gettext("today")))
    if data.get("shift") is not None:
        shift = Shift.objects.select_related("shift_type").filter(pk=data["shift"]).first()
        out.append(gettext("the {date} {shift} shift").format(date=filter_day(shift.gaming_date, machine=machine),
                                                                shift=shift.shift_type.name)
                   if shift else gettext("a shift that does not exist"))
    if data.get("table") is not None:
        table = Table.objects.filter(pk=data["table"]).first()
        out.append(gettext("table {code}").format(code=table.code if table else "?"))
    if data.get("pit"):
        pit = Pit.objects.filter(code=data["pit"]).first()
        out.append(gettext("pit {name}").format(name=pit.name if pit else labels.words(data["pit"])))
    if data.get("game"):
        out.append(gettext("game {name}").format(name=labels.game(data["game"])))
    if data.get("dealer"):
        out.append(gettext("dealer {name}").format(name=labels.Names().person(data["dealer"])))
    if data.get("group"):
        out.append(str(GROUP_WORDS.get(data["group"], labels.words(data["group"]))))
    if data.get("kind"):
        out.append({"fill": gettext("fills only"), "credit": gettext("credits only")}.get(
            data["kind"], labels.words(data["kind"])))
    if data.get("threshold") is not None:
        out.append(gettext("at or above {amount}").format(amount=money_words(int(data["threshold"]))))
    return ", ".join(out) or gettext("no filter: every gaming date, every table")


class Report:
    """A report: ``rows()`` yields tuples in column order, with raw values (ints for money)."""

    name: ClassVar[str]
    title: ClassVar[Any]  # a lazy translation
    # what the report reads, in words: whether the open shift is in it, and how it is counted
    scope: ClassVar[Any] = gettext_lazy("Every record matching the filters, open and closed shifts alike.")
    columns: tuple[Column, ...]  # a class attribute; a report whose columns depend on its filters sets its own
    filters_used: ClassVar[tuple[str, ...]] = ("date_from", "date_to", "shift", "table", "pit", "game")

    def __init__(self, filters: Any) -> None:
        self.filters = filters
        self.validate()

    def validate(self) -> None:
        """Refuse a bad filter value now, before a byte is written (CSV streams after this)."""

    def rows(self) -> Iterator[tuple[Any, ...]]:  # pragma: no cover - abstract
        raise NotImplementedError

    def count(self) -> int:
        return sum(1 for _ in self.rows())

    def total_row(self, sums: dict[str, int]) -> tuple[Any, ...]:
        """The TOTAL row from the summed columns; reports with ratios override to add them."""
        row: list[Any] = []
        for i, c in enumerate(self.columns):
            row.append(gettext("TOTAL") if i == 0 else sums.get(c.key) if c.total else None)
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
        return [c.header() for c in self.columns]

    def scope_text(self, *, machine: bool = False) -> str:
        """What the report covers, in words (a report whose scope depends on its filters overrides; days as the
        reader's language writes them, or year-month-day for ``machine``)."""
        return str(self.scope)

    def preamble(self, *, machine: bool = False) -> str:
        """The sentence every copy of the report starts with: what it is, what it covers, its filters,
        the currency and the time zone. ``machine=True`` (the CSV, whose figures are for programs) adds
        how its numbers are written, whatever the reader's language."""
        text = gettext("{title}. Covers: {scope} Filters: {filters}. Amounts in {currency}; times in {zone}.").format(
            title=self.title, scope=self.scope_text(machine=machine), filters=self.filters.describe(machine=machine),
            currency=currency(),
            zone=labels.zone_name())
        return f"{text} {machine_numbers()}" if machine else text

    def filename(self, fmt: str) -> str:
        return f"{self.name}.{fmt}"


def machine_numbers() -> str:
    """How the CSV writes its figures, in words (its first line carries it): one form for programs."""
    return gettext("Numbers are written for programs: a point before decimals, no thousands separator "
                   "(1234.56); dates as year-month-day.")


def accumulate(report: Report, rows: Iterable[tuple[Any, ...]], sums: dict[str, int]) -> Iterator[tuple[Any, ...]]:
    """Pass the rows through, summing the columns that have a total into ``sums``."""
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


def total_of(report: Report, sums: dict[str, int]) -> tuple[Any, ...]:
    row = list(report.total_row(sums))
    ratios = report.ratio_totals(sums)
    for i, c in enumerate(report.columns):
        if c.key in ratios:
            row[i] = ratios[c.key]
    return tuple(row)


# -- cells ----------------------------------------------------------------------------------------


def utc_text(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _datetime_formatter(v: Any) -> Any:
    if v is None or isinstance(v, str):
        return v
    return labels.local_time(v)  # the casino's time zone, as the preamble names it


def _reader_datetime(v: Any) -> Any:
    return v if v is None or isinstance(v, str) else short_when_words(v)


def _reader_date(v: Any) -> Any:
    return v if v is None or isinstance(v, str) else short_day_words(v)


# Django's date format characters as a spreadsheet's number format writes them
EXCEL_DATE = {"d": "dd", "j": "d", "m": "mm", "n": "m", "Y": "yyyy", "y": "yy", "F": "mmmm", "N": "mmm",
              "M": "mmm", "b": "mmm"}


def xlsx_date_format(*, time: bool = False) -> str:
    """The active language's short date format (``SHORT_DATE_FORMAT``) as a spreadsheet number format
    (``dd/mm/yyyy`` in Spanish, ``yyyy"年"m"月"d"日"`` in Chinese), with the 24-hour time for ``time``."""
    fmt, out, i = str(get_format("SHORT_DATE_FORMAT")), [], 0
    while i < len(fmt):
        ch = fmt[i]
        if ch == "\\" and i + 1 < len(fmt):
            i += 1
            out.append(f'"{fmt[i]}"')
        elif ch in EXCEL_DATE:
            out.append(EXCEL_DATE[ch])
        elif ch in "/-.:, ":
            out.append(ch)
        else:
            out.append(f'"{ch}"')
        i += 1
    return "".join(out) + (" hh:mm:ss" if time else "")


def _text(v: Any) -> Any:
    return v if v is None else neutralise(v if isinstance(v, str) else str(v))


def column_formatter(c: Column, *, reader: bool = False) -> Callable[[Any], Any]:
    """The column's text formatter (None stays None); the TOTAL label passes.

    Two forms, chosen in this one place:

    - ``reader=True`` (the report screen and the PDF): as the reader's language writes numbers
      (``casino.money``): money and counts grouped with the language's separators (``1,234.56`` in
      English, ``1 234,56`` in Spanish; the column's header names the currency), percentages rounded half
      away from zero with the language's decimal separator; a number that names something (a slip, a
      seat: ``Column.identifier``) is never grouped.
    - ``reader=False`` (the CSV and the API's JSON, read by programs): one fixed, machine-readable form
      whatever the language, which the file's first line says (``MACHINE_NUMBERS``): a point for
      decimals, no thousands separator.

    Times are in the casino's time zone in both: for the reader, days and times in the language's short date
    format and the 24-hour clock (``27/11/2026 10:27:32`` in Spanish); for programs ``YYYY-MM-DD`` and
    ``YYYY-MM-DD HH:MM:SS``. Free text is neutralised."""
    if c.kind == MONEY:
        if reader:
            return lambda v: v if v is None or isinstance(v, str) else money_words(v, symbol=False)
        money = money_formatter(digits())
        return lambda v: v if v is None or isinstance(v, str) else money(v)
    if c.kind == PERCENT:
        if reader:
            return lambda v: v if v is None or isinstance(v, str) else percent_number(v, c.places)
        return lambda v: v if v is None or isinstance(v, str) else percent_text(v, c.places)
    if c.kind == DATETIME:
        return _reader_datetime if reader else _datetime_formatter
    if c.kind == DATE:
        if reader:
            return _reader_date
        return lambda v: v if v is None or isinstance(v, str) else v.isoformat()
    if c.kind == INT:
        if reader and not c.identifier:
            return lambda v: v if v is None or isinstance(v, str) else number_words(int(v), 0)
        return lambda v: v if v is None or isinstance(v, str) else str(v)
    return _text


def cell_formatters(report: Report, *, reader: bool = False) -> list[Callable[[Any], Any]]:
    return [column_formatter(c, reader=reader) for c in report.columns]


def text_row(formatters: list[Callable[[Any], Any]], row: tuple[Any, ...]) -> list[Any]:
    return [f(v) for f, v in zip(formatters, row)]


def text_cell(value: Any, kind: str, places: int = 2) -> str:
    """One value as the CSV and JSON write it ('' for None)."""
    text = column_formatter(Column("value", "value", kind, places=places))(value)
    return "" if text is None else text


def json_body(report: Report) -> dict[str, Any]:
    """The report as the API's JSON: columns (with the currency of money) and rows of text cells."""
    fmt = cell_formatters(report)
    return {
        "report": report.name,
        "title": str(report.title),
        "scope": report.scope_text(),
        "preamble": report.preamble(),
        "time_zone": labels.zone_name(),
        "currency": currency(),
        "filters": report.filters.as_json(),
        "columns": [
            {"key": c.key, "title": str(c.title), "kind": c.kind, **({"currency": currency()} if c.kind == MONEY else {})}
            for c in report.columns
        ],
        "rows": [["" if v is None else v for v in text_row(fmt, row)] for row in report.rows()],
    }


# -- CSV ----------------------------------------------------------------------------------------


def _csv_line_writer() -> tuple[io.StringIO, Any]:
    buffer = io.StringIO()
    return buffer, csv.writer(buffer, lineterminator="\n")


def csv_chunks(report: Report, *, progress: Progress | None = None, use_copy: bool = True) -> Iterator[bytes]:
    """The report as CSV, in chunks of bytes: a byte order mark, the preamble (one cell: what the report
    is and covers, its filters), the header, data rows, the TOTAL row.

    On PostgreSQL a report with ``copy_sql`` streams its data rows straight from ``COPY … TO STDOUT``
    (the same text, built by the database); otherwise rows are formatted here, ``CHUNK_ROWS`` at a time.
    """
    buffer, writer = _csv_line_writer()
    buffer.write(BOM)
    writer.writerow([neutralise(report.preamble(machine=True))])
    writer.writerow(report.header())
    formatters = cell_formatters(report)
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
        sql_sums = report.totals_sql() or {}
        buffer, writer = _csv_line_writer()
        writer.writerow(text_row(formatters, total_of(report, sql_sums)))
        yield buffer.getvalue().encode()
        return
    sums: dict[str, int] = {}
    done = 0
    batch: list[list[Any]] = []
    for row in accumulate(report, report.rows(), sums):
        batch.append(text_row(formatters, row))
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
    writer.writerow(text_row(formatters, total_of(report, sums)))
    yield buffer.getvalue().encode()
    if progress:
        progress(done)


def write_csv(report: Report, out: IO[bytes], *, progress: Progress | None = None, **_: Any) -> None:
    for chunk in csv_chunks(report, progress=progress):
        out.write(chunk)


# -- XLSX ----------------------------------------------------------------------------------------

XLSX_WIDTHS = {MONEY: 15, PERCENT: 11, DATE: 12, DATETIME: 20, INT: 9, TEXT: 16}


def write_xlsx(report: Report, out: IO[bytes] | str, *, progress: Progress | None = None, **meta: Any) -> None:
    """openpyxl in write-only mode: rows go to a temporary file as they come, memory stays flat.

    The first row is the preamble (what the report covers); then the header, frozen. Numbers are numbers
    a spreadsheet can sum (money with the currency's decimals, counts whole), shown through number formats
    (``#,##0.00``, ``0.00%``) that the spreadsheet writes with its reader's own separators; dates are dates,
    times date-times in the casino's time zone, shown in the report's language's short date format
    (:func:`xlsx_date_format`); widths are set.
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook(write_only=True)
    workbook.properties.title = str(report.title)
    workbook.properties.subject = report.preamble()
    workbook.properties.creator = str(meta.get("generated_by") or "Croupier")
    # a sheet's name may not hold []:*?/\ (openpyxl refuses it: "Slot liabilities: progressives…")
    sheet_name = "".join(" " if ch in "[]:*?/\\" else ch for ch in str(report.title)).strip()
    sheet = workbook.create_sheet(title=" ".join(sheet_name.split())[:31] or "Report")
    sheet.freeze_panes = "A3"
    for i, c in enumerate(report.columns, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = max(XLSX_WIDTHS[c.kind], min(len(c.header()) + 2, 40))
    bold = Font(bold=True)
    preamble = WriteOnlyCell(sheet, value=sheet_text(report.preamble()))
    preamble.font = bold
    sheet.append([preamble])
    header = []
    for title in report.header():
        cell = WriteOnlyCell(sheet, value=title)
        cell.font = bold
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        header.append(cell)
    sheet.append(header)
    places = digits()
    money_format = "#,##0" + ("." + "0" * places if places else "")
    date_format, datetime_format = xlsx_date_format(), xlsx_date_format(time=True)
    columns = report.columns

    def cells(row: tuple[Any, ...], *, bold_row: bool = False) -> list[Any]:
        out_row: list[Any] = []
        for value, c in zip(row, columns):
            if value is None:
                out_row.append(None)
                continue
            if isinstance(value, str):
                cell = WriteOnlyCell(sheet, value=sheet_text(value))
            elif c.kind == MONEY:
                cell = WriteOnlyCell(sheet, value=money_decimal(value, places))
                cell.number_format = money_format
            elif c.kind == PERCENT:
                pct = percent_decimal(value, c.places)
                cell = WriteOnlyCell(sheet, value=None if pct is None else pct.scaleb(-2))
                cell.number_format = "0." + "0" * c.places + "%"
            elif c.kind == DATETIME:
                cell = WriteOnlyCell(sheet, value=timezone.localtime(value).replace(tzinfo=None))
                cell.number_format = datetime_format
            elif c.kind == DATE:
                cell = WriteOnlyCell(sheet, value=value)
                cell.number_format = date_format
            elif c.kind == INT:
                cell = WriteOnlyCell(sheet, value=int(value))
                if not c.identifier:
                    cell.number_format = "#,##0"
            else:
                cell = WriteOnlyCell(sheet, value=sheet_text(str(value)))
            if bold_row:
                cell.font = bold
            out_row.append(cell)
        return out_row

    sums: dict[str, int] = {}
    done = 0
    for row in accumulate(report, report.rows(), sums):
        sheet.append(cells(row))
        done += 1
        if progress and done % CHUNK_ROWS == 0:
            progress(done)
    sheet.append(cells(total_of(report, sums), bold_row=True))
    workbook.save(out)
    if progress:
        progress(done)


