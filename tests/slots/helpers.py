"""Building blocks for the slot tests: machines and progressives from the rule book's 3-reel games, readings,
and the ledger read back independently of the services."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from accounting.models import Entry, LedgerTransaction
from slots.models import Machine, MeterReading, Progressive
from slots.services import machines, progressives

# the rule book (004) resets, in cents
CRAZY_DRAGON_RESET = 200_000  # $2,000, $1 machines only
GOOD_TO_BE_BAD_RESET = 10_000_000  # $100,000, 25¢ or $1
LIGHT_SPEED_RESET = 70_000  # $700, 25¢ only


def machine(actor: Any, asset: str = "S-1001", *, game: str = "Crazy Dragon", denomination: int = 100,
            location: str = "Bank A") -> Machine:
    return machines.machine_create(asset_number=asset, game=game, denomination=denomination, location=location,
                                   actor=actor)


def progressive(actor: Any, code: str = "crazy-dragon", *, machines_: tuple[Machine, ...] | list[Machine] = (), reset: int = CRAZY_DRAGON_RESET,
                bp: int = 150, scope: str = "system", name: str = "Crazy Dragon", **more: Any) -> Progressive:
    return progressives.progressive_create(
        code=code, name=name, scope=scope, reset_value=reset, contribution_bp=bp,
        machines=[m.pk for m in machines_], actor=actor, **more,
    )


def read(m: Machine, actor: Any, coin_in: int, coin_out: int = 0, jackpots: int = 0, games: int = 0, drop: int = 0,
         **more: Any) -> MeterReading:
    return machines.meter_reading_record(machine_id=m.pk, coin_in=coin_in, coin_out=coin_out, jackpots=jackpots,
                                         games_played=games, drop=drop, actor=actor, **more)


def balance(code: str) -> int:
    """Σ entries of the account with this code (debit positive), straight from the entries."""
    return int(Entry.objects.filter(account__code=code).aggregate(s=Sum("amount"))["s"] or 0)


def entries(txn: LedgerTransaction | None) -> dict[str, int]:
    return {} if txn is None else {e.account.code: e.amount for e in txn.entries.select_related("account")}


def assert_ledger_balanced() -> None:
    """Every transaction sums to zero, so all entries do too."""
    unbalanced = (
        LedgerTransaction.objects.annotate(s=Sum("entries__amount")).exclude(s=0).exclude(s__isnull=True).count()
    )
    assert unbalanced == 0
    assert (Entry.objects.aggregate(s=Sum("amount"))["s"] or 0) == 0


def liability(p: Progressive) -> int:
    """What the ledger owes on a progressive (its liability account is in credit)."""
    return -balance(f"progressive:{p.code}")
