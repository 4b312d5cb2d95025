"""The demo slot floor: the rule book's 3-reel games (Crazy Dragon, It's Good to be Bad, Light Speed on their
system-wide progressives; Bank on It!'s piggy bank, The Big Heist's safe, Frozen Assets' snowman), each read
twice and with its bonus meters part-way, all through the services (ledger, audit) as a pit manager would.

Idempotent: what exists (by asset number, progressive code, meter name) is left as it is, and a machine
that already has readings gets no more. Built by ``python manage.py demo`` (floor/management/commands/demo.py) after the tables.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.context import RequestContext, acting_as
from slots.models import BonusMeter, BonusUnit, Machine, Progressive, ProgressiveScope
from slots.services import bonus, machines, progressives

# asset number, game, denomination (minor units a credit), location — denominations as the rule book allows them
MACHINES = [
    ("CD-101", "Crazy Dragon", 100, "Dragon bank"),
    ("CD-102", "Crazy Dragon", 100, "Dragon bank"),
    ("GB-201", "It's Good to be Bad", 25, "Devil bank"),
    ("GB-202", "It's Good to be Bad", 100, "Devil bank"),
    ("LS-301", "Light Speed", 25, "Space bank"),
    ("BO-401", "Bank on It!", 25, "Classic bank"),
    ("BH-501", "The Big Heist", 5, "Classic bank"),
    ("FA-601", "Frozen Assets", 100, "Classic bank"),
]
# code, name, reset value (the rule book's $2,000, $100,000 and $700), basis points of coin in, machines
PROGRESSIVES = [
    ("crazy-dragon", "Crazy Dragon", 200_000, 150, ["CD-101", "CD-102"]),
    ("good-to-be-bad", "It's Good to be Bad", 10_000_000, 200, ["GB-201", "GB-202"]),
    ("light-speed", "Light Speed", 70_000, 100, ["LS-301"]),
]
# machine, name, label, unit, reset value, target (counts), value the machine shows now
BONUS_METERS = [
    ("CD-101", "respins", "Re-spins (100 win the progressive)", BonusUnit.COUNT, 0, 100, 37),
    ("CD-102", "respins", "Re-spins (100 win the progressive)", BonusUnit.COUNT, 0, 100, 12),
    ("GB-201", "loss_meter", "Loss Meter (29 in a row win the progressive)", BonusUnit.COUNT, 0, 29, 11),
    ("GB-201", "free_spins", "Free Winning Spins", BonusUnit.COUNT, 0, None, 2),
    ("GB-202", "loss_meter", "Loss Meter (29 in a row win the progressive)", BonusUnit.COUNT, 0, 29, 4),
    ("GB-202", "free_spins", "Free Winning Spins", BonusUnit.COUNT, 0, None, 1),
    ("LS-301", "light_speed", "Light Speed meter (1× to 7×)", BonusUnit.COUNT, 1, 7, 4),
    ("BO-401", "piggy_bank", "Piggy Bank", BonusUnit.CREDITS, 150, None, 183),
    ("BH-501", "safe_clicks", "Safe counter (50 clicks crack the safe)", BonusUnit.COUNT, 0, 50, 23),
    ("FA-601", "snowman_bonus", "Snowman bonus", BonusUnit.CREDITS, 500, None, 512),
    ("FA-601", "snowflakes", "Snowflakes (200 win the snowman bonus)", BonusUnit.COUNT, 0, 200, 137),
]


def _readings(n: int, denomination: int) -> tuple[dict[str, int], dict[str, int]]:
    """A baseline and a later reading of machine ``n``: awkward coin in (the carry shows), a hold of 5–12 %."""
    base = {"coin_in": 1_000_000 * (n + 1), "coin_out": 910_000 * (n + 1), "jackpots": 0,
            "games_played": 4_000 * (n + 1), "drop": 600_000 * (n + 1)}
    played = 250_000 + 37_913 * n
    hold_bp = 500 + 100 * n  # 5 %, 6 %, … of coin in
    jackpots = 20_000 if n % 3 == 0 else 0
    later = {
        "coin_in": base["coin_in"] + played,
        "coin_out": base["coin_out"] + played - played * hold_bp // 10_000 - jackpots,
        "jackpots": jackpots,
        "games_played": base["games_played"] + played // (3 * denomination),
        "drop": base["drop"] + played * 6 // 10,
    }
    return base, later


@transaction.atomic
def build_slot_floor(*, actor: Any) -> dict[str, int]:
    """Create (or find) the demo slot floor as ``actor`` (a pit manager); returns how many of each it made."""
    made = {"machines": 0, "readings": 0, "progressives": 0, "bonus_meters": 0}
    now = timezone.now()
    with acting_as(RequestContext(channel="command", device="demo:slots")):
        floor: dict[str, Machine] = {}
        for asset, game, denomination, location in MACHINES:
            m = Machine.objects.filter(asset_number=asset).first()
            if m is None:
                m = machines.machine_create(asset_number=asset, game=game, denomination=denomination,
                                            location=location, actor=actor)
                made["machines"] += 1
            floor[asset] = m
        for code, name, reset, bp, linked in PROGRESSIVES:
            if not Progressive.objects.filter(code=code).exists():
                progressives.progressive_create(code=code, name=name, scope=ProgressiveScope.SYSTEM, reset_value=reset,
                                                contribution_bp=bp, machines=[floor[a].pk for a in linked], actor=actor)
                made["progressives"] += 1
        for n, (asset, _, denomination, _) in enumerate(MACHINES):
            m = floor[asset]
            m.refresh_from_db()
            if m.readings:
                continue
            base, later = _readings(n, denomination)
            for meters, at in ((base, now - dt.timedelta(hours=4)), (later, now - dt.timedelta(minutes=30))):
                machines.meter_reading_record(machine_id=m.pk, read_at=at, actor=actor, **meters)
                made["readings"] += 1
        for asset, name, label, unit, reset, target, shows in BONUS_METERS:
            m = floor[asset]
            if BonusMeter.objects.filter(machine=m, name=name).exists():
                continue
            meter = bonus.bonus_meter_create(machine_id=m.pk, name=name, label=label, unit=unit, reset_value=reset,
                                             target=target, actor=actor)
            if shows != meter.value:
                bonus.bonus_meter_update(meter_id=meter.pk, value=shows, actor=actor)
            made["bonus_meters"] += 1
    return made
