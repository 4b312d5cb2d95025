"""The closing and reporting screens (``/accounting/shifts/…``, ``/accounting/reports/``).

* the shifts, and per shift each table's state: its figures as they stand (or as its close fixed
  them) and, in words, what is missing before it can close; the table's close and the shift's close;
* the reconciliation's result per table: rounds win against count win, the variance against the
  tolerance, who accepted a variance over it and why; the button that runs a reconciliation not yet run;
* the reports on screen with their filters, and the exports written in the background, with their
  progress and their download.

Thin: every action is the service the JSON API calls (``accounting.services.shifts``, ``reconcile``,
``alerts``, ``exports``) and every figure is ``accounting.figures``' (through the selectors'
:class:`TableShiftFigures` as they stand, the close's stored figures once closed, and the reports'
rows). The services' refusals are put in the user's words here, from their codes.

Who: pit managers (their pits' tables; they close and accept variances), accountants (every table;
they run reconciliations and export), auditors (every table, read only). The reports are the
accountants'. Dealers are refused.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.timesince import timesince
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounting import figures, labels
from accounting.conf import int_knob
from accounting.labels import reconciliation_label
from accounting.models import (
    Alert,
    DropCount,
    ExportStatus,
    InventoryCount,
    Reconciliation,
    ReconciliationStatus,
    ReportExport,
    ShiftReconciliation,
    Slip,
    SlipKind,
    TableShiftClose,
)
from accounting.money import money_words, percent_words
from accounting.reports import CONTENT_TYPES, REPORTS, WRITERS, Filters, get_report, parse_filters
from accounting.reports import labels as report_labels
from accounting.reports.base import GROUP_WORDS, accumulate, cell_formatters, text_row, total_of
from accounting.selectors import TableShiftFigures, accountant_queue, table_shift_figures_many, tables_active_in
from accounting.services import alerts, counts, exports, reconcile, shifts, slips
from accounting.views.cage import superseded_view
from casino.audit.models import AuditRecord
from casino.audit.services import audit_export_logged
from casino.core.roles import Role, has_role
from casino.errors import DomainError
from casino.idempotency import once_per_form
from casino.words import shift_words, when_words
from tables.access import manages_table
from tables.models import Pit, Shift, ShiftStatus, Table
from tables.selectors import visible_tables

READERS = (Role.PIT_MANAGER, Role.SHIFT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)
SHOWN_ROWS = 100  # a report's rows shown on screen (the totals are over all of them; the files hold all)
SHIFTS_LISTED = 40
EXPORTS_LISTED = 10
FORMAT_NAMES = {"csv": "CSV", "xlsx": "XLSX (Excel)", "pdf": "PDF"}

# -- words -------------------------------------------------------------------------------------------

# a live round, by its status: the sentence that keeps its table from closing
ROUND_STATE = {
    "open": gettext_lazy("Round %(number)s is still open for bets: finish it or void it."),
    "betting_closed": gettext_lazy("Round %(number)s is closed for bets but not dealt: finish it or void it."),
    "dealing": gettext_lazy("Round %(number)s is still being dealt: finish it or void it."),
}
SLIP_STATE = {  # (kind, status) → what is left to do
    ("fill", "requested"): gettext_lazy("Fill slip %(reference)s was asked for, and the cage has not issued it."),
    ("fill", "issued"): gettext_lazy("Fill slip %(reference)s left the cage, and the table has not signed for it."),
    ("credit", "requested"): gettext_lazy("Credit slip %(reference)s was asked for, and the table has not sent the "
                                          "chips."),
    ("credit", "issued"): gettext_lazy("Credit slip %(reference)s left the table, and the cage has not signed for it."),
}
REFUSALS = {
    "table_shift_closed": gettext_lazy("That table is already closed for this shift."),
    "already_reopened": gettext_lazy("That table's close was already reopened once in this shift: a close is "
                                     "reopened once."),
    "table_shift_not_closed": gettext_lazy("That table is not closed: there is no close to reopen."),
    "shift_manager_required": gettext_lazy("Only a shift manager may do this."),
    "shift_closed": gettext_lazy("This shift is already closed."),
    "pit_manager_required": gettext_lazy("Only a pit manager of that table's pit may do this."),
    "concurrent_change": gettext_lazy("Someone changed this shift at the same moment: the page shows it now; try "
                                      "again."),
    "shift_not_ended": gettext_lazy("This shift is still running: it is reconciled once it is closed or has ended."),
    "role_required": gettext_lazy("Your account may not do this."),
    "already_acknowledged": gettext_lazy("Someone has already accepted that variance."),
    "accountant_required": gettext_lazy("Reports are exported by accountants."),
    "bad_format": gettext_lazy("Choose CSV, XLSX or PDF."),
    "unknown_alert": gettext_lazy("That is not there any more: reload the page."),
    "unknown_shift": gettext_lazy("That shift does not exist."),
    "unknown_table": gettext_lazy("That table does not exist."),
    "unknown_report": gettext_lazy("That report does not exist."),
    "not_your_table": gettext_lazy("That table is not one of yours."),
}
# a report filter's refusal, by the filter: (cannot be narrowed by it, no such one, not valid)
FILTER_WORDS = {
    "date_from": (gettext_lazy("This report cannot be narrowed by start date."), None,
                  gettext_lazy("The start date is not valid: check it and try again.")),
    "date_to": (gettext_lazy("This report cannot be narrowed by end date."), None,
                gettext_lazy("The end date is not valid: check it and try again.")),
    "shift": (gettext_lazy("This report cannot be narrowed by shift."), gettext_lazy("There is no such shift."),
              gettext_lazy("The shift is not valid: check it and try again.")),
    "table": (gettext_lazy("This report cannot be narrowed by table."), gettext_lazy("There is no such table."),
              gettext_lazy("The table is not valid: check it and try again.")),
    "pit": (gettext_lazy("This report cannot be narrowed by pit."), gettext_lazy("There is no such pit."),
            gettext_lazy("The pit is not valid: check it and try again.")),
    "game": (gettext_lazy("This report cannot be narrowed by game."), gettext_lazy("There is no such game."),
             gettext_lazy("The game is not valid: check it and try again.")),
    "dealer": (gettext_lazy("This report cannot be narrowed by dealer."), gettext_lazy("There is no such dealer."),
               gettext_lazy("The dealer is not valid: check it and try again.")),
    "group": (gettext_lazy("This report cannot be narrowed by grouping."), None,
              gettext_lazy("The grouping is not valid: check it and try again.")),
    "kind": (gettext_lazy("This report cannot be narrowed by kind of slip."), None,
             gettext_lazy("The kind of slip is not valid: check it and try again.")),
    "threshold": (gettext_lazy("This report cannot be narrowed by threshold."), None,
                  gettext_lazy("The threshold is not valid: check it and try again.")),
}


def refusal_text(exc: DomainError) -> str:
    """A service's refusal in the user's words (its message is for developers and logs)."""
    if exc.code in ("unknown_filter", "unsupported_filter", "bad_filter") or (
        exc.code.startswith("unknown_") and exc.field in FILTER_WORDS
    ):
        narrowed, unknown, invalid = FILTER_WORDS.get(exc.field or "", (None, None, None))
        if exc.code == "unsupported_filter":
            return str(narrowed or gettext("This report cannot be narrowed by that filter."))
        if exc.code == "bad_filter" and exc.field == "date_from" and "date_to" in exc.message:
            return gettext("The start date is after the end date.")
        if exc.code.startswith("unknown_") and exc.code != "unknown_filter":
            return str(unknown or gettext("There is no such filter."))
        return str(invalid or gettext("The filter is not valid: check it and try again."))
    if isinstance(exc, shifts.CloseRefused):
        return gettext("It cannot close yet: %(missing)s.") % {"missing": "; ".join(exc.words)}
    return str(REFUSALS.get(exc.code) or gettext("That could not be done; if it persists, tell the IT department."))


def amount(minor: int | None) -> str:
    """Money in the one format (``9000`` → ``€90.00``: accounting.money.money_words); a dash when undefined."""
    return "—" if minor is None else money_words(minor)


def percent(value: Any) -> str:
    return percent_words(value)


def who(user: Any) -> str:
    if user is None:
        return gettext("the system")
    staff = getattr(user, "staff", None)
    name = getattr(staff, "display_name", "") if staff is not None else ""
    username = user.get_username()
    return f"{name} ({username})" if name and name != username else username


def when(moment: dt.datetime | None) -> str:
    return when_words(moment, empty="")


def missing_words(found: TableShiftFigures) -> list[str]:
    """What keeps a table's shift from closing (the same conditions as ``TableShiftFigures.missing``)."""
    words = []
    if found.opener is None:
        words.append(gettext("No opening chip count (the opener) has been recorded."))
    if found.closer is None:
        words.append(gettext("No closing chip count (the closer) has been recorded."))
    if found.drop_count is None:
        words.append(gettext("The drop box has not been counted (no soft count)."))
    words += [str(ROUND_STATE.get(r.status) or gettext_lazy("Round %(number)s is not finished: finish it or void it."))
              % {"number": r.number} for r in found.live_rounds]
    words += [str(SLIP_STATE.get((s.kind, s.status)) or gettext_lazy("Slip %(reference)s is not received."))
              % {"reference": s.reference} for s in found.slips_in_transit]
    return words


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


