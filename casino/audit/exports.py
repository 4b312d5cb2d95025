"""The trail as files: CSV (streamed, every row, exactly as hashed) and PDF (bounded, for reading).

The CSV carries every hashed field in its canonical text (times as ``isoformat()``, ``before`` and
``after`` as canonical JSON, an empty cell for none), so an auditor can recompute every hash from
the file alone (``casino/audit/offline.py``, docs/audit.md). A cell a spreadsheet would run as a
formula (it starts with ``= + - @``, a tab or a carriage return) is written with an apostrophe in
front, and so is a cell that starts with an apostrophe (``casino.cells.neutralise``, reversible):
the offline checker drops one leading apostrophe and hashes exactly what was recorded.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.apps import apps
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from openpyxl.cell import WriteOnlyCell

from casino.audit.labels import (
    action_words,
    chain_words,
    field_words,
    object_words,
    origin_words,
    recorded_value_label,
    role_words,
)
from casino.audit.models import AuditRecord
from casino.audit.record import FIELDS, csv_cells
from casino.cells import neutralise, sheet_text
from casino.core.roles import ROLE_LABELS
from casino.money import money_amount, number_words
from casino.pdffonts import Text, fonts

CSV_COLUMNS = FIELDS
CSV_BATCH = 2_000
PDF_DEFAULT_ROWS = 500
PDF_MAX_ROWS = 2_000


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(records: QuerySet[AuditRecord]) -> Iterator[str]:
    """Header and one line per record in id order, read in keyset batches.

    Batches by id rather than one server-side cursor: a streamed response may take minutes to
    drain, and must not hold a transaction open on the audit table while it does.
    """
    writer = csv.writer(_Echo(), lineterminator="\n")
    yield writer.writerow(CSV_COLUMNS)
    last = 0
    while True:
        batch = list(records.filter(id__gt=last).order_by("id").values_list(*FIELDS)[:CSV_BATCH])
        if not batch:
            return
        for row in batch:
            yield writer.writerow([neutralise(v, reversible=True) if isinstance(v, str) else v for v in csv_cells(row)])
        last = batch[-1][0]


def reader_headings() -> list[str]:
    """The columns of the exports a person reads (the PDF, the spreadsheet), in the reader's language."""
    return [gettext("Id"), gettext("Time (UTC)"), gettext("Chain #seq"), gettext("User (role)"), gettext("From"),
            gettext("Action"), gettext("Object"), gettext("Before"), gettext("After"), gettext("Hash")]


def _change_text(changes: list[dict[str, str]], side: str) -> str:
    return "; ".join(f"{c['field']}: {c[side]}" for c in changes if c[side])


def reader_row(r: AuditRecord) -> list[str]:
    """One record as a person reads it: its action, object, origin and chain in words, its change field by field
    in words (money in the reader's form); the hash's first twelve characters. The CSV keeps the codes."""
    changes = change_rows(r.before, r.after, r)
    return [
        str(r.pk), r.created_at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S"),
        f"{chain_words(r.chain)} #{r.seq}", f"{r.actor_username or '—'} ({role_words(r.actor_role)})",
        " ".join(x for x in (r.client_addr, origin_words(r.channel, r.device)) if x),
        action_words(r.action), f"{object_words(r.object_type)} {record_number(r.object_id)}",
        _change_text(changes, "was"), _change_text(changes, "now"), r.hash[:12],
    ]


def _filter_words(key: str) -> str:
    return {"action": gettext("Action"), "object_type": gettext("Object type"), "actor_role": gettext("Role"),
            "table_code": gettext("Table"), "actor": gettext("User"), "object_id": gettext("Object id"),
            "request_id": gettext("Request id"), "created_after": gettext("From"),
            "created_before": gettext("Until")}.get(key, key)


def _exported_line(now: dt.datetime, shown: int, total: int, filters: Mapping[str, str], generated_by: str) -> str:
    """What an export holds, on its first lines (PDF and XLSX alike): when, by whom, the filters, how many."""
    picked = ", ".join(f"{_filter_words(k)} = {v}" for k, v in sorted(filters.items())) or gettext("none")
    exported = gettext("Exported {time} UTC by {who}. Filters: {filters}.").format(
        time=f"{now:%Y-%m-%d %H:%M:%S}", who=generated_by, filters=picked)
    counted = gettext("Records {shown} of {total}").format(shown=number_words(shown, 0),
                                                            total=number_words(total, 0))
    more = (gettext(" (the first ones, oldest first: narrow the filters or export CSV for all).")
            if shown < total else ".")
    return f"{exported} {counted}{more}"


