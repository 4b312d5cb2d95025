"""Progressive jackpots: set up (the house funds the starting amount), link machines, hit and reset.

Contributions are posted by :func:`slots.services.machines.meter_reading_record`.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import Account, Entry
from casino.audit.services import audit_log
from casino.errors import Conflict, InvalidInput
from casino.money import money_amount
from slots.models import (
    BASIS_POINTS,
    METER_MAX,
    PROGRESSIVE_HIT,
    PROGRESSIVE_RESET,
    PROGRESSIVE_SEED,
    Machine,
    MachineStatus,
    PaidBy,
    Progressive,
    ProgressiveHit,
    ProgressiveScope,
)
from slots.services import postings
from slots.services.common import choice, ensure_writer, lock_machine, lock_progressive, text, whole

CODE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def progressive_snapshot(p: Progressive) -> dict[str, Any]:
    return {
        "code": p.code, "name": p.name, "scope": p.scope, "reset_value": p.reset_value,
        "contribution_bp": p.contribution_bp, "amount": p.amount, "remainder": p.remainder, "hits": p.hits,
        "machines": sorted(p.machines.values_list("asset_number", flat=True)),
    }


def _machine_ids(value: Any) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise InvalidInput(gettext("the machines must be a list of machine ids"), code="bad_machines", field="machines")
    ids = [whole(v, field="machines", minimum=1, maximum=2**63 - 1) for v in value]
    if len(set(ids)) != len(ids):
        raise InvalidInput(gettext("a machine is listed twice"), code="duplicate_machine", field="machines")
    return sorted(ids)


def _ensure_linkable(machine: Machine, field: str = "machine") -> None:
    if machine.status == MachineStatus.RETIRED:
        raise Conflict(gettext("%(machine)s is retired") % {"machine": machine.asset_number}, code="machine_retired", field=field)


@transaction.atomic
def progressive_create(
    *,
    code: Any,
    name: Any,
    scope: Any,
    reset_value: Any,
    contribution_bp: Any,
    actor: Any,
    machines: Any = None,
    amount: Any = None,
) -> Progressive:
    """A progressive starting at ``amount`` (default its reset value), funded by the house.

    ``scope=system``: a system-wide jackpot over any number of linked machines (Crazy Dragon restarts at
    $2,000); ``scope=machine``: one machine's own, linked to exactly one machine.
    """
    ensure_writer(actor)
    code = text(code, field="code", max_length=40, required=True)
    if not CODE.match(code):
        raise InvalidInput(gettext("the code is lower-case letters, digits, - and _ (it names the ledger account)"),
                           code="bad_code", field="code")
    name = text(name, field="name", max_length=80, required=True)
    scope = choice(scope, field="scope", choices=ProgressiveScope)
    reset_value = whole(reset_value, field="reset_value", minimum=1, maximum=METER_MAX)
    contribution_bp = whole(contribution_bp, field="contribution_bp", minimum=0, maximum=BASIS_POINTS)
    amount = reset_value if amount is None else whole(amount, field="amount", minimum=1, maximum=METER_MAX)
    if amount < reset_value:
        raise InvalidInput(gettext("the amount must be at least the reset value (%(reset)s)") % {"reset": money_amount(reset_value)}, code="below_reset",
                           field="amount")
    ids = _machine_ids(machines)
    if scope == ProgressiveScope.MACHINE and len(ids) != 1:
        raise InvalidInput(gettext("a machine's own progressive is linked to exactly one machine"), code="one_machine",
                           field="machines")
    linked = [lock_machine(pk, field="machines") for pk in ids]  # machines first, in id order
    for m in linked:
        _ensure_linkable(m, "machines")
    if Progressive.objects.filter(code=code).exists():
        raise Conflict(gettext("progressive %(progressive)s already exists") % {"progressive": code}, code="progressive_code_taken", field="code")
    account_code = f"progressive:{code}"
    if Entry.objects.filter(account__in=Account.objects.filter(code=account_code)).exists():
        raise Conflict(gettext("the ledger account %(account)s already has entries") % {"account": account_code}, code="account_in_use", field="code")
    try:
        with transaction.atomic():
            p = Progressive.objects.create(
                code=code, name=name, scope=scope, reset_value=reset_value, contribution_bp=contribution_bp,
                amount=amount, created_by=actor, created_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(gettext("progressive %(progressive)s already exists") % {"progressive": code}, code="progressive_code_taken", field="code") from None
    p.machines.set(linked)
    postings.post(
        kind=PROGRESSIVE_SEED, source_id=p.pk, actor=actor, memo=f"{name}: starting amount from the house",
        lines=[(postings.seed_account(p), amount), (postings.liability_account(p), -amount)],
    )
    audit_log(actor=actor, action="slots.progressive.create", object_type="slot_progressive", object_id=p.pk,
              after=progressive_snapshot(p))
    return p


@transaction.atomic
def progressive_link(*, progressive_id: Any, machine_id: Any, actor: Any) -> Progressive:
    """Link a machine: its coin in contributes from its next reading on."""
    ensure_writer(actor)
    machine = lock_machine(machine_id)
    p = lock_progressive(progressive_id)
    _ensure_linkable(machine)
    before = progressive_snapshot(p)
    if p.machines.filter(pk=machine.pk).exists():
        raise Conflict(gettext("%(machine)s is already linked to %(progressive)s") % {"machine": machine.asset_number, "progressive": p.code}, code="already_linked",
                       field="machine")
    if p.scope == ProgressiveScope.MACHINE and p.machines.exists():
        raise Conflict(gettext("%(progressive)s is one machine's own progressive") % {"progressive": p.code}, code="one_machine", field="machine")
    p.machines.add(machine)
    audit_log(actor=actor, action="slots.progressive.link", object_type="slot_progressive", object_id=p.pk,
              before=before, after={**progressive_snapshot(p), "linked": machine.asset_number})
    return p


@transaction.atomic
def progressive_unlink(*, progressive_id: Any, machine_id: Any, actor: Any) -> Progressive:
    """Unlink a machine: it no longer contributes (its readings stop feeding the jackpot) nor can win it."""
    ensure_writer(actor)
    machine = lock_machine(machine_id)
    p = lock_progressive(progressive_id)
    before = progressive_snapshot(p)
    if not p.machines.filter(pk=machine.pk).exists():
        raise Conflict(gettext("%(machine)s is not linked to %(progressive)s") % {"machine": machine.asset_number, "progressive": p.code},
                       code="not_linked", field="machine")
    p.machines.remove(machine)
    audit_log(actor=actor, action="slots.progressive.unlink", object_type="slot_progressive", object_id=p.pk,
              before=before, after={**progressive_snapshot(p), "unlinked": machine.asset_number})
    return p


@transaction.atomic
def progressive_hit(
    *,
    progressive_id: Any,
    machine_id: Any,
    actor: Any,
    paid_by: Any = PaidBy.HANDPAY,
    expected_amount: Any = None,
    note: Any = "",
) -> ProgressiveHit:
    """The progressive is won at ``machine``: pay its current amount, then reset it to the reset value.

    Two transactions: the payout (the liability is debited, the cage — or the machine, for credits paid
    on it — credited) and the reset (the house funds the reset value into the liability). The carried
    fraction of a minor unit stays carried. With ``expected_amount`` (what the machine shows) a
    different current amount is refused, so two attendants cannot pay one jackpot twice.
    """
    ensure_writer(actor)
    paid_by = choice(paid_by, field="paid_by", choices=PaidBy)
    note = text(note, field="note", max_length=200)
    if expected_amount is not None:
        expected_amount = whole(expected_amount, field="expected_amount", minimum=1, maximum=METER_MAX)
    machine = lock_machine(machine_id)
    p = lock_progressive(progressive_id)
    if not p.machines.filter(pk=machine.pk).exists():
        raise Conflict(gettext("%(machine)s is not linked to %(progressive)s: it cannot win it")
                       % {"machine": machine.asset_number, "progressive": p.code}, code="not_linked",
                       field="machine")
    amount = p.amount
    if expected_amount is not None and expected_amount != amount:
        raise Conflict(gettext("%(progressive)s stands at %(amount)s, not %(expected)s")
                       % {"progressive": p.code, "amount": money_amount(amount), "expected": money_amount(expected_amount)}, code="amount_changed",
                       field="expected_amount")
    seq = p.hits + 1
    source = f"{p.pk}:{seq}"
    liability = postings.liability_account(p)
    payout = postings.post(
        kind=PROGRESSIVE_HIT, source_id=source, actor=actor,
        memo=f"{p.name} won at {machine.asset_number} ({paid_by})",
        lines=[(liability, amount), (postings.payout_account(machine, paid_by), -amount)],
    )
    reset = postings.post(
        kind=PROGRESSIVE_RESET, source_id=source, actor=actor,
        memo=f"{p.name} reset to {p.reset_value} by the house",
        lines=[(postings.seed_account(p), p.reset_value), (liability, -p.reset_value)],
    )
    changed = Progressive.objects.filter(pk=p.pk, amount=amount, hits=seq - 1).update(amount=p.reset_value, hits=seq)
    if changed != 1:
        raise Conflict(gettext("progressive %(progressive)s changed meanwhile; retry") % {"progressive": p.code}, code="progressive_changed")
    hit = ProgressiveHit.objects.create(  # type: ignore[misc]  # post() returns None only for all-zero lines
        progressive=p, seq=seq, machine=machine, amount=amount, reset_value=p.reset_value, paid_by=paid_by,
        payout_transaction=payout, reset_transaction=reset, note=note, recorded_by=actor, hit_at=timezone.now(),
    )
    audit_log(
        actor=actor, action="slots.progressive.hit", object_type="slot_progressive", object_id=p.pk,
        before={"amount": amount, "hits": seq - 1},
        after={"machine": machine.asset_number, "paid": amount, "paid_by": paid_by, "amount": p.reset_value,
               "hits": seq, "hit": hit.pk, "note": note},
    )
    return hit

