"""Reconciling a shift: replay every settled round through the engines and compare with what was
settled and posted; compare the rounds' win with the counts' win; record each variance and its cause.

Safe to run twice or at once: one transaction, which first locks the shift's row. A second run
waits for the first, then finds its result and returns it; a run that dies midway rolls back and
leaves nothing, so the next one starts clean. Unique constraints back the lock up.

It reads a fixed number of queries per shift, whatever the number of rounds (:class:`ShiftRecords`),
and never simulates under the lock: the engines' edges are computed and cached before it is taken.
A table closed for the shift is reconciled on the close's figures: the reconciliation's variance is
the close's; a round settled after the close is a cause of its own, with its amount.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from accounting.conf import int_knob
from accounting.hold import edges_prepare, statistical_hold
from accounting.models import (
    AlertSeverity,
    Entry,
    LedgerTransaction,
    Reconciliation,
    ReconciliationStatus,
    ShiftReconciliation,
    TableShiftClose,
)
from accounting.money import money_text
from accounting.selectors import (
    TableShiftFigures,
    reconciliation_totals,
    table_shift_figures_many,
    tables_active_in,
)
from accounting.services import running
from accounting.services.alerts import alert_raise
from accounting.services.ledger import ROUND, round_line_codes
from casino import task_names
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput
from casino.outbox import enqueue
from casino.words import shift_words
from tables.engines import registry
from tables.engines.base import Json
from tables.engines.errors import EngineError
from tables.models import Bet, Round, RoundEvent, RoundStatus, Settlement, SettlementLine, Shift, ShiftStatus, Table

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


@dataclass
class ShiftRecords:
    """Everything a shift's reconciliation reads, loaded in a fixed number of queries (one per kind of
    record, whatever the number of rounds): the rounds with their settlements, their bets and events
    (the record the engine replays), their settlement lines and their ledger postings."""

    rounds: dict[int, list[Round]] = field(default_factory=dict)  # by table id, in number order
    bets: dict[int, list[Json]] = field(default_factory=dict)  # by round id: the bets placed at betting time
    events: dict[int, list[Json]] = field(default_factory=dict)  # by round id: the events not undone
    lines: dict[int, dict[str, tuple[str, int, int]]] = field(default_factory=dict)  # round → bet → line
    postings: dict[str, tuple[int, bool]] = field(default_factory=dict)  # round id → (transaction, reversed)
    entries: dict[int, dict[str, int]] = field(default_factory=dict)  # transaction → account code → amount

    @classmethod
    def load(cls, shift: Shift) -> ShiftRecords:
        out = cls()
        settled = Round.objects.filter(shift=shift, status=RoundStatus.SETTLED)
        for rnd in settled.select_related("settlement", "table").order_by("table_id", "number"):
            out.rounds.setdefault(rnd.table_id, []).append(rnd)
        # the bets the round took: not those placed during the deal (events) nor those taken back before close
        taken = Bet.objects.filter(round__in=settled, event_index__isnull=True, withdrawal__isnull=True)
        for bet in taken.order_by("id"):
            out.bets.setdefault(bet.round_id, []).append(bet.as_document())
        events = RoundEvent.objects.filter(round__in=settled, undone_at__isnull=True).order_by("round_id", "seq")
        for round_id, payload in events.values_list("round_id", "payload"):
            out.events.setdefault(round_id, []).append(payload)
        lines = SettlementLine.objects.filter(settlement__round__in=settled).values_list(
            "settlement__round_id", "bet__client_id", "result", "net", "commission"
        )
        for round_id, bet_id, result, net, commission in lines:
            out.lines.setdefault(round_id, {})[bet_id] = (result, net, commission)
        posted = LedgerTransaction.objects.filter(source_type=ROUND, shift=shift).annotate(
            reversed=Exists(LedgerTransaction.objects.filter(reverses=OuterRef("pk")))
        )
        for txn_id, source_id, reversed_ in posted.values_list("pk", "source_id", "reversed"):
            out.postings[source_id] = (txn_id, reversed_)
        entries = Entry.objects.filter(transaction__source_type=ROUND, transaction__shift=shift)
        for txn_id, code, amount in entries.values_list("transaction_id", "account__code", "amount"):
            book = out.entries.setdefault(txn_id, {})
            book[code] = book.get(code, 0) + amount
        return out


def _compare_round(rnd: Round, records: ShiftRecords) -> list[dict[str, Any]]:
    """Replay one settled round; every difference from its settlement and its posting is a cause."""
    where = {"round": rnd.pk, "number": rnd.number}
    settlement = getattr(rnd, "settlement", None)
    if settlement is None:
        return [{"cause": "mismatch", **where, "detail": "settled round has no settlement"}]
    causes: list[dict[str, Any]] = []
    document = {  # the record (the Bet and RoundEvent rows), not the round row's copy
        "game": rnd.game, "config": rnd.config, "bets": records.bets.get(rnd.pk, []),
        "events": records.events.get(rnd.pk, []),
    }
    try:
        replay = registry.result(document)
    except EngineError as exc:
        return [{"cause": "mismatch", **where, "detail": f"the engine refuses the round: {exc.message}"}]
    if not replay.settled or replay.house is None:
        return [{"cause": "mismatch", **where, "detail": "the engine says the round is not complete"}]
    house = replay.house
    for name, posted, replayed_value in (
        ("net", settlement.house_net, house.net),
        ("commission", settlement.commission, house.commission),
        ("rake", settlement.rake, house.rake),
    ):
        if replayed_value != posted:
            causes.append(
                {"cause": "mismatch", **where, "detail": f"house {name}: settled {posted}, engine {replayed_value}"}
            )
    lines = records.lines.get(rnd.pk, {})
    replayed = {line.id: (line.result, line.net, line.commission) for line in replay.lines}
    for bet_id in sorted(set(lines) | set(replayed)):
        if lines.get(bet_id) != replayed.get(bet_id):
            causes.append(
                {
                    "cause": "mismatch",
                    **where,
                    "detail": f"bet {bet_id}: settled {lines.get(bet_id)}, engine {replayed.get(bet_id)}",
                }
            )
    txn = records.postings.get(str(rnd.pk))
    if txn is None:
        causes.append({"cause": "unposted_round", **where, "detail": "no ledger transaction"})
    elif txn[1]:
        causes.append({"cause": "unposted_round", **where, "detail": f"ledger transaction {txn[0]} was reversed"})
    else:
        posted_lines = records.entries.get(txn[0], {})
        expected: dict[str, int] = {}
        for code, amount in round_line_codes(
            table_code=rnd.table.code, house_net=settlement.house_net, commission=settlement.commission,
            rake=settlement.rake, answer=settlement.answer(),
        ):
            expected[code] = expected.get(code, 0) + amount
        expected = {k: v for k, v in expected.items() if v}
        if posted_lines != expected:
            causes.append(
                {"cause": "mismatch", **where, "detail": f"ledger {posted_lines} differs from settlement {expected}"}
            )
    return causes


def _reconcile_table(
    figures: TableShiftFigures,
    close: TableShiftClose | None,
    rounds: list[Round],
    records: ShiftRecords,
    hold: list[dict[str, Any]],
    now: dt.datetime,
    drift: list[running.Difference],
) -> Reconciliation:
    table, shift = figures.table, figures.shift
    causes: list[dict[str, Any]] = []
    mismatched = unposted = 0
    for rnd in rounds:
        found = _compare_round(rnd, records)
        causes += found
        mismatched += any(c["cause"] == "mismatch" for c in found)
        unposted += any(c["cause"] == "unposted_round" for c in found)
        if close is not None and rnd.settled_at and rnd.settled_at > close.closed_at:
            causes.append(
                {
                    "cause": "round_after_close",
                    "round": rnd.pk,
                    "number": rnd.number,
                    "amount": rnd.settlement.house_net,
                    "detail": f"settled after {table.code} closed for the shift: house net "
                    f"{money_text(rnd.settlement.house_net)}, not in the close's figures",
                }
            )
    causes += [
        {"cause": "live_round", "round": r.pk, "number": r.number, "detail": f"round is {r.status}"}
        for r in figures.live_rounds
    ]
    count_win: int | None
    variance: int | None
    if close is not None:
        # the close fixed the figures: the reconciliation shows the close's variance, never a second one
        count_win, variance = close.count_win, close.variance
        rounds_win, pool_change = close.rounds_win, close.pool_change
    else:
        count_win, variance = figures.count_win, figures.variance
        rounds_win, pool_change = figures.rounds_win, figures.pool_change
        for what in ("opening inventory count", "closing inventory count", "soft count of the drop"):
            if what in figures.missing():
                causes.append({"cause": "missing_count", "detail": what})
    if variance:
        causes.append(
            {
                "cause": "count_variance",
                "amount": variance,
                "detail": f"count win {money_text(count_win or 0)} vs rounds win "
                f"{money_text(rounds_win)} and pool change {money_text(pool_change)}",
            }
        )
    causes += [{"cause": "running_figures", **d.as_dict(), "detail": d.message} for d in drift]
    if any(row["flag"] for row in hold):
        causes.append(
            {
                "cause": "hold_outside_interval",
                "detail": "actual hold outside the 95 % interval",
                "rows": [r for r in hold if r["flag"]],
            }
        )
    data = {**figures.as_dict(), "closed": close is not None, "statistical_hold": hold}
    if close is not None:
        data.update(count_win=count_win, variance=variance, rounds_win=rounds_win, pool_change=pool_change,
                    handle=close.handle, rounds=close.rounds)
    result = Reconciliation.objects.create(
        shift=shift,
        table=table,
        status=ReconciliationStatus.VARIANCE if causes else ReconciliationStatus.BALANCED,
        rounds=len(rounds),
        rounds_recomputed=len(rounds),
        rounds_mismatched=mismatched,
        rounds_unposted=unposted,
        rounds_win=rounds_win,
        pool_change=pool_change,
        count_win=count_win,
        variance=variance,
        causes=causes,
        data=data,
        created_at=now,
    )
    _alerts(result, table, shift)
    running.alert_differences(drift)  # one alert per figure, the nightly check's own (deduplicated)
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


def reconcile_shift(*, shift_id: int, actor: Any = None, force_open: bool = False) -> ShiftReconciliation:
    """Reconcile a shift once; a second call returns the first result unchanged.

    The engines' house edges (some engines simulate for seconds) are computed and cached first,
    without any lock; the run itself, under the shift's lock, only reads them.
    """
    if not isinstance(shift_id, int) or not Shift.objects.filter(pk=shift_id).exists():
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    if not ShiftReconciliation.objects.filter(shift_id=shift_id).exists():
        edges_prepare(Settlement.objects.filter(round__shift_id=shift_id))
    return _reconcile_locked(shift_id=shift_id, actor=actor, force_open=force_open)


@transaction.atomic
def _reconcile_locked(*, shift_id: int, actor: Any, force_open: bool) -> ShiftReconciliation:
    shift = Shift.objects.select_for_update().filter(pk=shift_id).first()
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    existing = ShiftReconciliation.objects.filter(shift=shift).first()
    if existing is not None:
        return existing
    now = timezone.now()
    if not force_open and not shift_is_due(shift, now):
        raise Conflict(gettext("the shift %(shift)s is still open: reconcile it once it is closed or has ended")
                       % {"shift": shift_words(shift)}, code="shift_not_ended")
    tables = list(tables_active_in(shift))
    running.lock_rows(shift)  # the running rows hold still while the records are summed
    found = table_shift_figures_many(tables, shift, recompute=True)
    drift: dict[int, list[running.Difference]] = {}
    for d in running.differences(shift, recomputed=found):
        drift.setdefault(d.table.pk, []).append(d)
    closes = {c.table_id: c for c in TableShiftClose.objects.standing().filter(shift=shift)}
    records = ShiftRecords.load(shift)
    hold: dict[str, list[dict[str, Any]]] = {}
    for row in statistical_hold(shift=shift, compute_edges=False):  # edges_prepare cached them
        hold.setdefault(row["table"], []).append(row)
    results = []
    for table in tables:
        results.append(
            _reconcile_table(
                found[table.pk], closes.get(table.pk), records.rounds.get(table.pk, []), records,
                hold.get(table.code, []), now, drift.get(table.pk, []),
            )
        )
        _crash_point("table")
    totals = reconciliation_totals(results)
    try:
        with transaction.atomic():
            run = ShiftReconciliation.objects.create(shift=shift, created_at=now, **totals)
    except IntegrityError:  # unreachable while the shift's row is locked; the constraint stands behind it
        raise Conflict(gettext("the shift %(shift)s was reconciled meanwhile") % {"shift": shift_words(shift)},
                       code="already_reconciled") from None
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

    if not has_role(actor, Role.PIT_MANAGER, Role.ACCOUNTANT):
        raise Forbidden(gettext("reconciliation is run by a pit manager or an accountant"), code="role_required")
    shift = Shift.objects.filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s") % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    existing = ShiftReconciliation.objects.filter(shift=shift).first()
    if existing is not None:
        return existing
    if not shift_is_due(shift):
        raise Conflict(gettext("the shift %(shift)s is still open: reconcile it once it is closed or has ended")
                       % {"shift": shift_words(shift)}, code="shift_not_ended")
    audit_log(
        actor=actor, action="shift.reconcile_request", object_type="shift", object_id=shift.pk, after={"queued": True}
    )
    enqueue(task_names.RECONCILE_SHIFT, args=[shift.pk], dedupe_key=f"reconcile_shift:{shift.pk}")  # sent on commit (outbox)
    return None
