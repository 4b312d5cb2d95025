"""A report as a PDF an accountant can sign: a header (casino, report, filters, when, by whom),
page numbers, one column layout for the whole document, right-aligned numbers with thousands
separators, nothing truncated (a cell too long for its column wraps) and embedded Unicode fonts
(``casino.pdffonts``: DejaVu, with a CJK fallback, so ``Zoë Łukasz 王伟`` prints).

Widths are measured over every row first (the rows are read twice, nothing is kept), so a column is
as wide on the last page as on the first; the TOTAL row is measured too. Pages are drawn one at a time; the page
count ("page 3 of 12") is a form that the last page defines, so nothing waits for the end in memory
beyond what reportlab keeps of finished pages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from django.utils import timezone
from django.utils.translation import gettext

from accounting.conf import knob
from accounting.reports.base import (
    CHUNK_ROWS,
    DATE,
    DATETIME,
    INT,
    MONEY,
    PERCENT,
    Column,
    Progress,
    Report,
    accumulate,
    column_formatter,
    total_of,
)
from casino.pdffonts import Text, fonts
from casino.words import short_when_words

NUMERIC = (MONEY, INT, PERCENT, DATE)  # right-aligned, never wrapped
SIZES = (8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0)  # body font sizes tried, largest first, until the columns fit
PAD = 3.0  # points each side of a cell
PAGE_TOTAL_FORM = "croupier-page-total"


def _pdf_formatter(c: Column) -> Callable[[Any], str]:
    """Cells as the PDF prints them: numbers, days and times as the reader's language writes them (the report
    screen's form, ``base.column_formatter(reader=True)``), times in the casino's time zone (the header names
    it), so a time can wrap between date and hour."""
    if c.kind not in NUMERIC and c.kind != DATETIME:  # a PDF runs no formula: text as it is
        return lambda v: "" if v is None else str(v)
    base = column_formatter(c, reader=True)
    return lambda v: "" if v is None else str(base(v))


@dataclass
class Layout:
    size: float
    widths: list[float]
    xs: list[float]
    header_lines: list[list[str]]


class Measure:
    """Pass 1: the widest cell and the longest word of each column, at a font size of 1."""

    def __init__(self, text: Text, columns: tuple[Column, ...]) -> None:
        self.text, self.columns = text, columns
        self.widest = [0.0] * len(columns)
        self.longest_word = [0.0] * len(columns)

    def add(self, cells: list[str], *, bold: bool = False) -> None:
        for i, value in enumerate(cells):
            if not value:
                continue
            w = self.text.width(value, 1, bold=bold)
            if w > self.widest[i]:
                self.widest[i] = w
            if self.columns[i].kind not in NUMERIC and " " in value:
                w = max(self.text.width(p, 1, bold=bold) for p in value.split(" "))
            if w > self.longest_word[i]:
                self.longest_word[i] = w

    def layout(self, headers: list[str], room: float) -> Layout:
        """One column layout for the document: the largest body size at which the columns fit, widths
        from the widest cell (numbers never wrap; text and times wrap at spaces when they must)."""
        text, columns, n = self.text, self.columns, len(self.columns)
        header_word = [max(text.width(p, 1, bold=True) for p in h.split(" ")) for h in headers]
        chosen, widths = SIZES[-1], [0.0] * n
        for size in SIZES:
            natural = [max(self.widest[i], header_word[i]) * size + 2 * PAD for i in range(n)]
            if sum(natural) <= room or size == SIZES[-1]:
                chosen, widths = size, natural
                break
        if sum(widths) > room:  # even the smallest size does not fit: wrapping columns give up their excess
            fixed = [columns[i].kind in NUMERIC for i in range(n)]
            minimum = [
                widths[i] if fixed[i] else max(self.longest_word[i], header_word[i]) * chosen + 2 * PAD
                for i in range(n)
            ]
            spare = room - sum(minimum)
            excess = [0.0 if fixed[i] else widths[i] - minimum[i] for i in range(n)]
            share = spare / sum(excess) if spare > 0 and sum(excess) > 0 else 0.0
            widths = [minimum[i] + excess[i] * share for i in range(n)]
        else:  # room to spare: spread it over every column
            extra = (room - sum(widths)) / n
            widths = [w + extra for w in widths]
        xs, x = [], 0.0
        for w in widths:
            xs.append(x)
            x += w
        header_lines = [text.wrap(h, widths[i] - 2 * PAD, chosen, bold=True) for i, h in enumerate(headers)]
        return Layout(chosen, widths, xs, header_lines)


def write_pdf(report: Report, out: IO[bytes] | str, *, progress: Progress | None = None,
              generated_by: str = "", generated_at: dt.datetime | None = None, **_: Any) -> None:
    """A landscape A4 document: the header on every page, the column titles repeated, the TOTAL row
    in bold under a rule, and "page N of M" at the foot."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.pdfgen.canvas import Canvas

    text = Text(fonts())
    formatters = [_pdf_formatter(c) for c in report.columns]
    columns = report.columns
    casino = str(knob("CASINO_NAME"))
    at = timezone.localtime(generated_at or dt.datetime.now(dt.UTC))
    title = str(report.title)
    preamble = report.preamble()

    # pass 1: measure every cell (the TOTAL row too); nothing is kept but the widths
    measure = Measure(text, columns)
    sums: dict[str, int] = {}
    for row in accumulate(report, report.rows(), sums):
        measure.add([f(v) for f, v in zip(formatters, row)])
    total = [f(v) for f, v in zip(formatters, total_of(report, sums))]
    measure.add(total, bold=True)

    width, height = landscape(A4)
    margin, foot = 28.0, 24.0
    layout = measure.layout(report.header(), width - 2 * margin)
    size = layout.size
    leading = size * 1.3
    canvas = Canvas(out, pagesize=(width, height), pageCompression=1)
    canvas.setTitle(f"{casino}: {title}")
    canvas.setAuthor(generated_by or casino)
    canvas.setSubject(preamble)
    by = generated_by or "Croupier"
    generated = gettext("Generated {at} by {by}.").format(at=short_when_words(at), by=by)
    page = 0

    def start_page() -> float:
        nonlocal page
        page += 1
        y = height - margin
        text.draw(canvas, margin, y - 11, f"{casino} — {title}", 12, bold=True)
        y -= 26
        for line in text.wrap(f"{preamble} {generated}", width - 2 * margin, 7.5):
            text.draw(canvas, margin, y, line, 7.5)
            y -= 10
        y += 4
        y -= 6
        canvas.setLineWidth(0.6)
        canvas.line(margin, y, width - margin, y)
        y -= size + 4
        lines = max(len(h) for h in layout.header_lines)
        for i, c in enumerate(columns):
            for j, line in enumerate(layout.header_lines[i]):
                _cell(c, i, y - j * leading, line, bold=True)
        y -= (lines - 1) * leading + 4
        canvas.setLineWidth(0.4)
        canvas.line(margin, y, width - margin, y)
        # the foot: "page N of M", M a form defined once the last page is known
        text.draw(canvas, margin, foot - 10, f"{casino} — {title} — {short_when_words(at, seconds=False)}", 6.5)
        label = gettext("Page {page} of ").format(page=page)
        right = width - margin - 24
        text.draw(canvas, right - text.width(label, 6.5), foot - 10, label, 6.5)
        canvas.saveState()
        canvas.translate(right, foot - 10)
        canvas.doForm(PAGE_TOTAL_FORM)
        canvas.restoreState()
        return y - size - 3

    def _cell(c: Column, i: int, y: float, value: str, *, bold: bool = False) -> None:
        if c.kind in NUMERIC:
            text.draw(canvas, margin + layout.xs[i] + layout.widths[i] - PAD, y, value, size, bold=bold, right=True)
        else:
            text.draw(canvas, margin + layout.xs[i] + PAD, y, value, size, bold=bold)

    def draw_row(cells: list[str], y: float, *, bold: bool = False) -> float:
        wrapped = [
            [v] if c.kind in NUMERIC else text.wrap(v, layout.widths[i] - 2 * PAD, size, bold=bold)
            for i, (c, v) in enumerate(zip(columns, cells))
        ]
        lines = max(len(w) for w in wrapped)
        if y - (lines - 1) * leading < margin + foot:
            canvas.showPage()
            y = start_page()
        for i, c in enumerate(columns):
            for j, line in enumerate(wrapped[i]):
                _cell(c, i, y - j * leading, line, bold=bold)
        return y - lines * leading

    y = start_page()
    done = 0
    for row in report.rows():  # pass 2: the rows again, drawn
        y = draw_row([f(v) for f, v in zip(formatters, row)], y)
        done += 1
        if progress and done % CHUNK_ROWS == 0:
            progress(done)
    if y - leading < margin + foot:
        canvas.showPage()
        y = start_page()
    canvas.setLineWidth(0.6)
    canvas.line(margin, y + leading - 2, width - margin, y + leading - 2)
    draw_row(total, y, bold=True)
    canvas.showPage()
    canvas.beginForm(PAGE_TOTAL_FORM)
    text.draw(canvas, 0, 0, str(page), 6.5)
    canvas.endForm()
    canvas.save()
    if progress:
        progress(done)
