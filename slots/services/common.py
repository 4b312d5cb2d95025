"""What the slot services share: row locks in one order, the role check, input checks.

Locks are always taken machine → progressive(s) by id → bonus meter, so two services never wait on
each other in opposite orders (a reading locks its machine, then the progressives it feeds; a hit
locks the winning machine, then the progressive).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from casino.core.roles import Role, has_role
from casino.errors import Forbidden, InvalidInput, NotFound
from slots.labels import count_words, field_words
from slots.models import METER_MAX, BonusMeter, Machine, Progressive

WRITERS = (Role.PIT_MANAGER,)  # admins hold every role


def ensure_writer(actor: Any) -> None:
    if not has_role(actor, *WRITERS):
        raise Forbidden(gettext("slot machines are run by pit managers"), code="role_required")


NOT_FOUND = {
    "unknown_machine": gettext_lazy("no slot machine %(id)s"), "unknown_progressive": gettext_lazy("no progressive %(id)s"),
    "unknown_bonus_meter": gettext_lazy("no bonus meter %(id)s"),
}


def not_found(code: str, value: Any, *, field: str | None = None) -> NotFound:
    """No machine, progressive or bonus meter of that id (``code`` says which)."""
    return NotFound(str(NOT_FOUND[code]) % {"id": value}, code=code, field=field)


def _id(value: Any, *, code: str, field: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise not_found(code, value, field=field)
    return value


def lock_machine(machine_id: Any, *, field: str | None = "machine") -> Machine:
    pk = _id(machine_id, code="unknown_machine", field=field)
    machine = Machine.objects.select_for_update().filter(pk=pk).first()
    if machine is None:  # an id from a request: a clear 404, never a DoesNotExist 500
        raise not_found("unknown_machine", machine_id, field=field)
    return machine


def lock_progressive(progressive_id: Any) -> Progressive:
    pk = _id(progressive_id, code="unknown_progressive", field=None)
    progressive = Progressive.objects.select_for_update().filter(pk=pk).first()
    if progressive is None:
        raise not_found("unknown_progressive", progressive_id)
    return progressive


def lock_progressives(ids: Iterable[int]) -> list[Progressive]:
    return list(Progressive.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"))


def lock_bonus_meter(meter_id: Any) -> BonusMeter:
    """The meter's machine first, then the meter."""
    pk = _id(meter_id, code="unknown_bonus_meter", field=None)
    machine_id = BonusMeter.objects.filter(pk=pk).values_list("machine_id", flat=True).first()
    if machine_id is None:
        raise not_found("unknown_bonus_meter", meter_id)
    lock_machine(machine_id)
    return BonusMeter.objects.select_for_update(of=("self",)).select_related("machine").get(pk=pk)


def whole(value: Any, *, field: str, minimum: int = 0, maximum: int = METER_MAX) -> int:
    """A whole number in range (JSON integers only: no strings, floats or booleans)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(gettext("%(field)s must be a whole number") % {"field": field_words(field)}, code="not_a_whole_number", field=field)
    if value < minimum or value > maximum:
        raise InvalidInput(gettext("%(field)s must be from %(least)s to %(most)s")
                           % {"field": field_words(field), "least": count_words(minimum), "most": count_words(maximum)}, code="out_of_range", field=field)
    return value


def text(value: Any, *, field: str, max_length: int, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(gettext("%(field)s must be text") % {"field": field_words(field)}, code="bad_text", field=field)
    value = value.strip()
    if required and not value:
        raise InvalidInput(gettext("%(field)s is required") % {"field": field_words(field)}, code="required", field=field)
    if len(value) > max_length:
        raise InvalidInput(gettext("%(field)s must be at most %(count)s characters")
                           % {"field": field_words(field), "count": max_length}, code="too_long", field=field)
    return value


def choice(value: Any, *, field: str, choices: Any) -> str:
    if value not in choices.values:
        raise InvalidInput(gettext("%(field)s must be one of %(choices)s")
                           % {"field": field_words(field), "choices": ", ".join(str(c.label) for c in choices)}, code="bad_choice", field=field)
    return str(value)