def _shift_url(shift_id: int, anchor: str = "") -> str:
    url = reverse("accounting-web:shift", kwargs={"shift_id": shift_id})
    return f"{url}#{anchor}" if anchor else url


# -- the shifts ---------------------------------------------------------------------------------------


@login_required
@require_GET
def shift_list(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, gettext("Closing and reconciliation are for pit managers, accountants and auditors."))
    recent = list(Shift.objects.select_related("shift_type", "closed_by").order_by("-starts_at")[:SHIFTS_LISTED])
    ids = [s.pk for s in recent]
    closed = dict(TableShiftClose.objects.standing().filter(shift_id__in=ids).values_list("shift_id").annotate(n=Count("id")))
    reconciled = {r.shift_id: r for r in ShiftReconciliation.objects.filter(shift_id__in=ids)}
    rows = []
    for s in recent:
        active = tables_active_in(s).count()
        r = reconciled.get(s.pk)
        rows.append({
            "shift": s,
            "label": str(s),
            "open": s.status == ShiftStatus.OPEN,
            "status": gettext("open") if s.status == ShiftStatus.OPEN else (
                gettext("closed %(when)s by %(who)s") % {"when": when(s.closed_at), "who": who(s.closed_by)}),
            "tables": active,
            "tables_closed": closed.get(s.pk, 0),
            "reconciliation": reconciliation_label(r.status) if r else None,
        })
    return render(request, "accounting/closes/shifts.html", {"rows": rows})


