"""Posting to the ledger. Python refuses what the database would refuse, earlier and clearer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import Account, AccountKind, Entry, LedgerTransaction
from casino.audit.services import audit_log
from casino.core import sql
from casino.errors import Conflict
from tables.engines.result import RoundResult

ROUND = "round"


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"ledger amounts are integers in minor units, got {type(amount).__name__}")
    return amount


def account_for(
    code: str, *, name: str, kind: AccountKind, table: Any = None, denomination: int | None = None
) -> Account:
    account, _ = Account.objects.get_or_create(
        code=code, defaults={"name": name, "kind": kind, "table": table, "denomination": denomination}
    )
    return account


def _accounts(specs: dict[str, tuple[str, str, AccountKind, Any, int | None]]) -> dict[str, Account]:
    """Several accounts in one query (key → (code, name, kind, table, denomination)); missing ones created."""
    found = {a.code: a for a in Account.objects.filter(code__in=[spec[0] for spec in specs.values()])}
    return {
        key: found.get(code) or account_for(code, name=name, kind=kind, table=table, denomination=denomination)
        for key, (code, name, kind, table, denomination) in specs.items()
    }


def table_accounts(table: Any) -> dict[str, Account]:
    """The accounts a table posts to: its tray, its win, commission and rake revenue, its pool."""
    c = table.code
    return _accounts(
        {
            "tray": (f"table:{c}:tray", f"{c} chip tray", AccountKind.ASSET, table, None),
            "win": (f"table:{c}:win", f"{c} table win", AccountKind.REVENUE, table, None),
            "commission": (f"table:{c}:commission", f"{c} commission", AccountKind.REVENUE, table, None),
            "rake": (f"table:{c}:rake", f"{c} rake", AccountKind.REVENUE, table, None),
            "pool": (f"table:{c}:pool", f"{c} pot and pool carry", AccountKind.LIABILITY, table, None),
        }
    )


def pool_account(table: Any, name: str) -> Account:
    """A named pot or pool carried at a table (Carousel's count pool, Pony's pool, …): a liability."""
    return account_for(
        f"table:{table.code}:pool:{name}",
        name=f"{table.code} {name} pool carry",
        kind=AccountKind.LIABILITY,
        table=table,
    )


def tray_account(table: Any, denomination: int) -> Account:
    """The table's chips of one denomination, as last counted plus fills less credits."""
    return account_for(
        f"table:{table.code}:tray:{denomination}",
        name=f"{table.code} tray {denomination}",
        kind=AccountKind.ASSET,
        table=table,
        denomination=denomination,
    )


def shift_accounts(table: Any) -> dict[str, Account]:
    """The accounts a table's counts, drop and close post to, besides its tray by denomination."""
    c = table.code
    return _accounts(
        {
            "drop": (
                f"table:{c}:drop",
                f"{c} drop (cash and chips counted, to match chips sold)",
                AccountKind.ASSET,
                table,
                None,
            ),
            "variance": (
                f"table:{c}:variance",
                f"{c} count variance (count win − rounds win)",
                AccountKind.REVENUE,
                table,
                None,
            ),
            "discrepancy": (
                f"table:{c}:discrepancy",
                f"{c} inventory discrepancy between shifts",
                AccountKind.REVENUE,
                table,
                None,
            ),
        }
    )


def casino_accounts() -> dict[str, Account]:
    """The cage, markers receivable (and those written off) and the bankroll that issued the tables' first chips."""
    return _accounts(
        {
            "cage": ("cage", "Cage (chips and cash)", AccountKind.ASSET, None, None),
            "markers": ("markers", "Markers receivable", AccountKind.ASSET, None, None),
            "bankroll": ("bankroll", "Bankroll issued to the floor", AccountKind.EQUITY, None, None),
            # debited when a marker is written off: a loss against revenue
            "marker_write_offs": ("marker-write-offs", "Markers written off", AccountKind.REVENUE, None, None),
        }
    )


def progressive_account(name: str) -> Account:
    """A progressive jackpot's liability, funded by coin-in contributions (slots/services/postings.py)."""
    return account_for(f"progressive:{name}", name=f"Progressive {name}", kind=AccountKind.LIABILITY)


def account_balance(account: Account) -> int:
    """Σ entries of the account: debits positive, credits negative."""
    from django.db.models import Sum

    return int(Entry.objects.filter(account=account).aggregate(s=Sum("amount"))["s"] or 0)


@transaction.atomic  # the transaction and its entries together: the database takes no entry into a posted one
def ledger_post(
    *,
    kind: str,
    source_type: str,
    source_id: Any,
    lines: Iterable[tuple[Account, int]],
    memo: str = "",
    actor: Any = None,
    table: Any = None,
    shift: Any = None,
    reverses: LedgerTransaction | None = None,
) -> LedgerTransaction:
    """Post one balanced transaction. Zero lines are dropped; the rest must sum to zero."""
    return _post(kind=kind, source_type=source_type, source_id=source_id, lines=lines, memo=memo, actor=actor,
                 table=table, shift=shift, reverses=reverses)


