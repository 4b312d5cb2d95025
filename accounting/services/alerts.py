"""Alerts for the pit: raised by services and jobs (once per cause), acknowledged, then resolved, by a pit manager."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.conf import int_knob
from accounting.models import Alert, AlertSeverity
from accounting.money import money_text
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput
from tables.access import manages_table
from tables.models import Bet, Settlement

KINDS = (
    "count_discrepancy",
    "variance",
    "large_bet",
    "large_loss",
    "missing_count",
    "unposted_round",
    "mismatch",
    "live_round",
    "round_after_close",
    "hold_outside_interval",
    "stale_job",  # a background job is late (casino/ops/status.py, raised through accounting/ops.py)
    "advantage_play",  # a rated player's bets or comings and goings follow the count, or their baccarat side bets
    # fall where the cards left favour them (players/services/advantage.py)
    "cash_threshold",  # a player's cash in or out over a gaming day is above the reporting threshold
    # (players/services/cash.py)
    "running_figures",  # a table's running figure differs from its records (accounting/services/running.py)
)
# Every kind above is raised with its facts in ``data`` (amounts in minor units, codes, ids, ISO times) and worded
# from them in the reader's language (floor.labels.alert_text); ``message`` is the English record (the audit's).


def alert_raise(
    *,
    kind: str,
    severity: str,
    message: str,
    dedupe_key: str,
    table: Any = None,
    shift: Any = None,
    data: dict | None = None,
) -> Alert:
    """Store an alert unless one with the same ``dedupe_key`` exists (jobs may run twice); returns it."""
    existing = Alert.objects.filter(dedupe_key=dedupe_key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            alert = Alert.objects.create(
                kind=kind,
                severity=severity,
                message=message[:300],
                dedupe_key=dedupe_key,
                table=table,
                shift=shift,
                data=data or {},
                created_at=timezone.now(),
            )
            audit_log(
                actor=None,
                action="alert.raise",
                object_type="alert",
                object_id=alert.pk,
                after={
                    "kind": kind,
                    "severity": severity,
                    "message": alert.message,
                    "table": getattr(table, "code", None),
                    "shift": getattr(shift, "pk", None),
                },
            )
    except IntegrityError:  # raised concurrently by another worker: theirs stands
        return Alert.objects.get(dedupe_key=dedupe_key)
    return alert


def severity_for(amount: int, *, report: int, escalate: int) -> str | None:
    """None at or below ``report``; warning above it; critical at or above ``escalate``."""
    amount = abs(amount)
    if amount >= escalate:
        return AlertSeverity.CRITICAL
    if amount > report:
        return AlertSeverity.WARNING
    return None


def _refusal(verb: str, *, pit: str | None) -> str:
    """Who may ``verb`` an alert, in the reader's words: one whole sentence per action (never a verb spliced in)."""
    if verb == "acknowledge":
        if pit is None:
            return gettext("only a pit manager may acknowledge alerts")
        return gettext("only a pit manager of %(pit)s may acknowledge this alert") % {"pit": pit}
    if verb == "accept":
        if pit is None:
            return gettext("only a pit manager may accept alerts")
        return gettext("only a pit manager of %(pit)s may accept this alert") % {"pit": pit}
    if pit is None:
        return gettext("only a pit manager may resolve alerts")
    return gettext("only a pit manager of %(pit)s may resolve this alert") % {"pit": pit}


def _locked_for_pit_manager(alert_id: int, actor: Any, verb: str) -> Alert:
    """The alert, locked, once ``actor`` may ``verb`` it: a pit manager of its table's pit (any pit manager for a
    casino-wide alert)."""

    alert = Alert.objects.select_for_update(of=("self",)).select_related("table__pit").filter(pk=alert_id).first()
    if alert is None:
        raise InvalidInput(gettext("no alert %(alert_id)s") % {"alert_id": alert_id}, code="unknown_alert")
    if not has_role(actor, Role.PIT_MANAGER):
        raise Forbidden(_refusal(verb, pit=None), code="pit_manager_required")
    if alert.table is not None and not manages_table(actor, alert.table):
        raise Forbidden(_refusal(verb, pit=alert.table.pit.name), code="pit_manager_required")
    return alert


@transaction.atomic
def alert_acknowledge(*, alert_id: int, actor: Any, note: str = "") -> Alert:
    """A pit manager (of the alert's table, or any for casino-wide alerts) acknowledges an alert once."""
    alert = _locked_for_pit_manager(alert_id, actor, "acknowledge")
    now = timezone.now()
    updated = Alert.objects.filter(pk=alert.pk, acknowledged_at__isnull=True).update(
        acknowledged_by=actor, acknowledged_at=now, ack_note=(note or "")[:300]
    )
    if updated != 1:
        raise Conflict(gettext("alert %(alert_id)s was already acknowledged") % {"alert_id": alert.pk},
                       code="already_acknowledged")
    alert.refresh_from_db()
    audit_log(
        actor=actor,
        action="alert.acknowledge",
        object_type="alert",
        object_id=alert.pk,
        table_code=alert.table.code if alert.table else "",
        before={"acknowledged": False},
        after={"acknowledged": True, "note": alert.ack_note},
    )
    return alert