COUNT_TITLES = {"opener": gettext_lazy("Opening chip count"), "closer": gettext_lazy("Closing chip count"),
                "drop": gettext_lazy("Drop (soft count)")}


def _count_chains(user: Any, shift: Shift, tables: list[Table]) -> dict[int, list[dict[str, Any]]]:
    """Each table's counts in the shift, by kind: the count in force (with the control to count it again, for
    who may while the table's shift is open) and the counts recounts superseded, shown struck through."""
    ids = [t.pk for t in tables]
    records: list[Any] = list(InventoryCount.objects.filter(shift=shift, table_id__in=ids).select_related(
        "dealer_signer__user", "supervisor_signer__user").order_by("id"))
    records += list(DropCount.objects.filter(shift=shift, table_id__in=ids).select_related(
        "counter_one__user", "counter_two__user").order_by("id"))
    later = {(type(r), r.supersedes_id): r for r in records if r.supersedes_id is not None}
    by_table = {t.pk: t for t in tables}
    out: dict[int, list[dict[str, Any]]] = {}
    for table_id, kind in sorted({(r.table_id, getattr(r, "kind", "drop")) for r in records},
                                 key=lambda k: (k[0], list(COUNT_TITLES).index(k[1]))):
        mine = [r for r in records if r.table_id == table_id and getattr(r, "kind", "drop") == kind]
        current = next(r for r in mine if (type(r), r.pk) not in later)
        table = by_table[table_id]
        is_open = counts.recount_open(table, shift)
        may = is_open and (has_role(user, Role.COUNT_TEAM) if kind == "drop" else manages_table(user, table))
        out.setdefault(table_id, []).append({
            "kind": kind,
            "title": COUNT_TITLES[kind],
            "total": amount(current.total),
            "reason": current.reason,
            "superseded": [superseded_view(r, later[(type(r), r.pk)]) for r in mine if (type(r), r.pk) in later],
            "pk": current.pk,
            "recount_action": reverse("accounting-web:cage-drop" if kind == "drop" else "accounting-web:cage-counts")
            if may else "",
        })
    return out


