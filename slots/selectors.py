"""Reads: each machine's meters and hold over a period, and what the slot floor owes (progressives and
credits on bonus meters), from the ledger."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, Sum

from accounting.models import Entry
from accounting.money import hold_fraction
from slots.models import (
    BASIS_POINTS,
    PROGRESSIVE_HIT,
    PROGRESSIVE_RESET,
    PROGRESSIVE_SEED,
    READING,
    BonusMeter,
    BonusMeterEvent,
    BonusUnit,
    Machine,
    MeterReading,
    Progressive,
    ProgressiveContribution,
    bonus_account_code,
)


def hold(win: int, coin_in: int) -> Fraction | None:
    """Hold = (coin in − coin out − jackpots) / coin in, exact; None when nothing was played."""
    return hold_fraction(win, coin_in)


def fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


def carried_text(remainder: int) -> str:
    """A carried remainder (1/10 000 of a minor unit) as a decimal fraction of a minor unit: 1750 → 0.1750."""
    return f"0.{remainder:04d}" if BASIS_POINTS == 10_000 else str(Fraction(remainder, BASIS_POINTS))


def balances(codes: list[str]) -> dict[str, int]:
    """Σ entries per account code (debit positive), one query."""
    rows = Entry.objects.filter(account__code__in=codes).values("account__code").annotate(s=Sum("amount"))
    return {r["account__code"]: int(r["s"] or 0) for r in rows}


def machine_hold(
    *,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    machine: str | None = None,
    game: str | None = None,
) -> list[dict[str, Any]]:
    """Each machine's meter differences summed over the readings taken in the period (by ``read_at`` date),
    its win and hold, and what its coin in set aside for progressives. Machines with no reading show zeros."""
    readings = MeterReading.objects.all()
    contributions = ProgressiveContribution.objects.all()
    if date_from:
        readings = readings.filter(read_at__date__gte=date_from)
        contributions = contributions.filter(reading__read_at__date__gte=date_from)
    if date_to:
        readings = readings.filter(read_at__date__lte=date_to)
        contributions = contributions.filter(reading__read_at__date__lte=date_to)
    sums = {
        r["machine_id"]: r
        for r in readings.values("machine_id").annotate(
            readings=Count("id"),
            coin_in=Sum("d_coin_in"),
            coin_out=Sum("d_coin_out"),
            jackpots=Sum("d_jackpots"),
            games_played=Sum("d_games_played"),
            drop=Sum("d_drop"),
            ram_clears=Count("id", filter=Q(ram_clear=True)),
        )
    }
    set_aside = dict(
        contributions.values("reading__machine_id").annotate(s=Sum("amount")).values_list("reading__machine_id", "s")
    )
    machines = Machine.objects.order_by("asset_number")
    if machine:
        machines = machines.filter(asset_number=machine)
    if game:
        machines = machines.filter(game=game)
    rows = []
    for m in machines:
        s: Mapping[str, Any] = sums.get(m.pk, {})
        figures = {k: int(s.get(k) or 0) for k in ("readings", "coin_in", "coin_out", "jackpots", "games_played",
                                                     "drop", "ram_clears")}
        win = figures["coin_in"] - figures["coin_out"] - figures["jackpots"]
        rows.append({
            "machine": m,
            **figures,
            "win": win,
            "hold": hold(win, figures["coin_in"]),
            "contributions": int(set_aside.get(m.pk) or 0),
        })
    return rows


def progressive_liabilities() -> list[dict[str, Any]]:
    """Each progressive: what it shows, and from the ledger what it owes, what play contributed, what the
    house funded (start and resets) and what was paid out."""
    progressives = list(Progressive.objects.prefetch_related("machines").order_by("code"))
    codes = [f"progressive:{p.code}" for p in progressives]
    by: dict[str, dict[str, int]] = defaultdict(dict)
    for r in (
        Entry.objects.filter(account__code__in=codes)
        .values("account__code", "transaction__kind")
        .annotate(s=Sum("amount"))
    ):
        by[r["account__code"]][r["transaction__kind"]] = int(r["s"] or 0)
    rows = []
    for p in progressives:
        kinds = by.get(f"progressive:{p.code}", {})
        seeded = kinds.get(PROGRESSIVE_SEED, 0) + kinds.get(PROGRESSIVE_RESET, 0)
        known = (READING, PROGRESSIVE_SEED, PROGRESSIVE_RESET, PROGRESSIVE_HIT)
        rows.append({
            "progressive": p,
            "machines": sorted(m.asset_number for m in p.machines.all()),
            "liability": -sum(kinds.values()),
            "contributed": -kinds.get(READING, 0),
            "funded": -seeded,
            "paid": kinds.get(PROGRESSIVE_HIT, 0),
            # anything else on the account (an accountant's reversal) shows here and as a difference
            "other": -sum(v for k, v in kinds.items() if k not in known),
        })
    return rows


def bonus_liabilities() -> list[dict[str, Any]]:
    """Each credits bonus meter: the credits it shows valued at the denomination, and the ledger's figure."""
    meters = list(BonusMeter.objects.filter(unit=BonusUnit.CREDITS).select_related("machine").order_by(
        "machine__asset_number", "name"))
    figures = {
        r["meter_id"]: r
        for r in BonusMeterEvent.objects.filter(meter__in=meters).values("meter_id").annotate(
            paid=Sum("paid"), funded=Sum("funded"), accrued=Sum("accrued"), released=Sum("released")
        )
    }
    codes = {m.pk: bonus_account_code(m.machine, m.name) for m in meters}
    ledger = balances(list(codes.values()))
    rows = []
    for m in meters:
        f: Mapping[str, Any] = figures.get(m.pk, {})
        rows.append({
            "meter": m,
            "liability": -ledger.get(codes[m.pk], 0),
            "contributed": int(f.get("accrued") or 0),
            "funded": int(f.get("funded") or 0),
            "paid": int(f.get("paid") or 0),
            "released": int(f.get("released") or 0),
        })
    return rows


def last_readings(machines: list[Machine]) -> dict[int, MeterReading]:
    """Each machine's latest reading (by seq), one query."""
    wanted = Q()
    for m in machines:
        if m.readings:
            wanted |= Q(machine_id=m.pk, seq=m.readings)
    if not wanted:
        return {}
    return {r.machine_id: r for r in MeterReading.objects.filter(wanted)}