def records_pdf(records: list[AuditRecord], *, total: int, filters: Mapping[str, str], generated_by: str) -> bytes:
    """A landscape table of ``records`` (already bounded by the caller) with the filters and counts on top."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

    buffer = io.BytesIO()
    f = fonts()  # embedded Unicode fonts: any username or table code prints

    def text(value: str) -> str:
        return f.markup(value)

    now = timezone.now().astimezone(dt.UTC)
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), leftMargin=10 * mm, rightMargin=10 * mm,
                            topMargin=10 * mm, bottomMargin=12 * mm, title="Croupier audit trail",
                            author="Croupier", subject="audit trail export")
    styles = getSampleStyleSheet()
    cell = ParagraphStyle("cell", parent=styles["BodyText"], fontName=f.regular, fontSize=6.5, leading=7.5)
    title = ParagraphStyle("title", parent=styles["Title"], fontName=f.bold)
    body = ParagraphStyle("body", parent=styles["BodyText"], fontName=f.regular)
    story: list[Any] = [
        Paragraph(text(gettext("Croupier — audit trail")), title),
        Paragraph(text(_exported_line(now, len(records), total, filters, generated_by)), body),
        Spacer(1, 4 * mm),
    ]
    data: list[list[Any]] = [[Paragraph(text(h), cell) for h in reader_headings()]]
    for r in records:
        row = reader_row(r)
        data.append([*(Paragraph(text(v), cell) for v in row[:-1]), row[-1]])
    widths = [12, 27, 25, 27, 25, 24, 22, 49, 49, 17]  # 277 mm: A4 landscape less its margins
    table = LongTable(data, repeatRows=1, colWidths=[w * mm for w in widths])
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), f.regular, 6.5),
        ("FONT", (0, 0), (-1, 0), f.bold, 7),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e4e4e4")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#999999")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONT", (9, 1), (9, -1), "Courier", 6),
    ]))
    story.append(table)

    def footer(canvas: Any, document: Any) -> None:
        canvas.saveState()
        Text(f).draw(canvas, 10 * mm, 6 * mm, gettext("Croupier audit trail — exported {time} UTC — page {page}").format(
            time=f"{now:%Y-%m-%d %H:%M}", page=number_words(document.page, 0)), 7)  # in runs: any script prints
        canvas.restoreState()

    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def records_xlsx(records: list[AuditRecord], *, total: int, filters: Mapping[str, str], generated_by: str) -> bytes:
    """The same bounded records as the PDF, as a spreadsheet in the reader's words: a line saying what was
    exported, the headings, a row per record (the CSV, with the codes exactly as hashed, is for recomputing)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    now = timezone.now().astimezone(dt.UTC)
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=gettext("Audit trail")[:31])
    sheet.append([sheet_text(gettext("Croupier — audit trail"))])
    sheet.append([sheet_text(_exported_line(now, len(records), total, filters, generated_by))])
    bold = Font(bold=True)
    headings = []
    for heading in reader_headings():
        cell = WriteOnlyCell(sheet, value=heading)
        cell.font = bold
        headings.append(cell)
    sheet.append(headings)
    for r in records:
        sheet.append([sheet_text(v) for v in reader_row(r)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# -- a record's change, for people ------------------------------------------------------------------

# fields that hold money in minor units (and any field ending in one of MONEY_ENDINGS)
MONEY_FIELDS = frozenset({
    "amount", "paid", "total", "rake", "limit", "prize_pool", "written_off", "refunds", "stake", "net", "drop",
    "win", "commission", "variance", "handle", "fills", "credits", "opener_total", "closer_total", "pool_change",
    "marker_payments", "estimated_average_bet", "min_bet", "max_bet", "threshold", "balance", "buy_in", "payout",
    "jackpot", "reset_value", "value", "cash", "tolerance", "entry_fee", "fee", "prize", "prizes",
})
MONEY_ENDINGS = ("_amount", "_total", "_bet", "_win", "_fee", "_limit", "_minor")
CHANGE_ROWS = 12  # a record's change shows at most this many fields; the CSV holds everything


def _money_field(key: str) -> bool:
    return key in MONEY_FIELDS or key.endswith(MONEY_ENDINGS)


def _field_words(path: list[str]) -> str:
    return " › ".join(field_words(p) for p in path)


# how a dealer's step recorded on a round reads (a record's ``next``: the engine's English ``say`` and its
# ``message``, an id and params): the tables app words it in the reader's language (tables.apps), an older
# record's message re-derived from its round; called with the record and the step
step_wording: list[Callable[[Any, Mapping[str, Any]], str]] = []


def _is_step(value: Any) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("say"), str)


def step_words(record: Any, step: Mapping[str, Any]) -> str:
    """A recorded dealer's step in the reader's words (its English ``say`` when no app words steps)."""
    return step_wording[0](record, step) if step_wording else str(step.get("say") or "")


def _flatten(value: Any, path: list[str], out: dict[tuple[str, ...], Any]) -> None:
    if _is_step(value):  # a dealer's step is one sentence, not its parts
        out[tuple(path)] = value
    elif isinstance(value, Mapping) and value and not _chips_like(path, value):
        for k, v in value.items():
            _flatten(v, [*path, str(k)], out)
    else:
        out[tuple(path)] = value


def _chips_like(path: list[str], value: Mapping[str, Any]) -> bool:
    return bool(path) and path[-1] in ("chips", "denominations", "counts") and all(str(k).isdigit() for k in value)


def _money(minor: int) -> str:
    return money_amount(minor)  # the reader's form: "€5,000.00", "5.000,00 €"


def value_words(key: str, value: Any, *, nested: bool = False) -> str:
    """One recorded value as a person reads it: money in major units with the currency as the reader writes it,
    chips as "2 × €500.00", times in the casino's time zone, yes/no, lists joined; "—" for nothing. A name a
    person gave (a user name, a note) is shown as written, never as a label that happens to share its spelling;
    a number inside a group (``outcome › player``: a hand's points) is a number, not a record's."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int) and _money_field(key):
        return _money(value)
    if isinstance(value, int) and not isinstance(value, bool) and _reference_field(key) and not nested:
        return record_number(value)
    if isinstance(value, Mapping):
        if _chips_like([key], value):
            pairs = sorted(((int(d), q) for d, q in value.items()), reverse=True)
            return ", ".join(f"{q} × {_money(d)}" for d, q in pairs)
        return ", ".join(f"{_field_words([str(k)])}: {value_words(str(k), v, nested=True)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_words(key, v, nested=nested) for v in value)
    if isinstance(value, str) and len(value) >= 19 and value[4:5] == "-" and value[10:11] == "T":
        moment = parse_datetime(value)
        if moment is not None:
            return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S") if timezone.is_aware(moment) else (
                moment.strftime("%Y-%m-%d %H:%M:%S"))
    if isinstance(value, str) and _free_text(key):
        return value
    if isinstance(value, str):
        if CARD.fullmatch(value):
            return f"{'10' if value[0] == 'T' else value[0]}{SUITS[value[1]]}"
        label = _choice_labels().get(value)
        if label is not None:
            return str(label)
        worded = recorded_value_label(value)
        if worded is not None:
            return worded
        return value.replace("_", " ") if value.isidentifier() and "_" in value else value
    return str(value)


# the recorded values that name another record by its number (a bet's round, a change's user…)
REFERENCES = frozenset({"id", "round", "bet", "user", "table", "shift", "slip", "player", "settlement", "count",
                        "marker", "alert", "assignment", "event", "shoe", "drop", "close", "reconciliation"})


# the recorded values a person typed or chose as names: shown as written
FREE_TEXT = frozenset({"username", "name", "who", "description", "note", "memo", "reason", "request_reason",
                       "message", "object", "change", "reference", "label", "location", "asset_number"})


def _free_text(key: str) -> bool:
    return key in FREE_TEXT or key.endswith("_username")


def _reference_field(key: str) -> bool:
    return key in REFERENCES or key.endswith("_id")


def record_number(value: Any) -> str:
    """A record's number as a person reads it: "#4904" (a code such as a table's stays as it is)."""
    text = str(value)
    return f"#{text}" if text.isdigit() else text


CARD = re.compile(r"[2-9TJQKA][SHDC]")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@functools.cache
def _choice_labels() -> dict[str, Any]:
    """Every stored code with a label (each model field's choices: statuses, kinds, games; the roles), read
    once: a recorded value that is a code is shown as its label, in the reader's language."""

    found: dict[str, Any] = {str(role): label for role, label in ROLE_LABELS.items()}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for code, label in getattr(field, "flatchoices", None) or ():
                if isinstance(code, str) and code and code == code.lower() and not code.isdigit():
                    found.setdefault(code, label)
    return found


def change_rows(before: Any, after: Any, record: Any = None) -> list[dict[str, str]]:
    """A record's before and after as the fields that changed: field, was, now (in words); a dealer's step
    (``next``) as the sentence the dealer read, in the reader's language (:func:`step_words`, ``record`` the
    audit record it is read from).

    A field the same before and after is left out; a record with only an after (a creation) lists
    what was written, "was" empty. At most ``CHANGE_ROWS`` rows (the CSV export has the rest)."""
    was: dict[tuple[str, ...], Any] = {}
    now: dict[tuple[str, ...], Any] = {}
    if before is not None:
        _flatten(before, [], was)
    if after is not None:
        _flatten(after, [], now)
    rows = []
    for path in list(dict.fromkeys([*was, *now])):
        a, b = was.get(path), now.get(path)
        if path in was and path in now and a == b:
            continue
        key = path[-1] if path else ""
        nested = len(path) > 1

        def words(value: Any, key: str = key, nested: bool = nested) -> str:
            return step_words(record, value) if _is_step(value) else value_words(key, value, nested=nested)

        rows.append({"field": _field_words(list(path)) or "—", "was": words(a) if path in was else "",
                     "now": words(b) if path in now else ""})
    return rows[:CHANGE_ROWS]