def _table_rows(user: Any, shift: Shift, tables: list[Table]) -> list[dict[str, Any]]:
    found = table_shift_figures_many(tables, shift)
    chains = _count_chains(user, shift, tables)
    superseded: dict[int, list[dict[str, Any]]] = {}
    for earlier in (TableShiftClose.objects.filter(shift=shift, table_id__in=[t.pk for t in tables],
                                                   reopening__isnull=False)
                    .select_related("closed_by", "reopening__reopened_by").order_by("id")):
        r = earlier.reopening
        superseded.setdefault(earlier.table_id, []).append({
            "closed": gettext("Closed %(at)s by %(who)s: count win %(win)s, variance %(variance)s") % {
                "at": when(earlier.closed_at), "who": who(earlier.closed_by), "win": amount(earlier.count_win),
                "variance": amount(earlier.variance)},
            "reopened": gettext("reopened %(at)s by %(who)s: %(reason)s") % {
                "at": when(r.reopened_at), "who": who(r.reopened_by), "reason": r.reason},
        })
    may_reopen = shift.status == ShiftStatus.OPEN and has_role(user, Role.SHIFT_MANAGER)
    closes = {c.table_id: c for c in TableShiftClose.objects.standing().filter(shift=shift).select_related("closed_by")}
    rows = []
    for table in tables:
        f = found[table.pk]
        close = closes.get(table.pk)
        values: dict[str, Any]
        if close is not None:
            values = {
                "opener": close.opener_total, "closer": close.closer_total, "fills": close.fills,
                "credits": close.credits, "drop": close.drop, "marker_payments": close.marker_payments,
                "count_win": close.count_win, "rounds": close.rounds, "handle": close.handle,
                "rounds_win": close.rounds_win, "pool_change": close.pool_change, "variance": close.variance,
                "hold": figures.hold(close.count_win, close.drop),
                "statistical_hold": figures.statistical_hold(close.rounds_win, close.handle),
            }
            missing: list[str] = []
        else:
            values = {
                "opener": f.opener_total, "closer": f.closer_total, "fills": f.fills, "credits": f.credits,
                "drop": f.drop, "marker_payments": f.marker_payments, "count_win": f.count_win, "rounds": f.rounds,
                "handle": f.handle, "rounds_win": f.rounds_win, "pool_change": f.pool_change, "variance": f.variance,
                "hold": f.hold, "statistical_hold": f.statistical_hold,
            }
            missing = missing_words(f)
        rows.append({
            "table": table,
            "close": close,
            "closed_by": who(close.closed_by) if close else "",
            "closed_at": when(close.closed_at) if close else "",
            "missing": missing,
            "can_close": close is None and not missing and manages_table(user, table),
            "manages": manages_table(user, table),
            "figures": [
                ("opener", gettext("Opening chip count"), amount(values["opener"])),
                ("closer", gettext("Closing chip count"), amount(values["closer"])),
                ("fills", gettext("Fills received"), amount(values["fills"])),
                ("credits", gettext("Credits sent"), amount(values["credits"])),
                ("drop", gettext("Drop (soft count)"), amount(values["drop"])),
                ("marker_payments", gettext("Marker payments at the table"), amount(values["marker_payments"])),
                ("count_win", gettext("Count win"), amount(values["count_win"])),
                ("hold", gettext("Hold (count win ÷ drop)"), percent(values["hold"])),
                ("rounds", gettext("Rounds settled"), str(values["rounds"])),
                ("handle", gettext("Handle (amount wagered)"), amount(values["handle"])),
                ("rounds_win", gettext("Rounds win"), amount(values["rounds_win"])),
                ("statistical_hold", gettext("Statistical hold (rounds win ÷ handle)"),
                 percent(values["statistical_hold"])),
                ("pool_change", gettext("Pool change"), amount(values["pool_change"])),
                ("variance", gettext("Variance"), amount(values["variance"])),
            ],
            "short": (values["variance"] or 0) < 0,
            "counts": chains.get(table.pk, []),
            "reopenings": superseded.get(table.pk, []),
            "can_reopen": may_reopen and close is not None and table.pk not in superseded,
        })
    return rows


def _cause_text(cause: dict[str, Any]) -> str:
    template = str(labels.CAUSES.get(cause.get("cause", ""), labels.OTHER_CAUSE))
    detail = cause.get("detail", "")
    if cause.get("cause") == "missing_count":
        detail = str(labels.MISSING_COUNTS.get(detail, detail))
    raw = cause.get("amount")
    return template.format(number=cause.get("number", ""), detail=detail,
                           amount=amount(raw if isinstance(raw, int) else None))


def _reconciliation(user: Any, shift: Shift, tables: list[Table]) -> dict[str, Any]:
    """The shift's reconciliation as stored, per visible table, with the variance's tolerance and acceptance."""
    tolerance = int_knob("VARIANCE_ALERT")
    run = ShiftReconciliation.objects.filter(shift=shift).first()
    visible = {t.pk for t in tables}
    results = Reconciliation.objects.filter(shift=shift, table_id__in=visible).select_related("table")
    accepted = {
        a.table_id: a
        for a in Alert.objects.filter(shift=shift, kind="variance", table_id__in=visible).select_related(
            "acknowledged_by")
    }
    rows: list[dict[str, Any]] = []
    for r in results.order_by("table__code"):
        over = r.variance is not None and abs(r.variance) >= tolerance
        alert = accepted.get(r.table_id)
        rows.append({
            "table": r.table,
            "status": reconciliation_label(r.status),
            "balanced": r.status == ReconciliationStatus.BALANCED,
            "rounds_win": amount(r.rounds_win),
            "count_win": amount(r.count_win),
            "pool_change": amount(r.pool_change),
            "variance": amount(r.variance),
            "short": (r.variance or 0) < 0,
            "over": over,
            "rounds": r.rounds,
            "rounds_mismatched": r.rounds_mismatched,
            "causes": [_cause_text(c) for c in r.causes],
            "alert": alert,
            "accepted_by": who(alert.acknowledged_by) if alert and alert.acknowledged_at else "",
            "accepted_at": when(alert.acknowledged_at) if alert else "",
            "can_accept": bool(over and alert and alert.acknowledged_at is None
                               and (manages_table(user, r.table) or has_role(user, Role.ACCOUNTANT))),
        })
        row = rows[-1]
        if row["accepted_by"]:
            row["acceptance"] = gettext("Accepted %(when)s by %(who)s: “%(note)s”") % {
                "when": row["accepted_at"], "who": row["accepted_by"], "note": alert.ack_note if alert else ""}
        elif over:
            row["acceptance"] = gettext("Over the tolerance of %(tolerance)s: not accepted yet.") % {
                "tolerance": amount(tolerance)}
        elif r.count_win is None:
            row["acceptance"] = gettext("No count win: a count was missing.")
        else:
            row["acceptance"] = gettext("Within the tolerance of %(tolerance)s.") % {"tolerance": amount(tolerance)}
        row["details"] = bool(row["causes"] or row["can_accept"] or row["accepted_by"])
    rows.sort(key=lambda row: (not row["details"], row["table"].code))  # what needs reading first
    pending = None
    if run is None:
        asked = (AuditRecord.objects.filter(action="shift.reconcile_request", object_type="shift",
                                            object_id=str(shift.pk)).order_by("-id").first())
        if asked is not None:
            pending = {"since": when(asked.created_at), "waited": timesince(asked.created_at)}
    return {
        "run": run,
        "status": reconciliation_label(run.status) if run else None,
        "at": when(run.created_at) if run else "",
        "rows": rows,
        "balanced": sum(1 for row in rows if row["balanced"]),
        "differing": sum(1 for row in rows if not row["balanced"]),
        "tolerance": amount(tolerance),
        "due": run is None and reconcile.shift_is_due(shift),
        "pending": pending,
        "can_run": has_role(user, Role.PIT_MANAGER, Role.ACCOUNTANT),
        "grace": int_knob("RECONCILE_GRACE_HOURS"),
    }