@transaction.atomic
def variance_accept(*, alert_id: int, actor: Any, note: Any) -> Alert:
    """Accept a shift's variance over the tolerance, with a written reason: an accountant (any table) or a pit
    manager of the table's pit. Written once, as an acknowledgement of the variance alert, and audited."""
    text = note.strip() if isinstance(note, str) else ""
    if not text:
        raise InvalidInput(gettext("a variance is accepted with a written reason"), code="reason_required", field="note")
    if not has_role(actor, Role.ACCOUNTANT):
        alert = _locked_for_pit_manager(alert_id, actor, "accept")
    else:
        found = Alert.objects.select_for_update(of=("self",)).select_related("table").filter(pk=alert_id).first()
        if found is None:
            raise InvalidInput(gettext("no alert %(alert_id)s") % {"alert_id": alert_id}, code="unknown_alert")
        alert = found
    if alert.kind != "variance":
        raise InvalidInput(gettext("alert %(alert_id)s is not a variance") % {"alert_id": alert.pk}, code="unknown_alert")
    now = timezone.now()
    updated = Alert.objects.filter(pk=alert.pk, acknowledged_at__isnull=True).update(
        acknowledged_by=actor, acknowledged_at=now, ack_note=text[:300]
    )
    if updated != 1:
        raise Conflict(gettext("the variance of alert %(alert_id)s was already accepted") % {"alert_id": alert.pk},
                       code="already_acknowledged")
    alert.refresh_from_db()
    audit_log(
        actor=actor,
        action="variance.accept",
        object_type="alert",
        object_id=alert.pk,
        table_code=alert.table.code if alert.table else "",
        before={"acknowledged": False},
        after={"acknowledged": True, "note": alert.ack_note, "shift": alert.shift_id},
    )
    return alert


@transaction.atomic
def alert_resolve(*, alert_id: int, actor: Any, note: str) -> Alert:
    """A pit manager (as for the acknowledgement) resolves an acknowledged alert once, saying what was done.
    The alert's facts never change; who resolved it, when and the note are written once."""
    alert = _locked_for_pit_manager(alert_id, actor, "resolve")
    note = (note or "").strip() if isinstance(note, str) else ""
    if not note:
        raise InvalidInput(gettext("say what was done about the alert"), code="reason_required", field="note")
    if alert.acknowledged_at is None:
        raise Conflict(gettext("alert %(alert_id)s is not acknowledged yet") % {"alert_id": alert.pk}, code="not_acknowledged")
    now = timezone.now()
    updated = Alert.objects.filter(pk=alert.pk, acknowledged_at__isnull=False, resolved_at__isnull=True).update(
        resolved_by=actor, resolved_at=now, resolve_note=note[:300]
    )
    if updated != 1:
        raise Conflict(gettext("alert %(alert_id)s was already resolved") % {"alert_id": alert.pk}, code="already_resolved")
    alert.refresh_from_db()
    audit_log(
        actor=actor,
        action="alert.resolve",
        object_type="alert",
        object_id=alert.pk,
        table_code=alert.table.code if alert.table else "",
        before={"resolved": False},
        after={"resolved": True, "note": alert.resolve_note},
    )
    return alert


# -- checks queued by accounting.hooks in a round's transaction, run as accounting.tasks after it commits --------


def large_bet_check(*, bet_id: int) -> Alert | None:
    """A bet at or above ``CROUPIER["LARGE_BET"]`` raises one alert."""

    bet = Bet.objects.select_related("round__table", "round__shift").filter(pk=bet_id).first()
    threshold = int_knob("LARGE_BET")
    if bet is None or bet.amount < threshold:
        return None
    rnd = bet.round
    with transaction.atomic():
        return alert_raise(
            kind="large_bet",
            severity=AlertSeverity.WARNING,
            dedupe_key=f"large_bet:{bet.pk}",
            table=rnd.table,
            shift=rnd.shift,
            message=f"large bet {money_text(bet.amount)} on {bet.type} at {rnd.table.code} round #{rnd.number} "
            f"seat {bet.seat} (threshold {money_text(threshold)})",
            data={
                "bet": bet.pk,
                "round": rnd.pk,
                "amount": bet.amount,
                "type": bet.type,
                "seat": bet.seat,
                "threshold": threshold,
            },
        )


def round_result_check(*, round_id: int) -> Alert | None:
    """A round in which the house lost ``CROUPIER["LARGE_LOSS"]`` or more raises one alert."""

    settlement = Settlement.objects.select_related("round__table", "round__shift").filter(round_id=round_id).first()
    threshold = int_knob("LARGE_LOSS")
    if settlement is None or -settlement.house_net < threshold:
        return None
    rnd = settlement.round
    with transaction.atomic():
        return alert_raise(
            kind="large_loss",
            severity=AlertSeverity.WARNING,
            dedupe_key=f"large_loss:{rnd.pk}",
            table=rnd.table,
            shift=rnd.shift,
            message=f"the house lost {money_text(-settlement.house_net)} on {rnd.table.code} round #{rnd.number} "
            f"(threshold {money_text(threshold)})",
            data={
                "round": rnd.pk,
                "house_net": settlement.house_net,
                "handle": settlement.handle,
                "threshold": threshold,
            },
        )
