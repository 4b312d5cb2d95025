"""Reconciling a shift: replay every settled round through the engines and compare with what was
settled and posted; compare the rounds' win with the counts' win; record each variance and its cause.

Safe to run twice or at once: one transaction, which first locks the shift's row. A second run
waits for the first, then finds its result and returns it; a run that dies midway rolls back and
leaves nothing, so the next one starts clean. Unique constraints back the lock up.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounting.conf import int_knob
from accounting.models import (
    AlertSeverity,
    Entry,
    LedgerTransaction,
    Reconciliation,
    ReconciliationStatus,
    ShiftReconciliation,
)
from accounting.money import money_text
from accounting.selectors import (
    close_of,
    reconciliation_totals,
    settled_rounds,
    table_shift_figures,
    tables_active_in,
)
from accounting.services.alerts import alert_raise
from accounting.services.ledger import ROUND, round_lines
from casino.audit.services import audit_log
from casino.errors import Conflict, InvalidInput
from casino.outbox import enqueue
from tables.engines.errors import EngineError
from tables.engines.registry import play
from tables.models import Round, Shift, ShiftStatus, Table
from tables.services.rounds import round_document

CAUSE_ALERTS = {  # cause → (alert kind, severity)
    "missing_count": ("missing_count", AlertSeverity.WARNING),
    "unposted_round": ("unposted_round", AlertSeverity.CRITICAL),
    "mismatch": ("mismatch", AlertSeverity.CRITICAL),
    "live_round": ("live_round", AlertSeverity.WARNING),
    "round_after_close": ("round_after_close", AlertSeverity.WARNING),
    "hold_outside_interval": ("hold_outside_interval", AlertSeverity.INFO),
}


def shift_is_due(shift: Shift, now: dt.datetime | None = None) -> bool:
    """Closed, or ended more than ``RECONCILE_GRACE_HOURS`` ago (nobody closed it: reconcile what is there)."""
    now = now or timezone.now()
    grace = dt.timedelta(hours=int_knob("RECONCILE_GRACE_HOURS"))
    return shift.status == ShiftStatus.CLOSED or shift.ends_at + grace <= now


def due_shift_ids(now: dt.datetime | None = None) -> list[int]:
    """Shifts to reconcile: closed, or ended past the grace period, and not reconciled yet."""
    now = now or timezone.now()
    grace = dt.timedelta(hours=int_knob("RECONCILE_GRACE_HOURS"))
    shifts = Shift.objects.filter(reconciliation__isnull=True).filter(
        Q(status=ShiftStatus.CLOSED) | Q(ends_at__lte=now - grace)
    )
    return list(shifts.order_by("ends_at").values_list("pk", flat=True))


def _compare_round(rnd: Round) -> list[dict[str, Any]]:
    """Replay one settled round; every difference from its settlement and its posting is a cause."""
    where = {"round": rnd.pk, "number": rnd.number}
    causes: list[dict[str, Any]] = []
    settlement = getattr(rnd, "settlement", None)
    if settlement is None:
        return [{"cause": "mismatch", **where, "detail": "settled round has no settlement"}]
    try:
        state = play(round_document(rnd, from_rows=True))  # the record, not the round row's copy
    except EngineError as exc:
        return [{"cause": "mismatch", **where, "detail": f"the engine refuses the round: {exc.message}"}]
    if state.get("status") != "settled":
        return [{"cause": "mismatch", **where, "detail": "the engine says the round is not complete"}]
    house = state["house"]
    for name, posted in (
        ("net", settlement.house_net),
        ("commission", settlement.commission),
        ("rake", settlement.rake),
    ):
        if int(house.get(name, 0)) != posted:
            causes.append(
                {"cause": "mismatch", **where, "detail": f"house {name}: settled {posted}, engine {house.get(name, 0)}"}
            )
    lines = {ln.bet.client_id: (ln.result, ln.net, ln.commission) for ln in settlement.lines.select_related("bet")}
    replayed = {b["id"]: (b["result"], b["net"], b.get("commission", 0)) for b in state["bets"]}
    for bet_id in sorted(set(lines) | set(replayed)):
        if lines.get(bet_id) != replayed.get(bet_id):
            causes.append(
                {
                    "cause": "mismatch",
                    **where,
                    "detail": f"bet {bet_id}: settled {lines.get(bet_id)}, engine {replayed.get(bet_id)}",
                }
            )
    txn = LedgerTransaction.objects.filter(source_type=ROUND, source_id=str(rnd.pk)).first()
    if txn is None:
        causes.append({"cause": "unposted_round", **where, "detail": "no ledger transaction"})
    elif hasattr(txn, "reversed_by"):
        causes.append({"cause": "unposted_round", **where, "detail": f"ledger transaction {txn.pk} was reversed"})
    else:
        posted = {e.account.code: e.amount for e in Entry.objects.filter(transaction=txn).select_related("account")}
        expected: dict[str, int] = {}
        for account, amount in round_lines(settlement):
            expected[account.code] = expected.get(account.code, 0) + amount
        expected = {k: v for k, v in expected.items() if v}
        if posted != expected:
            causes.append(
                {"cause": "mismatch", **where, "detail": f"ledger {posted} differs from settlement {expected}"}
            )
    return causes


def _reconcile_table(table: Table, shift: Shift, now: dt.datetime) -> Reconciliation:
    from accounting.services.hold import statistical_hold

    figures = table_shift_figures(table, shift)
    close = close_of(table, shift)
    causes: list[dict[str, Any]] = []
    rounds = list(settled_rounds(table, shift).select_related("settlement", "table"))
    mismatched = unposted = 0
    for rnd in rounds:
        found = _compare_round(rnd)
        causes += found
        mismatched += any(c["cause"] == "mismatch" for c in found)
        unposted += any(c["cause"] == "unposted_round" for c in found)
        if close is not None and rnd.settled_at and rnd.settled_at > close.closed_at:
            causes.append(
                {
                    "cause": "round_after_close",
                    "round": rnd.pk,
                    "number": rnd.number,
                    "detail": f"settled after {table.code} closed for the shift",
                }
            )
    causes += [
        {"cause": "live_round", "round": r.pk, "number": r.number, "detail": f"round is {r.status}"}
        for r in figures.live_rounds
    ]
    if close is not None:
        count_win, variance = close.count_win, close.count_win - figures.rounds_win - figures.pool_change
    else:
        count_win, variance = figures.count_win, figures.variance
        for what in ("opening inventory count", "closing inventory count", "soft count of the drop"):
            if what in figures.missing():
                causes.append({"cause": "missing_count", "detail": what})
    if variance:
        causes.append(
            {
                "cause": "count_variance",
                "amount": variance,
                "detail": f"count win {money_text(count_win or 0)} vs rounds win "
                f"{money_text(figures.rounds_win)} and pool change {money_text(figures.pool_change)}",
            }
        )
    hold = statistical_hold(table=table, shift=shift)
    if any(row["flag"] for row in hold):
        causes.append(
            {
                "cause": "hold_outside_interval",
                "detail": "actual hold outside the 95 % interval",
                "rows": [r for r in hold if r["flag"]],
            }
        )
    data = {**figures.as_dict(), "closed": close is not None, "statistical_hold": hold}
    result = Reconciliation.objects.create(
        shift=shift,
        table=table,
        status=ReconciliationStatus.VARIANCE if causes else ReconciliationStatus.BALANCED,
        rounds=len(rounds),
        rounds_recomputed=len(rounds),
        rounds_mismatched=mismatched,
        rounds_unposted=unposted,
        rounds_win=figures.rounds_win,
        pool_change=figures.pool_change,
        count_win=count_win,
        variance=variance,
        causes=causes,
        data=data,
        created_at=now,
    )
    _alerts(result, table, shift)
    return result


def _alerts(result: Reconciliation, table: Table, shift: Shift) -> None:
    threshold = int_knob("VARIANCE_ALERT")
    if result.variance is not None and abs(result.variance) >= threshold and result.variance != 0:
        severity = AlertSeverity.CRITICAL if abs(result.variance) >= 10 * max(threshold, 1) else AlertSeverity.WARNING
        alert_raise(
            kind="variance",
            severity=severity,
            dedupe_key=f"variance:{shift.pk}:{table.pk}",
            table=table,
            shift=shift,
            message=f"{table.code} variance {money_text(result.variance)} for the shift {shift} "
            f"(threshold {money_text(threshold)})",
            data={"reconciliation": result.pk, "variance": result.variance, "threshold": threshold},
        )
    seen: set[str] = set()
    for cause in result.causes:
        name = cause["cause"]
        if name not in CAUSE_ALERTS or name in seen:
            continue
        seen.add(name)
        kind, severity = CAUSE_ALERTS[name]
        details = "; ".join(c.get("detail", "") for c in result.causes if c["cause"] == name)
        alert_raise(
            kind=kind,
            severity=severity,
            dedupe_key=f"{kind}:{shift.pk}:{table.pk}",
            table=table,
            shift=shift,
            message=f"{table.code}, shift {shift}: {name.replace('_', ' ')}: {details}",
            data={"reconciliation": result.pk, "causes": [c for c in result.causes if c["cause"] == name]},
        )


def _crash_point(stage: str) -> None:
    """A seam for tests that kill the job midway (see tests/accounting/test_reconcile.py)."""


@transaction.atomic
def reconcile_shift(*, shift_id: int, actor: Any = None, force_open: bool = False) -> ShiftReconciliation:
    """Reconcile a shift once; a second call returns the first result unchanged."""
    shift = Shift.objects.select_for_update().filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(f"no shift {shift_id}", code="unknown_shift", field="shift")
    existing = ShiftReconciliation.objects.filter(shift=shift).first()
    if existing is not None:
        return existing
    now = timezone.now()
    if not force_open and not shift_is_due(shift, now):
        raise Conflict(
            f"the shift {shift} is still open: reconcile it once it is closed or has ended", code="shift_not_ended"
        )
    results = []
    for table in tables_active_in(shift):
        results.append(_reconcile_table(table, shift, now))
        _crash_point("table")
    totals = reconciliation_totals(results)
    try:
        with transaction.atomic():
            run = ShiftReconciliation.objects.create(shift=shift, created_at=now, **totals)
    except IntegrityError:  # unreachable while the shift's row is locked; the constraint stands behind it
        raise Conflict(f"the shift {shift} was reconciled meanwhile", code="already_reconciled") from None
    audit_log(
        actor=actor,
        action="shift.reconcile",
        object_type="shift",
        object_id=shift.pk,
        after={
            "reconciliation": run.pk,
            **totals,
            "tables_results": {
                r.table.code: {"status": r.status, "variance": r.variance, "causes": [c["cause"] for c in r.causes]}
                for r in results
            },
        },
    )
    return run


@transaction.atomic
def reconcile_request(*, actor: Any, shift_id: int) -> ShiftReconciliation | None:
    """On demand (API, pit manager or accountant): the existing result, or the job queued on commit."""
    from casino.core.roles import Role, has_role
    from casino.errors import Forbidden

    if not has_role(actor, Role.PIT_MANAGER, Role.ACCOUNTANT):
        raise Forbidden("reconciliation is run by a pit manager or an accountant", code="role_required")
    shift = Shift.objects.filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(f"no shift {shift_id}", code="unknown_shift", field="shift")
    existing = ShiftReconciliation.objects.filter(shift=shift).first()
    if existing is not None:
        return existing
    if not shift_is_due(shift):
        raise Conflict(
            f"the shift {shift} is still open: reconcile it once it is closed or has ended", code="shift_not_ended"
        )
    audit_log(
        actor=actor, action="shift.reconcile_request", object_type="shift", object_id=shift.pk, after={"queued": True}
    )
    from accounting.tasks import reconcile_shift as task

    enqueue(task.name, args=[shift.pk], dedupe_key=f"reconcile_shift:{shift.pk}")  # sent on commit (outbox)
    return None