@login_required
@require_GET
def shift_detail(request: HttpRequest, shift_id: int) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, gettext("Closing and reconciliation are for pit managers, accountants and auditors."))
    shift = get_object_or_404(Shift.objects.select_related("shift_type", "closed_by"), pk=shift_id)
    active = list(tables_active_in(shift))
    if has_role(request.user, Role.SHIFT_MANAGER):  # the shift manager runs the whole floor
        tables = active
    else:
        visible_ids = set(visible_tables(request.user).values_list("pk", flat=True))
        tables = [t for t in active if t.pk in visible_ids]
    closed_ids = set(TableShiftClose.objects.standing().filter(shift=shift).values_list("table_id", flat=True))
    still_open = [t for t in active if t.pk not in closed_ids]
    is_open = shift.status == ShiftStatus.OPEN
    return render(
        request,
        "accounting/closes/shift.html",
        {
            "shift": shift,
            "label": shift_words(shift),
            "is_open": is_open,
            "closed_at": when(shift.closed_at),
            "closed_by": who(shift.closed_by) if shift.closed_by else "",
            "period": gettext("%(start)s to %(end)s") % {"start": when(shift.starts_at), "end": when(shift.ends_at)},
            "tables": _table_rows(request.user, shift, tables),
            "hidden_tables": len(active) - len(tables),
            "still_open": still_open,
            "can_close_shift": is_open and not still_open and has_role(request.user, Role.PIT_MANAGER),
            "closer": has_role(request.user, Role.PIT_MANAGER),
            "reconciliation": _reconciliation(request.user, shift, tables),
            "signer": who(request.user),
        },
    )


@login_required
@require_POST
def table_close(request: HttpRequest, shift_id: int, table_id: int) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("A table's shift is closed by a pit manager of its pit."))
    table = Table.objects.select_related("pit").filter(pk=table_id).first()
    code = table.code if table else gettext("The table")
    if table is not None and manages_table(request.user, table) and request.POST.get("confirm") != "yes":
        messages.error(request, gettext("%(table)s is not closed: tick the box to confirm the close first.")
                       % {"table": code})
        return redirect(_shift_url(shift_id, f"table-{code}"))
    try:
        close = shifts.table_shift_close(actor=request.user, table_id=table_id, shift_id=shift_id)
    except DomainError as exc:
        messages.error(request, gettext("%(table)s: %(why)s") % {"table": code, "why": refusal_text(exc)})
    else:
        messages.success(request, gettext("%(table)s is closed for the shift: count win %(win)s, variance %(variance)s.")
                         % {"table": code, "win": amount(close.count_win), "variance": amount(close.variance)})
    return redirect(_shift_url(shift_id, f"table-{code}"))


