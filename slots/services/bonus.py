"""Bonus meters: a machine's own meters the rule book games describe.

Credits meters hold credits owed to the player and are liabilities in the ledger, valued at the
machine's denomination: Bank on It!'s piggy bank (starts at 150 credits, grows with the bets of
three-blank spins, paid on three piggies), Frozen Assets' snowman bonus (back to 500 once won).
Count meters carry no money: The Big Heist's safe clicks (50 crack the safe), the snowflakes above
the snowman (200), It's Good to be Bad's loss meter (29 in a row win the progressive) and free
winning spins, Light Speed's multiplier (1 to 7), Bonkers!' free spins.

Each change is an event (append-only) with at most one ledger transaction:
* create — a credits meter's starting value is funded by the house;
* update — the value read from the machine; a credits meter only grows (its growth comes out of play);
* hit — the meter is won: a credits meter pays its value out (to 0), then a ``reset`` event funds it
  back to the reset value; a count meter goes straight back to its reset value;
* reset — back to the reset value without a win; a credits meter that owes more than that releases
  the difference to the house only with a supervisor's signature and a reason.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import Account
from casino.audit.services import audit_log
from casino.core.roles import Role
from casino.errors import Conflict, InvalidInput
from casino.signatures import signed_by
from slots.labels import count_words, field_words
from slots.models import (
    BONUS,
    METER_MAX,
    BonusEventKind,
    BonusMeter,
    BonusMeterEvent,
    BonusUnit,
    MachineStatus,
    PaidBy,
    bonus_account_code,
)
from slots.services import postings
from slots.services.common import choice, ensure_writer, lock_bonus_meter, lock_machine, text, whole

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def meter_snapshot(meter: BonusMeter) -> dict[str, Any]:
    return {
        "machine": meter.machine.asset_number, "name": meter.name, "label": meter.label, "unit": meter.unit,
        "reset_value": meter.reset_value, "value": meter.value, "target": meter.target, "hits": meter.hits,
        "owed": meter.owed,
    }


def _event(
    meter: BonusMeter,
    *,
    kind: str,
    value_after: int,
    actor: Any,
    lines: list[tuple[Account, int]] | None = None,
    memo: str = "",
    hit: bool = False,
    **fields: Any,
) -> BonusMeterEvent:
    """Post the event's transaction, move the meter (a conditional update) and record the event."""
    seq = meter.events + 1
    txn = postings.post(kind=BONUS, source_id=f"{meter.pk}:{seq}", lines=lines or [], actor=actor,
                        memo=f"{meter.machine.asset_number} {meter.label}: {memo or kind}")
    changed = BonusMeter.objects.filter(pk=meter.pk, value=meter.value, events=seq - 1).update(
        value=value_after, events=seq, hits=meter.hits + (1 if hit else 0)
    )
    if changed != 1:
        raise Conflict(gettext("%(meter)s changed meanwhile; retry") % {"meter": meter.label}, code="bonus_meter_changed")
    event = BonusMeterEvent.objects.create(
        meter=meter, seq=seq, kind=kind, value_before=meter.value, value_after=value_after, transaction=txn,
        recorded_by=actor, recorded_at=timezone.now(), **fields,
    )
    meter.value, meter.events, meter.hits = value_after, seq, meter.hits + (1 if hit else 0)
    return event


def _value(value: Any, *, field: str, target: int | None) -> int:
    value = whole(value, field=field)
    if target is not None and value > target:
        raise InvalidInput(gettext("%(field)s is above the meter's target (%(target)s)")
                           % {"field": field_words(field), "target": count_words(target)}, code="above_target", field=field)
    return value


