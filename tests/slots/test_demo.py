"""The demo slot floor: the rule book's games on their progressives, read twice, bonus meters part-way; built twice,
the second time changes nothing."""

from __future__ import annotations

from accounting.models import LedgerTransaction
from accounting.money import percent_text
from casino.audit.models import AuditRecord
from slots import selectors
from slots.demo import build_slot_floor
from slots.models import BonusMeter, Machine, MeterReading, Progressive
from tests.slots.helpers import assert_ledger_balanced


def test_the_demo_slot_floor_is_built_once_through_the_services(floor):
    # when the demo slot floor is built twice
    first = build_slot_floor(actor=floor.manager)
    counts = (Machine.objects.count(), MeterReading.objects.count(), Progressive.objects.count(),
              BonusMeter.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count())
    second = build_slot_floor(actor=floor.manager)
    # then the first made everything, the second nothing
    assert first == {"machines": 8, "readings": 16, "progressives": 3, "bonus_meters": 11}
    assert second == {"machines": 0, "readings": 0, "progressives": 0, "bonus_meters": 0}
    assert (Machine.objects.count(), MeterReading.objects.count(), Progressive.objects.count(),
            BonusMeter.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count()) == counts
    # and the progressives start at the rule book's reset values, grown by their machines' play
    shown = dict(Progressive.objects.values_list("code", "reset_value"))
    assert shown == {"crazy-dragon": 200_000, "good-to-be-bad": 10_000_000, "light-speed": 70_000}
    for row in selectors.progressive_liabilities():
        p = row["progressive"]
        assert row["liability"] == p.amount > p.reset_value
        assert row["contributed"] == p.amount - p.reset_value
    # CD-101 and CD-102 played 2,500.00 and 2,879.13 at 1.5 %: 37.50 + 43.18695 → 80.68, 0.6950 carried
    dragon = Progressive.objects.get(code="crazy-dragon")
    assert (dragon.amount, dragon.remainder) == (200_000 + 8_068, 6_950)
    # each machine's hold is 5 %, 6 %, … 12 % of its coin in (to a cent of win)
    holds = {r["machine"].asset_number: percent_text(r["hold"]) for r in selectors.machine_hold()}
    assert holds == {"CD-101": "5.00", "CD-102": "6.00", "GB-201": "7.00", "GB-202": "8.00", "LS-301": "9.00",
                     "BO-401": "10.00", "BH-501": "11.00", "FA-601": "12.00"}
    # the piggy bank and the snowman owe what they show
    owed = {r["meter"].name: (r["liability"], r["meter"].owed) for r in selectors.bonus_liabilities()}
    assert owed == {"piggy_bank": (4_575, 4_575), "snowman_bonus": (51_200, 51_200)}
    assert_ledger_balanced()
