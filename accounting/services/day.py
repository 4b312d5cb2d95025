"""The gaming day on screens: the next shift opened, and every table rolled into it in one step.

``next_shift`` proposes the shift to open (the earliest shift of any type, yesterday to tomorrow, not
yet opened and not yet over); ``day_open`` opens it (``tables.services.floor.shift_open``: who may is
``tables.access.runs_the_day``); ``tables_roll`` gives each open table of the actor's floor its opener
from its last closer, signed as that closer was, and keeps each table's last dealer on it for the new
shift. A table that cannot roll is left as it is and said why (docs/accounting.md, "The gaming day").
The screen (``/pit/day/``) and the API (``POST /api/accounting/day/roll/``) call these functions.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounting.models import CountKind, InventoryCount
from accounting.services.counts import open_shift, roll_into
from casino.audit.services import audit_log
from casino.core.roles import Role, roles_of
from casino.errors import DomainError
from tables.access import ensure_runs_the_day, runs_the_day_at
from tables.models import Assignment, Shift, ShiftType, Table, TableStatus
from tables.services import floor
from tables.services.locks import lock_table


@dataclass
class RollLine:
    """One table's outcome: rolled (``opener`` set) or left as it was (``refused`` is the reason's code)."""

    table: Table
    opener: InventoryCount | None = None
    dealer: Any | None = None  # the dealer kept on the table for the new shift
    dealer_refused: str = ""  # why the last dealer was not kept (a code), when there was one
    refused: str = ""
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.code,
            "opener": self.opener.pk if self.opener else None,
            "total": self.opener.total if self.opener else None,
            "from_closer": self.opener.previous_closer_id if self.opener else None,
            "dealer": self.dealer.username if self.dealer is not None else None,
            "dealer_refused": self.dealer_refused or None,
            "refused": self.refused or None,
            "reason": self.reason or None,
        }


def next_shift(now: dt.datetime | None = None) -> tuple[ShiftType, dt.date] | None:
    """The shift to open next: of every shift type on the gaming days from yesterday to tomorrow, the one
    that starts first among those not opened yet and not over by ``now``; None when there is no shift type."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    days = [today + dt.timedelta(days=n) for n in (-1, 0, 1)]
    opened = set(Shift.objects.filter(gaming_date__in=days).values_list("shift_type_id", "gaming_date"))
    candidates: list[tuple[dt.datetime, str, ShiftType, dt.date]] = []
    for shift_type in ShiftType.objects.all():
        for day in days:
            starts, ends = floor.planned_period(shift_type, day)
            if (shift_type.pk, day) not in opened and ends > now:
                candidates.append((starts, shift_type.code, shift_type, day))
    if not candidates:
        return None
    _, _, shift_type, day = min(candidates, key=lambda c: (c[0], c[1]))
    return shift_type, day


def day_open(*, actor: Any, shift_type_id: int, gaming_date: dt.date) -> Shift:
    """Open a shift of the gaming day (the same service as ``POST /api/shifts/``)."""
    return floor.shift_open(shift_type_id=shift_type_id, gaming_date=gaming_date, actor=actor)


def floor_tables(actor: Any) -> list[Table]:
    """The tables whose day the actor runs: every table for a shift manager, their pits' for a pit manager."""
    tables = Table.objects.select_related("pit").order_by("pit__code", "code")
    return [t for t in tables if runs_the_day_at(actor, t)]


def _last_dealer(table: Table, shift: Shift) -> Any | None:
    last = (Assignment.objects.filter(table=table, shift=shift).select_related("dealer")
            .order_by("-starts_at", "-id").first())
    return last.dealer if last is not None else None


def _keep_dealer(line: RollLine, shift: Shift, actor: Any) -> None:
    """Put the table's last dealer of the shift its closer came from on it for the whole new shift."""
    assert line.opener is not None
    prev = line.opener.previous_closer
    dealer = _last_dealer(line.table, prev.shift) if prev is not None else None
    if dealer is None or Assignment.objects.filter(table=line.table, shift=shift).exists():
        return
    if not dealer.is_active or Role.DEALER not in roles_of(dealer):
        line.dealer_refused = "not_a_dealer"
        return
    try:
        with transaction.atomic():
            floor.assignment_make(dealer=dealer, table=line.table, shift=shift, starts_at=None, ends_at=None,
                                  actor=actor)
    except DomainError as exc:
        line.dealer_refused = exc.code
    else:
        line.dealer = dealer


@transaction.atomic
def tables_roll(*, actor: Any, shift_id: Any, keep_dealers: bool = True) -> list[RollLine]:
    """Roll every open table of the actor's floor into the shift: its opener is its last closer. A table
    already opened in the shift, closed for it, not open for play, with no earlier closer or whose
    earlier shift is not closed is left as it is, with the reason. Idempotent: a second roll rolls nothing."""
    ensure_runs_the_day(actor)
    shift = open_shift(shift_id)
    lines: list[RollLine] = []
    for table in floor_tables(actor):
        line = RollLine(table=table)
        lines.append(line)
        if table.status != TableStatus.OPEN:
            line.refused, line.reason = "table_not_open", f"{table.code} is not open for play"
            continue
        lock_table(table.pk)
        if InventoryCount.objects.filter(table=table, shift=shift, kind=CountKind.OPENER).exists():
            line.refused, line.reason = "count_exists", f"{table.code} already has its opener for {shift}"
            continue
        try:
            with transaction.atomic():
                line.opener = roll_into(table, shift, actor=actor)
        except DomainError as exc:
            line.refused, line.reason = exc.code, exc.message
            continue
        if keep_dealers:
            _keep_dealer(line, shift, actor)
    audit_log(
        actor=actor,
        action="day.roll",
        object_type="shift",
        object_id=shift.pk,
        after={"keep_dealers": keep_dealers, "tables": [line.as_dict() for line in lines]},
    )
    return lines
