"""What accounting tells operations (``casino.ops.registry``): the reconciliation's lateness and
variances, the stale-job alerts (as accounting alerts, on the pit and accounting screens) and the
ledger's trial balance for a backup's manifest. Registered by ``AccountingConfig.ready``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db.models import Count, Q, Sum
from django.db.models.functions import Abs
from django.utils import timezone
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from accounting.conf import int_knob
from accounting.integrity import ledger_problems
from accounting.models import AlertSeverity, Entry, LedgerTransaction, Reconciliation, ShiftReconciliation
from accounting.selectors import account_balances
from accounting.services.alerts import alert_raise
from casino.ops import registry, status
from casino.ops.registry import Finding
from tables.models import Shift, ShiftStatus

RECONCILE_TASK = "accounting.reconcile_due_shifts"


def _due_since(shift: Shift, grace: dt.timedelta) -> dt.datetime:
    """When a shift became due for reconciliation: its close, or its end plus the grace period."""
    if shift.status == ShiftStatus.CLOSED and shift.closed_at is not None:
        return shift.closed_at
    return shift.ends_at + grace


def oldest_unreconciled(now: dt.datetime) -> tuple[Shift, dt.datetime] | None:
    """The shift that has waited longest for its reconciliation since it became due, and since when."""
    grace = dt.timedelta(hours=int_knob("RECONCILE_GRACE_HOURS"))
    due = (Shift.objects.filter(reconciliation__isnull=True)
           .filter(Q(status=ShiftStatus.CLOSED) | Q(ends_at__lte=now - grace)).select_related("shift_type"))
    waiting = [(shift, _due_since(shift, grace)) for shift in due]
    return min(waiting, key=lambda pair: pair[1]) if waiting else None


def reconciliation_findings(now: dt.datetime, beats: dict[str, Any]) -> Iterator[Finding | None]:
    """Late when the beat job that queues reconciliations has not succeeded in time, or when a shift
    has been due for reconciliation longer than that (its own job fails or never ran)."""
    yield status.job_finding(key="reconciliation", title="Shift reconciliation", task_name=RECONCILE_TASK,
                             what="Shift reconciliation", now=now, beats=beats)
    period = status.schedule_period(RECONCILE_TASK)
    oldest = oldest_unreconciled(now)
    if period is None or oldest is None:
        return
    shift, since = oldest
    late = status.late_after(period)
    if (now - since).total_seconds() > late:
        yield Finding("reconciliation_overdue", "Shift reconciliation", since, late,
                      f"Shift {shift} has waited {status.ago(since, now)} for its reconciliation (due every "
                      f"{status.duration_text(period)}): the reconciliation job is failing or not running. Tell IT.",
                      facts={"period": period, "gaming_date": shift.gaming_date.isoformat(),
                             "shift_name": shift.shift_type.name})


def stale_job_alert(finding: Finding) -> None:
    """One accounting alert per stall: the same job late since the same moment is raised once."""

    stamp = finding.since.isoformat() if finding.since else "never"
    severity = AlertSeverity.CRITICAL if finding.severity == "critical" else AlertSeverity.WARNING
    alert_raise(kind="stale_job", severity=severity, message=finding.message,
                dedupe_key=f"stale_job:{finding.key}:{stamp}"[:120], data=finding.as_dict())


def reconciliation_metrics() -> Iterator[Metric]:
    now = timezone.now()
    tables = CounterMetricFamily("croupier_reconciled_tables", "Table reconciliations by result (all shifts)",
                                 labels=["status"])
    for row in Reconciliation.objects.values("status").annotate(n=Count("id")).order_by("status"):
        tables.add_metric([row["status"]], row["n"])
    yield tables
    last = ShiftReconciliation.objects.order_by("-created_at").select_related("shift").first()
    variance = GaugeMetricFamily("croupier_reconciliation_last_shift_variance",
                                 "The last reconciled shift: tables with a variance and the sum of |variance| "
                                 "(minor units)", labels=["figure"])
    age = GaugeMetricFamily("croupier_reconciliation_last_age_seconds",
                            "Seconds since a shift was last reconciled")
    if last is not None:
        figures = Reconciliation.objects.filter(shift_id=last.shift_id).aggregate(
            tables=Count("id", filter=Q(status="variance")), amount=Sum(Abs("variance")))
        variance.add_metric(["tables"], figures["tables"] or 0)
        variance.add_metric(["amount"], figures["amount"] or 0)
        age.add_metric([], max(0.0, (now - last.created_at).total_seconds()))
    yield from (variance, age)
    oldest = oldest_unreconciled(now)
    yield GaugeMetricFamily("croupier_reconciliation_overdue_seconds",
                            "How long the shift waiting longest for its reconciliation has been due (0: none)",
                            value=0.0 if oldest is None else max(0.0, (now - oldest[1]).total_seconds()))


def trial_balance() -> dict[str, Any]:
    """The ledger at the backup's moment: every account's balance, the totals by kind and the sum (0)."""
    accounts = account_balances()
    by_kind: dict[str, int] = {}
    for account in accounts:
        by_kind[account["kind"]] = by_kind.get(account["kind"], 0) + account["balance"]
    return {"accounts": {a["code"]: a["balance"] for a in accounts}, "by_kind": dict(sorted(by_kind.items())),
            "total": sum(a["balance"] for a in accounts), "transactions": LedgerTransaction.objects.count(),
            "entries": Entry.objects.count()}


def register() -> None:
    registry.register_stale_check(reconciliation_findings)
    registry.register_alert_sink(stale_job_alert)
    registry.register_collector(reconciliation_metrics)
    registry.register_manifest_section("trial_balance", trial_balance)
    registry.register_restore_check("ledger", restored_ledger_problems,
                                    words="every transaction balances, the ledger sums to zero, and each posting "
                                          "equals its round's settlement or its record")


def restored_ledger_problems(cursor: Any) -> list[str]:
    """The ledger's invariants in a restored copy, on ``cursor`` (all of it: a restore is a full check)."""
    return [message for _, message in ledger_problems(cursor)]
