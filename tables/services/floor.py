"""Floor set-up: table rules and limits, shifts, dealer assignments. Audited like every change."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.core.roles import Role, roles_of
from casino.errors import Conflict, InvalidInput
from tables.access import ensure_manages, ensure_runs_the_day
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import LIVE_STATUSES, Assignment, Shift, ShiftStatus, ShiftType, Table, TableStatus
from tables.services.locks import lock_table

TABLE_FIELDS = ("name", "config", "min_bet", "max_bet", "seats", "status")


def _table_state(table: Table) -> dict[str, Any]:
    return {f: getattr(table, f) for f in TABLE_FIELDS}


@transaction.atomic
def table_update(*, table_id: int, actor: Any, **changes: Any) -> Table:
    """Change a table's rules, limits, seats or status (open/closed). Not while a round is live."""
    table = lock_table(table_id)
    ensure_manages(actor, table)
    unknown = set(changes) - set(TABLE_FIELDS)
    if unknown:
        raise InvalidInput(gettext("cannot change %(fields)s") % {"fields": ", ".join(sorted(unknown))}, field=sorted(unknown)[0])
    if table.rounds.filter(status__in=LIVE_STATUSES).exists() and set(changes) - {"name"}:
        raise Conflict(gettext("a round is live at %(table)s: change rules between rounds") % {"table": table.code}, code="round_in_progress")
    before = _table_state(table)
    for name, value in changes.items():
        setattr(table, name, value)
    if table.min_bet < 1 or table.max_bet < table.min_bet:
        raise InvalidInput(gettext("the table minimum must be at least 1 and at most the table maximum"), code="bad_limits", field="max_bet")
    if table.status not in TableStatus.values:
        raise InvalidInput(gettext("the status must be open or closed"), field="status")
    try:
        get_engine(table.game).resolve_config(table.engine_config())
    except EngineError as exc:
        raise InvalidInput(exc.message, code=exc.code, field=exc.field) from None
    table.save(update_fields=list(changes))
    audit_log(actor=actor, action="table.update", object_type="table", object_id=table.pk, table_code=table.code,
              before=before, after=_table_state(table))
    return table


