"""Machines and their meter readings. A reading's coin-in difference feeds the machine's progressives."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.core.roles import Role
from casino.errors import Conflict, InvalidInput
from casino.signatures import signed_by
from slots.labels import field_words, meter_words
from slots.models import (
    BASIS_POINTS,
    METERS,
    READING,
    BonusMeter,
    BonusUnit,
    Machine,
    MachineStatus,
    MeterReading,
    ProgressiveContribution,
)
from slots.services import postings
from slots.services.common import choice, ensure_writer, lock_machine, lock_progressives, text, whole

DENOMINATION_MAX = 10**9
# a reading may be entered a little after the fact, never from the future (clocks drift a little)
CLOCK_SKEW = dt.timedelta(minutes=5)


def machine_snapshot(machine: Machine) -> dict[str, Any]:
    return {
        "asset_number": machine.asset_number,
        "game": machine.game,
        "denomination": machine.denomination,
        "location": machine.location,
        "status": machine.status,
    }


@transaction.atomic
def machine_create(*, asset_number: Any, game: Any, denomination: Any, location: Any = "", actor: Any) -> Machine:
    """Put a machine on the floor under its asset number, with its game and denomination (minor units a credit)."""
    ensure_writer(actor)
    asset_number = text(asset_number, field="asset_number", max_length=32, required=True)
    game = text(game, field="game", max_length=80, required=True)
    denomination = whole(denomination, field="denomination", minimum=1, maximum=DENOMINATION_MAX)
    location = text(location, field="location", max_length=80)
    if Machine.objects.filter(asset_number=asset_number).exists():
        raise Conflict(gettext("asset number %(asset)s is already on the floor") % {"asset": asset_number}, code="asset_number_taken",
                       field="asset_number")
    now = timezone.now()
    try:
        with transaction.atomic():
            machine = Machine.objects.create(
                asset_number=asset_number, game=game, denomination=denomination, location=location,
                created_by=actor, created_at=now, updated_at=now,
            )
    except IntegrityError:  # a concurrent request took the number between the check and the insert
        raise Conflict(gettext("asset number %(asset)s is already on the floor") % {"asset": asset_number}, code="asset_number_taken",
                       field="asset_number") from None
    audit_log(actor=actor, action="slots.machine.create", object_type="slot_machine", object_id=machine.pk,
              after=machine_snapshot(machine))
    return machine


@transaction.atomic
def machine_update(
    *, machine_id: Any, actor: Any, game: Any = None, location: Any = None, status: Any = None, reason: Any = ""
) -> Machine:
    """Change a machine's game name, location or status. Retiring is final, and needs the machine unlinked
    from every progressive and owing nothing on its bonus meters. The denomination never changes (a
    machine set to another denomination comes back under a new asset number)."""
    ensure_writer(actor)
    reason = text(reason, field="reason", max_length=200)
    machine = lock_machine(machine_id, field=None)
    before = machine_snapshot(machine)
    if machine.status == MachineStatus.RETIRED:
        raise Conflict(gettext("%(machine)s is retired") % {"machine": machine.asset_number}, code="machine_retired")
    fields = {}
    if game is not None:
        fields["game"] = text(game, field="game", max_length=80, required=True)
    if location is not None:
        fields["location"] = text(location, field="location", max_length=80)
    if status is not None:
        fields["status"] = choice(status, field="status", choices=MachineStatus)
    if not fields:
        raise InvalidInput(gettext("give a game, a location or a status to change"), code="nothing_to_change")
    if fields.get("status") == MachineStatus.RETIRED:
        linked = list(machine.progressives.values_list("code", flat=True))
        if linked:
            raise Conflict(gettext("%(machine)s is linked to %(progressives)s: unlink it first")
                           % {"machine": machine.asset_number, "progressives": ", ".join(linked)},
                           code="machine_linked", field="status")
        owing = BonusMeter.objects.filter(machine=machine, unit=BonusUnit.CREDITS, value__gt=0)
        if owing.exists():
            raise Conflict(gettext("%(machine)s's bonus meters still owe credits: pay or reset them first")
                           % {"machine": machine.asset_number},
                           code="bonus_owed", field="status")
    for name, value in fields.items():
        setattr(machine, name, value)
    machine.updated_at = timezone.now()
    machine.save(update_fields=[*fields, "updated_at"])
    audit_log(actor=actor, action="slots.machine.update", object_type="slot_machine", object_id=machine.pk,
              before=before, after={**machine_snapshot(machine), "reason": reason})
    return machine


def _read_at(value: Any) -> dt.datetime:
    now = timezone.now()
    if value is None:
        return now
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise InvalidInput(gettext("the reading's time must be a date and time with its time zone"), code="bad_datetime",
                           field="read_at")
    if value > now + CLOCK_SKEW:
        raise InvalidInput(gettext("the reading's time is in the future"), code="read_in_future", field="read_at")
    return value


def contribution(remainder: int, coin_in: int, rate_bp: int) -> tuple[int, int]:
    """Whole minor units to post and the fraction to carry (1/10 000 of a minor unit).

    The exact contribution is ``coin_in × rate_bp / 10 000``; the posting is rounded down and what
    is left joins the carried remainder, so over any run of readings the postings add up to the exact
    total rounded down, and the fraction left is at most 9 999/10 000 of one minor unit.

    >>> contribution(0, 12_345, 150)  # 1.5 % of 123.45 = 1.85175
    (185, 1750)
    >>> contribution(1750, 12_345, 150)  # 1.85175 + 0.00175 carried = 1.8535
    (185, 3500)
    """
    return divmod(remainder + coin_in * rate_bp, BASIS_POINTS)


@transaction.atomic
def meter_reading_record(
    *,
    machine_id: Any,
    coin_in: Any,
    coin_out: Any,
    jackpots: Any,
    games_played: Any,
    drop: Any,
    actor: Any,
    read_at: Any = None,
    ram_clear: Any = False,
    supervisor: Any = None,
    reason: Any = "",
) -> MeterReading:
    """Record a machine's cumulative meters; post its progressives' contributions from the coin-in difference.

    A meter lower than at the previous reading is refused, unless the reading is a RAM clear signed by a
    supervisor (a pit manager proving it is them, not the person recording) with a reason: the meters then
    count again from zero, so the difference is the reading itself. Take a reading just before a clear.
    """
    ensure_writer(actor)
    values = {m: whole(v, field=m) for m, v in zip(METERS, (coin_in, coin_out, jackpots, games_played, drop))}
    if not isinstance(ram_clear, bool):
        raise InvalidInput(gettext("a RAM clear is said yes or no"), code="bad_boolean", field="ram_clear")
    reason = text(reason, field="reason", max_length=200)
    read_at = _read_at(read_at)
    signature = None
    if ram_clear:
        if not reason:
            raise InvalidInput(gettext("a RAM clear is recorded with its reason"), code="reason_required", field="reason")
        signature = signed_by(supervisor, actor=actor, field="supervisor", roles=(Role.PIT_MANAGER,))
        if signature.user_id == getattr(actor, "pk", None):
            raise InvalidInput(gettext("a RAM clear is signed by a supervisor other than the person recording it"),
                               code="same_signer", field="supervisor")
    elif supervisor not in (None, "", {}):
        raise InvalidInput(gettext("a supervisor signs a RAM clear only"), code="supervisor_unexpected",
                           field="supervisor")

    machine = lock_machine(machine_id)
    if machine.status == MachineStatus.RETIRED:
        raise Conflict(gettext("%(machine)s is retired: no more readings") % {"machine": machine.asset_number}, code="machine_retired")
    previous = MeterReading.objects.filter(machine=machine, seq=machine.readings).first()
    if previous is None:
        if ram_clear:
            raise InvalidInput(gettext("the first reading is the baseline: there is nothing to clear"),
                               code="ram_clear_without_reading", field="ram_clear")
        deltas = dict.fromkeys(METERS, 0)  # the baseline: nothing before it is the back office's
    else:
        if read_at < previous.read_at:
            raise Conflict(gettext("the reading's time is before the previous reading's (%(when)s)")
                           % {"when": date_format(timezone.localtime(previous.read_at), "DATETIME_FORMAT")},
                           code="reading_out_of_order", field="read_at")
        backwards = [m for m in METERS if values[m] < getattr(previous, m)]
        if ram_clear:
            if not backwards:
                raise Conflict(gettext("no meter is lower than at the previous reading: that is not a RAM clear"),
                               code="not_a_ram_clear", field="ram_clear")
            deltas = dict(values)  # cleared to zero, counted again from there
        elif backwards:
            m = backwards[0]
            raise Conflict(
                gettext("%(meter)s went backwards (%(value)s after %(before)s): a meter only goes down across a RAM "
                        "clear, recorded as one, with a supervisor and a reason")
                % {"meter": field_words(m), "value": meter_words(m, values[m]),
                   "before": meter_words(m, getattr(previous, m))},
                code="meter_backwards", field=m,
            )
        else:
            deltas = {m: values[m] - getattr(previous, m) for m in METERS}

    seq = machine.readings + 1
    progressives = lock_progressives(machine.progressives.values_list("pk", flat=True))
    contributions = []
    lines = []
    for p in progressives:
        amount, remainder = contribution(p.remainder, deltas["coin_in"], p.contribution_bp)
        contributions.append((p, p.remainder, amount, remainder))
        if amount:
            lines += [(postings.contributions_account(machine), amount), (postings.liability_account(p), -amount)]
        if amount or remainder != p.remainder:
            # conditional: the row we computed from is the row we change (we hold its lock; belt and braces)
            changed = type(p).objects.filter(pk=p.pk, amount=p.amount, remainder=p.remainder).update(
                amount=p.amount + amount, remainder=remainder)
            if changed != 1:
                raise Conflict(gettext("progressive %(progressive)s changed meanwhile; retry") % {"progressive": p.code}, code="progressive_changed")
    txn = postings.post(
        kind=READING, source_id=f"{machine.pk}:{seq}", lines=lines, actor=actor,
        memo=f"{machine.asset_number} reading {seq}: progressive contributions",
    )
    now = timezone.now()
    if Machine.objects.filter(pk=machine.pk, readings=seq - 1).update(readings=seq, updated_at=now) != 1:
        raise Conflict(gettext("%(machine)s was read meanwhile; retry") % {"machine": machine.asset_number}, code="reading_changed")
    reading = MeterReading.objects.create(
        machine=machine, seq=seq, read_at=read_at, **values, **{f"d_{m}": v for m, v in deltas.items()},
        ram_clear=ram_clear, supervisor=signature, reason=reason, transaction=txn,
        recorded_by=actor, recorded_at=now,
    )
    ProgressiveContribution.objects.bulk_create([
        ProgressiveContribution(
            reading=reading, progressive=p, coin_in=deltas["coin_in"], rate_bp=p.contribution_bp,
            remainder_before=before, amount=amount, remainder_after=after,
        )
        for p, before, amount, after in contributions
    ])
    audit_log(
        actor=actor, action="slots.reading.record", object_type="slot_reading", object_id=reading.pk,
        before={m: getattr(previous, m) for m in METERS} if previous else None,
        after={
            "machine": machine.asset_number, "seq": seq, "read_at": read_at.isoformat(), "meters": values,
            "deltas": deltas, "ram_clear": ram_clear, "supervisor": signature.employee_id if signature else None,
            "reason": reason, "contributions": {p.code: amount for p, _, amount, _ in contributions},
        },
    )
    return reading