def _post(*, kind: str, source_type: str, source_id: Any, lines: Iterable[tuple[Account, int]], memo: str, actor: Any,
          table: Any, shift: Any, reverses: LedgerTransaction | None) -> LedgerTransaction:
    """:func:`ledger_post`'s work, in the caller's transaction (it must have one)."""
    merged: dict[int, tuple[Account, int]] = {}
    for account, amount in lines:
        _check_amount(amount)
        prev = merged.get(account.pk, (account, 0))[1]
        merged[account.pk] = (account, prev + amount)
    entries = [(a, amt) for a, amt in merged.values() if amt != 0]
    total = sum(amt for _, amt in entries)
    if total != 0:
        raise ValueError(f"unbalanced ledger transaction ({source_type} {source_id}): entries sum to {total}")
    row = LedgerTransaction(kind=kind, source_type=source_type, source_id=str(source_id), memo=memo[:200],
                            reverses=reverses, table=table, shift=shift, posted_at=timezone.now(),
                            posted_by=actor if getattr(actor, "pk", None) else None)
    # one posting per source (the unique index): a second is written as nothing, not as an error, so no savepoint
    # is needed to refuse it and leave the caller's transaction usable (two round trips fewer on every settle)
    txn = sql.insert_or_nothing(row)
    if txn is None:
        raise Conflict(gettext("%(source)s %(source_id)s is already posted to the ledger")
                       % {"source": str(source_type).replace("_", " "), "source_id": source_id}, code="already_posted")
    Entry.objects.bulk_create([Entry(transaction=txn, account=a, amount=amt) for a, amt in entries])
    return txn


def round_line_codes(*, table_code: str, house_net: int, commission: int, rake: int,
                     answer: RoundResult | None) -> list[tuple[str, int]]:
    """A settled round's transaction as (account code, amount) lines, from the settlement's figures.

    Banked games: the house's net splits into table win, commission and rake revenue. Pool games
    (house net is the rake): the change in each carried pot is owed to future winners, a liability
    — one account per named pool when the engine names them (Carousel's count, pony, high card),
    else the table's single pot account. Reconciliation compares postings with these, by code.
    """
    carry_change = answer.pool_change if answer is not None else 0
    named = answer.pool_changes if answer is not None else {}
    c = table_code
    lines = [
        (f"table:{c}:tray", house_net + carry_change),
        (f"table:{c}:win", -(house_net - commission - rake)),
        (f"table:{c}:commission", -commission),
        (f"table:{c}:rake", -rake),
    ]
    if named:
        for name, change in sorted(named.items()):
            lines.append((f"table:{c}:pool:{name}", -change))
    else:
        lines.append((f"table:{c}:pool", -carry_change))
    return lines


def round_lines(settlement: Any) -> list[tuple[Account, int]]:
    """The lines of a settled round's transaction (:func:`round_line_codes`), with their accounts."""
    rnd = settlement.round
    acc = table_accounts(rnd.table)
    by_code = {a.code: a for a in acc.values()}
    lines = []
    for code, amount in round_line_codes(table_code=rnd.table.code, house_net=settlement.house_net,
                                         commission=settlement.commission, rake=settlement.rake,
                                         answer=settlement.answer()):
        account = by_code.get(code) or pool_account(rnd.table, code.split(":pool:", 1)[1])
        lines.append((account, amount))
    return lines


def round_post(*, settlement: Any) -> LedgerTransaction:
    """A settled round's transaction: the tray's change against win, commission, rake and pool."""
    rnd = settlement.round

    def post() -> LedgerTransaction:
        return _post(kind=ROUND, source_type=ROUND, source_id=rnd.pk, lines=round_lines(settlement),
                     actor=settlement.settled_by, table=rnd.table, shift=rnd.shift,
                     memo=f"{rnd.table.code} round #{rnd.number}", reverses=None)

    # In the settlement's transaction (tables.listeners.settlement_post), the posting joins it without a savepoint
    # of its own: nothing it refuses has written anything, and the transaction and its entries commit together.
    if transaction.get_connection().in_atomic_block:
        return post()
    with transaction.atomic():
        return post()


PAY_CORRECTION = "pay_correction"


def pay_correction_post(*, correction: Any) -> LedgerTransaction:
    """A supervisor's correction of a settled round's pay list: the house's change against the table's tray and
    win, a transaction of its own (the round's posting stays as the dealer confirmed it)."""
    rnd = correction.round
    acc = table_accounts(rnd.table)
    return ledger_post(
        kind=PAY_CORRECTION,
        source_type=PAY_CORRECTION,
        source_id=correction.pk,
        lines=[(acc["tray"], correction.house_change), (acc["win"], -correction.house_change)],
        actor=correction.corrected_by,
        table=rnd.table,
        shift=rnd.shift,
        memo=f"{rnd.table.code} round #{rnd.number}: pay list corrected",
    )


@transaction.atomic
def transaction_reverse(*, txn_id: int, actor: Any, reason: str) -> LedgerTransaction:
    """Correct a posting by a new transaction with every entry negated; the original stays."""
    original = LedgerTransaction.objects.select_for_update().get(pk=txn_id)
    if hasattr(original, "reversed_by"):
        raise Conflict(gettext("ledger transaction %(txn_id)s is already reversed") % {"txn_id": txn_id},
                       code="already_reversed")
    lines = [(e.account, -e.amount) for e in original.entries.select_related("account")]
    rev = ledger_post(
        kind="reversal",
        source_type="reversal",
        source_id=original.pk,
        lines=lines,
        memo=f"reversal of {original.pk}: {reason}",
        actor=actor,
        table=original.table,
        shift=original.shift,
        reverses=original,
    )
    audit_log(
        actor=actor,
        action="ledger.reverse",
        object_type="ledger_transaction",
        object_id=rev.pk,
        before={"transaction": original.pk},
        after={"reversal": rev.pk, "reason": reason},
    )
    return rev
