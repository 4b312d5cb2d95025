"""Every slot service that writes is for pit managers (and admins): dealers, accountants, auditors and staff
without a role are refused by the service itself, whatever screen or API called it, and nothing changes."""

from __future__ import annotations

import pytest

from accounting.models import Entry, LedgerTransaction
from casino.audit.models import AuditRecord
from casino.errors import Forbidden
from slots.models import BonusMeter, BonusMeterEvent, Machine, MeterReading, Progressive, ProgressiveHit
from slots.services import bonus, machines, progressives
from tests.slots.helpers import machine, progressive, read


def _everything() -> tuple:
    return (
        list(Machine.objects.order_by("pk").values_list("pk", "status", "location", "readings")),
        list(Progressive.objects.order_by("pk").values_list("pk", "amount", "remainder", "hits")),
        list(BonusMeter.objects.order_by("pk").values_list("pk", "value", "hits", "events")),
        MeterReading.objects.count(), ProgressiveHit.objects.count(), BonusMeterEvent.objects.count(),
        LedgerTransaction.objects.count(), Entry.objects.count(), AuditRecord.objects.count(),
    )


@pytest.fixture
def slot_floor(floor):
    """A linked machine read once, a second unlinked one, a progressive and a piggy bank (below its 150)."""
    m = machine(floor.manager, "S-1", game="Crazy Dragon", denomination=100)
    other = machine(floor.manager, "S-2", game="Crazy Dragon", denomination=100)
    p = progressive(floor.manager, machines_=[m])
    read(m, floor.manager, 10_000)
    piggy = bonus.bonus_meter_create(machine_id=m.pk, name="piggy_bank", label="Piggy Bank", unit="credits",
                                     reset_value=150, value=120, actor=floor.manager)
    return m, other, p, piggy


WRITES = {
    "machine_create": lambda m, o, p, b, u: machines.machine_create(asset_number="S-9", game="Light Speed",
                                                                    denomination=25, actor=u),
    "machine_update": lambda m, o, p, b, u: machines.machine_update(machine_id=m.pk, location="Bank Z", actor=u),
    "meter_reading_record": lambda m, o, p, b, u: read(m, u, 20_000),
    "progressive_create": lambda m, o, p, b, u: progressive(u, "light-speed", machines_=[o], reset=70_000,
                                                            name="Light Speed"),
    "progressive_link": lambda m, o, p, b, u: progressives.progressive_link(progressive_id=p.pk, machine_id=o.pk,
                                                                            actor=u),
    "progressive_unlink": lambda m, o, p, b, u: progressives.progressive_unlink(progressive_id=p.pk,
                                                                                machine_id=m.pk, actor=u),
    "progressive_hit": lambda m, o, p, b, u: progressives.progressive_hit(progressive_id=p.pk, machine_id=m.pk,
                                                                          actor=u),
    "bonus_meter_create": lambda m, o, p, b, u: bonus.bonus_meter_create(
        machine_id=m.pk, name="safe_clicks", label="Safe counter", unit="count", reset_value=0, target=50, actor=u),
    "bonus_meter_update": lambda m, o, p, b, u: bonus.bonus_meter_update(meter_id=b.pk, value=180, actor=u),
    "bonus_meter_hit": lambda m, o, p, b, u: bonus.bonus_meter_hit(meter_id=b.pk, actor=u),
    "bonus_meter_reset": lambda m, o, p, b, u: bonus.bonus_meter_reset(meter_id=b.pk, reason="x", actor=u),
}


@pytest.mark.parametrize("write", sorted(WRITES))
def test_only_pit_managers_write(floor, slot_floor, write):
    # given the slot floor as it stands
    before = _everything()
    # when a dealer, an accountant, an auditor or someone without a role tries the write
    for user in (floor.dealer, floor.accountant, floor.auditor, floor.nobody):
        with pytest.raises(Forbidden) as refused:
            WRITES[write](*slot_floor, user)
        # then it is refused, naming the role, and nothing changed
        assert refused.value.code == "role_required", user.username
    assert _everything() == before
    # and a pit manager may
    WRITES[write](*slot_floor, floor.other_manager)
    assert _everything() != before