@transaction.atomic
def bonus_meter_create(
    *,
    machine_id: Any,
    name: Any,
    label: Any,
    unit: Any,
    reset_value: Any,
    actor: Any,
    value: Any = None,
    target: Any = None,
) -> BonusMeter:
    """A bonus meter on a machine, starting at ``value`` (default: its reset value). A credits meter's
    starting credits are funded by the house (150 credits at 25¢ put 37.50 in the liability)."""
    ensure_writer(actor)
    name = text(name, field="name", max_length=40, required=True)
    if not NAME.match(name):
        raise InvalidInput(gettext("the name is lower-case letters, digits, - and _"), code="bad_name", field="name")
    label = text(label, field="label", max_length=80, required=True)
    unit = choice(unit, field="unit", choices=BonusUnit)
    if target is not None:
        if unit == BonusUnit.CREDITS:
            raise InvalidInput(gettext("a target is for count meters (clicks, spins, a level)"), code="target_for_counts",
                               field="target")
        target = whole(target, field="target", minimum=1)
    reset_value = _value(reset_value, field="reset_value", target=target)
    value = reset_value if value is None else _value(value, field="value", target=target)
    machine = lock_machine(machine_id)
    if machine.status == MachineStatus.RETIRED:
        raise Conflict(gettext("%(machine)s is retired") % {"machine": machine.asset_number}, code="machine_retired", field="machine")
    if len(bonus_account_code(machine, name)) > postings.CODE_MAX:
        # the name is part of the ledger account's code, which also carries the asset number
        room = postings.CODE_MAX - len(bonus_account_code(machine, ""))
        raise InvalidInput(gettext("on %(machine)s a meter's name is at most %(count)s characters")
                           % {"machine": machine.asset_number, "count": room},
                           code="name_too_long", field="name")
    if BonusMeter.objects.filter(machine=machine, name=name).exists():
        raise Conflict(gettext("%(machine)s already has a meter %(name)s") % {"machine": machine.asset_number, "name": name}, code="bonus_meter_exists", field="name")
    meter = BonusMeter.objects.create(
        machine=machine, name=name, label=label, unit=unit, reset_value=reset_value, value=0, target=target,
        created_by=actor, created_at=timezone.now(),
    )
    funded = value * machine.denomination if unit == BonusUnit.CREDITS else 0
    if funded > METER_MAX:
        raise InvalidInput(gettext("the value times the denomination is too large"), code="out_of_range", field="value")
    _event(
        meter, kind=BonusEventKind.CREATE, value_after=value, actor=actor, funded=funded, memo="starting value",
        lines=[(postings.machine_seed_account(machine), funded), (postings.bonus_account(meter), -funded)],
    )
    audit_log(actor=actor, action="slots.bonus.create", object_type="slot_bonus_meter", object_id=meter.pk,
              after=meter_snapshot(meter))
    return meter


@transaction.atomic
def bonus_meter_update(*, meter_id: Any, value: Any, actor: Any, note: Any = "") -> BonusMeterEvent:
    """The meter's value as the machine shows it now. A credits meter only grows here (its growth is set
    aside from play); it goes down only by a hit or a reset."""
    ensure_writer(actor)
    note = text(note, field="note", max_length=200)
    meter = lock_bonus_meter(meter_id)
    value = _value(value, field="value", target=meter.target)
    if value == meter.value:
        raise Conflict(gettext("%(meter)s is already at %(value)s") % {"meter": meter.label, "value": count_words(value)}, code="unchanged", field="value")
    before = meter_snapshot(meter)
    lines: list[tuple[Account, int]] = []
    accrued = 0
    if meter.unit == BonusUnit.CREDITS:
        if value < meter.value:
            raise Conflict(
                gettext("%(meter)s owes %(value)s credits: credits owed go down only by a hit or a reset")
                % {"meter": meter.label, "value": count_words(meter.value)},
                code="credits_only_grow", field="value",
            )
        accrued = (value - meter.value) * meter.machine.denomination
        if value * meter.machine.denomination > METER_MAX:
            raise InvalidInput(gettext("the value times the denomination is too large"), code="out_of_range", field="value")
        lines = [(postings.contributions_account(meter.machine), accrued), (postings.bonus_account(meter), -accrued)]
    event = _event(meter, kind=BonusEventKind.UPDATE, value_after=value, actor=actor, lines=lines, accrued=accrued,
                   reason=note, memo="grew with play")
    audit_log(actor=actor, action="slots.bonus.update", object_type="slot_bonus_meter", object_id=meter.pk,
              before=before, after={**meter_snapshot(meter), "event": event.pk, "note": note})
    return event


