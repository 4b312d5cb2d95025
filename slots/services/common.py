"""What the slot services share: row locks in one order, the role check, input checks.

Locks are always taken machine → progressive(s) by id → bonus meter, so two services never wait on
each other in opposite orders (a reading locks its machine, then the progressives it feeds; a hit
locks the winning machine, then the progressive).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casino.core.roles import Role, has_role
from casino.errors import Forbidden, InvalidInput, NotFound
from slots.models import METER_MAX, BonusMeter, Machine, Progressive

WRITERS = (Role.PIT_MANAGER,)  # admins hold every role


def ensure_writer(actor: Any) -> None:
    if not has_role(actor, *WRITERS):
        raise Forbidden("slot machines are run by pit managers", code="role_required")


def _id(value: Any, *, what: str, code: str, field: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise NotFound(f"no {what} {value}", code=code, field=field)
    return value


def lock_machine(machine_id: Any, *, field: str | None = "machine") -> Machine:
    pk = _id(machine_id, what="slot machine", code="unknown_machine", field=field)
    machine = Machine.objects.select_for_update().filter(pk=pk).first()
    if machine is None:  # an id from a request: a clear 404, never a DoesNotExist 500
        raise NotFound(f"no slot machine {machine_id}", code="unknown_machine", field=field)
    return machine


def lock_progressive(progressive_id: Any) -> Progressive:
    pk = _id(progressive_id, what="progressive", code="unknown_progressive", field=None)
    progressive = Progressive.objects.select_for_update().filter(pk=pk).first()
    if progressive is None:
        raise NotFound(f"no progressive {progressive_id}", code="unknown_progressive")
    return progressive


def lock_progressives(ids: Iterable[int]) -> list[Progressive]:
    return list(Progressive.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"))


def lock_bonus_meter(meter_id: Any) -> BonusMeter:
    """The meter's machine first, then the meter."""
    pk = _id(meter_id, what="bonus meter", code="unknown_bonus_meter", field=None)
    machine_id = BonusMeter.objects.filter(pk=pk).values_list("machine_id", flat=True).first()
    if machine_id is None:
        raise NotFound(f"no bonus meter {meter_id}", code="unknown_bonus_meter")
    lock_machine(machine_id)
    return BonusMeter.objects.select_for_update(of=("self",)).select_related("machine").get(pk=pk)


def whole(value: Any, *, field: str, minimum: int = 0, maximum: int = METER_MAX) -> int:
    """A whole number in range (JSON integers only: no strings, floats or booleans)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{field} must be a whole number", code="not_a_whole_number", field=field)
    if value < minimum or value > maximum:
        raise InvalidInput(f"{field} must be from {minimum} to {maximum}", code="out_of_range", field=field)
    return value


def text(value: Any, *, field: str, max_length: int, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be text", code="bad_text", field=field)
    value = value.strip()
    if required and not value:
        raise InvalidInput(f"{field} is required", code="required", field=field)
    if len(value) > max_length:
        raise InvalidInput(f"{field} must be at most {max_length} characters", code="too_long", field=field)
    return value


def choice(value: Any, *, field: str, choices: Any) -> str:
    if value not in choices.values:
        raise InvalidInput(f"{field} must be one of {', '.join(choices.values)}", code="bad_choice", field=field)
    return str(value)
