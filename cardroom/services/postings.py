"""The card room's ledger accounts and postings (``accounting.services.ledger``).

Money the card room takes in and pays out goes through its desk (an asset): rake is revenue of
the table it was collected at; a tournament's entry fees are owed to its prize pool (a liability)
until the prizes are paid, and its house fees are revenue.
"""

from __future__ import annotations

from typing import Any

from accounting.models import Account, AccountKind, LedgerTransaction
from accounting.services.ledger import account_for, ledger_post
from tables.models import Shift
from tables.selectors import shift_at

RAKE = "cardroom_rake"
ENTRY = "cardroom_entry"
PRIZES = "cardroom_prizes"


def desk_account() -> Account:
    return account_for("cardroom:desk", name="Card-room desk (rake, entry fees, prizes)", kind=AccountKind.ASSET)


def rake_account(table: Any) -> Account:
    return account_for(
        f"cardroom:table:{table.code}:rake", name=f"{table.code} card-room rake", kind=AccountKind.REVENUE, table=table
    )


def prize_pool_account(tournament: Any) -> Account:
    return account_for(
        f"cardroom:tournament:{tournament.pk}:prizes", name=f"{tournament.name} prize pool", kind=AccountKind.LIABILITY
    )


def fees_account(tournament: Any) -> Account:
    return account_for(
        f"cardroom:tournament:{tournament.pk}:fees", name=f"{tournament.name} house fees", kind=AccountKind.REVENUE
    )


def open_shift(*, table: Any = None, pit: Any = None, actor: Any = None) -> Shift | None:
    """The shift a card-room posting made now at ``table`` (or in ``pit``) belongs to, by the one rule
    of :func:`tables.selectors.shift_at`; None when no shift is open."""
    return shift_at(table=table, pit=pit, actor=actor)


def post_rake(*, rake: Any, actor: Any) -> LedgerTransaction:
    table = rake.sheet.table
    return ledger_post(
        kind=RAKE,
        source_type=RAKE,
        source_id=rake.pk,
        lines=[(desk_account(), rake.amount), (rake_account(table), -rake.amount)],
        memo=f"{table.code} sheet {rake.sheet_id} rake" + (f": {rake.memo}" if rake.memo else ""),
        actor=actor,
        table=table,
        shift=open_shift(table=table, actor=actor),
    )


def post_entry(*, entry: Any, actor: Any) -> LedgerTransaction | None:
    """An entry's fee and house fee; nothing for a free entry (a freeroll)."""
    if entry.fee + entry.house_fee == 0:
        return None
    t = entry.tournament
    return ledger_post(
        kind=ENTRY,
        source_type=ENTRY,
        source_id=entry.pk,
        lines=[
            (desk_account(), entry.fee + entry.house_fee),
            (prize_pool_account(t), -entry.fee),
            (fees_account(t), -entry.house_fee),
        ],
        memo=f"{t.name}: entry of {entry.player}",
        actor=actor,
        shift=open_shift(pit=t.pit),
    )


def post_prizes(*, tournament: Any, total: int, actor: Any) -> LedgerTransaction | None:
    if total == 0:
        return None
    return ledger_post(
        kind=PRIZES,
        source_type=PRIZES,
        source_id=tournament.pk,
        lines=[(prize_pool_account(tournament), total), (desk_account(), -total)],
        memo=f"{tournament.name}: prizes",
        actor=actor,
        shift=open_shift(pit=tournament.pit),
    )