@login_required
@require_POST
def table_reopen(request: HttpRequest, shift_id: int, table_id: int) -> HttpResponse:
    """A shift manager reopens a table's close, once, with a reason (``shifts.table_close_reopen``)."""
    if not has_role(request.user, Role.SHIFT_MANAGER):
        return _forbidden(request, gettext("A table's close is reopened by a shift manager."))
    table = Table.objects.filter(pk=table_id).first()
    code = table.code if table else gettext("The table")
    reason = (request.POST.get("reason") or "").strip()
    if not reason:
        messages.error(request, gettext("%(table)s is not reopened: write the reason first.") % {"table": code})
        return redirect(_shift_url(shift_id, f"table-{code}"))
    try:
        _, again = once_per_form(request, lambda: shifts.table_close_reopen(actor=request.user, table_id=table_id,
                                                                            shift_id=shift_id, reason=reason))
    except DomainError as exc:
        messages.error(request, gettext("%(table)s: %(why)s") % {"table": code, "why": refusal_text(exc)})
    else:
        if again:
            messages.info(request, gettext("That form was already sent and done: nothing was done twice."))
            return redirect(_shift_url(shift_id, f"table-{code}"))
        messages.success(request, gettext("%(table)s is open again for correction: recount what was wrong, then "
                                          "close it again. The earlier close is kept, struck through.")
                         % {"table": code})
    return redirect(_shift_url(shift_id, f"table-{code}"))


@login_required
@require_POST
def shift_close(request: HttpRequest, shift_id: int) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("The shift is closed by a pit manager."))
    try:
        shifts.shift_close(actor=request.user, shift_id=shift_id)
    except DomainError as exc:
        messages.error(request, gettext("The shift is not closed. %(why)s") % {"why": refusal_text(exc)})
    else:
        done = ShiftReconciliation.objects.filter(shift_id=shift_id).exists()
        messages.success(request, gettext("The shift is closed. It has been reconciled: the result is below.") if done
                         else gettext("The shift is closed. Its reconciliation is queued: it appears below when it "
                                      "is done."))
    return redirect(_shift_url(shift_id, "reconciliation"))


@login_required
@require_POST
def reconcile_run(request: HttpRequest, shift_id: int) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER, Role.ACCOUNTANT):
        return _forbidden(request, gettext("Reconciliations are run by pit managers and accountants."))
    try:
        existing = reconcile.reconcile_request(actor=request.user, shift_id=shift_id)
    except DomainError as exc:
        messages.error(request, refusal_text(exc))
    else:
        if existing is not None:
            messages.info(request, gettext("This shift was already reconciled (%(when)s); a reconciliation is written "
                                           "once, and it stands as shown.") % {"when": when(existing.created_at)})
        elif ShiftReconciliation.objects.filter(shift_id=shift_id).exists():
            messages.success(request, gettext("The reconciliation has run: the result is below."))
        else:
            messages.success(request, gettext("The reconciliation is queued: it appears below when it is done."))
    if request.POST.get("back") == "queue":
        return redirect(reverse("accounting-web:queue"))
    return redirect(_shift_url(shift_id, "reconciliation"))


@login_required
@require_POST
def variance_accept(request: HttpRequest, alert_id: int) -> HttpResponse:
    alert = Alert.objects.filter(pk=alert_id, kind="variance").select_related("table").first()
    if alert is None or alert.shift_id is None:
        raise Http404(gettext("no such variance"))
    if not has_role(request.user, Role.PIT_MANAGER, Role.ACCOUNTANT):
        return _forbidden(request, gettext("A variance is accepted by an accountant or a pit manager of the table's pit."))
    reason = (request.POST.get("reason") or "").strip()
    code = alert.table.code if alert.table else ""
    if not reason:
        messages.error(request, gettext("%(table)s: write why the variance is accepted.") % {"table": code})
    else:
        try:
            alerts.variance_accept(alert_id=alert.pk, actor=request.user, note=reason)
        except DomainError as exc:
            messages.error(request, gettext("%(table)s: %(why)s") % {"table": code, "why": refusal_text(exc)})
        else:
            messages.success(request, gettext("%(table)s: the variance is accepted, with your reason.") % {"table": code})
    if request.POST.get("back") == "queue":
        return redirect(reverse("accounting-web:queue"))
    return redirect(_shift_url(alert.shift_id, "reconciliation"))


# -- the reports and their exports ------------------------------------------------------------------------


