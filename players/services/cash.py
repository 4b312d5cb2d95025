"""The multiple transaction log: every cash in and out, per player and gaming day, and the report line.

A player's cash in (and, separately, cash out) is summed over the gaming day (the shift's
``gaming_date``) across tables, the cage and every transaction. When a day's total goes above
``CROUPIER["CASH_REPORT_THRESHOLD"]`` the pit gets one alert and compliance one cash transaction report
line — exactly one per player, day and direction: the player's row is locked while a transaction is
recorded (so two tables recording at once are taken one after the other) and the database allows one
report line per player, day and direction. Anonymous cash is refused once it would go above the
threshold: the player must be identified first.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import AlertSeverity
from accounting.money import money_text
from accounting.services.alerts import alert_raise
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput
from casino.money import money_amount
from players.conf import knob
from players.models import KIND_DIRECTION, CashKind, CashTransaction, CashTransactionReport, Player, RatingSlip
from players.selectors import player_day_total
from players.services.common import amount_of, current_shift, find_player, lock_player, text_of
from tables.access import ensure_manages
from tables.models import Shift, Table
from tables.services.locks import lock_table

CASH_WRITERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.COMPLIANCE)


def _summary(txn: CashTransaction) -> dict[str, Any]:
    return {
        "player": txn.player_id,
        "slip": txn.slip_id,
        "description": txn.description,
        "direction": txn.direction,
        "kind": txn.kind,
        "amount": txn.amount,
        "gaming_date": txn.gaming_date,
        "shift": txn.shift_id,
        "location": txn.location,
    }


def record(
    *,
    actor: Any,
    kind: str,
    amount: int,
    shift: Shift,
    player: Player | None = None,
    slip: RatingSlip | None = None,
    table: Table | None = None,
    description: str = "",
    note: str = "",
) -> CashTransaction:
    """Write one log line and check the day's threshold. Runs inside the caller's transaction, with the
    player (when there is one) already locked."""
    direction = KIND_DIRECTION[CashKind(kind)]
    threshold = knob("CASH_REPORT_THRESHOLD")
    owner = player or (slip.player if slip is not None else None)
    if owner is None:
        so_far = 0
        if slip is not None:
            so_far = int(
                CashTransaction.objects.filter(slip=slip, direction=direction, gaming_date=shift.gaming_date).aggregate(
                    t=Sum("amount")
                )["t"]
                or 0
            )
        if so_far + amount > threshold:
            raise Conflict(
                (gettext("cash in of %(amount)s in a gaming day is above %(threshold)s: identify the player first")
                 if direction == "in" else
                 gettext("cash out of %(amount)s in a gaming day is above %(threshold)s: identify the player first"))
                % {"amount": money_amount(so_far + amount), "threshold": money_amount(threshold)},
                code="identification_required",
                field="player",
            )
    txn = CashTransaction.objects.create(
        player=player,
        slip=slip,
        description=description,
        direction=direction,
        kind=kind,
        amount=amount,
        gaming_date=shift.gaming_date,
        shift=shift,
        table=table,
        location=table.code if table else "cage",
        note=note,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    audit_log(
        actor=actor,
        action="cash.record",
        object_type="cash_transaction",
        object_id=txn.pk,
        table_code=table.code if table else "",
        after=_summary(txn),
    )
    if owner is not None:
        threshold_check(player=owner, gaming_date=txn.gaming_date, direction=direction, crossing=txn)
    return txn


def threshold_check(
    *, player: Player, gaming_date: Any, direction: str, crossing: CashTransaction
) -> CashTransactionReport | None:
    """The day's report line and the pit's alert, once, if the day's total is above the threshold."""
    threshold = knob("CASH_REPORT_THRESHOLD")
    total, count = player_day_total(player_id=player.pk, gaming_date=gaming_date, direction=direction)
    if total <= threshold:
        return None
    existing = CashTransactionReport.objects.filter(player=player, gaming_date=gaming_date, direction=direction).first()
    if existing is not None:
        return existing
    card = f" (card {player.card_number})" if player.card_number else ""
    alert = alert_raise(
        kind="cash_threshold",
        severity=AlertSeverity.WARNING,
        dedupe_key=f"cash_threshold:{player.pk}:{gaming_date}:{direction}",
        table=crossing.table,
        shift=crossing.shift,
        message=f"{player.name}{card}: cash {direction} {money_text(total)} on gaming day {gaming_date} is above "
        f"{money_text(threshold)}; a cash transaction report line was made",
        data={
            "player": player.pk,
            "gaming_date": str(gaming_date),
            "direction": direction,
            "total": total,
            "threshold": threshold,
            "transactions": count,
        },
    )
    line = CashTransactionReport.objects.create(
        player=player,
        gaming_date=gaming_date,
        direction=direction,
        threshold=threshold,
        total=total,
        transactions=count,
        crossing=crossing,
        alert=alert,
        created_at=timezone.now(),
    )
    audit_log(
        actor=None,
        action="cash.report",
        object_type="cash_report",
        object_id=line.pk,
        after={
            "player": player.pk,
            "gaming_date": gaming_date,
            "direction": direction,
            "total": total,
            "threshold": threshold,
            "transactions": count,
            "crossing": crossing.pk,
            "alert": alert.pk,
        },
    )
    return line


@transaction.atomic
def cash_transaction_record(
    *,
    actor: Any,
    kind: Any,
    amount: Any,
    player_id: Any = None,
    card_number: Any = None,
    description: Any = "",
    table_id: Any = None,
    note: Any = "",
) -> CashTransaction:
    """Record cash in or out at the cage or a table (a pit manager, an accountant or compliance).

    Buy-ins at a rating slip are recorded with :func:`players.services.slips.buy_in_record`, which writes
    the same log line.
    """
    if not has_role(actor, *CASH_WRITERS):
        raise Forbidden(
            gettext("cash transactions are recorded by pit managers, accountants and compliance"), code="role_required"
        )
    if kind not in CashKind.values:
        raise InvalidInput(gettext("the kind must be one of %(kinds)s") % {"kinds": ", ".join(str(k.label) for k in CashKind)}, code="bad_kind", field="kind")
    amount = amount_of(amount)
    description = text_of(description, field="description", max_length=120)
    note = text_of(note, field="note", max_length=200)
    table = None
    if table_id is not None:
        if isinstance(table_id, bool) or not isinstance(table_id, int):
            raise InvalidInput(gettext("the table must be a table's id"), code="bad_table", field="table")
        table = lock_table(table_id)  # table before player, as everywhere
        if not has_role(actor, Role.ACCOUNTANT, Role.COMPLIANCE):
            ensure_manages(actor, table)
    player = find_player(player_id=player_id, card_number=card_number)
    if player is not None:
        player = lock_player(player.pk)
    elif not description:
        raise InvalidInput(
            gettext("an anonymous transaction needs a description of who"), code="description_required",
            field="description",
        )
    shift = current_shift(actor, table)
    return record(
        actor=actor,
        kind=kind,
        amount=amount,
        shift=shift,
        player=player,
        table=table,
        description=description,
        note=note,
    )