@transaction.atomic
def bonus_meter_hit(
    *, meter_id: Any, actor: Any, paid_by: Any = PaidBy.MACHINE, expected_value: Any = None, note: Any = ""
) -> BonusMeterEvent:
    """The meter is won. A credits meter pays ``value × denomination`` (on the machine, or hand-paid from the
    cage) and is funded back to its reset value by the house; a count meter goes back to its reset value.
    With ``expected_value`` (what the machine shows) a different value is refused."""
    ensure_writer(actor)
    paid_by = choice(paid_by, field="paid_by", choices=PaidBy)
    note = text(note, field="note", max_length=200)
    if expected_value is not None:
        expected_value = whole(expected_value, field="expected_value")
    meter = lock_bonus_meter(meter_id)
    if expected_value is not None and expected_value != meter.value:
        raise Conflict(gettext("%(meter)s stands at %(value)s, not %(expected)s")
                       % {"meter": meter.label, "value": count_words(meter.value), "expected": count_words(expected_value)}, code="value_changed",
                       field="expected_value")
    before = meter_snapshot(meter)
    if meter.unit == BonusUnit.COUNT:
        event = _event(meter, kind=BonusEventKind.HIT, value_after=meter.reset_value, actor=actor, hit=True,
                       reason=note)
    else:
        if meter.value == 0:
            raise Conflict(gettext("%(meter)s owes nothing") % {"meter": meter.label}, code="nothing_owed")
        machine, liability = meter.machine, postings.bonus_account(meter)
        paid = meter.value * machine.denomination
        event = _event(
            meter, kind=BonusEventKind.HIT, value_after=0, actor=actor, hit=True, paid=paid, paid_by=paid_by,
            reason=note, memo=f"won, {paid_by}",
            lines=[(liability, paid), (postings.payout_account(machine, paid_by), -paid)],
        )
        funded = meter.reset_value * machine.denomination
        _event(
            meter, kind=BonusEventKind.RESET, value_after=meter.reset_value, actor=actor, funded=funded,
            reason="after a hit", memo="reset by the house after a hit",
            lines=[(postings.machine_seed_account(machine), funded), (liability, -funded)],
        )
    audit_log(actor=actor, action="slots.bonus.hit", object_type="slot_bonus_meter", object_id=meter.pk,
              before=before, after={**meter_snapshot(meter), "event": event.pk, "paid": event.paid,
                                    "paid_by": event.paid_by, "note": note})
    return event


@transaction.atomic
def bonus_meter_reset(*, meter_id: Any, actor: Any, reason: Any, supervisor: Any = None) -> BonusMeterEvent:
    """Back to the reset value without a win (a RAM clear, a wrong entry, the loss meter after a win).

    A credits meter below its reset value is funded up by the house; above it, the credits owed beyond
    the reset value go back to the house, which needs a supervisor (a pit manager proving it is them, not
    the person recording) and a reason: it takes away what the machine showed a player.
    """
    ensure_writer(actor)
    reason = text(reason, field="reason", max_length=200, required=True)
    meter = lock_bonus_meter(meter_id)
    if meter.value == meter.reset_value:
        raise Conflict(gettext("%(meter)s is already at its reset value") % {"meter": meter.label}, code="unchanged")
    before = meter_snapshot(meter)
    signature = None
    lines: list[tuple[Account, int]] = []
    fields: dict[str, Any] = {}
    if meter.unit == BonusUnit.CREDITS:
        machine, liability = meter.machine, postings.bonus_account(meter)
        change = (meter.reset_value - meter.value) * machine.denomination
        if change < 0:
            signature = signed_by(supervisor, actor=actor, field="supervisor", roles=(Role.PIT_MANAGER,))
            if signature.user_id == getattr(actor, "pk", None):
                raise InvalidInput(gettext("releasing credits owed is signed by a supervisor other than the person recording"),
                                   code="same_signer", field="supervisor")
            fields["released"] = -change
        else:
            fields["funded"] = change
        lines = [(postings.machine_seed_account(machine), change), (liability, -change)]
    event = _event(meter, kind=BonusEventKind.RESET, value_after=meter.reset_value, actor=actor, lines=lines,
                   supervisor=signature, reason=reason, memo=f"reset: {reason}", **fields)
    audit_log(actor=actor, action="slots.bonus.reset", object_type="slot_bonus_meter", object_id=meter.pk,
              before=before, after={**meter_snapshot(meter), "event": event.pk, "reason": reason,
                                    "supervisor": signature.employee_id if signature else None})
    return event