def planned_period(shift_type: ShiftType, gaming_date: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """When a shift of that type on that gaming day starts and ends, in the casino's time zone."""
    tz = timezone.get_current_timezone()
    starts = dt.datetime.combine(gaming_date, shift_type.starts, tzinfo=tz)
    ends = dt.datetime.combine(gaming_date, shift_type.ends, tzinfo=tz)
    if ends <= starts:  # a shift past midnight (grave) ends the next calendar day
        ends += dt.timedelta(days=1)
    return starts, ends


@transaction.atomic
def shift_open(*, shift_type_id: int, gaming_date: dt.date, actor: Any) -> Shift:
    """Open a casino shift for a gaming day; its times come from the shift type. Who may: ``runs_the_day``."""
    ensure_runs_the_day(actor)
    shift_type = ShiftType.objects.filter(pk=shift_type_id).first()
    if shift_type is None:
        raise InvalidInput(gettext("no shift type %(shift_type)s") % {"shift_type": shift_type_id}, code="unknown_shift_type", field="shift_type")
    if Shift.objects.filter(shift_type=shift_type, gaming_date=gaming_date).exists():
        raise Conflict(gettext("the %(shift)s shift of %(date)s already exists")
                       % {"shift": shift_type.name, "date": date_format(gaming_date)}, code="shift_exists")
    starts, ends = planned_period(shift_type, gaming_date)
    shift = Shift.objects.create(shift_type=shift_type, gaming_date=gaming_date, starts_at=starts, ends_at=ends,
                                 opened_by=actor)
    audit_log(actor=actor, action="shift.open", object_type="shift", object_id=shift.pk,
              after={"type": shift_type.code, "gaming_date": gaming_date, "starts_at": starts, "ends_at": ends})
    return shift


@transaction.atomic
def assignment_create(*, dealer_id: int, table_id: int, shift_id: int, starts_at: dt.datetime | None,
                      ends_at: dt.datetime | None, actor: Any) -> Assignment:
    """Put a dealer on a table for part of a shift (the whole shift by default)."""
    from django.contrib.auth import get_user_model

    table = lock_table(table_id)
    ensure_manages(actor, table)
    dealer = get_user_model().objects.filter(pk=dealer_id, is_active=True).first()
    if dealer is None or Role.DEALER not in roles_of(dealer):
        raise InvalidInput(gettext("the dealer must be an active member of staff with the dealer role"),
                           code="not_a_dealer", field="dealer")
    shift = Shift.objects.filter(pk=shift_id, status=ShiftStatus.OPEN).first()
    if shift is None:
        raise InvalidInput(gettext("the shift must be an open shift"), code="shift_not_open", field="shift")
    return assignment_make(dealer=dealer, table=table, shift=shift, starts_at=starts_at, ends_at=ends_at, actor=actor)


def assignment_make(*, dealer: Any, table: Table, shift: Shift, starts_at: dt.datetime | None,
                    ends_at: dt.datetime | None, actor: Any) -> Assignment:
    """The assignment itself, once the caller has checked who may make it (the table locked by the caller).
    A dealer still assigned elsewhere then, in an open shift, is refused."""
    starts_at = starts_at or shift.starts_at
    ends_at = ends_at or shift.ends_at
    if ends_at <= starts_at:
        raise InvalidInput(gettext("the end must be after the start"), code="bad_period", field="ends_at")
    overlapping = Assignment.objects.filter(dealer=dealer, relieved_at__isnull=True, starts_at__lt=ends_at,
                                            ends_at__gt=starts_at, shift__status=ShiftStatus.OPEN)
    if overlapping.exists():
        other = overlapping.select_related("table").first()
        where = other.table.code if other is not None else gettext("another table")  # (relieved meanwhile)
        raise Conflict(gettext("%(dealer)s is already assigned to %(table)s then") % {"dealer": dealer.username, "table": where}, code="dealer_busy")
    assignment = Assignment.objects.create(dealer=dealer, table=table, shift=shift, starts_at=starts_at,
                                           ends_at=ends_at, assigned_by=actor)
    audit_log(actor=actor, action="assignment.create", object_type="assignment", object_id=assignment.pk,
              table_code=table.code, after={"dealer": dealer.username, "table": table.code, "shift": shift.pk,
                                            "starts_at": starts_at, "ends_at": ends_at})
    return assignment


@transaction.atomic
def assignment_relieve(*, assignment_id: int, actor: Any) -> Assignment:
    assignment = Assignment.objects.select_related("table").get(pk=assignment_id)
    lock_table(assignment.table_id)
    ensure_manages(actor, assignment.table)
    shift = Shift.objects.get(pk=assignment.shift_id)
    if shift.status != ShiftStatus.OPEN:  # the database refuses it too (tables/migrations/0008)
        raise Conflict(gettext("the shift %(shift)s is closed: its assignments are sealed, nobody is relieved in it any more")
                       % {"shift": f"{date_format(shift.gaming_date)} {shift.shift_type.name}"},
                       code="shift_closed")
    if assignment.relieved_at is not None:
        raise Conflict(gettext("this dealer was already relieved"), code="already_relieved")
    now = timezone.now()
    Assignment.objects.filter(pk=assignment.pk).update(relieved_at=now)
    assignment.refresh_from_db()
    audit_log(actor=actor, action="assignment.relieve", object_type="assignment", object_id=assignment.pk,
              table_code=assignment.table.code, before={"relieved_at": None}, after={"relieved_at": now})
    return assignment


def _on_duty(table_ids: list[int], now: dt.datetime) -> dict[int, Assignment]:
    """Each table's dealer now (its latest assignment under way), by table id."""
    found = (Assignment.objects.filter(table_id__in=table_ids, starts_at__lte=now, ends_at__gt=now,
                                       relieved_at__isnull=True, shift__status=ShiftStatus.OPEN)
             .select_related("dealer", "table", "shift").order_by("table_id", "starts_at"))
    return {a.table_id: a for a in found}  # the latest of each table wins


@transaction.atomic
def dealer_rotate(*, pit_id: int, actor: Any, incoming_dealer_id: int | None = None) -> list[Assignment]:
    """Rotate the dealers of a pit's open tables, in the order of their codes: the incoming dealer (back from
    a break) takes the first table, each dealer moves on to the next table, and the last one's dealer goes
    on a break (relieved). Without an incoming dealer the last table's dealer moves to the first table. Each
    move is a relief and a new assignment (audited), and ``pit.rotate`` records the whole rotation."""
    tables = list(Table.objects.select_related("pit").filter(pit_id=pit_id, status=TableStatus.OPEN).order_by("code"))
    if not tables:
        raise Conflict(gettext("the pit has no open table to rotate"), code="nothing_to_rotate")
    for table in tables:
        lock_table(table.pk)
        ensure_manages(actor, table)
    now = timezone.now()
    on_duty = _on_duty([t.pk for t in tables], now)
    staffed = [t for t in tables if t.pk in on_duty]
    if not staffed or (incoming_dealer_id is None and len(staffed) < 2):
        raise Conflict(gettext("a rotation needs two dealers on the pit's tables, or one coming back from a break"),
                       code="nothing_to_rotate")
    dealers = [on_duty[t.pk].dealer for t in staffed]
    if incoming_dealer_id is not None:
        if any(d.pk == incoming_dealer_id for d in dealers):
            raise Conflict(gettext("that dealer is already dealing at this pit"), code="dealer_busy")
        from django.contrib.auth import get_user_model

        incoming = get_user_model().objects.filter(pk=incoming_dealer_id, is_active=True).first()
        if incoming is None or Role.DEALER not in roles_of(incoming):
            raise InvalidInput(gettext("the dealer must be an active member of staff with the dealer role"),
                               code="not_a_dealer", field="dealer")
        order = [incoming, *dealers[:-1]]  # the last dealer goes on a break
        off = [dealers[-1]]
    else:
        order = [dealers[-1], *dealers[:-1]]
        off = []
    shift = on_duty[staffed[0].pk].shift
    for table in staffed:
        assignment_relieve(assignment_id=on_duty[table.pk].pk, actor=actor)
    created = [
        assignment_create(dealer_id=dealer.pk, table_id=table.pk, shift_id=shift.pk, starts_at=now,
                          ends_at=shift.ends_at, actor=actor)
        for table, dealer in zip(staffed, order, strict=True)
    ]
    audit_log(actor=actor, action="pit.rotate", object_type="pit", object_id=pit_id,
              after={"moves": [{"table": t.code, "from": on_duty[t.pk].dealer.username, "to": d.username}
                               for t, d in zip(staffed, order, strict=True)],
                     "on_break": [d.username for d in off]})
    return created
