"""Closing a table's shift (counts in, win fixed, trays trued up in the ledger) and the casino's shift.

A table's shift closes when its opener, closer and soft count are recorded, no round is live and no
slip is in transit. The close fixes the figures in a :class:`TableShiftClose` (the database checks
the win and variance formulas) and posts one transaction that brings the tray accounts to the
closer, clears the drop, and books the variance. The casino's shift closes when every table that
did anything in it is closed; then reconciliation is queued.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import LedgerTransaction, TableCloseReopening, TableShiftClose
from accounting.selectors import TableShiftFigures, table_shift_figures, tables_active_in
from accounting.services import ledger, running
from accounting.services.counts import chips_of
from casino import task_names
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.outbox import enqueue
from casino.words import shift_words
from tables.access import ensure_manages
from tables.models import Shift, ShiftStatus, Table
from tables.services.locks import lock_table


class CloseRefused(Conflict):
    """A close refused, naming everything still missing."""

    def __init__(self, message: str, *, missing: list[str], code: str = "close_refused",
                 words: list[str] | None = None) -> None:
        super().__init__(message, code=code)
        self.missing = missing  # the API's list, as stored and matched (English)
        self.words = words if words is not None else missing  # the same, in the reader's language

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "missing": self.missing}


def _reopened_once(table: Table, shift: Shift) -> str:
    return gettext("%(table)s's close was already reopened once in the shift %(shift)s: it is reopened once") % {
        "table": table.code, "shift": shift_words(shift)}


def close_lines(figures: TableShiftFigures) -> list[tuple[Any, int]]:
    """The close's transaction, from the shift's records (so it equals the stored variance exactly).

    Trays by denomination go from opener + fills − credits to the closer; the tray's unallocated
    movements of the shift (rounds, markers issued and paid at the table) are cleared; the soft
    count's cash and chips leave the drop account; marker copies found in the drop stand for what
    was issued; what is left is the variance, credited as revenue when the counts found more.
    """
    table = figures.table
    by_denomination: dict[int, int] = {}
    for d, q in chips_of(figures.opener).items():
        by_denomination[d] = by_denomination.get(d, 0) + d * q
    for slip in table.slips.filter(shift=figures.shift, status="received"):
        sign = 1 if slip.kind == "fill" else -1
        for d, q in chips_of(slip).items():
            by_denomination[d] = by_denomination.get(d, 0) + sign * d * q
    closer = chips_of(figures.closer)
    lines: list[tuple[Any, int]] = [
        (ledger.tray_account(table, d), closer.get(d, 0) * d - by_denomination.get(d, 0))
        for d in sorted(set(by_denomination) | set(closer))
    ]
    unallocated = figures.rounds_win + figures.pool_change + figures.marker_payments - figures.markers_issued
    accounts = ledger.shift_accounts(table)
    drop = figures.drop_count
    assert drop is not None  # a table closes once its drop is counted
    assert figures.variance is not None
    lines += [
        (ledger.table_accounts(table)["tray"], -unallocated),
        (accounts["drop"], drop.cash + drop.chips),
        (ledger.casino_accounts()["markers"], drop.markers - figures.markers_issued),
        (accounts["variance"], -figures.variance),
    ]
    return lines


@transaction.atomic
def table_shift_close(*, actor: Any, table_id: int, shift_id: int) -> TableShiftClose:
    """Close a table's shift; refuses while a round is live, a slip is in transit or a count is missing."""
    table = lock_table(table_id)
    ensure_manages(actor, table)
    shift = Shift.objects.filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    if TableShiftClose.objects.standing().filter(table=table, shift=shift).exists():
        raise Conflict(gettext("%(table)s is already closed for the shift %(shift)s")
                       % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_closed")
    # the close fixes the records' figures, summed from the records themselves; the running row is held to
    # them before it is sealed with the close (an alert for any difference: docs/accounting.md)
    running.lock_rows(shift, [table.pk])
    figures = table_shift_figures(table, shift, recompute=True)
    missing = figures.missing()
    if missing:
        words = figures.missing_words()
        raise CloseRefused(
            gettext("%(table)s cannot close for the shift %(shift)s: missing %(missing)s")
            % {"table": table.code, "shift": shift_words(shift), "missing": "; ".join(words)},
            missing=missing, words=words,
        )
    assert figures.count_win is not None
    assert figures.variance is not None
    assert figures.opener is not None
    assert figures.closer is not None
    assert figures.drop_count is not None
    drift = running.differences(shift, recomputed={table.pk: figures}, only={table.pk})
    running.alert_differences(drift)
    running.realign(figures, drift, actor=actor)
    try:
        with transaction.atomic():
            close = TableShiftClose.objects.create(
                table=table,
                shift=shift,
                opener=figures.opener,
                closer=figures.closer,
                drop_count=figures.drop_count,
                opener_total=figures.opener.total,
                closer_total=figures.closer.total,
                fills=figures.fills,
                credits=figures.credits,
                drop=figures.drop_count.total,
                marker_payments=figures.marker_payments,
                markers_issued=figures.markers_issued,
                count_win=figures.count_win,
                rounds=figures.rounds,
                handle=figures.handle,
                rounds_win=figures.rounds_win,
                commission=figures.commission,
                rake=figures.rake,
                pool_change=figures.pool_change,
                variance=figures.variance,
                closed_by=actor,
                closed_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(gettext("%(table)s is already closed for the shift %(shift)s")
                       % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_closed") from None
    txn = ledger.ledger_post(
        kind="table_close",
        source_type="table_close",
        source_id=close.pk,
        lines=close_lines(figures),
        actor=actor,
        table=table,
        shift=shift,
        memo=f"{table.code} close of {shift}",
    )
    earlier = TableShiftClose.objects.filter(table=table, shift=shift).exclude(pk=close.pk).order_by("-id").first()
    audit_log(
        actor=actor,
        action="table.shift_close",
        object_type="table_shift_close",
        object_id=close.pk,
        table_code=table.code,
        after={**figures.as_dict(), "ledger_transaction": txn.pk,
               **({"supersedes_close": earlier.pk} if earlier is not None else {})},
    )
    return close


@transaction.atomic
def table_close_reopen(*, actor: Any, table_id: Any, shift_id: Any, reason: Any) -> TableCloseReopening:
    """Reopen a table's close for correction: a shift manager, with a reason, once per table shift, while the
    casino's shift is open. The close is kept (superseded), its ledger posting reversed, and the table's shift is
    open again: counts can be recounted and the table closed anew (docs/accounting.md, "Corrections")."""
    if not has_role(actor, Role.SHIFT_MANAGER):
        raise Forbidden(gettext("only a shift manager may reopen a table's close"), code="shift_manager_required")
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise InvalidInput(gettext("reason: say why the close is reopened"), code="reason_required", field="reason")
    if len(text) > 500:
        raise InvalidInput(gettext("reason: 500 characters at most"), code="reason_too_long", field="reason")
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise NotFound(gettext("no table %(table_id)s") % {"table_id": table_id}, code="unknown_table", field="table")
    table = lock_table(table.pk)
    shift = Shift.objects.select_for_update().filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    if shift.status != ShiftStatus.OPEN:
        raise Conflict(gettext("the shift %(shift)s is closed: its table closes are not reopened")
                       % {"shift": shift_words(shift)}, code="shift_closed")
    if TableCloseReopening.objects.filter(table=table, shift=shift).exists():
        raise Conflict(_reopened_once(table, shift), code="already_reopened")
    close = TableShiftClose.objects.standing().filter(table=table, shift=shift).first()
    if close is None:
        raise Conflict(gettext("%(table)s is not closed for the shift %(shift)s: there is no close to reopen")
                       % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_not_closed")
    posting = LedgerTransaction.objects.filter(source_type="table_close", source_id=str(close.pk)).first()
    reversal = None
    if posting is not None:  # the trays, drop and variance go back to where they stood before the close
        reversal = ledger.ledger_post(
            kind="reversal", source_type="reversal", source_id=posting.pk, reverses=posting, actor=actor,
            table=table, shift=shift, memo=f"{table.code} close of {shift} reopened: {text}",
            lines=[(e.account, -e.amount) for e in posting.entries.select_related("account")],
        )
    try:
        with transaction.atomic():
            reopening = TableCloseReopening.objects.create(
                close=close, table=table, shift=shift, reason=text, reversal=reversal, reopened_by=actor,
                reopened_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(_reopened_once(table, shift), code="already_reopened") from None
    audit_log(
        actor=actor,
        action="table.close_reopen",
        object_type="table_close_reopening",
        object_id=reopening.pk,
        table_code=table.code,
        before={"close": close.pk, "count_win": close.count_win, "variance": close.variance},
        after={"shift": shift.pk, "reason": text, "reversal": reversal.pk if reversal else None},
    )
    return reopening


@transaction.atomic
def shift_close(*, actor: Any, shift_id: int) -> Shift:
    """Close the casino's shift once every table that did anything in it is closed; queue reconciliation."""
    if not has_role(actor, Role.PIT_MANAGER):
        raise Forbidden(gettext("only a pit manager may close the shift"), code="pit_manager_required")
    shift = Shift.objects.select_for_update().filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    if shift.status != ShiftStatus.OPEN:
        raise Conflict(gettext("the shift %(shift)s is already closed") % {"shift": shift_words(shift)}, code="shift_closed")
    closed = set(TableShiftClose.objects.standing().filter(shift=shift).values_list("table_id", flat=True))
    open_tables: list[Table] = [t for t in tables_active_in(shift) if t.pk not in closed]
    if open_tables:
        missing = [f"{t.code} is not closed" for t in open_tables]
        words = [gettext("%(table)s is not closed") % {"table": t.code} for t in open_tables]
        raise CloseRefused(gettext("the shift %(shift)s cannot close: %(missing)s")
                           % {"shift": shift_words(shift), "missing": "; ".join(words)}, missing=missing, words=words)
    now = timezone.now()
    updated = Shift.objects.filter(pk=shift.pk, status=ShiftStatus.OPEN).update(
        status=ShiftStatus.CLOSED, closed_at=now, closed_by=actor
    )
    if updated != 1:
        raise Conflict(gettext("the shift changed meanwhile"), code="concurrent_change")
    shift.refresh_from_db()
    audit_log(
        actor=actor,
        action="shift.close",
        object_type="shift",
        object_id=shift.pk,
        before={"status": ShiftStatus.OPEN},
        after={"status": shift.status, "tables_closed": sorted(closed)},
    )
    enqueue(task_names.RECONCILE_SHIFT, args=[shift.pk], dedupe_key=f"reconcile_shift:{shift.pk}")  # on commit (outbox)
    return shift