def _choices(report: type[Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """The filter controls of a report: only those it takes."""
    user_model = get_user_model()
    names = report_labels.Names()
    options: dict[str, Iterable[tuple[str, str]]] = {
        "shift": [(str(s.pk), str(s)) for s in Shift.objects.select_related("shift_type").order_by("-starts_at")[:60]],
        "table": [(str(pk), f"{code} · {name}") for pk, code, name in Table.objects.order_by("code").values_list(
            "pk", "code", "name")],
        "pit": [(code, name) for code, name in Pit.objects.order_by("code").values_list("code", "name")],
        "game": [(g, report_labels.game(g)) for g in
                 Table.objects.order_by("game").values_list("game", flat=True).distinct()],
        "dealer": [(u, names.person(u)) for u in user_model.objects.filter(groups__name=Role.DEALER.value).order_by(
            "username").values_list("username", flat=True)],
        "group": [(k, str(v)) for k, v in GROUP_WORDS.items()],
        "kind": [("fill", gettext("Fills only")), ("credit", gettext("Credits only"))],
    }
    labels = {"date_from": gettext("From (gaming date)"), "date_to": gettext("To (gaming date)"),
              "shift": gettext("Shift"), "table": gettext("Table"), "pit": gettext("Pit"), "game": gettext("Game"),
              "dealer": gettext("Dealer"), "group": gettext("Rows"), "kind": gettext("Slips")}
    out = []
    for name in report.filters_used:
        if name not in labels:
            continue  # the threshold keeps its default on screen
        out.append({"name": name, "label": labels[name], "date": name.startswith("date_"), "value": params.get(name, ""),
                    "options": list(options.get(name, [])), "all": gettext("every one") if name != "group" else None})
    return out


def _export_rows(user: Any) -> list[dict[str, Any]]:
    rows = []
    now = timezone.now()
    for e in ReportExport.objects.filter(requested_by=user).order_by("-id")[:EXPORTS_LISTED]:
        cls = REPORTS.get(e.report)
        title = cls.title if cls else e.report
        started = e.started_at
        waited = timesince(e.created_at, started or now) if e.status != ExportStatus.FAILED or started else ""
        if e.status == ExportStatus.QUEUED:
            state = gettext("Waiting to start, for {time}").format(time=timesince(e.created_at, now))
        elif e.status == ExportStatus.RUNNING:
            of = gettext(" ({done} of {total} rows)").format(done=e.rows_done, total=e.rows_total) \
                if e.rows_total is not None else ""
            state = gettext("Being written: {progress} %{of}, after waiting {waited}").format(
                progress=e.progress, of=of, waited=waited)
        elif e.status == ExportStatus.DONE:
            took = timesince(started, e.finished_at) if started and e.finished_at else ""
            state = gettext("Ready: waited {waited}").format(waited=waited) + (
                gettext(", written in {took}").format(took=took) if took else "")
        else:
            state = gettext("It could not be written: ask for it again; if it fails again, tell the IT department.")
        filters = Filters(**{k: v for k, v in (e.filters or {}).items() if k in Filters.names()})
        rows.append({
            "export": e,
            "title": title,
            "format": FORMAT_NAMES.get(e.format, e.format.upper()),
            "filters": _filters_words(filters),
            "state": state,
            "done": e.status == ExportStatus.DONE,
            "pending": e.status in (ExportStatus.QUEUED, ExportStatus.RUNNING),
            "asked": when(e.created_at),
        })
    return rows


def _exports_context(user: Any) -> dict[str, Any]:
    rows = _export_rows(user)
    return {"exports": rows, "polling": any(r["pending"] for r in rows)}


def _filters_words(filters: Filters) -> str:
    """The filters as the user chose them, in words (never ids): the reports' own words for them."""
    return filters.describe()


@login_required
@require_GET
def report_screen(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The reports are for accountants."))
    name = request.GET.get("report") or next(iter(REPORTS))
    error = None
    if name not in REPORTS:
        name, error = next(iter(REPORTS)), gettext("That report does not exist: here is the first one.")
    cls = REPORTS[name]
    # every filter given is judged: one this report does not take is refused in words, never dropped
    params = {k: v for k, v in request.GET.items() if k not in ("report", "page") and v}
    header: list[str] = []
    shown: list[list[Any]] = []
    total: list[Any] | None = None
    count = 0
    filters: Filters | None = None
    numeric: list[bool] = []
    extra: list[bool] = []
    scope = str(cls.scope)
    too_many = 0
    try:
        filters = parse_filters(name, params)
        report = get_report(name, filters)
    except DomainError as exc:
        error = refusal_text(exc)
    else:
        header = report.header()
        scope = report.scope_text()
        numeric = [c.kind in ("money", "percent", "int") for c in report.columns]
        extra = [c.extra for c in report.columns]
        fmt = cell_formatters(report, reader=True)
        sums: dict[str, int] = {}
        limit = int_knob("EXPORT_SYNC_MAX_ROWS")  # beyond it the screen stops reading: the export has it all
        for row in accumulate(report, report.rows(), sums):
            if count < SHOWN_ROWS:
                shown.append(["" if v is None else v for v in text_row(fmt, row)])
            count += 1
            if count > limit:
                too_many = limit
                break
        else:
            total = ["" if v is None else v for v in text_row(fmt, total_of(report, sums))]
        audit_export_logged(request.user, f"{name}.screen", filters.as_json(), rows=count)  # figures leave: audited
    return render(
        request,
        "accounting/closes/reports.html",
        {
            "reports": [(n, r.title) for n, r in REPORTS.items()],
            "name": name,
            "title": cls.title,
            "controls": _choices(cls, params),
            "params": params,
            "error": error,
            "scope": scope,
            "header": list(zip(header, numeric, extra)),
            "rows": [list(zip(r, numeric, extra)) for r in shown],
            "total": list(zip(total, numeric, extra)) if total else None,
            "has_extra": any(extra),
            "count": count,
            "more": max(0, count - SHOWN_ROWS),
            "too_many": too_many,
            "formats": [(f, FORMAT_NAMES[f]) for f in WRITERS],
            "filters_words": _filters_words(filters) if filters else "",
            "shown": SHOWN_ROWS,
            **_exports_context(request.user),
        },
    )


@login_required
@require_GET
def exports_panel(request: HttpRequest) -> HttpResponse:
    """The exports' list alone: the reports screen polls it while one is waiting or being written."""
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The reports are for accountants."))
    return render(request, "accounting/closes/_exports.html", _exports_context(request.user))


@login_required
@require_POST
def export_start(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The reports are for accountants."))
    name = request.POST.get("report") or ""
    fmt = request.POST.get("format") or ""
    cls = REPORTS.get(name)
    params = {k: v for k in (cls.filters_used if cls else ()) if (v := request.POST.get(k))}
    try:
        export = exports.export_request(actor=request.user, report=name, fmt=fmt, filters=params)
    except DomainError as exc:
        messages.error(request, gettext("The export did not start. {why}").format(why=refusal_text(exc)))
    else:
        export.refresh_from_db()
        title = cls.title if cls else name
        text = (gettext("{title} as {format} is ready below.") if export.status == ExportStatus.DONE
                else gettext("{title} as {format} is being written: its progress is below."))
        messages.success(request, text.format(title=title, format=FORMAT_NAMES.get(fmt, fmt)))
    query = urlencode({"report": name, **params}) if cls else ""
    return redirect(f"{reverse('accounting-web:reports')}?{query}#exports")


@login_required
@require_GET
def export_download(request: HttpRequest, export_id: int) -> HttpResponseBase:
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The reports are for accountants."))
    export = ReportExport.objects.filter(pk=export_id).first()
    if export is None or (export.requested_by_id != request.user.pk and not has_role(request.user)):
        raise Http404(gettext("no such export"))
    if export.status != ExportStatus.DONE:
        messages.error(request, gettext("That file is not ready yet: its progress is shown below."))
        return redirect(f"{reverse('accounting-web:reports')}#exports")
    return FileResponse(export.file.open("rb"), as_attachment=True, filename=f"{export.report}.{export.format}",
                        content_type=CONTENT_TYPES[export.format])


# -- the accountant's queue ---------------------------------------------------------------------------------


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """What waits for the accountant or the cage: slip voids to decide, variances to accept, soft counts to
    enter, reconciliations to run; each acted on here or one link away."""
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The queue is the accountant's."))
    found = accountant_queue(reconcile.due_shift_ids())
    tolerance = int_knob("VARIANCE_ALERT")
    return render(request, "accounting/closes/queue.html", {
        "queue": found,
        "voids": [{"slip": s, "kind": SlipKind(s.kind).label, "asked_by": who(s.void_requested_by),
                   "asked_at": when(s.void_requested_at), "total": amount(s.total),
                   "mine": s.void_requested_by_id == request.user.pk} for s in found.slip_voids],
        "variances": [{"alert": a, "table": a.table.code if a.table else "", "shift": shift_words(a.shift, empty=""),
                       "variance": amount(a.data.get("variance") if isinstance(a.data.get("variance"), int) else None),
                       "at": when(a.created_at)} for a in found.variances],
        "soft_counts": [{"count": c, "table": c.table.code, "shift": shift_words(c.shift), "closer": amount(c.total),
                         "at": when(c.recorded_at)} for c in found.soft_counts],
        "reconciliations": [{"shift": s, "label": str(s), "closed": s.status == ShiftStatus.CLOSED,
                             "ended": when(s.ends_at)} for s in found.reconciliations],
        "tolerance": amount(tolerance),
    })


@login_required
@require_POST
def queue_void_approve(request: HttpRequest, slip_id: int) -> HttpResponse:
    """Approve a slip's void from the queue (the same service as the cage's slip page)."""
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("The queue is the accountant's."))
    slip = Slip.objects.filter(pk=slip_id).first()
    if slip is None:
        raise Http404(gettext("no such slip"))
    try:
        slips.slip_void_approve(actor=request.user, slip_id=slip.pk)
    except DomainError as exc:
        messages.error(request, gettext("Slip %(reference)s: %(why)s")
                       % {"reference": slip.reference, "why": QUEUE_REFUSALS.get(exc.code) or refusal_text(exc)})
    else:
        messages.success(request, gettext("Slip %(reference)s is voided, approved by you.") % {"reference": slip.reference})
    return redirect(reverse("accounting-web:queue"))


QUEUE_REFUSALS = {
    "same_person": gettext_lazy("you asked for this void yourself: someone else approves it."),
    "not_independent": gettext_lazy("you signed this slip: someone independent of it approves its void."),
    "slip_voided": gettext_lazy("it is already voided."),
    "no_void_request": gettext_lazy("nobody asked for its void."),
}

